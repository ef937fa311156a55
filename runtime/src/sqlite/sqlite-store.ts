// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * A {@link TaskStore} on SQLite through `better-sqlite3` (an optional dependency: only
 * agents that import this file need it installed).
 *
 * Tasks and push configs are stored as protobuf binary BLOBs (`toBinary` / `fromBinary`
 * with the schemas handed in), next to the indexed columns every query runs on:
 *
 * - `tasks (tenant, owner, id)`: `context_id`, `state`, the status time as normalized
 *   `status_seconds` / `status_nanos`, and `seq`, a store-wide save counter that breaks
 *   ties (most recent save first), exactly like {@link InMemoryTaskStore}. ListTasks walks
 *   the index `(tenant, owner, status_seconds DESC, status_nanos DESC, seq DESC)` (or its
 *   `context_id` twin) with keyset cursors from ./pagination.ts; the cursor format is the
 *   in-memory store's, so the two stores page identically.
 * - `push_configs (tenant, owner, task_id, id)`: `seq` is an AUTOINCREMENT rowid kept on
 *   replace, so configs list oldest first (index `(tenant, owner, task_id, seq)`) and a
 *   replaced config keeps its place. The runtime never deletes tasks; the extra
 *   {@link SqliteTaskStore.deleteTask} removes a task with its configs in one transaction.
 * - Both carry `bytes`, the row's weight when saved (`taskBytes` of a task, `valueBytes` of a
 *   config: ../task/task-size.ts, the measure every byte budget counts), and
 *   `scope_usage (tenant, owner, bytes)` holds their sum per owner, kept exact by triggers on
 *   every insert, update and delete of either table (so by every writer of the file, purges and
 *   deletes included), which makes the quota check of a save one primary-key read.
 *
 * One task store per file: opening claims the file (./owner-lock.ts: a lock held through
 * SQLite's own file locks in `<file>-lock`, released by the OS when the process dies), and a
 * second store, in this process or another, is refused with `in-use` (several instances share a
 * PostgreSQL store instead: the event fan-out, turn queue and cancellation of a task runtime live
 * in its process). Other connections (backups, the sqlite3 shell, readers) may still open the
 * file: the connection runs in WAL mode with a busy timeout (save counters are drawn inside the write). The schema is versioned with
 * `PRAGMA user_version` and marked with `PRAGMA application_id`. Opening checks the file at
 * once, including that it can be written (an empty write transaction), and throws a
 * {@link SqliteTaskStoreError} whose `code` and message say what is wrong and what to do
 * (./open-errors.ts): not SQLite, damaged (truncated), locked by another connection beyond the
 * busy timeout, a missing directory, not openable, read-only, another application's database, a
 * newer schema, in use by another task store. A write that fails later (disk full, a lock held too long, an I/O error) rejects
 * its call, which the task runtime answers as InternalError without the SQLite message.
 *
 * Locks: better-sqlite3 waits for another connection's lock synchronously, inside SQLite, which
 * would stop the whole agent (every binding, reads too) for as long. So once open, a write waits
 * synchronously for at most 25 ms; while the lock stays taken, its saves stay queued (in order,
 * merged per task) and a timer retries every 20 ms until `busyTimeoutMs` has passed, then they are
 * rejected with the SQLITE_BUSY error. Meanwhile reads are served from what is committed (in WAL
 * mode another connection's write lock does not stop readers). Opening and `close()` still wait
 * synchronously (nothing is served then), as does the `autoPurge` timer's purge (it fails and
 * tries again at the next interval).
 *
 * Group commit: better-sqlite3 is synchronous, so a commit per save would block the event loop
 * once per task event (a task created and completed costs four saves). `saveTask` therefore
 * queues the task and commits every save queued during one event-loop turn in a single
 * `BEGIN IMMEDIATE` transaction, at the end of that turn (`setImmediate`; at once past
 * 256 queued saves); its promise resolves only after that COMMIT returned (a failing save
 * rejects alone, a failing commit rejects every save of the batch). Two saves of one task in
 * one batch are written once, the last one. The write lock is held only during that
 * synchronous commit, never across an await. Every other method first commits what is
 * pending (`getTask` only when the task it reads is pending), so each call sees every save
 * issued before it, as with one commit per save.
 *
 * Durability: the runtime publishes a task event (stream event, SendMessage response, push
 * notification, `onTaskEvent`) only after the `saveTask` of the task it describes resolved,
 * so a client never sees an event that is not committed to the database file: with the
 * default `synchronous: "NORMAL"` it survives a crash of the process (the WAL is written, not
 * yet fsynced) but not a crash of the operating system or a power loss, which may roll back
 * the commits since the last checkpoint; with `synchronous: "FULL"` the WAL is fsynced at every
 * (group) commit, before any of its events is seen, so it survives those too. A save that was
 * still queued when the process died was acknowledged to nobody and no event of it was seen.
 * (bench/crash-safety.mjs checks this with kill -9 under load.) What a crash does lose is work in
 * progress: a task SUBMITTED or WORKING when the process died is found so after a restart, with no
 * executor behind it, until a client cancels it.
 *
 * Retention: nothing is deleted unless asked. {@link SqliteTaskStore.purge} deletes terminal
 * tasks (COMPLETED, FAILED, CANCELED, REJECTED) older than an instant, and/or the oldest of each
 * owner over a number of bytes, and/or the oldest beyond a total count, each with its push
 * configs, in one transaction; the `autoPurge` option runs it on a timer (off by default: this
 * store is the durable one, and the disk is not the process heap). Tasks that are not terminal
 * are never purged.
 *
 * Quota: since it never deletes on its own, the store refuses rather than evicts. A save that
 * would take its owner's (tenant + owner) stored bytes, tasks and push configs, past
 * `maxBytesPerOwner` (default 1 GiB) and grows them is rejected with `TaskStoreFullError`
 * (`limit` "maxBytesPerOwner"), having stored nothing; the other saves of its group commit land.
 * A save that puts a task in a terminal state is never refused (the runtime's own FAILED and
 * CANCELED must land). A task or push config holding a non-finite number in a Value (no JSON form:
 * no binding could ever answer it) is never stored: its save rejects with a RangeError naming
 * the field.
 *
 * Repair: schema version 3 (the migration from 2, once per file, in its transaction) weighs every
 * row and repairs the rows an older version stored with a NaN or ±Infinity in a
 * `google.protobuf.Value` or Struct (binary protobuf holds them; no JSON binding could answer
 * such a task, for every caller, across restarts): each such number becomes the string ProtoJSON
 * writes for a non-finite double ("NaN", "Infinity", "-Infinity"), and `onRepair` (default: a
 * console warning) gets the task ids. A row whose data does not decode at all (damaged) never
 * breaks a list: ListTasks, ListTaskPushNotificationConfigs and `failInterruptedTasks` skip it,
 * GetTask of it fails (for that task alone), and `onRepair` hears of it once; it stays in the file.
 */
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import Database from "better-sqlite3";
import { TaskStoreFullError } from "../task/errors.js";
import { decodePageToken, encodePageToken, pushConfigCursor, pushConfigPageToken, queryFingerprint } from "../task/pagination.js";
import type { PushConfigShape, TaskRuntimeSchemas, TaskShape } from "../task/shapes.js";
import type { PushConfigPage, PushConfigQuery, TaskPage, TaskQuery, TaskScope, TaskStore } from "../task/task-store.js";
import { A2A_TASK_STATE_NUMBERS } from "../task/memory-store.js";
import { NANOS, failedStatus, nanosOf, parseTaskPosition, splitNanos } from "../task/stored-rows.js";
import type { TaskStateNumbers } from "../task/states.js";
import { nonFinitePath, taskBytes, valueBytes } from "../task/task-size.js";
import { MIGRATIONS, type MigrationContext } from "./migrations.js";
import { openErrorOf, SqliteTaskStoreError } from "./open-errors.js";
import { claimDatabaseFile, type SqliteFileClaim } from "./owner-lock.js";
import { repairReport, type SqliteRepairReport, type SqliteStoredRowKey, warnRepair } from "./repair-report.js";
import { CONSOLE_LOGGER, type Logger } from "../logger.js";

/** `PRAGMA application_id` of a task store database ("A2AT"). */
export const SQLITE_TASK_STORE_APPLICATION_ID = 0x41324154;

/** The schema version this code writes (`PRAGMA user_version`). */
export const SQLITE_TASK_STORE_SCHEMA_VERSION = 3;

/** The default {@link SqliteTaskStoreOptions.maxBytesPerOwner}: 1 GiB. */
export const DEFAULT_SQLITE_MAX_BYTES_PER_OWNER = 1024 ** 3;

export { SqliteTaskStoreError, type SqliteTaskStoreErrorCode } from "./open-errors.js";
export type { SqliteRepairReport, SqliteStoredRowKey } from "./repair-report.js";

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

interface TaskRow {
  readonly id: string;
  readonly data: Uint8Array;
  readonly status_seconds: bigint;
  readonly status_nanos: bigint;
  readonly seq: bigint;
}

interface ConfigRow {
  readonly id: string;
  readonly data: Uint8Array;
  readonly seq: bigint;
}

type Stmt = Database.Statement<unknown[], unknown>;

/** A save waiting for the next group commit, with the callers waiting for it. */
interface PendingSave {
  readonly scope: TaskScope;
  readonly task: TaskShape;
  readonly waiters: readonly { readonly resolve: () => void; readonly reject: (error: unknown) => void }[];
}

/** Saves per group commit at most: a longer batch is committed at once, without waiting for the tick to end. */
const MAX_BATCH = 256;

/**
 * How long a write may wait for another connection's lock synchronously (better-sqlite3 sleeps in
 * SQLite, blocking the event loop), in ms. Past it, the write is retried on a timer every
 * {@link BUSY_RETRY_MS} until `busyTimeoutMs` has passed, while the agent keeps serving.
 */
const SYNC_BUSY_WAIT_MS = 25;
const BUSY_RETRY_MS = 20;

/** True for SQLITE_BUSY (and its extended codes): another connection holds the lock. */
function isBusy(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("SQLITE_BUSY");
}

function taskKey(scope: TaskScope, taskId: string): string {
  return JSON.stringify([scope.tenant, scope.owner, taskId]);
}

/** The error of a save of a value that holds a non-finite number in a Value: no JSON binding could ever answer it. */
function nonFiniteError(what: string, value: unknown): RangeError {
  return new RangeError(`${what} holds a NaN or Infinity at ${nonFinitePath(value) ?? "?"}, which JSON cannot express: not stored`);
}

/** Checks {@link SqliteTaskStoreOptions.maxBytesPerOwner}. */
function checkQuota(max: number): number {
  if (!(max === Number.POSITIVE_INFINITY || (Number.isSafeInteger(max) && max > 0))) throw new RangeError(`maxBytesPerOwner must be an integer > 0 or Infinity, got ${max}`);
  return max;
}

/** The header fields and schema size that tell a fresh file, a task store of some version, or another application's database. */
interface SchemaState {
  readonly applicationId: number;
  readonly version: number;
  readonly objects: number;
}

function readSchemaState(db: Database.Database): SchemaState {
  return {
    applicationId: Number(db.pragma("application_id", { simple: true })),
    version: Number(db.pragma("user_version", { simple: true })),
    objects: Number(db.prepare("SELECT COUNT(*) FROM sqlite_schema").pluck().get()),
  };
}

/** Throws "other-application" for a database that is neither fresh nor a task store, "newer-schema" for a task store newer than this code. */
function checkSchemaState(name: string, state: SchemaState): void {
  const fresh = state.applicationId === 0 && state.version === 0 && state.objects === 0;
  if (!fresh && state.applicationId !== SQLITE_TASK_STORE_APPLICATION_ID) {
    throw new SqliteTaskStoreError(`${JSON.stringify(name)} is a SQLite database of another application, not a task store: choose another file`, { code: "other-application" });
  }
  if (state.version > MIGRATIONS.length) {
    throw new SqliteTaskStoreError(`${JSON.stringify(name)} has task store schema version ${state.version}, newer than this code supports (${MIGRATIONS.length}): run a newer version of the agent`, {
      code: "newer-schema",
    });
  }
}

/** Keeps tasks and push configs in a SQLite database. */
export class SqliteTaskStore implements TaskStore {
  readonly #db: Database.Database;
  readonly #ownsDb: boolean;
  /** This store's claim on its database file (none for an in-memory database): no other task store opens the file while it is held. */
  readonly #claim: SqliteFileClaim | undefined;
  readonly #schemas: SqliteTaskStoreOptions["schemas"];
  readonly #getTask: Stmt;
  readonly #saveTask: Stmt;
  readonly #getConfig: Stmt;
  readonly #saveConfig: Stmt;
  readonly #deleteConfig: Stmt;
  readonly #deleteTask: Stmt;
  readonly #deleteTaskConfigs: Stmt;
  readonly #listConfigs: Stmt;
  readonly #listAllConfigs: Stmt;
  /** ListTasks statements per filter combination, prepared on first use and kept. */
  readonly #listStatements = new Map<string, { readonly page: Stmt; readonly count: Stmt }>();
  readonly #readPage: (run: () => TaskPage) => TaskPage;
  readonly #deleteTaskTx: (scope: TaskScope, taskId: string) => void;
  readonly #commitBatch: (batch: readonly PendingSave[], errors: unknown[]) => void;
  /** Saves waiting for the next group commit, by task key, in the order of their (last) save. */
  readonly #pending = new Map<string, PendingSave>();
  #flushScheduled = false;
  readonly #purgeTx: (options: SqlitePurgeOptions) => number;
  readonly #failInterruptedTx: (text: string, undecodable: SqliteStoredRowKey[]) => number;
  readonly #savePushConfigTx: (scope: TaskScope, config: PushConfigShape, data: Uint8Array, bytes: number) => void;
  /** [usage of the scope, bytes of the task] (a task save's quota check). */
  readonly #taskUsage: Stmt;
  readonly #maxBytesPerOwner: number;
  readonly #terminal: ReadonlySet<number>;
  readonly #onRepair: (report: SqliteRepairReport) => void;
  readonly #logger: Logger;
  /** Undecodable rows already reported (each is reported once). */
  readonly #reported = new Set<string>();
  readonly #now: () => number;
  #purgeTimer: ReturnType<typeof setInterval> | undefined;
  readonly #busyTimeoutMs: number;
  /** The next group commit attempt while another connection holds the lock. */
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  /** When the pending saves first found the database locked (their wait is bounded by busyTimeoutMs). */
  #busySince: number | undefined;
  #closing = false;

  /**
   * Opens (creating or migrating) the task store in the database file `path` (`":memory:"`
   * for a private in-memory one), or in an open better-sqlite3 connection.
   * Throws {@link SqliteTaskStoreError} when the file cannot be a task store.
   */
  constructor(path: string | Database.Database, options: SqliteTaskStoreOptions) {
    this.#schemas = options.schemas;
    this.#now = options.now ?? Date.now;
    const logger = options.logger ?? CONSOLE_LOGGER;
    this.#logger = logger;
    this.#onRepair = options.onRepair ?? ((report) => warnRepair(report, logger));
    this.#maxBytesPerOwner = checkQuota(options.maxBytesPerOwner ?? DEFAULT_SQLITE_MAX_BYTES_PER_OWNER);
    const terminalStates = options.states ?? A2A_TASK_STATE_NUMBERS;
    const terminal = terminalStatesOf(terminalStates);
    this.#terminal = new Set([terminalStates.COMPLETED, terminalStates.FAILED, terminalStates.CANCELED, terminalStates.REJECTED]);
    const auto = options.autoPurge;
    if (auto !== undefined) {
      if (!(Number.isFinite(auto.intervalMs) && auto.intervalMs >= 1000)) throw new RangeError(`autoPurge.intervalMs must be a number of ms >= 1000, got ${auto.intervalMs}`);
      if (auto.terminalTaskTtlMs !== undefined && !(auto.terminalTaskTtlMs >= 0 && Number.isFinite(auto.terminalTaskTtlMs))) {
        throw new RangeError(`autoPurge.terminalTaskTtlMs must be a number of ms >= 0, got ${auto.terminalTaskTtlMs}`);
      }
      checkMaxTasks(auto.maxTasks, "autoPurge.maxTasks");
      checkMaxBytes(auto.maxBytesPerOwner, "autoPurge.maxBytesPerOwner");
    }
    const name = typeof path === "string" ? path : path.name;
    const busyTimeoutMs = Math.max(0, Math.trunc(options.busyTimeoutMs ?? 5000));
    this.#busyTimeoutMs = busyTimeoutMs;
    try {
      this.#db = typeof path === "string" ? new Database(path, { timeout: busyTimeoutMs }) : path;
    } catch (e) {
      throw openErrorOf(name, e, busyTimeoutMs);
    }
    this.#ownsDb = typeof path === "string";
    let migration: MigrationContext | undefined;
    try {
      if (typeof path !== "string") this.#db.pragma(`busy_timeout = ${busyTimeoutMs}`);
      // Reading the header first makes a file that is not SQLite fail here, with its name.
      const schema = this.#checkSchema(name);
      // Then the file is claimed before anything changes it: a second task store (another agent process) is refused here, untouched.
      this.#claim = claimDatabaseFile(name, this.#db);
      if (options.wal ?? true) this.#db.pragma("journal_mode = WAL");
      this.#db.pragma(`synchronous = ${options.synchronous === "FULL" ? "FULL" : "NORMAL"}`);
      // A file SQLite could open only for reading (permissions, a read-only mount) fails here, at start, rather than at the first save.
      if (this.#ownsDb && !this.#db.memory) {
        this.#db.exec("BEGIN IMMEDIATE");
        this.#db.exec("ROLLBACK");
      }
      migration = this.#migrate(name, schema);
      const db = this.#db;
      const prepare = (sql: string): Stmt => db.prepare(sql).safeIntegers(true);
      this.#getTask = prepare("SELECT data FROM tasks WHERE tenant = ? AND owner = ? AND id = ?");
      this.#saveTask = prepare(
        `INSERT INTO tasks (tenant, owner, id, context_id, state, status_seconds, status_nanos, seq, data, bytes)
         VALUES (?, ?, ?, ?, ?, ?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM tasks), ?, ?)
         ON CONFLICT (tenant, owner, id) DO UPDATE SET
           context_id = excluded.context_id, state = excluded.state, status_seconds = excluded.status_seconds,
           status_nanos = excluded.status_nanos, seq = excluded.seq, data = excluded.data, bytes = excluded.bytes`,
      );
      const usage = "COALESCE((SELECT bytes FROM scope_usage WHERE tenant = ? AND owner = ?), 0)";
      this.#taskUsage = prepare(`SELECT ${usage}, COALESCE((SELECT bytes FROM tasks WHERE tenant = ? AND owner = ? AND id = ?), 0)`).raw(true);
      const configUsage = prepare(`SELECT ${usage}, COALESCE((SELECT bytes FROM push_configs WHERE tenant = ? AND owner = ? AND task_id = ? AND id = ?), 0)`).raw(true);
      this.#getConfig = prepare("SELECT data FROM push_configs WHERE tenant = ? AND owner = ? AND task_id = ? AND id = ?");
      this.#saveConfig = prepare(
        `INSERT INTO push_configs (tenant, owner, task_id, id, data, bytes) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (tenant, owner, task_id, id) DO UPDATE SET data = excluded.data, bytes = excluded.bytes`,
      );
      this.#deleteConfig = prepare("DELETE FROM push_configs WHERE tenant = ? AND owner = ? AND task_id = ? AND id = ?");
      this.#deleteTask = prepare("DELETE FROM tasks WHERE tenant = ? AND owner = ? AND id = ?");
      this.#deleteTaskConfigs = prepare("DELETE FROM push_configs WHERE tenant = ? AND owner = ? AND task_id = ?");
      this.#listConfigs = prepare("SELECT id, data, seq FROM push_configs WHERE tenant = ? AND owner = ? AND task_id = ? AND seq > ? ORDER BY seq LIMIT ?");
      this.#listAllConfigs = prepare("SELECT id, data, seq FROM push_configs WHERE tenant = ? AND owner = ? AND task_id = ? AND seq > ? ORDER BY seq");
      this.#savePushConfigTx = db.transaction((scope: TaskScope, config: PushConfigShape, data: Uint8Array, bytes: number) => {
        const max = this.#maxBytesPerOwner;
        if (max !== Number.POSITIVE_INFINITY) {
          const [used, old] = (configUsage.get(scope.tenant, scope.owner, scope.tenant, scope.owner, config.taskId, config.id) as bigint[]).map(Number) as [number, number];
          if (bytes > old && used - old + bytes > max) throw quotaError(used - old + bytes, max);
        }
        this.#saveConfig.run(scope.tenant, scope.owner, config.taskId, config.id, data, bytes);
      }).immediate as (scope: TaskScope, config: PushConfigShape, data: Uint8Array, bytes: number) => void;
      // A page and its totalSize come from one snapshot.
      this.#readPage = db.transaction((run: () => TaskPage) => run()).deferred as (run: () => TaskPage) => TaskPage;
      this.#deleteTaskTx = db.transaction((scope: TaskScope, taskId: string) => {
        this.#deleteTaskConfigs.run(scope.tenant, scope.owner, taskId);
        this.#deleteTask.run(scope.tenant, scope.owner, taskId);
      }).immediate as (scope: TaskScope, taskId: string) => void;
      // One group commit: each save is its own statement (a failing one fails alone, as before) unless
      // the failure ended the transaction, which then fails (and rolls back) the whole batch. A save
      // refused (quota, non-finite number) runs no statement: it rejects alone, the others land.
      this.#commitBatch = db.transaction((batch: readonly PendingSave[], errors: unknown[]) => {
        for (let i = 0; i < batch.length; i++) {
          const { scope, task } = batch[i] as PendingSave;
          try {
            const bytes = taskBytes(task);
            if (Number.isNaN(bytes)) {
              errors[i] = nonFiniteError(`task ${JSON.stringify(task.id)}`, task);
              continue;
            }
            const state = task.status?.state ?? 0;
            const refused = this.#overQuota(scope, task.id, state, bytes);
            if (refused !== undefined) {
              errors[i] = refused;
              continue;
            }
            const time = splitNanos(nanosOf(task.status?.timestamp));
            const data = toBinary(this.#schemas.Task, task);
            this.#saveTask.run(scope.tenant, scope.owner, task.id, task.contextId, state, time.seconds, time.nanos, data, bytes);
          } catch (e) {
            if (!db.inTransaction) throw e;
            errors[i] = e;
          }
        }
      }).immediate as (batch: readonly PendingSave[], errors: unknown[]) => void;
      const byAge = prepare(`SELECT rowid, tenant, owner, id FROM tasks WHERE state IN (${terminal}) AND (status_seconds, status_nanos) < (?, ?)`);
      const count = prepare("SELECT COUNT(*) FROM tasks").pluck();
      const oldest = prepare(`SELECT rowid, tenant, owner, id FROM tasks WHERE state IN (${terminal}) ORDER BY status_seconds, status_nanos, seq LIMIT ?`);
      const deleteByRowid = prepare("DELETE FROM tasks WHERE rowid = ?");
      const remove = (rows: readonly PurgeRow[]): number => {
        for (const row of rows) {
          this.#deleteTaskConfigs.run(row.tenant, row.owner, row.id);
          deleteByRowid.run(row.rowid);
        }
        return rows.length;
      };
      const overBytes = prepare("SELECT tenant, owner, bytes FROM scope_usage WHERE bytes > ?");
      // An owner's terminal tasks, oldest first, with what deleting each frees (its push configs too).
      const oldestOfOwner = prepare(
        `SELECT rowid, tenant, owner, id, bytes + (SELECT COALESCE(SUM(p.bytes), 0) FROM push_configs p WHERE p.tenant = t.tenant AND p.owner = t.owner AND p.task_id = t.id) AS freed
         FROM tasks t WHERE tenant = ? AND owner = ? AND state IN (${terminal}) ORDER BY status_seconds, status_nanos, seq`,
      );
      this.#purgeTx = db.transaction((purge: SqlitePurgeOptions): number => {
        let removed = 0;
        if (purge.finishedBefore !== undefined) {
          const ms = purge.finishedBefore instanceof Date ? purge.finishedBefore.getTime() : purge.finishedBefore;
          const before = splitNanos(BigInt(Math.trunc(ms)) * 1_000_000n);
          removed += remove(byAge.all(before.seconds, before.nanos) as PurgeRow[]);
        }
        if (purge.maxBytesPerOwner !== undefined) {
          for (const over of overBytes.all(purge.maxBytesPerOwner) as { tenant: string; owner: string; bytes: bigint }[]) {
            // Reads only as many of the owner's tasks as it deletes (lazily), then deletes them (no write while a read is open).
            let excess = Number(over.bytes) - purge.maxBytesPerOwner;
            const rows: PurgeRow[] = [];
            for (const row of oldestOfOwner.iterate(over.tenant, over.owner) as IterableIterator<PurgeRow & { freed: bigint }>) {
              rows.push(row);
              excess -= Number(row.freed);
              if (excess <= 0) break;
            }
            removed += remove(rows);
          }
        }
        if (purge.maxTasks !== undefined) {
          const excess = Number(count.get()) - purge.maxTasks;
          if (excess > 0) removed += remove(oldest.all(excess) as PurgeRow[]);
        }
        return removed;
      }).immediate as (options: SqlitePurgeOptions) => number;
      const states = options.states ?? A2A_TASK_STATE_NUMBERS;
      for (const n of [states.SUBMITTED, states.WORKING, states.FAILED]) if (!Number.isSafeInteger(n)) throw new RangeError(`states: state numbers must be integers, got ${n}`);
      const interrupted = prepare(`SELECT tenant, owner, id, data FROM tasks WHERE state IN (${states.SUBMITTED}, ${states.WORKING}) ORDER BY seq`);
      this.#failInterruptedTx = db.transaction((text: string, undecodable: SqliteStoredRowKey[]): number => {
        const rows = interrupted.all() as { tenant: string; owner: string; id: string; data: Uint8Array }[];
        let failed = 0;
        for (const row of rows) {
          let task: TaskShape;
          try {
            task = fromBinary(this.#schemas.Task, row.data);
          } catch {
            undecodable.push({ tenant: row.tenant, owner: row.owner, taskId: row.id });
            continue;
          }
          const status = failedStatus(this.#schemas.Task, states.FAILED, task, text, "failInterruptedTasks");
          task.status = status;
          const time = splitNanos(nanosOf(status.timestamp));
          // A terminal save: never refused for the quota. A task stored before version 3 cannot weigh NaN (repaired by the migration).
          const weight = taskBytes(task);
          const bytes = Number.isNaN(weight) ? row.data.byteLength : weight;
          this.#saveTask.run(row.tenant, row.owner, task.id, task.contextId, states.FAILED, time.seconds, time.nanos, toBinary(this.#schemas.Task, task), bytes);
          failed++;
        }
        return failed;
      }).immediate as (text: string, undecodable: SqliteStoredRowKey[]) => number;
      // Opening waited for locks synchronously (there is nothing to serve yet); from now on, writes wait on timers.
      db.pragma(`busy_timeout = ${Math.min(busyTimeoutMs, SYNC_BUSY_WAIT_MS)}`);
    } catch (e) {
      if (this.#ownsDb) this.#db.close();
      this.#claim?.release();
      throw openErrorOf(name, e, busyTimeoutMs);
    }
    if (migration !== undefined) {
      if (migration.repaired.tasks.length + migration.repaired.pushConfigs.length > 0) this.#report(repairReport("repaired", migration.repaired.tasks, migration.repaired.pushConfigs));
      this.#reportUndecodable(migration.undecodable.tasks, migration.undecodable.pushConfigs);
    }
    if (auto !== undefined) {
      const onError = auto.onError ?? ((error: unknown) => this.#logger.error("SqliteTaskStore: automatic purge failed", error));
      this.#purgeTimer = setInterval(() => {
        try {
          const ttl = auto.terminalTaskTtlMs;
          this.#purgeNow({ finishedBefore: ttl === undefined ? undefined : this.#now() - ttl, maxBytesPerOwner: auto.maxBytesPerOwner, maxTasks: auto.maxTasks });
        } catch (e) {
          onError(e);
        }
      }, auto.intervalMs);
      this.#purgeTimer.unref?.();
    }
  }

  /** Reads the application id and schema version (reading the file's header) and checks them. */
  #checkSchema(name: string): SchemaState {
    const state = readSchemaState(this.#db);
    checkSchemaState(name, state);
    return state;
  }

  /**
   * Creates or migrates the schema in one transaction, unless `checked` (the state the check read)
   * is current. Returns what the migration repaired or could not read, when one ran.
   */
  #migrate(name: string, checked: SchemaState): MigrationContext | undefined {
    if (checked.version === MIGRATIONS.length) return undefined;
    const db = this.#db;
    const context: MigrationContext = { schemas: this.#schemas, repaired: { tasks: [], pushConfigs: [] }, undecodable: { tasks: [], pushConfigs: [] } };
    db.transaction(() => {
      // Re-read under the write lock: another program (not a task store: the file is claimed) may have changed it since the check.
      const state = readSchemaState(db);
      checkSchemaState(name, state);
      for (let v = state.version; v < MIGRATIONS.length; v++) {
        const migration = MIGRATIONS[v];
        if (typeof migration === "string") db.exec(migration);
        else migration?.(db, context);
      }
      db.pragma(`application_id = ${SQLITE_TASK_STORE_APPLICATION_ID}`);
      db.pragma(`user_version = ${MIGRATIONS.length}`);
    }).immediate();
    return context;
  }

  /**
   * The refusal of a save of `bytes` for the task `taskId` in `state`, or undefined when it fits:
   * over the quota and growing the owner's bytes, and not terminal. One read of the owner's usage and
   * of the task's stored bytes (two primary-key lookups), inside the group commit's transaction, so
   * it counts the saves of the batch before it.
   */
  #overQuota(scope: TaskScope, taskId: string, state: number, bytes: number): TaskStoreFullError | undefined {
    const max = this.#maxBytesPerOwner;
    if (max === Number.POSITIVE_INFINITY || this.#terminal.has(state)) return undefined;
    const [used, old] = (this.#taskUsage.get(scope.tenant, scope.owner, scope.tenant, scope.owner, taskId) as bigint[]).map(Number) as [number, number];
    return bytes > old && used - old + bytes > max ? quotaError(used - old + bytes, max) : undefined;
  }

  /** Hands a report to `onRepair`; what that throws is logged, never thrown to the caller of the store. */
  #report(report: SqliteRepairReport): void {
    try {
      this.#onRepair(report);
    } catch (e) {
      this.#logger.error("SqliteTaskStore: onRepair failed", e);
    }
  }

  /** Reports the undecodable rows not reported yet. */
  #reportUndecodable(tasks: readonly SqliteStoredRowKey[], pushConfigs: readonly SqliteStoredRowKey[] = []): void {
    const fresh = (rows: readonly SqliteStoredRowKey[]) =>
      rows.filter((row) => {
        const key = JSON.stringify([row.tenant, row.owner, row.taskId, row.configId ?? null]);
        if (this.#reported.has(key)) return false;
        this.#reported.add(key);
        return true;
      });
    const newTasks = fresh(tasks);
    const newConfigs = fresh(pushConfigs);
    if (newTasks.length + newConfigs.length > 0) this.#report(repairReport("undecodable", newTasks, newConfigs));
  }

  /** Decodes a stored task, or reports it (once) and throws an error saying it is damaged. */
  #decodeTask(scope: TaskScope, taskId: string, data: Uint8Array): TaskShape {
    try {
      return fromBinary(this.#schemas.Task, data);
    } catch (e) {
      this.#reportUndecodable([{ tenant: scope.tenant, owner: scope.owner, taskId }]);
      throw new Error(`SqliteTaskStore: the stored task ${JSON.stringify(taskId)} does not decode (a damaged row?)`, { cause: e });
    }
  }

  /** {@inheritDoc task!TaskStore.getTask} */
  async getTask(scope: TaskScope, taskId: string): Promise<TaskShape | undefined> {
    if (this.#pending.has(taskKey(scope, taskId))) this.#flush();
    const row = this.#getTask.get(scope.tenant, scope.owner, taskId) as { data: Uint8Array } | undefined;
    return row === undefined ? undefined : this.#decodeTask(scope, taskId, row.data);
  }

  /** {@inheritDoc task!TaskStore.saveTask} */
  saveTask(scope: TaskScope, task: TaskShape): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const key = taskKey(scope, task.id);
      const earlier = this.#pending.get(key);
      // A second save of a task before the commit replaces the first (the task is serialized once) and
      // moves to the end, so it draws its save counter after the saves issued in between, as it would alone.
      if (earlier !== undefined) this.#pending.delete(key);
      this.#pending.set(key, { scope, task, waiters: [...(earlier?.waiters ?? []), { resolve, reject }] });
      if (this.#pending.size >= MAX_BATCH) this.#flush();
      else if (!this.#flushScheduled && this.#retryTimer === undefined) {
        this.#flushScheduled = true;
        setImmediate(() => {
          this.#flushScheduled = false;
          this.#flush();
        });
      }
    });
  }

  /**
   * Commits the pending saves in one transaction, then settles their promises: resolved once
   * committed, rejected with the save's own error or the transaction's. Never throws.
   * While another connection holds the lock (SQLITE_BUSY after a short synchronous wait), the
   * saves stay pending and a timer retries, until they have waited `busyTimeoutMs`; meanwhile
   * only that timer commits (`force`), other calls read what is committed.
   */
  #flush(force = false): void {
    if (this.#pending.size === 0 || (this.#retryTimer !== undefined && !force)) return;
    const batch = [...this.#pending.values()];
    this.#pending.clear();
    const errors: unknown[] = new Array(batch.length);
    let failure: { error: unknown } | undefined;
    try {
      this.#commitBatch(batch, errors);
    } catch (e) {
      failure = { error: e };
    }
    if (failure !== undefined && isBusy(failure.error) && !this.#closing) {
      // Nothing of the batch was written (BEGIN IMMEDIATE, or a COMMIT that rolled back, found the lock taken).
      this.#busySince ??= Date.now();
      if (Date.now() - this.#busySince < this.#busyTimeoutMs) {
        this.#requeue(batch);
        this.#retryTimer = setTimeout(() => {
          this.#retryTimer = undefined;
          this.#flush(true);
        }, BUSY_RETRY_MS);
        return;
      }
    }
    this.#busySince = undefined;
    if (this.#pending.size > 0 && !this.#flushScheduled) {
      // Saves queued while the batch waited for the lock.
      this.#flushScheduled = true;
      setImmediate(() => {
        this.#flushScheduled = false;
        this.#flush();
      });
    }
    for (let i = 0; i < batch.length; i++) {
      const error = failure !== undefined ? failure.error : errors[i];
      for (const waiter of (batch[i] as PendingSave).waiters) {
        if (failure !== undefined || i in errors) waiter.reject(error);
        else waiter.resolve();
      }
    }
  }

  /** Puts a batch that found the database locked back before the saves queued since, merging saves of one task. */
  #requeue(batch: readonly PendingSave[]): void {
    const newer = [...this.#pending.entries()];
    this.#pending.clear();
    for (const save of batch) this.#pending.set(taskKey(save.scope, save.task.id), save);
    for (const [key, save] of newer) {
      const earlier = this.#pending.get(key);
      if (earlier !== undefined) this.#pending.delete(key);
      this.#pending.set(key, { ...save, waiters: [...(earlier?.waiters ?? []), ...save.waiters] });
    }
  }

  /** Runs a synchronous write, retrying on a timer while another connection holds the lock, for up to `busyTimeoutMs`. */
  async #write<T>(run: () => T): Promise<T> {
    const started = Date.now();
    for (;;) {
      try {
        return run();
      } catch (e) {
        if (!isBusy(e) || this.#closing || Date.now() - started >= this.#busyTimeoutMs) throw e;
        await new Promise((resolve) => setTimeout(resolve, BUSY_RETRY_MS));
      }
    }
  }

  /** {@inheritDoc task!TaskStore.listTasks} */
  async listTasks(scope: TaskScope, query: TaskQuery): Promise<TaskPage> {
    this.#flush();
    const since = query.statusTimestampAfter === undefined ? undefined : nanosOf(query.statusTimestampAfter);
    const fingerprint = queryFingerprint([query.contextId, query.state ?? null, since === undefined ? null : since.toString()]);
    const after = query.pageToken === "" ? undefined : parseTaskPosition(decodePageToken(query.pageToken, fingerprint));
    const statements = this.#listStatementsFor(query.contextId !== "", query.state !== undefined, since !== undefined, after !== undefined);
    const filters: unknown[] = [scope.tenant, scope.owner];
    if (query.contextId !== "") filters.push(query.contextId);
    if (query.state !== undefined) filters.push(query.state);
    if (since !== undefined) {
      const s = splitNanos(since);
      filters.push(s.seconds, s.nanos);
    }
    const cursor: unknown[] = [];
    if (after !== undefined) {
      const a = splitNanos(after.time);
      cursor.push(a.seconds, a.nanos, after.seq);
    }
    const undecodable: SqliteStoredRowKey[] = [];
    const page = this.#readPage(() => {
      const totalSize = Number(statements.count.get(...filters));
      // Rows are read (and decoded) one by one: a page cut short by its byte budget reads at most one task past it.
      const limit = query.pageSize + 1;
      const budget = query.budget;
      const tasks: TaskShape[] = [];
      let weight = 0;
      let read = 0;
      let more = false;
      /** The last row of the page: the next page starts after it. */
      let last: TaskRow | undefined;
      for (const row of statements.page.iterate(...filters, ...cursor, limit) as IterableIterator<TaskRow>) {
        read++;
        if (tasks.length === query.pageSize) {
          more = true;
          break;
        }
        let task: TaskShape;
        try {
          task = fromBinary(this.#schemas.Task, row.data);
        } catch {
          // A damaged row never breaks the list: skipped (the page continues after it), reported.
          undecodable.push({ tenant: scope.tenant, owner: scope.owner, taskId: row.id });
          last = row;
          continue;
        }
        if (budget !== undefined) {
          const size = budget.sizeOf(task);
          if (tasks.length > 0 && weight + size > budget.maxBytes) {
            more = true;
            break;
          }
          weight += size;
        }
        tasks.push(task);
        last = row;
      }
      // Skipped rows took places of the LIMIT: rows may follow.
      if (!more && read === limit && last !== undefined) more = true;
      return {
        tasks,
        nextPageToken: more && last !== undefined ? encodePageToken(fingerprint, { t: (last.status_seconds * NANOS + last.status_nanos).toString(), s: Number(last.seq) }) : "",
        totalSize,
      };
    });
    if (undecodable.length > 0) this.#reportUndecodable(undecodable);
    return page;
  }

  #listStatementsFor(byContext: boolean, byState: boolean, bySince: boolean, withCursor: boolean): { page: Stmt; count: Stmt } {
    const key = `${+byContext}${+byState}${+bySince}${+withCursor}`;
    let statements = this.#listStatements.get(key);
    if (statements === undefined) {
      const where = ["tenant = ?", "owner = ?"];
      if (byContext) where.push("context_id = ?");
      if (byState) where.push("state = ?");
      if (bySince) where.push("(status_seconds, status_nanos) >= (?, ?)");
      const filter = where.join(" AND ");
      const keyset = withCursor ? " AND (status_seconds, status_nanos, seq) < (?, ?, ?)" : "";
      statements = {
        page: this.#db
          .prepare(
            `SELECT id, data, status_seconds, status_nanos, seq FROM tasks WHERE ${filter}${keyset}
             ORDER BY status_seconds DESC, status_nanos DESC, seq DESC LIMIT ?`,
          )
          .safeIntegers(true),
        count: this.#db.prepare(`SELECT COUNT(*) FROM tasks WHERE ${filter}`).pluck().safeIntegers(true),
      };
      this.#listStatements.set(key, statements);
    }
    return statements;
  }

  /** {@inheritDoc task!TaskStore.getPushConfig} */
  async getPushConfig(scope: TaskScope, taskId: string, configId: string): Promise<PushConfigShape | undefined> {
    // Push configs are written at once (savePushConfig), never batched: reading them needs no flush of pending task saves.
    const row = this.#getConfig.get(scope.tenant, scope.owner, taskId, configId) as { data: Uint8Array } | undefined;
    if (row === undefined) return undefined;
    try {
      return fromBinary(this.#schemas.TaskPushNotificationConfig, row.data);
    } catch (e) {
      this.#reportUndecodable([], [{ tenant: scope.tenant, owner: scope.owner, taskId, configId }]);
      throw new Error(`SqliteTaskStore: the stored push config ${JSON.stringify(configId)} of task ${JSON.stringify(taskId)} does not decode (a damaged row?)`, { cause: e });
    }
  }

  /**
   * {@inheritDoc task!TaskStore.savePushConfig}
   * @throws `TaskStoreFullError` (a rejection) past {@link SqliteTaskStoreOptions.maxBytesPerOwner}, and a RangeError for a
   * config holding a non-finite number in a Value.
   */
  async savePushConfig(scope: TaskScope, config: PushConfigShape): Promise<void> {
    this.#flush();
    const bytes = valueBytes(config);
    if (Number.isNaN(bytes)) throw nonFiniteError(`push config ${JSON.stringify(config.id)}`, config);
    const data = toBinary(this.#schemas.TaskPushNotificationConfig, config);
    await this.#write(() => this.#savePushConfigTx(scope, config, data, bytes));
  }

  /** {@inheritDoc task!TaskStore.listPushConfigs} */
  async listPushConfigs(scope: TaskScope, taskId: string, query: PushConfigQuery): Promise<PushConfigPage> {
    // As getPushConfig: no flush (the push sender lists a task's configs for every event; a flush would cut each group commit short).
    const afterSeq = pushConfigCursor(taskId, query.pageToken);
    const rows = (
      query.pageSize > 0 ? this.#listConfigs.all(scope.tenant, scope.owner, taskId, afterSeq, query.pageSize + 1) : this.#listAllConfigs.all(scope.tenant, scope.owner, taskId, afterSeq)
    ) as ConfigRow[];
    const page = query.pageSize > 0 ? rows.slice(0, query.pageSize) : rows;
    const last = page.at(-1);
    const configs: PushConfigShape[] = [];
    const undecodable: SqliteStoredRowKey[] = [];
    for (const row of page) {
      try {
        configs.push(fromBinary(this.#schemas.TaskPushNotificationConfig, row.data));
      } catch {
        // Skipped (the page continues after it), reported: a damaged row never breaks the list.
        undecodable.push({ tenant: scope.tenant, owner: scope.owner, taskId, configId: row.id });
      }
    }
    if (undecodable.length > 0) this.#reportUndecodable([], undecodable);
    return { configs, nextPageToken: page.length < rows.length && last !== undefined ? pushConfigPageToken(taskId, Number(last.seq)) : "" };
  }

  /** {@inheritDoc task!TaskStore.deletePushConfig} */
  async deletePushConfig(scope: TaskScope, taskId: string, configId: string): Promise<void> {
    this.#flush();
    await this.#write(() => this.#deleteConfig.run(scope.tenant, scope.owner, taskId, configId));
  }

  /**
   * Not part of {@link TaskStore} (the runtime never deletes tasks): deletes the task and,
   * in the same transaction, its push configs. Does nothing when it does not exist.
   */
  async deleteTask(scope: TaskScope, taskId: string): Promise<void> {
    this.#flush();
    await this.#write(() => this.#deleteTaskTx(scope, taskId));
  }

  /**
   * Not part of {@link TaskStore}: deletes terminal tasks (COMPLETED, FAILED, CANCELED, REJECTED),
   * each with its push configs, in one transaction after committing the pending saves: first those
   * that became terminal before `finishedBefore`, then the oldest ones of each owner storing more
   * than `maxBytesPerOwner` bytes until it stores at most that, then the oldest ones beyond
   * `maxTasks` tasks in all. Tasks that are not terminal are never deleted. Resolves with how many
   * tasks it deleted. Throws RangeError for a `maxTasks` that is not an integer ≥ 0, a
   * `maxBytesPerOwner` that is not a number ≥ 0 or a `finishedBefore` that is not a time.
   */
  async purge(options: SqlitePurgeOptions): Promise<number> {
    checkPurgeOptions(options);
    this.#flush();
    return this.#write(() => this.#purgeTx(options));
  }

  /**
   * Not part of {@link TaskStore}: marks FAILED every task still SUBMITTED or WORKING, with an agent
   * status message saying why (`text`), in one transaction, and resolves with how many it changed.
   * For the start of a process that is the only user of its database file: a task in those states
   * was being worked on by an executor that died with the previous process (kill -9, a crash, a
   * power loss), and nothing will ever finish it. Tasks waiting for input (INPUT_REQUIRED,
   * AUTH_REQUIRED) are left alone: the next message continues them. The file has no other task
   * store while this one is open (a second one is refused at open, see the class comment), so no
   * other process is working on those tasks. No push notification is sent.
   */
  async failInterruptedTasks(text = "The agent restarted while this task was in progress; send the request again."): Promise<number> {
    this.#flush();
    const undecodable: SqliteStoredRowKey[] = [];
    const failed = await this.#write(() => {
      undecodable.length = 0; // a retry (another connection's lock) starts over
      return this.#failInterruptedTx(text, undecodable);
    });
    // A damaged row is left as it is (and reported): it cannot be read, so not marked either.
    if (undecodable.length > 0) this.#reportUndecodable(undecodable);
    return failed;
  }

  /** The `autoPurge` timer's purge: synchronous, so a lock held by another connection fails it (reported to `onError`; the next interval tries again). */
  #purgeNow(options: SqlitePurgeOptions): number {
    checkPurgeOptions(options);
    this.#flush();
    return this.#purgeTx(options);
  }

  /**
   * Closes the connection when the store opened it (a connection handed in stays open), stops
   * `autoPurge`, and releases the store's claim on its file (another task store may open it then). Idempotent.
   */
  close(): void {
    if (this.#purgeTimer !== undefined) clearInterval(this.#purgeTimer);
    this.#purgeTimer = undefined;
    if (this.#retryTimer !== undefined) clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    this.#closing = true;
    if (this.#db.open) {
      // The last commit waits for a lock as long as opening did (synchronously: nothing is served any more), then fails its saves.
      if (this.#pending.size > 0) this.#db.pragma(`busy_timeout = ${this.#busyTimeoutMs}`);
      this.#flush(true);
    }
    if (this.#ownsDb && this.#db.open) this.#db.close();
    this.#claim?.release();
  }
}

interface PurgeRow {
  readonly rowid: bigint;
  readonly tenant: string;
  readonly owner: string;
  readonly id: string;
}

/** The terminal state numbers as an SQL list (integers checked: they are inlined in the statements). */
function terminalStatesOf(states: TaskStateNumbers): string {
  const terminal = [states.COMPLETED, states.FAILED, states.CANCELED, states.REJECTED];
  for (const n of terminal) if (!Number.isSafeInteger(n)) throw new RangeError(`states: terminal state numbers must be integers, got ${n}`);
  return terminal.join(", ");
}

function checkPurgeOptions(options: SqlitePurgeOptions): void {
  checkMaxTasks(options.maxTasks, "maxTasks");
  checkMaxBytes(options.maxBytesPerOwner, "maxBytesPerOwner");
  const before = options.finishedBefore;
  if (before !== undefined && !Number.isFinite(before instanceof Date ? before.getTime() : before)) throw new RangeError(`finishedBefore must be a Date or ms since the epoch, got ${String(before)}`);
}

function checkMaxTasks(maxTasks: number | undefined, name: string): void {
  if (maxTasks !== undefined && !(Number.isSafeInteger(maxTasks) && maxTasks >= 0)) throw new RangeError(`${name} must be an integer >= 0, got ${maxTasks}`);
}

function checkMaxBytes(maxBytes: number | undefined, name: string): void {
  if (maxBytes !== undefined && !(Number.isFinite(maxBytes) && maxBytes >= 0)) throw new RangeError(`${name} must be a number of bytes >= 0, got ${maxBytes}`);
}

/** The refusal of a save that would take its owner to `total` bytes, past `max`. */
function quotaError(total: number, max: number): TaskStoreFullError {
  return new TaskStoreFullError(`this owner's tasks and push configs would take ${total} bytes in the task store, more than maxBytesPerOwner (${max})`, "maxBytesPerOwner", max);
}
