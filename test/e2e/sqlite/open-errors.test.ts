// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Database files that cannot be a task store give a clear error at start (issue #17): a
 * SqliteTaskStoreError with a `code`, naming the file, saying what is wrong and what to do (the
 * SQLite code only in parentheses, the SQLite error as the cause), for a file of random bytes, a
 * text file, a truncated task store, a missing directory, a directory in the file's place, a
 * directory or file this process may not write (run as another user when the tests run as root,
 * where permissions do not stop writes), and a database another process holds locked (a bounded
 * wait of busyTimeoutMs, then the error; it opens once the lock is gone). The example agent
 * (`A2A_TASK_DB`) stops at start with that message.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomFillSync } from "node:crypto";
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createA2AServiceSqliteTaskStore } from "../../../generated-example/gen/a2a_a2a_sqlite_task_store.js";
import { TaskState } from "../../../generated-example/gen/a2a_pb.js";
import {
  SqliteTaskStoreError,
  type SqliteTaskStoreErrorCode,
} from "@protoc-gen-a2a/runtime/sqlite";
import {
  AgentStartError,
  bundleExampleAgent,
  startAgentProcess,
} from "../../support/crash-harness.js";
import { repoRoot } from "../../support/repo-root.js";

const scope = { tenant: "", owner: "" };
let dir = "";

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "a2a-open-errors-"));
  chmodSync(dir, 0o755); // the read-only cases run as another user when we are root
});
afterAll(() => {
  spawnSync("chmod", ["-R", "u+w", dir]);
  rmSync(dir, { recursive: true, force: true });
});

/** The error opening `path` throws (fails the test when it opens). */
function openError(path: string, busyTimeoutMs?: number): SqliteTaskStoreError {
  try {
    createA2AServiceSqliteTaskStore(
      path,
      busyTimeoutMs === undefined ? {} : { busyTimeoutMs },
    ).close();
  } catch (e) {
    expect(e).toBeInstanceOf(SqliteTaskStoreError);
    return e as SqliteTaskStoreError;
  }
  throw new Error(`${path} opened`);
}

