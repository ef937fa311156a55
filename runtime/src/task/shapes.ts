// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Structural types of the A2A messages the task runtime reads and writes.
 *
 * The task runtime is part of the runtime library, which generated code imports, so it cannot
 * import the generated `*_pb.ts` (its name and path depend on the user's proto). It is written
 * against these shapes instead: each lists exactly the fields the runtime uses, typed
 * as protobuf-es v2 generates them (oneofs as `{ case, value }`, enums as numbers,
 * `google.protobuf.Struct` as `JsonObject`). The generated messages are assignable to
 * them, and the schemas handed to the runtime are checked against them at compile time
 * through {@link TaskRuntimeSchemas}.
 */
import type {
  DescMessage,
  JsonObject,
  Message as ProtoMessage,
  MessageShape as ProtoMessageShape,
} from "@bufbuild/protobuf";
import type { GenMessage } from "@bufbuild/protobuf/codegenv2";
import type { Timestamp } from "@bufbuild/protobuf/wkt";

/** `lf.a2a.v1.Part`: only the content oneof is read (to build text parts). */
export interface PartShape extends ProtoMessage {
  /** The content oneof (`text`, `raw`, `url`, `data`). */
  content: { case: string | undefined; value?: unknown };
}

/** `lf.a2a.v1.Message`. */
export interface MessageShape extends ProtoMessage {
  /** REQUIRED; the runtime fills it for agent messages that lack one. */
  messageId: string;
  /** The context; always set on messages the runtime stores or returns. */
  contextId: string;
  /** The task; set on messages that belong to a task, empty on stateless replies. */
  taskId: string;
  /** `Role` enum number. */
  role: number;
  /** REQUIRED, at least one part. */
  parts: PartShape[];
  /** Tasks this message refers to (§3.4.3). */
  referenceTaskIds: string[];
}

/** `lf.a2a.v1.TaskStatus`. */
export interface TaskStatusShape extends ProtoMessage {
  /** `TaskState` enum number. */
  state: number;
  /** The agent's message for this status, if any. */
  message?: MessageShape | undefined;
  /** When the status was recorded; drives ListTasks ordering. */
  timestamp?: Timestamp | undefined;
}

/** `lf.a2a.v1.Artifact`. */
export interface ArtifactShape extends ProtoMessage {
  /** REQUIRED, unique within the task. */
  artifactId: string;
  /** Human-readable name. */
  name: string;
  /** Human-readable description. */
  description: string;
  /** REQUIRED, at least one part. */
  parts: PartShape[];
  /** Free-form metadata. */
  metadata?: JsonObject | undefined;
  /** Extension URIs that contributed to the artifact. */
  extensions: string[];
}

/** `lf.a2a.v1.Task`. */
export interface TaskShape extends ProtoMessage {
  /** Server-generated id. */
  id: string;
  /** Context the task belongs to. */
  contextId: string;
  /** Current status (REQUIRED). */
  status?: TaskStatusShape | undefined;
  /** Output artifacts. */
  artifacts: ArtifactShape[];
  /** User messages and agent status messages, oldest first. */
  history: MessageShape[];
  /** Free-form metadata. */
  metadata?: JsonObject | undefined;
}

/** `lf.a2a.v1.TaskStatusUpdateEvent`. */
export interface TaskStatusUpdateEventShape extends ProtoMessage {
  /** Task the event belongs to. */
  taskId: string;
  /** Context of that task. */
  contextId: string;
  /** The new status. */
  status?: TaskStatusShape | undefined;
  /** Free-form metadata. */
  metadata?: JsonObject | undefined;
}

/** `lf.a2a.v1.TaskArtifactUpdateEvent`. */
export interface TaskArtifactUpdateEventShape extends ProtoMessage {
  /** Task the event belongs to. */
  taskId: string;
  /** Context of that task. */
  contextId: string;
  /** The artifact (or the chunk of it) produced. */
  artifact?: ArtifactShape | undefined;
  /** Append the parts to the artifact of the same id sent earlier. */
  append: boolean;
  /** This is the last chunk of the artifact. */
  lastChunk: boolean;
  /** Free-form metadata. */
  metadata?: JsonObject | undefined;
}

/** `lf.a2a.v1.StreamResponse`: one event of a stream, and the push notification payload. */
export interface StreamResponseShape extends ProtoMessage {
  /** The event. */
  payload:
    | { case: "task"; value: TaskShape }
    | { case: "message"; value: MessageShape }
    | { case: "statusUpdate"; value: TaskStatusUpdateEventShape }
    | { case: "artifactUpdate"; value: TaskArtifactUpdateEventShape }
    | { case: undefined; value?: undefined };
}

/** `lf.a2a.v1.SendMessageResponse`. */
export interface SendMessageResponseShape extends ProtoMessage {
  /** A task, or a stateless message. */
  payload:
    | { case: "task"; value: TaskShape }
    | { case: "message"; value: MessageShape }
    | { case: undefined; value?: undefined };
}

/** `lf.a2a.v1.ListTasksResponse`. */
export interface ListTasksResponseShape extends ProtoMessage {
  /** The page. */
  tasks: TaskShape[];
  /** Cursor of the next page, "" on the last one (§3.1.4). */
  nextPageToken: string;
  /** The page size used. */
  pageSize: number;
  /** Matching tasks in all pages. */
  totalSize: number;
}

/** `lf.a2a.v1.TaskPushNotificationConfig`. */
export interface PushConfigShape extends ProtoMessage {
  /** Tenant the config was created under. */
  tenant: string;
  /** Config id, server-generated when the client gives none. */
  id: string;
  /** The task the config belongs to. */
  taskId: string;
  /** Webhook URL. */
  url: string;
}

/** `lf.a2a.v1.ListTaskPushNotificationConfigsResponse`. */
export interface ListPushConfigsResponseShape extends ProtoMessage {
  /** The page. */
  configs: PushConfigShape[];
  /** Cursor of the next page, "" on the last one. */
  nextPageToken: string;
}

/** `lf.a2a.v1.SendMessageConfiguration`. */
export interface SendMessageConfigurationShape {
  /** Media types the client accepts (handed to the executor as is). */
  acceptedOutputModes: readonly string[];
  /** A push config to register for the new task. */
  taskPushNotificationConfig?: PushConfigShape | undefined;
  /** History length of the returned task (§3.2.4). */
  historyLength?: number | undefined;
  /** Return as soon as the task exists (§3.2.2). */
  returnImmediately: boolean;
}

/** `lf.a2a.v1.SendMessageRequest`. */
export interface SendMessageRequestShape {
  /** Tenant from the request body (the call context carries the effective one). */
  tenant: string;
  /** The user message (REQUIRED). */
  message?: MessageShape | undefined;
  /** Per-request configuration. */
  configuration?: SendMessageConfigurationShape | undefined;
  /** Free-form request metadata. */
  metadata?: JsonObject | undefined;
}

/** `lf.a2a.v1.GetTaskRequest`. */
export interface GetTaskRequestShape {
  /** Task id. */
  id: string;
  /** History length of the returned task (§3.2.4). */
  historyLength?: number | undefined;
}

/** `lf.a2a.v1.ListTasksRequest`. */
export interface ListTasksRequestShape {
  /** Only tasks of this context ("" = any). */
  contextId: string;
  /** Only tasks in this state (0 = any). */
  status: number;
  /** 1–100, default 50. */
  pageSize?: number | undefined;
  /** Cursor from a previous page ("" = first page). */
  pageToken: string;
  /** History length of each task. */
  historyLength?: number | undefined;
  /** Only tasks whose status timestamp is at or after this instant. */
  statusTimestampAfter?: Timestamp | undefined;
  /** Keep the artifacts (default: omitted). */
  includeArtifacts?: boolean | undefined;
}

/** `lf.a2a.v1.CancelTaskRequest`. */
export interface CancelTaskRequestShape {
  /** Task id. */
  id: string;
  /** Free-form metadata, handed to the executor's cancel hook. */
  metadata?: JsonObject | undefined;
}

/** `lf.a2a.v1.SubscribeToTaskRequest`. */
export interface SubscribeToTaskRequestShape {
  /** Task id. */
  id: string;
}

/** `lf.a2a.v1.GetTaskPushNotificationConfigRequest` and `…DeleteTaskPushNotificationConfigRequest`. */
export interface PushConfigRefShape {
  /** The task. */
  taskId: string;
  /** The config. */
  id: string;
}

/** `lf.a2a.v1.ListTaskPushNotificationConfigsRequest`. */
export interface ListPushConfigsRequestShape {
  /** The task. */
  taskId: string;
  /** Page size; 0 = all. */
  pageSize: number;
  /** Cursor from a previous page ("" = first page). */
  pageToken: string;
}

/**
 * The message schemas the runtime creates messages with. The generated binder passes the
 * real `*Schema` constants; each must describe a message assignable to the shape, which
 * the compiler checks.
 */
export interface TaskRuntimeSchemas {
  /** `TaskSchema`. */
  readonly Task: GenMessage<TaskShape>;
  /** `TaskStatusSchema`. */
  readonly TaskStatus: GenMessage<TaskStatusShape>;
  /** `MessageSchema`. */
  readonly Message: GenMessage<MessageShape>;
  /** `ArtifactSchema`. */
  readonly Artifact: GenMessage<ArtifactShape>;
  /** `TaskStatusUpdateEventSchema`. */
  readonly TaskStatusUpdateEvent: GenMessage<TaskStatusUpdateEventShape>;
  /** `TaskArtifactUpdateEventSchema`. */
  readonly TaskArtifactUpdateEvent: GenMessage<TaskArtifactUpdateEventShape>;
  /** `StreamResponseSchema`. */
  readonly StreamResponse: GenMessage<StreamResponseShape>;
  /** `SendMessageResponseSchema`. */
  readonly SendMessageResponse: GenMessage<SendMessageResponseShape>;
  /** `ListTasksResponseSchema`. */
  readonly ListTasksResponse: GenMessage<ListTasksResponseShape>;
  /** `TaskPushNotificationConfigSchema`. */
  readonly TaskPushNotificationConfig: GenMessage<PushConfigShape>;
  /** `ListTaskPushNotificationConfigsResponseSchema`. */
  readonly ListTaskPushNotificationConfigsResponse: GenMessage<ListPushConfigsResponseShape>;
  /** `AgentCardSchema` (only to clone the extended card and to type it). */
  readonly AgentCard: DescMessage;
}

/** The generated message type a schema of {@link TaskRuntimeSchemas} describes, e.g. `Of<S, "Task">` = `Task`. */
export type Of<
  S extends TaskRuntimeSchemas,
  K extends keyof TaskRuntimeSchemas,
> = ProtoMessageShape<S[K]>;
