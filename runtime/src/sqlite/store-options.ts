// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The options of the SQLite task store (./sqlite-store.ts) and of its purge, and their checks.
 */
import type { Logger } from "../observe/logger.js";
import type { TaskRuntimeSchemas } from "../task/shapes.js";
import type { TaskStateNumbers } from "../task/states.js";
import type { SqliteRepairReport } from "./repair-report.js";

/** The default {@link SqliteTaskStoreOptions.maxBytesPerOwner}: 1 GiB. */
export const DEFAULT_SQLITE_MAX_BYTES_PER_OWNER = 1024 ** 3;

/** Options of {@link SqliteTaskStore}. */
export interface SqliteTaskStoreOptions {
  /** The schemas to (de)serialize with: the generated `TaskSchema` and `TaskPushNotificationConfigSchema` (the binder's schemas object fits). */
  readonly schemas: Pick<TaskRuntimeSchemas, "Task" | "TaskPushNotificationConfig">;
  /**
   * How long a write waits for another connection's lock, in ms (default 5000): synchronously at
   * open and close, otherwise on timers without blocking the event loop (see the class comment).
   * A connection handed in gets `PRAGMA busy_timeout` 25 ms (at most this) once the store is open.
   */
  readonly busyTimeoutMs?: number | undefined;
  /** Switch the database to WAL journaling (default true; ignored for `:memory:`). */
  readonly wal?: boolean | undefined;
  /**
   * `PRAGMA synchronous` (default `"NORMAL"`). With WAL, `"NORMAL"` makes a commit survive a crash
   * of the process but not of the operating system or the machine (power loss): the WAL is only
   * fsynced at checkpoints. `"FULL"` fsyncs the WAL at every commit (one fsync per group commit,
   * see the class comment), so that a stored event also survives power loss.
   */
  readonly synchronous?: "NORMAL" | "FULL" | undefined;
  /** The `TaskState` numbering, to tell terminal tasks when purging (default `A2A_TASK_STATE_NUMBERS`; the generated `TaskState` enum fits). */
  readonly states?: TaskStateNumbers | undefined;
  /** Runs {@link SqliteTaskStore.purge} every `intervalMs` (default: never). */
  readonly autoPurge?: SqliteAutoPurgeOptions | undefined;
  /** The clock of `autoPurge.terminalTaskTtlMs`, in ms since the epoch (default `Date.now`); for tests. */
  readonly now?: (() => number) | undefined;
  /**
   * Bytes one owner (tenant + owner key) may store, tasks and push configs together, weighed as
   * `taskBytes` / `valueBytes` count them (about their ProtoJSON size; ../task/task-size.ts).
   * Default {@link DEFAULT_SQLITE_MAX_BYTES_PER_OWNER} (1 GiB); `Infinity` for no quota. A save that
   * would take the owner past it, and grows what the owner stores, is rejected with
   * `TaskStoreFullError` (`limit` "maxBytesPerOwner", `maximum` this) having stored nothing: the
   * task runtime answers the request that needed the room (UnsupportedOperation naming the limit),
   * and an executor's event gets it thrown from its emit. A save that puts a task in a terminal
   * state is never refused. The store never deletes to make room: free it with
   * {@link SqliteTaskStore.purge} (`maxBytesPerOwner` there, or `autoPurge.maxBytesPerOwner` a little below this).
   */
  readonly maxBytesPerOwner?: number | undefined;
  /**
   * Hears what the store repaired, or found it cannot read, in its database (see
   * {@link SqliteRepairReport}): the rows a migration repaired (once per file, at open, after its
   * commit), and rows that do not decode (once per row, when a read meets one). Default: one
   * warning to `logger` with the report's message. Errors it throws are logged and ignored.
   */
  readonly onRepair?: ((report: SqliteRepairReport) => void) | undefined;
  /** Where the store reports (the default `onRepair` and `autoPurge.onError`, failures of those hooks). Default: `console`. */
  readonly logger?: Logger | undefined;
}

