#!/usr/bin/env node
/**
 * CPU profile of one bench/agent.mjs server under one scenario's load:
 *
 *   node bench/profile.mjs [--server example] [--scenario jsonrpc-message] [--duration 6] [--connections 50] [--top 30]
 *
 * Runs the server (bench/agent/server.ts) with `--cpu-prof` into bench/output/ (not committed; open the
 * .cpuprofile in Chrome DevTools or speedscope for the flame graph), loads it with autocannon from this
 * process, and prints the functions with the most self and inclusive time.
 */
import { fork } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import autocannon from "autocannon";
import { parseBenchArgs } from "./lib/args.mjs";
import { bundle, root } from "./lib/build.mjs";
import { newestProfile, summarizeProfile } from "./lib/cpu-profile.mjs";

const { args, intArg } = parseBenchArgs(
  "usage: node bench/profile.mjs [--server example] [--scenario jsonrpc-message|rest-message|jsonrpc-task|rest-task|jsonrpc-get|rest-get|jsonrpc-list|rest-list] [--duration 6] [--connections 50] [--top 30]",
  {
    server: { type: "string", default: "example" },
    scenario: { type: "string", default: "jsonrpc-message" },
    duration: { type: "string", default: "6" },
    connections: { type: "string", default: "50" },
    top: { type: "string", default: "30" },
  },
);
const out = join(root, "bench", "output");
mkdirSync(out, { recursive: true });
const { "agent-server": script } = await bundle({ "agent-server": "bench/agent/server.ts" });
const started = Date.now();
// The SQLite servers keep their file here (removed after the run).
const db = join(out, "profile-tasks.db");
for (const f of [db, `${db}-wal`, `${db}-shm`]) rmSync(f, { force: true });
process.env.BENCH_AGENT_DB = db;
const child = fork(script, [args.server], {
  execArgv: ["--cpu-prof", `--cpu-prof-dir=${out}`],
  stdio: ["ignore", "inherit", "inherit", "ipc"],
});
const port = await new Promise((resolve) =>
  child.on("message", (m) => m?.ready && resolve(m.port)),
);
const get = args.scenario.endsWith("-get");
const listing = args.scenario.endsWith("-list");
const text =
  args.scenario.endsWith("-task") || get || listing
    ? "tck-complete-task bench"
    : "tck-message-response bench";
const message = { messageId: "bench-profile-m-1", role: "ROLE_USER", parts: [{ text }] };
const rest = args.scenario.startsWith("rest-");
const headers = { "content-type": "application/json", "a2a-version": "1.0" };
let request = rest
  ? {
      url: `http://127.0.0.1:${port}/a2a/rest/message:send`,
      method: "POST",
      body: JSON.stringify({ message }),
    }
  : {
      url: `http://127.0.0.1:${port}/a2a/jsonrpc`,
      method: "POST",
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: { message } }),
    };
if (listing) {
  // ListTasks of a context with three tasks.
  let contextId;
  for (let i = 0; i < 3; i++) {
    const body = JSON.stringify({
      message: {
        ...message,
        messageId: `bench-profile-m-${i + 2}`,
        ...(contextId ? { contextId } : {}),
      },
    });
    contextId = (
      await (
        await fetch(`http://127.0.0.1:${port}/a2a/rest/message:send`, {
          method: "POST",
          headers,
          body,
        })
      ).json()
    ).task.contextId;
  }
  request = rest
    ? {
        url: `http://127.0.0.1:${port}/a2a/rest/tasks?contextId=${encodeURIComponent(contextId)}`,
        method: "GET",
      }
    : {
        url: `http://127.0.0.1:${port}/a2a/jsonrpc`,
        method: "POST",
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ListTasks", params: { contextId } }),
      };
}
if (get) {
  // GetTask of a task created first.
  const created = await (
    await fetch(`http://127.0.0.1:${port}/a2a/rest/message:send`, {
      method: "POST",
      headers,
      body: JSON.stringify({ message }),
    })
  ).json();
  const id = created.task.id;
  request = rest
    ? { url: `http://127.0.0.1:${port}/a2a/rest/tasks/${encodeURIComponent(id)}`, method: "GET" }
    : {
        url: `http://127.0.0.1:${port}/a2a/jsonrpc`,
        method: "POST",
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "GetTask", params: { id } }),
      };
}
const r = await autocannon({
  ...request,
  headers,
  connections: intArg("connections", 1, 1000),
  duration: intArg("duration", 1, 600),
});
console.log(
  `${args.server} · ${args.scenario}: ${Math.round(r.requests.average)} req/s (under the profiler), ${r.non2xx} non-2xx, ${r.errors} errors`,
);
child.disconnect();
await new Promise((resolve) => child.on("exit", resolve));
for (const f of [db, `${db}-wal`, `${db}-shm`]) rmSync(f, { force: true });

const file = newestProfile(out, started);
const { self, inclusive, format } = summarizeProfile(file, { top: intArg("top", 1, 1000) });
console.log(
  `\nprofile: ${file}\n(percentages of busy time)\n\nself time\n${format(self)}\n\ninclusive time\n${format(inclusive)}`,
);
