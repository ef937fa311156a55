// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The in-process state of tasks that something is happening to: per task a queue that
 * serializes its state changes, a mutex that lets one `execute()` run at a time, the hub
 * its events fan out through, and the running turn. A slot exists while anything uses
 * it (reference-counted) and is dropped when the last user leaves.
 */
import { EventHub, type QueueLimit, type Subscription } from "./event-hub.js";
import type { AbortWatch } from "../pipeline/call-abort.js";
import { Mutex, SerialQueue } from "./serial.js";
import type { StreamResponseShape, TaskShape } from "./shapes.js";
import type { TaskScope } from "./store.js";

/** One item of a task's feed: a stored event, or the end of a turn. */
export type FeedItem =
  | {
      readonly kind: "event";
      /** The event, shared by all readers: copy it before handing it out. */
      readonly event: StreamResponseShape;
      /** The task state after the event (undefined for a stateless reply). */
      readonly state: number | undefined;
      /** More than one stream had subscribed when it was published: worth encoding once for all (see markImmutable). */
      readonly fanOut: boolean;
      /** What the event weighs (`eventBytes`), for the queues' `maxQueuedBytes`. */
      readonly bytes: number;
      /** Its sequence number in the task's event log (a shared store's); undefined without one, and for a stateless reply. */
      readonly seq?: number | undefined;
      /**
       * The task as stored right after the event, set only when the event left it terminal or
       * interrupted (what a blocking SendMessage answers: a later turn may change the stored task
       * before the caller could read it). Undefined for events another instance stored.
       */
      readonly settled?: TaskShape | undefined;
    }
  | {
      readonly kind: "end";
      /** The turn that ended. */
      readonly turn: number;
      /** Set when the turn produced nothing visible and failed: the error its caller gets. */
      readonly failure: { readonly error: unknown } | undefined;
    };

/** How far a subscriber of a task's feed may fall behind. */
export interface FeedLimit {
  /** Most feed items one subscriber may have queued and unread (a positive integer, or `Infinity`). */
  readonly maxQueuedEvents: number;
  /** Most bytes of events one subscriber may have queued and unread (a positive integer, or `Infinity`). */
  readonly maxQueuedBytes: number;
  /** The error a subscriber of `taskId` that fell further behind is ended with. */
  readonly overflowError: (taskId: string) => unknown;
}

/** What a feed item weighs in a subscriber's queue (an end marker: nothing). */
function feedItemBytes(item: FeedItem): number {
  return item.kind === "event" ? item.bytes : 0;
}

/** What the slot needs to know about the running turn. */
export interface ActiveTurn {
  /** Turn number, unique in the process. */
  readonly id: number;
  /** True while its `execute()` has not settled and it was not canceled. */
  readonly running: boolean;
  /** Marks the turn canceled and aborts its signal; false when it had already ended. */
  markCanceled(): boolean;
  /** Lets the next turn of the task start (idempotent): used once a turn is canceled, whether or not its `execute()` returns. */
  releaseLock(): void;
}

/** The live state of one task. */
export class LiveTask {
  /** Serializes every read-modify-write of the task and every subscription. */
  readonly queue = new SerialQueue();
  /** Held by a turn from its start until its end. */
  readonly lock = new Mutex();
  /** The turn holding the lock, once it started. */
  turn: ActiveTurn | undefined;
  /**
   * The task as this process last stored it, while the slot is live (set after each save of the
   * engine, inside the task's queue): the engine's next read-modify-write starts from it instead
   * of reading the store back (for SQLite: a query and a decode per event, and a commit forced
   * early by the read). Stored instances are never changed (copy on write).
   */
  stored: TaskShape | undefined;
  /**
   * With a shared store: the sequence number of the last event of the log published to this slot's
   * feed (undefined until a reader took a snapshot); events after it are read from the log.
   */
  lastSeq: number | undefined;
  /** Stops watching the shared store's wake-ups (set while the slot is in the registry, with a shared store). */
  unwatch: (() => void) | undefined;
  readonly #hub: EventHub<FeedItem>;
  #users = 0;
  /** In the registry (a fresh task's slot joins it only once the task exists, see {@link LiveTasks.fresh}). */
  #registered: boolean;

  /** Registry key: tenant, owner and task id (made when first needed). */
  #key: string | undefined;
  /** The task's scope. */
  readonly scope: TaskScope;
  /** The task id. */
  readonly taskId: string;
  readonly #registry: LiveTasks;

