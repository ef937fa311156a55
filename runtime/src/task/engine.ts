// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The engine of the task runtime: starts turns (one `execute()` per incoming message),
 * stores and streams what their emitters accept, ends turns, cancels tasks and opens
 * subscriptions. Every read-modify-write of a task runs in that task's queue, so that
 * events are stored, streamed and notified in one order, and a subscription's first
 * snapshot is exactly the state before the first event it receives.
 */
import { clone, type JsonObject } from "@bufbuild/protobuf";
import { isCallAborted, watchCallAbort, type AbortWatch } from "../pipeline/call-abort.js";
import { isBindingCall } from "../pipeline/binding-call.js";
import { A2AError } from "../errors/a2a-error.js";
import type { TaskRuntimeErrors } from "./errors.js";
import { ExecutorMisuseError, TaskStoreFullError } from "./errors.js";
import type { Subscription } from "./event-hub.js";
import type { AgentExecutor, RequestContext, TaskCallContext } from "./executor.js";
import type { TaskFactory } from "./factory.js";
import { historyLengthProblem } from "./history.js";
import { LiveTasks, type FeedItem, type LiveTask } from "./live-tasks.js";
import type { ClientContextIdPolicy, TaskEventNotice } from "./options.js";
import type {
  ArtifactShape,
  MessageShape,
  PushConfigShape,
  SendMessageRequestShape,
  StreamResponseShape,
  TaskRuntimeSchemas,
  TaskShape,
} from "./shapes.js";
import type { TaskStates } from "./states.js";
import { appendHistory, applyArtifact, applyStatus } from "./updates.js";
import type { TaskScope, TaskStore } from "./store.js";
import { TurnEmitter, type TurnCommitter } from "./emitter.js";
import { FreshTurnEmitter } from "./fresh-emitter.js";
import { FreshTurn, type TurnFeed } from "./fresh-turn.js";
import { Turn } from "./turn.js";
import {
  clusterOf,
  TaskConflictError,
  type TaskCluster,
  type TaskEventRecord,
  type TurnTicket,
} from "./cluster.js";
import {
  DEFAULT_MAX_ACTIVE_TASKS_PER_OWNER,
  DEFAULT_MAX_ARTIFACTS_PER_TASK,
  DEFAULT_MAX_PARTS_PER_ARTIFACT,
  DEFAULT_MAX_QUEUED_BYTES,
  DEFAULT_MAX_SUBSCRIBERS_PER_TASK,
  DEFAULT_MAX_TASK_BYTES,
} from "./options.js";
import { eventBytes, nonFinitePath, taskBytes, valueBytes } from "./size.js";

/**
 * What a new task weighs besides its first message (ids, status with its timestamp, the JSON of the
 * fields): the message alone may take at most `maxTaskBytes` minus this.
 */
const NEW_TASK_OVERHEAD_BYTES = 512;

/** The limits of {@link EngineSettings} that {@link checkLimit} checks, with their defaults. */
const LIMIT_DEFAULTS = {
  maxSubscribersPerTask: DEFAULT_MAX_SUBSCRIBERS_PER_TASK,
  maxActiveTasksPerOwner: DEFAULT_MAX_ACTIVE_TASKS_PER_OWNER,
  maxArtifactsPerTask: DEFAULT_MAX_ARTIFACTS_PER_TASK,
  maxPartsPerArtifact: DEFAULT_MAX_PARTS_PER_ARTIFACT,
  maxTaskBytes: DEFAULT_MAX_TASK_BYTES,
} as const;

/** The settings {@link checkLimit} reads. */
type LimitSettings = { readonly [K in keyof typeof LIMIT_DEFAULTS]?: number | undefined };

/** The limit `name` of the settings (its default when unset), checked: an integer >= 1 or Infinity. */
function checkLimit(settings: LimitSettings, name: keyof LimitSettings): number {
  const value = settings[name] ?? LIMIT_DEFAULTS[name];
  if (value === Number.POSITIVE_INFINITY || (Number.isSafeInteger(value) && value >= 1))
    return value;
  throw new RangeError(`${name} must be an integer >= 1 or Infinity, got ${value}`);
}

/** What a RequestContext's `signal` reads: its turn (fresh or real), whose signal is made on first read. */
interface SignalSource {
  readonly signal: AbortSignal;
}

/** Where a RequestContext keeps its {@link SignalSource}, for {@link TURN_SIGNAL}. */
const SIGNAL_SOURCE: unique symbol = Symbol("protoc-gen-a2a.turnSignalSource");

/**
 * The `signal` of a RequestContext: an own, enumerable getter (a spread of the context reads it) shared by
 * every context, defined on a plain literal; a `get signal()` in the literal, with its closure over the turn,
 * made a function and an accessor pair per turn (~0.6 µs).
 */
const TURN_SIGNAL: PropertyDescriptor = {
  get(this: { readonly [SIGNAL_SOURCE]: SignalSource }): AbortSignal {
    return this[SIGNAL_SOURCE].signal;
  },
  enumerable: true,
  configurable: true,
};

/** Where a TaskEventNotice keeps the published event, the factory that copies it and the copy once made. */
const NOTICE_EVENT: unique symbol = Symbol("protoc-gen-a2a.noticeEvent");
const NOTICE_FACTORY: unique symbol = Symbol("protoc-gen-a2a.noticeFactory");
const NOTICE_COPY: unique symbol = Symbol("protoc-gen-a2a.noticeCopy");

/** The fields behind a TaskEventNotice's `event` getter. */
interface NoticeSource {
  readonly [NOTICE_EVENT]: StreamResponseShape;
  readonly [NOTICE_FACTORY]: TaskFactory;
  /** In a holder of its own: a hook may freeze the notice, and the getter still caches its copy. */
  readonly [NOTICE_COPY]: { copy: StreamResponseShape | undefined };
}

/**
 * The `event` of a TaskEventNotice: the hook's own copy, made when it first reads it (a push sender of a
 * task without push configs never does; published events are never changed, so a later copy is the same).
 * One shared own, enumerable getter, as TURN_SIGNAL: not a getter and closure per event.
 */
const NOTICE_EVENT_COPY: PropertyDescriptor = {
  get(this: NoticeSource): StreamResponseShape {
    const holder = this[NOTICE_COPY];
    holder.copy ??= this[NOTICE_FACTORY].cloneEvent(this[NOTICE_EVENT]);
    return holder.copy;
  },
  enumerable: true,
  configurable: true,
};

/** `message` with the turn's ids (a message the caller owns). */
function withIds(message: MessageShape, taskId: string, contextId: string): MessageShape {
  message.taskId = taskId;
  message.contextId = contextId;
  return message;
}

