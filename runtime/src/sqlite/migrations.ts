// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The schema of the SQLite task store, as the migrations that build it (`PRAGMA user_version` is
 * the number of migrations applied). The store runs the missing ones at open, all in one
 * transaction. A migration is SQL, or a function for one that must read rows with the schemas
 * (decode, weigh, repair).
 */
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import type Database from "better-sqlite3";
import type { TaskRuntimeSchemas } from "../task/shapes.js";
import { taskBytes, valueBytes } from "../task/size.js";
import { replaceNonFinite } from "./non-finite-repair.js";
import type { SqliteStoredRowKey } from "./repair-report.js";

/** What a migration function gets: the schemas of the rows, and where to note what it repaired or could not read. */
export interface MigrationContext {
  readonly schemas: Pick<TaskRuntimeSchemas, "Task" | "TaskPushNotificationConfig">;
  readonly repaired: {
    readonly tasks: SqliteStoredRowKey[];
    readonly pushConfigs: SqliteStoredRowKey[];
  };
  readonly undecodable: {
    readonly tasks: SqliteStoredRowKey[];
    readonly pushConfigs: SqliteStoredRowKey[];
  };
}

/** One step of the schema: SQL, or a function run inside the migration's transaction. */
export type Migration = string | ((db: Database.Database, context: MigrationContext) => void);

/**
 * Per-owner usage, kept exact by triggers: every write of a task or push config row, by this code,
 * another process on the same file or a sqlite3 shell, adds its `bytes` change to its scope's row
 * in the same statement, so `scope_usage` never drifts from `SUM(bytes)` and the quota check at
 * each save is one primary-key read. A scope whose usage falls to 0 by a delete (or move) loses its row.
 */
function usageTriggers(table: "tasks" | "push_configs"): string {
  const add = (row: "NEW" | "OLD", sign: "" | "-") =>
    `INSERT INTO scope_usage (tenant, owner, bytes) VALUES (${row}.tenant, ${row}.owner, ${sign}${row}.bytes)
       ON CONFLICT (tenant, owner) DO UPDATE SET bytes = bytes + excluded.bytes;`;
  const dropEmpty =
    "DELETE FROM scope_usage WHERE tenant = OLD.tenant AND owner = OLD.owner AND bytes = 0;";
  return `
  CREATE TRIGGER ${table}_usage_insert AFTER INSERT ON ${table} BEGIN ${add("NEW", "")} END;
  CREATE TRIGGER ${table}_usage_delete AFTER DELETE ON ${table} BEGIN ${add("OLD", "-")} ${dropEmpty} END;
  CREATE TRIGGER ${table}_usage_update AFTER UPDATE OF bytes ON ${table}
    WHEN NEW.tenant = OLD.tenant AND NEW.owner = OLD.owner AND NEW.bytes <> OLD.bytes BEGIN
    INSERT INTO scope_usage (tenant, owner, bytes) VALUES (NEW.tenant, NEW.owner, NEW.bytes - OLD.bytes)
      ON CONFLICT (tenant, owner) DO UPDATE SET bytes = bytes + excluded.bytes;
  END;
  CREATE TRIGGER ${table}_usage_move AFTER UPDATE OF tenant, owner ON ${table}
    WHEN NEW.tenant <> OLD.tenant OR NEW.owner <> OLD.owner BEGIN ${add("OLD", "-")} ${dropEmpty} ${add("NEW", "")} END;
  `;
}

/** Rows read per query while backfilling (by rowid: only one row's data is in memory at a time). */
const BACKFILL_CHUNK = 256;

/**
 * Sets `bytes` of every row of `table` (the weight its save would have counted) and repairs the
 * rows that hold a non-finite number in a Value; notes repaired and undecodable rows.
 */
function backfill(
  db: Database.Database,
  context: MigrationContext,
  kind: "tasks" | "pushConfigs",
): void {
  const table = kind === "tasks" ? "tasks" : "push_configs";
  const taskColumn = kind === "tasks" ? "id" : "task_id";
  const configColumn = kind === "tasks" ? "NULL" : "id";
  const schema =
    kind === "tasks" ? context.schemas.Task : context.schemas.TaskPushNotificationConfig;
  const weigh = (message: object): number =>
    kind === "tasks" ? taskBytes(message as never) : valueBytes(message);
  const rowids = db
    .prepare(`SELECT rowid FROM ${table} WHERE rowid > ? ORDER BY rowid LIMIT ${BACKFILL_CHUNK}`)
    .pluck()
    .safeIntegers(true);
  const read = db
    .prepare(
      `SELECT tenant, owner, ${taskColumn} AS taskId, ${configColumn} AS configId, data FROM ${table} WHERE rowid = ?`,
    )
    .safeIntegers(true);
  const setBytes = db.prepare(`UPDATE ${table} SET bytes = ? WHERE rowid = ?`);
  const setRepaired = db.prepare(`UPDATE ${table} SET bytes = ?, data = ? WHERE rowid = ?`);
  let after = -(2n ** 63n);
  for (;;) {
    const chunk = rowids.all(after) as bigint[];
    for (const rowid of chunk) {
      const row = read.get(rowid) as {
        tenant: string;
        owner: string;
        taskId: string;
        configId: string | null;
        data: Uint8Array;
      };
      const key: SqliteStoredRowKey = {
        tenant: row.tenant,
        owner: row.owner,
        taskId: row.taskId,
        ...(row.configId === null ? {} : { configId: row.configId }),
      };
      let message: object;
      try {
        message = fromBinary(schema, row.data);
      } catch {
        // Kept, weighed by its stored size; reads skip it (and report it).
        context.undecodable[kind].push(key);
        setBytes.run(row.data.byteLength, rowid);
        continue;
      }
      const bytes = weigh(message);
      if (!Number.isNaN(bytes)) {
        setBytes.run(bytes, rowid);
        continue;
      }
      if (replaceNonFinite(schema, message) === 0) {
        // Non-finite only where JSON has a form for it (a double field): nothing to repair, weigh the stored size.
        setBytes.run(row.data.byteLength, rowid);
        continue;
      }
      const data = toBinary(schema, message as never);
      // Weighed from a fresh decoding: task weights are cached by object, and this one was weighed before the repair.
      const repaired = weigh(fromBinary(schema, data));
      setRepaired.run(Number.isNaN(repaired) ? data.byteLength : repaired, data, rowid);
      context.repaired[kind].push(key);
    }
    if (chunk.length < BACKFILL_CHUNK) return;
    after = chunk[chunk.length - 1] as bigint;
  }
}

