// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * What every fuzzed answer must be, per binding, as lists of problems (empty: fine): a JSON-RPC
 * 2.0 error or result with the right id and a code of the spec's tables (§9.5, §5.4); an
 * HTTP+JSON 2xx, or 4xx with a google.rpc.Status body carrying an A2A ErrorInfo (§11.6); never a
 * 5xx for what a client sent; no stack trace, file path or JavaScript error name in what the
 * server says, unless the client sent that text itself; results and stream events that decode
 * as the operation's ProtoJSON output.
 */
import { fromJson, type DescMessage, type JsonValue } from "@bufbuild/protobuf";
import type { A2AErrorSpec } from "@protoc-gen-a2a/runtime";
import { errorSpecs } from "../../generated-example/gen/a2a_a2a_errors.js";
import { StreamResponseSchema } from "../../generated-example/gen/a2a_pb.js";
import { A2AServiceJsonRpcMethods } from "../../generated-example/gen/a2a_a2a_jsonrpc_methods.js";
import { isJsonMediaType } from "@protoc-gen-a2a/runtime/http";
import { V03_JSONRPC_METHODS } from "@protoc-gen-a2a/runtime/v0_3";
import { tally } from "./fuzz-harness.js";
import { bodyBytes, sseEvents, type HttpAnswer, type HttpInput } from "./fuzz-http.js";

/** ErrorInfo reason → the spec's row. */
export const SPEC_BY_REASON: ReadonlyMap<string, A2AErrorSpec> = new Map(
  Object.values(errorSpecs).map((s) => [s.reason, s]),
);
/** JSON-RPC codes of the spec's tables (§9.5 standard codes, §5.4 A2A codes, §3.3.2 auth). */
export const JSONRPC_CODES: ReadonlySet<number> = new Set(
  Object.values(errorSpecs).map((s) => s.jsonRpcCode),
);
/** The google.rpc.Code names (HTTP+JSON `error.status`). */
export const GRPC_STATUS_NAMES = new Set([
  "OK",
  "CANCELLED",
  "UNKNOWN",
  "INVALID_ARGUMENT",
  "DEADLINE_EXCEEDED",
  "NOT_FOUND",
  "ALREADY_EXISTS",
  "PERMISSION_DENIED",
  "RESOURCE_EXHAUSTED",
  "FAILED_PRECONDITION",
  "ABORTED",
  "OUT_OF_RANGE",
  "UNIMPLEMENTED",
  "INTERNAL",
  "UNAVAILABLE",
  "DATA_LOSS",
  "UNAUTHENTICATED",
]);

