/**
 * One agent instance per process, for bench/postgres.mjs (bundled by it with esbuild into node_modules/.cache/bench/):
 * the generated task handler (generated-example/gen/a2a_a2a_task_handler.ts) served by the generated JSON-RPC server
 * (`createA2AServiceJsonRpcServer(handler).node`) on 127.0.0.1 (a free port). Usage: `node postgres-server.mjs <kind>`
 * with an IPC channel (bench/lib/bench-server.ts: `{ ready: true, port }`, `{ cmd: "cpu" }`; exits with the parent).
 *
 * Kinds (the store): memory (the default in-memory store), sqlite (`BENCH_PG_SQLITE`, a temp file, WAL),
 * postgres (`openA2AServicePostgresTaskStore(BENCH_PG_URL, { pool })`, heartbeat and lease at their defaults; any
 * number of these processes share one database). The pool (10 connections, the store's default) is the store's but
 * made here so that every statement is counted and timed by kind (`{ cmd: "queries", reset? }` → `{ queries, turns }`:
 * the statements, and the turns ended since the last reset); `{ cmd: "busy" }` → `{ busy }`: the turns running now.
 *
 * The executor, by the first text part of the message:
 * - `bench-stream <n> <intervalMs>`: creates the task (SUBMITTED: a `returnImmediately` caller gets it now), waits
 *   for `{ cmd: "go", taskId }` from the parent (who has opened its stream by then), then WORKING, `n` chunks of one
 *   artifact (the first new, the others appended), each chunk's text `<i> <process.hrtime.bigint() before the emit>`,
 *   `intervalMs` apart (0: back to back), COMPLETED; then sends `{ done: taskId, committed }`: per chunk, the
 *   hrtime at which its emit (the commit, and the delivery to this instance's streams) had resolved. hrtime is
 *   CLOCK_MONOTONIC, the same clock in every process of the machine.
 * - anything else: WORKING, one artifact "echo" with the text, COMPLETED (bench/task/server.ts's task executor).
 * `{ cmd: "close" }` closes the store (the instance leaves the cluster) and exits 0.
 */
import type { RequestListener } from "node:http";
import pg from "pg";
import { createA2AServiceJsonRpcServer } from "../../generated-example/gen/a2a_a2a_jsonrpc_server.js";
import {
  createA2AServiceTaskHandler,
  type A2AServiceExecutor,
} from "../../generated-example/gen/a2a_a2a_task_handler.js";
import { createA2AServiceSqliteTaskStore } from "../../generated-example/gen/a2a_a2a_sqlite_task_store.js";
import { openA2AServicePostgresTaskStore } from "../../generated-example/gen/a2a_a2a_postgres_task_store.js";
import { firstText, listenHttp, runBenchServer } from "../lib/bench-server.js";

const STREAM_PREFIX = "bench-stream ";

// ---------------------------------------------------------------------------------------
// the go signal of the parent
// ---------------------------------------------------------------------------------------

/** Task id → the executor waiting for its go, or `true` when the go came first. */
const goes = new Map<string, (() => void) | true>();

function waitForGo(taskId: string): Promise<void> {
  if (goes.get(taskId) === true) {
    goes.delete(taskId);
    return Promise.resolve();
  }
  return new Promise((resolve) => goes.set(taskId, resolve));
}