/**
 * Migrations, in order: `MIGRATIONS[i]` takes the schema from version `i` to `i + 1`.
 * Append only; never edit a released step.
 */
export const MIGRATIONS: readonly Migration[] = [
  `
  CREATE TABLE tasks (
    tenant TEXT NOT NULL,
    owner TEXT NOT NULL,
    id TEXT NOT NULL,
    context_id TEXT NOT NULL,
    state INTEGER NOT NULL,
    status_seconds INTEGER NOT NULL,
    status_nanos INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (tenant, owner, id)
  ) WITHOUT ROWID;
  CREATE INDEX tasks_by_time ON tasks (tenant, owner, status_seconds DESC, status_nanos DESC, seq DESC);
  CREATE INDEX tasks_by_context_time ON tasks (tenant, owner, context_id, status_seconds DESC, status_nanos DESC, seq DESC);
  CREATE UNIQUE INDEX tasks_by_seq ON tasks (seq);
  CREATE TABLE push_configs (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    tenant TEXT NOT NULL,
    owner TEXT NOT NULL,
    task_id TEXT NOT NULL,
    id TEXT NOT NULL,
    data BLOB NOT NULL,
    UNIQUE (tenant, owner, task_id, id)
  );
  CREATE INDEX push_configs_by_task ON push_configs (tenant, owner, task_id, seq);
  `,
  // 2: tasks become a rowid table. WITHOUT ROWID kept each task's BLOB inside the primary-key
  // b-tree, keyed by a random id: every save rewrote a random, crowded leaf (about 3 WAL pages per
  // save). With a rowid, recently created tasks (the ones being saved) share the last table pages,
  // and the (tenant, owner, id) index that the upsert targets holds only the short keys.
  `
  CREATE TABLE tasks_v2 (
    tenant TEXT NOT NULL,
    owner TEXT NOT NULL,
    id TEXT NOT NULL,
    context_id TEXT NOT NULL,
    state INTEGER NOT NULL,
    status_seconds INTEGER NOT NULL,
    status_nanos INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    data BLOB NOT NULL,
    UNIQUE (tenant, owner, id)
  );
  INSERT INTO tasks_v2 (tenant, owner, id, context_id, state, status_seconds, status_nanos, seq, data)
    SELECT tenant, owner, id, context_id, state, status_seconds, status_nanos, seq, data FROM tasks ORDER BY seq;
  DROP TABLE tasks;
  ALTER TABLE tasks_v2 RENAME TO tasks;
  CREATE INDEX tasks_by_time ON tasks (tenant, owner, status_seconds DESC, status_nanos DESC, seq DESC);
  CREATE INDEX tasks_by_context_time ON tasks (tenant, owner, context_id, status_seconds DESC, status_nanos DESC, seq DESC);
  CREATE UNIQUE INDEX tasks_by_seq ON tasks (seq);
  `,
  // 3: bytes per row and per owner (the weight of task/size.ts: `taskBytes` of a task, `valueBytes`
  // of a push config), for `maxBytesPerOwner` and `purge({ maxBytesPerOwner })`; and the repair of
  // rows an older version stored with a NaN or ±Infinity in a Value (see non-finite-repair.ts).
  (db, context) => {
    db.exec(`
      ALTER TABLE tasks ADD COLUMN bytes INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE push_configs ADD COLUMN bytes INTEGER NOT NULL DEFAULT 0;
    `);
    backfill(db, context, "tasks");
    backfill(db, context, "pushConfigs");
    db.exec(`
      CREATE TABLE scope_usage (
        tenant TEXT NOT NULL,
        owner TEXT NOT NULL,
        bytes INTEGER NOT NULL,
        PRIMARY KEY (tenant, owner)
      ) WITHOUT ROWID;
      INSERT INTO scope_usage (tenant, owner, bytes)
        SELECT tenant, owner, SUM(bytes) FROM (SELECT tenant, owner, bytes FROM tasks UNION ALL SELECT tenant, owner, bytes FROM push_configs)
        GROUP BY tenant, owner HAVING SUM(bytes) <> 0;
      ${usageTriggers("tasks")}
      ${usageTriggers("push_configs")}
    `);
  },
];