/** What {@link SqliteTaskStore.purge} deletes: terminal tasks only, with their push configs. */
export interface SqlitePurgeOptions {
  /** Deletes the terminal tasks whose status time (the time they became terminal) is before this instant (a Date, or ms since the epoch). */
  readonly finishedBefore?: Date | number | undefined;
  /**
   * Then, for every owner (tenant + owner key) storing more than this many bytes (tasks and push
   * configs, as counted for {@link SqliteTaskStoreOptions.maxBytesPerOwner}), deletes its oldest
   * terminal tasks (by status time, then save) until it stores at most this many. Tasks that are
   * not terminal count but are never deleted, so more may remain.
   */
  readonly maxBytesPerOwner?: number | undefined;
  /**
   * Then deletes the oldest terminal tasks (by status time, then save) until at most this many
   * tasks remain in the database, over all tenants and owners. Tasks that are not terminal count
   * but are never deleted, so more may remain.
   */
  readonly maxTasks?: number | undefined;
}

/** The timer of {@link SqliteTaskStoreOptions.autoPurge}. */
export interface SqliteAutoPurgeOptions {
  /** Time between purges, in ms (≥ 1000). The timer is unref'd and stops at `close()`. */
  readonly intervalMs: number;
  /** Purges the terminal tasks that became terminal more than this many ms ago. */
  readonly terminalTaskTtlMs?: number | undefined;
  /** Purges the oldest terminal tasks of each owner storing more than this many bytes (see {@link SqlitePurgeOptions.maxBytesPerOwner}). */
  readonly maxBytesPerOwner?: number | undefined;
  /** Purges the oldest terminal tasks beyond this many tasks in all (see {@link SqlitePurgeOptions.maxTasks}). */
  readonly maxTasks?: number | undefined;
  /** Called with a purge's error (default: an error to the store's `logger`); the timer keeps running. */
  readonly onError?: ((error: unknown) => void) | undefined;
}

/** Checks {@link SqliteTaskStoreOptions.maxBytesPerOwner} (an integer > 0 or Infinity; RangeError otherwise) and returns it. */
export function checkQuota(max: number): number {
  if (!(max === Number.POSITIVE_INFINITY || (Number.isSafeInteger(max) && max > 0)))
    throw new RangeError(`maxBytesPerOwner must be an integer > 0 or Infinity, got ${max}`);
  return max;
}

/** Checks the options of {@link SqliteTaskStoreOptions.autoPurge}; throws RangeError. */
export function checkAutoPurge(auto: SqliteAutoPurgeOptions | undefined): void {
  if (auto === undefined) return;
  if (!(Number.isFinite(auto.intervalMs) && auto.intervalMs >= 1000))
    throw new RangeError(
      `autoPurge.intervalMs must be a number of ms >= 1000, got ${auto.intervalMs}`,
    );
  if (
    auto.terminalTaskTtlMs !== undefined &&
    !(auto.terminalTaskTtlMs >= 0 && Number.isFinite(auto.terminalTaskTtlMs))
  ) {
    throw new RangeError(
      `autoPurge.terminalTaskTtlMs must be a number of ms >= 0, got ${auto.terminalTaskTtlMs}`,
    );
  }
  checkMaxTasks(auto.maxTasks, "autoPurge.maxTasks");
  checkMaxBytes(auto.maxBytesPerOwner, "autoPurge.maxBytesPerOwner");
}

/** Checks the options of a purge; throws RangeError. */
export function checkPurgeOptions(options: SqlitePurgeOptions): void {
  checkMaxTasks(options.maxTasks, "maxTasks");
  checkMaxBytes(options.maxBytesPerOwner, "maxBytesPerOwner");
  const before = options.finishedBefore;
  if (before !== undefined && !Number.isFinite(before instanceof Date ? before.getTime() : before))
    throw new RangeError(
      `finishedBefore must be a Date or ms since the epoch, got ${String(before)}`,
    );
}

function checkMaxTasks(maxTasks: number | undefined, name: string): void {
  if (maxTasks !== undefined && !(Number.isSafeInteger(maxTasks) && maxTasks >= 0))
    throw new RangeError(`${name} must be an integer >= 0, got ${maxTasks}`);
}

function checkMaxBytes(maxBytes: number | undefined, name: string): void {
  if (maxBytes !== undefined && !(Number.isFinite(maxBytes) && maxBytes >= 0))
    throw new RangeError(`${name} must be a number of bytes >= 0, got ${maxBytes}`);
}
