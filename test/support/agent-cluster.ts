// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * A cluster of example agent processes on one PostgreSQL database, behind a round-robin front
 * (./round-robin.ts): real processes, real sockets on 127.0.0.1, the run's real PostgreSQL
 * (./postgres-url.ts), a fresh database per cluster. Used by test/e2e/postgres/multi-instance.test.ts.
 *
 * Each instance is a child process running a bundle (esbuild, made once per test worker, so an
 * instance starts in well under a second) of either ./agent-cluster-entry.ts ("test": main.ts's
 * environment plus JSON agent options, for ACTS's profiles) or generated-example/agent/main.ts
 * itself ("example": exactly `npm run example`). Instances get a short heartbeat and lease (so that
 * a killed one is noticed in seconds), the front's addresses as their public ones (their card names
 * the front), free ports; an instance is ready once it has printed its endpoints line. The cluster
 * puts it in the front's rotation then, and takes it out before killing or stopping it. Every
 * instance's stderr and stdout are kept for diagnostics; close() kills whatever still runs (SIGKILL),
 * stops the front and drops the database.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { A2AServiceGrpcClient } from "../../generated-example/gen/a2a_a2a_grpc_client.js";
import type { A2AServiceClient } from "../../generated-example/gen/a2a_a2a_handler.js";
import { A2AServiceJsonRpcClient } from "../../generated-example/gen/a2a_a2a_jsonrpc_client.js";
import { A2AServiceRestClient } from "../../generated-example/gen/a2a_a2a_rest_client.js";
import { type FreshDatabase, freshDatabase } from "./postgres.js";
import { postgresUrl } from "./postgres-url.js";
import { type RoundRobinFront, startRoundRobinFront } from "./round-robin.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Which program an instance runs: ./agent-cluster-entry.ts ("test") or generated-example/agent/main.ts ("example"). */
export type AgentEntry = "test" | "example";

/** The bindings of an instance's (and the front's) clients. */
export const CLUSTER_BINDINGS = ["JSONRPC", "HTTP+JSON", "GRPC"] as const;
/** One of {@link CLUSTER_BINDINGS}. */
export type ClusterBinding = (typeof CLUSTER_BINDINGS)[number];

/** Where an instance (or the front) serves. */
export interface AgentEndpoints {
  readonly cardUrl: string;
  readonly jsonrpc: string;
  readonly rest: string;
  /** host:port (h2c). */
  readonly grpc: string;
}

/** One running agent process of the cluster. */
export interface AgentInstance {
  /** Its name in the cluster ("a", "b", …), also its A2A_INSTANCE_ID. */
  readonly id: string;
  readonly entry: AgentEntry;
  readonly child: ChildProcess;
  /** Its own addresses (not the front's). */
  readonly endpoints: AgentEndpoints;
  /** Clients of its own addresses, one per binding. */
  readonly clients: Readonly<Record<ClusterBinding, A2AServiceClient>>;
  /** Resolves when the process has exited (its output read), with its exit code or signal. */
  readonly exited: Promise<{
    readonly code: number | null;
    readonly signal: NodeJS.Signals | null;
  }>;
  /** What it wrote so far. */
  stdout(): string;
  stderr(): string;
}

/** Options of {@link startAgentCluster}. */
export interface AgentClusterOptions {
  /** Instances started at once ("a", "b", …). */
  readonly size: number;
  /** Part of the database's name (a2a_test_<name>_<random>). */
  readonly name: string;
  /** Heartbeat period (ms). Default 200. */
  readonly heartbeatMs?: number;
  /**
   * Lease (ms): how long after its last heartbeat a silent instance counts as dead. Default 4000: with ACTS running
   * through a cluster on a loaded 2-core machine, live instances' heartbeats (200 ms period) were seen up to 1.6 s
   * old, and a 2 s lease was missed now and then (the live instance's running tasks were then failed).
   */
  readonly leaseMs?: number;
  /** Options of the "test" entry (JSON ExampleAgentOptions: tokens, capabilities, longRunningMs, …). */
  readonly agentOptions?: Readonly<Record<string, unknown>>;
  /** Give up on an instance that has not printed its endpoints after this long (ms). Default 30 000. */
  readonly startTimeoutMs?: number;
}

