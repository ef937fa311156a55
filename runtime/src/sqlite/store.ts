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
 *
 * Parts: the options are in ./store-options.ts, opening (checks, claim, pragmas, migrations) in
 * ./open-database.ts and ./schema.ts, the statements in ./statements.ts, the transactions in
 * ./transactions.ts and ./purge.ts, the group commit in ./group-commit.ts, waiting for another
 * connection's lock in ./busy.ts.
 */
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import type Database from "better-sqlite3";
import { CONSOLE_LOGGER, type Logger } from "../observe/logger.js";
import { A2A_TASK_STATE_NUMBERS } from "../task/memory-store.js";
import { pushConfigCursor, pushConfigPageToken } from "../task/pagination.js";
import type { PushConfigShape, TaskShape } from "../task/shapes.js";
import { NANOS, readTaskPage, splitNanos, taskQueryStart } from "../task/stored-rows.js";
import { valueBytes } from "../task/size.js";
import type {
  PushConfigPage,
  PushConfigQuery,
  TaskPage,
  TaskQuery,
  TaskScope,
  TaskStore,
} from "../task/store.js";
import { BUSY_RETRY_MS, isBusy, retryWhileBusy } from "./busy.js";
import { GroupCommit } from "./group-commit.js";
import { openTaskDatabase } from "./open-database.js";
import type { SqliteFileClaim } from "./owner-lock.js";
import {
  RepairReporter,
  repairReport,
  type SqliteStoredRowKey,
  warnRepair,
} from "./repair-report.js";
import { type ConfigRow, SqliteStatements, type TaskRow, terminalStatesOf } from "./statements.js";
import {
  checkAutoPurge,
  checkPurgeOptions,
  checkQuota,
  DEFAULT_SQLITE_MAX_BYTES_PER_OWNER,
  type SqliteAutoPurgeOptions,
  type SqlitePurgeOptions,
  type SqliteTaskStoreOptions,
} from "./store-options.js";
import { nonFiniteError, SqliteTransactions, type TaskSave } from "./transactions.js";

export { SqliteTaskStoreError, type SqliteTaskStoreErrorCode } from "./open-errors.js";
export type { SqliteRepairReport, SqliteStoredRowKey } from "./repair-report.js";
export { SQLITE_TASK_STORE_APPLICATION_ID, SQLITE_TASK_STORE_SCHEMA_VERSION } from "./schema.js";
export {
  DEFAULT_SQLITE_MAX_BYTES_PER_OWNER,
  type SqliteAutoPurgeOptions,
  type SqlitePurgeOptions,
  type SqliteTaskStoreOptions,
} from "./store-options.js";

function taskKey(scope: TaskScope, taskId: string): string {
  return JSON.stringify([scope.tenant, scope.owner, taskId]);
}

/** Keeps tasks and push configs in a SQLite database. */
export class SqliteTaskStore implements TaskStore {
  readonly #db: Database.Database;
  readonly #ownsDb: boolean;
  /** This store's claim on its database file (none for an in-memory database): no other task store opens the file while it is held. */
  readonly #claim: SqliteFileClaim | undefined;
  readonly #schemas: SqliteTaskStoreOptions["schemas"];
  readonly #statements: SqliteStatements;
  readonly #transactions: SqliteTransactions;
  /** Task saves waiting for the next group commit, by task key. */
  readonly #commits: GroupCommit<TaskSave>;
  readonly #repairs: RepairReporter;
  readonly #busyTimeoutMs: number;
  #purgeTimer: ReturnType<typeof setInterval> | undefined;
  #closing = false;

