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
import { markPushConfigVersion } from "./push/config-version.js";
import { clone, create } from "@bufbuild/protobuf";
import { EmptySchema, type Empty } from "@bufbuild/protobuf/wkt";
import type { A2AErrorOptions } from "../errors/a2a-error.js";
import { isCallAborted, watchCallAbort } from "../pipeline/call-abort.js";
import { isBindingCall, markImmutable } from "../pipeline/binding-call.js";
import { TaskEngine } from "./engine.js";
import { CONSOLE_LOGGER } from "../observe/logger.js";
import type { FeedItem } from "./live-tasks.js";
import { InvalidPageTokenError, TaskStoreFullError, type TaskRuntimeErrors } from "./errors.js";
import { checkQueueLimit } from "./event-hub.js";
import type { TaskCallContext } from "./executor.js";
import { TaskFactory } from "./factory.js";
import { applyView, historyLengthProblem, viewTrims, type TaskView } from "./history.js";
import { InMemoryTaskStore } from "./memory-store.js";
import {
  DEFAULT_MAX_PUSH_CONFIG_BYTES,
  DEFAULT_MAX_PUSH_CONFIGS_PER_TASK,
  DEFAULT_MAX_QUEUED_EVENTS,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_MAX_TASK_BYTES,
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
import { webhookUrlCheckOf } from "./push/webhook-check.js";
import { LAST_EVENT_ID_PARAMETER, formatEventId, parseEventId, setEventId } from "./event-ids.js";
import type { TaskStore, PushConfigPage, TaskPage, TaskQuery, TaskScope } from "./store.js";
import { nonFinitePath, taskViewBytes, valueBytes } from "./size.js";

/** A byte bound option: an integer ≥ 1 or Infinity. */
function checkedBytes(name: string, value: number): number {
  if (value === Number.POSITIVE_INFINITY || (Number.isSafeInteger(value) && value >= 1))
    return value;
  throw new RangeError(`${name} must be an integer >= 1 or Infinity, got ${value}`);
}

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
export function createTaskHandler<
  Principal,
  S extends TaskRuntimeSchemas,
  X extends object = Record<never, never>,
>(
  binding: TaskRuntimeBinding<S>,
  options: TaskHandlerOptions<Principal, S>,
): TaskServiceHandler<Principal, S> & TaskHandlerIntrospection & X {
  // The runtime works on the shapes; every message it hands out is created with the
  // binding's schemas, so it is of the generated type S describes. Only the static
  // types differ, hence the two casts at this boundary.
  const impl = new TaskHandler<Principal>(
    binding,
    options as unknown as TaskHandlerOptions<Principal, TaskRuntimeSchemas>,
  );
  // A plain object of bound functions: it survives destructuring and `{ ...handler, override }`.
  const handler: TaskServiceHandler<Principal, TaskRuntimeSchemas> & TaskHandlerIntrospection = {
    sendMessage: (request, context) => impl.sendMessage(request, context),
    sendStreamingMessage: (request, context) => impl.sendStreamingMessage(request, context),
    getTask: (request, context) => impl.getTask(request, context),
    listTasks: (request, context) => impl.listTasks(request, context),
    cancelTask: (request, context) => impl.cancelTask(request, context),
    subscribeToTask: (request, context) => impl.subscribeToTask(request, context),
    createTaskPushNotificationConfig: (request, context) =>
      impl.createTaskPushNotificationConfig(request, context),
    getTaskPushNotificationConfig: (request, context) =>
      impl.getTaskPushNotificationConfig(request, context),
    listTaskPushNotificationConfigs: (request, context) =>
      impl.listTaskPushNotificationConfigs(request, context),
    getExtendedAgentCard: (request, context) => impl.getExtendedAgentCard(request, context),
    deleteTaskPushNotificationConfig: (request, context) =>
      impl.deleteTaskPushNotificationConfig(request, context),
    get liveTasks() {
      return impl.liveTasks;
    },
  };
  const extras = extraOperations(
    binding.extraOperations ?? [],
    options.operations,
    binding.errors,
    handler,
  );
  for (const [localName, call] of extras)
    (handler as unknown as Record<string, unknown>)[localName] = call;
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
function extraOperations(
  declared: readonly ExtraOperation[],
  implementations: ExtraOperationImplementations | undefined,
  errors: TaskRuntimeErrors,
  handler: object,
): Map<string, ExtraCall> {
  const calls = new Map<string, ExtraCall>();
  const known = new Set(declared.map((op) => op.localName));
  for (const [name, value] of Object.entries(implementations ?? {})) {
    if (!known.has(name)) {
      const list = declared.length === 0 ? "none" : declared.map((op) => op.localName).join(", ");
      throw new TypeError(
        `operations.${name}: not an RPC of this service beyond the eleven A2A operations (those are: ${list})`,
      );
    }
    if (value !== undefined && typeof value !== "function")
      throw new TypeError(`operations.${name} must be a function`);
  }
  for (const op of declared) {
    const implementation = implementations?.[op.localName] as
      | ((request: unknown, context: unknown, handler: object) => unknown)
      | undefined;
    if (implementation !== undefined) {
      calls.set(op.localName, (request, context) =>
        implementation.call(implementations, request, context, handler),
      );
      continue;
    }
    const refuse = () =>
      errors.UnsupportedOperation(`${op.name} is not implemented by this agent`, {
        metadata: { method: op.name },
      });
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
      throw new TypeError(
        "task runtime: this principal serializes to {} (no enumerable fields), so the default owner key cannot tell principals apart: configure TaskHandlerOptions.ownerOf",
      );
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
    if (typeof key !== "string")
      throw new TypeError(
        `task runtime: ownerOf returned ${key === null ? "null" : typeof key}, not a string`,
      );
    return key;
  };
}

/** The implementation behind {@link createTaskHandler}, typed against the shapes. */
class TaskHandler<Principal>
  implements TaskServiceHandler<Principal, TaskRuntimeSchemas>, TaskHandlerIntrospection
{
  readonly #engine: TaskEngine<Principal>;
  readonly #factory: TaskFactory;
  readonly #states: TaskStates;
  readonly #errors: TaskRuntimeErrors;
  readonly #store: TaskStore;
  readonly #capabilities: TaskCapabilities;
  readonly #card: TaskHandlerOptions<Principal, TaskRuntimeSchemas>["extendedAgentCard"];
  readonly #maxResponseBytes: number;
  readonly #maxPushConfigs: number;
  readonly #maxPushConfigBytes: number;
  readonly #onError: (error: unknown, context: string) => void;
  /** Tasks ListTasks has reported leaving out (each once; bounded). */
  readonly #leftOut = new Set<string>();

  constructor(
    binding: TaskRuntimeBinding<TaskRuntimeSchemas>,
    options: TaskHandlerOptions<Principal, TaskRuntimeSchemas>,
  ) {
    const maxQueuedEvents = options.maxQueuedEvents ?? DEFAULT_MAX_QUEUED_EVENTS;
    checkQueueLimit(maxQueuedEvents, "maxQueuedEvents");
    if (options.maxQueuedBytes !== undefined)
      checkQueueLimit(options.maxQueuedBytes, "maxQueuedBytes");
    this.#states = new TaskStates(binding.states);
    const newId = options.generateId ?? (() => crypto.randomUUID());
    this.#factory = new TaskFactory(
      binding.schemas,
      this.#states,
      binding.roles,
      options.now ?? (() => new Date()),
      newId,
    );
    this.#errors = binding.errors;
    this.#store = options.store ?? new InMemoryTaskStore();
    this.#capabilities = options.capabilities ?? {};
    this.#card = options.extendedAgentCard;
    const maxTaskBytes = options.maxTaskBytes ?? DEFAULT_MAX_TASK_BYTES;
    this.#maxResponseBytes = checkedBytes(
      "maxResponseBytes",
      options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    );
    // Every task the runtime stores must fit one answer whole (GetTask has no way to leave artifacts out).
    if (maxTaskBytes > this.#maxResponseBytes)
      throw new RangeError(
        `maxTaskBytes (${maxTaskBytes}) must not exceed maxResponseBytes (${this.#maxResponseBytes}): a task could be stored that no answer can carry`,
      );
    this.#maxPushConfigs = checkedBytes(
      "maxPushConfigsPerTask",
      options.maxPushConfigsPerTask ?? DEFAULT_MAX_PUSH_CONFIGS_PER_TASK,
    );
    this.#maxPushConfigBytes = checkedBytes(
      "maxPushConfigBytes",
      options.maxPushConfigBytes ?? DEFAULT_MAX_PUSH_CONFIG_BYTES,
    );
    const logger = options.logger ?? CONSOLE_LOGGER;
    this.#onError =
      options.onError ?? ((error, context) => logger.error(`task runtime: ${context}`, error));
    this.#engine = new TaskEngine<Principal>({
      factory: this.#factory,
      store: this.#store,
      errors: this.#errors,
      executor: options.executor,
      ownerOf: checkedOwnerOf(options.ownerOf ?? safeDefaultOwnerOf),
      clientContextIds: options.clientContextIds ?? "accept",
      pushNotifications: this.#capabilities.pushNotifications === true,
      checkPushUrl:
        options.checkPushUrl === false
          ? undefined
          : (options.checkPushUrl ?? webhookUrlCheckOf(options.onTaskEvent)),
      onTaskEvent: options.onTaskEvent,
      onError: this.#onError,
      maxQueuedEvents,
      maxQueuedBytes: options.maxQueuedBytes,
      maxSubscribersPerTask: options.maxSubscribersPerTask,
      maxActiveTasksPerOwner: options.maxActiveTasksPerOwner,
      maxArtifactsPerTask: options.maxArtifactsPerTask,
      maxPartsPerArtifact: options.maxPartsPerArtifact,
      maxTaskBytes,
    });
  }

  get liveTasks(): number {
    return this.#engine.live.size;
  }

  #invalid(field: string, description: string, options?: A2AErrorOptions): Error {
    return this.#errors.InvalidParams(description, {
      ...options,
      fieldViolations: [{ field, description }],
    });
  }

  #checkHistoryLength(field: string, historyLength: number | undefined): void {
    const problem = historyLengthProblem(historyLength);
    if (problem !== undefined) throw this.#invalid(field, problem);
  }

  #requireStreaming(): void {
    if (this.#capabilities.streaming !== true)
      throw this.#errors.UnsupportedOperation("This agent does not support streaming");
  }

  #requirePush(): void {
    if (this.#capabilities.pushNotifications !== true)
      throw this.#errors.PushNotificationNotSupported(
        "This agent does not support push notifications",
      );
  }

  /**
   * Why a stored task cannot be answered in this view, or undefined: it holds a number JSON cannot
   * express (stored before such values were refused), or it weighs more than `maxResponseBytes`
   * (stored under a larger `maxTaskBytes`). Weights are cached: for a stored task, a lookup.
   */
  #unanswerable(task: TaskShape, view: TaskView): Error | undefined {
    const bytes = taskViewBytes(task, view.historyLength, view.includeArtifacts !== false);
    if (bytes <= this.#maxResponseBytes) return undefined;
    const taskId = task.id;
    if (Number.isNaN(bytes)) {
      const at = nonFinitePath(task);
      return this.#errors.Internal(
        `Task ${taskId} cannot be answered: it holds a number JSON cannot express (NaN or ±Infinity)${at === undefined ? "" : ` at ${at}`}, stored before this agent refused such values`,
        { metadata: { taskId } },
      );
    }
    return this.#errors.UnsupportedOperation(
      `Task ${taskId} weighs ${bytes} bytes, more than this agent sends in one answer (${this.#maxResponseBytes}, maxResponseBytes); ask for fewer messages with historyLength`,
      {
        metadata: {
          taskId,
          bytes: String(bytes),
          maxResponseBytes: String(this.#maxResponseBytes),
        },
      },
    );
  }

  /**
   * A stored task trimmed to the view, for a caller: a deep copy, or for a caller that only
   * serializes it (`shared`, see binding-call.ts) the task itself (stored tasks are never
   * changed in place), or a shallow copy when the view trims it. Throws when it cannot be
   * answered ({@link #unanswerable}).
   */
  #view(task: TaskShape, view: TaskView, shared: boolean): TaskShape {
    const problem = this.#unanswerable(task, view);
    if (problem !== undefined) throw problem;
    if (!shared) return applyView(this.#factory.cloneTask(task), view);
    return viewTrims(task, view) ? applyView(this.#factory.copyTask(task), view) : task;
  }

  /**
   * A feed event for one reader (a Task trimmed to the view): a deep copy, or the event itself when
   * `shared` (as for {@link #view}), marked immutable when it fans out to several streams (so that a
   * binding encodes it once for all; for a single reader the cache would only cost).
   */
  #copyEvent(
    item: FeedItem & { readonly kind: "event" },
    view: TaskView,
    shared: boolean,
  ): StreamResponseShape {
    const event = item.event;
    if (!shared) {
      const copy = this.#factory.cloneEvent(event);
      if (copy.payload.case === "task") applyView(copy.payload.value, view);
      return copy;
    }
    if (event.payload.case !== "task" || !viewTrims(event.payload.value, view))
      return item.fanOut ? markImmutable(event) : event;
    return this.#factory.feedTaskEvent(
      applyView(this.#factory.copyTask(event.payload.value), view),
    );
  }

  async sendMessage(
    request: SendMessageRequestShape,
    context: TaskCallContext<Principal>,
  ): Promise<SendMessageResponseShape> {
    this.#checkSendConfig(request);
    this.#markPushVersion(request, context);
    const start = await this.#engine.beginTurn(request, context);
    const view: TaskView = { historyLength: request.configuration?.historyLength };
    const immediate = request.configuration?.returnImmediately === true;
    const schema = this.#factory.schemas.SendMessageResponse;
    const shared = isBindingCall(context);
    const { feed } = start;
    try {
      // §3.2.2: return_immediately returns as soon as the task exists; a continued task already does.
      if (start.task !== undefined && immediate)
        return create(schema, {
          payload: { case: "task", value: this.#view(start.task, view, shared) },
        });
      let reply: MessageShape | undefined;
      let settled: TaskShape | undefined;
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
        if (
          payload.case === "statusUpdate" &&
          (this.#states.isTerminal(item.state) || this.#states.isInterrupted(item.state))
        ) {
          // The task as this event left it: the task's next turn may already be changing the stored one.
          settled = item.settled;
          break;
        }
      }
      if (reply !== undefined)
        return create(schema, {
          payload: { case: "message", value: shared ? reply : this.#factory.cloneMessage(reply) },
        });
      if (isCallAborted(context)) throw context.signal.reason;
      const task = settled ?? (await this.#engine.requireTask(start.scope, start.taskId));
      return create(schema, { payload: { case: "task", value: this.#view(task, view, shared) } });
    } finally {
      feed.close();
    }
  }

  async *sendStreamingMessage(
    request: SendMessageRequestShape,
    context: TaskCallContext<Principal>,
  ): AsyncGenerator<StreamResponseShape> {
    this.#requireStreaming();
    this.#checkSendConfig(request);
    this.#markPushVersion(request, context);
    const start = await this.#engine.beginTurn(request, context);
    const view: TaskView = { historyLength: request.configuration?.historyLength };
    const shared = isBindingCall(context);
    const { feed } = start;
    try {
      // §3.1.2: a task stream begins with the Task (for a new task, the feed's first event is its creation).
      if (start.task !== undefined) {
        const first = create(this.#factory.schemas.StreamResponse, {
          payload: { case: "task", value: this.#view(start.task, view, shared) },
        });
        yield withEventId(first, start.taskId, this.#engine.seqOf(start.task));
      }
      for await (const item of feed) {
        if (item.kind === "end") {
          if (item.turn !== start.turn) continue;
          if (item.failure !== undefined) throw item.failure.error;
          return;
        }
        yield withEventId(this.#copyEvent(item, view, shared), start.taskId, item.seq);
        const payload = item.event.payload;
        if (payload.case === "message") return;
        if (payload.case === "statusUpdate" && this.#states.isTerminal(item.state)) return;
      }
    } finally {
      feed.close();
    }
  }

  /** The push config a SendMessage may carry, within `maxPushConfigBytes`. */
  #checkSendConfig(request: SendMessageRequestShape): void {
    const config = request.configuration?.taskPushNotificationConfig;
    if (config !== undefined)
      this.#checkPushConfigWeight(config, "configuration.taskPushNotificationConfig");
  }

  async getTask(
    request: GetTaskRequestShape,
    context: TaskCallContext<Principal>,
  ): Promise<TaskShape> {
    this.#checkHistoryLength("historyLength", request.historyLength);
    const task = await this.#engine.requireTask(this.#engine.scopeOf(context), request.id);
    return this.#view(task, { historyLength: request.historyLength }, isBindingCall(context));
  }

  async listTasks(
    request: ListTasksRequestShape,
    context: TaskCallContext<Principal>,
  ): Promise<ListTasksResponseShape> {
    const pageSize = request.pageSize ?? DEFAULT_PAGE_SIZE;
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
      throw this.#invalid(
        "pageSize",
        `pageSize must be between 1 and ${MAX_PAGE_SIZE}, got ${pageSize}`,
      );
    }
    this.#checkHistoryLength("historyLength", request.historyLength);
    if (request.status !== 0 && !this.#states.isKnown(request.status))
      throw this.#invalid("status", `status ${request.status} is not a task state`);
    // §3.1.4: includeArtifacts false (the default) → "the artifacts field MUST be omitted entirely".
    const view: TaskView = {
      historyLength: request.historyLength,
      includeArtifacts: request.includeArtifacts === true,
    };
    const scope = this.#engine.scopeOf(context);
    const maxBytes = this.#maxResponseBytes;
    // A task that cannot be answered is left out of the page (and reported), so it weighs nothing here.
    const sizeOf = (task: TaskShape): number => {
      const bytes = taskViewBytes(task, view.historyLength, view.includeArtifacts !== false);
      return bytes <= maxBytes ? bytes : 0;
    };
    const query: TaskQuery = {
      contextId: request.contextId,
      state: request.status === 0 ? undefined : request.status,
      statusTimestampAfter: request.statusTimestampAfter,
      pageSize,
      pageToken: request.pageToken,
      budget: { maxBytes, sizeOf },
    };
    let page = await this.#listPage(scope, query);
    // A store that ignored the budget: end the page where the budget ends and ask again for that
    // shorter page, which gives the right nextPageToken.
    const fits = fittingCount(page.tasks, sizeOf, maxBytes);
    if (fits < page.tasks.length) page = await this.#listPage(scope, { ...query, pageSize: fits });
    const shared = isBindingCall(context);
    const tasks: TaskShape[] = [];
    for (const task of page.tasks) {
      const problem = this.#unanswerable(task, view);
      if (problem === undefined) tasks.push(this.#view(task, view, shared));
      else this.#reportLeftOut(scope, task.id, problem);
    }
    return create(this.#factory.schemas.ListTasksResponse, {
      tasks,
      nextPageToken: page.nextPageToken,
      pageSize,
      totalSize: page.totalSize,
    });
  }

  /** Reports (once per task, for the first 1,000 tasks) a task ListTasks could not answer. */
  #reportLeftOut(scope: TaskScope, taskId: string, problem: Error): void {
    const key = JSON.stringify([scope.tenant, scope.owner, taskId]);
    if (this.#leftOut.has(key) || this.#leftOut.size >= 1000) return;
    this.#leftOut.add(key);
    this.#onError(problem, `ListTasks left out task ${taskId}`);
  }

  async #listPage(scope: TaskScope, query: TaskQuery): Promise<TaskPage> {
    try {
      return await this.#store.listTasks(scope, query);
    } catch (e) {
      if (e instanceof InvalidPageTokenError) throw this.#invalid("pageToken", e.message);
      throw e;
    }
  }

  async cancelTask(
    request: CancelTaskRequestShape,
    context: TaskCallContext<Principal>,
  ): Promise<TaskShape> {
    const task = await this.#engine.cancel(
      this.#engine.scopeOf(context),
      request.id,
      context,
      request.metadata,
    );
    return this.#view(task, {}, isBindingCall(context));
  }

  async *subscribeToTask(
    request: SubscribeToTaskRequestShape,
    context: TaskCallContext<Principal>,
  ): AsyncGenerator<StreamResponseShape> {
    this.#requireStreaming();
    const scope = this.#engine.scopeOf(context);
    const resumeAfter = this.#resumePoint(request.id, context);
    const { task, seq, missed, feed } = await this.#engine.subscribe(
      scope,
      request.id,
      watchCallAbort(context),
      resumeAfter,
    );
    try {
      const shared = isBindingCall(context);
      if (missed === undefined) {
        const problem = this.#unanswerable(task, {});
        if (problem !== undefined) throw problem;
        // §3.1.6: "MUST return a Task object as the first event".
        yield withEventId(
          shared ? this.#factory.feedTaskEvent(task) : this.#factory.taskEvent(task),
          task.id,
          seq,
        );
      } else {
        // A resumed stream (Last-Event-ID): what the client missed, from the task's event log, then live events.
        let after = missed.after;
        while (after < missed.upTo) {
          const records = await this.#engine.readEvents(
            scope,
            task.id,
            after,
            Math.min(100, missed.upTo - after),
          );
          if (records.length === 0) break;
          for (const record of records) {
            after = record.seq;
            const payload = record.event.payload;
            if (payload.case !== "statusUpdate" && payload.case !== "artifactUpdate") continue;
            yield withEventId(record.event, task.id, record.seq);
            if (payload.case === "statusUpdate" && this.#states.isTerminal(record.state)) return;
          }
        }
      }
      if (feed === undefined) return;
      for await (const item of feed) {
        if (item.kind !== "event") continue;
        const payload = item.event.payload;
        if (payload.case !== "statusUpdate" && payload.case !== "artifactUpdate") continue;
        yield withEventId(
          shared
            ? item.fanOut
              ? markImmutable(item.event)
              : item.event
            : this.#factory.cloneEvent(item.event),
          task.id,
          item.seq,
        );
        if (payload.case === "statusUpdate" && this.#states.isTerminal(item.state)) return;
      }
    } finally {
      feed?.close();
    }
  }

  /**
   * The event a resuming SubscribeToTask got last (`Last-Event-ID`, an id this runtime sent for the
   * task): its sequence number; undefined for a plain subscription. An id of another task is refused.
   */
  #resumePoint(taskId: string, context: TaskCallContext<Principal>): number | undefined {
    const header = context.serviceParameters.get(LAST_EVENT_ID_PARAMETER);
    if (header === undefined || header.trim() === "") return undefined;
    const parsed = parseEventId(header.trim());
    if (parsed === undefined || parsed.taskId !== taskId) {
      throw this.#invalid(
        "Last-Event-ID",
        `Last-Event-ID "${header.slice(0, 200)}" is not the id of an event of task ${taskId}`,
      );
    }
    return parsed.seq;
  }

  /** A push config given with a message remembers the caller's protocol version (push/config-version.ts). */
  #markPushVersion(request: SendMessageRequestShape, context: TaskCallContext<Principal>): void {
    const config = request.configuration?.taskPushNotificationConfig;
    if (config !== undefined) markPushConfigVersion(config, context.requestedVersion ?? "");
  }

  async createTaskPushNotificationConfig(
    request: PushConfigShape,
    context: TaskCallContext<Principal>,
  ): Promise<PushConfigShape> {
    this.#requirePush();
    if (request.url === "") throw this.#invalid("url", "url is required");
    this.#checkPushConfigWeight(request, "");
    await this.#engine.checkPushUrl(request.url, "url");
    const scope = this.#engine.scopeOf(context);
    await this.#engine.requireTask(scope, request.taskId);
    const config = clone(this.#factory.schemas.TaskPushNotificationConfig, request);
    if (config.id === "") config.id = this.#factory.newId();
    // Webhooks go out in the version the config was registered in (push/config-version.ts).
    markPushConfigVersion(config, context.requestedVersion ?? "");
    if ((await this.#store.getPushConfig(scope, config.taskId, config.id)) === undefined) {
      // One more config: within maxPushConfigsPerTask (pages of the limit's size: one read while under it).
      const page = await this.#store.listPushConfigs(scope, config.taskId, {
        pageSize: this.#maxPushConfigs === Number.POSITIVE_INFINITY ? 0 : this.#maxPushConfigs,
        pageToken: "",
      });
      if (
        this.#maxPushConfigs !== Number.POSITIVE_INFINITY &&
        page.configs.length >= this.#maxPushConfigs
      ) {
        throw this.#errors.UnsupportedOperation(
          `Task ${config.taskId} already has ${this.#maxPushConfigs} push notification configs (maxPushConfigsPerTask); delete one first`,
          {
            metadata: {
              taskId: config.taskId,
              maxPushConfigsPerTask: String(this.#maxPushConfigs),
            },
          },
        );
      }
    }
    try {
      await this.#store.savePushConfig(scope, config);
    } catch (e) {
      if (e instanceof TaskStoreFullError && e.limit === "maxBytesPerOwner") {
        throw this.#errors.UnsupportedOperation(
          `This agent holds as much of this caller's tasks as it keeps (${e.maximum} bytes, maxBytesPerOwner); complete or cancel unfinished tasks first`,
          {
            metadata: { maxBytesPerOwner: String(e.maximum) },
          },
        );
      }
      throw e;
    }
    return clone(this.#factory.schemas.TaskPushNotificationConfig, config);
  }

  /** Refuses a push config heavier than `maxPushConfigBytes` (InvalidParams naming it; `prefix` is its field path, "" for the request itself). */
  #checkPushConfigWeight(config: PushConfigShape, prefix: string): void {
    const bytes = valueBytes(config);
    if (bytes <= this.#maxPushConfigBytes) return;
    const field = prefix === "" ? "url" : prefix;
    throw this.#invalid(
      field,
      `the push notification config is ${bytes} bytes (as JSON), more than ${this.#maxPushConfigBytes} (maxPushConfigBytes)`,
      {
        metadata: { limit: "maxPushConfigBytes", maximum: String(this.#maxPushConfigBytes) },
      },
    );
  }

  async getTaskPushNotificationConfig(
    request: PushConfigRefShape,
    context: TaskCallContext<Principal>,
  ): Promise<PushConfigShape> {
    this.#requirePush();
    const scope = this.#engine.scopeOf(context);
    await this.#engine.requireTask(scope, request.taskId);
    const config = await this.#store.getPushConfig(scope, request.taskId, request.id);
    // §3.1.8: a config that does not exist is TaskNotFoundError.
    if (config === undefined) {
      throw this.#errors.TaskNotFound(
        `Push notification config ${request.id} of task ${request.taskId} not found`,
        { metadata: { taskId: request.taskId, configId: request.id } },
      );
    }
    return clone(this.#factory.schemas.TaskPushNotificationConfig, config);
  }

  async listTaskPushNotificationConfigs(
    request: ListPushConfigsRequestShape,
    context: TaskCallContext<Principal>,
  ): Promise<ListPushConfigsResponseShape> {
    this.#requirePush();
    if (!Number.isInteger(request.pageSize) || request.pageSize < 0)
      throw this.#invalid("pageSize", `pageSize must not be negative, got ${request.pageSize}`);
    const scope = this.#engine.scopeOf(context);
    await this.#engine.requireTask(scope, request.taskId);
    let page: PushConfigPage;
    try {
      page = await this.#store.listPushConfigs(scope, request.taskId, {
        pageSize: request.pageSize,
        pageToken: request.pageToken,
      });
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
    if (this.#capabilities.extendedAgentCard !== true)
      throw this.#errors.UnsupportedOperation("This agent does not declare an extended agent card");
    const card = this.#card;
    if (card === undefined)
      throw this.#errors.ExtendedAgentCardNotConfigured(
        "This agent has no extended agent card configured",
      );
    // §3.1.11/§13.3: the extended card is for authenticated clients only (the auth hook sets the principal).
    if (context.principal === undefined || context.principal === null) {
      throw this.#errors.Unauthenticated("The extended agent card requires authentication");
    }
    const value = typeof card === "function" ? await card(context) : card;
    return clone(this.#factory.schemas.AgentCard, value);
  }

  async deleteTaskPushNotificationConfig(
    request: PushConfigRefShape,
    context: TaskCallContext<Principal>,
  ): Promise<Empty> {
    this.#requirePush();
    const scope = this.#engine.scopeOf(context);
    await this.#engine.requireTask(scope, request.taskId);
    // §3.1.10: idempotent — deleting a config that is not there succeeds.
    await this.#store.deletePushConfig(scope, request.taskId, request.id);
    return create(EmptySchema);
  }
}

/** `event`, marked with its id in the task's event log when it has one (see ./event-ids.ts). */
function withEventId<E extends object>(event: E, taskId: string, seq: number | undefined): E {
  if (seq === undefined) return event;
  const id = formatEventId(taskId, seq);
  if (id !== undefined) setEventId(event, id);
  return event;
}

/** How many of `tasks`, from the first, fit `maxBytes` together (at least one). */
function fittingCount(
  tasks: readonly TaskShape[],
  sizeOf: (task: TaskShape) => number,
  maxBytes: number,
): number {
  let bytes = 0;
  for (let i = 0; i < tasks.length; i++) {
    bytes += sizeOf(tasks[i] as TaskShape);
    if (i > 0 && bytes > maxBytes) return i;
  }
  return tasks.length;
}
