// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The A2A service on top of an {@link AgentExecutor}: all eleven operations of
 * `A2AServiceHandler`, with the semantics of spec §3.
 *
 * Stream ends (the spec disagrees with itself: §3.1.2/§3.1.6 say "close at a terminal state", §11.7 and
 * the streaming topic say "terminal or interrupted", §7.6.1 wants streams kept open in
 * AUTH_REQUIRED while credentials arrive out of band). Reading taken:
 * - a SendStreamingMessage stream is the stream of its turn: it closes at a terminal
 *   state, after a stateless Message, or when the turn's `execute()` returns — which an
 *   executor does right after `requireInput`/`requireAuth` when it waits for the client
 *   (so the stream closes at the interrupted state, §11.7), and does not do while it
 *   waits for an out-of-band credential (so the stream stays open, §7.6.1);
 * - a SubscribeToTask stream is the stream of the task: it closes at a terminal state
 *   only (§3.1.6), surviving interrupted states and later turns;
 * - a blocking SendMessage returns at the first terminal or interrupted state (§3.2.2).
 */
import { clone, create } from "@bufbuild/protobuf";
import { EmptySchema, type Empty } from "@bufbuild/protobuf/wkt";
import type { A2AErrorOptions } from "../a2a-error.js";
import { isCallAborted, watchCallAbort } from "../call-abort.js";
import { isBindingCall, markImmutable } from "../binding-call.js";
import { TaskEngine } from "./engine.js";
import type { FeedItem } from "./live-tasks.js";
import { InvalidPageTokenError, type TaskRuntimeErrors } from "./errors.js";
import { checkQueueLimit } from "./event-hub.js";
import type { TaskCallContext } from "./executor.js";
import { TaskFactory } from "./factory.js";
import { applyView, historyLengthProblem, viewTrims, type TaskView } from "./history.js";
import { InMemoryTaskStore } from "./memory-store.js";
import {
  DEFAULT_MAX_QUEUED_EVENTS,
  defaultOwnerOf,
  type ExtraOperation,
  type ExtraOperationImplementations,
  type TaskCapabilities,
  type TaskHandlerOptions,
  type TaskRuntimeBinding,
  type TaskServiceHandler,
} from "./options.js";
import type {
  CancelTaskRequestShape,
  GetTaskRequestShape,
  ListPushConfigsRequestShape,
  ListPushConfigsResponseShape,
  ListTasksRequestShape,
  ListTasksResponseShape,
  MessageShape,
  PushConfigRefShape,
  PushConfigShape,
  SendMessageRequestShape,
  SendMessageResponseShape,
  StreamResponseShape,
  SubscribeToTaskRequestShape,
  TaskRuntimeSchemas,
  TaskShape,
} from "./shapes.js";
import { TaskStates } from "./states.js";
import { webhookUrlCheckOf } from "./webhook-check.js";
import type { TaskStore, PushConfigPage, TaskPage } from "./task-store.js";

/** Default and bounds of `ListTasksRequest.page_size` (proto comment: "at most 50 … minimum 1 … maximum 100"). */
const DEFAULT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 100;

/** Introspection of a task handler, for tests and metrics. */
export interface TaskHandlerIntrospection {
  /** Tasks with live in-process state (running turns, open streams, pending changes); 0 when idle. */
  readonly liveTasks: number;
}

/**
 * Builds the A2A service of an agent from its executor. The generated binder calls it
 * with the generated schemas, enums and errors; the result is assignable to the
 * generated `A2AServiceHandler<Principal>`. `X` types the service's RPCs beyond the eleven
 * (`binding.extraOperations`, the generated `<Service>ExtraOperations`): `options.operations`
 * or UnsupportedOperationError.
 */
