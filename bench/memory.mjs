// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * `npm run bench:memory`: what one request, or a hundred peers, can make the example agent hold
 * (issue #25), measured against the stated bounds (README, "Hardening"). The example agent runs in a
 * child process (bench/lib/soak-server.mjs, --expose-gc), in memory and, with --sqlite, on a
 * temporary SQLite file; its heap and RSS are sampled over IPC.
 *
 *   large-tasks    40 SendMessages of 9 MB (JSON-RPC): heap after GC against the store's byte bound
 *   large-lists    ListTasks of pageSize 40 over those tasks (JSON-RPC, HTTP+JSON, includeArtifacts):
 *                  answer bytes and status, server RSS peak, and the p99 / max latency of a small
 *                  GetTask called all along (how long big answers hold the event loop)
 *   slow-readers   100 clients that ask for the largest answer allowed (GetTask of a task near
 *                  maxTaskBytes) and never read: server RSS over time, its peak, and after the
 *                  write timeout, against the stated bound (HTTP/1.1 JSON-RPC and HTTP+JSON)
 *
 * node bench/memory.mjs [--only large-tasks,large-lists,slow-readers] [--sqlite] [--clients 100] [--hold-s 70]
 * Nothing here is asserted: it prints figures. Not run in CI.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseBenchArgs } from "./lib/args.mjs";
import { installExitHandlers, onShutdown, shutdown, startWatchdog } from "./lib/children.mjs";
import { mib, startSoakServer } from "./lib/soak-child.mjs";

const usage =
  "node bench/memory.mjs [--only large-tasks,large-lists,slow-readers] [--sqlite] [--clients 100] [--hold-s 70] [--message-mb 9] [--tasks 40]";
const { args, intArg } = parseBenchArgs(usage, {
  only: { type: "string", default: "large-tasks,large-lists,slow-readers" },
  sqlite: { type: "boolean", default: false },
  clients: { type: "string", default: "100" },
  "hold-s": { type: "string", default: "70" },
  "message-mb": { type: "string", default: "9" },
  tasks: { type: "string", default: "40" },
});
const only = new Set(args.only.split(","));
const clients = intArg("clients", 1, 10_000);
const holdS = intArg("hold-s", 1, 3600);
const messageMb = intArg("message-mb", 1, 100);
const taskCount = intArg("tasks", 1, 1000);

installExitHandlers("agent");
startWatchdog(900 + holdS * 4);

let dbDir;
if (args.sqlite) {
  dbDir = mkdtempSync(join(tmpdir(), "a2a-memory-"));
  onShutdown(() => rmSync(dbDir, { recursive: true, force: true }));
}

async function startAgent() {
  const server = await startSoakServer(
    "agent",
    dbDir === undefined ? [] : ["--sqlite", join(dbDir, `tasks-${Date.now()}.db`)],
    { quiet: true },
  );
  const url = new URL(server.info.jsonrpc);
  return {
    server,
    port: Number(url.port),
    jsonrpc: url.pathname,
    rest: new URL(server.info.rest).pathname,
  };
}

/** One HTTP/1.1 request on a fresh connection; resolves { status, bytes, ms, body } once the answer is read. */
function call(port, method, path, body) {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        method,
        path,
        agent: false,
        headers: { "content-type": "application/json", "a2a-version": "1.0" },
      },
      (res) => {
        const chunks = [];
        let bytes = 0;
        let last = Buffer.alloc(0);
        res.on("data", (c) => {
          bytes += c.length;
          if (bytes < 1 << 20) chunks.push(c);
          last = Buffer.concat([last, c]).subarray(-300);
        });
        res.on("end", () =>
          resolve({
            status: res.statusCode,
            bytes,
            ms: performance.now() - started,
            head: Buffer.concat(chunks).toString("utf8", 0, 300),
            tail: last.toString("utf8"),
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", (e) =>
      resolve({
        status: 0,
        bytes: 0,
        ms: performance.now() - started,
        head: String(e.code ?? e.message),
        tail: "",
      }),
    );
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const rpc = (agent, method, params) =>
  call(agent.port, "POST", agent.jsonrpc, { jsonrpc: "2.0", id: 1, method, params });
const message = (text) => ({
  message: {
    messageId: `m-${Math.random().toString(36).slice(2)}`,
    role: "ROLE_USER",
    parts: [{ text }],
  },
});

/** Samples the server's RSS every `ms` until stopped; returns { stop(): { peak, samples } }. */
function sampleRss(server, ms = 200) {
  let peak = 0;
  const samples = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const s = await server.stats();
      peak = Math.max(peak, s.rss);
      samples.push({ t: performance.now(), rss: s.rss, heap: s.heapUsed });
      await new Promise((r) => setTimeout(r, ms));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { peak, samples };
    },
  };
}

/** Calls a small GetTask in a loop until stopped; returns latencies (ms). */
function probe(agent, taskId) {
  const latencies = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const r = await rpc(agent, "GetTask", { id: taskId, historyLength: 0 });
      latencies.push(r.ms);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      const sorted = latencies.sort((a, b) => a - b);
      const at = (p) =>
        sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
      return { n: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? Number.NaN };
    },
  };
}

