// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The transactions of the SQLite task store over its statements (./statements.ts): the group
 * commit of task saves (with the quota and non-finite checks of each save), a push config's save,
 * a task's deletion, a ListTasks snapshot, the purge (./purge.ts) and `failInterruptedTasks`. Each
 * is synchronous; a write transaction starts with `BEGIN IMMEDIATE`.
 */
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import type Database from "better-sqlite3";
import { TaskStoreFullError } from "../task/errors.js";
import type { PushConfigShape, TaskShape } from "../task/shapes.js";
import type { TaskStateNumbers } from "../task/states.js";
import { failedStatus, nanosOf, splitNanos } from "../task/stored-rows.js";
import { nonFinitePath, taskBytes } from "../task/size.js";
import type { TaskPage, TaskScope } from "../task/store.js";
import { purgeTransaction } from "./purge.js";
import type { SqliteStoredRowKey } from "./repair-report.js";
import type { SqliteStatements } from "./statements.js";
import type { SqlitePurgeOptions, SqliteTaskStoreOptions } from "./store-options.js";

/** A task save of a group commit. */
export interface TaskSave {
  readonly scope: TaskScope;
  readonly task: TaskShape;
}

/** What the transactions need besides the statements. */
export interface SqliteTransactionsOptions {
  readonly schemas: SqliteTaskStoreOptions["schemas"];
  /** The state numbering (terminal saves skip the quota; `failInterrupted` reads SUBMITTED, WORKING, FAILED). */
  readonly states: TaskStateNumbers;
  /** The quota of an owner's bytes (`Infinity` for none). */
  readonly maxBytesPerOwner: number;
}

/** The store's transactions on one connection. */
export class SqliteTransactions {
  /**
   * One group commit: each save is its own statement (a failing one fails alone, its error in
   * `errors`) unless the failure ended the transaction, which then fails (and rolls back) the whole
   * batch. A save refused (quota, non-finite number) runs no statement: it rejects alone, the others land.
   */
  readonly saveTasks: (batch: readonly TaskSave[], errors: unknown[]) => void;
  /** Saves a push config (`data` its binary, `bytes` its weight), refused past the owner's quota when it grows. */
  readonly savePushConfig: (
    scope: TaskScope,
    config: PushConfigShape,
    data: Uint8Array,
    bytes: number,
  ) => void;
  /** Deletes a task and its push configs. */
  readonly deleteTask: (scope: TaskScope, taskId: string) => void;
  /** Runs a read in one snapshot (a page and its totalSize agree). */
  readonly readPage: (run: () => TaskPage) => TaskPage;
  /** {@link purgeTransaction}. */
  readonly purge: (options: SqlitePurgeOptions) => number;
  /** Marks FAILED, with the status message `text`, every task SUBMITTED or WORKING; notes in `undecodable` the rows it cannot read. */
  readonly failInterrupted: (text: string, undecodable: SqliteStoredRowKey[]) => number;
  readonly #statements: SqliteStatements;
  readonly #maxBytesPerOwner: number;
  readonly #terminal: ReadonlySet<number>;