/** A running cluster. */
export interface AgentCluster {
  readonly database: FreshDatabase;
  readonly front: RoundRobinFront;
  /** The front's addresses (what a client of "the agent" uses). */
  readonly endpoints: AgentEndpoints;
  /** Clients of the front, one per binding. */
  readonly clients: Readonly<Record<ClusterBinding, A2AServiceClient>>;
  readonly heartbeatMs: number;
  readonly leaseMs: number;
  /** The instances that run (started and neither killed nor stopped), in start order. */
  instances(): readonly AgentInstance[];
  /** The running instance named `id`; throws when there is none. */
  instance(id: string): AgentInstance;
  /** Starts one more instance (default: the next free letter, the "test" entry) and puts it in the front's rotation once it serves. */
  start(options?: { readonly id?: string; readonly entry?: AgentEntry }): Promise<AgentInstance>;
  /** Takes the instance out of the rotation, then SIGKILLs it; resolves once it is gone. */
  kill(id: string): Promise<void>;
  /** Takes the instance out of the rotation, then sends SIGTERM; resolves with how it exited. */
  stop(
    id: string,
  ): Promise<{ readonly code: number | null; readonly signal: NodeJS.Signals | null }>;
  /** Every instance's stderr so far (killed and stopped ones included), labelled, for failure messages. */
  diagnostics(): string;
  /** Kills every instance still running (SIGKILL), stops the front, drops the database. Idempotent. */
  close(): Promise<void>;
}

/** Why an instance did not start: its exit, output and stderr. */
export class AgentClusterStartError extends Error {
  override name = "AgentClusterStartError";
}

/** The endpoints line main.ts (and ./agent-cluster-entry.ts) print once serving. */
const READY = /example agent: card (\S+) · JSON-RPC (\S+) · HTTP\+JSON (\S+) · gRPC (\S+)/;

const bundles = new Map<AgentEntry, Promise<string>>();

/**
 * The bundled program of `entry` (built once per process, removed when its last cluster closes: main.ts's
 * bundle in a file of its own, so that a concurrent `npm run example` does not rewrite it), with the runtime from its sources.
 */
export function agentBundle(entry: AgentEntry): Promise<string> {
  let bundle = bundles.get(entry);
  if (bundle === undefined) {
    bundle = (async () => {
      const outdir = join(root, "node_modules", ".cache", "agent-cluster");
      mkdirSync(outdir, { recursive: true });
      const outfile = join(outdir, `${entry}-${process.pid}.mjs`);
      // @ts-expect-error plain .mjs modules without types
      const { runtimeFromSource } = (await import("../../scripts/runtime-from-source.mjs")) as {
        runtimeFromSource: import("esbuild").Plugin;
      };
      const entryPoint =
        entry === "test"
          ? join(root, "test", "support", "agent-cluster-entry.ts")
          : join(root, "generated-example", "agent", "main.ts");
      await build({
        entryPoints: [entryPoint],
        outfile,
        bundle: true,
        platform: "node",
        format: "esm",
        target: "node20",
        packages: "external",
        plugins: [runtimeFromSource],
        logLevel: "warning",
      });
      return outfile;
    })();
    bundles.set(entry, bundle);
  }
  return bundle;
}

/** Clusters of this process not closed yet: when the last one closes, the bundles are removed. */
let openClusters = 0;

/** Removes the bundles made so far (the next cluster makes them again). */
async function removeBundles(): Promise<void> {
  const made = [...bundles.values()];
  bundles.clear();
  for (const bundle of made) {
    const file = await bundle.catch(() => undefined);
    if (file !== undefined) rmSync(file, { force: true });
  }
}

/** Clients of a set of endpoints, one per binding. */
export function clientsOf(endpoints: AgentEndpoints): Record<ClusterBinding, A2AServiceClient> {
  return {
    JSONRPC: new A2AServiceJsonRpcClient({ url: endpoints.jsonrpc }),
    "HTTP+JSON": new A2AServiceRestClient({ url: endpoints.rest }),
    GRPC: new A2AServiceGrpcClient({ address: endpoints.grpc }),
  };
}

/** Output of a child kept up to this many characters (the first ones: where startup problems show). */
const MAX_OUTPUT = 200_000;

/** Spawns one instance and resolves once it has printed its endpoints (rejects, with its output, if it exits or times out first). */
async function spawnInstance(
  id: string,
  entry: AgentEntry,
  env: Record<string, string>,
  timeoutMs: number,
): Promise<AgentInstance> {
  const program = await agentBundle(entry);
  const child = spawn(process.execPath, [program], {
    cwd: root,
    env: { ...process.env, ...env, A2A_INSTANCE_ID: id },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8");
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (d: string) => {
    if (stderr.length < MAX_OUTPUT) stderr += d;
  });
  // "close", not "exit": all of its output has been read by then.
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("close", (code, signal) => resolve({ code, signal })),
  );
  return new Promise<AgentInstance>((resolve, reject) => {
    let ready = false;
    const fail = (why: string) =>
      reject(
        new AgentClusterStartError(
          `instance ${id} (${entry}) ${why}\n--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}`,
        ),
      );
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      fail(`did not print its endpoints within ${timeoutMs} ms`);
    }, timeoutMs);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      if (!ready) fail(`exited (code ${code}, signal ${signal}) before serving`);
    });
    child.stdout?.on("data", (d: string) => {
      if (stdout.length < MAX_OUTPUT) stdout += d;
      const m = READY.exec(stdout);
      if (m === null || ready) return;
      ready = true;
      clearTimeout(timer);
      const [, cardUrl, jsonrpc, rest, grpc] = m as unknown as [
        string,
        string,
        string,
        string,
        string,
      ];
      const endpoints = { cardUrl, jsonrpc, rest, grpc };
      resolve({
        id,
        entry,
        child,
        endpoints,
        clients: clientsOf(endpoints),
        exited,
        stdout: () => stdout,
        stderr: () => stderr,
      });
    });
  });
}

