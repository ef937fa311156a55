// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The systems under fuzz for the HTTP bindings: the in-process agent (test/support/fuzz-agent.ts)
 * and the example agent started on 127.0.0.1 (generated-example/agent/echo-agent.ts), each with a
 * known task (a completed echo task of the anonymous owner) that inputs may name, the errors the
 * started agent logs (it logs to console.error), and a normal request per binding.
 */
import type { Agent } from "node:http";
import { fromJson, type JsonValue } from "@bufbuild/protobuf";
import { AgentCardSchema } from "../../generated-example/gen/a2a_pb.js";
import { startExampleAgent, type ExampleAgent } from "../../generated-example/agent/echo-agent.js";
import { createInProcessAgent, FUZZ_TOKENS, type InProcessAgent } from "./fuzz-agent.js";
import { exchangeInProcess, exchangeOverSocket, socketAgent, sseEvents, type HttpAnswer, type HttpInput } from "./fuzz-http.js";

/** Both targets, started. */
export interface FuzzTargets {
  readonly inProcess: InProcessAgent;
  readonly agent: ExampleAgent;
  /** "http://127.0.0.1:port" of the started agent. */
  readonly origin: string;
  readonly http: Agent;
  /** The known task of each target. */
  readonly knownTask: { readonly inProcess: string; readonly socket: string };
  /** What the started agent logged with console.error since the last call. */
  takeAgentLogs(): string[];
  close(): Promise<void>;
}

/** A JSON-RPC request as an {@link HttpInput}. */
export function jsonRpcRequest(method: string, params: unknown, headers: readonly (readonly [string, string])[] = []): HttpInput {
  return {
    method: "POST",
    path: "/a2a/jsonrpc",
    query: "",
    headers: [["content-type", "application/json"], ["a2a-version", "1.0"], ...headers],
    body: Buffer.from(JSON.stringify({ jsonrpc: "2.0", id: 1, method, params })).toString("base64"),
  };
}

/** A normal SendMessage: an echo task, completed. */
export const normalSend = (text = "fuzz sanity") => jsonRpcRequest("SendMessage", { message: { messageId: `m-${Math.random().toString(36).slice(2)}`, role: "ROLE_USER", parts: [{ text }] } });

/** The id of the completed task `answer` (to {@link normalSend}) carries, or a problem. */
export function completedTaskOf(answer: HttpAnswer): { id: string } | { problem: string } {
  try {
    const body = JSON.parse(answer.body) as { result?: { task?: { id: string; status: { state: string } } } };
    const task = body.result?.task;
    if (answer.status === 200 && task?.status.state === "TASK_STATE_COMPLETED") return { id: task.id };
  } catch {}
  return { problem: `HTTP ${answer.status} ${answer.body.slice(0, 300)}` };
}

/** Starts both targets and creates their known tasks. */
export async function startFuzzTargets(): Promise<FuzzTargets> {
  const logs: string[] = [];
  const consoleError = console.error;
  console.error = (...args: unknown[]) => {
    logs.push(args.map((a) => (a instanceof Error ? `${a.name}: ${a.message}` : String(a))).join(" "));
  };
  const agent = await startExampleAgent({ tokens: FUZZ_TOKENS, longRunningMs: 200 });
  const origin = agent.endpoints.jsonrpc.replace(/\/a2a\/jsonrpc$/, "");
  const card = fromJson(AgentCardSchema, (await (await fetch(agent.cardUrl)).json()) as JsonValue);
  const inProcess = createInProcessAgent(card);
  const http = socketAgent();
  const a = completedTaskOf(await exchangeInProcess(inProcess.jsonrpc, normalSend("fuzz known task")));
  const b = completedTaskOf(await exchangeOverSocket(origin, normalSend("fuzz known task"), http));
  if (!("id" in a) || !("id" in b)) throw new Error(`could not create the known tasks: ${JSON.stringify([a, b])}`);
  inProcess.takeLogs();
  return {
    inProcess,
    agent,
    origin,
    http,
    knownTask: { inProcess: a.id, socket: b.id },
    takeAgentLogs: () => logs.splice(0, logs.length),
    close: async () => {
      console.error = consoleError;
      http.destroy();
      await Promise.all([agent.close(), inProcess.close()]);
    },
  };
}

/** Problems of a normal JSON-RPC SendMessage on a target (empty: served). */
export async function jsonRpcSanity(send: (input: HttpInput) => Promise<HttpAnswer>): Promise<string[]> {
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
  const values = input.headers.filter(([k]) => k.toLowerCase() === "authorization").map(([, v]) => v);
  const m = values.length === 1 ? /^Bearer\s+(\S+)$/i.exec(values[0]!.trim()) : null;
  return m !== null && Object.hasOwn(FUZZ_TOKENS, m[1]!) ? values[0] : undefined;
}

/** The number of tasks the principal of `input` owns on the started agent (undefined: cannot tell). */
export async function socketTaskCount(targets: FuzzTargets, input: HttpInput): Promise<number | undefined> {
  const auth = principalHeader(input);
  const answer = await exchangeOverSocket(targets.origin, jsonRpcRequest("ListTasks", { pageSize: 1 }, auth === undefined ? [] : [["authorization", auth]]), targets.http);
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
  const principal = m !== null && Object.hasOwn(FUZZ_TOKENS, m[1]!) ? FUZZ_TOKENS[m[1]!] : undefined;
  return principal !== undefined && principal.tasks !== false;
}
