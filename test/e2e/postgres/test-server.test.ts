// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
// The test run's PostgreSQL (test/support/postgres-global-setup.ts) is real: a fresh database, a table, LISTEN/NOTIFY
// between two connections, and the database dropped with a connection still open.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FreshDatabase, freshDatabase, POSTGRES_URL_ENV } from "../../support/postgres.js";
import { postgresUrl } from "../../support/postgres-url.js";

describe("test PostgreSQL", () => {
  let db: FreshDatabase;
  const clients: pg.Client[] = [];
  const connect = async (url: string) => {
    const client = new pg.Client({ connectionString: url });
    client.on("error", () => {}); // drop() terminates what is still connected
    await client.connect();
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    db = await freshDatabase(postgresUrl(), "server");
  });
  afterAll(async () => {
    await db?.drop();
    await Promise.all(clients.map((c) => c.end().catch(() => {})));
  });

  it("is reachable by processes the tests spawn, through A2A_TEST_POSTGRES_URL", () => {
    expect(process.env[POSTGRES_URL_ENV]).toBe(postgresUrl());
    expect(postgresUrl()).toMatch(/^postgres:\/\/postgres:postgres@127\.0\.0\.1:\d+\/postgres$/);
  });

  it("serves a fresh database of its own: create a table, write, read", async () => {
    expect(db.url).toMatch(/\/a2a_test_server_[0-9a-f]{12}$/);
    const client = await connect(db.url);
    expect(
      (await client.query<{ db: string }>("SELECT current_database() AS db")).rows[0]?.db,
    ).toBe(db.name);
    expect(
      (await client.query<{ server_version: string }>("SHOW server_version")).rows[0]
        ?.server_version,
    ).toMatch(/^18\./);
    await client.query("CREATE TABLE tasks (id text PRIMARY KEY, state text NOT NULL, body jsonb)");
    await client.query("INSERT INTO tasks VALUES ($1, $2, $3)", [
      "t1",
      "working",
      { parts: [{ text: "hi" }] },
    ]);
    const { rows } = await client.query("SELECT id, state, body FROM tasks");
    expect(rows).toEqual([{ id: "t1", state: "working", body: { parts: [{ text: "hi" }] } }]);
  });

  it("delivers NOTIFY from one connection to a LISTEN on another", async () => {
    const listener = await connect(db.url);
    const notifier = await connect(db.url);
    await listener.query("LISTEN task_events");
    const received = new Promise<pg.Notification>((resolve) =>
      listener.once("notification", resolve),
    );
    await notifier.query("SELECT pg_notify('task_events', $1)", ["t1:completed"]);
    const note = await received;
    expect(note.channel).toBe("task_events");
    expect(note.payload).toBe("t1:completed");
    const { rows } = await notifier.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    expect(note.processId).toBe(rows[0]?.pid);
  });

  it("drops a database that still has connections, and drop() is idempotent", async () => {
    const other = await freshDatabase(postgresUrl(), "Drop Me!");
    expect(other.name).toMatch(/^a2a_test_drop_me__[0-9a-f]{12}$/);
    const open = await connect(other.url);
    await open.query("SELECT 1");
    await other.drop();
    await other.drop();
    const admin = await connect(postgresUrl());
    const { rowCount } = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [
      other.name,
    ]);
    expect(rowCount).toBe(0);
    await expect(open.query("SELECT 1")).rejects.toThrow();
  });
});
