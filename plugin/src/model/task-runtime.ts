// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import { ScalarType, type DescEnum, type DescField, type DescFile, type DescMessage } from "@bufbuild/protobuf";
import type { OperationModel, ServiceModel } from "./service-model.js";
import { A2A_OPERATIONS } from "../../../runtime/src/a2a-operations.js";

/** The messages the task runtime creates (the keys of its `schemas` binding). */
export const taskRuntimeMessages = [
  "Task",
  "TaskStatus",
  "Message",
  "Artifact",
  "TaskStatusUpdateEvent",
  "TaskArtifactUpdateEvent",
  "StreamResponse",
  "SendMessageResponse",
  "ListTasksResponse",
  "TaskPushNotificationConfig",
  "ListTaskPushNotificationConfigsResponse",
  "AgentCard",
] as const;

/** The RPCs a service needs for the task runtime to implement it: the eleven of A2A (one list, shared with the equivalence kit). */
const taskRuntimeRpcs = A2A_OPERATIONS;

/** One of the eleven A2A operations. */
type TaskRuntimeRpc = (typeof taskRuntimeRpcs)[number];

/**
 * The optional operations of spec §3.3.4: the `AgentCapabilities` field each needs, and the
 * error it is refused with when the Agent Card does not declare it true. The task runtime's
 * server-side checks (runtime/src/task/task-handler.ts) answer the same way; the
 * generated agent client refuses the same calls locally, before any request (ACTS CLIENT-CAP-001).
 */
export const capabilityRequirements = [
  { capability: "streaming", rpcs: ["SendStreamingMessage", "SubscribeToTask"], error: "UnsupportedOperationError" },
  {
    capability: "push_notifications",
    rpcs: ["CreateTaskPushNotificationConfig", "GetTaskPushNotificationConfig", "ListTaskPushNotificationConfigs", "DeleteTaskPushNotificationConfig"],
    error: "PushNotificationNotSupportedError",
  },
  { capability: "extended_agent_card", rpcs: ["GetExtendedAgentCard"], error: "UnsupportedOperationError" },
] as const satisfies readonly { capability: string; rpcs: readonly TaskRuntimeRpc[]; error: string }[];

/** The RPC that returns the extended Agent Card, which replaces the public one of a connection (§3.1.11). */
const extendedCardRpc: TaskRuntimeRpc = "GetExtendedAgentCard";

/** The `AgentInterface` fields the agent client reads (§8.3.2). */
const agentInterfaceFields = ["url", "protocol_binding", "protocol_version", "tenant"] as const;

/** An operation refused unless the Agent Card declares a capability. */
export interface CapabilityGateModel {
  readonly operation: OperationModel;
  /** The boolean field of `AgentCapabilities`. */
  readonly capability: DescField;
  /** The generated error class it is refused with. */
  readonly errorClass: string;
}

/** What the task-runtime binder of a service refers to. */
export interface TaskRuntimeModel {
  readonly messages: ReadonlyMap<(typeof taskRuntimeMessages)[number], DescMessage>;
  readonly taskState: DescEnum;
  readonly role: DescEnum;
  /** The optional operations and the capability each needs, in proto order of the operations. */
  readonly capabilityGates: readonly CapabilityGateModel[];
  /** GetExtendedAgentCard. */
  readonly extendedCardOperation: OperationModel;
}

/**
 * The task runtime applies to a service with all eleven A2A operations, in a file that
 * declares the A2A messages and enums it creates; for any other service, undefined.
 */
export function taskRuntimeModel(file: DescFile, service: Pick<ServiceModel, "operations">): TaskRuntimeModel | undefined {
  const names = new Set(service.operations.map((o) => o.name));
  if (!taskRuntimeRpcs.every((rpc) => names.has(rpc))) return undefined;
  const messages = new Map<(typeof taskRuntimeMessages)[number], DescMessage>();
  for (const name of taskRuntimeMessages) {
    const message = file.messages.find((m) => m.name === name);
    if (message === undefined) return undefined;
    messages.set(name, message);
  }
  const taskState = file.enums.find((e) => e.name === "TaskState");
  const role = file.enums.find((e) => e.name === "Role");
  if (taskState === undefined || role === undefined) return undefined;
  const capabilities = agentCapabilities(messages.get("AgentCard")!);
  if (capabilities === undefined) return undefined;
  const operation = (rpc: TaskRuntimeRpc) => service.operations.find((o) => o.name === rpc)!;
  const capabilityGates: CapabilityGateModel[] = [];
  for (const op of service.operations) {
    const requirement = capabilityRequirements.find((r) => (r.rpcs as readonly string[]).includes(op.name));
    if (requirement === undefined) continue;
    const capability = capabilities.fields.find((f) => f.name === requirement.capability);
    if (capability?.fieldKind !== "scalar" || capability.scalar !== ScalarType.BOOL) return undefined;
    capabilityGates.push({ operation: op, capability, errorClass: requirement.error });
  }
  return { messages, taskState, role, capabilityGates, extendedCardOperation: operation(extendedCardRpc) };
}

/**
 * The `AgentCapabilities` message of an A2A `AgentCard` whose `supported_interfaces` carry the
 * fields a client selects an interface by; undefined when the card does not have that shape.
 */
function agentCapabilities(card: DescMessage): DescMessage | undefined {
  const interfaces = card.fields.find((f) => f.name === "supported_interfaces");
  if (interfaces?.fieldKind !== "list" || interfaces.listKind !== "message") return undefined;
  const entry = interfaces.message;
  if (!agentInterfaceFields.every((name) => entry.fields.some((f) => f.name === name && f.fieldKind === "scalar" && f.scalar === ScalarType.STRING))) return undefined;
  const capabilities = card.fields.find((f) => f.name === "capabilities");
  return capabilities?.fieldKind === "message" ? capabilities.message : undefined;
}