function go(taskId: string): void {
  const waiting = goes.get(taskId);
  if (typeof waiting === "function") {
    goes.delete(taskId);
    waiting();
  } else goes.set(taskId, true);
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------
// the executor
// ---------------------------------------------------------------------------------------

/** Turns running now, and turns ended since the last `{ cmd: "queries", reset: true }`. */
let running = 0;
let ended = 0;

const executor: A2AServiceExecutor = {
  async execute(context, emitter) {
    running++;
    try {
      await run(context, emitter);
    } finally {
      running--;
      ended++;
    }
  },
};

/** The behaviours of the file comment. */
async function run(
  ...[context, emitter]: Parameters<A2AServiceExecutor["execute"]>
): Promise<void> {
  const text = firstText(context.message);
  if (!text.startsWith(STREAM_PREFIX)) {
    await emitter.working("working on it");
    await emitter.addArtifact({
      name: "echo",
      parts: [{ content: { case: "text", value: text } }],
    });
    await emitter.complete("done");
    return;
  }
  const [count = 0, intervalMs = 0] = text.slice(STREAM_PREFIX.length).split(" ").map(Number);
  await emitter.submit();
  await waitForGo(context.taskId);
  await emitter.working();
  const committed: string[] = [];
  for (let i = 0; i < count; i++) {
    if (intervalMs > 0 && i > 0) await sleep(intervalMs);
    const stamp = process.hrtime.bigint();
    await emitter.addArtifact(
      {
        artifactId: "ticks",
        name: "ticks",
        parts: [{ content: { case: "text", value: `${i} ${stamp}` } }],
      },
      { append: i > 0 },
    );
    committed.push(String(process.hrtime.bigint()));
  }
  await emitter.complete();
  process.send?.({ done: context.taskId, committed });
}

// ---------------------------------------------------------------------------------------
// statements, counted and timed by kind
// ---------------------------------------------------------------------------------------

/** Kind → [count, total ms]. */
let queries = new Map<string, [number, number]>();

/** "INSERT a2a_task_events", "SELECT pg_notify", "WITH a2a_turns+pg_notify", "BEGIN", … */
function kindOf(text: string): string {
  const verb = /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? "?";
  const names = [...new Set(text.match(/\b(a2a_\w+|pg_notify)\b/g) ?? [])].filter(
    (n) => n !== "a2a_task_saves",
  );
  return names.length === 0 ? verb : `${verb} ${names.join("+")}`;
}

function record(kind: string, started: bigint): void {
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const entry = queries.get(kind);
  if (entry === undefined) queries.set(kind, [1, ms]);
  else {
    entry[0]++;
    entry[1] += ms;
  }
}

/** Wraps a client's query(): every statement is counted and timed (promise and callback forms). */
function instrument(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (
    ...args: unknown[]
  ) => {
    const first = args[0];
    const kind = kindOf(
      typeof first === "string"
        ? first
        : String((first as { text?: unknown } | undefined)?.text ?? "?"),
    );
    const started = process.hrtime.bigint();
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === "function") {
      args[last] = (...results: unknown[]) => {
        record(kind, started);
        return (callback as (...r: unknown[]) => unknown)(...results);
      };
      return query(...args);
    }
    const result = query(...args);
    if (result instanceof Promise) return result.finally(() => record(kind, started));
    return result;
  };
}

// ---------------------------------------------------------------------------------------
// the instance
// ---------------------------------------------------------------------------------------

let close: () => Promise<void> = async () => {};

process.on("message", (m: { cmd?: string; taskId?: string; reset?: boolean } | null) => {
  if (m?.cmd === "go" && typeof m.taskId === "string") go(m.taskId);
  else if (m?.cmd === "busy") process.send?.({ busy: running });
  else if (m?.cmd === "queries") {
    process.send?.({ queries: Object.fromEntries(queries), turns: ended });
    if (m.reset === true) {
      queries = new Map();
      ended = 0;
    }
  } else if (m?.cmd === "close") {
    close().then(
      () => process.exit(0),
      (e: unknown) => {
        console.error("closing the store failed", e);
        process.exit(1);
      },
    );
  }
});

const listenerOf = (
  store?: Parameters<typeof createA2AServiceTaskHandler>[0]["store"],
): RequestListener =>
  createA2AServiceJsonRpcServer(
    createA2AServiceTaskHandler({
      executor,
      capabilities: { streaming: true },
      ...(store !== undefined ? { store } : {}),
    }),
  ).node as RequestListener;

function env(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === "") throw new Error(`${name} is not set`);
  return value;
}

runBenchServer("postgres-server.mjs", {
  memory: () => listenHttp(listenerOf()),
  sqlite: () => {
    const store = createA2AServiceSqliteTaskStore(env("BENCH_PG_SQLITE"));
    close = async () => store.close();
    return listenHttp(listenerOf(store));
  },
  postgres: async () => {
    const url = env("BENCH_PG_URL");
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    pool.on("error", () => {}); // an idle connection that fails is replaced (the store does the same with its own pool)
    pool.on("connect", instrument);
    const store = await openA2AServicePostgresTaskStore(url, { pool });
    close = async () => {
      await store.close(10_000); // turns still running (requests the load generator gave up on) end first
      await pool.end();
    };
    return listenHttp(listenerOf(store));
  },
});
