/**
 * Reads a recorded exchange (wire-tap.ts) the way the A2A v1.0.1 text defines each
 * binding, and says what the agent answered and everything that is wrong with how it
 * answered. The runner asserts on what this returns, never on what a client decoded.
 *
 * - JSON-RPC (§9): HTTP 200 (401/403 for auth errors), `Content-Type: application/json`, an
 *   envelope `{jsonrpc: "2.0", id: <the request's id>, result | error}` and nothing else;
 *   `result` strictly the ProtoJSON of the RPC's response; `error` `{code, message, data?}`
 *   with `data` an array of `Any` (§9.5); streams (§9.4) as `text/event-stream` whose every
 *   `data:` is such an envelope around a `StreamResponse`, an error envelope ending it.
 * - HTTP+JSON (§11): 200 with `application/a2a+json` (or `application/json`, v1.0.0) and the
 *   strict ProtoJSON of the response; errors as `{error: {code, status, message, details}}`
 *   (§11.6) with `code` = the HTTP status and `status` its `google.rpc.Code` name; streams as
 *   SSE of `StreamResponse`, an `event: error` carrying the §11.6 body.
 * - gRPC (§10): `:status` 200, `application/grpc`, length-prefixed protobuf messages decoded
 *   strictly; `grpc-status` in the trailers (or a trailers-only response), errors with
 *   `grpc-status-details-bin` = a `google.rpc.Status` whose code is the `grpc-status`.
 * - Errors on every binding: the ErrorInfo (`domain` "a2a-protocol.org") names the type on
 *   HTTP+JSON and gRPC, where statuses are shared (§10.6, §11.6 MUST); on JSON-RPC the code
 *   does and an ErrorInfo, when present (§9.5 SHOULD), must agree. Each code/status is
 *   compared with the spec table (spec-errors.ts), so "code -32603 with reason
 *   TASK_NOT_FOUND" or "NOT_FOUND for an UnsupportedOperationError" is a violation.
 */
import { gunzipSync, inflateSync } from "node:zlib";
import { createRegistry, fromBinary, toJson, type DescMessage } from "@bufbuild/protobuf";
import {
  A2AService,
  AgentCardSchema,
  StreamResponseSchema,
} from "../../../generated-example/gen/a2a_pb.js";
import { StatusSchema } from "../../../generated-example/gen/google/rpc/status_pb.js";
import { file_google_rpc_error_details } from "../../../generated-example/gen/google/rpc/error_details_pb.js";
import type { Binding, JsonObject, JsonValue, StreamOperation, UnaryOperation } from "./client.js";
import {
  ERROR_DOMAIN,
  GRPC_CODES,
  grpcStatusName,
  specErrorByJsonRpcCode,
  specErrorByReason,
  type SpecError,
} from "./spec-errors.js";
import {
  binaryAsJson,
  checkProtoBinary,
  checkProtoJson,
  type WireViolation,
} from "./strict-proto.js";
import type { WireExchange } from "./wire-tap.js";

export type { WireViolation } from "./strict-proto.js";

/** The RPC of each abstract operation. */
export const OPERATION_METHODS: Readonly<Record<UnaryOperation | StreamOperation, string>> = {
  send_message: "SendMessage",
  send_streaming_message: "SendStreamingMessage",
  get_task: "GetTask",
  list_tasks: "ListTasks",
  cancel_task: "CancelTask",
  subscribe_to_task: "SubscribeToTask",
  get_extended_agent_card: "GetExtendedAgentCard",
  create_push_config: "CreateTaskPushNotificationConfig",
  get_push_config: "GetTaskPushNotificationConfig",
  list_push_configs: "ListTaskPushNotificationConfigs",
  delete_push_config: "DeleteTaskPushNotificationConfig",
};

/** The response message of an RPC (a2a.proto's service, by method name). */
export function responseSchemaOf(method: string): DescMessage | undefined {
  return A2AService.methods.find((m) => m.name === method)?.output;
}

export const operationResponseSchema = (operation: UnaryOperation | StreamOperation): DescMessage =>
  responseSchemaOf(OPERATION_METHODS[operation])!;

