// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Crash-safety harness (issue #17): runs the example agent (`generated-example/agent/main.ts`, as
 * `npm run example` does, on `A2A_TASK_DB`) as a child process, loads it from several concurrent
 * clients on JSON-RPC, HTTP+JSON and gRPC, records every creation the agent acknowledged (a task
 * with its state, a push config), kills it with SIGKILL at a random moment, restarts it on the same
 * file and checks that every acknowledged task and config is there, in its acknowledged state or a
 * later one. Used by test/e2e/sqlite/crash-safety.test.ts (a few rounds) and bench/crash-safety.mjs (many).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { A2AServiceGrpcClient } from "../../generated-example/gen/a2a_a2a_grpc_client.js";
import type { A2AServiceClient } from "../../generated-example/gen/a2a_a2a_handler.js";
import { A2AServiceJsonRpcClient } from "../../generated-example/gen/a2a_a2a_jsonrpc_client.js";
import { A2AServiceRestClient } from "../../generated-example/gen/a2a_a2a_rest_client.js";
import { Role, type Task, TaskState } from "../../generated-example/gen/a2a_pb.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The bindings the load runs on. */
export const CRASH_BINDINGS = ["JSONRPC", "HTTP+JSON", "GRPC"] as const;
/** One of {@link CRASH_BINDINGS}. */
export type CrashBinding = (typeof CRASH_BINDINGS)[number];

/**
 * Bundles the example agent's `main.ts` with esbuild (as `generated-example/agent/run.mjs` does, but
 * into a file of its own, so that a concurrent `npm run example` does not rewrite it); returns its path.
 */
export async function bundleExampleAgent(name = "crash-safety-agent"): Promise<string> {
  // A plain .mjs module without types: imported by URL, typed here.
  const bundler = new URL("../../scripts/bundle-example-agent.mjs", import.meta.url).href;
  const { bundleExampleAgent: bundle } = (await import(bundler)) as {
    bundleExampleAgent: (o: { outfile: string }) => Promise<string>;
  };
  const outdir = join(root, "node_modules", ".cache", "crash-safety");
  mkdirSync(outdir, { recursive: true });
  const outfile = join(outdir, `${name}-${process.pid}.mjs`);
  await bundle({ outfile });
  return outfile;
}

/** A running example agent child process. */
export interface AgentProcess {
  readonly child: ChildProcess;
  /** One client per binding, from the endpoints the agent printed. */
  readonly clients: Readonly<Record<CrashBinding, A2AServiceClient>>;
  /** Time from spawn to the agent printing its endpoints (serving), in ms. */
  readonly startMs: number;
  /** What the agent wrote to stderr so far. */
  stderr(): string;
  /** Sends SIGKILL and waits for the exit. */
  kill(): Promise<void>;
}

/** Why the agent did not start: its exit code and output. */
export class AgentStartError extends Error {
  override name = "AgentStartError";
  constructor(
    message: string,
    readonly code: number | null,
    readonly stdout: string,
    readonly stderr: string,
  ) {
    super(message);
  }
}

const READY = /example agent: card \S+ · JSON-RPC (\S+) · HTTP\+JSON (\S+) · gRPC (\S+)/;

/** Starts the bundled example agent (`entry`) on the SQLite file `db`, on free ports; resolves once it serves. */
export function startAgentProcess(
  entry: string,
  db: string,
  options: { timeoutMs?: number; env?: Record<string, string> } = {},
): Promise<AgentProcess> {
  const started = performance.now();
  const child = spawn(process.execPath, [entry], {
    cwd: process.cwd(),
    env: {
      ...process.env,
      ...options.env,
      A2A_HTTP_PORT: "0",
      A2A_GRPC_PORT: "0",
      A2A_TASK_DB: db,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8");
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (d: string) => {
    if (stderr.length < 100_000) stderr += d;
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let ready = false;
  return new Promise<AgentProcess>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(
        new AgentStartError(
          `the example agent did not start within ${options.timeoutMs ?? 20_000} ms`,
          null,
          stdout,
          stderr,
        ),
      );
    }, options.timeoutMs ?? 20_000);
    // "close", not "exit": all of its output has been read by then.
    child.once("close", (code) => {
      clearTimeout(timer);
      if (!ready)
        reject(
          new AgentStartError(
            `the example agent exited with code ${code} before serving`,
            code,
            stdout,
            stderr,
          ),
        );
    });
    child.stdout?.on("data", (d: string) => {
      if (stdout.length < 100_000) stdout += d;
      const m = READY.exec(stdout);
      if (m === null || ready) return;
      ready = true;
      clearTimeout(timer);
      const [, jsonrpc, rest, grpc] = m as unknown as [string, string, string, string];
      resolve({
        child,
        startMs: performance.now() - started,
        clients: {
          JSONRPC: new A2AServiceJsonRpcClient({ url: jsonrpc }),
          "HTTP+JSON": new A2AServiceRestClient({ url: rest }),
          GRPC: new A2AServiceGrpcClient({ address: grpc }),
        },
        stderr: () => stderr,
        kill: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
          await exited;
        },
      });
    });
  });
}

