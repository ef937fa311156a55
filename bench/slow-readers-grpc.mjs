#!/usr/bin/env node
/**
 * Clients that never read, against the gRPC servers (issue #25, point 3): what the server holds for
 * them, and whether it lets go.
 *
 *   node bench/slow-readers-grpc.mjs [--stack grpc-js,connect,connect-http] [--streams 100] [--size 8]
 *                                    [--timeout 5000] [--tree <checkout>]
 *
 * For each stack a server process (bench/slow-readers/server.ts, bundled with esbuild against `--tree`,
 * default this checkout; point it at another checkout, e.g. the main branch, for "before" figures)
 * answers GetTask with a task of `--size` MiB, with `stalledWriteTimeoutMs: --timeout` (a checkout that
 * does not know the option ignores it). This process then opens `--streams` calls of GetTask that never
 * read: on gRPC (grpc-js, connect) HTTP/2 streams on connections announcing a stream window of 0 (100
 * streams per connection, the servers' limit), so flow control holds every byte of the answers in the
 * server; on connect-http (the Connect protocol, binary, on mountConnectRoutes over HTTP/1.1) one raw
 * socket per call that never reads. It samples the server's RSS every 200 ms and reports:
 *   - before: RSS after a warm-up call read normally, after a full GC;
 *   - peak:   the highest RSS while the calls are held;
 *   - after:  live memory (and RSS) after a full GC once every call has been answered and `--timeout` + 5 s
 *             have passed since (or 1 s after every stream was reset), the clients still connected, still not reading;
 *   - reset:  how many of the gRPC streams the server reset (RST_STREAM CANCEL).
 *   - live while stalled: heap + external memory after a full GC once every call has been answered, the
 *     clients still not reading (and RSS then), and the peak of the write budget's bytes (64 MiB);
 * Bounds (the fix's promise): while stalled, held ≤ the write budget + one answer and its encoding; after,
 * ≤ 64 MiB, whatever the streams and the size. The RSS peak is before garbage collection (answers encoded,
 * then cut by the budget, are garbage until V8 collects them). Not run in CI.
 */
import { fork } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import http2 from "node:http2";
import net from "node:net";
import { join, resolve } from "node:path";
import { build, stop as stopEsbuild } from "esbuild";
import { parseBenchArgs } from "./lib/args.mjs";
import { cacheDir, root } from "./lib/build.mjs";
import { installExitHandlers, shutdown, startWatchdog, track } from "./lib/children.mjs";
import { table, verdict } from "./lib/report.mjs";

const USAGE = `usage: node bench/slow-readers-grpc.mjs [--stack grpc-js,connect,connect-http] [--streams 100] [--size 8] [--timeout 5000] [--tree <checkout>]`;
const { args, intArg } = parseBenchArgs(USAGE, {
  stack: { type: "string", default: "grpc-js,connect,connect-http" },
  streams: { type: "string", default: "100" },
  size: { type: "string", default: "8" },
  timeout: { type: "string", default: "5000" },
  tree: { type: "string", default: root },
});
const STACKS = args.stack.split(",").map((s) => s.trim());
for (const s of STACKS) {
  if (!["grpc-js", "connect", "connect-http"].includes(s)) {
    console.error(`unknown stack ${s}`);
    process.exit(2);
  }
}
const STREAMS = intArg("streams", 1, 10_000);
const SIZE_MB = intArg("size", 1, 256);
const TIMEOUT_MS = intArg("timeout", 100, 600_000);
const TREE = resolve(args.tree);
const BOUND_MB = 64;
const MiB = 1024 * 1024;

installExitHandlers("bench servers");
startWatchdog(60 + STACKS.length * (TIMEOUT_MS / 1000 + 60));