function expectClear(
  error: SqliteTaskStoreError,
  path: string,
  code: SqliteTaskStoreErrorCode,
  says: RegExp,
): void {
  expect(error.code).toBe(code);
  expect(error.message).toContain(JSON.stringify(path));
  expect(error.message).toMatch(says);
  // Words first: the SQLite code, if any, comes last in parentheses.
  expect(error.message).not.toMatch(/^SQLITE_|^\(/);
}

/** A task store with some tasks in it, closed (checkpointed: the main file holds everything). */
async function storeWithTasks(path: string, count = 300): Promise<void> {
  const store = createA2AServiceSqliteTaskStore(path);
  for (let i = 0; i < count; i++) {
    await store.saveTask(scope, {
      $typeName: "lf.a2a.v1.Task",
      id: `t-${i}`,
      contextId: `c-${i % 7}`,
      status: { $typeName: "lf.a2a.v1.TaskStatus", state: TaskState.COMPLETED },
      artifacts: [],
      history: [],
      metadata: {
        $typeName: "google.protobuf.Struct",
        fields: {
          pad: {
            $typeName: "google.protobuf.Value",
            kind: { case: "stringValue", value: "x".repeat(400) },
          },
        },
      },
    } as never);
  }
  store.close();
}

describe("files that are not a task store", () => {
  it("random bytes: not-a-database, named, with what to do", () => {
    const path = join(dir, "random.db");
    writeFileSync(path, randomFillSync(Buffer.alloc(16_384)));
    expectClear(
      openError(path),
      path,
      "not-a-database",
      /is not a SQLite database.*Move it away or choose another file/,
    );
  });

  it("a text file: not-a-database, left as it was", () => {
    const path = join(dir, "config.json");
    writeFileSync(path, '{ "tasks": [] }\n');
    expectClear(openError(path), path, "not-a-database", /not a SQLite database/);
    expect(statSync(path).size).toBe(16);
  });

  it("a truncated task store (inside its first page, and half of it): corrupt, with restore / .recover advice", async () => {
    const path = join(dir, "good.db");
    await storeWithTasks(path);
    const size = statSync(path).size;
    expect(size).toBeGreaterThan(100_000);
    for (const length of [100, Math.floor(size / 2)]) {
      const cut = join(dir, `cut-${length}.db`);
      copyFileSync(path, cut);
      truncateSync(cut, length);
      expectClear(
        openError(cut),
        cut,
        "corrupt",
        /is damaged \(truncated or corrupt\)\. Restore it from a backup.*\.recover/,
      );
    }
    // The intact one still opens and has its tasks.
    const store = createA2AServiceSqliteTaskStore(path);
    expect((await store.getTask(scope, "t-299"))?.status?.state).toBe(TaskState.COMPLETED);
    store.close();
  });

  it("a directory that does not exist: no-directory, naming it", () => {
    const path = join(dir, "missing", "tasks.db");
    const error = openError(path);
    expectClear(error, path, "no-directory", /its directory .*missing" does not exist\. Create it/);
  });

  it("a directory in the file's place: cannot-open", () => {
    const path = join(dir, "a-directory.db");
    mkdirSync(path);
    expectClear(
      openError(path),
      path,
      "cannot-open",
      /Cannot open or create the task store database/,
    );
  });
});

/**
 * Runs `node -e script` where file permissions count; resolves with its stdout. As root, without the
 * capabilities that bypass them (setpriv, util-linux): still root, so the checkout (often in a
 * 0700 temporary directory) stays readable, but a read-only file or directory is read-only.
 */
function asUnprivileged(script: string): { stdout: string; stderr: string; status: number | null } {
  const root = process.getuid?.() === 0;
  const node = [process.execPath, "--input-type=module", "-e", script];
  const [command, ...args] = root
    ? ["setpriv", "--bounding-set", "-dac_override,-dac_read_search,-fowner", "--", ...node]
    : node;
  const r = spawnSync(command as string, args, { encoding: "utf8", timeout: 30_000 });
  if (r.error !== undefined) throw r.error;
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

describe("files this process may not write", () => {
  let entry = "";
  beforeAll(async () => {
    entry = await bundleExampleAgent("open-errors-agent");
  }, 60_000);
  afterAll(() => rmSync(entry, { force: true }));

  it("a read-only task store: the example agent stops at start with read-only, naming the file", async () => {
    const ro = join(dir, "ro");
    mkdirSync(ro);
    const path = join(ro, "tasks.db");
    await storeWithTasks(path, 3);
    chmodSync(path, 0o444);
    chmodSync(ro, 0o555);
    // The agent as an unprivileged user (permissions do not bind root).
    const script = `
      import { spawn } from "node:child_process";
      const child = spawn(process.execPath, [${JSON.stringify(entry)}], { env: { ...process.env, A2A_HTTP_PORT: "0", A2A_GRPC_PORT: "0", A2A_TASK_DB: ${JSON.stringify(path)} }, stdio: ["ignore", "pipe", "pipe"] });
      let out = ""; child.stdout.on("data", (d) => (out += d)); child.stderr.on("data", (d) => (out += d));
      const timer = setTimeout(() => child.kill("SIGKILL"), 20000);
      child.on("exit", (code) => { clearTimeout(timer); console.log(JSON.stringify({ code, out })); });`;
    const r = asUnprivileged(script);
    const result = JSON.parse(r.stdout.trim().split("\n").at(-1) ?? "{}") as {
      code: number | null;
      out: string;
    };
    expect(result.code, r.stderr).not.toBe(0);
    expect(result.code, r.stderr).not.toBe(null);
    expect(result.out).toContain(
      `The task store database ${JSON.stringify(path)} is read-only for this process`,
    );
  });

  it("a directory where no file may be created: cannot-open (or read-only), naming the file", () => {
    const ro = join(dir, "ro-dir");
    mkdirSync(ro);
    chmodSync(ro, 0o555);
    const path = join(ro, "tasks.db");
    const script = `
      import { spawn } from "node:child_process";
      const child = spawn(process.execPath, [${JSON.stringify(entry)}], { env: { ...process.env, A2A_HTTP_PORT: "0", A2A_GRPC_PORT: "0", A2A_TASK_DB: ${JSON.stringify(path)} }, stdio: ["ignore", "pipe", "pipe"] });
      let out = ""; child.stdout.on("data", (d) => (out += d)); child.stderr.on("data", (d) => (out += d));
      child.on("exit", (code) => console.log(JSON.stringify({ code, out })));`;
    const r = asUnprivileged(script);
    const result = JSON.parse(r.stdout.trim().split("\n").at(-1) ?? "{}") as {
      code: number | null;
      out: string;
    };
    expect(result.code, r.stderr).toBe(1);
    expect(result.out).toContain(
      `Cannot open or create the task store database ${JSON.stringify(path)}`,
    );
  });

  it("the example agent on a file of random bytes stops at start with the clear error", async () => {
    const path = join(dir, "agent-random.db");
    writeFileSync(path, randomFillSync(Buffer.alloc(8192)));
    const error = await startAgentProcess(entry, path).then(
      (agent) => agent.kill().then(() => undefined),
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AgentStartError);
    expect((error as AgentStartError).code).toBe(1);
    expect((error as AgentStartError).stderr).toContain(
      `Cannot use ${JSON.stringify(path)} as a task store: it is not a SQLite database`,
    );
  });
});

/** A child process that opens `path` with better-sqlite3 and holds a write lock until killed. */
async function holdLock(path: string, setup: string): Promise<ChildProcess> {
  const script = `
    const Database = require("better-sqlite3");
    const db = new Database(${JSON.stringify(path)});
    ${setup}
    process.stdout.write("locked\\n");
    setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ["-e", script], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (d: Buffer) => {
      if (d.toString().includes("locked")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`the lock holder exited with ${code}`)));
  });
  return child;
}

async function release(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGKILL");
  await exited;
}

describe("a database locked by another process", () => {
  it("a new file another process holds in an exclusive transaction: locked after busyTimeoutMs, then it opens", async () => {
    const path = join(dir, "locked-new.db");
    const holder = await holdLock(
      path,
      `db.exec("BEGIN EXCLUSIVE; CREATE TABLE other (x); INSERT INTO other VALUES (1)");`,
    );
    try {
      const started = Date.now();
      const error = openError(path, 300);
      expectClear(
        error,
        path,
        "locked",
        /is locked by another connection \(waited 300 ms\)\. Stop the process that holds it/,
      );
      // Bounded: it waited (about) the busy timeout, not forever.
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    } finally {
      await release(holder);
    }
    // The holder's transaction never committed: the file is a fresh database, which becomes a task store.
    createA2AServiceSqliteTaskStore(path).close();
  });

  it("a task store another process holds in exclusive locking mode: locked, then it opens with its tasks", async () => {
    const path = join(dir, "locked-wal.db");
    await storeWithTasks(path, 5);
    const holder = await holdLock(
      path,
      `db.pragma("locking_mode = EXCLUSIVE"); db.exec("BEGIN EXCLUSIVE; UPDATE tasks SET seq = seq"); `,
    );
    try {
      expectClear(
        openError(path, 200),
        path,
        "locked",
        /is locked by another connection \(waited 200 ms\)/,
      );
    } finally {
      await release(holder);
    }
    const store = createA2AServiceSqliteTaskStore(path);
    expect((await store.getTask(scope, "t-4"))?.id).toBe("t-4");
    store.close();
  });
});