  /**
   * Opens (creating or migrating) the task store in the database file `path` (`":memory:"`
   * for a private in-memory one), or in an open better-sqlite3 connection.
   * Throws {@link SqliteTaskStoreError} when the file cannot be a task store.
   */
  constructor(path: string | Database.Database, options: SqliteTaskStoreOptions) {
    this.#schemas = options.schemas;
    const logger = options.logger ?? CONSOLE_LOGGER;
    this.#repairs = new RepairReporter(
      options.onRepair ?? ((report) => warnRepair(report, logger)),
      logger,
    );
    const maxBytesPerOwner = checkQuota(
      options.maxBytesPerOwner ?? DEFAULT_SQLITE_MAX_BYTES_PER_OWNER,
    );
    const states = options.states ?? A2A_TASK_STATE_NUMBERS;
    // The option checks throw RangeError before the file is touched.
    terminalStatesOf(states);
    checkAutoPurge(options.autoPurge);
    const busyTimeoutMs = Math.max(0, Math.trunc(options.busyTimeoutMs ?? 5000));
    this.#busyTimeoutMs = busyTimeoutMs;
    const opened = openTaskDatabase(path, { ...options, busyTimeoutMs }, (db) => {
      const statements = new SqliteStatements(db, states);
      return {
        statements,
        transactions: new SqliteTransactions(db, statements, {
          schemas: options.schemas,
          states,
          maxBytesPerOwner,
        }),
      };
    });
    this.#db = opened.db;
    this.#ownsDb = opened.ownsDb;
    this.#claim = opened.claim;
    this.#statements = opened.prepared.statements;
    this.#transactions = opened.prepared.transactions;
    this.#commits = new GroupCommit({
      commit: this.#transactions.saveTasks,
      isBusy,
      busyTimeoutMs,
      retryMs: BUSY_RETRY_MS,
    });
    const migration = opened.migration;
    if (migration !== undefined) {
      if (migration.repaired.tasks.length + migration.repaired.pushConfigs.length > 0)
        this.#repairs.report(
          repairReport("repaired", migration.repaired.tasks, migration.repaired.pushConfigs),
        );
      this.#repairs.undecodable(migration.undecodable.tasks, migration.undecodable.pushConfigs);
    }
    if (options.autoPurge !== undefined)
      this.#purgeTimer = this.#startAutoPurge(options.autoPurge, options.now ?? Date.now, logger);
  }

  /** The `autoPurge` timer (unref'd). */
  #startAutoPurge(
    auto: SqliteAutoPurgeOptions,
    now: () => number,
    logger: Logger,
  ): ReturnType<typeof setInterval> {
    const onError =
      auto.onError ??
      ((error: unknown) => logger.error("SqliteTaskStore: automatic purge failed", error));
    const timer = setInterval(() => {
      try {
        const ttl = auto.terminalTaskTtlMs;
        this.#purgeNow({
          finishedBefore: ttl === undefined ? undefined : now() - ttl,
          maxBytesPerOwner: auto.maxBytesPerOwner,
          maxTasks: auto.maxTasks,
        });
      } catch (e) {
        onError(e);
      }
    }, auto.intervalMs);
    timer.unref?.();
    return timer;
  }

  /** Decodes a stored task, or reports it (once) and throws an error saying it is damaged. */
  #decodeTask(scope: TaskScope, taskId: string, data: Uint8Array): TaskShape {
    try {
      return fromBinary(this.#schemas.Task, data);
    } catch (e) {
      this.#repairs.undecodable([{ tenant: scope.tenant, owner: scope.owner, taskId }]);
      throw new Error(
        `SqliteTaskStore: the stored task ${JSON.stringify(taskId)} does not decode (a damaged row?)`,
        { cause: e },
      );
    }
  }

  /** {@inheritDoc task!TaskStore.getTask} */
  async getTask(scope: TaskScope, taskId: string): Promise<TaskShape | undefined> {
    if (this.#commits.has(taskKey(scope, taskId))) this.#commits.flush();
    const row = this.#statements.getTask.get(scope.tenant, scope.owner, taskId) as
      | { data: Uint8Array }
      | undefined;
    return row === undefined ? undefined : this.#decodeTask(scope, taskId, row.data);
  }

  /** {@inheritDoc task!TaskStore.saveTask} */
  saveTask(scope: TaskScope, task: TaskShape): Promise<void> {
    return this.#commits.add(taskKey(scope, task.id), { scope, task });
  }

  /** Runs a synchronous write, retrying on a timer while another connection holds the lock, for up to `busyTimeoutMs`. */
  #write<T>(run: () => T): Promise<T> {
    return retryWhileBusy(run, this.#busyTimeoutMs, () => this.#closing);
  }

  /** {@inheritDoc task!TaskStore.listTasks} */
  async listTasks(scope: TaskScope, query: TaskQuery): Promise<TaskPage> {
    this.#commits.flush();
    const { since, fingerprint, after } = taskQueryStart(query);
    const statements = this.#statements.listTasks(
      query.contextId !== "",
      query.state !== undefined,
      since !== undefined,
      after !== undefined,
    );
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
    const page = this.#transactions.readPage(() => {
      const totalSize = Number(statements.count.get(...filters));
      // Rows are read (and decoded) one by one: a page cut short by its byte budget reads at most one task past it.
      const rows = statements.page.iterate(
        ...filters,
        ...cursor,
        query.pageSize + 1,
      ) as IterableIterator<TaskRow>;
      const { tasks, nextPageToken } = readTaskPage(
        rows,
        query,
        fingerprint,
        (row) => {
          try {
            return fromBinary(this.#schemas.Task, row.data);
          } catch {
            // A damaged row never breaks the list: skipped (the page continues after it), reported.
            undecodable.push({ tenant: scope.tenant, owner: scope.owner, taskId: row.id });
            return undefined;
          }
        },
        (row) => ({ time: row.status_seconds * NANOS + row.status_nanos, seq: Number(row.seq) }),
      );
      return { tasks, nextPageToken, totalSize };
    });
    if (undecodable.length > 0) this.#repairs.undecodable(undecodable);
    return page;
  }

  /** {@inheritDoc task!TaskStore.getPushConfig} */
  async getPushConfig(
    scope: TaskScope,
    taskId: string,
    configId: string,
  ): Promise<PushConfigShape | undefined> {
    // Push configs are written at once (savePushConfig), never batched: reading them needs no flush of pending task saves.
    const row = this.#statements.getConfig.get(scope.tenant, scope.owner, taskId, configId) as
      | { data: Uint8Array }
      | undefined;
    if (row === undefined) return undefined;
    try {
      return fromBinary(this.#schemas.TaskPushNotificationConfig, row.data);
    } catch (e) {
      this.#repairs.undecodable(
        [],
        [{ tenant: scope.tenant, owner: scope.owner, taskId, configId }],
      );
      throw new Error(
        `SqliteTaskStore: the stored push config ${JSON.stringify(configId)} of task ${JSON.stringify(taskId)} does not decode (a damaged row?)`,
        { cause: e },
      );
    }
  }

  /**
   * {@inheritDoc task!TaskStore.savePushConfig}
   * @throws `TaskStoreFullError` (a rejection) past {@link SqliteTaskStoreOptions.maxBytesPerOwner}, and a RangeError for a
   * config holding a non-finite number in a Value.
   */
  async savePushConfig(scope: TaskScope, config: PushConfigShape): Promise<void> {
    this.#commits.flush();
    const bytes = valueBytes(config);
    if (Number.isNaN(bytes))
      throw nonFiniteError(`push config ${JSON.stringify(config.id)}`, config);
    const data = toBinary(this.#schemas.TaskPushNotificationConfig, config);
    await this.#write(() => this.#transactions.savePushConfig(scope, config, data, bytes));
  }

  /** {@inheritDoc task!TaskStore.listPushConfigs} */
  async listPushConfigs(
    scope: TaskScope,
    taskId: string,
    query: PushConfigQuery,
  ): Promise<PushConfigPage> {
    // As getPushConfig: no flush (the push sender lists a task's configs for every event; a flush would cut each group commit short).
    const afterSeq = pushConfigCursor(taskId, query.pageToken);
    const rows = (
      query.pageSize > 0
        ? this.#statements.listConfigs.all(
            scope.tenant,
            scope.owner,
            taskId,
            afterSeq,
            query.pageSize + 1,
          )
        : this.#statements.listAllConfigs.all(scope.tenant, scope.owner, taskId, afterSeq)
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
    if (undecodable.length > 0) this.#repairs.undecodable([], undecodable);
    return {
      configs,
      nextPageToken:
        page.length < rows.length && last !== undefined
          ? pushConfigPageToken(taskId, Number(last.seq))
          : "",
    };
  }

  /** {@inheritDoc task!TaskStore.deletePushConfig} */
  async deletePushConfig(scope: TaskScope, taskId: string, configId: string): Promise<void> {
    this.#commits.flush();
    await this.#write(() =>
      this.#statements.deleteConfig.run(scope.tenant, scope.owner, taskId, configId),
    );
  }

  /**
   * Not part of {@link TaskStore} (the runtime never deletes tasks): deletes the task and,
   * in the same transaction, its push configs. Does nothing when it does not exist.
   */
  async deleteTask(scope: TaskScope, taskId: string): Promise<void> {
    this.#commits.flush();
    await this.#write(() => this.#transactions.deleteTask(scope, taskId));
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
    this.#commits.flush();
    return this.#write(() => this.#transactions.purge(options));
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
  async failInterruptedTasks(
    text = "The agent restarted while this task was in progress; send the request again.",
  ): Promise<number> {
    this.#commits.flush();
    const undecodable: SqliteStoredRowKey[] = [];
    const failed = await this.#write(() => {
      undecodable.length = 0; // a retry (another connection's lock) starts over
      return this.#transactions.failInterrupted(text, undecodable);
    });
    // A damaged row is left as it is (and reported): it cannot be read, so not marked either.
    if (undecodable.length > 0) this.#repairs.undecodable(undecodable);
    return failed;
  }

  /** The `autoPurge` timer's purge: synchronous, so a lock held by another connection fails it (reported to `onError`; the next interval tries again). */
  #purgeNow(options: SqlitePurgeOptions): number {
    checkPurgeOptions(options);
    this.#commits.flush();
    return this.#transactions.purge(options);
  }

  /**
   * Closes the connection when the store opened it (a connection handed in stays open), stops
   * `autoPurge`, and releases the store's claim on its file (another task store may open it then). Idempotent.
   */
  close(): void {
    if (this.#purgeTimer !== undefined) clearInterval(this.#purgeTimer);
    this.#purgeTimer = undefined;
    this.#closing = true;
    const open = this.#db.open;
    // The last commit waits for a lock as long as opening did (synchronously: nothing is served any more), then fails its saves.
    if (open && this.#commits.size > 0) this.#db.pragma(`busy_timeout = ${this.#busyTimeoutMs}`);
    this.#commits.close(open);
    if (this.#ownsDb && this.#db.open) this.#db.close();
    this.#claim?.release();
  }
}
