// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The in-memory {@link TaskStore}: maps keyed by scope (and an index of each context's tasks,
 * so that listing a conversation's tasks does not scan every task), keyset pagination over a
 * sort done per call (fine for tests and small agents; use a database-backed store beyond).
 *
 * Retention (see {@link InMemoryTaskStoreOptions}): the store holds at most `maxTasks` tasks
 * (default {@link DEFAULT_MAX_TASKS}) and, when `terminalTaskTtlMs` is set, drops a task that
 * has been in a terminal state (COMPLETED, FAILED, CANCELED, REJECTED) for that long since its
 * last save. Only terminal tasks are ever dropped, oldest last save first, each with its push
 * configs; a task that is not terminal (submitted, working, input- or auth-required) is never
 * dropped. When the store is full of such tasks, the save that would create one more is refused
 * with {@link TaskStoreFullError} (the client of that request gets an error, nothing it was
 * told about is lost). Terminal tasks are queued by last save (a linked list), so retention
 * costs amortized O(1) per call, never a scan.
 *
 * Bytes (issue #25: a count alone let 40 requests of 9 MB hold 374 MB, and the 10,000-task cap
 * allowed ~100 GB): the store also holds at most `maxBytes` of tasks and push configs in all, and
 * `maxBytesPerOwner` for one owner (tenant and owner key), weighed by `taskBytes()` /
 * `valueBytes()` (./task-size.ts). A save that grows past a bound first drops terminal tasks, the
 * owner's own for the owner's bound, oldest first; when those are not enough it is refused with
 * {@link TaskStoreFullError} naming the bound, having dropped nothing. A save that puts a task in
 * a terminal state is never refused (the runtime's own FAILED and CANCELED must land); room is
 * made after it. Each bound keeps a running total, so a save costs O(1) besides its evictions.
 */
import type { Timestamp } from "@bufbuild/protobuf/wkt";
import {
  decodePageToken,
  pushConfigCursor,
  pushConfigPageToken,
  queryFingerprint,
  readTaskPosition,
  taskPageToken,
} from "./pagination.js";
import { TaskStoreFullError } from "./errors.js";
import type { PushConfigShape, TaskShape } from "./shapes.js";
import { TaskStates, type TaskStateNumbers } from "./states.js";
import type {
  PushConfigPage,
  PushConfigQuery,
  TaskPage,
  TaskQuery,
  TaskScope,
  TaskStore,
} from "./store.js";
import { taskBytes, valueBytes } from "./size.js";

/**
 * Default {@link InMemoryTaskStoreOptions.maxTasks}: 10,000 tasks. ListTasks sorts a scope's
 * matching tasks on every call, which stays in the low milliseconds at this size, and 10,000
 * tasks of a few tens of KB each (history and artifacts) stay well inside Node's default heap.
 */
export const DEFAULT_MAX_TASKS = 10_000;

/**
 * Default {@link InMemoryTaskStoreOptions.maxBytes}: 256 MiB of tasks and push configs (as weighed
 * by `taskBytes()`), well inside the heap Node gives a process on a machine of 1 GiB or more; the
 * objects' own overhead comes on top (about 1.2–2× for text-heavy tasks, measured by
 * `npm run bench:memory`).
 */
export const DEFAULT_MAX_STORE_BYTES = 256 * 1024 * 1024;

/**
 * Default {@link InMemoryTaskStoreOptions.maxBytesPerOwner}: 64 MiB, four of the largest tasks the
 * runtime accepts by default (`maxTaskBytes`, 16 MiB), a quarter of the store.
 */
export const DEFAULT_MAX_BYTES_PER_OWNER = 64 * 1024 * 1024;

/**
 * The `TaskState` numbers of a2a.proto (A2A 0.3 and 1.0 number the states alike): the default
 * of the stores' `states` option. The generated `TaskState` enum object is the same.
 */
export const A2A_TASK_STATE_NUMBERS: TaskStateNumbers = Object.freeze({
  SUBMITTED: 1,
  WORKING: 2,
  COMPLETED: 3,
  FAILED: 4,
  CANCELED: 5,
  INPUT_REQUIRED: 6,
  REJECTED: 7,
  AUTH_REQUIRED: 8,
});

/** Options of {@link InMemoryTaskStore}; every one is optional. */
export interface InMemoryTaskStoreOptions {
  /**
   * Tasks kept at most, over all tenants and owners (default {@link DEFAULT_MAX_TASKS};
   * `Infinity` = unbounded). Creating a task in a full store drops the terminal task saved
   * least recently (with its push configs); when no task is terminal, the save is refused with
   * {@link TaskStoreFullError}. Saving an existing task never fails for lack of room.
   */
  readonly maxTasks?: number | undefined;
  /**
   * How long a terminal task is kept after its last save, in ms (default: no limit, terminal
   * tasks go only when `maxTasks` needs room). Expired tasks are dropped at the store's next call.
   */
  readonly terminalTaskTtlMs?: number | undefined;
  /**
   * Bytes of tasks and push configs kept at most, over all tenants and owners, weighed by
   * `taskBytes()` (default {@link DEFAULT_MAX_STORE_BYTES}, 256 MiB; `Infinity` = unbounded). A save
   * that would pass it drops terminal tasks (least recently saved first) until it fits; when that is
   * not enough it is refused with {@link TaskStoreFullError} (`limit` "maxBytes"), nothing dropped.
   */
  readonly maxBytes?: number | undefined;
  /**
   * Bytes of tasks and push configs kept at most for one owner (`TaskScope`: tenant and owner key),
   * as `maxBytes` but dropping only the owner's own terminal tasks (default
   * {@link DEFAULT_MAX_BYTES_PER_OWNER}, 64 MiB; `Infinity` = unbounded). Without authentication
   * every caller is the one owner "". The refusal's `limit` is "maxBytesPerOwner"; the task runtime
   * answers it UnsupportedOperationError naming the limit.
   */
  readonly maxBytesPerOwner?: number | undefined;
  /** The `TaskState` numbering, to tell terminal tasks (default {@link A2A_TASK_STATE_NUMBERS}; the generated `TaskState` enum fits). */
  readonly states?: TaskStateNumbers | undefined;
  /** The clock of `terminalTaskTtlMs`, in ms (default `Date.now`); for tests. */
  readonly now?: (() => number) | undefined;
}

export { TaskStoreFullError } from "./errors.js";

interface TaskRecord extends TaskPosition {
  readonly task: TaskShape;
  /** Its weight (`taskBytes`), as counted in the totals. */
  readonly bytes: number;
  /** `status.timestamp` in ns (ListTasks' order: later first). */
  readonly time: bigint;
  /** Save counter: breaks timestamp ties, most recent save first. */
  readonly seq: number;
  /** Its place in the retention queues while it is terminal. */
  terminal: TerminalEntry | undefined;
}

/**
 * A terminal task in the retention queues, least recently saved first: the store's (`prev`/`next`)
 * and its owner's (`ownerPrev`/`ownerNext`), both doubly linked lists.
 */
interface TerminalEntry {
  readonly scope: ScopeState;
  readonly taskId: string;
  readonly contextId: string;
  /** `now()` at its last save. */
  readonly savedAt: number;
  /** What it counts in the terminal totals (the task and its push configs). */
  bytes: number;
  prev: TerminalEntry | undefined;
  next: TerminalEntry | undefined;
  ownerPrev: TerminalEntry | undefined;
  ownerNext: TerminalEntry | undefined;
}

/**
 * What one scope (tenant and owner) holds: its tasks, the index of its contexts' tasks, its push
 * configs by task id, its bytes (tasks and push configs), and its terminal tasks' queue and bytes.
 * Looked up by tenant then owner (nested maps: no key string is built per call).
 */
interface ScopeState {
  readonly tenant: string;
  readonly owner: string;
  readonly tasks: Map<string, TaskRecord>;
  /** contextId → the ids of its tasks. */
  readonly contexts: Map<string, Set<string>>;
  /** taskId → its push configs (kept with the task: a dropped task's configs go with it). */
  readonly configs: Map<string, Map<string, ConfigRecord>>;
  bytes: number;
  terminalBytes: number;
  head: TerminalEntry | undefined;
  tail: TerminalEntry | undefined;
}

interface ConfigRecord {
  readonly config: PushConfigShape;
  /** Creation counter: list order. */
  readonly seq: number;
  /** Its weight (`valueBytes`). */
  readonly bytes: number;
}

/** A weight for the totals: a value that has no JSON form (NaN) is still counted by its other fields' worth, never as NaN. */
function weightOf(bytes: number): number {
  return Number.isNaN(bytes) ? 0 : bytes;
}

function checkBytesBound(name: string, value: number): number {
  if (value === Number.POSITIVE_INFINITY || (Number.isSafeInteger(value) && value >= 1))
    return value;
  throw new RangeError(`${name} must be an integer >= 1 or Infinity, got ${value}`);
}

/** Sort key of a task: status time in nanoseconds since the epoch, then save counter. */
interface TaskPosition {
  readonly time: bigint;
  readonly seq: number;
}

function timeOf(timestamp: Timestamp | undefined): bigint {
  if (timestamp === undefined) return 0n;
  return timestamp.seconds * 1_000_000_000n + BigInt(timestamp.nanos);
}

/** True when `a` sorts before `b` (later status time first, then later save first). */
function before(a: TaskPosition, b: TaskPosition): boolean {
  return a.time !== b.time ? a.time > b.time : a.seq > b.seq;
}

/** Bytes of a task's push configs. */
function configBytes(scope: ScopeState, taskId: string): number {
  const configs = scope.configs.get(taskId);
  if (configs === undefined) return 0;
  let bytes = 0;
  for (const record of configs.values()) bytes += record.bytes;
  return bytes;
}

/** Keeps tasks and push configs in process memory, within the bounds of its {@link InMemoryTaskStoreOptions}. */
export class InMemoryTaskStore implements TaskStore {
  /** tenant → owner → what that scope holds; a scope that holds nothing is removed. */
  readonly #scopes = new Map<string, Map<string, ScopeState>>();
  /**
   * Terminal tasks, queued least recently saved first from `#head` (a save moves its task to `#tail`).
   * A linked list rather than a Map's own order: iterating a Map from its start skips the holes its
   * deletions left there, which made each eviction cost more as the store grew.
   */
  #head: TerminalEntry | undefined;
  #tail: TerminalEntry | undefined;
  /** Bytes of all tasks and push configs, and of the terminal tasks (with their configs). */
  #bytes = 0;
  #terminalBytes = 0;
  readonly #maxTasks: number;
  readonly #maxBytes: number;
  readonly #maxBytesPerOwner: number;
  readonly #ttlMs: number | undefined;
  readonly #states: TaskStates;
  readonly #now: () => number;
  #size = 0;
  #seq = 0;

  /** A store bounded by `options` (see {@link InMemoryTaskStoreOptions} for the defaults). Throws RangeError for a bound that is not a number ≥ 1 (`maxTasks`) or ≥ 0 (`terminalTaskTtlMs`). */
  constructor(options: InMemoryTaskStoreOptions = {}) {
    const maxTasks = options.maxTasks ?? DEFAULT_MAX_TASKS;
    if (
      !(maxTasks === Number.POSITIVE_INFINITY || (Number.isSafeInteger(maxTasks) && maxTasks >= 1))
    )
      throw new RangeError(`maxTasks must be an integer >= 1 or Infinity, got ${maxTasks}`);
    const ttl = options.terminalTaskTtlMs;
    if (ttl !== undefined && !(ttl >= 0 && ttl <= Number.MAX_SAFE_INTEGER))
      throw new RangeError(`terminalTaskTtlMs must be a number of ms >= 0, got ${ttl}`);
    this.#maxTasks = maxTasks;
    this.#maxBytes = checkBytesBound("maxBytes", options.maxBytes ?? DEFAULT_MAX_STORE_BYTES);
    this.#maxBytesPerOwner = checkBytesBound(
      "maxBytesPerOwner",
      options.maxBytesPerOwner ?? DEFAULT_MAX_BYTES_PER_OWNER,
    );
    this.#ttlMs = ttl;
    this.#states = new TaskStates(options.states ?? A2A_TASK_STATE_NUMBERS);
    this.#now = options.now ?? Date.now;
  }

  /** How many tasks the store holds now (over all scopes). */
  get size(): number {
    this.#expire();
    return this.#size;
  }

  /** Bytes of tasks and push configs the store holds now (over all scopes), as its `maxBytes` counts them. */
  get bytes(): number {
    this.#expire();
    return this.#bytes;
  }

  /** Bytes of tasks and push configs one owner holds now, as `maxBytesPerOwner` counts them. */
  bytesOf(scope: TaskScope): number {
    this.#expire();
    return this.#scope(scope)?.bytes ?? 0;
  }

  /** The state of a scope, if it holds anything. */
  #scope(scope: TaskScope): ScopeState | undefined {
    return this.#scopes.get(scope.tenant)?.get(scope.owner);
  }

  /** The state of a scope, made when it holds nothing yet. */
  #scopeForWrite(scope: TaskScope): ScopeState {
    let owners = this.#scopes.get(scope.tenant);
    if (owners === undefined) this.#scopes.set(scope.tenant, (owners = new Map()));
    let state = owners.get(scope.owner);
    if (state === undefined) {
      state = {
        tenant: scope.tenant,
        owner: scope.owner,
        tasks: new Map(),
        contexts: new Map(),
        configs: new Map(),
        bytes: 0,
        terminalBytes: 0,
        head: undefined,
        tail: undefined,
      };
      owners.set(scope.owner, state);
    }
    return state;
  }

  /** Removes a scope that holds nothing any more. */
  #release(state: ScopeState): void {
    if (
      state.tasks.size !== 0 ||
      state.configs.size !== 0 ||
      state.bytes !== 0 ||
      state.head !== undefined
    )
      return;
    const owners = this.#scopes.get(state.tenant);
    if (owners?.get(state.owner) !== state) return;
    owners.delete(state.owner);
    if (owners.size === 0) this.#scopes.delete(state.tenant);
  }

  /** {@inheritDoc TaskStore.getTask} */
  async getTask(scope: TaskScope, taskId: string): Promise<TaskShape | undefined> {
    this.#expire();
    return this.#scope(scope)?.tasks.get(taskId)?.task;
  }

  /**
   * {@inheritDoc TaskStore.saveTask}
   * @throws {@link TaskStoreFullError} when the task is new and
   * `maxTasks` leaves no room, or when it grows past `maxBytes` / `maxBytesPerOwner` and dropping
   * terminal tasks cannot make room (never for a save that makes the task terminal).
   */
  async saveTask(scope: TaskScope, task: TaskShape): Promise<void> {
    const now = this.#expire();
    const taskId = task.id;
    const existing = this.#scope(scope)?.tasks.get(taskId);
    const terminal = this.#states.isTerminal(task.status?.state);
    const bytes = weightOf(taskBytes(task));
    const growth = bytes - (existing?.bytes ?? 0);
    if (!terminal) {
      // Refuse before changing anything: the task itself cannot be dropped to make its own room.
      const own = existing?.terminal?.bytes ?? 0;
      this.#checkRoom(this.#scope(scope), growth, own, existing === undefined);
    }
    if (existing === undefined && this.#size >= this.#maxTasks) {
      const oldest = this.#head;
      if (oldest === undefined) {
        throw new TaskStoreFullError(
          `the task store is full: ${this.#size} tasks, none of them in a terminal state (maxTasks ${this.#maxTasks})`,
          "maxTasks",
          this.#maxTasks,
        );
      }
      this.#evict(oldest);
    }
    // Looked up again: an eviction may have removed the scope.
    const state = this.#scopeForWrite(scope);
    if (existing === undefined || existing.task.contextId !== task.contextId) {
      if (existing !== undefined) unindex(state, existing.task.contextId, taskId);
      let ids = state.contexts.get(task.contextId);
      if (ids === undefined) state.contexts.set(task.contextId, (ids = new Set()));
      ids.add(taskId);
    }
    if (existing === undefined) this.#size++;
    else if (existing.terminal !== undefined) this.#dequeue(existing.terminal);
    const record: TaskRecord = {
      task,
      bytes,
      time: timeOf(task.status?.timestamp),
      seq: ++this.#seq,
      terminal: undefined,
    };
    state.tasks.set(taskId, record);
    this.#count(state, growth);
    if (terminal) {
      const entry: TerminalEntry = {
        scope: state,
        taskId,
        contextId: task.contextId,
        savedAt: now ?? 0,
        bytes: bytes + configBytes(state, taskId),
        prev: undefined,
        next: undefined,
        ownerPrev: undefined,
        ownerNext: undefined,
      };
      record.terminal = entry;
      this.#enqueue(entry);
      // A terminal save is never refused; it may have passed a bound: drop older terminal tasks until
      // within (never this one, which its client may be about to read: the bound is passed by it at most).
      this.#makeRoom(state, entry);
    } else {
      this.#makeRoom(state, undefined);
    }
  }

  /** Adds `delta` bytes to the scope's and the store's totals. */
  #count(state: ScopeState, delta: number): void {
    if (delta === 0) return;
    state.bytes += delta;
    this.#bytes += delta;
  }

  /**
   * Throws TaskStoreFullError unless `growth` more bytes of the scope fit both byte bounds once
   * the terminal tasks that may go are gone (`own`: bytes of the saved task itself if it is queued as
   * terminal now, which cannot make room for itself). Checks only: {@link #makeRoom} drops.
   */
  #checkRoom(state: ScopeState | undefined, growth: number, own: number, creating: boolean): void {
    if (growth <= 0) return;
    const ownerBytes = state?.bytes ?? 0;
    if (
      ownerBytes + growth > this.#maxBytesPerOwner &&
      ownerBytes - ((state?.terminalBytes ?? 0) - own) + growth > this.#maxBytesPerOwner
    ) {
      throw new TaskStoreFullError(
        `${creating ? "a new task" : "this change"} needs ${growth} bytes; this owner holds ${ownerBytes} of ${this.#maxBytesPerOwner} (maxBytesPerOwner), in tasks that are not terminal`,
        "maxBytesPerOwner",
        this.#maxBytesPerOwner,
      );
    }
    if (
      this.#bytes + growth > this.#maxBytes &&
      this.#bytes - (this.#terminalBytes - own) + growth > this.#maxBytes
    ) {
      throw new TaskStoreFullError(
        `the task store is full: ${this.#bytes} of ${this.#maxBytes} bytes (maxBytes), in tasks that are not terminal`,
        "maxBytes",
        this.#maxBytes,
      );
    }
  }

  /**
   * Drops the oldest terminal tasks (the scope's for its bound, anyone's for the store's) until the
   * scope and the store are within their byte bounds, or only `keep` (the task just saved, the newest) is left to drop.
   */
  #makeRoom(state: ScopeState, keep: TerminalEntry | undefined): void {
    while (state.bytes > this.#maxBytesPerOwner && state.head !== undefined && state.head !== keep)
      this.#evict(state.head);
    while (this.#bytes > this.#maxBytes && this.#head !== undefined && this.#head !== keep)
      this.#evict(this.#head);
    this.#release(state);
  }

  /** Drops the terminal tasks whose TTL ran out (from the head of the queue); returns the time it read, if any. */
  #expire(): number | undefined {
    if (this.#ttlMs === undefined) return undefined;
    const now = this.#now();
    while (this.#head !== undefined && now - this.#head.savedAt >= this.#ttlMs)
      this.#evict(this.#head);
    return now;
  }

  #enqueue(entry: TerminalEntry): void {
    entry.prev = this.#tail;
    if (this.#tail === undefined) this.#head = entry;
    else this.#tail.next = entry;
    this.#tail = entry;
    const state = entry.scope;
    entry.ownerPrev = state.tail;
    if (state.tail === undefined) state.head = entry;
    else state.tail.ownerNext = entry;
    state.tail = entry;
    state.terminalBytes += entry.bytes;
    this.#terminalBytes += entry.bytes;
  }

  #dequeue(entry: TerminalEntry): void {
    if (entry.prev === undefined) this.#head = entry.next;
    else entry.prev.next = entry.next;
    if (entry.next === undefined) this.#tail = entry.prev;
    else entry.next.prev = entry.prev;
    entry.prev = entry.next = undefined;
    const state = entry.scope;
    if (entry.ownerPrev === undefined) state.head = entry.ownerNext;
    else entry.ownerPrev.ownerNext = entry.ownerNext;
    if (entry.ownerNext === undefined) state.tail = entry.ownerPrev;
    else entry.ownerNext.ownerPrev = entry.ownerPrev;
    entry.ownerPrev = entry.ownerNext = undefined;
    state.terminalBytes -= entry.bytes;
    this.#terminalBytes -= entry.bytes;
    const record = state.tasks.get(entry.taskId);
    if (record?.terminal === entry) record.terminal = undefined;
  }

  /** Removes a terminal task with its push configs and its place in the context index. */
  #evict(entry: TerminalEntry): void {
    this.#dequeue(entry);
    const state = entry.scope;
    const record = state.tasks.get(entry.taskId);
    const freed = (record?.bytes ?? 0) + configBytes(state, entry.taskId);
    if (state.tasks.delete(entry.taskId)) this.#size--;
    unindex(state, entry.contextId, entry.taskId);
    state.configs.delete(entry.taskId);
    this.#count(state, -freed);
    this.#release(state);
  }

  /** The records a query may match: the context's tasks (from the index), or every task of the scope. */
  *#candidates(state: ScopeState | undefined, contextId: string): Iterable<TaskRecord> {
    if (state === undefined) return;
    const tasks = state.tasks;
    if (contextId === "") {
      yield* tasks.values();
      return;
    }
    for (const id of state.contexts.get(contextId) ?? []) {
      const record = tasks.get(id);
      if (record !== undefined) yield record;
    }
  }

  /** {@inheritDoc TaskStore.listTasks} */
  async listTasks(scope: TaskScope, query: TaskQuery): Promise<TaskPage> {
    this.#expire();
    const fingerprint = queryFingerprint([
      query.contextId,
      query.state ?? null,
      query.statusTimestampAfter === undefined
        ? null
        : timeOf(query.statusTimestampAfter).toString(),
    ]);
    let after: TaskPosition | undefined;
    if (query.pageToken !== "")
      after = readTaskPosition(decodePageToken(query.pageToken, fingerprint));
    const since =
      query.statusTimestampAfter === undefined ? undefined : timeOf(query.statusTimestampAfter);
    // One pass, no sort of every match: the page is the first `pageSize` matches after the cursor,
    // kept in order as they are found (a scope may hold thousands of tasks; a page holds at most 100).
    const page: TaskRecord[] = [];
    let totalSize = 0;
    let afterCursor = 0;
    for (const record of this.#candidates(this.#scope(scope), query.contextId)) {
      const { task } = record;
      if (query.contextId !== "" && task.contextId !== query.contextId) continue;
      if (query.state !== undefined && task.status?.state !== query.state) continue;
      if (since !== undefined && record.time < since) continue;
      totalSize++;
      if (after !== undefined && !before(after, record)) continue;
      afterCursor++;
      if (page.length === query.pageSize && !before(record, page[page.length - 1] as TaskRecord))
        continue;
      page.splice(insertionPoint(page, record), 0, record);
      if (page.length > query.pageSize) page.pop();
    }
    // The byte budget: the page ends before the task that would pass it (always one task at least).
    const budget = query.budget;
    if (budget !== undefined) {
      let bytes = 0;
      for (let i = 0; i < page.length; i++) {
        bytes += budget.sizeOf((page[i] as TaskRecord).task);
        if (i > 0 && !(bytes <= budget.maxBytes)) {
          page.length = i;
          break;
        }
      }
    }
    const last = page.at(-1);
    const more = afterCursor > page.length;
    return {
      tasks: page.map((r) => r.task),
      nextPageToken: more && last !== undefined ? taskPageToken(fingerprint, last) : "",
      totalSize,
    };
  }

  /** {@inheritDoc TaskStore.getPushConfig} */
  async getPushConfig(
    scope: TaskScope,
    taskId: string,
    configId: string,
  ): Promise<PushConfigShape | undefined> {
    this.#expire();
    return this.#scope(scope)?.configs.get(taskId)?.get(configId)?.config;
  }

  /**
   * {@inheritDoc TaskStore.savePushConfig}
   * @throws {@link TaskStoreFullError} when it grows past a byte bound and no room can be made.
   */
  async savePushConfig(scope: TaskScope, config: PushConfigShape): Promise<void> {
    this.#expire();
    const existing = this.#scope(scope)?.configs.get(config.taskId)?.get(config.id);
    const bytes = weightOf(valueBytes(config));
    const growth = bytes - (existing?.bytes ?? 0);
    const terminal = this.#scope(scope)?.tasks.get(config.taskId)?.terminal;
    this.#checkRoom(this.#scope(scope), growth, terminal?.bytes ?? 0, false);
    const state = this.#scopeForWrite(scope);
    let configs = state.configs.get(config.taskId);
    if (configs === undefined) state.configs.set(config.taskId, (configs = new Map()));
    configs.set(config.id, { config, seq: existing?.seq ?? ++this.#seq, bytes });
    this.#count(state, growth);
    if (terminal !== undefined) this.#countTerminal(terminal, growth);
    this.#makeRoom(state, undefined);
  }

  /** Adds `delta` bytes to a terminal task's weight and the terminal totals (its push configs changed). */
  #countTerminal(entry: TerminalEntry, delta: number): void {
    entry.bytes += delta;
    entry.scope.terminalBytes += delta;
    this.#terminalBytes += delta;
  }

  /** {@inheritDoc TaskStore.listPushConfigs} */
  async listPushConfigs(
    scope: TaskScope,
    taskId: string,
    query: PushConfigQuery,
  ): Promise<PushConfigPage> {
    this.#expire();
    const afterSeq = pushConfigCursor(taskId, query.pageToken);
    const all = [...(this.#scope(scope)?.configs.get(taskId)?.values() ?? [])]
      .filter((r) => r.seq > afterSeq)
      .sort((a, b) => a.seq - b.seq);
    const page = query.pageSize > 0 ? all.slice(0, query.pageSize) : all;
    const last = page.at(-1);
    return {
      configs: page.map((r) => r.config),
      nextPageToken:
        page.length < all.length && last !== undefined ? pushConfigPageToken(taskId, last.seq) : "",
    };
  }

  /** {@inheritDoc TaskStore.deletePushConfig} */
  async deletePushConfig(scope: TaskScope, taskId: string, configId: string): Promise<void> {
    const state = this.#scope(scope);
    const configs = state?.configs.get(taskId);
    const record = configs?.get(configId);
    if (state === undefined || configs === undefined || record === undefined) return;
    configs.delete(configId);
    if (configs.size === 0) state.configs.delete(taskId);
    const terminal = state.tasks.get(taskId)?.terminal;
    if (terminal !== undefined) this.#countTerminal(terminal, -record.bytes);
    this.#count(state, -record.bytes);
    this.#release(state);
  }
}

/** Removes a task from its context's index. */
function unindex(state: ScopeState, contextId: string, taskId: string): void {
  const ids = state.contexts.get(contextId);
  if (ids === undefined) return;
  ids.delete(taskId);
  if (ids.size === 0) state.contexts.delete(contextId);
}

/** Where `position` goes in `sorted` (ListTasks order) to keep it sorted. */
function insertionPoint(sorted: readonly TaskPosition[], position: TaskPosition): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(sorted[mid] as TaskPosition, position)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