/** The origin (http://host:port) of a URL. */
const originOf = (url: string) => new URL(url).origin;

/** Starts a front, a fresh database and `size` instances behind the front (in parallel); see the file comment. */
export async function startAgentCluster(options: AgentClusterOptions): Promise<AgentCluster> {
  const heartbeatMs = options.heartbeatMs ?? 200;
  const leaseMs = options.leaseMs ?? 4_000;
  const timeoutMs = options.startTimeoutMs ?? 30_000;
  const database = await freshDatabase(postgresUrl(), `cluster_${options.name}`);
  openClusters++;
  const front = await startRoundRobinFront();
  const running = new Map<string, AgentInstance>();
  const all: AgentInstance[] = [];
  /** Every id given out (instances starting included). */
  const names = new Set<string>();
  let closed = false;
  const env: Record<string, string> = {
    A2A_TASK_DB: database.url,
    A2A_HEARTBEAT_MS: String(heartbeatMs),
    A2A_LEASE_MS: String(leaseMs),
    A2A_HTTP_PORT: "0",
    A2A_GRPC_PORT: "0",
    A2A_PUBLIC_URL: front.url,
    A2A_PUBLIC_GRPC_ADDRESS: front.grpcAddress,
    A2A_TEST_AGENT_OPTIONS: JSON.stringify(options.agentOptions ?? {}),
  };
  const nextId = () => {
    for (let i = 0; ; i++) {
      const id = i < 26 ? String.fromCharCode(97 + i) : `i${i}`;
      if (!names.has(id)) return id;
    }
  };
  const start = async ({
    id = nextId(),
    entry = "test" as AgentEntry,
  } = {}): Promise<AgentInstance> => {
    if (closed) throw new Error("the cluster is closed");
    if (names.has(id)) throw new Error(`instance id ${id} is taken`);
    names.add(id);
    const instance = await spawnInstance(id, entry, env, timeoutMs);
    all.push(instance);
    if (closed) {
      // Closed while it started (another instance failed to start): it does not outlive the cluster.
      instance.child.kill("SIGKILL");
      await instance.exited;
      throw new Error("the cluster was closed while the instance started");
    }
    running.set(id, instance);
    void instance.exited.then(() => {
      running.delete(id);
      front.remove(id);
    });
    front.add({
      id,
      httpOrigin: originOf(instance.endpoints.jsonrpc),
      grpcAddress: instance.endpoints.grpc,
    });
    return instance;
  };
  const instance = (id: string): AgentInstance => {
    const found = running.get(id);
    if (found === undefined)
      throw new Error(
        `no running instance ${id} (running: ${[...running.keys()].join(", ") || "none"})`,
      );
    return found;
  };
  const endpoints: AgentEndpoints = {
    cardUrl: `${front.url}/.well-known/agent-card.json`,
    jsonrpc: `${front.url}/a2a/jsonrpc`,
    rest: `${front.url}/a2a/rest`,
    grpc: front.grpcAddress,
  };
  const cluster: AgentCluster = {
    database,
    front,
    endpoints,
    clients: clientsOf(endpoints),
    heartbeatMs,
    leaseMs,
    instances: () => [...running.values()],
    instance,
    start,
    async kill(id) {
      const target = instance(id);
      front.remove(id);
      target.child.kill("SIGKILL");
      await target.exited;
    },
    async stop(id) {
      const target = instance(id);
      front.remove(id);
      target.child.kill("SIGTERM");
      return target.exited;
    },
    diagnostics: () =>
      [
        ...all.map(
          (x) => `--- instance ${x.id} (${x.entry}) stderr ---\n${x.stderr() || "(empty)"}`,
        ),
        `--- round-robin front: problems with the instances ---\n${front.problems().join("\n") || "(none)"}`,
      ].join("\n"),
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all(
        [...running.values()].map(async (x) => {
          x.child.kill("SIGKILL");
          await x.exited;
        }),
      );
      await front.close();
      await database.drop();
      if (--openClusters === 0) await removeBundles();
    },
  };
  try {
    await Promise.all(Array.from({ length: options.size }, () => start()));
  } catch (e) {
    await cluster.close();
    throw e;
  }
  return cluster;
}