export function createTaskHandler<Principal, S extends TaskRuntimeSchemas, X extends object = Record<never, never>>(
  binding: TaskRuntimeBinding<S>,
  options: TaskHandlerOptions<Principal, S>,
): TaskServiceHandler<Principal, S> & TaskHandlerIntrospection & X {
  // The runtime works on the shapes; every message it hands out is created with the
  // binding's schemas, so it is of the generated type S describes. Only the static
  // types differ, hence the two casts at this boundary.
  const impl = new TaskHandler<Principal>(binding, options as unknown as TaskHandlerOptions<Principal, TaskRuntimeSchemas>);
  // A plain object of bound functions: it survives destructuring and `{ ...handler, override }`.
  const handler: TaskServiceHandler<Principal, TaskRuntimeSchemas> & TaskHandlerIntrospection = {
    sendMessage: (request, context) => impl.sendMessage(request, context),
    sendStreamingMessage: (request, context) => impl.sendStreamingMessage(request, context),
    getTask: (request, context) => impl.getTask(request, context),
    listTasks: (request, context) => impl.listTasks(request, context),
    cancelTask: (request, context) => impl.cancelTask(request, context),
    subscribeToTask: (request, context) => impl.subscribeToTask(request, context),
    createTaskPushNotificationConfig: (request, context) => impl.createTaskPushNotificationConfig(request, context),
    getTaskPushNotificationConfig: (request, context) => impl.getTaskPushNotificationConfig(request, context),
    listTaskPushNotificationConfigs: (request, context) => impl.listTaskPushNotificationConfigs(request, context),
    getExtendedAgentCard: (request, context) => impl.getExtendedAgentCard(request, context),
    deleteTaskPushNotificationConfig: (request, context) => impl.deleteTaskPushNotificationConfig(request, context),
    get liveTasks() {
      return impl.liveTasks;
    },
  };
  const extras = extraOperations(binding.extraOperations ?? [], options.operations, binding.errors, handler);
  for (const [localName, call] of extras) (handler as unknown as Record<string, unknown>)[localName] = call;
  return handler as unknown as TaskServiceHandler<Principal, S> & TaskHandlerIntrospection & X;
}

/** A handler method of an extra operation. */
type ExtraCall = (request: unknown, context: unknown) => unknown;

/**
 * The handler methods of the extra operations: the author's implementation (called with its
 * `operations` object as `this`, and the handler as the third argument), else one that answers
 * UnsupportedOperationError (a unary RPC with a rejected promise, a streaming one with a stream
 * that fails before its first event).
 */
function extraOperations(declared: readonly ExtraOperation[], implementations: ExtraOperationImplementations | undefined, errors: TaskRuntimeErrors, handler: object): Map<string, ExtraCall> {
  const calls = new Map<string, ExtraCall>();
  const known = new Set(declared.map((op) => op.localName));
  for (const [name, value] of Object.entries(implementations ?? {})) {
    if (!known.has(name)) {
      const list = declared.length === 0 ? "none" : declared.map((op) => op.localName).join(", ");
      throw new TypeError(`operations.${name}: not an RPC of this service beyond the eleven A2A operations (those are: ${list})`);
    }
    if (value !== undefined && typeof value !== "function") throw new TypeError(`operations.${name} must be a function`);
  }
  for (const op of declared) {
    const implementation = implementations?.[op.localName] as ((request: unknown, context: unknown, handler: object) => unknown) | undefined;
    if (implementation !== undefined) {
      calls.set(op.localName, (request, context) => implementation.call(implementations, request, context, handler));
      continue;
    }
    const refuse = () => errors.UnsupportedOperation(`${op.name} is not implemented by this agent`, { metadata: { method: op.name } });
    calls.set(
      op.localName,
      op.kind === "unary"
        ? () => Promise.reject(refuse())
        : // biome-ignore lint/correctness/useYield: the stream fails before its first event
          async function* () {
            throw refuse();
          },
    );
  }
  return calls;
}

