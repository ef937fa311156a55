#!/usr/bin/env node
/**
 * What "× bare node:http" means on this machine: bare node:http answering a JSON-RPC SendMessage
 * (parse the body, write a fixed answer) with N µs of synchronous CPU work added per request, for
 * several N, in one run:
 *
 *   node bench/bare-plus-work.mjs [--work 0,5,10,20,40] [--duration 4] [--connections 50]
 *
 * Prints req/s, the ratio to N = 0 and the server's CPU time per request. On a 2-core VM the CPU per
 * request grows by more than N: a server that is the bottleneck leaves the load generator idle, and
 * every response then pays for waking it up (inside writev). It is the yardstick for the agent path's
 * ratios: an agent whose own work is N µs per request cannot do better than this table's row N.
 */
import { fork } from "node:child_process";
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { parseBenchArgs } from "./lib/args.mjs";
import { installExitHandlers, shutdown, startWatchdog, track } from "./lib/children.mjs";
import { measureAutocannon } from "./lib/load.mjs";
import { fmtInt, fmtRatio, table } from "./lib/report.mjs";
import { writeResults } from "./lib/results.mjs";

if (process.argv[2] === "--serve") {
  // The child: bare node:http plus `work` µs of busy CPU per request.
  const work = Number(process.argv[3]);
  const answer = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    result: {
      message: { messageId: "m", contextId: "c", role: "ROLE_AGENT", parts: [{ text: "hi" }] },
    },
  });
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      JSON.parse(Buffer.concat(chunks).toString("utf8"));
      const until = performance.now() + work / 1000;
      while (performance.now() < until);
      res.writeHead(200, {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(answer),
      });
      res.end(answer);
    });
  });
  process.on("disconnect", () => process.exit(0));
  process.on("message", (m) => {
    if (m?.cmd === "cpu") {
      const { user, system } = process.cpuUsage();
      process.send?.({ cpu: user + system });
    }
  });
  server.listen(0, "127.0.0.1", () => process.send?.({ ready: true, port: server.address().port }));
} else {
  const { args, intArg } = parseBenchArgs(
    "usage: node bench/bare-plus-work.mjs [--work 0,5,10,20,40] [--duration 4] [--connections 50] [--results file.json]",
    {
      work: { type: "string", default: "0,5,10,20,40" },
      duration: { type: "string", default: "4" },
      connections: { type: "string", default: "50" },
      results: { type: "string", default: "" },
    },
  );
  const works = args.work.split(",").map(Number);
  if (works.some((w) => !Number.isFinite(w) || w < 0))
    throw new Error(`--work: non-negative µs values, got ${args.work}`);
  const duration = intArg("duration", 1, 600);
  const connections = intArg("connections", 1, 1000);
  installExitHandlers("children");
  startWatchdog(30 + works.length * (duration + 5));
  const rows = [];
  const figures = [];
  let base;
  for (const work of works) {
    const child = track(
      fork(fileURLToPath(import.meta.url), ["--serve", String(work)], {
        stdio: ["ignore", "inherit", "inherit", "ipc"],
      }),
    );
    const port = await new Promise((resolve) =>
      child.on("message", (m) => m?.ready && resolve(m.port)),
    );
    const cpu = () =>
      new Promise((resolve) => {
        const on = (m) => {
          if (m?.cpu === undefined) return;
          child.off("message", on);
          resolve(m.cpu);
        };
        child.on("message", on);
        child.send({ cmd: "cpu" });
      });
    const request = {
      url: `http://127.0.0.1:${port}/`,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: {} }),
    };
    const r = await measureAutocannon({ cpu }, request, { connections, warmup: 1, duration });
    base ??= r.reqPerSec;
    const perRequest = (r.serverCpu * 1e6) / r.reqPerSec;
    figures.push({
      scenario: `yardstick: bare + ${work} µs of work`,
      server: "bare",
      unit: "req/s",
      value: r.reqPerSec,
      p50: r.p50,
      p99: r.p99,
      serverCpu: r.serverCpu,
      clientCpu: r.clientCpu,
      vsBare: fmtRatio(r.reqPerSec / base),
      note: `server CPU ${perRequest.toFixed(1)} µs/request`,
    });
    rows.push([
      `bare + ${work} µs`,
      fmtInt(r.reqPerSec),
      fmtRatio(r.reqPerSec / base),
      `${((r.serverCpu * 1e6) / r.reqPerSec).toFixed(1)} µs`,
      `${Math.round(r.clientCpu * 100)}%`,
    ]);
    child.disconnect();
  }
  console.log(table(["server", "req/s", "vs bare", "server CPU per request", "client CPU"], rows));
  writeResults(args.results, {
    bench: "bare-plus-work",
    rows: figures,
    notes: [
      "yardstick: bare node:http with N µs of synchronous work added per request; an agent whose own work per request is N µs cannot beat row N",
    ],
  });
  await shutdown(0);
}
