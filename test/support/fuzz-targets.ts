// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The systems under fuzz: the in-process agent (test/support/fuzz-agent.ts, its servers called
 * through their universal handlers, and its gRPC routes on `listenGrpc`) and the example agent
 * started on 127.0.0.1 (generated-example/agent/echo-agent.ts) on a SQLite task database in a
 * temporary directory (A2A_FUZZ_SOCKET_STORE=memory: in memory, without the still-serves oracle
 * over sockets), each with a known task (a completed echo task of the anonymous owner) that inputs
 * may name, the errors the started agent logs (it logs to console.error), a normal request per
 * binding, and each as a target of the still-serves oracle (test/support/fuzz-serving.ts): its
 * store's ledger and its bindings' probes. The started agent can be restarted on its database.
 */
import type { Agent } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fromJson, type JsonValue } from "@bufbuild/protobuf";
import { listenGrpc, type GrpcEndpoint } from "@protoc-gen-a2a/runtime/grpc";
import { AgentCardSchema } from "../../generated-example/gen/a2a_pb.js";
import { createA2AServiceGrpcRoutes } from "../../generated-example/gen/a2a_a2a_grpc_server.js";
import { startExampleAgent, type ExampleAgent } from "../../generated-example/agent/echo-agent.js";
import { createInProcessAgent, FUZZ_TOKENS, type InProcessAgent } from "./fuzz-agent.js";
import {
  exchangeInProcess,
  exchangeOverSocket,
  socketAgent,
  sseEvents,
  type HttpAnswer,
  type HttpInput,
} from "./fuzz-http.js";
import { GrpcFuzzClient } from "./fuzz-grpc.js";
import { connectJsonProbe, grpcProbe, jsonRpcProbe, restProbe } from "./fuzz-serving-probes.js";
import type { ServingTarget } from "./fuzz-serving.js";
import { SqliteTaskLedger, type TaskLedger } from "./fuzz-task-ledger.js";
import { bigTaskText, SlowReaders } from "./fuzz-slow-readers.js";
import { BIG_TENANT } from "./fuzz-sizes.js";

/** Both targets, started. */
export interface FuzzTargets {
  readonly inProcess: InProcessAgent;
  /** The in-process agent's gRPC routes (Connect's `listenGrpc`: gRPC, gRPC-web, Connect) on 127.0.0.1. */
  readonly inProcessGrpc: GrpcEndpoint;
  /** The started agent (another object after {@link restart}). */
  readonly agent: ExampleAgent;
  /** "http://127.0.0.1:port" of the started agent (another port after {@link restart}). */
  readonly origin: string;
  readonly http: Agent;
  /** The known task of each target. */
  readonly knownTask: { readonly inProcess: string; readonly socket: string };
  /** The still-serves oracle's view of each target; `socket` is absent when the started agent keeps its tasks in memory. */
  readonly serving: {
    readonly inProcess: ServingTarget;
    readonly socket: ServingTarget | undefined;
  };
  /** The started agent's SQLite file (undefined: in memory). */
  readonly taskDatabase: string | undefined;
  /** Closes the started agent and starts it again on the same database (new ports). */
  restart(): Promise<void>;
  /** The never-reading clients of the slow-reader inputs (test/support/fuzz-slow-readers.ts). */
  readonly slowReaders: SlowReaders;
  /** The id of the target's big task (an anonymous echo task of {@link bigTaskText} in the tenant {@link BIG_TENANT}), created on first use; or why it could not be. */
  bigTask(transport: "in-process" | "socket"): Promise<{ id: string } | { problem: string }>;
  /** What the started agent logged with console.error since the last call. */
  takeAgentLogs(): string[];
  close(): Promise<void>;
}

/** A JSON-RPC request as an {@link HttpInput}. */
export function jsonRpcRequest(
  method: string,
  params: unknown,
  headers: readonly (readonly [string, string])[] = [],
): HttpInput {
  return {
    method: "POST",
    path: "/a2a/jsonrpc",
    query: "",
    headers: [["content-type", "application/json"], ["a2a-version", "1.0"], ...headers],
    body: Buffer.from(JSON.stringify({ jsonrpc: "2.0", id: 1, method, params })).toString("base64"),
  };
}

/** A normal SendMessage: an echo task, completed. */
export const normalSend = (text = "fuzz sanity") =>
  jsonRpcRequest("SendMessage", {
    message: {
      messageId: `m-${Math.random().toString(36).slice(2)}`,
      role: "ROLE_USER",
      parts: [{ text }],
    },
  });

/** The id of the completed task `answer` (to {@link normalSend}) carries, or a problem. */
export function completedTaskOf(answer: HttpAnswer): { id: string } | { problem: string } {
  try {
    const body = JSON.parse(answer.body) as {
      result?: { task?: { id: string; status: { state: string } } };
    };
    const task = body.result?.task;
    if (answer.status === 200 && task?.status.state === "TASK_STATE_COMPLETED")
      return { id: task.id };
  } catch {}
  return { problem: `HTTP ${answer.status} ${answer.body.slice(0, 300)}` };
}

