// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The requests of the still-serves oracle (test/support/fuzz-serving.ts), one probe per binding:
 * GetTask of one task and one ListTasks page (pageSize 100, artifacts included, full history) of a
 * scope, sent as the task's owner in its tenant, over JSON-RPC, HTTP+JSON, gRPC (binary) and the
 * Connect protocol with JSON. A probe says whether the agent answered successfully with something
 * that decodes as the operation's output (and names the task asked for), else what it answered.
 */
import {
  create,
  fromBinary,
  fromJson,
  toBinary,
  type DescMessage,
  type JsonValue,
} from "@bufbuild/protobuf";
import { matchRoute } from "@protoc-gen-a2a/runtime/rest";
import {
  GetTaskRequestSchema,
  ListTasksRequestSchema,
  ListTasksResponseSchema,
  TaskSchema,
} from "../../generated-example/gen/a2a_pb.js";
import { A2AServiceRoutes } from "../../generated-example/gen/a2a_a2a_rest_routes.js";
import { FUZZ_TOKENS } from "./fuzz-agent.js";
import { tally } from "./fuzz-harness.js";
import { grpcStatusOf, messages, trailerOf, type GrpcFuzzClient } from "./fuzz-grpc.js";
import type { HttpAnswer, HttpInput } from "./fuzz-http.js";
import type { TaskRef } from "./fuzz-task-ledger.js";
import { frame } from "./grpc-frames.js";

/** A scope: tenant and owner key. */
export interface Scope {
  readonly tenant: string;
  readonly owner: string;
}

/** What a probe found: served, not served (`problem`; `notFound` when the answer was TaskNotFound), or not askable on this binding. */
export type ProbeResult<T> =
  | { readonly ok: T }
  | { readonly problem: string; readonly notFound?: boolean }
  | { readonly skipped: string };

/** One binding's probes. */
export interface BindingProbe {
  /** "jsonrpc", "rest", "grpc", "connect". */
  readonly binding: string;
  getTask(ref: TaskRef): Promise<ProbeResult<true>>;
  /** One ListTasks page of `scope` from `pageToken` ("" for the first). */
  listPage(scope: Scope, pageToken: string): Promise<ProbeResult<{ ids: string[]; next: string }>>;
}

/** Sends one HTTP request to a target and returns its answer. */
export type HttpSend = (input: HttpInput) => Promise<HttpAnswer>;

/** ListTasks page size of the probes (the spec's maximum). */
export const PROBE_PAGE_SIZE = 100;

/** The Authorization header that authenticates as `owner` (the fuzz tokens' subjects; "" is anonymous), undefined when no fuzz token does. */
export function authFor(owner: string): [string, string][] | undefined {
  if (owner === "") return [];
  const token = Object.entries(FUZZ_TOKENS).find(
    ([, p]) => p.subject === owner && p.tasks !== false,
  )?.[0];
  return token === undefined ? undefined : [["authorization", `Bearer ${token}`]];
}

const clip = (text: string, n = 160) => (text.length > n ? `${text.slice(0, n)}…` : text);

