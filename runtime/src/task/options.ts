// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Configuration of the task runtime: what the generated binder supplies (schemas,
 * enums, error classes) and what the agent author chooses (executor, store, capabilities, hooks).
 */
import type { Logger } from "../observe/logger.js";
import type { Empty } from "@bufbuild/protobuf/wkt";
import type { TaskRuntimeErrors } from "./errors.js";
import type { AgentExecutor, TaskCallContext } from "./executor.js";
import type {
  CancelTaskRequestShape,
  GetTaskRequestShape,
  ListPushConfigsRequestShape,
  ListTasksRequestShape,
  Of,
  PushConfigRefShape,
  PushConfigShape,
  SendMessageRequestShape,
  SubscribeToTaskRequestShape,
  TaskRuntimeSchemas,
} from "./shapes.js";
import type { RoleNumbers, TaskStateNumbers } from "./states.js";
import type { TaskScope, TaskStore } from "./store.js";

/** What the generated binder hands the runtime: the proto-specific pieces. */
export interface TaskRuntimeBinding<S extends TaskRuntimeSchemas> {
  /** The generated `*Schema` constants. */
  readonly schemas: S;
  /** The generated `TaskState` enum. */
  readonly states: TaskStateNumbers;
  /** The generated `Role` enum. */
  readonly roles: RoleNumbers;
  /** Factories of the generated error classes. */
  readonly errors: TaskRuntimeErrors;
  /**
   * Most bytes one task may weigh (`taskBytes()`: its JSON size, history and artifacts included),
   * so that every stored task can be answered whole (GetTask) and one task cannot take the store.
   * A SendMessage whose message alone weighs more is InvalidParamsError naming `message` (ErrorInfo
   * metadata `limit`, `maximum`); one that would take its task past it is UnsupportedOperationError
   * (metadata `taskId`, `maxTaskBytes`: start a new task, referencing this one), before anything is
   * stored; an executor event that would is refused with ExecutorMisuseError (`invalid-event`),
   * nothing stored. Default {@link DEFAULT_MAX_TASK_BYTES} (16 MiB); at most `maxResponseBytes`.
   */
  readonly maxTaskBytes?: number | undefined;
  /**
   * Most bytes of tasks one answer carries (as `maxTaskBytes` weighs them). ListTasks fills its page
   * up to it and goes on with `nextPageToken` (a page may hold fewer than `pageSize` tasks, which the
   * spec allows); a GetTask, CancelTask, SendMessage or SubscribeToTask answer over it (a task
   * stored under a larger `maxTaskBytes`) is UnsupportedOperationError (metadata `taskId`, `bytes`,
   * `maxResponseBytes`) that suggests `historyLength`. It bounds what one call makes the agent
   * encode and hold for a client that reads slowly. Default {@link DEFAULT_MAX_RESPONSE_BYTES} (16 MiB).
   */
  readonly maxResponseBytes?: number | undefined;
  /**
   * Most push notification configs one task may have: one more (CreateTaskPushNotificationConfig
   * with a new id) is UnsupportedOperationError (metadata `taskId`, `maxPushConfigsPerTask`).
   * Default {@link DEFAULT_MAX_PUSH_CONFIGS_PER_TASK} (100).
   */
  readonly maxPushConfigsPerTask?: number | undefined;
  /**
   * Most bytes one push notification config may weigh (URL, token, authentication credentials):
   * more is InvalidParamsError naming the config. Default {@link DEFAULT_MAX_PUSH_CONFIG_BYTES} (64 KiB).
   */
  readonly maxPushConfigBytes?: number | undefined;
  /**
   * The service's RPCs beyond the eleven A2A operations (a newer or extended a2a.proto): each
   * answers UnsupportedOperationError unless `TaskHandlerOptions.operations` implements it.
   */
  readonly extraOperations?: readonly ExtraOperation[] | undefined;
}

/** An RPC of the service that is not one of the eleven A2A operations. */
export interface ExtraOperation {
  /** RPC name, "ArchiveTask" (named in the UnsupportedOperationError). */
  readonly name: string;
  /** Handler method name, "archiveTask". */
  readonly localName: string;
  /** A server-streaming RPC is answered with a stream that fails before its first event. */
  readonly kind: "unary" | "server_streaming";
}