/** An error as the wire carried it. */
export interface WireError {
  /** The spec's name for it ("TaskNotFoundError"), or "UnknownError". */
  readonly type: string;
  readonly message: string;
  /** `data` (JSON-RPC) / `details` (HTTP+JSON, gRPC `Status.details`) as ProtoJSON `Any`s. */
  readonly details: JsonValue[];
  readonly httpStatus?: number;
  readonly jsonRpcCode?: number;
  readonly grpcCode?: number;
  readonly reason?: string;
  readonly domain?: string;
}

export type WireOutcome =
  | { readonly kind: "result"; readonly root: JsonValue; readonly violations: WireViolation[] }
  | { readonly kind: "error"; readonly error: WireError; readonly violations: WireViolation[] }
  | {
      readonly kind: "stream";
      readonly events: JsonValue[];
      readonly error?: WireError;
      readonly complete: boolean;
      readonly violations: WireViolation[];
    }
  | { readonly kind: "none"; readonly violations: WireViolation[] };

const isMap = (v: unknown): v is JsonObject =>
  v !== null && typeof v === "object" && !Array.isArray(v);
const v = (path: string, message: string): WireViolation => ({ path, message });
const show = (x: unknown) => {
  const s = JSON.stringify(x);
  return s === undefined ? String(x) : s.length > 120 ? `${s.slice(0, 117)}...` : s;
};
const mediaType = (headers: Readonly<Record<string, string>>) =>
  (headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();

function parseJson(bytes: Buffer): { ok: true; value: JsonValue } | { ok: false; why: string } {
  try {
    return { ok: true, value: JSON.parse(bytes.toString("utf8")) as JsonValue };
  } catch (e) {
    return { ok: false, why: e instanceof Error ? e.message : String(e) };
  }
}

/** One dispatched SSE event (WHATWG HTML §9.2 parsing: data lines joined with "\n"). */
export interface SseEvent {
  readonly event?: string;
  readonly data: string;
}

export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  let data: string[] = [];
  let event: string | undefined;
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === "") {
      if (data.length > 0)
        events.push({ ...(event !== undefined ? { event } : {}), data: data.join("\n") });
      data = [];
      event = undefined;
      continue;
    }
    if (line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const name = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (name === "data") data.push(value);
    else if (name === "event") event = value;
  }
  return events;
}

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

/** The ErrorInfo among `details`, checked for the A2A domain. */
function errorInfoOf(
  details: readonly JsonValue[],
  path: string,
  out: WireViolation[],
): { reason?: string; domain?: string } | undefined {
  const infos = details.filter(
    (d) =>
      isMap(d) && typeof d["@type"] === "string" && d["@type"].endsWith("/google.rpc.ErrorInfo"),
  ) as JsonObject[];
  if (infos.length === 0) return undefined;
  const info = infos[0]!;
  const reason = typeof info["reason"] === "string" ? info["reason"] : undefined;
  const domain = typeof info["domain"] === "string" ? info["domain"] : undefined;
  if (domain !== ERROR_DOMAIN)
    out.push(
      v(
        `${path}.domain`,
        `ErrorInfo.domain is ${show(domain)}, not "${ERROR_DOMAIN}" (§10.6, §11.6)`,
      ),
    );
  return {
    ...(reason !== undefined ? { reason } : {}),
    ...(domain !== undefined ? { domain } : {}),
  };
}

function checkDetails(
  details: JsonValue | undefined,
  path: string,
  out: WireViolation[],
): JsonValue[] {
  if (details === undefined) return [];
  if (!Array.isArray(details)) {
    out.push(
      v(path, `error details must be an array of Any objects (§9.5, §11.6), got ${show(details)}`),
    );
    return isMap(details) ? [details] : [];
  }
  details.forEach((d, i) => {
    if (!isMap(d) || typeof d["@type"] !== "string")
      out.push(v(`${path}[${i}]`, `an error detail needs "@type" (§9.5, §11.6), got ${show(d)}`));
  });
  return details;
}

