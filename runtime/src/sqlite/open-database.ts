// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Opening a task store database: the connection, the file's checks (SQLite, a task store or fresh,
 * not newer), the claim on the file (./owner-lock.ts), the journal and sync modes, a check that the
 * file can be written, the migrations (./schema.ts), then what the store prepares on it. Any
 * failure closes what was opened and throws the {@link SqliteTaskStoreError} saying what is wrong
 * (./open-errors.ts).
 */
import Database from "better-sqlite3";
import type { TaskRuntimeSchemas } from "../task/shapes.js";
import { SYNC_BUSY_WAIT_MS } from "./busy.js";
import type { MigrationContext } from "./migrations.js";
import { openErrorOf, type SqliteTaskStoreError } from "./open-errors.js";
import { claimDatabaseFile, type SqliteFileClaim } from "./owner-lock.js";
import { checkSchema, migrateSchema } from "./schema.js";

/** How to open the database. */
export interface OpenTaskDatabaseOptions {
  /** The schemas of the rows (for the migrations that read them). */
  readonly schemas: Pick<TaskRuntimeSchemas, "Task" | "TaskPushNotificationConfig">;
  /** How long opening waits for another connection's lock, synchronously, in ms (an integer ≥ 0). */
  readonly busyTimeoutMs: number;
  /** WAL journaling (default true; ignored for `:memory:`). */
  readonly wal?: boolean | undefined;
  /** `PRAGMA synchronous` (default "NORMAL"). */
  readonly synchronous?: "NORMAL" | "FULL" | undefined;
}

/** An open, claimed, current task store database, with what was prepared on it. */
export interface OpenedTaskDatabase<T> {
  readonly db: Database.Database;
  /** True when the connection was opened here (and is to be closed with the store). */
  readonly ownsDb: boolean;
  /** The claim on the file (none for an in-memory database). */
  readonly claim: SqliteFileClaim | undefined;
  /** What the migration repaired or could not read, when one ran. */
  readonly migration: MigrationContext | undefined;
  /** What `prepare` returned. */
  readonly prepared: T;
}

/**
 * Opens (creating or migrating) the task store in the database file `path`, or in an open
 * connection, and runs `prepare` on it; from then on a write waits synchronously for a lock at
 * most {@link SYNC_BUSY_WAIT_MS}. Throws {@link SqliteTaskStoreError}.
 */
export function openTaskDatabase<T>(
  path: string | Database.Database,
  options: OpenTaskDatabaseOptions,
  prepare: (db: Database.Database) => T,
): OpenedTaskDatabase<T> {
  const name = typeof path === "string" ? path : path.name;
  const { busyTimeoutMs } = options;
  let db: Database.Database;
  try {
    db = typeof path === "string" ? new Database(path, { timeout: busyTimeoutMs }) : path;
  } catch (e) {
    throw openErrorOf(name, e, busyTimeoutMs);
  }
  const ownsDb = typeof path === "string";
  let claim: SqliteFileClaim | undefined;
  try {
    if (!ownsDb) db.pragma(`busy_timeout = ${busyTimeoutMs}`);
    // Reading the header first makes a file that is not SQLite fail here, with its name.
    const schema = checkSchema(db, name);
    // Then the file is claimed before anything changes it: a second task store (another agent process) is refused here, untouched.
    claim = claimDatabaseFile(name, db);
    if (options.wal ?? true) db.pragma("journal_mode = WAL");
    db.pragma(`synchronous = ${options.synchronous === "FULL" ? "FULL" : "NORMAL"}`);
    // A file SQLite could open only for reading (permissions, a read-only mount) fails here, at start, rather than at the first save.
    if (ownsDb && !db.memory) {
      db.exec("BEGIN IMMEDIATE");
      db.exec("ROLLBACK");
    }
    const migration = migrateSchema(db, name, schema, options.schemas);
    const prepared = prepare(db);
    // Opening waited for locks synchronously (there is nothing to serve yet); from now on, writes wait on timers.
    db.pragma(`busy_timeout = ${Math.min(busyTimeoutMs, SYNC_BUSY_WAIT_MS)}`);
    return { db, ownsDb, claim, migration, prepared };
  } catch (e) {
    if (ownsDb) db.close();
    claim?.release();
    throw openErrorOf(name, e, busyTimeoutMs);
  }
}