/** Everything the engine runs with (options resolved, executor typed against the shapes). */
export interface EngineSettings<Principal> {
  /** Builds and copies messages. */
  readonly factory: TaskFactory;
  /** Where tasks and push configs live. */
  readonly store: TaskStore;
  /** The generated A2A errors. */
  readonly errors: TaskRuntimeErrors;
  /** The agent logic. */
  readonly executor: AgentExecutor<Principal, TaskRuntimeSchemas>;
  /** The owner key of a call. */
  readonly ownerOf: (principal: Principal | undefined, call: TaskCallContext<Principal>) => string;
  /** Which client-provided contextIds a new task accepts. */
  readonly clientContextIds: ClientContextIdPolicy;
  /** Whether push configs may come with SendMessage. */
  readonly pushNotifications: boolean;
  /** Refuses a push URL by throwing (InvalidParams follows). */
  readonly checkPushUrl: ((url: string) => unknown) | undefined;
  /** The hook of stored events. */
  readonly onTaskEvent:
    | ((notice: TaskEventNotice<TaskRuntimeSchemas>) => void | Promise<void>)
    | undefined;
  /** Where unreported problems go. */
  readonly onError: (error: unknown, context: string) => void;
  /** Most events one stream may have queued and unread before it is ended (positive integer or Infinity). */
  readonly maxQueuedEvents: number;
  /** Most bytes of events one stream may have queued and unread before it is ended. Default {@link DEFAULT_MAX_QUEUED_BYTES}. */
  readonly maxQueuedBytes?: number | undefined;
  /** Most open subscriptions of one task's feed (streams and waiting SendMessage calls). Default {@link DEFAULT_MAX_SUBSCRIBERS_PER_TASK}. */
  readonly maxSubscribersPerTask?: number | undefined;
  /** Most unfinished tasks one owner may have created through this handler. Default {@link DEFAULT_MAX_ACTIVE_TASKS_PER_OWNER}. */
  readonly maxActiveTasksPerOwner?: number | undefined;
  /** Most artifacts one task may have (the executor's own output). Default {@link DEFAULT_MAX_ARTIFACTS_PER_TASK}. */
  readonly maxArtifactsPerTask?: number | undefined;
  /** Most parts one artifact may have, appended chunks included. Default {@link DEFAULT_MAX_PARTS_PER_ARTIFACT}. */
  readonly maxPartsPerArtifact?: number | undefined;
  /** Most bytes one task may weigh (`taskBytes`). Default {@link DEFAULT_MAX_TASK_BYTES}. */
  readonly maxTaskBytes?: number | undefined;
}

/** A started turn, as its caller (SendMessage or SendStreamingMessage) sees it. */
export interface TurnStart {
  /** The turn number: the feed's `end` item with this number closes the turn. */
  readonly turn: number;
  /**
   * The turn's feed, subscribed before the turn started (close it when done). For a new task, the
   * turn's own outcome until its first task event (a stateless reply needs no subscription), then
   * the task's feed.
   */
  readonly feed: TurnFeed;
  /** For a turn that continues a task: the task with the new message in its history. */
  readonly task: TaskShape | undefined;
  /** The caller's scope. */
  readonly scope: TaskScope;
  /** The task id (fresh for a new task). */
  readonly taskId: string;
}

/** Starts, runs and ends turns; cancels; subscribes. */
export class TaskEngine<Principal> implements TurnCommitter {
  readonly #s: EngineSettings<Principal>;
  readonly #states: TaskStates;
  /** Live per-task state (exposed for tests: it must empty once nothing runs). */
  readonly live: LiveTasks;
  #turns = 0;
  readonly #maxSubscribers: number;
  readonly #maxActiveTasks: number;
  readonly #maxArtifacts: number;
  readonly #maxArtifactParts: number;
  readonly #maxTaskBytes: number;
  /**
   * The unfinished tasks of each owner (tenant and owner key) this engine started: reserved when a
   * new turn begins, kept while the task is not terminal, released when it ends terminal or the turn
   * created no task. Tasks created before this process started (a persistent store) are not counted.
   */
  readonly #activeTasks = new Map<string, Map<string, Set<string>>>(); // tenant → owner → task ids (no key string per call)
  /**
   * The last owner's set emptied by #releaseTask, reused by the next #reserveTask: a caller with no
   * other unfinished task (every stateless reply) would otherwise make and drop a Set per request.
   */
  #spareTaskSet: Set<string> | undefined;
  /** The cross-instance side of a store several instances share (undefined: this process is alone). */
  readonly #cluster: TaskCluster | undefined;

