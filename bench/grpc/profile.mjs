#!/usr/bin/env node
/**
 * CPU profile of one bench/grpc.mjs server under h2load (nghttp2) load:
 *
 *   node bench/grpc/profile.mjs [--server example] [--scenario grpc-message|grpc-task|grpc-get] [--duration 6]
 *                               [--connections 10] [--streams 10] [--top 30]
 *
 * Runs the server (bench/grpc/server.ts) with `--cpu-prof` into bench/output/ (not committed; open the
 * .cpuprofile in Chrome DevTools or speedscope for the flame graph), loads it with h2load, and prints the
 * functions with the most self and inclusive time, and the busy time by package (GC, grpc-js, Connect,
 * protobuf-es, node:http2, the bundle: runtime + generated code + agent). Needs h2load on PATH (Debian: apt-get install nghttp2-client).
 */
import { fork, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseBenchArgs } from "../lib/args.mjs";
import { bundle, root } from "../lib/build.mjs";
import { newestProfile, summarizeProfile } from "../lib/cpu-profile.mjs";

const { args, intArg } = parseBenchArgs(
  "usage: node bench/grpc/profile.mjs [--server example|example-connect|sdk-agent|ours|grpcjs|sdk|connect] [--scenario grpc-message|grpc-task|grpc-get] [--duration 6] [--connections 10] [--streams 10] [--top 30]",
  {
    server: { type: "string", default: "example" },
    scenario: { type: "string", default: "grpc-message" },
    duration: { type: "string", default: "6" },
    connections: { type: "string", default: "10" },
    streams: { type: "string", default: "10" },
    top: { type: "string", default: "30" },
  },
);
if (spawnSync("h2load", ["--version"]).status !== 0) {
  console.error("h2load is not on PATH (Debian: apt-get install nghttp2-client)");
  process.exit(2);
}
const out = join(root, "bench", "output");
mkdirSync(out, { recursive: true });
const files = await bundle({
  "grpc-server": "bench/grpc/server.ts",
  "grpc-requests": "bench/grpc/requests.ts",
});
const rq = await import(pathToFileURL(files["grpc-requests"]).href);
const started = Date.now();
const child = fork(files["grpc-server"], [args.server], {
  execArgv: ["--cpu-prof", `--cpu-prof-dir=${out}`],
  stdio: ["ignore", "inherit", "inherit", "ipc"],
});
const port = await new Promise((resolve) =>
  child.on("message", (m) => m?.ready && resolve(m.port)),
);
const stateless = ["ours", "grpcjs", "sdk", "connect"].includes(args.server);
const texts = stateless
  ? { message: rq.ECHO_TEXT, task: "task" }
  : { message: rq.MESSAGE_TEXT, task: rq.TASK_TEXT };
let method = "SendMessage";
let body = rq.sendMessageRequest(args.scenario === "grpc-message" ? texts.message : texts.task);
if (args.scenario === "grpc-get") {
  const created = await rq.rawCall(port, "SendMessage", rq.sendMessageRequest(texts.task));
  const id = rq.describeSendMessageResponse(created.messages[0]).taskId;
  method = "GetTask";
  body = rq.getTaskRequest(id);
}
const bodyFile = join(out, "grpc-profile-body.bin");
writeFileSync(bodyFile, rq.frame(body));
const h2 = spawnSync(
  "h2load",
  [
    "-c",
    args.connections,
    "-m",
    args.streams,
    "-D",
    String(intArg("duration", 1, 600)),
    "-d",
    bodyFile,
    "-H",
    "content-type: application/grpc",
    "-H",
    "te: trailers",
    "-H",
    "a2a-version: 1.0",
    `http://127.0.0.1:${port}/lf.a2a.v1.A2AService/${method}`,
  ],
  { encoding: "utf8" },
);
const rps = /finished in [\d.]+s, ([\d.]+) req\/s/.exec(h2.stdout)?.[1];
console.log(
  `${args.server} · ${args.scenario}: ${rps} req/s (under the profiler); ${/requests: .*/.exec(h2.stdout)?.[0]}`,
);
child.disconnect();
await new Promise((resolve) => child.on("exit", resolve));

const file = newestProfile(out, started);
const category = (n) => {
  const { url, functionName } = n.callFrame;
  if (functionName === "(garbage collector)") return "GC";
  for (const [needle, name] of [
    ["@grpc/grpc-js", "grpc-js"],
    ["@connectrpc", "Connect"],
    ["@bufbuild/protobuf", "protobuf-es"],
    ["@a2a-js", "@a2a-js/sdk"],
    ["grpc-server.mjs", "bundle (runtime, generated code, agent)"],
  ]) {
    if (url.includes(needle)) return name;
  }
  if (url.startsWith("node:internal/http2")) return "node:http2";
  if (url.startsWith("node:")) return "other node internals";
  return url === "" ? "native / program" : "other";
};
const { busy, idle, self, inclusive, byCategory, format } = summarizeProfile(file, {
  top: intArg("top", 1, 1000),
  category,
});
console.log(
  `\nprofile: ${file}\nbusy ${(busy / 1e6).toFixed(2)} s, idle ${(idle / 1e6).toFixed(2)} s (percentages of busy time)\n\nby package\n${format(byCategory)}\n\nself time\n${format(self)}\n\ninclusive time\n${format(inclusive)}`,
);