  /** Builds the transactions on `db` over `statements`. */
  constructor(
    db: Database.Database,
    statements: SqliteStatements,
    options: SqliteTransactionsOptions,
  ) {
    const { schemas, states } = options;
    this.#statements = statements;
    this.#maxBytesPerOwner = options.maxBytesPerOwner;
    this.#terminal = new Set([states.COMPLETED, states.FAILED, states.CANCELED, states.REJECTED]);
    this.savePushConfig = db.transaction(
      (scope: TaskScope, config: PushConfigShape, data: Uint8Array, bytes: number) => {
        const max = this.#maxBytesPerOwner;
        if (max !== Number.POSITIVE_INFINITY) {
          const [used, old] = (
            statements.configUsage.get(
              scope.tenant,
              scope.owner,
              scope.tenant,
              scope.owner,
              config.taskId,
              config.id,
            ) as bigint[]
          ).map(Number) as [number, number];
          if (bytes > old && used - old + bytes > max) throw quotaError(used - old + bytes, max);
        }
        statements.saveConfig.run(scope.tenant, scope.owner, config.taskId, config.id, data, bytes);
      },
    ).immediate as (
      scope: TaskScope,
      config: PushConfigShape,
      data: Uint8Array,
      bytes: number,
    ) => void;
    this.readPage = db.transaction((run: () => TaskPage) => run()).deferred as (
      run: () => TaskPage,
    ) => TaskPage;
    this.deleteTask = db.transaction((scope: TaskScope, taskId: string) => {
      statements.deleteTaskConfigs.run(scope.tenant, scope.owner, taskId);
      statements.deleteTask.run(scope.tenant, scope.owner, taskId);
    }).immediate as (scope: TaskScope, taskId: string) => void;
    this.saveTasks = db.transaction((batch: readonly TaskSave[], errors: unknown[]) => {
      for (let i = 0; i < batch.length; i++) {
        const { scope, task } = batch[i] as TaskSave;
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
          const data = toBinary(schemas.Task, task);
          statements.saveTask.run(
            scope.tenant,
            scope.owner,
            task.id,
            task.contextId,
            state,
            time.seconds,
            time.nanos,
            data,
            bytes,
          );
        } catch (e) {
          if (!db.inTransaction) throw e;
          errors[i] = e;
        }
      }
    }).immediate as (batch: readonly TaskSave[], errors: unknown[]) => void;
    this.purge = purgeTransaction(db, statements);
    this.failInterrupted = db.transaction(
      (text: string, undecodable: SqliteStoredRowKey[]): number => {
        const rows = statements.interrupted.all() as {
          tenant: string;
          owner: string;
          id: string;
          data: Uint8Array;
        }[];
        let failed = 0;
        for (const row of rows) {
          let task: TaskShape;
          try {
            task = fromBinary(schemas.Task, row.data);
          } catch {
            undecodable.push({ tenant: row.tenant, owner: row.owner, taskId: row.id });
            continue;
          }
          const status = failedStatus(
            schemas.Task,
            states.FAILED,
            task,
            text,
            "failInterruptedTasks",
          );
          task.status = status;
          const time = splitNanos(nanosOf(status.timestamp));
          // A terminal save: never refused for the quota. A task stored before version 3 cannot weigh NaN (repaired by the migration).
          const weight = taskBytes(task);
          const bytes = Number.isNaN(weight) ? row.data.byteLength : weight;
          statements.saveTask.run(
            row.tenant,
            row.owner,
            task.id,
            task.contextId,
            states.FAILED,
            time.seconds,
            time.nanos,
            toBinary(schemas.Task, task),
            bytes,
          );
          failed++;
        }
        return failed;
      },
    ).immediate as (text: string, undecodable: SqliteStoredRowKey[]) => number;
  }

  /**
   * The refusal of a save of `bytes` for the task `taskId` in `state`, or undefined when it fits:
   * over the quota and growing the owner's bytes, and not terminal. One read of the owner's usage and
   * of the task's stored bytes (two primary-key lookups), inside the group commit's transaction, so
   * it counts the saves of the batch before it.
   */
  #overQuota(
    scope: TaskScope,
    taskId: string,
    state: number,
    bytes: number,
  ): TaskStoreFullError | undefined {
    const max = this.#maxBytesPerOwner;
    if (max === Number.POSITIVE_INFINITY || this.#terminal.has(state)) return undefined;
    const [used, old] = (
      this.#statements.taskUsage.get(
        scope.tenant,
        scope.owner,
        scope.tenant,
        scope.owner,
        taskId,
      ) as bigint[]
    ).map(Number) as [number, number];
    return bytes > old && used - old + bytes > max
      ? quotaError(used - old + bytes, max)
      : undefined;
  }
}

/** The error of a save of a value that holds a non-finite number in a Value: no JSON binding could ever answer it. */
export function nonFiniteError(what: string, value: unknown): RangeError {
  return new RangeError(
    `${what} holds a NaN or Infinity at ${nonFinitePath(value) ?? "?"}, which JSON cannot express: not stored`,
  );
}

/** The refusal of a save that would take its owner to `total` bytes, past `max`. */
function quotaError(total: number, max: number): TaskStoreFullError {
  return new TaskStoreFullError(
    `this owner's tasks and push configs would take ${total} bytes in the task store, more than maxBytesPerOwner (${max})`,
    "maxBytesPerOwner",
    max,
  );
}