/**
 * Implementations of extra operations by handler method name, each `(request, context, handler)`:
 * request and call context as in the generated handler interface, and the task handler itself (to
 * read the caller's tasks with its `getTask`, …). The generated options type narrows this to the
 * service's RPCs ({@link ExtraOperationImplementationsOf}).
 */
export type ExtraOperationImplementations = {
  readonly [localName: string]: ((...args: never[]) => unknown) | undefined;
};

/**
 * The `operations` option for the extra operations `X` (a `Pick` of the generated handler
 * interface `H`): each optional, `(request, context, handler)` with the request, call context and
 * result of `X`'s method, and the complete handler `H` as the third argument.
 */
export type ExtraOperationImplementationsOf<X, H> = {
  readonly [K in keyof X]?: X[K] extends (request: infer Q, context: infer C) => infer R
    ? (request: Q, context: C, handler: H) => R
    : never;
};

/** The capabilities the Agent Card declares (`AgentCapabilities` fits); absent means false (§3.3.4). */
export interface TaskCapabilities {
  /** SendStreamingMessage and SubscribeToTask; else UnsupportedOperationError. */
  readonly streaming?: boolean | undefined;
  /** The push config operations (and a push config in SendMessage); else PushNotificationNotSupportedError. */
  readonly pushNotifications?: boolean | undefined;
  /** GetExtendedAgentCard; else UnsupportedOperationError. */
  readonly extendedAgentCard?: boolean | undefined;
}

/** Which client-provided contextIds a new task accepts (see `TaskHandlerOptions.clientContextIds`). */
export type ClientContextIdPolicy = "accept" | "known";

/** One stored task event, as the `onTaskEvent` hook (e.g. a push notification sender) sees it. */
export interface TaskEventNotice<S extends TaskRuntimeSchemas> {
  /** Scope of the task: look its push configs up with `store.listPushConfigs(scope, taskId, …)`. */
  readonly scope: TaskScope;
  /** The task. */
  readonly taskId: string;
  /** Its context. */
  readonly contextId: string;
  /** The task state after the event. */
  readonly state: number;
  /** The event (a copy the hook may keep): the Task on creation, then status and artifact updates, in order. */
  readonly event: Of<S, "StreamResponse">;
}

