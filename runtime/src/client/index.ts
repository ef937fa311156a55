// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * @protoc-gen-a2a/runtime/client: connecting to an agent from its Agent Card (spec §8.3):
 * fetching and leniently decoding the card, choosing an interface, failover across the card's
 * interfaces, capability gates. The generated `connect<Service>` is built on these.
 */
export {
  AgentConnectError,
  agentCardUrl,
  connectAgent,
  fetchAgentCard,
  filterProtocolVersions,
  selectInterface,
  selectInterfaces,
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
export {
  IDEMPOTENT_OPERATIONS,
  InterfaceFailover,
  classifyFailure,
  isRetryable,
  type FailoverCandidate,
  type FailoverEvent,
  type FailoverOptions,
  type FailureKind,
  type NotRetriedReason,
} from "./failover.js";
export {
  DEFAULT_INTERFACE_BACKOFF,
  InterfaceHealth,
  type InterfaceBackoffOptions,
  type InterfaceHealthState,
} from "./interface-health.js";
export { receivedEventId } from "../http/stream-resume.js";
/**
 * Agent Card signatures (A2A §8.4): `connectAgent(…, { verifyCard })` refuses a card whose signatures do not
 * verify (AgentConnectError reason "card-signature"); `verifyAgentCard` checks one directly. Needs the
 * optional peer dependencies `jose` and `canonicalize`, loaded on first use.
 */
export {
  AgentCardSignatureError,
  canonicalizeAgentCard,
  verifyAgentCard,
  type AgentCardJwk,
  type AgentCardJws,
  type AgentCardKey,
  type AgentCardKeyResolver,
  type AgentCardPayloadForm,
  type AgentCardSignatureFailure,
  type AgentCardSignatureHeader,
  type AgentCardSignatureReason,
  type AgentCardVerification,
  type AgentCardVerificationKeys,
  type VerifiedAgentCardSignature,
  type VerifyAgentCardOptions,
} from "../card-signature/index.js";
export type { ResumableStreamClientOptions, StreamResumeOptions } from "../http/stream-resume.js";