  /** A slot of `registry` (in it when `registered`); its subscribers are bounded by `limit` (default: unbounded). */
  constructor(
    key: string | undefined,
    scope: TaskScope,
    taskId: string,
    registry: LiveTasks,
    registered: boolean,
    limit?: FeedLimit,
  ) {
    this.#key = key;
    this.#registered = registered;
    this.scope = scope;
    this.taskId = taskId;
    this.#registry = registry;
    let queueLimit: QueueLimit<FeedItem> | undefined;
    if (limit !== undefined) {
      const { maxQueuedEvents, maxQueuedBytes, overflowError } = limit;
      queueLimit = {
        maxQueued: maxQueuedEvents,
        maxQueuedBytes,
        weightOf: feedItemBytes,
        overflowError: () => overflowError(taskId),
      };
    }
    this.#hub = new EventHub<FeedItem>(queueLimit);
  }

  /** Counts one more user. */
  retain(): void {
    this.#users++;
  }

  /** Registry key: tenant, owner and task id. */
  get key(): string {
    return (this.#key ??= slotKey(this.scope, this.taskId));
  }

  /** Counts one user less; the registry drops the slot when none is left. */
  release(): void {
    if (--this.#users === 0 && this.#registered) {
      this.#registered = false;
      this.#registry.drop(this);
    }
  }

  /** Puts a fresh task's slot in the registry (once its task exists, others may ask for it by id). Idempotent. */
  register(): void {
    if (this.#registered || this.#users === 0) return;
    this.#registered = true;
    this.#registry.add(this);
  }

  /**
   * Subscribes to the task's feed; the subscription holds the slot until it is closed
   * (or `signal` aborts, or it falls more than the limit behind and is ended).
   */
  subscribe(abort?: AbortSignal | AbortWatch): Subscription<FeedItem> {
    this.retain();
    return this.#hub.subscribe(abort, () => this.release());
  }

  /** Delivers an item to every subscription. */
  publish(item: FeedItem): void {
    this.#hub.publish(item);
  }

  /** The number of open subscriptions. */
  get subscribers(): number {
    return this.#hub.size;
  }
}

/** The slots of all live tasks of a handler. */
export class LiveTasks {
  readonly #slots = new Map<string, LiveTask>();
  readonly #limit: FeedLimit | undefined;
  readonly #watch: ((slot: LiveTask) => () => void) | undefined;

  /**
   * The registry; every task's subscribers are bounded by `limit` (default: unbounded); `watch` (with a
   * shared store) starts watching a slot's task when the slot joins the registry, and returns the
   * function that stops it when the slot leaves.
   */
  constructor(limit?: FeedLimit, watch?: (slot: LiveTask) => () => void) {
    this.#limit = limit;
    this.#watch = watch;
  }

  /** The slot of a task, created if needed, retained once for the caller (who must release it). */
  acquire(scope: TaskScope, taskId: string): LiveTask {
    const key = slotKey(scope, taskId);
    let slot = this.#slots.get(key);
    if (slot === undefined) {
      this.#slots.set(key, (slot = new LiveTask(key, scope, taskId, this, true, this.#limit)));
      if (this.#watch !== undefined) slot.unwatch = this.#watch(slot);
    }
    slot.retain();
    return slot;
  }

  /**
   * A slot for a task id just generated, which nobody else can know yet, retained once for the caller:
   * kept out of the registry until {@link LiveTask.register} (when the task is created), so that a
   * turn answered with a stateless Message never touches the registry.
   */
  fresh(scope: TaskScope, taskId: string): LiveTask {
    const slot = new LiveTask(undefined, scope, taskId, this, false, this.#limit);
    slot.retain();
    return slot;
  }

  /** Registers a fresh slot (see {@link fresh}). */
  add(slot: LiveTask): void {
    if (this.#slots.has(slot.key)) throw new Error(`task ${slot.taskId} already has a live slot`);
    this.#slots.set(slot.key, slot);
    if (this.#watch !== undefined) slot.unwatch = this.#watch(slot);
  }

  /** The task as stored by this process, when it has a live slot (a running turn or a subscriber): no store read needed. */
  stored(scope: TaskScope, taskId: string): TaskShape | undefined {
    return this.#slots.get(slotKey(scope, taskId))?.stored;
  }

  /** Forgets a slot nobody uses. */
  drop(slot: LiveTask): void {
    if (this.#slots.get(slot.key) === slot) this.#slots.delete(slot.key);
    slot.unwatch?.();
    slot.unwatch = undefined;
  }

  /** How many tasks have live state (for tests and metrics). */
  get size(): number {
    return this.#slots.size;
  }
}

/** The registry key of a task: injective (the tenant's and owner's lengths first), cheaper than JSON. */
function slotKey(scope: TaskScope, taskId: string): string {
  return `${scope.tenant.length}:${scope.owner.length}:${scope.tenant}${scope.owner}${taskId}`;
}
