// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
// Starts bench/lib/soak-server.mjs (bundled with esbuild) in a child process with --expose-gc and an IPC
// channel, tracked by bench/lib/children.mjs (killed when the script ends); `stats({ gc })` asks it for
// its memory and fds.
import { fork } from "node:child_process";
import { bundle } from "./build.mjs";
import { isShuttingDown, shutdown, track } from "./children.mjs";

/**
 * Forks the server in `mode` ("streams" | "agent") with `args`; resolves `{ child, info, stats, log, stop }` once it
 * is ready (`info`: what it sent: ports, addresses; `log`: with `quiet`, its output lines counted instead of
 * printed; `stop()` ends it on purpose). A server that dies otherwise while the script runs ends the script.
 */
export async function startSoakServer(mode, args = [], { quiet = false } = {}) {
  const { "soak-server": script } = await bundle({ "soak-server": "bench/lib/soak-server.mjs" });
  return new Promise((resolve, reject) => {
    const child = track(
      fork(script, [mode, ...args], {
        execArgv: ["--expose-gc"],
        stdio: ["ignore", quiet ? "pipe" : "inherit", quiet ? "pipe" : "inherit", "ipc"],
      }),
    );
    /** With `quiet`: the server's output lines, counted, the first few kept. */
    const log = { lines: 0, first: [] };
    if (quiet) {
      for (const out of [child.stdout, child.stderr]) {
        let partial = "";
        out.setEncoding("utf8");
        out.on("data", (text) => {
          const lines = (partial + text).split("\n");
          partial = lines.pop();
          for (const line of lines) {
            log.lines++;
            if (log.first.length < 5) log.first.push(line.slice(0, 300));
          }
        });
      }
    }
    const timer = setTimeout(
      () => reject(new Error(`${mode} server: not ready within 30 s`)),
      30_000,
    );
    const waiters = [];
    /** The server's { heapUsed, rss, external, fds, live, cpu }, after a full GC when `gc`. */
    const stats = ({ gc = false } = {}) =>
      new Promise((r) => {
        waiters.push(r);
        child.send({ cmd: "stats", gc });
      });
    /** Set by stop(): the exit that follows is expected. */
    let stopping = false;
    /** Ends the server on purpose (not "exited unexpectedly"); resolves once it has exited. */
    const stop = () => {
      stopping = true;
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
      const exited = new Promise((r) => child.once("exit", r));
      child.kill();
      return exited;
    };
    child.on("message", (m) => {
      if (m?.stats !== undefined) return waiters.shift()?.(m.stats);
      if (m?.ready === true) {
        clearTimeout(timer);
        resolve({ child, info: m, stats, log, stop });
      }
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${mode} server exited early (${signal ?? code})`));
      if (!isShuttingDown() && !stopping) {
        console.error(`${mode} server: exited unexpectedly (${signal ?? code})`);
        void shutdown(1);
      }
    });
  });
}

/** `n` bytes as MiB, one decimal. */
export const mib = (n) => (n / 1024 / 1024).toFixed(1);