/** Why `json` is not ProtoJSON of `desc`, or undefined. */
function notProtoJson(desc: DescMessage, json: unknown): string | undefined {
  try {
    fromJson(desc, json as JsonValue);
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The served page of a decoded ListTasksResponse JSON. */
function pageOf(json: Record<string, unknown>): { ids: string[]; next: string } {
  const tasks = Array.isArray(json["tasks"]) ? (json["tasks"] as unknown[]) : [];
  return {
    ids: tasks.map((t) => (isObject(t) && typeof t["id"] === "string" ? t["id"] : "")),
    next: typeof json["nextPageToken"] === "string" ? json["nextPageToken"] : "",
  };
}

/** A transport failure (no answer) as a problem. */
function unanswered(answer: HttpAnswer): string | undefined {
  if (answer.timedOut) return "no answer within the bound (hang)";
  if (answer.rejected !== undefined) return `the handler rejected: ${answer.rejected}`;
  if (answer.clientRefused !== undefined) return `no answer: ${answer.clientRefused}`;
  return undefined;
}

/** The JSON-RPC probes over `send` (in-process or a socket). */
export function jsonRpcProbe(send: HttpSend): BindingProbe {
  let id = 0;
  const call = async (
    method: string,
    params: Record<string, unknown>,
    owner: string,
  ): Promise<
    { result: unknown } | { problem: string; notFound?: boolean } | { skipped: string }
  > => {
    const auth = authFor(owner);
    if (auth === undefined) return { skipped: "an owner without a fuzz token" };
    const answer = await send({
      method: "POST",
      path: "/a2a/jsonrpc",
      query: "",
      headers: [["content-type", "application/json"], ["a2a-version", "1.0"], ...auth],
      body: Buffer.from(JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params })).toString(
        "base64",
      ),
    });
    const failed = unanswered(answer);
    if (failed !== undefined) return { problem: failed };
    let body: unknown;
    try {
      body = JSON.parse(answer.body);
    } catch {
      return { problem: `HTTP ${answer.status}, not JSON: ${JSON.stringify(clip(answer.body))}` };
    }
    if (!isObject(body))
      return { problem: `HTTP ${answer.status}: ${JSON.stringify(clip(answer.body))}` };
    if (isObject(body["error"])) {
      const e = body["error"];
      return {
        problem: `error ${String(e["code"])} ${JSON.stringify(clip(String(e["message"])))}`,
        notFound: e["code"] === -32001,
      };
    }
    if (answer.status !== 200 || !Object.hasOwn(body, "result"))
      return {
        problem: `HTTP ${answer.status} without a result: ${JSON.stringify(clip(answer.body))}`,
      };
    return { result: body["result"] };
  };
  const withTenant = (tenant: string, params: Record<string, unknown>) =>
    tenant === "" ? params : { tenant, ...params };
  return {
    binding: "jsonrpc",
    async getTask(ref) {
      const r = await call("GetTask", withTenant(ref.tenant, { id: ref.id }), ref.owner);
      if (!("result" in r)) return r;
      const why = notProtoJson(TaskSchema, r.result);
      if (why !== undefined) return { problem: `a result that is not a Task: ${clip(why)}` };
      return isObject(r.result) && r.result["id"] === ref.id
        ? { ok: true }
        : {
            problem: `the result is another task: ${JSON.stringify(clip(JSON.stringify(r.result)))}`,
          };
    },
    async listPage(scope, pageToken) {
      const params: Record<string, unknown> = withTenant(scope.tenant, {
        pageSize: PROBE_PAGE_SIZE,
        includeArtifacts: true,
      });
      if (pageToken !== "") params["pageToken"] = pageToken;
      const r = await call("ListTasks", params, scope.owner);
      if (!("result" in r)) return r;
      const why = notProtoJson(ListTasksResponseSchema, r.result);
      if (why !== undefined || !isObject(r.result))
        return { problem: `a result that is not a ListTasksResponse: ${clip(why ?? "")}` };
      return { ok: pageOf(r.result) };
    },
  };
}

/** The HTTP+JSON path of `tail` ("/tasks/…") in `tenant` below `base`, when the route table maps it to `operation` with these values. */
function restPath(
  base: string,
  tenant: string,
  tail: string,
  operation: string,
  params: Readonly<Record<string, string>>,
): string | undefined {
  const path = `${tenant === "" ? "" : `/${encodeURIComponent(tenant)}`}${tail}`;
  const match = matchRoute(A2AServiceRoutes, "GET", path);
  if (match.kind !== "match" || match.route.operation !== operation) return undefined;
  for (const [k, v] of Object.entries({ ...params, ...(tenant === "" ? {} : { tenant }) }))
    if (match.params[k] !== v) return undefined;
  return `${base}${path}`;
}