function judgeJsonRpcError(error: JsonValue, httpStatus: number, out: WireViolation[]): WireError {
  if (!isMap(error)) {
    out.push(v("error", `expected an error object, got ${show(error)}`));
    return { type: "UnknownError", message: "", details: [], httpStatus };
  }
  for (const key of Object.keys(error))
    if (!["code", "message", "data"].includes(key))
      out.push(v(`error.${key}`, `unknown member "${key}" of a JSON-RPC error object`));
  const code = error["code"];
  if (typeof code !== "number" || !Number.isInteger(code))
    out.push(v("error.code", `expected an integer code, got ${show(code)}`));
  const message = typeof error["message"] === "string" ? error["message"] : "";
  if (typeof error["message"] !== "string")
    out.push(v("error.message", `expected a string, got ${show(error["message"])}`));
  const details = checkDetails(error["data"], "error.data", out);
  const info = errorInfoOf(details, "error.data[ErrorInfo]", out);
  const spec = specErrorByJsonRpcCode(typeof code === "number" ? code : undefined);
  if (spec === undefined)
    out.push(v("error.code", `${show(code)} is no A2A or JSON-RPC error code (§5.4, §9.5)`));
  else {
    if (info?.reason !== undefined && info.reason !== spec.reason) {
      const named = specErrorByReason(info.reason);
      out.push(
        v(
          "error.data[ErrorInfo].reason",
          `code ${spec.jsonRpcCode} is ${spec.name}, but ErrorInfo.reason ${info.reason} is ${named ? `${named.name} (code ${named.jsonRpcCode})` : "no A2A error"}`,
        ),
      );
    }
    if (httpStatus !== spec.jsonRpcHttpStatus)
      out.push(
        v(
          "(http status)",
          `a JSON-RPC ${spec.name} answered HTTP ${httpStatus}, expected ${spec.jsonRpcHttpStatus}`,
        ),
      );
  }
  return {
    type: spec?.name ?? "UnknownError",
    message,
    details,
    httpStatus,
    ...(typeof code === "number" ? { jsonRpcCode: code } : {}),
    ...(info?.reason !== undefined ? { reason: info.reason } : {}),
    ...(info?.domain !== undefined ? { domain: info.domain } : {}),
  };
}

/** The spec entry an ErrorInfo names on HTTP+JSON / gRPC, checked against the binding's status. */
function typeByReason(
  reason: string | undefined,
  out: WireViolation[],
  path: string,
): SpecError | undefined {
  if (reason === undefined) {
    out.push(
      v(
        path,
        "no google.rpc.ErrorInfo: the error type cannot be told apart from others with the same status (§10.6, §11.6 MUST)",
      ),
    );
    return undefined;
  }
  const spec = specErrorByReason(reason);
  if (spec === undefined)
    out.push(v(`${path}.reason`, `ErrorInfo.reason ${reason} is no A2A error type`));
  return spec;
}

/** A §11.6 error body at `status`. */
export function judgeRestError(
  body: JsonValue | undefined,
  status: number,
  headers: Readonly<Record<string, string>>,
  out: WireViolation[],
  path = "",
): WireError {
  const at = (p: string) => (path === "" ? p : `${path}.${p}`);
  const type = mediaType(headers);
  if (
    headers["content-type"] !== undefined &&
    type !== "application/a2a+json" &&
    type !== "application/json"
  )
    out.push(
      v(
        at("(content-type)"),
        `an HTTP+JSON error answered Content-Type ${headers["content-type"]}`,
      ),
    );
  const error = isMap(body) ? body["error"] : undefined;
  if (!isMap(body) || !isMap(error)) {
    out.push(
      v(
        at("error"),
        `expected the §11.6 body {"error": {code, status, message, details}}, got ${show(body)}`,
      ),
    );
    return { type: "UnknownError", message: "", details: [], httpStatus: status };
  }
  for (const key of Object.keys(body))
    if (key !== "error") out.push(v(at(key), `unknown member "${key}" beside "error" (§11.6)`));
  for (const key of Object.keys(error))
    if (!["code", "status", "message", "details"].includes(key))
      out.push(v(at(`error.${key}`), `unknown member "${key}" of google.rpc.Status (§11.6)`));
  if (error["code"] !== status)
    out.push(
      v(
        at("error.code"),
        `error.code ${show(error["code"])} differs from the HTTP status ${status} (§11.6)`,
      ),
    );
  if (typeof error["status"] !== "string" || !(error["status"] in GRPC_CODES))
    out.push(
      v(at("error.status"), `error.status ${show(error["status"])} is no google.rpc.Code name`),
    );
  if (typeof error["message"] !== "string")
    out.push(v(at("error.message"), `expected a string, got ${show(error["message"])}`));
  const details = checkDetails(error["details"], at("error.details"), out);
  const info = errorInfoOf(details, at("error.details[ErrorInfo]"), out);
  const spec = typeByReason(info?.reason, out, at("error.details[ErrorInfo]"));
  if (spec !== undefined) {
    if (!spec.restStatuses.includes(status))
      out.push(
        v(
          at("(http status)"),
          `${spec.name} answered HTTP ${status}, expected ${spec.restStatuses.join(" or ")} (§5.4)`,
        ),
      );
    else if (status === spec.httpStatus && error["status"] !== spec.grpcStatus)
      out.push(
        v(
          at("error.status"),
          `${spec.name} has status ${spec.grpcStatus}, got ${show(error["status"])}`,
        ),
      );
  }
  return {
    type: spec?.name ?? "UnknownError",
    message: typeof error["message"] === "string" ? error["message"] : "",
    details,
    httpStatus: status,
    ...(info?.reason !== undefined ? { reason: info.reason } : {}),
    ...(info?.domain !== undefined ? { domain: info.domain } : {}),
  };
}