/** Rank of a state in the task state machine: a stored state must rank at least as high as the acknowledged one. */
export function stateRank(state: TaskState): number {
  switch (state) {
    case TaskState.SUBMITTED:
      return 1;
    case TaskState.WORKING:
      return 2;
    case TaskState.INPUT_REQUIRED:
    case TaskState.AUTH_REQUIRED:
      return 3;
    case TaskState.COMPLETED:
    case TaskState.FAILED:
    case TaskState.CANCELED:
    case TaskState.REJECTED:
      return 4;
    default:
      return 0;
  }
}

/** The name of a task state ("WORKING"). */
export function stateName(state: TaskState): string {
  return TaskState[state] ?? String(state);
}

/** True when `found` is `acknowledged` or a later state (a terminal state never changes). */
export function isSameOrLater(acknowledged: TaskState, found: TaskState): boolean {
  if (stateRank(acknowledged) === 4) return found === acknowledged;
  return stateRank(found) >= stateRank(acknowledged);
}

/** An acknowledged push config. */
export interface AckedConfig {
  readonly taskId: string;
  readonly id: string;
  readonly url: string;
}

/** Everything the agent acknowledged to a client, over all rounds. */
export class Ledger {
  /** Task id → the latest state acknowledged for it. */
  readonly tasks = new Map<string, TaskState>();
  /** `taskId/configId` → config. */
  readonly configs = new Map<string, AckedConfig>();
  /** Tasks acknowledged INPUT_REQUIRED, which take push configs (they get no further events: no deliveries). */
  readonly waiting: string[] = [];

  ackTask(task: Task): void {
    const state = task.status?.state ?? TaskState.UNSPECIFIED;
    const before = this.tasks.get(task.id);
    if (before === undefined || stateRank(state) >= stateRank(before))
      this.tasks.set(task.id, state);
    if (state === TaskState.INPUT_REQUIRED && before === undefined) this.waiting.push(task.id);
  }
}

/** What one load phase did. */
export interface LoadStats {
  attempts: number;
  acknowledged: number;
  /** Calls that failed (all of them, once the agent is killed). */
  failed: number;
  /** Calls that failed while the agent was still running, with their first errors (must stay 0 on a healthy agent). */
  failedAlive: number;
  readonly errors: string[];
}

const WEBHOOK = "https://93.184.215.14/crash-safety"; // a public IP literal: passes the creation check without DNS

function messageOf(text: string) {
  return {
    messageId: crypto.randomUUID(),
    role: Role.USER,
    parts: [{ content: { case: "text" as const, value: text } }],
  };
}

/** One client call, chosen at random: a completed task, a long-running one (returned at once), an input-required one, or a push config. */
async function oneCall(
  client: A2AServiceClient,
  ledger: Ledger,
  n: number,
  random: () => number,
): Promise<boolean> {
  const pick = random();
  if (pick < 0.25 && ledger.waiting.length > 0) {
    const taskId = ledger.waiting[Math.floor(random() * ledger.waiting.length)] as string;
    const id = `cfg-${n}-${Math.floor(random() * 1e9)}`;
    const config = await client.createTaskPushNotificationConfig(
      { taskId, id, url: `${WEBHOOK}/${id}` },
      { timeoutMs: 10_000 },
    );
    ledger.configs.set(`${config.taskId}/${config.id}`, {
      taskId: config.taskId,
      id: config.id,
      url: config.url,
    });
    return true;
  }
  const text =
    pick < 0.55
      ? "tck-complete-task crash"
      : pick < 0.8
        ? "tck-input-required crash"
        : "tck-long-running crash";
  const configuration = text.startsWith("tck-long-running")
    ? { returnImmediately: true }
    : undefined;
  const response = await client.sendMessage(
    { message: messageOf(text), ...(configuration ? { configuration } : {}) },
    { timeoutMs: 10_000 },
  );
  if (response.payload.case !== "task")
    throw new Error(`expected a task, got ${response.payload.case}`);
  ledger.ackTask(response.payload.value);
  return true;
}

/**
 * Runs `workersPerBinding` concurrent call loops on each binding until `signal` aborts (or a
 * worker's call fails after it did); records what was acknowledged in `ledger`.
 */
export async function runLoad(
  agent: AgentProcess,
  ledger: Ledger,
  options: { workersPerBinding: number; signal: AbortSignal; random?: () => number },
): Promise<LoadStats> {
  const random = options.random ?? Math.random;
  const stats: LoadStats = { attempts: 0, acknowledged: 0, failed: 0, failedAlive: 0, errors: [] };
  let n = 0;
  const worker = async (client: A2AServiceClient): Promise<void> => {
    while (!options.signal.aborted) {
      stats.attempts++;
      try {
        if (await oneCall(client, ledger, ++n, random)) stats.acknowledged++;
      } catch (e) {
        stats.failed++;
        // The agent is gone (killed): stop this worker.
        if (agent.child.exitCode !== null || agent.child.signalCode !== null || agent.child.killed)
          return;
        stats.failedAlive++;
        if (stats.errors.length < 5)
          stats.errors.push(e instanceof Error ? `${e.name}: ${e.message}` : String(e));
      }
    }
  };
  const workers: Promise<void>[] = [];
  for (const binding of CRASH_BINDINGS)
    for (let i = 0; i < options.workersPerBinding; i++)
      workers.push(worker(agent.clients[binding]));
  await Promise.all(workers);
  return stats;
}