/** What the agent author configures. */
export interface TaskHandlerOptions<Principal, S extends TaskRuntimeSchemas> {
  /** The agent logic. */
  readonly executor: AgentExecutor<Principal, S>;
  /** Where tasks and push configs live. Default: a new InMemoryTaskStore. */
  readonly store?: TaskStore | undefined;
  /**
   * What a new task's client-chosen `message.contextId` may be (spec §3.4.1: an agent MAY
   * accept client-provided contextIds; one it cannot accept it MUST reject, without
   * generating a new one). `"accept"` (default): any contextId is kept. `"known"`: only a
   * contextId that already has a task in the caller's scope; any other is InvalidParamsError
   * naming `message.contextId`, before `execute()` runs.
   */
  readonly clientContextIds?: ClientContextIdPolicy | undefined;
  /** The Agent Card's `capabilities`. Default: none (streaming, push and the extended card are refused). */
  readonly capabilities?: TaskCapabilities | undefined;
  /** The extended Agent Card, or a function of the (authenticated) call that returns it. */
  readonly extendedAgentCard?:
    | (
        | Of<S, "AgentCard">
        | ((call: TaskCallContext<Principal>) => Of<S, "AgentCard"> | Promise<Of<S, "AgentCard">>)
      )
    | undefined;
  /**
   * The owner key of a call's tasks, from its principal. Default: `""` without a principal,
   * else `JSON.stringify(principal)`. Calls with different keys never see each other's tasks.
   */
  readonly ownerOf?:
    | ((principal: Principal | undefined, call: TaskCallContext<Principal>) => string)
    | undefined;
  /**
   * Called, in order per task, after each event is stored and streamed. Not awaited:
   * a slow hook delays nothing; its errors go to `onError`. The place a push sender plugs in.
   */
  readonly onTaskEvent?: ((notice: TaskEventNotice<S>) => void | Promise<void>) | undefined;
  /**
   * Checks a push notification URL when a config is created (CreateTaskPushNotificationConfig
   * or a config in SendMessage), before anything is stored: throw to refuse it, and the caller
   * gets InvalidParams naming the field (spec §13.2: agents SHOULD validate webhook URLs).
   * Default: the URL policy of the push sender whose `onTaskEvent` is passed (loopback, private and
   * metadata addresses, other schemes, credentials are refused at creation as at delivery); no check
   * without one. `false` turns the default off.
   */
  readonly checkPushUrl?: ((url: string) => unknown) | false | undefined;
  /** Where problems no client is told about are reported (executor bugs, hook failures). Default: an error to `logger`. */
  readonly onError?: ((error: unknown, context: string) => void) | undefined;
  /** Where the default `onError` reports. Default: `console`. */
  readonly logger?: Logger | undefined;
  /** The clock of status timestamps. Default: `() => new Date()`. */
  readonly now?: (() => Date) | undefined;
  /** Generates task, context, message, artifact and push config ids. Default: `crypto.randomUUID()`. */
  readonly generateId?: (() => string) | undefined;
  /**
   * Most events one stream (SendStreamingMessage, SubscribeToTask) may have queued and
   * unread on the server. A task never waits for its readers, so events wait in a
   * per-stream queue until the binding can write them (it honours the transport's
   * backpressure); a client that reads more slowly than the task produces, or stops
   * reading while keeping the connection open, is cut off once its queue would exceed
   * this: its stream ends with UnsupportedOperationError (ErrorInfo metadata `taskId`
   * and `maxQueuedEvents`), its queue is freed at once, and the task and every other
   * stream go on (the client can resubscribe with SubscribeToTask). Events are shared
   * between streams, so the memory a lagging stream holds is at most this many events.
   * Counted per stream in feed items: the task's events plus one marker per turn end.
   * Default: {@link DEFAULT_MAX_QUEUED_EVENTS} (1,000). A positive integer, or `Infinity`
   * for no bound (not recommended: a stalled client then holds every later event).
   * Raise it for executors that emit bursts longer than this faster than clients can read.
   */
  readonly maxQueuedEvents?: number | undefined;
  /**
   * Most bytes of events (as `maxTaskBytes` weighs them) one stream may have queued and unread: as
   * `maxQueuedEvents`, for streams of large events (a stalled reader keeps every event after it
   * stopped alive, however many others read them). One event always fits. Default
   * {@link DEFAULT_MAX_QUEUED_BYTES} (32 MiB). A positive integer, or `Infinity`.
   */
  readonly maxQueuedBytes?: number | undefined;
  /**
   * Most open subscriptions of one task's live feed in this handler: SendStreamingMessage and
   * SubscribeToTask streams, and SendMessage calls waiting for the turn's result. One more
   * (SubscribeToTask, or a message that continues the task) is refused before anything is stored,
   * with UnsupportedOperationError (the A2A catalog has no quota error; ErrorInfo metadata `taskId`
   * and `maxSubscribersPerTask`): JSON-RPC -32004, HTTP 400, gRPC FAILED_PRECONDITION. Default
   * {@link DEFAULT_MAX_SUBSCRIBERS_PER_TASK} (20,000). A positive integer, or `Infinity`.
   */
  readonly maxSubscribersPerTask?: number | undefined;
  /**
   * Most unfinished (non-terminal) tasks one owner (`ownerOf`, per tenant) may hold at once among
   * the tasks this handler created since it started: a SendMessage that would create one more is
   * refused before `execute()` runs, with UnsupportedOperationError (ErrorInfo metadata
   * `maxActiveTasksPerOwner`); continuing a task (message.taskId) is not affected. A task counts from
   * its turn's start until it is terminal (INPUT_REQUIRED and AUTH_REQUIRED tasks count). Without
   * authentication every caller is the one owner `""`. Tasks found in a persistent store at start are
   * not counted. Default {@link DEFAULT_MAX_ACTIVE_TASKS_PER_OWNER} (10,000). A positive integer, or `Infinity`.
   */
  readonly maxActiveTasksPerOwner?: number | undefined;
  /**
   * Most artifacts one task may have: an executor that adds one more (a new artifactId) gets
   * ExecutorMisuseError (`invalid-event`) from the emitter and nothing is stored; if it lets the error
   * escape, the task fails as for any executor error. Bounds a runaway executor's task (kept in the
   * store, sent whole by GetTask). Default {@link DEFAULT_MAX_ARTIFACTS_PER_TASK} (1,000). A positive integer, or `Infinity`.
   */
  readonly maxArtifactsPerTask?: number | undefined;
  /**
   * Most parts one artifact may have, the parts of appended chunks included: as `maxArtifactsPerTask`.
   * Default {@link DEFAULT_MAX_PARTS_PER_ARTIFACT} (10,000). A positive integer, or `Infinity`.
   */
  readonly maxPartsPerArtifact?: number | undefined;
  /**
   * Most bytes one task may weigh (`taskBytes()`: its JSON size, history and artifacts included),
   * so that every stored task can be answered whole (GetTask) and one task cannot take the store.
   * A SendMessage whose message alone weighs more is InvalidParamsError naming `message` (ErrorInfo
   * metadata `limit`, `maximum`); one that would take its task past it is UnsupportedOperationError
   * (metadata `taskId`, `maxTaskBytes`: start a new task, referencing this one), before anything is
   * stored; an executor event that would is refused with ExecutorMisuseError (`invalid-event`),
   * nothing stored. Default {@link DEFAULT_MAX_TASK_BYTES} (16 MiB); at most `maxResponseBytes`.
   */
  readonly maxTaskBytes?: number | undefined;
  /**
   * Most bytes of tasks one answer carries (as `maxTaskBytes` weighs them). ListTasks fills its page
   * up to it and goes on with `nextPageToken` (a page may hold fewer than `pageSize` tasks, which the
   * spec allows); a GetTask, CancelTask, SendMessage or SubscribeToTask answer over it (a task
   * stored under a larger `maxTaskBytes`) is UnsupportedOperationError (metadata `taskId`, `bytes`,
   * `maxResponseBytes`) that suggests `historyLength`. It bounds what one call makes the agent
   * encode and hold for a client that reads slowly. Default {@link DEFAULT_MAX_RESPONSE_BYTES} (16 MiB).
   */
  readonly maxResponseBytes?: number | undefined;
  /**
   * Most push notification configs one task may have: one more (CreateTaskPushNotificationConfig
   * with a new id) is UnsupportedOperationError (metadata `taskId`, `maxPushConfigsPerTask`).
   * Default {@link DEFAULT_MAX_PUSH_CONFIGS_PER_TASK} (100).
   */
  readonly maxPushConfigsPerTask?: number | undefined;
  /**
   * Most bytes one push notification config may weigh (URL, token, authentication credentials):
   * more is InvalidParamsError naming the config. Default {@link DEFAULT_MAX_PUSH_CONFIG_BYTES} (64 KiB).
   */
  readonly maxPushConfigBytes?: number | undefined;
  /**
   * The service's RPCs beyond the eleven A2A operations (`TaskRuntimeBinding.extraOperations`),
   * by handler method name: called with the request and the call context as the binding's server
   * passes them, and the task handler itself. One left out is answered UnsupportedOperationError.
   * A name that is not an extra operation of the service is a TypeError when the handler is created.
   */
  readonly operations?: ExtraOperationImplementations | undefined;
}