  /** An engine with these settings. */
  constructor(settings: EngineSettings<Principal>) {
    this.#s = settings;
    this.#states = settings.factory.states;
    this.#maxSubscribers = checkLimit(settings, "maxSubscribersPerTask");
    this.#maxActiveTasks = checkLimit(settings, "maxActiveTasksPerOwner");
    this.#maxArtifacts = checkLimit(settings, "maxArtifactsPerTask");
    this.#maxArtifactParts = checkLimit(settings, "maxPartsPerArtifact");
    this.#maxTaskBytes = checkLimit(settings, "maxTaskBytes");
    if (this.#maxTaskBytes <= NEW_TASK_OVERHEAD_BYTES)
      throw new RangeError(
        `maxTaskBytes must be more than ${NEW_TASK_OVERHEAD_BYTES}, got ${this.#maxTaskBytes}`,
      );
    const { errors } = settings;
    const cluster = clusterOf(settings.store);
    this.#cluster = cluster;
    const watch =
      cluster === undefined
        ? undefined
        : (slot: LiveTask) =>
            cluster.watch(slot.scope, slot.taskId, (seq) => {
              // Its own events (and those already read) need no read of the log.
              if (slot.lastSeq === undefined || (seq !== undefined && seq <= slot.lastSeq)) return;
              slot.queue
                .run(() => {
                  // A wake-up of this instance's own commit may come before the commit's answer: read nothing then.
                  if (seq !== undefined && slot.lastSeq !== undefined && seq <= slot.lastSeq)
                    return;
                  return this.#catchUp(slot, seq ?? Number.POSITIVE_INFINITY);
                })
                .catch((e: unknown) => this.#s.onError(e, `reading events of task ${slot.taskId}`));
            });
    this.live = new LiveTasks(
      {
        maxQueuedEvents: settings.maxQueuedEvents,
        // Not InternalError: nothing failed on the server and the client can act on it. The A2A
        // error catalog (§5.4) has no RESOURCE_EXHAUSTED error; UnsupportedOperation (an aspect the
        // server does not support: unbounded buffering for a stream that is not read) keeps the cause
        // visible, and ErrorInfo.metadata.maxQueuedEvents marks this case for clients.
        maxQueuedBytes: settings.maxQueuedBytes ?? DEFAULT_MAX_QUEUED_BYTES,
        overflowError: (taskId) =>
          errors.UnsupportedOperation(
            `Stream ended: the client fell behind, with more than ${settings.maxQueuedEvents} events or ${settings.maxQueuedBytes ?? DEFAULT_MAX_QUEUED_BYTES} bytes of task ${taskId} queued unread on the server. ` +
              "The task and other streams go on; call SubscribeToTask to resubscribe (it starts with the task's current state), or GetTask once the task has ended.",
            {
              metadata: {
                taskId,
                maxQueuedEvents: String(settings.maxQueuedEvents),
                maxQueuedBytes: String(settings.maxQueuedBytes ?? DEFAULT_MAX_QUEUED_BYTES),
              },
            },
          ),
      },
      watch,
    );
  }

  /** The cross-instance side of the store, when several instances share it. */
  get cluster(): TaskCluster | undefined {
    return this.#cluster;
  }

  /**
   * With a shared store, in the slot's queue: publishes the events of the log after `slot.lastSeq`
   * (up to `upTo`) that this instance has not published (another instance stored them). A terminal
   * event ends this instance's running turn of the task (it was canceled or failed elsewhere).
   */
  async #catchUp(slot: LiveTask, upTo: number): Promise<void> {
    const cluster = this.#cluster;
    if (cluster === undefined || slot.lastSeq === undefined) return;
    while (slot.lastSeq < upTo) {
      const records = await cluster.readEvents(
        slot.scope,
        slot.taskId,
        slot.lastSeq,
        Math.min(100, upTo - slot.lastSeq),
      );
      if (records.length === 0) return;
      for (const record of records) {
        if (record.seq <= slot.lastSeq) continue;
        slot.lastSeq = record.seq;
        // The cached task is older than this event: the next change reads the store.
        slot.stored = undefined;
        const { event, state } = record;
        slot.publish({
          kind: "event",
          event,
          state,
          fanOut: slot.subscribers > 1,
          bytes: eventBytes(event),
          seq: record.seq,
        });
        if (this.#states.isTerminal(state)) {
          const turn = slot.turn;
          if (turn?.markCanceled() === true) turn.releaseLock();
          this.#releaseTask(slot.scope, slot.taskId);
        }
      }
    }
  }

  /**
   * With a shared store, in the slot's queue: the task as stored now, with every event before it
   * published to the slot's feed (so that a snapshot taken now and the feed join without gap or
   * duplicate). Without one: the task as this process knows it.
   */
  async #readLive(slot: LiveTask): Promise<TaskShape | undefined> {
    const cluster = this.#cluster;
    if (cluster === undefined)
      return slot.stored ?? (await this.#s.store.getTask(slot.scope, slot.taskId));
    for (;;) {
      const task = await cluster.readTask(slot.scope, slot.taskId);
      if (task === undefined) return undefined;
      const seq = cluster.seqOf(task) ?? 0;
      if (slot.lastSeq === undefined || slot.lastSeq < 0) slot.lastSeq = seq;
      else if (slot.lastSeq < seq) await this.#catchUp(slot, seq);
      // Events the log has that this read does not: read again.
      if (slot.lastSeq <= seq) {
        slot.stored = task;
        return task;
      }
    }
  }

  /** The scope of a call: its tenant and its principal's owner key. */
  scopeOf(call: TaskCallContext<Principal>): TaskScope {
    return { tenant: call.tenant, owner: this.#s.ownerOf(call.principal, call) };
  }

  /** The task, or TaskNotFoundError. */
  async requireTask(scope: TaskScope, taskId: string): Promise<TaskShape> {
    // With a shared store, another instance may have changed the task since this one cached it.
    const cached = this.#cluster === undefined ? this.live.stored(scope, taskId) : undefined;
    const task =
      taskId === "" ? undefined : (cached ?? (await this.#s.store.getTask(scope, taskId)));
    if (task === undefined) throw this.#notFound(taskId);
    return task;
  }

  #notFound(taskId: string): Error {
    return this.#s.errors.TaskNotFound(`Task ${taskId} not found`, { metadata: { taskId } });
  }

  /**
   * Validates a SendMessage request and starts its turn: a new task (fresh ids) or the
   * continuation of the task named by `message.taskId` (which must exist in the caller's
   * scope, match `message.contextId` when given, and not be terminal). Turns of one task
   * run one at a time, in arrival order.
   */
  async beginTurn(
    request: SendMessageRequestShape,
    call: TaskCallContext<Principal>,
  ): Promise<TurnStart> {
    const { errors } = this.#s;
    const message = request.message;
    if (message === undefined)
      throw errors.InvalidParams("message is required", {
        fieldViolations: [{ field: "message", description: "A message is required" }],
      });
    if (message.parts.length === 0)
      throw errors.InvalidParams("message.parts must not be empty", {
        fieldViolations: [{ field: "message.parts", description: "At least one part is required" }],
      });
    this.#checkMessageWeight(message);
    const historyProblem = historyLengthProblem(request.configuration?.historyLength);
    if (historyProblem !== undefined)
      throw errors.InvalidParams(historyProblem, {
        fieldViolations: [{ field: "configuration.historyLength", description: historyProblem }],
      });
    const pushConfig = request.configuration?.taskPushNotificationConfig;
    if (pushConfig !== undefined && !this.#s.pushNotifications)
      throw errors.PushNotificationNotSupported("This agent does not support push notifications");
    if (pushConfig !== undefined)
      await this.checkPushUrl(pushConfig.url, "configuration.taskPushNotificationConfig.url");
    const scope = this.scopeOf(call);
    if (message.taskId === "" && message.contextId !== "")
      await this.#checkClientContextId(scope, message.contextId);
    const referenceTasks =
      message.referenceTaskIds.length === 0
        ? []
        : await this.#references(scope, message.referenceTaskIds);
    return message.taskId === ""
      ? this.#beginNew(request, message, call, scope, referenceTasks, pushConfig)
      : this.#beginContinued(request, message, call, scope, referenceTasks, pushConfig);
  }

  /**
   * Refuses a message that no task could hold: one with a number JSON cannot express (the bindings
   * refuse those when decoding; an in-process caller may not have) or heavier than `maxTaskBytes`
   * (less what a new task adds). InvalidParams naming the field.
   */
  #checkMessageWeight(message: MessageShape): void {
    // Not cached on the request's message: the task stores a copy of it (weighed when the task is).
    const bytes = valueBytes(message);
    const { errors } = this.#s;
    if (Number.isNaN(bytes)) {
      const field = `message.${nonFinitePath(message) ?? ""}`;
      const description = `${field} holds a number that is not finite (NaN or ±Infinity has no JSON form)`;
      throw errors.InvalidParams(description, { fieldViolations: [{ field, description }] });
    }
    const max = this.#maxTaskBytes - NEW_TASK_OVERHEAD_BYTES;
    if (bytes > max) {
      const description = `message is ${bytes} bytes (as JSON); this agent keeps at most ${this.#maxTaskBytes} bytes per task (maxTaskBytes), so a message may take at most ${max}`;
      throw errors.InvalidParams(description, {
        metadata: { limit: "maxTaskBytes", maximum: String(this.#maxTaskBytes) },
        fieldViolations: [{ field: "message", description }],
      });
    }
  }

  /** The client's answer to a save its store refused for lack of room (TaskStoreFullError); other errors as they are. */
  #roomError(e: unknown, what: string): unknown {
    if (!(e instanceof TaskStoreFullError)) return e;
    const { errors } = this.#s;
    if (e.limit === "maxBytesPerOwner") {
      // As maxActiveTasksPerOwner: the caller can act on it (finish or cancel tasks, wait for old ones to go).
      return errors.UnsupportedOperation(
        `This agent holds as much of this caller's tasks as it keeps (${e.maximum} bytes, maxBytesPerOwner): ${what} would pass it; complete or cancel unfinished tasks first`,
        {
          metadata: { maxBytesPerOwner: String(e.maximum) },
        },
      );
    }
    // The agent's own capacity, not the caller's doing: the operator hears of it too.
    const full = errors.Internal(
      `This agent cannot take ${what} now: its task store is full of unfinished tasks; try again later`,
    );
    this.#s.onError(full, `task store full (${e.limit} ${e.maximum})`);
    return full;
  }

  /**
   * §3.4.1: a contextId the agent cannot accept is rejected (never replaced by a new one).
   * With the "known" policy, only contexts that already have a task in the caller's scope pass.
   */
  async #checkClientContextId(scope: TaskScope, contextId: string): Promise<void> {
    if (this.#s.clientContextIds !== "known") return;
    const page = await this.#s.store.listTasks(scope, {
      contextId,
      state: undefined,
      statusTimestampAfter: undefined,
      pageSize: 1,
      pageToken: "",
    });
    if (page.tasks.length > 0) return;
    throw this.#s.errors.InvalidParams(
      `message.contextId "${contextId}" is not a context of this agent; omit it to start a new conversation`,
      {
        fieldViolations: [
          {
            field: "message.contextId",
            description:
              "Must be the contextId of an existing task (this agent does not accept client-chosen contextIds)",
          },
        ],
      },
    );
  }

  /** Runs the `checkPushUrl` option; a refusal is InvalidParams naming the field. */
  async checkPushUrl(url: string, field: string): Promise<void> {
    const check = this.#s.checkPushUrl;
    if (check === undefined) return;
    try {
      await check(url);
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      throw this.#s.errors.InvalidParams(`${field} is not allowed: ${why}`, {
        fieldViolations: [{ field, description: why }],
      });
    }
  }

  async #references(scope: TaskScope, ids: readonly string[]): Promise<TaskShape[]> {
    const found: TaskShape[] = [];
    if (ids.length === 0) return found;
    for (const id of new Set(ids)) {
      const task = id === "" ? undefined : await this.#s.store.getTask(scope, id);
      if (task !== undefined) found.push(this.#s.factory.cloneTask(task));
    }
    return found;
  }

  #userMessage(message: MessageShape, taskId: string, contextId: string): MessageShape {
    const copy = this.#s.factory.cloneMessage(message);
    copy.taskId = taskId;
    copy.contextId = contextId;
    return copy;
  }

  async #beginNew(
    request: SendMessageRequestShape,
    message: MessageShape,
    call: TaskCallContext<Principal>,
    scope: TaskScope,
    referenceTasks: TaskShape[],
    pushConfig: PushConfigShape | undefined,
  ): Promise<TurnStart> {
    const { factory } = this.#s;
    const taskId = factory.newId();
    this.#reserveTask(scope, taskId);
    const contextId = message.contextId !== "" ? message.contextId : factory.newId();
    const userMessage = this.#userMessage(message, taskId, contextId);
    // No turn machinery yet: a stateless reply never needs it; the first task event builds it (#promote).
    const fresh = new FreshTurn<Principal>({
      id: ++this.#turns,
      scope,
      taskId,
      contextId,
      userMessage,
      pushConfig,
      call,
    });
    const emitter = new FreshTurnEmitter(fresh as FreshTurn<unknown>, factory, () =>
      this.#promote(fresh),
    );
    const context = this.#requestContext(
      request,
      call,
      taskId,
      contextId,
      userMessage,
      undefined,
      true,
      referenceTasks,
      fresh,
    );
    void this.#execute(emitter, context, (failed, error) => this.#endFresh(fresh, failed, error));
    return { turn: fresh.id, feed: fresh, task: undefined, scope, taskId };
  }

  /**
   * Builds the real turn of a fresh one, at its executor's first task event (before that event is
   * committed): a slot kept out of the registry until the task exists, its lock (free: nobody else
   * knows the task id), the caller's feed subscription; returns the turn's emitter.
   */
  #promote(fresh: FreshTurn<Principal>): TurnEmitter {
    const { taskId, contextId, userMessage, pushConfig } = fresh;
    const slot = this.live.fresh(fresh.scope, taskId);
    const release = slot.lock.tryAcquire();
    if (release === undefined) throw new Error(`task ${taskId}: the lock of a fresh task is held`);
    const turn = new Turn({
      id: fresh.id,
      slot,
      taskId,
      contextId,
      userMessage,
      existing: undefined,
      pushConfig,
      abort: fresh.abortController,
    });
    fresh.promote(turn, () => slot.subscribe(watchCallAbort(fresh.call)));
    this.#start(turn, release);
    return new TurnEmitter(turn, this.#s.factory, this);
  }

  /**
   * Ends a fresh turn whose `execute()` settled: as a real turn once promoted (#finish), else here
   * (the reply or the failure its caller gets); never rejects.
   */
  #endFresh(fresh: FreshTurn<Principal>, failed: boolean, error: unknown): Promise<void> | void {
    const { onError } = this.#s;
    fresh.ended = true;
    const turn = fresh.promoted;
    if (turn !== undefined) return this.#finish(turn, failed, error);
    let failure: { error: unknown } | undefined;
    try {
      if (!fresh.replied) {
        failure = this.#noResponse(failed, error, fresh.taskId);
      } else if (failed) onError(error, `task ${fresh.taskId} (after its reply)`);
    } catch (e) {
      onError(e, `ending turn of task ${fresh.taskId}`);
    } finally {
      // Before the caller hears of the end: a turn that created no task frees its reservation.
      this.#releaseTask(fresh.scope, fresh.taskId);
      fresh.deliverEnd(failure);
    }
  }

  async #beginContinued(
    request: SendMessageRequestShape,
    message: MessageShape,
    call: TaskCallContext<Principal>,
    scope: TaskScope,
    referenceTasks: TaskShape[],
    pushConfig: PushConfigShape | undefined,
  ): Promise<TurnStart> {
    const { errors, store, factory } = this.#s;
    const taskId = message.taskId;
    const slot = this.live.acquire(scope, taskId);
    let release: (() => void) | undefined;
    try {
      const local = await slot.lock.acquire();
      release = local;
      const cluster = this.#cluster;
      if (cluster !== undefined) {
        // Behind the turns of the task on every instance, in arrival order.
        const ticket: TurnTicket = await cluster.acquireTurn(scope, taskId, call.signal);
        release = () => {
          ticket.release();
          local();
        };
      }
      // A caller that went away while queued behind the task's running turn got no answer and will not
      // read one: its message is not processed (nothing was acknowledged; a client retries).
      if (isCallAborted(call)) throw call.signal.reason ?? new Error("the caller went away");
      const started = await slot.queue.run(async () => {
        const stored = await this.#readLive(slot);
        if (stored === undefined) throw this.#notFound(taskId);
        if (message.contextId !== "" && message.contextId !== stored.contextId) {
          // §3.4.3: "Agents MUST reject messages containing mismatching contextId and taskId"; a validation error (§3.3.2).
          throw errors.InvalidParams(
            `message.contextId "${message.contextId}" does not match the context of task ${taskId}`,
            {
              metadata: { taskId },
              fieldViolations: [
                {
                  field: "message.contextId",
                  description: "Must be the contextId of the task named by message.taskId",
                },
              ],
            },
          );
        }
        const state = stored.status?.state;
        if (this.#states.isTerminal(state)) {
          // §3.1.1: terminal tasks cannot accept further messages.
          throw errors.UnsupportedOperation(
            `Task ${taskId} is in a terminal state and accepts no more messages`,
            { metadata: { taskId } },
          );
        }
        // Before anything is stored: a refused message leaves no trace.
        this.#checkSubscribers(slot, taskId);
        const userMessage = this.#userMessage(message, taskId, stored.contextId);
        const next = factory.copyTask(stored);
        appendHistory(next, userMessage);
        const bytes = taskBytes(next);
        if (bytes > this.#maxTaskBytes) {
          throw errors.UnsupportedOperation(
            `Task ${taskId} would weigh ${bytes} bytes with this message, more than this agent keeps per task (${this.#maxTaskBytes}, maxTaskBytes); start a new task (message.referenceTaskIds can name this one)`,
            { metadata: { taskId, maxTaskBytes: String(this.#maxTaskBytes) } },
          );
        }
        try {
          if (this.#cluster !== undefined)
            await this.#cluster.commit(scope, stored, next, undefined);
          else await store.saveTask(scope, next);
        } catch (e) {
          // Canceled or failed on another instance since it was read: as for a terminal task.
          if (e instanceof TaskConflictError)
            throw errors.UnsupportedOperation(
              `Task ${taskId} changed while this message was being added; send it again`,
              { metadata: { taskId } },
            );
          throw this.#roomError(e, "this message");
        }
        slot.stored = next;
        if (pushConfig !== undefined) await this.#savePushConfig(scope, taskId, pushConfig);
        const feed = slot.subscribe(watchCallAbort(call));
        return { task: next, feed, userMessage, state };
      });
      const turn = new Turn({
        id: ++this.#turns,
        slot,
        taskId,
        contextId: started.task.contextId,
        userMessage: started.userMessage,
        existing: {
          state: started.state,
          artifactIds: started.task.artifacts.map((a) => a.artifactId),
        },
        pushConfig: undefined,
      });
      this.#run(turn, request, call, started.task, referenceTasks, release);
      return { turn: turn.id, feed: started.feed, task: started.task, scope, taskId };
    } catch (e) {
      release?.();
      slot.release();
      throw e;
    }
  }

  /** Runs `execute()` in the background; the turn holds the slot and its lock until it has ended. */
  #run(
    turn: Turn,
    request: SendMessageRequestShape,
    call: TaskCallContext<Principal>,
    task: TaskShape | undefined,
    referenceTasks: TaskShape[],
    release: () => void,
  ): void {
    this.#start(turn, release);
    const context = this.#requestContext(
      request,
      call,
      turn.taskId,
      turn.contextId,
      turn.userMessage,
      task,
      turn.isNew,
      referenceTasks,
      turn,
    );
    const emitter = new TurnEmitter(turn, this.#s.factory, this);
    void this.#execute(emitter, context, (failed, error) => this.#finish(turn, failed, error));
  }

  /** Makes `turn` the slot's running turn, holding the task's lock (`release`) until it ends. */
  #start(turn: Turn, release: () => void): void {
    turn.slot.turn = turn;
    turn.releaseLock = () => {
      release();
      turn.ticket?.release();
    };
  }

  /** What `execute()` knows about a turn; `signal` is read through a getter (an AbortSignal is only made for executors that look at it). */
  #requestContext(
    request: SendMessageRequestShape,
    call: TaskCallContext<Principal>,
    taskId: string,
    contextId: string,
    userMessage: MessageShape,
    task: TaskShape | undefined,
    isNewTask: boolean,
    referenceTasks: TaskShape[],
    signalSource: SignalSource,
  ): RequestContext<Principal, TaskRuntimeSchemas> {
    const { factory } = this.#s;
    const context = {
      request,
      // A binding's call owns its decoded request: the executor may have that message itself (with the ids set).
      message:
        isBindingCall(call) && request.message !== undefined
          ? withIds(request.message, taskId, contextId)
          : factory.cloneMessage(userMessage),
      task: task === undefined ? undefined : factory.cloneTask(task),
      taskId,
      contextId,
      isNewTask,
      referenceTasks,
      call,
      [SIGNAL_SOURCE]: signalSource,
    };
    return Object.defineProperty(context, "signal", TURN_SIGNAL) as unknown as RequestContext<
      Principal,
      TaskRuntimeSchemas
    >;
  }

  /**
   * Runs `execute()` (after the caller got its TurnStart), then hands whether it failed, and with
   * what, to `settled`, which ends the turn (#finish, #endFresh); never rejects.
   */
  async #execute(
    emitter: TurnEmitter | FreshTurnEmitter,
    context: RequestContext<Principal, TaskRuntimeSchemas>,
    settled: (failed: boolean, error: unknown) => Promise<void> | void,
  ): Promise<void> {
    const { executor } = this.#s;
    let failed = false;
    let error: unknown;
    try {
      await undefined; // execute() starts once beginTurn has returned, as before any await of its own
      await executor.execute(context, emitter);
    } catch (e) {
      failed = true;
      error = e;
    }
    return settled(failed, error);
  }

  /** Ends a turn whose `execute()` settled, and lets go of the slot; never rejects. */
  async #finish(turn: Turn, failed: boolean, error: unknown): Promise<void> {
    const { onError } = this.#s;
    const slot = turn.slot;
    try {
      turn.closed ??= "ended";
      await this.#end(turn, slot, failed, error);
    } catch (e) {
      onError(e, `ending turn of task ${turn.taskId}`);
    } finally {
      if (slot.turn === turn) slot.turn = undefined;
      // A new turn that created no task (a stateless reply, a failure) frees its reservation (if #end could not).
      if (turn.isNew && !turn.created) this.#releaseTask(slot.scope, turn.taskId);
      turn.releaseLock();
      slot.release();
    }
  }

  /**
   * Counts a new task against its owner's `maxActiveTasksPerOwner`, or refuses it: UnsupportedOperation
   * (the A2A catalog has no quota error; as for maxQueuedEvents, ErrorInfo metadata names the limit).
   */
  #reserveTask(scope: TaskScope, taskId: string): void {
    let owners = this.#activeTasks.get(scope.tenant);
    if (owners === undefined) this.#activeTasks.set(scope.tenant, (owners = new Map()));
    let tasks = owners.get(scope.owner);
    if (tasks === undefined) {
      tasks = this.#spareTaskSet ?? new Set();
      this.#spareTaskSet = undefined;
      owners.set(scope.owner, tasks);
    }
    if (tasks.size >= this.#maxActiveTasks) {
      throw this.#s.errors.UnsupportedOperation(
        `This agent already holds ${this.#maxActiveTasks} unfinished tasks of this caller; complete or cancel some (or continue one with message.taskId) before starting another`,
        { metadata: { maxActiveTasksPerOwner: String(this.#maxActiveTasks) } },
      );
    }
    tasks.add(taskId);
  }

  /** Stops counting a task (terminal, or never created). */
  #releaseTask(scope: TaskScope, taskId: string): void {
    const owners = this.#activeTasks.get(scope.tenant);
    const tasks = owners?.get(scope.owner);
    if (owners === undefined || tasks === undefined || !tasks.delete(taskId)) return;
    if (tasks.size === 0) {
      owners.delete(scope.owner);
      if (owners.size === 0) this.#activeTasks.delete(scope.tenant);
      this.#spareTaskSet = tasks;
    }
  }

  /** Unfinished tasks counted for `scope` (for tests and metrics). */
  activeTasksOf(scope: TaskScope): number {
    return this.#activeTasks.get(scope.tenant)?.get(scope.owner)?.size ?? 0;
  }

  /** Refuses (to the executor, before anything is stored) an artifact beyond `maxArtifactsPerTask` or `maxPartsPerArtifact`. */
  #checkArtifact(task: TaskShape, artifact: ArtifactShape, append: boolean): void {
    const stored = task.artifacts.find((a) => a.artifactId === artifact.artifactId);
    if (stored === undefined && !append && task.artifacts.length >= this.#maxArtifacts) {
      throw new ExecutorMisuseError(
        "invalid-event",
        `task ${task.id} already has ${this.#maxArtifacts} artifacts (maxArtifactsPerTask)`,
      );
    }
    const parts =
      artifact.parts.length + (append && stored !== undefined ? stored.parts.length : 0);
    if (parts > this.#maxArtifactParts) {
      throw new ExecutorMisuseError(
        "invalid-event",
        `artifact "${artifact.artifactId}" of task ${task.id} would have ${parts} parts, more than ${this.#maxArtifactParts} (maxPartsPerArtifact)`,
      );
    }
  }

  /** Refuses one more subscription of a task that has `maxSubscribersPerTask` (UnsupportedOperation, ErrorInfo metadata naming the limit). */
  #checkSubscribers(slot: LiveTask, taskId: string): void {
    if (slot.subscribers < this.#maxSubscribers) return;
    throw this.#s.errors.UnsupportedOperation(
      `Task ${taskId} already has ${this.#maxSubscribers} open streams on this agent; close one, or poll with GetTask`,
      {
        metadata: { taskId, maxSubscribersPerTask: String(this.#maxSubscribers) },
      },
    );
  }

  /**
   * Ends a turn, after everything its emitter queued: a task left SUBMITTED or WORKING
   * (or any non-terminal task whose executor threw) is failed; a new turn that produced
   * nothing hands its caller an error; then the feed gets the turn's `end` item.
   */
  #end(turn: Turn, slot: LiveTask, failed: boolean, error: unknown): Promise<void> {
    const { onError, factory } = this.#s;
    return slot.queue.run(async () => {
      let failure: { error: unknown } | undefined;
      try {
        if (turn.closed === "canceled") {
          // CancelTask decided the outcome; whatever execute() did afterwards does not matter.
        } else if (!turn.created && !turn.replied) {
          failure = this.#noResponse(failed, error, turn.taskId);
        } else if (turn.created) {
          // The task as this turn stored it (a change that conflicts with another instance's re-reads it).
          const task = slot.stored ?? (await this.#readLive(slot));
          const state = task?.status?.state;
          if (
            task !== undefined &&
            !this.#states.isTerminal(state) &&
            (failed || !this.#states.isInterrupted(state))
          ) {
            const reason = failed
              ? "The agent failed while processing the task."
              : "The agent stopped before finishing the task.";
            onError(
              failed
                ? error
                : new ExecutorMisuseError(
                    "invalid-event",
                    "execute() resolved while the task was still SUBMITTED or WORKING; the task was failed",
                  ),
              `task ${turn.taskId}`,
            );
            const FAILED = this.#states.numbers.FAILED;
            // The message is made per attempt, as the change is.
            await this.#changeTask(turn.slot, task, (next) =>
              statusChange(
                factory,
                FAILED,
                factory.text(reason, turn.taskId, turn.contextId),
                undefined,
              )(next),
            );
          } else if (failed) onError(error, `task ${turn.taskId}`);
        } else if (failed) onError(error, `task ${turn.taskId} (after its reply)`);
      } catch (e) {
        // The store failed while ending the turn: report it; a caller still waiting for a first result gets it.
        // (A task ended meanwhile by another instance is not a failure.)
        if (!(e instanceof ExecutorMisuseError))
          onError(e, `ending the turn of task ${turn.taskId}`);
        if (!turn.created && !turn.replied) failure ??= { error: e };
      } finally {
        // Before the caller hears of the end: a new turn that created no task frees its reservation.
        if (turn.isNew && !turn.created) this.#releaseTask(slot.scope, turn.taskId);
        slot.publish({ kind: "end", turn: turn.id, failure });
      }
    });
  }

  /**
   * Stores a change of `task` (a stored instance, copied on write here), streams the event and
   * notifies the hook. An executor's change (`weighed`) that would take the task past
   * `maxTaskBytes` is refused with ExecutorMisuseError, nothing stored; the runtime's own FAILED and
   * CANCELED are not weighed (they must land).
   */
  async #changeTask(
    slot: LiveTask,
    task: TaskShape,
    change: (next: TaskShape) => StreamResponseShape,
    weighed = false,
  ): Promise<TaskShape> {
    let base = task;
    for (let attempt = 1; ; attempt++) {
      const next = this.#s.factory.copyTask(base);
      const event = change(next);
      if (weighed) {
        const bytes = taskBytes(next);
        if (bytes > this.#maxTaskBytes) {
          throw new ExecutorMisuseError(
            "invalid-event",
            `task ${task.id} would weigh ${bytes} bytes with this event, more than maxTaskBytes (${this.#maxTaskBytes})`,
          );
        }
      }
      let seq: number | undefined;
      const cluster = this.#cluster;
      if (cluster === undefined) await this.#s.store.saveTask(slot.scope, next);
      else {
        try {
          seq = await cluster.commit(slot.scope, base, next, event);
        } catch (e) {
          if (!(e instanceof TaskConflictError) || attempt >= 10) throw e;
          // Another instance changed the task (CancelTask, or its runner was declared dead): apply the change to what is stored now.
          const fresh = await this.#readLive(slot);
          if (fresh === undefined) throw new Error(`task ${task.id} is missing from the store`);
          if (this.#states.isTerminal(fresh.status?.state)) {
            const canceled = fresh.status?.state === this.#states.numbers.CANCELED;
            throw new ExecutorMisuseError(
              canceled ? "task-canceled" : "event-after-terminal",
              `task ${task.id} was ${canceled ? "canceled" : "ended"} on another instance`,
            );
          }
          base = fresh;
          continue;
        }
        // Events other instances stored before this one reach this instance's streams first.
        if (slot.lastSeq !== undefined && slot.lastSeq < seq - 1)
          await this.#catchUp(slot, seq - 1);
        slot.lastSeq = seq;
      }
      slot.stored = next;
      if (this.#states.isTerminal(next.status?.state)) this.#releaseTask(slot.scope, next.id);
      this.#deliver(slot, next, event, seq);
      return next;
    }
  }

  #deliver(
    slot: LiveTask,
    task: TaskShape,
    event: StreamResponseShape,
    seq: number | undefined,
  ): void {
    const state = task.status?.state ?? 0;
    // Stored instances are never changed (copy on write): the snapshot can travel with the event.
    const settled =
      this.#states.isTerminal(state) || this.#states.isInterrupted(state) ? task : undefined;
    slot.publish({
      kind: "event",
      event,
      state,
      fanOut: slot.subscribers > 1,
      bytes: eventBytes(event),
      seq,
      settled,
    });
    const hook = this.#s.onTaskEvent;
    if (hook === undefined) return;
    const fields = {
      scope: slot.scope,
      taskId: task.id,
      contextId: task.contextId,
      state,
      [NOTICE_EVENT]: event,
      [NOTICE_FACTORY]: this.#s.factory,
      [NOTICE_COPY]: { copy: undefined },
    };
    const notice = Object.defineProperty(
      fields,
      "event",
      NOTICE_EVENT_COPY,
    ) as unknown as TaskEventNotice<TaskRuntimeSchemas>;
    try {
      const result = hook(notice);
      if (result !== undefined)
        result.catch((e: unknown) => this.#s.onError(e, `onTaskEvent of task ${task.id}`));
    } catch (e) {
      this.#s.onError(e, `onTaskEvent of task ${task.id}`);
    }
  }

  /** Creates the turn's task if it does not exist yet (in the task's queue); returns it when created now. */
  async #ensureCreated(turn: Turn): Promise<TaskShape | undefined> {
    if (turn.created) return undefined;
    const { factory, store } = this.#s;
    const scope = turn.slot.scope;
    const task = factory.newTask(turn.taskId, turn.contextId, turn.userMessage);
    // Before the save makes the id findable (ListTasks): from now on GetTask, CancelTask and SubscribeToTask share this slot.
    turn.slot.register();
    const event = factory.feedTaskEvent(task);
    let seq: number | undefined;
    try {
      const cluster = this.#cluster;
      if (cluster === undefined) await store.saveTask(scope, task);
      else {
        // A push config that came with the message is stored first: the task's first event is pushed
        // (from the store's outbox) like every later one.
        if (turn.pushConfig !== undefined)
          await this.#savePushConfig(scope, turn.taskId, turn.pushConfig);
        // The turn's ticket comes with the task: another instance's message for it waits for this turn.
        turn.slot.lastSeq = 0;
        const created = await cluster.create(scope, task, event);
        seq = created.seq;
        turn.slot.lastSeq = seq;
        if (turn.closed === undefined) turn.ticket = created.ticket;
        else created.ticket.release();
      }
    } catch (e) {
      // A bounded store full of unfinished tasks refuses new ones: say so (nothing the client was told about is lost).
      throw this.#roomError(e, "a new task");
    }
    turn.slot.stored = task;
    if (turn.pushConfig !== undefined && this.#cluster === undefined)
      await this.#savePushConfig(scope, turn.taskId, turn.pushConfig);
    turn.created = true;
    this.#deliver(turn.slot, task, event, seq);
    return task;
  }

  /** Registers a push config that came with a SendMessage for its task (a server id when it has none). */
  async #savePushConfig(
    scope: TaskScope,
    taskId: string,
    pushConfig: PushConfigShape,
  ): Promise<void> {
    const { factory, store } = this.#s;
    const config = clone(factory.schemas.TaskPushNotificationConfig, pushConfig);
    config.taskId = taskId;
    if (config.id === "") config.id = factory.newId();
    try {
      await store.savePushConfig(scope, config);
    } catch (e) {
      throw this.#roomError(e, "this push notification config");
    }
  }

  /** The turn's task as stored, creating it first; refuses changes to a canceled or terminal task. */
  async #current(turn: Turn): Promise<TaskShape> {
    if (turn.closed === "canceled")
      throw new ExecutorMisuseError("task-canceled", `task ${turn.taskId} was canceled`);
    // Just created (in this queue run): it is the task as stored, no need to read it back.
    const task =
      (await this.#ensureCreated(turn)) ?? turn.slot.stored ?? (await this.#readLive(turn.slot));
    if (task === undefined) throw new Error(`task ${turn.taskId} is missing from the store`);
    if (this.#states.isTerminal(task.status?.state))
      throw new ExecutorMisuseError(
        "event-after-terminal",
        `task ${turn.taskId} is in a terminal state`,
      );
    return task;
  }

  /** Reports a commit's failure unless the executor sees it thrown as its own misuse, or a client gets it as an A2A error. */
  #reported(turn: Turn, commit: Promise<void>): Promise<void> {
    return commit.catch((e: unknown) => {
      // Not the executor's misuse (it sees the throw), nor an A2A error its client is answered with (a quota).
      if (!(e instanceof ExecutorMisuseError) && !(e instanceof A2AError))
        this.#s.onError(e, `storing an event of task ${turn.taskId}`);
      throw e;
    });
  }

  /** {@inheritDoc TurnCommitter.commitReply} */
  commitReply(turn: Turn, message: MessageShape): Promise<void> {
    return turn.slot.queue.run(() => {
      turn.replied = true;
      const event = this.#s.factory.messageEvent(message);
      turn.slot.publish({
        kind: "event",
        event,
        state: undefined,
        fanOut: false,
        bytes: eventBytes(event),
      });
    });
  }

  /** {@inheritDoc TurnCommitter.commitCreate} */
  commitCreate(turn: Turn): Promise<void> {
    return this.#reported(
      turn,
      turn.slot.queue.run(async () => {
        if (turn.closed === "canceled")
          throw new ExecutorMisuseError("task-canceled", `task ${turn.taskId} was canceled`);
        await this.#ensureCreated(turn);
      }),
    );
  }

  /**
   * What a turn of task `taskId` that ended with neither a reply nor a task event fails with: the
   * error execute() failed with, else Internal (and the misuse is reported).
   */
  #noResponse(failed: boolean, error: unknown, taskId: string): { error: unknown } {
    if (failed) return { error };
    const { errors, onError } = this.#s;
    const failure = { error: errors.Internal("The agent produced no response") };
    onError(
      new ExecutorMisuseError(
        "invalid-event",
        "execute() resolved without a stateless Message or any task event",
      ),
      `task ${taskId}`,
    );
    return failure;
  }

  /** {@inheritDoc TurnCommitter.commitStatus} */
  commitStatus(
    turn: Turn,
    state: number,
    message: MessageShape | undefined,
    metadata: JsonObject | undefined,
  ): Promise<void> {
    return this.#commitChange(turn, statusChange(this.#s.factory, state, message, metadata));
  }

  /** {@inheritDoc TurnCommitter.commitArtifact} */
  commitArtifact(
    turn: Turn,
    artifact: ArtifactShape,
    append: boolean,
    lastChunk: boolean,
    metadata: JsonObject | undefined,
  ): Promise<void> {
    const { factory } = this.#s;
    return this.#commitChange(turn, (next) => {
      this.#checkArtifact(next, artifact, append);
      if (!applyArtifact(next, artifact, append, (a) => factory.cloneArtifact(a)))
        throw new ExecutorMisuseError(
          "invalid-event",
          `append to artifact "${artifact.artifactId}", which the task does not have`,
        );
      return factory.artifactEvent(next, artifact, append, lastChunk, metadata);
    });
  }

  /** Commits `change` (weighed) to the turn's current task, in the task's queue; a failure is reported as the turn's. */
  #commitChange(turn: Turn, change: (next: TaskShape) => StreamResponseShape): Promise<void> {
    return this.#reported(
      turn,
      turn.slot.queue.run(async () => {
        const task = await this.#current(turn);
        await this.#changeTask(turn.slot, task, change, true);
      }),
    );
  }

  /**
   * CancelTask (§3.1.5, §3.3.1): a CANCELED task is returned as it is (idempotent); any
   * other terminal task is TaskNotCancelable. Otherwise the executor's cancel hook may
   * refuse, then the running turn (if any) is aborted and the task set CANCELED.
   */
  async cancel(
    scope: TaskScope,
    taskId: string,
    call: TaskCallContext<Principal>,
    metadata: JsonObject | undefined,
  ): Promise<TaskShape> {
    const { errors, factory, executor } = this.#s;
    const numbers = this.#states.numbers;
    const notCancelable = (): Error =>
      errors.TaskNotCancelable(`Task ${taskId} is in a terminal state and cannot be canceled`, {
        metadata: { taskId },
      });
    const task = await this.requireTask(scope, taskId);
    if (task.status?.state === numbers.CANCELED) return task;
    if (this.#states.isTerminal(task.status?.state)) throw notCancelable();
    const slot = this.live.acquire(scope, taskId);
    const cluster = this.#cluster;
    try {
      if (executor.cancel !== undefined) {
        // With a shared store the turn may run on another instance.
        const running =
          slot.turn?.running === true ||
          (cluster !== undefined && (await cluster.isRunning(scope, taskId)));
        await executor.cancel(taskId, { task: factory.cloneTask(task), running, metadata, call });
      }
      return await slot.queue.run(async () => {
        const current =
          cluster === undefined
            ? await this.#s.store.getTask(scope, taskId)
            : await this.#readLive(slot);
        if (current === undefined) throw this.#notFound(taskId);
        if (current.status?.state === numbers.CANCELED) return current;
        if (this.#states.isTerminal(current.status?.state)) throw notCancelable();
        const turn = slot.turn;
        const canceledHere = turn?.markCanceled() === true;
        // The canceled execute() may take its time (or never) to return: the task is terminal
        // now, so let queued messages through at once (they will be refused as for any terminal task).
        // (A turn on another instance learns of it from the event log.) With a shared store, only once
        // CANCELED is stored: a WORKING task without its turn's ticket looks abandoned to other instances.
        if (canceledHere && cluster === undefined) turn?.releaseLock();
        try {
          return await this.#changeTask(
            slot,
            current,
            statusChange(factory, numbers.CANCELED, undefined, undefined),
          );
        } catch (e) {
          // Ended on another instance meanwhile: answer what is stored.
          if (!(e instanceof ExecutorMisuseError) || cluster === undefined) throw e;
          const ended = await this.#readLive(slot);
          if (ended?.status?.state === numbers.CANCELED) return ended;
          throw notCancelable();
        } finally {
          if (canceledHere && cluster !== undefined) turn?.releaseLock();
        }
      });
    } finally {
      slot.release();
    }
  }

  /**
   * Subscribes to a non-terminal task (§3.1.6): the returned snapshot and the feed are
   * taken together, so the feed holds exactly the events after the snapshot.
   *
   * With `resumeAfter` (a shared store's event sequence number the client got last): `missed` is
   * the range of the log it did not get (to read with {@link readEvents}), the feed continues after
   * it; a task that ended since is not refused (the client missed its end), it has no feed.
   */
  async subscribe(
    scope: TaskScope,
    taskId: string,
    abort: AbortWatch,
    resumeAfter?: number,
  ): Promise<SubscribeStart> {
    const { errors } = this.#s;
    const slot = this.live.acquire(scope, taskId);
    const resume = this.#cluster !== undefined ? resumeAfter : undefined;
    try {
      return await slot.queue.run(async () => {
        const task =
          this.#cluster === undefined
            ? await this.requireTask(scope, taskId)
            : await this.#readLive(slot);
        if (task === undefined) throw this.#notFound(taskId);
        const seq = this.#cluster === undefined ? undefined : slot.lastSeq;
        if (resume !== undefined && seq !== undefined && resume > seq) {
          throw errors.InvalidParams(
            `Last-Event-ID names event ${resume} of task ${taskId}, which has ${seq} events`,
            {
              fieldViolations: [
                {
                  field: "Last-Event-ID",
                  description: "Must name an event this agent sent for the task",
                },
              ],
            },
          );
        }
        const missed =
          resume !== undefined && seq !== undefined ? { after: resume, upTo: seq } : undefined;
        if (this.#states.isTerminal(task.status?.state)) {
          if (missed !== undefined) return { task, seq, missed, feed: undefined };
          throw errors.UnsupportedOperation(
            `Task ${taskId} is in a terminal state; there is nothing to subscribe to`,
            { metadata: { taskId } },
          );
        }
        this.#checkSubscribers(slot, taskId);
        return { task, seq, missed, feed: slot.subscribe(abort) };
      });
    } finally {
      slot.release();
    }
  }

  /** Events of the task's log after `afterSeq` (a shared store's; none without one). */
  readEvents(
    scope: TaskScope,
    taskId: string,
    afterSeq: number,
    limit: number,
  ): Promise<TaskEventRecord[]> {
    return this.#cluster?.readEvents(scope, taskId, afterSeq, limit) ?? Promise.resolve([]);
  }

  /** The event sequence number a task snapshot stands at (a shared store's; undefined without one). */
  seqOf(task: TaskShape): number | undefined {
    return this.#cluster?.seqOf(task);
  }
}

/** What {@link TaskEngine.subscribe} gives. */
export interface SubscribeStart {
  /** The task now. */
  readonly task: TaskShape;
  /** The event sequence number the snapshot stands at (shared store only). */
  readonly seq: number | undefined;
  /** When resuming: the log range the client missed (after `after`, up to and with `upTo`). */
  readonly missed: { readonly after: number; readonly upTo: number } | undefined;
  /** The events after the snapshot; undefined when resuming a task that has ended. */
  readonly feed: Subscription<FeedItem> | undefined;
}

/** The change that sets a task's status to `state` (with `message`) and its status update event. */
function statusChange(
  factory: TaskFactory,
  state: number,
  message: MessageShape | undefined,
  metadata: JsonObject | undefined,
): (next: TaskShape) => StreamResponseShape {
  return (next) => {
    const status = factory.status(state, message);
    applyStatus(next, status);
    return factory.statusEvent(next, status, metadata);
  };
}