const results = [];
function report(row) {
  results.push(row);
  console.log(
    `  ${row.what}: ${row.figure}${row.bound === undefined ? "" : `  (bound: ${row.bound})`}`,
  );
}

async function largeTasksAndLists() {
  const agent = await startAgent();
  const before = await agent.server.stats({ gc: true });
  console.log(
    `\nlarge-tasks: ${taskCount} SendMessages of ${messageMb} MB on JSON-RPC (${args.sqlite ? "SQLite" : "in memory"}); agent heap ${mib(before.heapUsed)} MiB, RSS ${mib(before.rss)} MiB`,
  );
  const outcomes = new Map();
  const text = "x".repeat(messageMb * 1_000_000);
  let smallTask;
  for (let i = 0; i < taskCount; i++) {
    const r = await rpc(agent, "SendMessage", message(text));
    const state =
      /"state":"(TASK_STATE_\w+)"/.exec(r.head)?.[1] ??
      (/"code":(-?\d+)/.exec(r.head)?.[1]
        ? `error ${/"code":(-?\d+)/.exec(r.head)[1]}`
        : `HTTP ${r.status}`);
    outcomes.set(state, (outcomes.get(state) ?? 0) + 1);
  }
  {
    const r = await rpc(agent, "SendMessage", message("small"));
    smallTask = /"id":"([^"]+)"/.exec(r.head)?.[1];
  }
  const after = await agent.server.stats({ gc: true });
  report({ what: "outcomes", figure: [...outcomes].map(([k, v]) => `${k} × ${v}`).join(", ") });
  report({
    what: "heap after GC (in-memory store: held tasks)",
    figure: `${mib(after.heapUsed)} MiB (+${mib(after.heapUsed - before.heapUsed)}), RSS ${mib(after.rss)} MiB`,
    bound: args.sqlite
      ? "SQLite: on disk"
      : "store 64 MiB per owner (maxBytesPerOwner) + object overhead",
  });
  if (!only.has("large-lists")) return agent.server.stop();

  console.log("\nlarge-lists: ListTasks pageSize 40, a small GetTask called every 20 ms meanwhile");
  for (const [label, run] of [
    ["JSON-RPC ListTasks pageSize 40", () => rpc(agent, "ListTasks", { pageSize: 40 })],
    [
      "JSON-RPC ListTasks pageSize 40 includeArtifacts",
      () => rpc(agent, "ListTasks", { pageSize: 40, includeArtifacts: true }),
    ],
    [
      "HTTP+JSON GET /tasks?pageSize=40",
      () => call(agent.port, "GET", `${agent.rest}/tasks?pageSize=40`),
    ],
    [
      "HTTP+JSON GET /tasks?pageSize=40&includeArtifacts=true",
      () => call(agent.port, "GET", `${agent.rest}/tasks?pageSize=40&includeArtifacts=true`),
    ],
  ]) {
    await agent.server.stats({ gc: true });
    const rss = sampleRss(agent.server, 50);
    const latency = probe(agent, smallTask);
    await new Promise((r) => setTimeout(r, 200));
    const r = await run();
    await new Promise((r) => setTimeout(r, 200));
    const small = await latency.stop();
    const { peak } = await rss.stop();
    const pages = /"nextPageToken":"([^"]+)"/.test(r.tail ?? "")
      ? "nextPageToken set"
      : "last page";
    report({
      what: label,
      figure: `HTTP ${r.status}, ${mib(r.bytes)} MiB in ${r.ms.toFixed(0)} ms (${r.status === 200 ? pages : r.head.slice(0, 120)}); RSS peak ${mib(peak)} MiB; small GetTask p50 ${small.p50.toFixed(1)} / p99 ${small.p99.toFixed(1)} / max ${small.max.toFixed(0)} ms (${small.n} calls)`,
      bound: "answer ≤ maxResponseBytes 16 MiB",
    });
  }
  await agent.server.stop();
}