/**
 * The default owner key (`defaultOwnerOf`: "" without a principal, else its JSON), refusing a
 * principal whose JSON cannot tell it apart from others: a class instance (or Map, Set, …) that
 * serializes to `{}` (private fields, getters, no enumerable own fields) would give every such
 * principal the same key, and so each the others' tasks. Such a call fails (InternalError, logged)
 * until `ownerOf` is configured: closed, not shared.
 */
function safeDefaultOwnerOf(principal: unknown): string {
  const key = defaultOwnerOf(principal);
  if (key === "{}" && typeof principal === "object" && principal !== null) {
    const prototype = Object.getPrototypeOf(principal) as unknown;
    if (prototype !== Object.prototype && prototype !== null) {
      throw new TypeError("task runtime: this principal serializes to {} (no enumerable fields), so the default owner key cannot tell principals apart: configure TaskHandlerOptions.ownerOf");
    }
  }
  return key;
}

/**
 * `ownerOf`, checked: an owner key that is not a string (a function of the principal that forgot a
 * case, JSON.stringify of a function) fails the call (InternalError, logged) instead of becoming a
 * key such as "undefined" that unrelated principals share.
 */
function checkedOwnerOf<Principal>(
  ownerOf: (principal: Principal | undefined, call: TaskCallContext<Principal>) => string,
): (principal: Principal | undefined, call: TaskCallContext<Principal>) => string {
  return (principal, call) => {
    const key: unknown = ownerOf(principal, call);
    if (typeof key !== "string") throw new TypeError(`task runtime: ownerOf returned ${key === null ? "null" : typeof key}, not a string`);
    return key;
  };
}

/** The implementation behind {@link createTaskHandler}, typed against the shapes. */
class TaskHandler<Principal> implements TaskServiceHandler<Principal, TaskRuntimeSchemas>, TaskHandlerIntrospection {
  readonly #engine: TaskEngine<Principal>;
  readonly #factory: TaskFactory;
  readonly #states: TaskStates;
  readonly #errors: TaskRuntimeErrors;
  readonly #store: TaskStore;
  readonly #capabilities: TaskCapabilities;
  readonly #card: TaskHandlerOptions<Principal, TaskRuntimeSchemas>["extendedAgentCard"];