/** What {@link verifyLedger} found. */
export interface Verification {
  tasksFound: number;
  /** Of those, found in a later state than the acknowledged one (the work went on before the kill). */
  tasksLater: number;
  /** How many acknowledged tasks were found in each state (by name). */
  foundStates: Record<string, number>;
  configsFound: number;
  listed: number;
  /** Descriptions of every acknowledged item that is missing or went back in state (must be empty). */
  lost: string[];
}

/** Reads back every acknowledged task (GetTask, rotating the bindings), config (GetTaskPushNotificationConfig) and the whole ListTasks. */
export async function verifyLedger(agent: AgentProcess, ledger: Ledger): Promise<Verification> {
  const result: Verification = {
    tasksFound: 0,
    tasksLater: 0,
    foundStates: {},
    configsFound: 0,
    listed: 0,
    lost: [],
  };
  const ids = [...ledger.tasks.entries()];
  let i = 0;
  const lanes = CRASH_BINDINGS.map(async (binding) => {
    const client = agent.clients[binding];
    for (;;) {
      const entry = ids[i++];
      if (entry === undefined) return;
      const [id, acked] = entry;
      try {
        const task = await client.getTask({ id, historyLength: 0 }, { timeoutMs: 10_000 });
        const state = task.status?.state ?? TaskState.UNSPECIFIED;
        const name = stateName(state);
        result.foundStates[name] = (result.foundStates[name] ?? 0) + 1;
        if (isSameOrLater(acked, state)) {
          result.tasksFound++;
          if (state !== acked) result.tasksLater++;
        } else
          result.lost.push(
            `task ${id}: acknowledged ${TaskState[acked]}, found ${TaskState[state]}`,
          );
      } catch (e) {
        result.lost.push(
          `task ${id} (acknowledged ${TaskState[acked]}): GetTask over ${binding} failed: ${e instanceof Error ? e.message : String(e)}`,
        );
      }
    }
  });
  await Promise.all(lanes);
  const configs = [...ledger.configs.values()];
  let c = 0;
  const configLanes = CRASH_BINDINGS.map(async (binding) => {
    for (;;) {
      const config = configs[c++];
      if (config === undefined) return;
      try {
        const found = await agent.clients[binding].getTaskPushNotificationConfig(
          { taskId: config.taskId, id: config.id },
          { timeoutMs: 10_000 },
        );
        if (found.url === config.url) result.configsFound++;
        else
          result.lost.push(
            `config ${config.taskId}/${config.id}: url ${found.url}, acknowledged ${config.url}`,
          );
      } catch (e) {
        result.lost.push(
          `config ${config.taskId}/${config.id}: GetTaskPushNotificationConfig over ${binding} failed: ${e instanceof Error ? e.message : String(e)}`,
        );
      }
    }
  });
  await Promise.all(configLanes);
  const listed = new Set<string>();
  let pageToken = "";
  do {
    const page = await agent.clients["HTTP+JSON"].listTasks(
      { pageSize: 100, pageToken, historyLength: 0 },
      { timeoutMs: 10_000 },
    );
    for (const t of page.tasks) listed.add(t.id);
    pageToken = page.nextPageToken;
  } while (pageToken !== "");
  for (const [id] of ids) {
    if (listed.has(id)) result.listed++;
    else result.lost.push(`task ${id}: missing from ListTasks`);
  }
  return result;
}

/** One crash round's figures. */
export interface RoundResult {
  readonly load: LoadStats;
  readonly killedAfterMs: number;
  readonly restartMs: number;
  readonly verification: Verification;
}

/**
 * One round: loads `agent` for a random time in `[minMs, maxMs)`, kills it with SIGKILL while the
 * calls are in flight, restarts it on the same file and verifies the ledger. Resolves with the round's
 * figures and the restarted agent.
 */
export async function crashRound(
  agent: AgentProcess,
  entry: string,
  db: string,
  ledger: Ledger,
  options: { workersPerBinding: number; minMs: number; maxMs: number; random?: () => number },
): Promise<{ result: RoundResult; agent: AgentProcess }> {
  const random = options.random ?? Math.random;
  const stop = new AbortController();
  const killedAfterMs = options.minMs + Math.floor(random() * (options.maxMs - options.minMs));
  const loading = runLoad(agent, ledger, {
    workersPerBinding: options.workersPerBinding,
    signal: stop.signal,
    random,
  });
  await new Promise((r) => setTimeout(r, killedAfterMs));
  await agent.kill();
  stop.abort();
  const load = await loading;
  const restarted = await startAgentProcess(entry, db);
  const verification = await verifyLedger(restarted, ledger);
  return {
    result: { load, killedAfterMs, restartMs: restarted.startMs, verification },
    agent: restarted,
  };
}
