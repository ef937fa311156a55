// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * One agent process per SQLite task store file: a second SqliteTaskStore on a file another one has
 * open (another store object of this process, or another process: the example agent, or a small
 * script opening the store from the runtime sources) is refused at open with SqliteTaskStoreError
 * "in-use", a one-line message naming the file, the holder's pid and what to do, having changed
 * nothing (the first one's tasks in progress are not failed). The claim ends with close(), or with
 * the holder's process, even killed with SIGKILL: the next open succeeds at once. `:memory:`
 * stores and other (non-store) connections are not concerned.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { create } from "@bufbuild/protobuf";
import Database from "better-sqlite3";
import { build } from "esbuild";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  TaskPushNotificationConfigSchema,
  TaskSchema,
  TaskState,
} from "../../../generated-example/gen/a2a_pb.js";
import { SqliteTaskStore, SqliteTaskStoreError } from "@protoc-gen-a2a/runtime/sqlite";
import {
  AgentStartError,
  bundleExampleAgent,
  startAgentProcess,
} from "../../support/crash-harness.js";
import { repoRoot } from "../../support/repo-root.js";

const schemas = { Task: TaskSchema, TaskPushNotificationConfig: TaskPushNotificationConfigSchema };
const scope = { tenant: "", owner: "" };
const WHAT_TO_DO =
  "One process per SQLite file; to run several instances, use a PostgreSQL task store (A2A_TASK_DB=postgres://…).";
const root = repoRoot;