/** A task close to maxTaskBytes (echoed: history + artifact): its id. */
async function largestTask(agent) {
  const r = await rpc(agent, "SendMessage", message("y".repeat(7_800_000)));
  const id = /"id":"([^"]+)"/.exec(r.head)?.[1];
  const got = await rpc(agent, "GetTask", { id });
  return { id, bytes: got.bytes };
}

/** `n` raw sockets that each send `request` and never read; returns close(). */
function neverReading(port, requestText, n) {
  const sockets = [];
  for (let i = 0; i < n; i++) {
    const socket = connect(port, "127.0.0.1");
    socket.on("error", () => {});
    socket.on("connect", () => {
      socket.write(requestText);
      socket.pause(); // never read: the server's writes stall once the socket buffers are full
    });
    sockets.push(socket);
  }
  return {
    open: () => sockets.filter((s) => !s.destroyed && s.readyState !== "closed").length,
    close: () => {
      for (const s of sockets) s.destroy();
    },
  };
}

function httpText(method, path, body) {
  const payload = body === undefined ? "" : JSON.stringify(body);
  return `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nA2A-Version: 1.0\r\nContent-Length: ${Buffer.byteLength(payload)}\r\n\r\n${payload}`;
}

async function slowReaders() {
  for (const binding of ["JSON-RPC", "HTTP+JSON"]) {
    const agent = await startAgent();
    const task = await largestTask(agent);
    const base = await agent.server.stats({ gc: true });
    console.log(
      `\nslow-readers (${binding}): ${clients} clients ask for a ${mib(task.bytes)} MiB task and never read; agent RSS ${mib(base.rss)} MiB; watching ${holdS} s`,
    );
    const text =
      binding === "JSON-RPC"
        ? httpText("POST", agent.jsonrpc, {
            jsonrpc: "2.0",
            id: 1,
            method: "GetTask",
            params: { id: task.id },
          })
        : httpText("GET", `${agent.rest}/tasks/${task.id}`);
    const rss = sampleRss(agent.server, 250);
    const peers = neverReading(agent.port, text, clients);
    const start = performance.now();
    const marks = [];
    /** Live memory (heap + external after a full GC) 10 s in: what the agent holds for the stalled peers. */
    let live;
    for (let s = 5; s <= holdS; s += 5) {
      await new Promise((r) => setTimeout(r, 5000));
      const now = await agent.server.stats({ gc: s === 10 });
      if (s === 10) live = now.heapUsed + now.external - (base.heapUsed + base.external);
      marks.push(`${s}s ${mib(now.rss)}`);
    }
    const { peak } = await rss.stop();
    const end = await agent.server.stats({ gc: true });
    const probeAfter = await rpc(agent, "GetTask", { id: task.id, historyLength: 0 });
    report({
      what: `${binding}: ${clients} never-reading clients × ${mib(task.bytes)} MiB`,
      figure: `RSS ${mib(base.rss)} → peak ${mib(peak)} MiB (+${mib(peak - base.rss)}); live 10 s in (heap + external after GC) +${live === undefined ? "?" : mib(live)} MiB; after ${((performance.now() - start) / 1000).toFixed(0)} s ${mib(end.rss)} MiB, heap ${mib(end.heapUsed)} MiB; sockets still open ${peers.open()}/${clients}; a normal GetTask meanwhile: HTTP ${probeAfter.status} in ${probeAfter.ms.toFixed(0)} ms; RSS over time (MiB): ${marks.join(", ")}`,
      bound:
        "live ≤ the write budget (64 MiB, shared by the agent's listeners) + 2 answers; the RSS peak is the answers' encoding garbage (peers × answer) until GC; all freed after the write timeout",
    });
    peers.close();
    await agent.server.stop();
  }
}

if (only.has("large-tasks") || only.has("large-lists")) await largeTasksAndLists();
if (only.has("slow-readers")) await slowReaders();
await shutdown(0);