/** The HTTP+JSON probes over `send`, the binding mounted at `base` ("/a2a/rest"). */
export function restProbe(send: HttpSend, base = "/a2a/rest"): BindingProbe {
  const get = async (
    path: string,
    query: string,
    owner: string,
  ): Promise<
    | { json: Record<string, unknown> }
    | { problem: string; notFound?: boolean }
    | { skipped: string }
  > => {
    const auth = authFor(owner);
    if (auth === undefined) return { skipped: "an owner without a fuzz token" };
    const answer = await send({
      method: "GET",
      path,
      query,
      headers: [["a2a-version", "1.0"], ...auth],
      body: "",
    });
    const failed = unanswered(answer);
    if (failed !== undefined) return { problem: failed };
    let json: unknown;
    try {
      json = JSON.parse(answer.body);
    } catch {
      return { problem: `HTTP ${answer.status}, not JSON: ${JSON.stringify(clip(answer.body))}` };
    }
    if (answer.status !== 200 || !isObject(json)) {
      const e = isObject(json) && isObject(json["error"]) ? json["error"] : undefined;
      const reason = Array.isArray(e?.["details"])
        ? (e["details"] as { reason?: string }[]).find(
            (d) => isObject(d) && typeof d.reason === "string",
          )?.reason
        : undefined;
      return {
        problem: `HTTP ${answer.status} ${JSON.stringify(clip(String(e?.["message"] ?? answer.body)))}`,
        notFound: reason === "TASK_NOT_FOUND",
      };
    }
    return { json };
  };
  return {
    binding: "rest",
    async getTask(ref) {
      const path = restPath(base, ref.tenant, `/tasks/${encodeURIComponent(ref.id)}`, "GetTask", {
        id: ref.id,
      });
      if (path === undefined) return { skipped: "a tenant the HTTP+JSON routes cannot address" };
      const r = await get(path, "", ref.owner);
      if (!("json" in r)) return r;
      const why = notProtoJson(TaskSchema, r.json);
      if (why !== undefined) return { problem: `a 200 body that is not a Task: ${clip(why)}` };
      return r.json["id"] === ref.id
        ? { ok: true }
        : { problem: `the body is another task: ${JSON.stringify(clip(JSON.stringify(r.json)))}` };
    },
    async listPage(scope, pageToken) {
      const path = restPath(base, scope.tenant, "/tasks", "ListTasks", {});
      if (path === undefined) return { skipped: "a tenant the HTTP+JSON routes cannot address" };
      const query = `pageSize=${PROBE_PAGE_SIZE}&includeArtifacts=true${pageToken === "" ? "" : `&pageToken=${encodeURIComponent(pageToken)}`}`;
      const r = await get(path, query, scope.owner);
      if (!("json" in r)) return r;
      const why = notProtoJson(ListTasksResponseSchema, r.json);
      if (why !== undefined)
        return { problem: `a 200 body that is not a ListTasksResponse: ${clip(why)}` };
      return { ok: pageOf(r.json) };
    },
  };
}

/** The gRPC probes (binary protobuf) through `client`. */
export function grpcProbe(client: GrpcFuzzClient, service = "/lf.a2a.v1.A2AService"): BindingProbe {
  const call = async (
    method: string,
    payload: Uint8Array,
    owner: string,
  ): Promise<
    { message: Buffer } | { problem: string; notFound?: boolean } | { skipped: string }
  > => {
    const auth = authFor(owner);
    if (auth === undefined) return { skipped: "an owner without a fuzz token" };
    const answer = await client.call(
      `${service}/${method}`,
      [["content-type", "application/grpc"], ["te", "trailers"], ["a2a-version", "1.0"], ...auth],
      frame(payload),
    );
    if (answer.timedOut) return { problem: "no answer within the bound (hang)" };
    const status = grpcStatusOf(answer);
    if (status !== "0") {
      let message = trailerOf(answer, "grpc-message") ?? "";
      try {
        message = decodeURIComponent(message);
      } catch {}
      return {
        problem: `grpc-status ${status ?? `none${answer.reset !== undefined ? ` (${answer.reset})` : ""}`} ${JSON.stringify(clip(message))}`,
        notFound: status === "5",
      };
    }
    const parsed = messages(answer.body, answer.headers["grpc-encoding"] as string | undefined);
    if (typeof parsed === "string") return { problem: parsed };
    if (parsed.messages.length !== 1)
      return { problem: `${parsed.messages.length} answer messages` };
    return { message: parsed.messages[0]! };
  };
  return {
    binding: "grpc",
    async getTask(ref) {
      const r = await call(
        "GetTask",
        toBinary(
          GetTaskRequestSchema,
          create(GetTaskRequestSchema, { tenant: ref.tenant, id: ref.id }),
        ),
        ref.owner,
      );
      if (!("message" in r)) return r;
      try {
        const task = fromBinary(TaskSchema, r.message);
        return task.id === ref.id ? { ok: true } : { problem: "the answer is another task" };
      } catch (e) {
        return {
          problem: `an answer that is not a Task: ${clip(e instanceof Error ? e.message : String(e))}`,
        };
      }
    },
    async listPage(scope, pageToken) {
      const request = create(ListTasksRequestSchema, {
        tenant: scope.tenant,
        pageSize: PROBE_PAGE_SIZE,
        includeArtifacts: true,
        pageToken,
      });
      const r = await call("ListTasks", toBinary(ListTasksRequestSchema, request), scope.owner);
      if (!("message" in r)) return r;
      try {
        const page = fromBinary(ListTasksResponseSchema, r.message);
        return { ok: { ids: page.tasks.map((t) => t.id), next: page.nextPageToken } };
      } catch (e) {
        return {
          problem: `an answer that is not a ListTasksResponse: ${clip(e instanceof Error ? e.message : String(e))}`,
        };
      }
    },
  };
}