/**
 * Default of `TaskHandlerOptions.maxQueuedEvents`. A reader that keeps up has next to
 * nothing queued (the engine publishes one event per store write; the in-process readers
 * of a 1,000-subscriber × 1,001-event fan-out never have one queued), and network readers
 * have the socket buffers on top, so only a stalled or far too slow client reaches it.
 * It bounds such a client to 1,000 events (1 MB for 1 KB events; 8 KB of queue per stream,
 * the events being shared) while leaving room for bursts of hundreds of events.
 */
export const DEFAULT_MAX_QUEUED_EVENTS = 1000;

/** Default of `TaskHandlerOptions.maxQueuedBytes`: 32 MiB, two events as large as the default `maxTaskBytes`. */
export const DEFAULT_MAX_QUEUED_BYTES = 32 * 1024 * 1024;

/**
 * Default of `TaskHandlerOptions.maxSubscribersPerTask`: 20,000 open streams on one task, twice what
 * bench/streams.mjs's fan-out opens (10,000 SSE streams on one task): a bound against one task pinning
 * the process's memory, not a tuning value.
 */
export const DEFAULT_MAX_SUBSCRIBERS_PER_TASK = 20_000;

/**
 * Default of `TaskHandlerOptions.maxActiveTasksPerOwner`: 10,000 unfinished tasks, the in-memory
 * store's default `maxTasks` (bench/streams.mjs runs 10,000 concurrent tasks of one anonymous owner).
 * Lower it when callers are authenticated, so that one caller cannot take all of a shared store.
 */
export const DEFAULT_MAX_ACTIVE_TASKS_PER_OWNER = 10_000;