  constructor(binding: TaskRuntimeBinding<TaskRuntimeSchemas>, options: TaskHandlerOptions<Principal, TaskRuntimeSchemas>) {
    const maxQueuedEvents = options.maxQueuedEvents ?? DEFAULT_MAX_QUEUED_EVENTS;
    checkQueueLimit(maxQueuedEvents, "maxQueuedEvents");
    this.#states = new TaskStates(binding.states);
    const newId = options.generateId ?? (() => crypto.randomUUID());
    this.#factory = new TaskFactory(binding.schemas, this.#states, binding.roles, options.now ?? (() => new Date()), newId);
    this.#errors = binding.errors;
    this.#store = options.store ?? new InMemoryTaskStore();
    this.#capabilities = options.capabilities ?? {};
    this.#card = options.extendedAgentCard;
    this.#engine = new TaskEngine<Principal>({
      factory: this.#factory,
      store: this.#store,
      errors: this.#errors,
      executor: options.executor,
      ownerOf: checkedOwnerOf(options.ownerOf ?? safeDefaultOwnerOf),
      clientContextIds: options.clientContextIds ?? "accept",
      pushNotifications: this.#capabilities.pushNotifications === true,
      checkPushUrl: options.checkPushUrl === false ? undefined : (options.checkPushUrl ?? webhookUrlCheckOf(options.onTaskEvent)),
      onTaskEvent: options.onTaskEvent,
      onError: options.onError ?? ((error, context) => console.error(`task runtime: ${context}`, error)),
      maxQueuedEvents,
      maxSubscribersPerTask: options.maxSubscribersPerTask,
      maxActiveTasksPerOwner: options.maxActiveTasksPerOwner,
      maxArtifactsPerTask: options.maxArtifactsPerTask,
      maxPartsPerArtifact: options.maxPartsPerArtifact,
    });
  }

  get liveTasks(): number {
    return this.#engine.live.size;
  }

  #invalid(field: string, description: string, options?: A2AErrorOptions): Error {
    return this.#errors.InvalidParams(description, { ...options, fieldViolations: [{ field, description }] });
  }

  #checkHistoryLength(field: string, historyLength: number | undefined): void {
    const problem = historyLengthProblem(historyLength);
    if (problem !== undefined) throw this.#invalid(field, problem);
  }

  #requireStreaming(): void {
    if (this.#capabilities.streaming !== true) throw this.#errors.UnsupportedOperation("This agent does not support streaming");
  }

  #requirePush(): void {
    if (this.#capabilities.pushNotifications !== true) throw this.#errors.PushNotificationNotSupported("This agent does not support push notifications");
  }

  /**
   * A stored task trimmed to the view, for a caller: a deep copy, or for a caller that only
   * serializes it (`shared`, see binding-call.ts) the task itself (stored tasks are never
   * changed in place), or a shallow copy when the view trims it.
   */
  #view(task: TaskShape, view: TaskView, shared: boolean): TaskShape {
    if (!shared) return applyView(this.#factory.cloneTask(task), view);
    return viewTrims(task, view) ? applyView(this.#factory.copyTask(task), view) : task;
  }

  /**
   * A feed event for one reader (a Task trimmed to the view): a deep copy, or the event itself when
   * `shared` (as for {@link #view}), marked immutable when it fans out to several streams (so that a
   * binding encodes it once for all; for a single reader the cache would only cost).
   */
  #copyEvent(item: FeedItem & { readonly kind: "event" }, view: TaskView, shared: boolean): StreamResponseShape {
    const event = item.event;
    if (!shared) {
      const copy = this.#factory.cloneEvent(event);
      if (copy.payload.case === "task") applyView(copy.payload.value, view);
      return copy;
    }
    if (event.payload.case !== "task" || !viewTrims(event.payload.value, view)) return item.fanOut ? markImmutable(event) : event;
    return this.#factory.feedTaskEvent(applyView(this.#factory.copyTask(event.payload.value), view));
  }

  async sendMessage(request: SendMessageRequestShape, context: TaskCallContext<Principal>): Promise<SendMessageResponseShape> {
    const start = await this.#engine.beginTurn(request, context);
    const view: TaskView = { historyLength: request.configuration?.historyLength };
    const immediate = request.configuration?.returnImmediately === true;
    const schema = this.#factory.schemas.SendMessageResponse;
    const shared = isBindingCall(context);
    const { feed } = start;
    try {
      // §3.2.2: return_immediately returns as soon as the task exists; a continued task already does.
      if (start.task !== undefined && immediate) return create(schema, { payload: { case: "task", value: this.#view(start.task, view, shared) } });
      let reply: MessageShape | undefined;
      for await (const item of feed) {
        if (item.kind === "end") {
          if (item.turn !== start.turn) continue;
          if (item.failure !== undefined) throw item.failure.error;
          break;
        }
        const payload = item.event.payload;
        if (payload.case === "message") {
          reply = payload.value;
          break;
        }
        if (immediate && payload.case === "task") break;
        // §3.2.2 blocking: wait for a terminal or an interrupted state.
        if (payload.case === "statusUpdate" && (this.#states.isTerminal(item.state) || this.#states.isInterrupted(item.state))) break;
      }
      if (reply !== undefined) return create(schema, { payload: { case: "message", value: shared ? reply : this.#factory.cloneMessage(reply) } });
      if (isCallAborted(context)) throw context.signal.reason;
      const task = await this.#engine.requireTask(start.scope, start.taskId);
      return create(schema, { payload: { case: "task", value: this.#view(task, view, shared) } });
    } finally {
      feed.close();
    }
  }

  async *sendStreamingMessage(request: SendMessageRequestShape, context: TaskCallContext<Principal>): AsyncGenerator<StreamResponseShape> {
    this.#requireStreaming();
    const start = await this.#engine.beginTurn(request, context);
    const view: TaskView = { historyLength: request.configuration?.historyLength };
    const shared = isBindingCall(context);
    const { feed } = start;
    try {
      // §3.1.2: a task stream begins with the Task (for a new task, the feed's first event is its creation).
      if (start.task !== undefined) yield create(this.#factory.schemas.StreamResponse, { payload: { case: "task", value: this.#view(start.task, view, shared) } });
      for await (const item of feed) {
        if (item.kind === "end") {
          if (item.turn !== start.turn) continue;
          if (item.failure !== undefined) throw item.failure.error;
          return;
        }
        yield this.#copyEvent(item, view, shared);
        const payload = item.event.payload;
        if (payload.case === "message") return;
        if (payload.case === "statusUpdate" && this.#states.isTerminal(item.state)) return;
      }
    } finally {
      feed.close();
    }
  }

  async getTask(request: GetTaskRequestShape, context: TaskCallContext<Principal>): Promise<TaskShape> {
    this.#checkHistoryLength("historyLength", request.historyLength);
    const task = await this.#engine.requireTask(this.#engine.scopeOf(context), request.id);
    return this.#view(task, { historyLength: request.historyLength }, isBindingCall(context));
  }

  async listTasks(request: ListTasksRequestShape, context: TaskCallContext<Principal>): Promise<ListTasksResponseShape> {
    const pageSize = request.pageSize ?? DEFAULT_PAGE_SIZE;
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
      throw this.#invalid("pageSize", `pageSize must be between 1 and ${MAX_PAGE_SIZE}, got ${pageSize}`);
    }
    this.#checkHistoryLength("historyLength", request.historyLength);
    if (request.status !== 0 && !this.#states.isKnown(request.status)) throw this.#invalid("status", `status ${request.status} is not a task state`);
    let page: TaskPage;
    try {
      page = await this.#store.listTasks(this.#engine.scopeOf(context), {
        contextId: request.contextId,
        state: request.status === 0 ? undefined : request.status,
        statusTimestampAfter: request.statusTimestampAfter,
        pageSize,
        pageToken: request.pageToken,
      });
    } catch (e) {
      if (e instanceof InvalidPageTokenError) throw this.#invalid("pageToken", e.message);
      throw e;
    }
    // §3.1.4: includeArtifacts false (the default) → "the artifacts field MUST be omitted entirely".
    const view: TaskView = { historyLength: request.historyLength, includeArtifacts: request.includeArtifacts === true };
    const shared = isBindingCall(context);
    return create(this.#factory.schemas.ListTasksResponse, {
      tasks: page.tasks.map((task) => this.#view(task, view, shared)),
      nextPageToken: page.nextPageToken,
      pageSize,
      totalSize: page.totalSize,
    });
  }

  async cancelTask(request: CancelTaskRequestShape, context: TaskCallContext<Principal>): Promise<TaskShape> {
    const task = await this.#engine.cancel(this.#engine.scopeOf(context), request.id, context, request.metadata);
    return this.#view(task, {}, isBindingCall(context));
  }

  async *subscribeToTask(request: SubscribeToTaskRequestShape, context: TaskCallContext<Principal>): AsyncGenerator<StreamResponseShape> {
    this.#requireStreaming();
    const { task, feed } = await this.#engine.subscribe(this.#engine.scopeOf(context), request.id, watchCallAbort(context));
    try {
      // §3.1.6: "MUST return a Task object as the first event".
      const shared = isBindingCall(context);
      yield shared ? this.#factory.feedTaskEvent(task) : this.#factory.taskEvent(task);
      for await (const item of feed) {
        if (item.kind !== "event") continue;
        const payload = item.event.payload;
        if (payload.case !== "statusUpdate" && payload.case !== "artifactUpdate") continue;
        yield shared ? (item.fanOut ? markImmutable(item.event) : item.event) : this.#factory.cloneEvent(item.event);
        if (payload.case === "statusUpdate" && this.#states.isTerminal(item.state)) return;
      }
    } finally {
      feed.close();
    }
  }

  async createTaskPushNotificationConfig(request: PushConfigShape, context: TaskCallContext<Principal>): Promise<PushConfigShape> {
    this.#requirePush();
    if (request.url === "") throw this.#invalid("url", "url is required");
    await this.#engine.checkPushUrl(request.url, "url");
    const scope = this.#engine.scopeOf(context);
    await this.#engine.requireTask(scope, request.taskId);
    const config = clone(this.#factory.schemas.TaskPushNotificationConfig, request);
    if (config.id === "") config.id = this.#factory.newId();
    await this.#store.savePushConfig(scope, config);
    return clone(this.#factory.schemas.TaskPushNotificationConfig, config);
  }

  async getTaskPushNotificationConfig(request: PushConfigRefShape, context: TaskCallContext<Principal>): Promise<PushConfigShape> {
    this.#requirePush();
    const scope = this.#engine.scopeOf(context);
    await this.#engine.requireTask(scope, request.taskId);
    const config = await this.#store.getPushConfig(scope, request.taskId, request.id);
    // §3.1.8: a config that does not exist is TaskNotFoundError.
    if (config === undefined) {
      throw this.#errors.TaskNotFound(`Push notification config ${request.id} of task ${request.taskId} not found`, { metadata: { taskId: request.taskId, configId: request.id } });
    }
    return clone(this.#factory.schemas.TaskPushNotificationConfig, config);
  }

  async listTaskPushNotificationConfigs(request: ListPushConfigsRequestShape, context: TaskCallContext<Principal>): Promise<ListPushConfigsResponseShape> {
    this.#requirePush();
    if (!Number.isInteger(request.pageSize) || request.pageSize < 0) throw this.#invalid("pageSize", `pageSize must not be negative, got ${request.pageSize}`);
    const scope = this.#engine.scopeOf(context);
    await this.#engine.requireTask(scope, request.taskId);
    let page: PushConfigPage;
    try {
      page = await this.#store.listPushConfigs(scope, request.taskId, { pageSize: request.pageSize, pageToken: request.pageToken });
    } catch (e) {
      if (e instanceof InvalidPageTokenError) throw this.#invalid("pageToken", e.message);
      throw e;
    }
    const schema = this.#factory.schemas.TaskPushNotificationConfig;
    return create(this.#factory.schemas.ListTaskPushNotificationConfigsResponse, {
      configs: page.configs.map((config) => clone(schema, config)),
      nextPageToken: page.nextPageToken,
    });
  }

  async getExtendedAgentCard(_request: object, context: TaskCallContext<Principal>) {
    // §3.3.4: not declared → UnsupportedOperationError; declared, not configured → ExtendedAgentCardNotConfiguredError.
    if (this.#capabilities.extendedAgentCard !== true) throw this.#errors.UnsupportedOperation("This agent does not declare an extended agent card");
    const card = this.#card;
    if (card === undefined) throw this.#errors.ExtendedAgentCardNotConfigured("This agent has no extended agent card configured");
    // §3.1.11/§13.3: the extended card is for authenticated clients only (the auth hook sets the principal).
    if (context.principal === undefined || context.principal === null) {
      throw this.#errors.Unauthenticated("The extended agent card requires authentication");
    }
    const value = typeof card === "function" ? await card(context) : card;
    return clone(this.#factory.schemas.AgentCard, value);
  }

  async deleteTaskPushNotificationConfig(request: PushConfigRefShape, context: TaskCallContext<Principal>): Promise<Empty> {
    this.#requirePush();
    const scope = this.#engine.scopeOf(context);
    await this.#engine.requireTask(scope, request.taskId);
    // §3.1.10: idempotent — deleting a config that is not there succeeds.
    await this.#store.deletePushConfig(scope, request.taskId, request.id);
    return create(EmptySchema);
  }
}
