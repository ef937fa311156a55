// Agent instances of bench/postgres.mjs: bench/postgres/server.ts (bundled) in child processes, tracked by
// bench/lib/children.mjs (killed on exit, signals, errors), each started for one measurement and stopped after it.
import { fork } from "node:child_process";
import { isShuttingDown, shutdown, track } from "../lib/children.mjs";

/**
 * Forks `script kind` with `env` added to this process's environment; resolves once it listens:
 * `{ kind, label, port, url, cpu(), queries(reset), busy(), go(taskId), done(taskId), stop() }`.
 * - cpu(): its CPU time so far (user + system, µs);
 * - queries(reset): `{ queries: { kind: [count, ms] }, turns }`: its statements by kind (postgres) and the turns
 *   that ended, since the last reset (zeroed after when `reset`);
 * - busy(): the turns running now;
 * - go(taskId) / done(taskId): starts a waiting `bench-stream` turn / resolves with its `committed` stamps;
 * - stop(): closes its store (the instance leaves the cluster) and waits for it to exit (SIGKILL after 10 s).
 * Any other exit while the script runs ends the script (exit 1).
 */
export function startInstance(script, kind, { env = {}, label = kind } = {}) {
  return new Promise((resolve, reject) => {
    const child = track(
      fork(script, [kind], {
        stdio: ["ignore", "inherit", "inherit", "ipc"],
        env: { ...process.env, ...env },
      }),
    );
    const timer = setTimeout(() => reject(new Error(`${label}: not ready within 30 s`)), 30_000);
    const waiting = { cpu: [], queries: [], busy: [] };
    /** Task id → resolve of done(), or the message when it came first. */
    const dones = new Map();
    let stopping = false;
    const ask = (what, message) =>
      new Promise((r) => {
        waiting[what].push(r);
        child.send(message);
      });
    const instance = {
      kind,
      label,
      child,
      cpu: () => ask("cpu", { cmd: "cpu" }),
      queries: (reset = false) => ask("queries", { cmd: "queries", reset }),
      busy: () => ask("busy", { cmd: "busy" }),
      go: (taskId) => child.send({ cmd: "go", taskId }),
      done: (taskId) =>
        new Promise((r) => {
          const early = dones.get(taskId);
          if (early !== undefined && typeof early !== "function") {
            dones.delete(taskId);
            r(early);
          } else dones.set(taskId, r);
        }),
      stop() {
        stopping = true;
        if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
        const exited = new Promise((r) => child.once("exit", r));
        const kill = setTimeout(() => child.kill("SIGKILL"), 10_000);
        child.send({ cmd: "close" });
        return exited.finally(() => clearTimeout(kill));
      },
    };
    child.on("message", (m) => {
      if (typeof m?.cpu === "number") return waiting.cpu.shift()?.(m.cpu);
      if (m?.queries !== undefined)
        return waiting.queries.shift()?.({ queries: m.queries, turns: m.turns });
      if (typeof m?.busy === "number") return waiting.busy.shift()?.(m.busy);
      if (typeof m?.done === "string") {
        const r = dones.get(m.done);
        if (typeof r === "function") {
          dones.delete(m.done);
          r(m.committed);
        } else dones.set(m.done, m.committed);
        return;
      }
      if (m?.ready === true && typeof m.port === "number") {
        clearTimeout(timer);
        resolve(Object.assign(instance, { port: m.port, url: `http://127.0.0.1:${m.port}/` }));
      }
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${label}: exited early (${signal ?? code})`));
      if (!isShuttingDown() && !stopping) {
        console.error(`${label}: the server process exited unexpectedly (${signal ?? code})`);
        void shutdown(1);
      }
    });
  });
}