const ERROR_DETAIL_TYPES = createRegistry(file_google_rpc_error_details);

function judgeGrpcStatus(
  trailers: Readonly<Record<string, string>>,
  out: WireViolation[],
): { code: number; error?: WireError } {
  const raw = trailers["grpc-status"];
  if (raw === undefined || !/^\d+$/.test(raw)) {
    out.push(v("(grpc-status)", `no valid grpc-status trailer (got ${show(raw)})`));
    return { code: -1 };
  }
  const code = Number(raw);
  if (code === 0) return { code };
  let message = "";
  try {
    message = decodeURIComponent(trailers["grpc-message"] ?? "");
  } catch {
    out.push(
      v(
        "(grpc-message)",
        `grpc-message is not percent-encoded text: ${show(trailers["grpc-message"])}`,
      ),
    );
    message = trailers["grpc-message"] ?? "";
  }
  let details: JsonValue[] = [];
  const bin = trailers["grpc-status-details-bin"];
  if (bin === undefined)
    out.push(
      v(
        "(grpc-status-details-bin)",
        "no grpc-status-details-bin: the google.rpc.Status with the ErrorInfo is missing (§10.6)",
      ),
    );
  else {
    try {
      const status = fromBinary(StatusSchema, Buffer.from(bin, "base64"));
      if (status.code !== code)
        out.push(
          v(
            "(grpc-status-details-bin).code",
            `google.rpc.Status.code ${status.code} differs from grpc-status ${code}`,
          ),
        );
      if (status.message !== message)
        out.push(
          v(
            "(grpc-status-details-bin).message",
            `google.rpc.Status.message ${show(status.message)} differs from grpc-message ${show(message)}`,
          ),
        );
      const json = toJson(StatusSchema, status, { registry: ERROR_DETAIL_TYPES }) as JsonObject;
      details = Array.isArray(json["details"]) ? json["details"] : [];
    } catch (e) {
      out.push(
        v(
          "(grpc-status-details-bin)",
          `not a google.rpc.Status with known details: ${e instanceof Error ? e.message : String(e)}`,
        ),
      );
    }
  }
  const info = errorInfoOf(details, "(grpc-status-details-bin).details[ErrorInfo]", out);
  const spec = typeByReason(info?.reason, out, "(grpc-status-details-bin).details[ErrorInfo]");
  if (spec !== undefined && GRPC_CODES[spec.grpcStatus] !== code)
    out.push(
      v(
        "(grpc-status)",
        `${spec.name} answered gRPC ${grpcStatusName(code) ?? code}, expected ${spec.grpcStatus} (§5.4)`,
      ),
    );
  return {
    code,
    error: {
      type: spec?.name ?? "UnknownError",
      message,
      details,
      grpcCode: code,
      ...(info?.reason !== undefined ? { reason: info.reason } : {}),
      ...(info?.domain !== undefined ? { domain: info.domain } : {}),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Bindings
// ---------------------------------------------------------------------------------------------

const requestIdOf = (exchange: WireExchange): JsonValue | undefined => {
  const parsed = parseJson(exchange.request.body);
  return parsed.ok && isMap(parsed.value) ? parsed.value["id"] : undefined;
};

/** One JSON-RPC response envelope: its result or error, with violations. */
function judgeEnvelope(
  envelope: JsonValue,
  requestId: JsonValue | undefined,
  schema: DescMessage,
  httpStatus: number,
  out: WireViolation[],
): { result?: JsonValue; error?: WireError } {
  if (!isMap(envelope)) {
    out.push(v("(envelope)", `expected a JSON-RPC response object, got ${show(envelope)}`));
    return {};
  }
  if (envelope["jsonrpc"] !== "2.0")
    out.push(v("jsonrpc", `expected "2.0", got ${show(envelope["jsonrpc"])}`));
  if (requestId !== undefined && JSON.stringify(envelope["id"]) !== JSON.stringify(requestId))
    out.push(
      v("id", `response id ${show(envelope["id"])} is not the request's id ${show(requestId)}`),
    );
  for (const key of Object.keys(envelope))
    if (!["jsonrpc", "id", "result", "error"].includes(key))
      out.push(v(key, `unknown member "${key}" of a JSON-RPC response`));
  const hasResult = Object.hasOwn(envelope, "result");
  const hasError = Object.hasOwn(envelope, "error");
  if (hasResult === hasError) {
    out.push(
      v(
        "(envelope)",
        `a JSON-RPC response has exactly one of result and error (has ${hasResult ? "both" : "neither"})`,
      ),
    );
    if (!hasError) return {};
  }
  if (hasError) return { error: judgeJsonRpcError(envelope["error"]!, httpStatus, out) };
  if (httpStatus !== 200)
    out.push(v("(http status)", `a JSON-RPC result answered HTTP ${httpStatus}`));
  for (const violation of checkProtoJson(schema, envelope["result"], "result")) out.push(violation);
  return { result: envelope["result"]! };
}

function judgeJsonRpc(exchange: WireExchange, method: string, stream: boolean): WireOutcome {
  const response = exchange.response;
  const out: WireViolation[] = [];
  if (response === undefined)
    return { kind: "none", violations: [v("(response)", "no response reached the client")] };
  const schema = responseSchemaOf(method)!;
  const requestId = requestIdOf(exchange);
  const type = mediaType(response.headers);
  if (stream && type === "text/event-stream") {
    if (response.status !== 200)
      out.push(v("(http status)", `an SSE stream answered HTTP ${response.status}`));
    const events: JsonValue[] = [];
    let error: WireError | undefined;
    parseSse(response.body.toString("utf8")).forEach((event, i) => {
      const parsed = parseJson(Buffer.from(event.data, "utf8"));
      const problems: WireViolation[] = [];
      if (!parsed.ok) problems.push(v("(data)", `not JSON: ${parsed.why}`));
      else {
        if (error !== undefined)
          problems.push(v("(order)", "an event after the error that ended the stream"));
        const judged = judgeEnvelope(parsed.value, requestId, schema, 200, problems);
        if (judged.result !== undefined) events.push(judged.result);
        if (judged.error !== undefined) error = judged.error;
      }
      out.push(...problems.map((p) => ({ path: `events[${i}].${p.path}`, message: p.message })));
    });
    return {
      kind: "stream",
      events,
      ...(error !== undefined ? { error } : {}),
      complete: response.complete,
      violations: out,
    };
  }
  if (type !== "application/json")
    out.push(
      v(
        "(content-type)",
        `JSON-RPC answered Content-Type ${show(response.headers["content-type"])}, expected application/json${stream ? " or text/event-stream" : ""}`,
      ),
    );
  const parsed = parseJson(response.body);
  if (!parsed.ok)
    return {
      kind: "none",
      violations: [...out, v("(body)", `not JSON (HTTP ${response.status}): ${parsed.why}`)],
    };
  const judged = judgeEnvelope(parsed.value, requestId, schema, response.status, out);
  if (judged.error !== undefined) return { kind: "error", error: judged.error, violations: out };
  if (stream)
    out.push(
      v("(content-type)", "a streaming method answered a single result instead of an SSE stream"),
    );
  return judged.result !== undefined
    ? { kind: "result", root: judged.result, violations: out }
    : { kind: "none", violations: out };
}

function judgeRest(exchange: WireExchange, method: string, stream: boolean): WireOutcome {
  const response = exchange.response;
  const out: WireViolation[] = [];
  if (response === undefined)
    return { kind: "none", violations: [v("(response)", "no response reached the client")] };
  const schema = responseSchemaOf(method)!;
  const type = mediaType(response.headers);
  if (stream && response.status === 200 && type === "text/event-stream") {
    const events: JsonValue[] = [];
    let error: WireError | undefined;
    parseSse(response.body.toString("utf8")).forEach((event, i) => {
      const parsed = parseJson(Buffer.from(event.data, "utf8"));
      if (!parsed.ok) {
        out.push(v(`events[${i}]`, `data is not JSON: ${parsed.why}`));
        return;
      }
      if (error !== undefined)
        out.push(v(`events[${i}]`, "an event after the error that ended the stream"));
      if (event.event === "error") {
        const problems: WireViolation[] = [];
        // The status of an in-stream error is the one its body names.
        const code =
          isMap(parsed.value) &&
          isMap(parsed.value["error"]) &&
          typeof parsed.value["error"]["code"] === "number"
            ? parsed.value["error"]["code"]
            : 0;
        error = judgeRestError(parsed.value, code, {}, problems, `events[${i}]`);
        out.push(...problems);
        return;
      }
      if (event.event !== undefined && event.event !== "message")
        out.push(v(`events[${i}]`, `unexpected SSE event type ${show(event.event)}`));
      out.push(...checkProtoJson(StreamResponseSchema, parsed.value, `events[${i}]`));
      events.push(parsed.value);
    });
    return {
      kind: "stream",
      events,
      ...(error !== undefined ? { error } : {}),
      complete: response.complete,
      violations: out,
    };
  }
  const parsed = response.body.length === 0 ? undefined : parseJson(response.body);
  if (parsed !== undefined && !parsed.ok)
    return {
      kind: "none",
      violations: [v("(body)", `not JSON (HTTP ${response.status}): ${parsed.why}`)],
    };
  const body = parsed?.value;
  if (response.status >= 400)
    return {
      kind: "error",
      error: judgeRestError(body, response.status, response.headers, out),
      violations: out,
    };
  if (response.status !== 200) out.push(v("(http status)", `expected 200, got ${response.status}`));
  if (type !== "application/a2a+json" && type !== "application/json")
    out.push(
      v(
        "(content-type)",
        `HTTP+JSON answered Content-Type ${show(response.headers["content-type"])}, expected application/a2a+json${stream ? " or text/event-stream" : ""}`,
      ),
    );
  if (stream)
    out.push(
      v("(content-type)", "a streaming method answered a single body instead of an SSE stream"),
    );
  out.push(...checkProtoJson(schema, body));
  return { kind: "result", root: body ?? null, violations: out };
}

/** The gRPC messages of a response body (length-prefixed, §10: identity or gzip/deflate per grpc-encoding). */
function grpcMessages(
  body: Buffer,
  encoding: string | undefined,
  out: WireViolation[],
): Uint8Array[] {
  const messages: Uint8Array[] = [];
  let offset = 0;
  while (offset < body.length) {
    if (body.length - offset < 5) {
      out.push(
        v(
          "(frames)",
          `${body.length - offset} trailing byte(s) that are no complete message prefix`,
        ),
      );
      break;
    }
    const compressed = body[offset]!;
    const length = body.readUInt32BE(offset + 1);
    if (body.length - offset - 5 < length) {
      out.push(
        v("(frames)", `a message of ${length} bytes is cut off after ${body.length - offset - 5}`),
      );
      break;
    }
    let bytes: Uint8Array = body.subarray(offset + 5, offset + 5 + length);
    if (compressed === 1) {
      try {
        if (encoding === "gzip") bytes = gunzipSync(bytes);
        else if (encoding === "deflate") bytes = inflateSync(bytes);
        else out.push(v("(frames)", `a compressed message with grpc-encoding ${show(encoding)}`));
      } catch (e) {
        out.push(
          v(
            "(frames)",
            `a compressed message does not decompress: ${e instanceof Error ? e.message : String(e)}`,
          ),
        );
      }
    } else if (compressed !== 0)
      out.push(v("(frames)", `message flag ${compressed} (0 or 1 only)`));
    messages.push(bytes);
    offset += 5 + length;
  }
  return messages;
}

function judgeGrpc(exchange: WireExchange, method: string, stream: boolean): WireOutcome {
  const response = exchange.response;
  const out: WireViolation[] = [];
  if (response === undefined)
    return { kind: "none", violations: [v("(response)", "no response reached the client")] };
  const schema = responseSchemaOf(method)!;
  if (response.status !== 200) out.push(v("(:status)", `gRPC answered HTTP ${response.status}`));
  if (!mediaType(response.headers).startsWith("application/grpc"))
    out.push(
      v("(content-type)", `gRPC answered Content-Type ${show(response.headers["content-type"])}`),
    );
  const decoded = grpcMessages(response.body, response.headers["grpc-encoding"], out).map(
    (bytes, i) => {
      const { message, violations } = checkProtoBinary(schema, bytes);
      out.push(
        ...violations.map((x) => ({
          path: stream ? `events[${i}].${x.path}` : x.path,
          message: x.message,
        })),
      );
      return message === undefined ? null : binaryAsJson(schema, message);
    },
  );
  if (response.trailers === undefined) {
    if (response.complete) out.push(v("(grpc-status)", "the response ended without trailers"));
    return stream
      ? { kind: "stream", events: decoded, complete: false, violations: out }
      : { kind: "none", violations: out };
  }
  const status = judgeGrpcStatus(response.trailers, out);
  if (stream)
    return {
      kind: "stream",
      events: decoded,
      ...(status.error !== undefined ? { error: status.error } : {}),
      complete: response.complete,
      violations: out,
    };
  if (status.error !== undefined) {
    if (decoded.length > 0)
      out.push(
        v("(frames)", `${decoded.length} message(s) before the error status of a unary call`),
      );
    return { kind: "error", error: status.error, violations: out };
  }
  if (decoded.length !== 1)
    out.push(v("(frames)", `a unary response has ${decoded.length} messages, expected 1`));
  return decoded[0] !== undefined
    ? { kind: "result", root: decoded[0], violations: out }
    : { kind: "none", violations: out };
}

/** What the agent answered in `exchange`, the response of `method` (an a2a.proto RPC name) on `binding`. */
export function judgeExchange(
  binding: Binding,
  method: string,
  exchange: WireExchange,
  stream: boolean,
): WireOutcome {
  switch (binding) {
    case "jsonrpc":
      return judgeJsonRpc(exchange, method, stream);
    case "rest":
      return judgeRest(exchange, method, stream);
    case "grpc":
      return judgeGrpc(exchange, method, stream);
  }
}

/** A public Agent Card response (§8.2): 200, JSON, and strictly an AgentCard. */
export function judgeAgentCard(
  status: number,
  headers: Readonly<Record<string, string>>,
  body: JsonValue | undefined,
): WireViolation[] {
  const out: WireViolation[] = [];
  if (status !== 200) return out;
  const type = mediaType(headers);
  if (type !== "application/json" && type !== "application/a2a+json")
    out.push(
      v("(content-type)", `the Agent Card answered Content-Type ${show(headers["content-type"])}`),
    );
  out.push(...checkProtoJson(AgentCardSchema, body));
  return out;
}

/** The RPC an HTTP+JSON request names (§11.3 routes, relative to the interface URL, without a tenant prefix). */
const REST_ROUTES: readonly (readonly [methods: readonly string[], path: RegExp, rpc: string])[] = [
  [["POST"], /^\/message:send$/, "SendMessage"],
  [["POST"], /^\/message:stream$/, "SendStreamingMessage"],
  [["GET"], /^\/tasks\/[^/]+$/, "GetTask"],
  [["GET"], /^\/tasks$/, "ListTasks"],
  [["POST"], /^\/tasks\/[^/]+:cancel$/, "CancelTask"],
  [["GET", "POST"], /^\/tasks\/[^/]+:subscribe$/, "SubscribeToTask"],
  [["POST"], /^\/tasks\/[^/]+\/pushNotificationConfigs$/, "CreateTaskPushNotificationConfig"],
  [["GET"], /^\/tasks\/[^/]+\/pushNotificationConfigs\/[^/]+$/, "GetTaskPushNotificationConfig"],
  [["GET"], /^\/tasks\/[^/]+\/pushNotificationConfigs$/, "ListTaskPushNotificationConfigs"],
  [
    ["DELETE"],
    /^\/tasks\/[^/]+\/pushNotificationConfigs\/[^/]+$/,
    "DeleteTaskPushNotificationConfig",
  ],
  [["GET"], /^\/extendedAgentCard$/, "GetExtendedAgentCard"],
];

const STREAMING_RPCS = new Set(["SendStreamingMessage", "SubscribeToTask"]);

/** The RPC of an HTTP+JSON request (`path` relative to the interface URL), if it names one. */
export function restRouteOf(method: string, path: string): string | undefined {
  const pathname = path.split("?")[0]!;
  return REST_ROUTES.find(
    ([methods, pattern]) => methods.includes(method) && pattern.test(pathname),
  )?.[2];
}

/**
 * The violations (and the error, if it is one) of a response to a raw step's request: the
 * runner knows the RPC from the JSON-RPC `method` or the HTTP+JSON route, and judges the
 * response like any other; a response it cannot attribute to an RPC is still checked as an
 * error when it is one (a malformed request must get a spec-shaped error).
 */
export function judgeRawResponse(
  binding: Binding,
  request: { readonly method: string; readonly path: string; readonly body?: string },
  response: {
    readonly status: number;
    readonly headers: Readonly<Record<string, string>>;
    readonly body: Buffer;
  },
): { violations: WireViolation[]; error?: WireError } {
  const exchange: WireExchange = {
    id: "raw",
    binding,
    request: {
      method: request.method,
      path: request.path,
      headers: {},
      body: Buffer.from(request.body ?? "", "utf8"),
    },
    response: { ...response, complete: true },
  };
  const pathname = request.path.split("?")[0]!;
  if (binding === "jsonrpc") {
    const parsed =
      request.body === undefined ? undefined : parseJson(Buffer.from(request.body, "utf8"));
    const method =
      parsed?.ok && isMap(parsed.value) && typeof parsed.value["method"] === "string"
        ? parsed.value["method"]
        : undefined;
    const known = method !== undefined && responseSchemaOf(method) !== undefined;
    const outcome = judgeJsonRpc(
      exchange,
      known ? method : "SendMessage",
      known && STREAMING_RPCS.has(method),
    );
    // An unknown method or a body that is no request can only be answered with an error.
    if (!known && outcome.kind === "result")
      return {
        violations: [
          v("result", `a result for a request that names no A2A method (${show(method)})`),
        ],
      };
    return {
      violations: outcome.violations,
      ...(outcome.kind === "error"
        ? { error: outcome.error }
        : outcome.kind === "stream" && outcome.error !== undefined
          ? { error: outcome.error }
          : {}),
    };
  }
  const rpc = restRouteOf(request.method, pathname);
  if (rpc === undefined) {
    if (response.status < 400) return { violations: [] };
    const out: WireViolation[] = [];
    const parsed = parseJson(response.body);
    const error = judgeRestError(
      parsed.ok ? parsed.value : undefined,
      response.status,
      response.headers,
      out,
    );
    return { violations: out, error };
  }
  const outcome = judgeRest(exchange, rpc, STREAMING_RPCS.has(rpc));
  return {
    violations: outcome.violations,
    ...(outcome.kind === "error"
      ? { error: outcome.error }
      : outcome.kind === "stream" && outcome.error !== undefined
        ? { error: outcome.error }
        : {}),
  };
}
