// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/** The PostgreSQL task store's versioned schema: `a2a-postgres migrate|status`, the check at open, concurrent migrations. */
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import {
  PostgresTaskStore,
  POSTGRES_SCHEMA_VERSION,
  migrate,
} from "@protoc-gen-a2a/runtime/postgres";
import { main } from "../../../runtime/src/postgres/cli.js";
import {
  StreamResponseSchema,
  TaskPushNotificationConfigSchema,
  TaskSchema,
} from "../../../generated-example/gen/a2a_pb.js";
import { freshDatabase, type FreshDatabase } from "../../support/postgres.js";
import { postgresUrl } from "../../support/postgres-url.js";

const schemas = {
  Task: TaskSchema,
  TaskPushNotificationConfig: TaskPushNotificationConfigSchema,
  StreamResponse: StreamResponseSchema,
};
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function database(): Promise<FreshDatabase> {
  const db = await freshDatabase(postgresUrl(), "schema");
  cleanups.push(() => db.drop());
  return db;
}

async function run(...args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(
    args,
    (l) => out.push(l),
    (l) => err.push(l),
  );
  return { code, out, err };
}

describe("a2a-postgres", () => {
  it("status, migrate, migrate again, status", async () => {
    const db = await database();
    expect(await run("status", db.url)).toEqual({
      code: 1,
      out: [
        `schema version 0; this runtime uses ${POSTGRES_SCHEMA_VERSION} (run: a2a-postgres migrate)`,
      ],
      err: [],
    });
    expect(await run("migrate", db.url)).toMatchObject({
      code: 0,
      out: [expect.stringMatching(/^applied migration\(s\) 1/)],
    });
    expect(await run("migrate", db.url)).toMatchObject({
      code: 0,
      out: [`schema version ${POSTGRES_SCHEMA_VERSION}: nothing to do`],
    });
    expect(await run("status", db.url)).toMatchObject({
      code: 0,
      out: [expect.stringContaining("(current)")],
    });
  });

  it("a usage line for a bad command; one line, no stack, for a server that cannot be reached", async () => {
    expect(await run("drop", "postgres://x")).toMatchObject({
      code: 2,
      err: [expect.stringContaining("usage: a2a-postgres")],
    });
    const unreachable = await run("status", "postgres://postgres:postgres@127.0.0.1:1/none");
    expect(unreachable.code).toBe(1);
    expect(unreachable.err).toHaveLength(1);
    expect(unreachable.err[0]).toMatch(/^a2a-postgres status: /);
  });
});

describe("the schema at open", () => {
  it("with migrate: false, an unmigrated database is refused with what to do; after the migration it opens", async () => {
    const db = await database();
    await expect(
      PostgresTaskStore.open({ connectionString: db.url, schemas, migrate: false }),
    ).rejects.toThrow(/schema version 0, this agent needs 1: run the migration/);
    await run("migrate", db.url);
    const store = await PostgresTaskStore.open({
      connectionString: db.url,
      schemas,
      migrate: false,
    });
    await store.close();
  });

  it("a database with a newer schema is refused (no downgrade)", async () => {
    const db = await database();
    const pool = new pg.Pool({ connectionString: db.url });
    cleanups.push(() => pool.end());
    await migrate(pool);
    await pool.query("INSERT INTO a2a_schema_migrations (version) VALUES ($1)", [
      POSTGRES_SCHEMA_VERSION + 1,
    ]);
    await expect(PostgresTaskStore.open({ connectionString: db.url, schemas })).rejects.toThrow(
      /newer than this agent's/,
    );
  });

  it("instances starting at once migrate once", async () => {
    const db = await database();
    const stores = await Promise.all(
      [1, 2, 3, 4].map(() =>
        PostgresTaskStore.open({ connectionString: db.url, schemas, onError: () => {} }),
      ),
    );
    for (const store of stores) cleanups.push(() => store.close());
    const pool = new pg.Pool({ connectionString: db.url });
    cleanups.push(() => pool.end());
    const rows = await pool.query("SELECT version FROM a2a_schema_migrations ORDER BY version");
    expect(rows.rows.map((r: { version: number }) => r.version)).toEqual([1]);
  });
});
