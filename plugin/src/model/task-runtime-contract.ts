// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The task runtime's contract with a2a.proto: every RPC, message field, oneof member and enum
 * value that the task runtime (runtime/src/task/*: its shapes in shapes.ts, states.ts, the push
 * sender), the generated task handler binder and the generated agent client (with
 * runtime/src/client/agent-client.ts) read or write. A service with the eleven A2A operations is
 * checked against it once, when its model is built: the first element that does not fit stops
 * generation with one line naming it and what the runtime expects, instead of TypeScript errors
 * inside generated code. Everything not listed here may change freely.
 *
 * Names are those of A2A v1.0.1 in the service's package; numbers are shown in the messages for
 * reference only (the runtime works on names: field and value numbers may change). Messages are
 * looked up by name among the top-level messages of the service's package, in its file and in
 * every file it imports (the spec's types may live in a second file).
 */

/** A scalar type the runtime reads, by proto name. `int32` stands for any 32-bit integer (all are `number` in TypeScript). */
export type ContractScalar = "string" | "bool" | "int32";

/** The enums of the contract. */
export type ContractEnumName = "TaskState" | "Role";

/** The well-known types the contract uses (Struct is `JsonObject` in TypeScript). */
export type ContractWellKnown = "google.protobuf.Struct" | "google.protobuf.Timestamp";

/** The messages of the contract, by name in the service's package: each is looked up and checked. */
export const contractMessageNames = [
  "Task",
  "TaskStatus",
  "Message",
  "Part",
  "Artifact",
  "TaskStatusUpdateEvent",
  "TaskArtifactUpdateEvent",
  "StreamResponse",
  "SendMessageResponse",
  "ListTasksResponse",
  "TaskPushNotificationConfig",
  "AuthenticationInfo",
  "ListTaskPushNotificationConfigsResponse",
  "AgentCard",
  "AgentInterface",
  "AgentCapabilities",
  "SendMessageConfiguration",
] as const;

/** A message of the contract. */
export type ContractMessageName = (typeof contractMessageNames)[number];

/** The request messages: checked on each RPC's input, whatever its name (the contract names the v1.0.1 one). */
export type ContractRequestName =
  | "SendMessageRequest"
  | "GetTaskRequest"
  | "ListTasksRequest"
  | "CancelTaskRequest"
  | "SubscribeToTaskRequest"
  | "GetTaskPushNotificationConfigRequest"
  | "DeleteTaskPushNotificationConfigRequest"
  | "ListTaskPushNotificationConfigsRequest"
  | "GetExtendedAgentCardRequest";

/** A field type: scalar, enum, message of the contract, or well-known type. */
export type ContractType =
  | ContractScalar
  | ContractEnumName
  | ContractMessageName
  | ContractWellKnown;

/** One field the runtime reads or writes. */
export interface ContractField {
  /** Proto name ("context_id"); the runtime uses its TypeScript name (`contextId`). */
  readonly name: string;
  /** The v1.0.1 number (in messages only). */
  readonly number: number;
  readonly type: ContractType;
  /**
   * As in v1.0.1. Without a label a scalar or enum field must not be `optional` (the runtime
   * reads a plain value, no `undefined`); `optional` accepts either; `repeated` must be repeated.
   */
  readonly label?: "optional" | "repeated";
  /** Read only when the proto has it (the push sender's `token` and `authentication`); if present, of this type. */
  readonly ifPresent?: true;
}

/** A oneof the runtime switches over or builds. */
export interface ContractOneof {
  /** Proto name ("payload"). */
  readonly name: string;
  /** The members the runtime uses. */
  readonly members: readonly ContractField[];
  /** Closed: the runtime's TypeScript union lists exactly these members, so another member is drift too. */
  readonly closed: boolean;
}

/** One message: the fields (outside any oneof) and oneofs the runtime uses. */
export interface ContractMessage {
  readonly fields: readonly ContractField[];
  readonly oneofs?: readonly ContractOneof[];
  /** Who reads or writes it, for the table's readers. */
  readonly usedBy: string;
}

/** One of the eleven operations: its kind, request (checked field by field) and response (exactly this message). */
export interface ContractRpc {
  readonly kind: "unary" | "server_streaming";
  /** The request the runtime's implementation reads. */
  readonly input: ContractRequestName | ContractMessageName;
  /** The input must be exactly this contract message (the runtime clones it with that schema), not just have its fields. */
  readonly exactInput?: true;
  /** The message the runtime creates: the RPC must return exactly it. */
  readonly output: ContractMessageName | "google.protobuf.Empty";
}

/** One enum value: the runtime's key (the generated TypeScript name without the enum's prefix) and its proto name. */
export interface ContractEnumValue {
  readonly key: string;
  readonly name: string;
  readonly number: number;
}

const f = (
  name: string,
  number: number,
  type: ContractType,
  label?: "optional" | "repeated",
): ContractField => (label === undefined ? { name, number, type } : { name, number, type, label });

/** The messages the runtime creates with the generated schemas (the generated binder's `schemas`, in this order). */
export const schemaMessages = [
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
] as const satisfies readonly ContractMessageName[];

/** The eleven operations (runtime/src/task/handler.ts implements them; `TaskServiceHandler` types them). */
export const contractRpcs = {
  SendMessage: { kind: "unary", input: "SendMessageRequest", output: "SendMessageResponse" },
  SendStreamingMessage: {
    kind: "server_streaming",
    input: "SendMessageRequest",
    output: "StreamResponse",
  },
  GetTask: { kind: "unary", input: "GetTaskRequest", output: "Task" },
  ListTasks: { kind: "unary", input: "ListTasksRequest", output: "ListTasksResponse" },
  CancelTask: { kind: "unary", input: "CancelTaskRequest", output: "Task" },
  SubscribeToTask: {
    kind: "server_streaming",
    input: "SubscribeToTaskRequest",
    output: "StreamResponse",
  },
  CreateTaskPushNotificationConfig: {
    kind: "unary",
    input: "TaskPushNotificationConfig",
    exactInput: true,
    output: "TaskPushNotificationConfig",
  },
  GetTaskPushNotificationConfig: {
    kind: "unary",
    input: "GetTaskPushNotificationConfigRequest",
    output: "TaskPushNotificationConfig",
  },
  ListTaskPushNotificationConfigs: {
    kind: "unary",
    input: "ListTaskPushNotificationConfigsRequest",
    output: "ListTaskPushNotificationConfigsResponse",
  },
  GetExtendedAgentCard: {
    kind: "unary",
    input: "GetExtendedAgentCardRequest",
    output: "AgentCard",
  },
  DeleteTaskPushNotificationConfig: {
    kind: "unary",
    input: "DeleteTaskPushNotificationConfigRequest",
    output: "google.protobuf.Empty",
  },
} as const satisfies Readonly<Record<string, ContractRpc>>;

/** The messages, with the fields the runtime uses (runtime/src/task/shapes.ts lists the same, typed). */
export const contractMessages: Readonly<
  Record<ContractMessageName | ContractRequestName, ContractMessage>
> = {
  Task: {
    usedBy: "runtime (TaskShape): created, stored, viewed, listed",
    fields: [
      f("id", 1, "string"),
      f("context_id", 2, "string"),
      f("status", 3, "TaskStatus"),
      f("artifacts", 4, "Artifact", "repeated"),
      f("history", 5, "Message", "repeated"),
      f("metadata", 6, "google.protobuf.Struct"),
    ],
  },
  TaskStatus: {
    usedBy: "runtime (TaskStatusShape): every state change; ListTasks orders by timestamp",
    fields: [
      f("state", 1, "TaskState"),
      f("message", 2, "Message"),
      f("timestamp", 3, "google.protobuf.Timestamp"),
    ],
  },
  Message: {
    usedBy: "runtime (MessageShape): user messages, agent replies and status messages",
    fields: [
      f("message_id", 1, "string"),
      f("context_id", 2, "string"),
      f("task_id", 3, "string"),
      f("role", 4, "Role"),
      f("parts", 5, "Part", "repeated"),
      f("reference_task_ids", 8, "string", "repeated"),
    ],
  },
  Part: {
    usedBy: "runtime (PartShape, factory.ts): builds text parts from plain-text emitter input",
    fields: [],
    oneofs: [{ name: "content", members: [f("text", 1, "string")], closed: false }],
  },
  Artifact: {
    usedBy: "runtime (ArtifactShape): addArtifact, append/lastChunk merging",
    fields: [
      f("artifact_id", 1, "string"),
      f("name", 2, "string"),
      f("description", 3, "string"),
      f("parts", 4, "Part", "repeated"),
      f("metadata", 5, "google.protobuf.Struct"),
      f("extensions", 6, "string", "repeated"),
    ],
  },
  TaskStatusUpdateEvent: {
    usedBy: "runtime (TaskStatusUpdateEventShape): stream and push events",
    fields: [
      f("task_id", 1, "string"),
      f("context_id", 2, "string"),
      f("status", 3, "TaskStatus"),
      f("metadata", 4, "google.protobuf.Struct"),
    ],
  },
  TaskArtifactUpdateEvent: {
    usedBy: "runtime (TaskArtifactUpdateEventShape): stream and push events",
    fields: [
      f("task_id", 1, "string"),
      f("context_id", 2, "string"),
      f("artifact", 3, "Artifact"),
      f("append", 4, "bool"),
      f("last_chunk", 5, "bool"),
      f("metadata", 6, "google.protobuf.Struct"),
    ],
  },
  StreamResponse: {
    usedBy: "runtime (StreamResponseShape): every stream event, the push notification body",
    fields: [],
    oneofs: [
      {
        name: "payload",
        members: [
          f("task", 1, "Task"),
          f("message", 2, "Message"),
          f("status_update", 3, "TaskStatusUpdateEvent"),
          f("artifact_update", 4, "TaskArtifactUpdateEvent"),
        ],
        closed: true,
      },
    ],
  },
  SendMessageResponse: {
    usedBy: "runtime (SendMessageResponseShape): SendMessage's answer",
    fields: [],
    oneofs: [
      {
        name: "payload",
        members: [f("task", 1, "Task"), f("message", 2, "Message")],
        closed: true,
      },
    ],
  },
  ListTasksResponse: {
    usedBy: "runtime (ListTasksResponseShape)",
    fields: [
      f("tasks", 1, "Task", "repeated"),
      f("next_page_token", 2, "string"),
      f("page_size", 3, "int32"),
      f("total_size", 4, "int32"),
    ],
  },
  TaskPushNotificationConfig: {
    usedBy:
      "runtime (PushConfigShape): stored push configs; the push sender reads token and authentication",
    fields: [
      f("tenant", 1, "string"),
      f("id", 2, "string"),
      f("task_id", 3, "string"),
      f("url", 4, "string"),
      { ...f("token", 5, "string"), ifPresent: true },
      { ...f("authentication", 6, "AuthenticationInfo"), ifPresent: true },
    ],
  },
  AuthenticationInfo: {
    usedBy: "push sender: the Authorization header of deliveries",
    fields: [
      { ...f("scheme", 1, "string"), ifPresent: true },
      { ...f("credentials", 2, "string"), ifPresent: true },
    ],
  },
  ListTaskPushNotificationConfigsResponse: {
    usedBy: "runtime (ListPushConfigsResponseShape)",
    fields: [
      f("configs", 1, "TaskPushNotificationConfig", "repeated"),
      f("next_page_token", 2, "string"),
    ],
  },
  AgentCard: {
    usedBy: "agent client: interface selection and capability gates; runtime: the extended card",
    fields: [
      f("supported_interfaces", 3, "AgentInterface", "repeated"),
      f("capabilities", 7, "AgentCapabilities"),
    ],
  },
  AgentInterface: {
    usedBy: "agent client (AgentInterfaceLike, §8.3.2)",
    fields: [
      f("url", 1, "string"),
      f("protocol_binding", 2, "string"),
      f("tenant", 3, "string"),
      f("protocol_version", 4, "string"),
    ],
  },
  AgentCapabilities: {
    usedBy: "agent client capability gates (capabilityRequirements in task-runtime.ts)",
    fields: [
      f("streaming", 1, "bool", "optional"),
      f("push_notifications", 2, "bool", "optional"),
      f("extended_agent_card", 4, "bool", "optional"),
    ],
  },
  SendMessageConfiguration: {
    usedBy: "runtime (SendMessageConfigurationShape)",
    fields: [
      f("accepted_output_modes", 1, "string", "repeated"),
      f("task_push_notification_config", 2, "TaskPushNotificationConfig"),
      f("history_length", 3, "int32", "optional"),
      f("return_immediately", 4, "bool"),
    ],
  },
  SendMessageRequest: {
    usedBy: "runtime (SendMessageRequestShape): SendMessage, SendStreamingMessage",
    fields: [
      f("tenant", 1, "string"),
      f("message", 2, "Message"),
      f("configuration", 3, "SendMessageConfiguration"),
      f("metadata", 4, "google.protobuf.Struct"),
    ],
  },
  GetTaskRequest: {
    usedBy: "runtime (GetTaskRequestShape)",
    fields: [f("id", 2, "string"), f("history_length", 3, "int32", "optional")],
  },
  ListTasksRequest: {
    usedBy: "runtime (ListTasksRequestShape)",
    fields: [
      f("context_id", 2, "string"),
      f("status", 3, "TaskState"),
      f("page_size", 4, "int32", "optional"),
      f("page_token", 5, "string"),
      f("history_length", 6, "int32", "optional"),
      f("status_timestamp_after", 7, "google.protobuf.Timestamp"),
      f("include_artifacts", 8, "bool", "optional"),
    ],
  },
  CancelTaskRequest: {
    usedBy: "runtime (CancelTaskRequestShape)",
    fields: [f("id", 2, "string"), f("metadata", 3, "google.protobuf.Struct")],
  },
  SubscribeToTaskRequest: {
    usedBy: "runtime (SubscribeToTaskRequestShape)",
    fields: [f("id", 2, "string")],
  },
  GetTaskPushNotificationConfigRequest: {
    usedBy: "runtime (PushConfigRefShape)",
    fields: [f("task_id", 2, "string"), f("id", 3, "string")],
  },
  DeleteTaskPushNotificationConfigRequest: {
    usedBy: "runtime (PushConfigRefShape)",
    fields: [f("task_id", 2, "string"), f("id", 3, "string")],
  },
  ListTaskPushNotificationConfigsRequest: {
    usedBy: "runtime (ListPushConfigsRequestShape)",
    fields: [f("task_id", 1, "string"), f("page_size", 2, "int32"), f("page_token", 3, "string")],
  },
  GetExtendedAgentCardRequest: { usedBy: "runtime: not read", fields: [] },
};

/**
 * The enum values the runtime uses (states.ts: `TaskStateNumbers`, `RoleNumbers`; the lifecycle:
 * terminal = COMPLETED, FAILED, CANCELED, REJECTED; interrupted = INPUT_REQUIRED, AUTH_REQUIRED).
 * The runtime treats 0 as "no state" (ListTasks' "any status").
 */
export const contractEnums: Readonly<Record<ContractEnumName, readonly ContractEnumValue[]>> = {
  TaskState: [
    { key: "SUBMITTED", name: "TASK_STATE_SUBMITTED", number: 1 },
    { key: "WORKING", name: "TASK_STATE_WORKING", number: 2 },
    { key: "COMPLETED", name: "TASK_STATE_COMPLETED", number: 3 },
    { key: "FAILED", name: "TASK_STATE_FAILED", number: 4 },
    { key: "CANCELED", name: "TASK_STATE_CANCELED", number: 5 },
    { key: "INPUT_REQUIRED", name: "TASK_STATE_INPUT_REQUIRED", number: 6 },
    { key: "REJECTED", name: "TASK_STATE_REJECTED", number: 7 },
    { key: "AUTH_REQUIRED", name: "TASK_STATE_AUTH_REQUIRED", number: 8 },
  ],
  Role: [
    { key: "USER", name: "ROLE_USER", number: 1 },
    { key: "AGENT", name: "ROLE_AGENT", number: 2 },
  ],
};