/** Starts both targets and creates their known tasks. */
export async function startFuzzTargets(): Promise<FuzzTargets> {
  const logs: string[] = [];
  const consoleError = console.error;
  console.error = (...args: unknown[]) => {
    logs.push(
      args.map((a) => (a instanceof Error ? `${a.name}: ${a.message}` : String(a))).join(" "),
    );
  };
  const storeKind = process.env["A2A_FUZZ_SOCKET_STORE"] || "sqlite";
  if (storeKind !== "sqlite" && storeKind !== "memory")
    throw new Error(
      `A2A_FUZZ_SOCKET_STORE must be sqlite or memory, got ${JSON.stringify(storeKind)}`,
    );
  const memory = storeKind === "memory";
  const dir = memory ? undefined : mkdtempSync(join(tmpdir(), "a2a-fuzz-db-"));
  const taskDatabase = dir === undefined ? undefined : join(dir, "tasks.db");
  const start = () =>
    startExampleAgent({
      tokens: FUZZ_TOKENS,
      longRunningMs: 200,
      ...(taskDatabase !== undefined ? { taskDatabase } : {}),
    });
  let agent = await start();
  const originOf = (a: ExampleAgent) => a.endpoints.jsonrpc.replace(/\/a2a\/jsonrpc$/, "");
  const card = fromJson(
    AgentCardSchema,
    (await (await fetch(agent.cardUrl, { headers: { "A2A-Version": "1.0" } })).json()) as JsonValue,
  );
  const inProcess = createInProcessAgent(card);
  const inProcessGrpc = await listenGrpc(
    createA2AServiceGrpcRoutes(inProcess.handler, inProcess.serverOptions),
  );
  const http = socketAgent();
  const a = completedTaskOf(
    await exchangeInProcess(inProcess.jsonrpc, normalSend("fuzz known task")),
  );
  const b = completedTaskOf(
    await exchangeOverSocket(originOf(agent), normalSend("fuzz known task"), http),
  );
  if (!("id" in a) || !("id" in b))
    throw new Error(`could not create the known tasks: ${JSON.stringify([a, b])}`);
  inProcess.takeLogs();
  const ledger = taskDatabase === undefined ? undefined : new SqliteTaskLedger(taskDatabase);
  // The known tasks are not the first input's doing.
  await inProcess.store.takeSaved();
  await ledger?.takeSaved();
  const grpcClients = [
    new GrpcFuzzClient(inProcessGrpc.address),
    new GrpcFuzzClient(() => agent.grpcAddress),
  ] as const;
  const slowReaders = new SlowReaders();
  const bigTasks = new Map<string, string>();
  const bigTask = async (transport: "in-process" | "socket") => {
    const known = bigTasks.get(transport);
    if (known !== undefined) return { id: known };
    const send = jsonRpcRequest("SendMessage", {
      tenant: BIG_TENANT,
      message: {
        messageId: `m-big-${transport}`,
        role: "ROLE_USER",
        parts: [{ text: bigTaskText() }],
      },
    });
    const r = completedTaskOf(
      transport === "in-process"
        ? await exchangeInProcess(inProcess.jsonrpc, send)
        : await exchangeOverSocket(originOf(agent), send, http),
    );
    if ("id" in r) bigTasks.set(transport, r.id);
    return "id" in r
      ? r
      : {
          problem: `could not create the big task (a SendMessage of ${bigTaskText().length} bytes of text): ${r.problem}`,
        };
  };
  const restart = async () => {
    if (taskDatabase === undefined)
      throw new Error("the started agent keeps its tasks in memory: nothing to restart on");
    // The never-reading clients go first: a close lets calls in flight finish for a second (grpc-js), theirs never would.
    slowReaders.closeAll();
    ledger?.close();
    await agent.close();
    agent = await start();
  };
  return {
    inProcess,
    inProcessGrpc,
    get agent() {
      return agent;
    },
    get origin() {
      return originOf(agent);
    },
    http,
    knownTask: { inProcess: a.id, socket: b.id },
    serving: {
      inProcess: inProcessServing(inProcess, grpcClients[0]),
      socket:
        ledger === undefined
          ? undefined
          : socketServing(() => agent, http, grpcClients[1], ledger, {
              restart,
              takeLogs: () => logs.splice(0, logs.length),
            }),
    },
    taskDatabase,
    restart,
    slowReaders,
    bigTask,
    takeAgentLogs: () => logs.splice(0, logs.length),
    close: async () => {
      console.error = consoleError;
      slowReaders.closeAll();
      http.destroy();
      for (const c of grpcClients) c.close();
      ledger?.close();
      await Promise.all([agent.close(), inProcess.close(), inProcessGrpc.close()]);
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The still-serves oracle's view of an in-process agent: its store's ledger; JSON-RPC and HTTP+JSON in-process, gRPC through `grpc` (its routes on `listenGrpc`). */
export function inProcessServing(inProcess: InProcessAgent, grpc: GrpcFuzzClient): ServingTarget {
  const probes = [
    jsonRpcProbe((i) => exchangeInProcess(inProcess.jsonrpc, i)),
    restProbe((i) => exchangeInProcess(inProcess.rest, i)),
    grpcProbe(grpc),
  ];
  return {
    name: "in-process",
    ledger: inProcess.store,
    probes: () => probes,
    takeLogs: () => inProcess.takeLogs(),
  };
}

/**
 * The still-serves oracle's view of a started example agent (`agent()`: the one running now) on a SQLite file read by
 * `ledger`: JSON-RPC, HTTP+JSON and Connect JSON over `http`, gRPC through `grpc`; `restart` restarts it on its file.
 */
export function socketServing(
  agent: () => ExampleAgent,
  http: Agent,
  grpc: GrpcFuzzClient,
  ledger: TaskLedger,
  options: { readonly restart?: () => Promise<void>; readonly takeLogs?: () => string[] } = {},
): ServingTarget {
  const overSocket = (i: HttpInput) =>
    exchangeOverSocket(agent().endpoints.jsonrpc.replace(/\/a2a\/jsonrpc$/, ""), i, http);
  const probes = [
    jsonRpcProbe(overSocket),
    restProbe(overSocket),
    grpcProbe(grpc),
    connectJsonProbe(overSocket),
  ];
  return { name: "socket", ledger, probes: () => probes, ...options };
}

/** Problems of a normal JSON-RPC SendMessage on a target (empty: served). */
export async function jsonRpcSanity(
  send: (input: HttpInput) => Promise<HttpAnswer>,
): Promise<string[]> {
  const r = completedTaskOf(await send(normalSend()));
  return "id" in r ? [] : [`SendMessage: ${r.problem}`];
}

/** Whether every JSON-RPC response in `answer` is an error (the request was refused). */
export function refusedJsonRpc(answer: HttpAnswer): boolean {
  const bodies = answer.streamed ? sseEvents(answer.body).map((e) => e.data) : [answer.body];
  return bodies.every((b) => {
    try {
      return Object.hasOwn(JSON.parse(b) as object, "error");
    } catch {
      return true;
    }
  });
}

/** The Authorization header `input` would run as (undefined: anonymous), when it names a fuzz principal. */
export function principalHeader(input: HttpInput): string | undefined {
  const values = input.headers
    .filter(([k]) => k.toLowerCase() === "authorization")
    .map(([, v]) => v);
  const m = values.length === 1 ? /^Bearer\s+(\S+)$/i.exec(values[0]!.trim()) : null;
  return m !== null && Object.hasOwn(FUZZ_TOKENS, m[1]!) ? values[0] : undefined;
}

/** The number of tasks the principal of `input` owns on the started agent (undefined: cannot tell). */
export async function socketTaskCount(
  targets: FuzzTargets,
  input: HttpInput,
): Promise<number | undefined> {
  const auth = principalHeader(input);
  const answer = await exchangeOverSocket(
    targets.origin,
    jsonRpcRequest(
      "ListTasks",
      { pageSize: 1 },
      auth === undefined ? [] : [["authorization", auth]],
    ),
    targets.http,
  );
  try {
    const n = (JSON.parse(answer.body) as { result?: { totalSize?: number } }).result?.totalSize;
    return typeof n === "number" && n < 9_000 ? n : undefined;
  } catch {
    return undefined;
  }
}

/** Whether an HTTP+JSON answer refused the request (an error status, or a stream of error events only). */
export function refusedRest(answer: HttpAnswer): boolean {
  if (answer.status >= 400 || answer.status === 0) return true;
  return answer.streamed && sseEvents(answer.body).every((e) => e.event === "error");
}

/**
 * Whether `headers` authenticate as a principal other than the anonymous owner of the known tasks (a fuzz token
 * allowed to use tasks): such a caller must never be served the known task (no cross-owner access, no existence leak).
 */
export function otherOwner(headers: readonly (readonly [string, string])[]): boolean {
  const values = headers.filter(([k]) => k.toLowerCase() === "authorization").map(([, v]) => v);
  const m = values.length === 1 ? /^Bearer\s+(\S+)$/i.exec(values[0]!.trim()) : null;
  const principal =
    m !== null && Object.hasOwn(FUZZ_TOKENS, m[1]!) ? FUZZ_TOKENS[m[1]!] : undefined;
  return principal !== undefined && principal.tasks !== false;
}