/** The Connect protocol's JSON probes (unary POST) over `send`, the service mounted at `base` ("/a2a/connect"). */
export function connectJsonProbe(
  send: HttpSend,
  base = "/a2a/connect",
  service = "lf.a2a.v1.A2AService",
): BindingProbe {
  const call = async (
    method: string,
    body: Record<string, unknown>,
    owner: string,
  ): Promise<
    | { json: Record<string, unknown> }
    | { problem: string; notFound?: boolean }
    | { skipped: string }
  > => {
    const auth = authFor(owner);
    if (auth === undefined) return { skipped: "an owner without a fuzz token" };
    const answer = await send({
      method: "POST",
      path: `${base}/${service}/${method}`,
      query: "",
      headers: [
        ["content-type", "application/json"],
        ["connect-protocol-version", "1"],
        ["a2a-version", "1.0"],
        ...auth,
      ],
      body: Buffer.from(JSON.stringify(body)).toString("base64"),
    });
    const failed = unanswered(answer);
    if (failed !== undefined) return { problem: failed };
    let json: unknown;
    try {
      json = JSON.parse(answer.body);
    } catch {
      return { problem: `HTTP ${answer.status}, not JSON: ${JSON.stringify(clip(answer.body))}` };
    }
    if (answer.status !== 200 || !isObject(json)) {
      const e = isObject(json) ? json : {};
      return {
        problem: `HTTP ${answer.status} ${String(e["code"])} ${JSON.stringify(clip(String(e["message"] ?? answer.body)))}`,
        notFound: e["code"] === "not_found",
      };
    }
    return { json };
  };
  const withTenant = (tenant: string, body: Record<string, unknown>) =>
    tenant === "" ? body : { tenant, ...body };
  return {
    binding: "connect",
    async getTask(ref) {
      const r = await call("GetTask", withTenant(ref.tenant, { id: ref.id }), ref.owner);
      if (!("json" in r)) return r;
      const why = notProtoJson(TaskSchema, r.json);
      if (why !== undefined) return { problem: `a 200 body that is not a Task: ${clip(why)}` };
      return r.json["id"] === ref.id ? { ok: true } : { problem: "the body is another task" };
    },
    async listPage(scope, pageToken) {
      const body: Record<string, unknown> = withTenant(scope.tenant, {
        pageSize: PROBE_PAGE_SIZE,
        includeArtifacts: true,
      });
      if (pageToken !== "") body["pageToken"] = pageToken;
      const r = await call("ListTasks", body, scope.owner);
      if (!("json" in r)) return r;
      const why = notProtoJson(ListTasksResponseSchema, r.json);
      if (why !== undefined)
        return { problem: `a 200 body that is not a ListTasksResponse: ${clip(why)}` };
      return { ok: pageOf(r.json) };
    },
  };
}

/** Counts a skipped probe for the coverage line. */
export function tallySkip(binding: string, why: string): void {
  tally(`still-serves probe skipped (${binding}): ${why}`);
}