const LEAKS: readonly RegExp[] = [
  /\n\s*at \S/,
  /\bat (?:async )?[\w$.<>[\] ]+ \((?:file:|node:|\/)/,
  /\b(?:TypeError|ReferenceError|RangeError|EvalError|URIError|AggregateError)\b/,
  /Cannot read propert|is not a function|is not defined|is not iterable|Maximum call stack/,
  /node_modules|\/work\/|\/home\/|\/tmp\/|file:\/\//,
  /\.(?:ts|js|mjs):\d+/,
];

/** Everything the client sent, as text, so that a server repeating it is not taken for a leak. */
export function inputText(input: HttpInput): string {
  let path = input.path;
  let query = input.query;
  try {
    path = `${path} ${decodeURIComponent(path)}`;
  } catch {}
  try {
    query = `${query} ${decodeURIComponent(query.replace(/\+/g, " "))}`;
  } catch {}
  return [
    input.method,
    path,
    query,
    ...input.headers.flat(),
    bodyBytes(input).toString("utf8"),
  ].join("\n");
}

/** Stack traces, paths and error names in `text` that are not in what the client sent. */
export function leaks(text: string, sent: string): string[] {
  const out: string[] = [];
  for (const pattern of LEAKS) {
    const m = pattern.exec(text);
    if (m !== null && !sent.includes(m[0]))
      out.push(
        `leaks internals (${JSON.stringify(m[0])}): ${JSON.stringify(text.slice(Math.max(0, m.index - 80), m.index + 120))}`,
      );
  }
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Problems of a `details`/`data` array: each an object with "@type", one ErrorInfo of the A2A domain with a known reason. Returns the reason. */
function checkDetails(details: unknown, where: string, problems: string[]): string | undefined {
  if (!Array.isArray(details)) {
    problems.push(`${where} is not an array: ${JSON.stringify(details)?.slice(0, 200)}`);
    return undefined;
  }
  let reason: string | undefined;
  for (const d of details) {
    if (!isObject(d) || typeof d["@type"] !== "string") {
      problems.push(`${where} has an entry without "@type": ${JSON.stringify(d)?.slice(0, 200)}`);
      continue;
    }
    if (d["@type"] === "type.googleapis.com/google.rpc.ErrorInfo") {
      if (d["domain"] !== "a2a-protocol.org")
        problems.push(`ErrorInfo domain is ${JSON.stringify(d["domain"])}`);
      if (typeof d["reason"] !== "string" || !SPEC_BY_REASON.has(d["reason"]))
        problems.push(`ErrorInfo reason ${JSON.stringify(d["reason"])} is not in the spec's table`);
      else reason = d["reason"];
      if (
        d["metadata"] !== undefined &&
        (!isObject(d["metadata"]) ||
          Object.values(d["metadata"]).some((v) => typeof v !== "string"))
      )
        problems.push("ErrorInfo metadata is not a map of strings");
    }
  }
  if (reason === undefined)
    problems.push(`${where} has no A2A ErrorInfo: ${JSON.stringify(details).slice(0, 200)}`);
  return reason;
}

/** Whether `json` is ProtoJSON of `desc`; the decoder's complaint otherwise. */
function decodes(desc: DescMessage, json: unknown): string | undefined {
  try {
    fromJson(desc, json as JsonValue);
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Whether `text` nests `{`/`[` deeper than `max` outside strings: such a body is refused before it is parsed
 * (maxJsonDepth, 64 by default), and parsing it here took most of an input's time (100,000 levels: 0.3 s).
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > max) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}

/** Nesting beyond which the oracles do not parse a request body (the server refuses beyond 64). */
export const PARSE_DEPTH = 200;

const parsed = new WeakMap<HttpInput, unknown>();

/** The request body as JSON (a BOM dropped, as the server does), or undefined (also when it nests deeper than {@link PARSE_DEPTH}). */
function requestJson(input: HttpInput): unknown {
  if (parsed.has(input)) return parsed.get(input);
  let json: unknown;
  try {
    const text = utf8.decode(bodyBytes(input));
    json = nestsDeeperThan(text, PARSE_DEPTH) ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  parsed.set(input, json);
  return json;
}

/**
 * The request's envelope id when the envelope is valid (`valid`), and whether the answer must
 * carry it (`must`: a POST with one Content-Type the server reads; otherwise null is right too).
 */
function envelopeId(input: HttpInput): { id: unknown; valid: boolean; must: boolean } {
  const body = requestJson(input);
  if (!isObject(body) || !Object.hasOwn(body, "id"))
    return { id: undefined, valid: false, must: false };
  const id = body["id"];
  // Any JSON number is an id: one beyond a double's range (1e400, parsed as Infinity) is echoed as written (raw-id.ts).
  const valid =
    (typeof id === "string" || typeof id === "number" || id === null) &&
    body["jsonrpc"] === "2.0" &&
    typeof body["method"] === "string" &&
    body["method"] !== "";
  const types = input.headers.filter(([k]) => k.toLowerCase() === "content-type").map(([, v]) => v);
  const must =
    valid &&
    input.method.toUpperCase() === "POST" &&
    types.length === 1 &&
    isJsonMediaType(types[0], ["application/json"]);
  return { id, valid, must };
}

/** Problems of one JSON-RPC response object (a buffered answer or one SSE event). */
function checkJsonRpcResponse(
  input: HttpInput,
  response: unknown,
  output: DescMessage | undefined,
  problems: string[],
): void {
  if (!isObject(response)) {
    problems.push(`the answer is not a JSON object: ${JSON.stringify(response)?.slice(0, 200)}`);
    return;
  }
  if (response["jsonrpc"] !== "2.0")
    problems.push(`jsonrpc is ${JSON.stringify(response["jsonrpc"])}`);
  if (!Object.hasOwn(response, "id")) problems.push("the answer has no id");
  // An error "in detecting the id" (parse error, invalid request: e.g. a body over a limit, checked before the envelope is read) answers null.
  const code = isObject(response["error"]) ? response["error"]["code"] : undefined;
  const envelope = envelopeId(input);
  const must = envelope.must && code !== -32700 && code !== -32600;
  if (must && response["id"] !== envelope.id)
    problems.push(
      `id ${JSON.stringify(response["id"])} does not match the request's ${JSON.stringify(envelope.id)}: ${JSON.stringify(response).slice(0, 300)}`,
    );
  if (!must && response["id"] !== null && response["id"] !== envelope.id)
    problems.push(`id ${JSON.stringify(response["id"])} is neither null nor the request's`);
  const hasResult = Object.hasOwn(response, "result");
  const hasError = Object.hasOwn(response, "error");
  if (hasResult === hasError) {
    problems.push(
      `the answer must have exactly one of result and error: ${JSON.stringify(response).slice(0, 200)}`,
    );
    return;
  }
  const extra = Object.keys(response).filter(
    (k) => !["jsonrpc", "id", "result", "error"].includes(k),
  );
  if (extra.length > 0) problems.push(`the answer has unexpected members ${extra.join(", ")}`);
  tally(
    hasResult
      ? `${output === StreamResponseSchema ? "event" : "result"}`
      : `error ${isObject(response["error"]) ? String(response["error"]["code"]) : "?"}`,
  );
  if (hasResult) {
    if (!envelope.valid) problems.push("a result for a request without a valid envelope");
    const why = output === undefined ? "no such method" : decodes(output, response["result"]);
    if (why !== undefined)
      problems.push(`the result is not ProtoJSON of the method's output: ${why}`);
    return;
  }
  const error = response["error"];
  if (!isObject(error)) {
    problems.push(`error is not an object: ${JSON.stringify(error)?.slice(0, 200)}`);
    return;
  }
  if (typeof code !== "number" || !Number.isInteger(code) || !JSONRPC_CODES.has(code))
    problems.push(`error code ${JSON.stringify(code)} is not in the spec's tables`);
  if (typeof error["message"] !== "string" || error["message"] === "")
    problems.push("error message is not a non-empty string");
  if (code === -32603)
    problems.push(`InternalError for a client's request: ${JSON.stringify(error["message"])}`);
  // The A2A 0.3 wire (a 0.3 method with no A2A-Version, or 0.3) answers 0.3 errors: `data` is optional there.
  const v03 = isV03Request(input) && error["data"] === undefined;
  const reason = v03 ? undefined : checkDetails(error["data"], "error.data", problems);
  if (
    reason !== undefined &&
    typeof code === "number" &&
    SPEC_BY_REASON.get(reason)?.jsonRpcCode !== code
  )
    problems.push(`error code ${code} does not go with ErrorInfo reason ${reason}`);
}

/** True when `input` goes to the A2A 0.3 JSON-RPC wire: a 0.3 method, and no A2A-Version or a 0.3 one. */
function isV03Request(input: HttpInput): boolean {
  const body = requestJson(input);
  if (
    !isObject(body) ||
    typeof body["method"] !== "string" ||
    !V03_JSONRPC_METHODS.has(body["method"])
  )
    return false;
  const versions = input.headers
    .filter(([name]) => name.toLowerCase() === "a2a-version")
    .map(([, value]) => value.trim());
  return versions.length === 0 || versions.every((v) => v === "" || v.startsWith("0.3"));
}

/** The output schema of the JSON-RPC method `input` names (undefined: none or unknown). */
function jsonRpcOutput(input: HttpInput): DescMessage | undefined {
  const body = requestJson(input);
  if (
    !isObject(body) ||
    typeof body["method"] !== "string" ||
    !Object.hasOwn(A2AServiceJsonRpcMethods, body["method"])
  )
    return undefined;
  return A2AServiceJsonRpcMethods[body["method"] as keyof typeof A2AServiceJsonRpcMethods].output;
}

/** Problems common to both HTTP bindings: bounds, 5xx, leaks. */
function checkHttpBasics(input: HttpInput, answer: HttpAnswer, problems: string[]): boolean {
  if (answer.rejected !== undefined) {
    problems.push(`the handler rejected (it must answer every request): ${answer.rejected}`);
    return false;
  }
  if (answer.clientRefused !== undefined) return false;
  if (answer.timedOut) {
    problems.push("no answer within the bound (hang)");
    return false;
  }
  if (answer.aborted === true) return false;
  if (answer.status >= 500) problems.push(`HTTP ${answer.status} for a client's request`);
  else if (answer.status < 200 || (answer.status >= 300 && answer.status < 400))
    problems.push(`HTTP ${answer.status}`);
  if (answer.streamed && !answer.ended) problems.push("the stream did not end within the bound");
  problems.push(...leaks(answer.body, inputText(input)));
  return true;
}

/** Problems of a JSON-RPC answer to `input`. */
export function checkJsonRpcAnswer(input: HttpInput, answer: HttpAnswer): string[] {
  const problems: string[] = [];
  if (!checkHttpBasics(input, answer, problems)) return problems;
  const output = jsonRpcOutput(input);
  if (input.method.toUpperCase() === "HEAD") return problems;
  if (answer.streamed) {
    if (answer.status !== 200) problems.push(`a stream with HTTP ${answer.status}`);
    const events = sseEvents(answer.body);
    if (events.length === 0) problems.push("a stream without events");
    for (const e of events) {
      let response: unknown;
      try {
        response = JSON.parse(e.data);
      } catch {
        problems.push(`an SSE event that is not JSON: ${e.data.slice(0, 200)}`);
        continue;
      }
      checkJsonRpcResponse(input, response, StreamResponseSchema, problems);
    }
    return problems;
  }
  if (
    answer.status !== 200 &&
    answer.status !== 401 &&
    answer.status !== 403 &&
    answer.status !== 405 &&
    answer.status !== 413
  )
    problems.push(`JSON-RPC answered HTTP ${answer.status}`);
  if (!(answer.headers["content-type"] ?? "").startsWith("application/json"))
    problems.push(`content-type ${JSON.stringify(answer.headers["content-type"])}`);
  let response: unknown;
  try {
    response = JSON.parse(answer.body);
  } catch {
    problems.push(`the body is not JSON: ${answer.body.slice(0, 200)}`);
    return problems;
  }
  checkJsonRpcResponse(input, response, output, problems);
  return problems;
}

/** Problems of a google.rpc.Status body (HTTP+JSON error, §11.6) for HTTP status `status`. */
export function checkRestError(body: unknown, status: number, problems: string[]): void {
  if (!isObject(body) || !isObject(body["error"])) {
    problems.push(`the error body is not {"error": {…}}: ${JSON.stringify(body)?.slice(0, 200)}`);
    return;
  }
  const e = body["error"];
  if (e["code"] !== status)
    problems.push(`error.code ${JSON.stringify(e["code"])} is not the HTTP status ${status}`);
  if (typeof e["status"] !== "string" || !GRPC_STATUS_NAMES.has(e["status"]))
    problems.push(`error.status ${JSON.stringify(e["status"])} is not a google.rpc.Code name`);
  if (typeof e["message"] !== "string" || e["message"] === "")
    problems.push("error.message is not a non-empty string");
  checkDetails(e["details"], "error.details", problems);
}

/** Problems of an HTTP+JSON answer to `input`; `output` is the output of the operation the route picks (undefined: none). */
export function checkRestAnswer(
  input: HttpInput,
  answer: HttpAnswer,
  output: DescMessage | undefined,
): string[] {
  const problems: string[] = [];
  if (!checkHttpBasics(input, answer, problems)) return problems;
  if (input.method.toUpperCase() === "HEAD" || answer.status === 204) return problems;
  if (answer.streamed) {
    for (const e of sseEvents(answer.body)) {
      let json: unknown;
      try {
        json = JSON.parse(e.data);
      } catch {
        problems.push(`an SSE event that is not JSON: ${e.data.slice(0, 200)}`);
        continue;
      }
      if (e.event === "error")
        checkRestError(
          json,
          (isObject(json) && isObject(json["error"]) && (json["error"]["code"] as number)) || 0,
          problems,
        );
      else {
        const why = decodes(StreamResponseSchema, json);
        if (why !== undefined) problems.push(`an SSE event that is not a StreamResponse: ${why}`);
      }
    }
    return problems;
  }
  const type = answer.headers["content-type"] ?? "";
  if (!type.startsWith("application/a2a+json") && !type.startsWith("application/json")) {
    problems.push(`content-type ${JSON.stringify(type)}`);
    return problems;
  }
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    problems.push(`the body is not JSON: ${answer.body.slice(0, 200)}`);
    return problems;
  }
  tally(
    `HTTP ${answer.status}${answer.status >= 400 && isObject(body) && isObject(body["error"]) && Array.isArray(body["error"]["details"]) ? ` ${(body["error"]["details"][0] as { reason?: string })?.reason}` : ""}`,
  );
  if (answer.status >= 400) {
    checkRestError(body, answer.status, problems);
    if (answer.status === 500)
      problems.push(
        `InternalError for a client's request: ${JSON.stringify(isObject(body) && isObject(body["error"]) ? body["error"]["message"] : body)}`,
      );
  } else if (output !== undefined) {
    const why = decodes(output, body);
    if (why !== undefined)
      problems.push(`the 2xx body is not ProtoJSON of the operation's output: ${why}`);
  }
  return problems;
}
