// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * @protoc-gen-a2a/runtime/task: the task runtime. Agent authors implement `AgentExecutor.execute(context,
 * emitter)`; `createTaskHandler` turns it into the whole A2A service, backed by a
 * `TaskStore`. Proto-independent: the generated binder supplies schemas, enums and errors.
 *
 * The binder (generated per proto) does, in essence:
 *
 * ```ts
 * const schemas = { Task: TaskSchema, TaskStatus: TaskStatusSchema, Message: MessageSchema, Artifact: ArtifactSchema,
 *   TaskStatusUpdateEvent: TaskStatusUpdateEventSchema, TaskArtifactUpdateEvent: TaskArtifactUpdateEventSchema,
 *   StreamResponse: StreamResponseSchema, SendMessageResponse: SendMessageResponseSchema,
 *   ListTasksResponse: ListTasksResponseSchema, TaskPushNotificationConfig: TaskPushNotificationConfigSchema,
 *   ListTaskPushNotificationConfigsResponse: ListTaskPushNotificationConfigsResponseSchema, AgentCard: AgentCardSchema };
 * const binding: TaskRuntimeBinding<typeof schemas> = { schemas, states: TaskState, roles: Role,
 *   errors: { TaskNotFound: (m, o) => new TaskNotFoundError(m, o), … } };
 * export function createA2AServiceTaskHandler<P>(options: TaskHandlerOptions<P, typeof schemas>): A2AServiceHandler<P> {
 *   return createTaskHandler(binding, options);
 * }
 * ```
 *
 * and an agent is then:
 *
 * ```ts
 * const handler = createA2AServiceTaskHandler({
 *   capabilities: { streaming: true },
 *   executor: {
 *     async execute(context, emitter) {
 *       await emitter.working("thinking");
 *       await emitter.addArtifact({ name: "answer", parts: [{ content: { case: "text", value: "42" } }] });
 *       await emitter.complete();
 *     },
 *   },
 * });
 * ```
 */
export { createTaskHandler, type TaskHandlerIntrospection } from "./handler.js";
export type {
  ClientContextIdPolicy,
  ExtraOperation,
  ExtraOperationImplementations,
  ExtraOperationImplementationsOf,
  TaskCapabilities,
  TaskEventNotice,
  TaskHandlerOptions,
  TaskRuntimeBinding,
  TaskServiceHandler,
} from "./options.js";
export {
  DEFAULT_MAX_ACTIVE_TASKS_PER_OWNER,
  DEFAULT_MAX_ARTIFACTS_PER_TASK,
  DEFAULT_MAX_PARTS_PER_ARTIFACT,
  DEFAULT_MAX_PUSH_CONFIG_BYTES,
  DEFAULT_MAX_PUSH_CONFIGS_PER_TASK,
  DEFAULT_MAX_QUEUED_BYTES,
  DEFAULT_MAX_QUEUED_EVENTS,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_MAX_SUBSCRIBERS_PER_TASK,
  DEFAULT_MAX_TASK_BYTES,
  defaultOwnerOf,
} from "./options.js";
export type {
  AgentExecutor,
  ArtifactInputOf,
  ArtifactOptions,
  CancelContext,
  MessageInputOf,
  RequestContext,
  TaskCallContext,
  TaskEmitter,
  TaskEventInputOf,
} from "./executor.js";
export {
  ExecutorMisuseError,
  InvalidPageTokenError,
  TaskStoreFullError,
  type A2AErrorFactory,
  type ExecutorMisuseCode,
  type TaskRuntimeErrors,
  type TaskStoreLimit,
} from "./errors.js";
export type {
  PushConfigPage,
  PushConfigQuery,
  TaskPage,
  TaskPageBudget,
  TaskQuery,
  TaskScope,
  TaskStore,
} from "./store.js";
export {
  artifactBytes,
  eventBytes,
  messageBytes,
  nonFinitePath,
  taskBytes,
  taskViewBytes,
  valueBytes,
} from "./size.js";
export {
  A2A_TASK_STATE_NUMBERS,
  DEFAULT_MAX_BYTES_PER_OWNER,
  DEFAULT_MAX_STORE_BYTES,
  DEFAULT_MAX_TASKS,
  InMemoryTaskStore,
  type InMemoryTaskStoreOptions,
} from "./memory-store.js";
export { decodePageToken, encodePageToken, queryFingerprint } from "./pagination.js";
export { EventHub, Subscription, type QueueLimit } from "./event-hub.js";
export type { RoleNumbers, TaskStateNumbers } from "./states.js";
export { TaskStates } from "./states.js";
export type * from "./shapes.js";
export {
  createPushNotificationSender,
  checkWebhookUrl,
  isBlockedAddress,
  WebhookUrlError,
  type HostResolver,
  type PushAttemptResult,
  type PushDeliveryFailure,
  type PushDeliverySuccess,
  type PushEventNotice,
  type PushFailureReason,
  type PushNotificationSender,
  type PushPayload,
  type PushSenderOptions,
  type ResolvedAddress,
  type WebhookUrlPolicy,
} from "./push/sender.js";
export {
  clusterOf,
  TaskConflictError,
  type ClusteredTaskStore,
  type TaskCluster,
  type TaskEventRecord,
  type TurnTicket,
} from "./cluster.js";
export {
  LAST_EVENT_ID_PARAMETER,
  eventIdOf,
  formatEventId,
  parseEventId,
  setEventId,
  type ParsedEventId,
} from "./event-ids.js";
export { markPushConfigVersion, pushConfigVersionOf } from "./push/config-version.js";