/** Bundles the server against `tree`: its runtime sources and its generated example. */
async function bundleServer(tree) {
  const { name, exports } = JSON.parse(readFileSync(join(tree, "runtime", "package.json"), "utf8"));
  const outfile = join(
    cacheDir,
    `slow-readers-server-${Buffer.from(tree).toString("base64url").slice(-24)}.mjs`,
  );
  mkdirSync(cacheDir, { recursive: true });
  await build({
    entryPoints: [join(root, "bench", "slow-readers", "server.ts")],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    logLevel: "warning",
    plugins: [
      {
        name: "tree",
        setup(b) {
          // The runtime from `tree`'s sources, the generated example from `tree`.
          b.onResolve({ filter: new RegExp(`^${name.replace("/", "\\/")}(/|$)`) }, (a) => ({
            path: join(
              tree,
              "runtime",
              exports[`.${a.path.slice(name.length)}`]["@protoc-gen-a2a/source"],
            ),
          }));
          b.onResolve({ filter: /generated-example\// }, (a) =>
            a.importer.startsWith(join(root, "bench"))
              ? {
                  path: join(tree, a.path.slice(a.path.indexOf("generated-example/"))).replace(
                    /\.js$/,
                    ".ts",
                  ),
                }
              : undefined,
          );
        },
      },
    ],
  });
  await stopEsbuild();
  return outfile;
}

/** Starts one server; resolves `{ port, mem(gc) }`. */
function startServer(script, config) {
  return new Promise((resolveStart, reject) => {
    const child = track(
      fork(script, [JSON.stringify(config)], { stdio: ["ignore", "inherit", "inherit", "ipc"] }),
    );
    const waiters = [];
    const mem = (gc) =>
      new Promise((r) => {
        waiters.push(r);
        child.send({ cmd: "mem", gc });
      });
    child.on("message", (m) => {
      if (m?.ready === true) resolveStart({ child, port: m.port, mem });
      else if (m?.mem !== undefined)
        waiters.shift()?.({ ...m.mem, served: m.served, budget: m.budget ?? null });
    });
    child.once("exit", (code) => reject(new Error(`server exited (${code})`)));
  });
}

const GET_TASK = (() => {
  // GetTaskRequest { id: "big" }: field 2 (id), length-delimited.
  const message = Buffer.from([0x12, 3, ...Buffer.from("big")]);
  const framed = Buffer.alloc(5 + message.length);
  framed.writeUInt32BE(message.length, 1);
  message.copy(framed, 5);
  return { message, framed };
})();

/** A call read to its end (the warm-up). */
function readOne(stack, port) {
  return new Promise((resolveRead, reject) => {
    if (stack === "connect-http") {
      fetch(`http://127.0.0.1:${port}/c/lf.a2a.v1.A2AService/GetTask`, {
        method: "POST",
        headers: { "content-type": "application/proto", "a2a-version": "1.0" },
        body: GET_TASK.message,
      })
        .then((r) => r.arrayBuffer())
        .then((b) => resolveRead(b.byteLength), reject);
      return;
    }
    const session = http2.connect(`http://127.0.0.1:${port}`);
    session.on("error", reject);
    const req = session.request({
      ":method": "POST",
      ":path": "/lf.a2a.v1.A2AService/GetTask",
      "content-type": "application/grpc",
      te: "trailers",
      "a2a-version": "1.0",
    });
    let n = 0;
    req.on("data", (c) => (n += c.length));
    req.on("close", () => {
      session.close();
      resolveRead(n);
    });
    req.end(GET_TASK.framed);
  });
}

/** Opens `count` never-reading calls; returns `{ reset(), close() }`. */
function holdNeverReading(stack, port, count) {
  const closers = [];
  let reset = 0;
  if (stack === "connect-http") {
    const head = `POST /c/lf.a2a.v1.A2AService/GetTask HTTP/1.1\r\nhost: x\r\ncontent-type: application/proto\r\na2a-version: 1.0\r\ncontent-length: ${GET_TASK.message.length}\r\n\r\n`;
    for (let i = 0; i < count; i++) {
      const socket = net.connect(port, "127.0.0.1");
      socket.on("error", () => {});
      socket.pause();
      socket.write(Buffer.concat([Buffer.from(head), GET_TASK.message]));
      closers.push(() => socket.destroy());
    }
    return { reset: () => undefined, close: () => closeAll(closers) };
  }
  for (let opened = 0; opened < count; ) {
    const session = http2.connect(`http://127.0.0.1:${port}`, {
      settings: { initialWindowSize: 0 },
    });
    session.on("error", () => {});
    closers.push(() => session.destroy());
    for (let i = 0; i < 100 && opened < count; i++, opened++) {
      const req = session.request({
        ":method": "POST",
        ":path": "/lf.a2a.v1.A2AService/GetTask",
        "content-type": "application/grpc",
        te: "trailers",
        "a2a-version": "1.0",
      });
      req.on("error", () => {});
      req.pause();
      req.on("close", () => req.rstCode === http2.constants.NGHTTP2_CANCEL && reset++);
      req.end(GET_TASK.framed);
    }
  }
  return { reset: () => reset, close: () => closeAll(closers) };
}

function closeAll(closers) {
  for (const close of closers) close();
}

const mb = (bytes) => `${(bytes / MiB).toFixed(0)} MB`;

async function measure(script, stack) {
  const server = await startServer(script, {
    stack,
    sizeMb: SIZE_MB,
    stalledWriteTimeoutMs: TIMEOUT_MS,
  });
  const answered = await readOne(stack, server.port);
  const warm = await server.mem(true);
  const before = warm.rss;
  const liveBefore = warm.heapUsed + warm.external;
  const held = holdNeverReading(stack, server.port, STREAMS);
  let peak = before;
  // While the calls are held: RSS and the budget's bytes after a full GC, once every call has been answered.
  let live;
  let budgetPeak = 0;
  // Until every call has been answered and the timeout has passed since, with margin; or (gRPC) every stream was reset a second ago.
  const started = Date.now();
  let end = Number.POSITIVE_INFINITY;
  while (Date.now() < end) {
    const mem = await server.mem(false);
    peak = Math.max(peak, mem.rss);
    budgetPeak = Math.max(budgetPeak, mem.budget?.bytes ?? 0);
    if (live === undefined && mem.served > STREAMS) {
      const gced = await server.mem(true);
      live = { rss: gced.rss, bytes: gced.heapUsed + gced.external, budget: gced.budget };
    }
    if (end === Number.POSITIVE_INFINITY && mem.served > STREAMS)
      end = Date.now() + TIMEOUT_MS + 5000;
    if (stack !== "connect-http" && held.reset() === STREAMS)
      end = Math.min(end, Date.now() + 1000);
    if (Date.now() - started > 10 * 60_000) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const last = await server.mem(true);
  const after = last.rss;
  const liveAfter = last.heapUsed + last.external;
  const reset = held.reset();
  held.close();
  server.child.kill();
  return { stack, answered, before, liveBefore, peak, live, budgetPeak, after, liveAfter, reset };
}

console.log(
  `slow readers: ${STREAMS} never-reading calls of GetTask (${SIZE_MB} MiB answer each), stalledWriteTimeoutMs ${TIMEOUT_MS}, tree ${TREE}`,
);
const script = await bundleServer(TREE);
const rows = [];
for (const stack of STACKS) {
  const r = await measure(script, stack);
  const heldMb = (r.liveAfter - r.liveBefore) / MiB;
  const liveMb = r.live === undefined ? Number.NaN : (r.live.bytes - r.liveBefore) / MiB;
  // Bound while held (a tree with WriteBudget): the budget plus one answer and its encoding (the one whose write went over is never cut).
  const liveBound = 64 + 3 * SIZE_MB;
  const budgeted = r.live?.budget !== null && r.live?.budget !== undefined;
  rows.push([
    r.stack,
    mb(r.before),
    mb(r.peak),
    Number.isNaN(liveMb) ? "-" : `${liveMb.toFixed(0)} MB`,
    r.live === undefined ? "-" : mb(r.live.rss),
    budgeted ? `${mb(r.budgetPeak)} / 64 MB` : "none",
    `${heldMb.toFixed(0)} MB`,
    mb(r.after),
    r.stack === "connect-http" ? "n/a" : `${r.reset}/${STREAMS}`,
    verdict(heldMb <= BOUND_MB && (!budgeted || liveMb <= liveBound)),
  ]);
}
console.log(
  table(
    [
      "stack",
      "RSS before",
      "RSS peak",
      "live while stalled (heap + external, GC'd, − before)",
      "RSS then",
      "write budget peak",
      "live after (GC'd, − before)",
      "RSS after",
      "streams reset",
      "verdict",
    ],
    rows,
  ),
);
console.log(
  `bounds: live while stalled ≤ 64 MiB (the write budget) + ${3 * SIZE_MB} MiB (one answer and its encoding), when the tree has a write budget; held after the timeout ≤ ${BOUND_MB} MiB.\n` +
    "RSS is not live memory: answers encoded, then cut by the budget, are garbage until V8 collects them (the peak), and glibc keeps the freed 8 MiB blocks\n" +
    "(its mmap threshold rises to the largest block freed) until they are reused or trimmed; run with MALLOC_MMAP_THRESHOLD_=131072 to see RSS follow live memory.",
);
await shutdown(rows.every((r) => r.at(-1) === verdict(true)) ? 0 : 1);