/** Default of `TaskHandlerOptions.maxArtifactsPerTask`: 1,000 artifacts. */
export const DEFAULT_MAX_ARTIFACTS_PER_TASK = 1000;

/**
 * Default of `TaskHandlerOptions.maxPartsPerArtifact`: 10,000 parts (an artifact streamed in 10,000
 * appended chunks of one part each; each append copies the artifact, so far more is slow anyway).
 */
export const DEFAULT_MAX_PARTS_PER_ARTIFACT = 10_000;

/**
 * Default of `TaskHandlerOptions.maxTaskBytes`: 16 MiB, room for a message as large as the HTTP
 * servers' default `maxBodyBytes` (10 MiB) and the agent's answer to it.
 */
export const DEFAULT_MAX_TASK_BYTES = 16 * 1024 * 1024;

/** Default of `TaskHandlerOptions.maxResponseBytes`: 16 MiB, one task of the default `maxTaskBytes` whole. */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/** Default of `TaskHandlerOptions.maxPushConfigsPerTask`: 100 webhooks per task. */
export const DEFAULT_MAX_PUSH_CONFIGS_PER_TASK = 100;

/** Default of `TaskHandlerOptions.maxPushConfigBytes`: 64 KiB per config (a URL, a token and a credential of a few KB fit many times over). */
export const DEFAULT_MAX_PUSH_CONFIG_BYTES = 64 * 1024;

/**
 * The A2A service the runtime implements: the generated `A2AServiceHandler<Principal>`,
 * written against the shapes (a value of this type is assignable to it).
 */
export interface TaskServiceHandler<Principal, S extends TaskRuntimeSchemas> {
  /** SendMessage (§3.1.1). */
  sendMessage(
    request: SendMessageRequestShape,
    context: TaskCallContext<Principal>,
  ): Promise<Of<S, "SendMessageResponse">>;
  /** SendStreamingMessage (§3.1.2). */
  sendStreamingMessage(
    request: SendMessageRequestShape,
    context: TaskCallContext<Principal>,
  ): AsyncIterable<Of<S, "StreamResponse">>;
  /** GetTask (§3.1.3). */
  getTask(
    request: GetTaskRequestShape,
    context: TaskCallContext<Principal>,
  ): Promise<Of<S, "Task">>;
  /** ListTasks (§3.1.4). */
  listTasks(
    request: ListTasksRequestShape,
    context: TaskCallContext<Principal>,
  ): Promise<Of<S, "ListTasksResponse">>;
  /** CancelTask (§3.1.5). */
  cancelTask(
    request: CancelTaskRequestShape,
    context: TaskCallContext<Principal>,
  ): Promise<Of<S, "Task">>;
  /** SubscribeToTask (§3.1.6). */
  subscribeToTask(
    request: SubscribeToTaskRequestShape,
    context: TaskCallContext<Principal>,
  ): AsyncIterable<Of<S, "StreamResponse">>;
  /** CreateTaskPushNotificationConfig (§3.1.7). */
  createTaskPushNotificationConfig(
    request: PushConfigShape,
    context: TaskCallContext<Principal>,
  ): Promise<Of<S, "TaskPushNotificationConfig">>;
  /** GetTaskPushNotificationConfig (§3.1.8). */
  getTaskPushNotificationConfig(
    request: PushConfigRefShape,
    context: TaskCallContext<Principal>,
  ): Promise<Of<S, "TaskPushNotificationConfig">>;
  /** ListTaskPushNotificationConfigs (§3.1.9). */
  listTaskPushNotificationConfigs(
    request: ListPushConfigsRequestShape,
    context: TaskCallContext<Principal>,
  ): Promise<Of<S, "ListTaskPushNotificationConfigsResponse">>;
  /** GetExtendedAgentCard (§3.1.11). */
  getExtendedAgentCard(
    request: object,
    context: TaskCallContext<Principal>,
  ): Promise<Of<S, "AgentCard">>;
  /** DeleteTaskPushNotificationConfig (§3.1.10). */
  deleteTaskPushNotificationConfig(
    request: PushConfigRefShape,
    context: TaskCallContext<Principal>,
  ): Promise<Empty>;
}

/** The default owner key: "" without a principal, else its JSON. */
export function defaultOwnerOf(principal: unknown): string {
  return principal === undefined ? "" : JSON.stringify(principal);
}
