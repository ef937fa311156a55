// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * @protoc-gen-a2a/runtime/client: connecting to an agent from its Agent Card (spec §8.3):
 * fetching and leniently decoding the card, choosing an interface, capability gates. The
 * generated `connect<Service>` is built on these.
 */
export {
  AgentConnectError,
  agentCardUrl,
  connectAgent,
  fetchAgentCard,
  selectInterface,
  type AgentCardLike,
  type AgentClientSpec,
  type AgentConnectErrorOptions,
  type AgentConnectErrorReason,
  type AgentConnectOptions,
  type AgentConnection,
  type AgentInterfaceLike,
  type CapabilityGate,
  type ConnectClientOptions,
  type CustomBindingUri,
  type CustomTransportFactory,
  type FetchAgentCardOptions,
  type InterfaceTarget,
  type SelectInterfaceOptions,
  type SelectedInterface,
} from "./agent-client.js";
export type { ResumableStreamClientOptions, StreamResumeOptions } from "../http/stream-resume.js";
