// Child processes of a bench script: started, tracked, always ended (exit, signals, errors, watchdog).
import { fork } from "node:child_process";

const children = new Set();
const cleanups = [];
let shuttingDown = false;
let noun = "children";

/** Tracks a child process so it is killed when the script ends. */
export function track(child) {
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
}

/** Runs `fn` in shutdown(), after the children are reaped and before the process exits. */
export function onShutdown(fn) {
  cleanups.push(fn);
}

export const isShuttingDown = () => shuttingDown;

function killChildren() {
  shuttingDown = true;
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
}

/** Kills the children, waits (at most 2 s) until they are reaped, then exits. */
export async function shutdown(code) {
  const exits = [...children]
    .filter((c) => c.exitCode === null && c.signalCode === null)
    .map((c) => new Promise((r) => c.once("exit", r)));
  killChildren();
  await Promise.race([Promise.all(exits), new Promise((r) => setTimeout(r, 2000).unref())]);
  for (const fn of cleanups) fn();
  process.exit(code);
}

/** Kills the children on exit, on SIGINT/SIGTERM/SIGHUP (exit 130) and on any uncaught error (exit 1). `what` names them in the signal message. */
export function installExitHandlers(what = "children") {
  noun = what;
  process.on("exit", killChildren); // last resort, synchronous
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    process.on(signal, () => {
      console.error(`\n${signal}: stopping the ${noun}`);
      void shutdown(130);
    });
  }
  process.on("uncaughtException", (e) => {
    console.error("benchmark failed:", e);
    void shutdown(1);
  });
  process.on("unhandledRejection", (e) => {
    console.error("benchmark failed:", e);
    void shutdown(1);
  });
}

/** Ends the script if it runs past `seconds`; unref'd so it never keeps it alive. */
export function startWatchdog(seconds) {
  setTimeout(() => {
    console.error(`watchdog: still running after ${seconds} s, giving up`);
    void shutdown(1);
  }, seconds * 1000).unref();
}

/**
 * Forks a bench server (`node script kind`, IPC): resolves `{ kind, child, cpu, port }` once it sends
 * `{ ready: true, port }`. `cpu()` asks the server for its CPU time so far (user + system, µs).
 * A server that exits while the script is not shutting down ends the script (exit 1).
 */
export function startServer(script, kind) {
  return new Promise((resolve, reject) => {
    const child = track(fork(script, [kind], { stdio: ["ignore", "inherit", "inherit", "ipc"] }));
    const timer = setTimeout(() => reject(new Error(`${kind}: not ready within 15 s`)), 15_000);
    const cpuWaiters = [];
    /** The server process's CPU time so far (user + system), in µs. */
    const cpu = () =>
      new Promise((resolveCpu) => {
        cpuWaiters.push(resolveCpu);
        child.send({ cmd: "cpu" });
      });
    child.on("message", (m) => {
      if (m && typeof m.cpu === "number") {
        cpuWaiters.shift()?.(m.cpu);
        return;
      }
      clearTimeout(timer);
      if (m && m.ready === true && typeof m.port === "number")
        resolve({ kind, child, cpu, port: m.port });
      else reject(new Error(`${kind}: unexpected message ${JSON.stringify(m)}`));
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${kind}: exited early (${signal ?? code})`));
      if (!shuttingDown) {
        console.error(`${kind}: the server process exited unexpectedly (${signal ?? code})`);
        void shutdown(1);
      }
    });
  });
}