let dir = "";
const opened: SqliteTaskStore[] = [];
const children: ChildProcess[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "a2a-single-process-"));
});
afterEach(async () => {
  for (const store of opened.splice(0)) store.close();
  await Promise.all(children.splice(0).map(killed));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function open(path: string | Database.Database): SqliteTaskStore {
  const store = new SqliteTaskStore(path, { schemas });
  opened.push(store);
  return store;
}

/** The error opening a store on `path` throws (fails the test when it opens). */
function refusal(path: string | Database.Database): SqliteTaskStoreError {
  try {
    open(path);
  } catch (e) {
    expect(e).toBeInstanceOf(SqliteTaskStoreError);
    return e as SqliteTaskStoreError;
  }
  throw new Error("the second store opened");
}

/** Checks an "in-use" refusal: one line naming the file and the holder, saying what to do. */
function expectInUse(error: SqliteTaskStoreError, path: string, holder: RegExp): void {
  expect(error.code).toBe("in-use");
  expect(error.message).toContain(
    `The task store database ${JSON.stringify(path)} is already open in `,
  );
  expect(error.message).toMatch(holder);
  expect(error.message).toContain(WHAT_TO_DO);
  expect(error.message).not.toContain("\n");
}

const task = (id: string, state: TaskState) =>
  create(TaskSchema, { id, contextId: `ctx-${id}`, status: { state } });

async function killed(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
}

describe("a second store in this process", () => {
  it("is refused: in-use, naming the file, this process's pid and what to do; the first keeps working; after close() it opens", async () => {
    const path = join(dir, "same-process.db");
    const first = open(path);
    await first.saveTask(scope, task("running", TaskState.WORKING));
    const error = refusal(path);
    expectInUse(
      error,
      path,
      new RegExp(
        `another SqliteTaskStore of this process \\(pid ${process.pid}\\): close that store first`,
      ),
    );
    // Refused again (the refusal left the claim alone), and the first store still writes and reads.
    expect(refusal(path).code).toBe("in-use");
    await first.saveTask(scope, task("later", TaskState.COMPLETED));
    expect((await first.getTask(scope, "running"))?.status?.state).toBe(TaskState.WORKING);
    first.close();
    const second = open(path);
    expect((await second.getTask(scope, "later"))?.status?.state).toBe(TaskState.COMPLETED);
  });

  it("is refused through another path to the file (a symbolic link, a relative path) and on a connection handed in", () => {
    const path = join(dir, "paths.db");
    open(path);
    const link = join(dir, "link.db");
    symlinkSync(path, link);
    expectInUse(refusal(link), link, /another SqliteTaskStore of this process/);
    const rel = relative(process.cwd(), path);
    expectInUse(refusal(rel), rel, /another SqliteTaskStore of this process/);
    const connection = new Database(path);
    try {
      expectInUse(refusal(connection), path, /another SqliteTaskStore of this process/);
      // A refused store leaves a connection handed in open, and other connections may read the file.
      expect(connection.prepare("SELECT COUNT(*) FROM tasks").pluck().get()).toBe(0);
    } finally {
      connection.close();
    }
  });

  it("on a connection handed in, the claim ends with close() although the connection stays open", () => {
    const path = join(dir, "handed-in.db");
    const connection = new Database(path);
    try {
      const first = open(connection);
      expect(refusal(path).code).toBe("in-use");
      first.close();
      expect(connection.open).toBe(true);
      open(path).close();
    } finally {
      connection.close();
    }
  });

  it("a lock file that cannot be used (a directory in its place) is a clear cannot-open naming it; once removed, the file opens", () => {
    const path = join(dir, "lock-dir.db");
    const lockFile = `${path}-lock`;
    mkdirSync(lockFile);
    const error = refusal(path);
    expect(error.code).toBe("cannot-open");
    expect(error.message).toContain(
      `Cannot use the lock file ${JSON.stringify(lockFile)} of the task store database ${JSON.stringify(path)}`,
    );
    expect(error.message).toMatch(/Remove it while no agent runs on the database/);
    rmSync(lockFile, { recursive: true });
    open(path);
  });

  it(":memory: stores are not concerned: several at once", async () => {
    const a = open(":memory:");
    const b = open(":memory:");
    await a.saveTask(scope, task("a", TaskState.COMPLETED));
    expect(await b.getTask(scope, "a")).toBeUndefined();
  });
});

/**
 * Bundles (esbuild, the runtime from its sources, as the crash harness bundles the example agent) a
 * script that opens a SqliteTaskStore on the file named by its argument and prints one JSON line:
 * `{ "opened": true, "pid" }` (then holds the store until killed; SIGTERM closes it and exits), or
 * `{ "opened": false, "code", "message" }`.
 */
async function bundleStoreOpener(): Promise<string> {
  // @ts-expect-error a plain .mjs module without types
  const { runtimeFromSource } = (await import("../../../scripts/runtime-from-source.mjs")) as {
    runtimeFromSource: import("esbuild").Plugin;
  };
  const outdir = join(root, "node_modules", ".cache", "sqlite-single-process");
  mkdirSync(outdir, { recursive: true });
  const outfile = join(outdir, `store-opener-${process.pid}.mjs`);
  const contents = `
    import { SqliteTaskStore } from "@protoc-gen-a2a/runtime/sqlite";
    import { TaskPushNotificationConfigSchema, TaskSchema } from "../generated-example/gen/a2a_pb.js";
    let store;
    try {
      store = new SqliteTaskStore(process.argv[2], { schemas: { Task: TaskSchema, TaskPushNotificationConfig: TaskPushNotificationConfigSchema } });
    } catch (e) {
      process.stdout.write(JSON.stringify({ opened: false, code: e.code, message: e.message }) + "\\n");
      process.exit(3);
    }
    process.on("SIGTERM", () => {
      store.close();
      process.exit(0);
    });
    process.stdout.write(JSON.stringify({ opened: true, pid: process.pid }) + "\\n");
    setInterval(() => {}, 1000);`;
  await build({
    stdin: {
      contents,
      resolveDir: join(root, "test"),
      loader: "ts",
      sourcefile: "store-opener.ts",
    },
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    plugins: [runtimeFromSource],
    logLevel: "warning",
  });
  return outfile;
}

/** What a store opener printed. */
type Opened =
  | { readonly opened: true; readonly pid: number }
  | { readonly opened: false; readonly code: string; readonly message: string };

/** Starts a store opener on `path`; resolves with the child (kept open while it holds the store) and what it printed. */
function startOpener(
  opener: string,
  path: string,
): Promise<{ child: ChildProcess; result: Opened }> {
  const child = spawn(process.execPath, [opener, path], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout?.setEncoding("utf8");
    child.stdout?.on("data", (d: string) => {
      out += d;
      const line = out.split("\n")[0];
      if (out.includes("\n") && line !== undefined)
        resolve({ child, result: JSON.parse(line) as Opened });
    });
    child.once("exit", (code) => {
      if (!out.includes("\n"))
        reject(new Error(`the store opener exited with ${code} before saying anything`));
    });
  });
}

describe("another process", () => {
  let agentEntry = "";
  let opener = "";
  beforeAll(async () => {
    [agentEntry, opener] = await Promise.all([
      bundleExampleAgent("single-process-agent"),
      bundleStoreOpener(),
    ]);
  }, 60_000);
  afterAll(() => {
    rmSync(agentEntry, { force: true });
    rmSync(opener, { force: true });
  });

  it("an agent process started on a file this process has open stops at start with in-use and this process's pid; the tasks in progress here are not failed", async () => {
    const path = join(dir, "agent-refused.db");
    const store = open(path);
    await store.saveTask(scope, task("in-progress", TaskState.WORKING));
    const error = await startAgentProcess(agentEntry, path).then(
      (agent) => agent.kill().then(() => undefined),
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AgentStartError);
    expect((error as AgentStartError).code).toBe(1);
    const stderr = (error as AgentStartError).stderr;
    expect(stderr).toContain(
      `example agent: cannot start: The task store database ${JSON.stringify(path)} is already open in another agent process (pid ${process.pid}): stop that process first. ${WHAT_TO_DO}`,
    );
    // The refused agent failed nothing (failInterruptedTasks never ran) and stored nothing.
    expect((await store.getTask(scope, "in-progress"))?.status?.state).toBe(TaskState.WORKING);
    await store.saveTask(scope, task("in-progress", TaskState.COMPLETED));
    expect((await store.getTask(scope, "in-progress"))?.status?.state).toBe(TaskState.COMPLETED);
  });

  it("while an agent process has the file open, opening it here is refused with that process's pid; once it is killed with SIGKILL, it opens at once", async () => {
    const path = join(dir, "agent-holds.db");
    const agent = await startAgentProcess(agentEntry, path);
    try {
      const pid = agent.child.pid as number;
      expectInUse(
        refusal(path),
        path,
        new RegExp(
          `already open in another agent process \\(pid ${pid}\\): stop that process first\\.`,
        ),
      );
    } finally {
      await agent.kill();
    }
    const started = performance.now();
    const store = open(path);
    expect(performance.now() - started).toBeLessThan(2_000);
    store.close();
    // And an agent restarted on the file (as after a crash) starts and serves.
    const restarted = await startAgentProcess(agentEntry, path);
    await restarted.kill();
  }, 60_000);

  it("a store refused in this process leaves the holder's claim intact: another process is still refused, with this process's pid", async () => {
    const path = join(dir, "refused-then-process.db");
    open(path);
    expect(refusal(path).code).toBe("in-use");
    expect(refusal(path).code).toBe("in-use");
    const { result } = await startOpener(opener, path);
    expect(result.opened).toBe(false);
    if (result.opened) return;
    expect(result.code).toBe("in-use");
    expect(result.message).toContain(
      `The task store database ${JSON.stringify(path)} is already open in another agent process (pid ${process.pid})`,
    );
  });

  it("a process holding the store, killed with SIGKILL, leaves no claim behind; one that exits after close() neither", async () => {
    const path = join(dir, "opener-killed.db");
    const holder = await startOpener(opener, path);
    expect(holder.result).toEqual({ opened: true, pid: holder.child.pid });
    expectInUse(
      refusal(path),
      path,
      new RegExp(`another agent process \\(pid ${holder.child.pid}\\)`),
    );
    await killed(holder.child);
    open(path).close();
    const next = await startOpener(opener, path);
    expect(next.result).toEqual({ opened: true, pid: next.child.pid });
    expectInUse(
      refusal(path),
      path,
      new RegExp(`another agent process \\(pid ${next.child.pid}\\)`),
    );
    const exited = new Promise((resolve) => next.child.once("exit", resolve));
    next.child.kill("SIGTERM");
    expect(await exited).toBe(0);
    open(path);
  });

  it("processes started together on one new file: exactly one opens it, every other one is refused with in-use", async () => {
    const path = join(dir, "race.db");
    const starts = await Promise.all(Array.from({ length: 8 }, () => startOpener(opener, path)));
    const winners = starts.filter((s) => s.result.opened);
    expect(winners).toHaveLength(1);
    const pids = starts.map((s) => s.child.pid);
    for (const { child, result } of starts) {
      if (result.opened) continue;
      expect(result.code).toBe("in-use");
      expect(result.message).toContain(WHAT_TO_DO);
      // Who holds it, when the lock file could say (a claim being written at that moment cannot be read): one of the others.
      const named = /\(pid (\d+)/.exec(result.message);
      if (named !== null) {
        expect(pids).toContain(Number(named[1]));
        expect(Number(named[1])).not.toBe(child.pid);
      }
    }
    expect(refusal(path).code).toBe("in-use");
    await killed((winners[0] as { child: ChildProcess }).child);
    open(path);
  });
});
