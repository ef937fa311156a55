// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The versioned schema of the PostgreSQL task store. `a2a_schema_migrations` records every step
 * applied; {@link migrate} applies the missing ones in one transaction under an advisory lock (so
 * several instances starting at once migrate once), {@link checkSchema} only reads (an instance
 * that must not change the schema refuses to start on an old or newer one).
 */
import type { Pool, PoolClient } from "pg";

/**
 * The steps, in order: `MIGRATIONS[i]` takes the schema from version `i` to `i + 1`. Append only;
 * never edit a released step.
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE a2a_tasks (
    tenant text NOT NULL,
    owner text NOT NULL,
    id text NOT NULL,
    context_id text NOT NULL,
    state integer NOT NULL,
    status_seconds bigint NOT NULL,
    status_nanos integer NOT NULL,
    save_seq bigint NOT NULL,
    version bigint NOT NULL,
    event_seq bigint NOT NULL,
    bytes bigint NOT NULL,
    data bytea NOT NULL,
    PRIMARY KEY (tenant, owner, id)
  );
  CREATE SEQUENCE a2a_task_saves;
  CREATE INDEX a2a_tasks_by_time ON a2a_tasks (tenant, owner, status_seconds DESC, status_nanos DESC, save_seq DESC);
  CREATE INDEX a2a_tasks_by_context_time ON a2a_tasks (tenant, owner, context_id, status_seconds DESC, status_nanos DESC, save_seq DESC);
  CREATE INDEX a2a_tasks_running ON a2a_tasks (state) WHERE state IN (1, 2);
  CREATE TABLE a2a_task_events (
    tenant text NOT NULL,
    owner text NOT NULL,
    task_id text NOT NULL,
    seq bigint NOT NULL,
    state integer NOT NULL,
    data bytea NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant, owner, task_id, seq)
  );
  CREATE TABLE a2a_push_configs (
    seq bigserial PRIMARY KEY,
    tenant text NOT NULL,
    owner text NOT NULL,
    task_id text NOT NULL,
    id text NOT NULL,
    bytes bigint NOT NULL,
    data bytea NOT NULL,
    UNIQUE (tenant, owner, task_id, id)
  );
  CREATE TABLE a2a_instances (
    id text PRIMARY KEY,
    started_at timestamptz NOT NULL DEFAULT now(),
    heartbeat_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL
  );
  CREATE TABLE a2a_turns (
    ticket bigserial PRIMARY KEY,
    tenant text NOT NULL,
    owner text NOT NULL,
    task_id text NOT NULL,
    instance_id text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE INDEX a2a_turns_by_task ON a2a_turns (tenant, owner, task_id, ticket);
  CREATE INDEX a2a_turns_by_instance ON a2a_turns (instance_id);
  CREATE TABLE a2a_push_outbox (
    id bigserial PRIMARY KEY,
    tenant text NOT NULL,
    owner text NOT NULL,
    task_id text NOT NULL,
    seq bigint NOT NULL,
    config_id text NOT NULL,
    attempts integer NOT NULL DEFAULT 0,
    next_at timestamptz NOT NULL DEFAULT now(),
    locked_by text,
    locked_until timestamptz,
    UNIQUE (tenant, owner, task_id, seq, config_id)
  );
  CREATE INDEX a2a_push_outbox_due ON a2a_push_outbox (next_at);
  `,
];

/** The schema version this code reads and writes. */
export const POSTGRES_SCHEMA_VERSION = MIGRATIONS.length;

/** Advisory lock key of migrations ("A2AM"). */
const MIGRATION_LOCK = 0x4132414d;

/** The schema's version in this database: 0 when it has none. */
export async function schemaVersion(db: Pool | PoolClient): Promise<number> {
  const exists = await db.query<{ t: string | null }>(
    "SELECT to_regclass('a2a_schema_migrations')::text AS t",
  );
  if (exists.rows[0]?.t == null) return 0;
  const result = await db.query<{ v: number | null }>(
    "SELECT max(version)::int AS v FROM a2a_schema_migrations",
  );
  return result.rows[0]?.v ?? 0;
}

/** Brings the database to {@link POSTGRES_SCHEMA_VERSION}; resolves with the versions applied (none when it was current). */
export async function migrate(pool: Pool): Promise<number[]> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await client.query(
      "CREATE TABLE IF NOT EXISTS a2a_schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
    );
    const current = await schemaVersion(client);
    if (current > MIGRATIONS.length) throw newerSchemaError(current);
    const applied: number[] = [];
    for (let version = current + 1; version <= MIGRATIONS.length; version++) {
      await client.query(MIGRATIONS[version - 1] as string);
      await client.query("INSERT INTO a2a_schema_migrations (version) VALUES ($1)", [version]);
      applied.push(version);
    }
    await client.query("COMMIT");
    return applied;
  } catch (e) {
    await client.query("ROLLBACK").catch(() => {});
    throw e;
  } finally {
    client.release();
  }
}

/** Refuses a database whose schema is not the one this code uses, saying what to do. */
export async function checkSchema(pool: Pool): Promise<void> {
  const version = await schemaVersion(pool);
  if (version === MIGRATIONS.length) return;
  if (version > MIGRATIONS.length) throw newerSchemaError(version);
  throw new Error(
    `PostgreSQL task store: the database has schema version ${version}, this agent needs ${MIGRATIONS.length}: ` +
      "run the migration (npx a2a-postgres migrate <url>, or open the store with migrate: true)",
  );
}

function newerSchemaError(version: number): Error {
  return new Error(
    `PostgreSQL task store: the database has schema version ${version}, newer than this agent's (${MIGRATIONS.length}): upgrade @protoc-gen-a2a/runtime`,
  );
}
