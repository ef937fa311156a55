// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The schema of a task store database file: its marks (`PRAGMA application_id`, and
 * `PRAGMA user_version`, the number of ./migrations.ts applied), the check that a file is a fresh
 * one or a task store this code can read, and the migration of an older one, in one transaction.
 */
import type Database from "better-sqlite3";
import type { TaskRuntimeSchemas } from "../task/shapes.js";
import { MIGRATIONS, type MigrationContext } from "./migrations.js";
import { SqliteTaskStoreError } from "./open-errors.js";

/** `PRAGMA application_id` of a task store database ("A2AT"). */
export const SQLITE_TASK_STORE_APPLICATION_ID = 0x41324154;

/** The schema version this code writes (`PRAGMA user_version`). */
export const SQLITE_TASK_STORE_SCHEMA_VERSION = 3;

/** The header fields and schema size that tell a fresh file, a task store of some version, or another application's database. */
export interface SchemaState {
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
    throw new SqliteTaskStoreError(
      `${JSON.stringify(name)} is a SQLite database of another application, not a task store: choose another file`,
      { code: "other-application" },
    );
  }
  if (state.version > MIGRATIONS.length) {
    throw new SqliteTaskStoreError(
      `${JSON.stringify(name)} has task store schema version ${state.version}, newer than this code supports (${MIGRATIONS.length}): run a newer version of the agent`,
      {
        code: "newer-schema",
      },
    );
  }
}

/**
 * Reads the application id and schema version of the database `name` (reading the file's header:
 * a file that is not SQLite fails here) and checks them; returns what it read.
 */
export function checkSchema(db: Database.Database, name: string): SchemaState {
  const state = readSchemaState(db);
  checkSchemaState(name, state);
  return state;
}

/**
 * Creates or migrates the schema in one transaction, unless `checked` (the state {@link checkSchema}
 * read) is current. Returns what the migration repaired or could not read, when one ran.
 */
export function migrateSchema(
  db: Database.Database,
  name: string,
  checked: SchemaState,
  schemas: Pick<TaskRuntimeSchemas, "Task" | "TaskPushNotificationConfig">,
): MigrationContext | undefined {
  if (checked.version === MIGRATIONS.length) return undefined;
  const context: MigrationContext = {
    schemas,
    repaired: { tasks: [], pushConfigs: [] },
    undecodable: { tasks: [], pushConfigs: [] },
  };
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
