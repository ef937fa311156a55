// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The JSON-RPC 2.0 server of A2A (spec §9), framework-neutral. The generated
 * `create<Service>JsonRpcHandler` binds it to a service's tables and handler; serve
 * the result with `serveNode` or `serveFetch`.
 *
 * Pipeline, for every request: POST only → JSON content type → body within the size
 * limit → UTF-8 → JSON (-32700) → envelope (-32600) → method (-32601) → authenticate →
 * A2A-Version → decode params with ProtoJSON (-32602) → REQUIRED fields (-32602) →
 * required extensions → handler → ProtoJSON result. Every JSON-RPC answer is HTTP 200,
 * errors included, except authentication (401) and authorisation (403) failures.
 */
import type { Message } from "@bufbuild/protobuf";
import { A2AError, toJsonRpcError, type JsonRpcErrorObject } from "../errors/a2a-error.js";
import { ServiceParameters, type CallContext } from "../pipeline/call-context.js";
import { withTenant } from "../pipeline/call-abort.js";
import { isJsonMediaType } from "../http/content-type.js";
import { encodeSseEvent } from "../http/sse.js";
import { callError, eventTextCaches, responseText } from "../http/server-answer.js";
import { answerHttpCall, decodeServiceRequest, httpCallContext } from "../http/server-call.js";
import type { UniversalHandler, UniversalRequest, UniversalResponse } from "../http/universal.js";
import type { OperationDescriptor } from "../protocol/operation.js";
import { encodeMessage } from "../protojson/proto-json.js";
import type { RequirementTable } from "../pipeline/required-fields.js";
import type { JsonTextWriterTable } from "../protojson/json-write.js";
import { queryParameter } from "../http/query.js";
import { clipped, quoted } from "../client/input.js";
import { JSON_BODY_ERRORS, readJsonBody } from "../http/json-body.js";
import {
  authChallengeHeader,
  resolveServerOptions,
  withActivatedExtensions,
  type HttpServerOptions,
  type PipelineErrorSpecs,
  type PipelineSettings,
  type ServiceDefinitionBase,
} from "../pipeline/server-pipeline.js";
import { wireOf, type JsonRpcWire, type JsonRpcWireMethod } from "./wire.js";
import type { JsonValue } from "@bufbuild/protobuf";
import {
  errorResponse,
  isEnvelopeProblem,
  NULL_ID,
  readRequestEnvelope,
  resultResponse,
  resultTextResponse,
  type JsonRpcIdJson,
} from "./envelope.js";
import { fromJsonRpcParams, JsonRpcParamsError } from "./params.js";

/** What the generated code hands the server: the service's tables and its dispatcher. */
export interface JsonRpcServiceDefinition<Principal> extends ServiceDefinitionBase<Principal> {
  /** JSON-RPC method name → operation. */
  readonly methods: Readonly<Record<string, OperationDescriptor>>;
  /** REQUIRED fields of responses (always emitted). */
  readonly responseFields: RequirementTable;
  /** The generated ProtoJSON writers of the response types (`<Service>ResponseJsonWriters`); reflection without them. */
  readonly responseWriters?: JsonTextWriterTable | undefined;
}

/** Options of the JSON-RPC server. */
export interface JsonRpcServerOptions<Principal> extends HttpServerOptions<Principal> {
  /**
   * Other protocol versions served on the same endpoint by the same handler, e.g. A2A 0.3
   * (`v03JsonRpcWire()` of `@protoc-gen-a2a/runtime/v0_3`): a request goes to a wire when the
   * wire knows its method (`message/send`) and it names no A2A-Version, or the wire's.
   */
  readonly wires?: readonly JsonRpcWire[] | undefined;
}

const JSON_HEADERS: readonly (readonly [string, string])[] = [["content-type", "application/json"]];
const SSE_HEADERS: readonly (readonly [string, string])[] = [
  ["content-type", "text/event-stream"],
  ["cache-control", "no-cache"],
];
const DEFAULT_MAX_BODY = 10 * 1024 * 1024;
const ACCEPTED_TYPES = ["application/json"];
/** Sent with the answer to a body over the limit: the rest of it is not read. */
const CLOSE_CONNECTION: readonly (readonly [string, string])[] = [["connection", "close"]];

/** Creates the framework-neutral JSON-RPC handler of a service. */
export function createJsonRpcHandler<Principal>(
  service: JsonRpcServiceDefinition<Principal>,
  options?: JsonRpcServerOptions<Principal>,
): UniversalHandler {
  const settings = resolveServerOptions(options, service.errors, service.registry);
  const maxBody = options?.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const keepAliveMs = options?.keepAliveMs ?? 15_000;
  const eventTextCache = eventTextCaches();
  const methods = new Map(Object.entries(service.methods));
  const errors = service.errors;
  const challenge = authChallengeHeader(options);
  const respondError = (
    id: JsonRpcIdJson,
    err: A2AError,
    extra?: readonly (readonly [string, string])[],
    status?: number,
  ) => errorAnswer(settings, challenge, id, err, extra, status);

  const fail = (
    id: JsonRpcIdJson,
    spec: keyof PipelineErrorSpecs,
    message: string,
    extra?: readonly (readonly [string, string])[],
    status?: number,
  ) => respondError(id, new A2AError(errors[spec], message), extra, status);
  const wires =
    options?.wires !== undefined && options.wires.length > 0 ? options.wires : undefined;
  const serveWire =
    wires === undefined ? undefined : wireCalls(service, settings, challenge, keepAliveMs);

  return async function handleJsonRpc(request: UniversalRequest): Promise<UniversalResponse> {
    if (request.method !== "POST") {
      return fail(
        NULL_ID,
        "InvalidRequestError",
        `JSON-RPC requests must use POST, not ${clipped(request.method)}`,
        [["allow", "POST"]],
        405,
      );
    }
    if (!isJsonMediaType(request.header("content-type"), ACCEPTED_TYPES)) {
      return fail(
        NULL_ID,
        "ContentTypeNotSupportedError",
        `Content-Type must be application/json, got ${quoted(request.header("content-type") ?? "")}`,
      );
    }
    const read = await readJsonBody(request, {
      maxBytes: maxBody,
      maxDepth: settings.limits.maxJsonDepth,
    });
    if (!read.ok)
      return fail(
        NULL_ID,
        JSON_BODY_ERRORS[read.kind],
        read.message,
        read.kind === "too-large" ? CLOSE_CONNECTION : undefined,
      );
    // The text goes along, so that a numeric id is echoed exactly as sent (envelope.ts).
    const envelope = readRequestEnvelope(read.value, read.text);
    if (isEnvelopeProblem(envelope)) {
      return fail(
        envelope.id,
        envelope.kind === "params" ? "InvalidParamsError" : "InvalidRequestError",
        envelope.message,
      );
    }
    const { id } = envelope;
    if (serveWire !== undefined) {
      const found = wireOf(
        wires,
        envelope.method,
        request.header("a2a-version") ?? queryParameter(request.query, "A2A-Version"),
      );
      if (found !== undefined)
        return serveWire(found.wire, found.method, id, envelope.params, request);
    }
    const operation = methods.get(envelope.method);
    if (operation === undefined) {
      return fail(id, "MethodNotFoundError", `method ${quoted(envelope.method)} not found`);
    }
    const toError = callError(settings, operation.name, request);
    const writeText = responseText(service, settings.registry, operation.output);
    const serviceParameters = ServiceParameters.fromHeaders(request);
    let context: CallContext<Principal>;
    let message: Message;
    try {
      context = await httpCallContext(settings, "JSONRPC", operation, request, serviceParameters);
      const json = requestJson(errors, operation, envelope.params);
      message = decodeServiceRequest(settings, service, operation, json);
    } catch (e) {
      return respondError(id, toError(e));
    }
    const tenant = (message as { tenant?: unknown }).tenant;
    if (typeof tenant === "string" && tenant !== "") context = withTenant(context, tenant);

    return answerHttpCall(settings, service, operation, message, context, keepAliveMs, {
      unary: (response) => ({
        status: 200,
        headers: withActivatedExtensions(JSON_HEADERS, context),
        body: resultTextResponse(id, writeText(response)),
      }),
      error: (e) => respondError(id, toError(e)),
      stream: () => ({
        encodeEvent: (m) => encodeSseEvent(resultTextResponse(id, writeText(m))),
        shared: {
          cache: eventTextCache(operation.output),
          text: writeText,
          frame: (json) => `data: {"jsonrpc":"2.0","id":${id},"result":${json}}\n\n`,
        },
        encodeError: (err) => encodeSseEvent(errorResponse(id, toJsonRpcError(err))),
        respondError: (err) => respondError(id, err),
        toError,
      }),
    });
  };
}

/**
 * The calls of other wires (JsonRpcWire): the same pipeline, with the wire's version negotiated,
 * its params and results translated, and errors in its codes. No shared SSE event texts (the
 * translation is per wire).
 */
function wireCalls<Principal>(
  service: JsonRpcServiceDefinition<Principal>,
  settings: PipelineSettings<Principal>,
  challenge: readonly [string, string],
  keepAliveMs: number,
) {
  const byOperation = new Map(
    Object.values(service.methods).map((operation) => [operation.name, operation]),
  );
  const versionSettings = new Map<string, PipelineSettings<Principal>>();
  const settingsOf = (wire: JsonRpcWire): PipelineSettings<Principal> => {
    let found = versionSettings.get(wire.version);
    if (found === undefined)
      versionSettings.set(
        wire.version,
        (found = {
          ...settings,
          supportedVersions: [wire.version],
          versionWhenMissing: wire.version,
        }),
      );
    return found;
  };
  const errors = service.errors;
  return async function serveWire(
    wire: JsonRpcWire,
    method: JsonRpcWireMethod,
    id: JsonRpcIdJson,
    params: JsonValue,
    request: UniversalRequest,
  ): Promise<UniversalResponse> {
    const answerError = (err: A2AError): UniversalResponse =>
      errorAnswer(settings, challenge, id, err, undefined, undefined, wire.encodeError);
    const operation = byOperation.get(method.operation);
    if (operation === undefined)
      return answerError(
        new A2AError(errors.MethodNotFoundError, `method ${quoted(method.operation)} not found`),
      );
    // A streaming method answers with an event stream, errors too (A2A 0.3 §7: its clients read nothing else), except
    // the HTTP auth failures (401/403).
    const streamError = (err: A2AError): UniversalResponse => {
      if (isAuthFailure(settings, err)) return answerError(err);
      return {
        status: 200,
        headers: SSE_HEADERS,
        body: encodeSseEvent(errorResponse(id, wire.encodeError(err))),
      };
    };
    const fail = operation.kind === "unary" ? answerError : streamError;
    const toError = callError(settings, operation.name, request);
    const serviceParameters = ServiceParameters.fromHeaders(wire.headers?.(request) ?? request);
    let context: CallContext<Principal>;
    let message: Message;
    try {
      const wireSettings = settingsOf(wire);
      context = await httpCallContext(
        wireSettings,
        "JSONRPC",
        operation,
        request,
        serviceParameters,
      );
      let json: JsonValue;
      try {
        if (Array.isArray(params))
          throw new A2AError(
            errors.InvalidParamsError,
            "params must be a JSON object (by-name parameters)",
          );
        json = method.decodeParams(params, serviceParameters);
      } catch (e) {
        if (e instanceof A2AError) throw e;
        throw new A2AError(
          errors.InvalidParamsError,
          `Invalid parameters: ${e instanceof Error ? e.message : "the params cannot be read"}`,
        );
      }
      message = decodeServiceRequest(settings, service, operation, json);
    } catch (e) {
      return fail(toError(e));
    }
    const resultJson = (response: Message): JsonValue =>
      method.encodeResult(
        encodeMessage(operation.output, response, service.responseFields, settings.registry),
      );
    return answerHttpCall(settings, service, operation, message, context, keepAliveMs, {
      unary: (response) => ({
        status: 200,
        headers: withActivatedExtensions(JSON_HEADERS, context),
        body: resultResponse(id, resultJson(response)),
      }),
      error: (e) => fail(toError(e)),
      stream: () => ({
        encodeEvent: (m) => encodeSseEvent(resultResponse(id, resultJson(m))),
        encodeError: (err) => encodeSseEvent(errorResponse(id, wire.encodeError(err))),
        // A unary call's failure is answered as one (answerError), a stream call's as an event stream.
        respondError: fail,
        toError,
      }),
    });
  };
}

/** The ProtoJSON request in `params` (an object, or `[value]` for a non-object type: params.ts); InvalidParamsError otherwise. */
function requestJson(
  errors: PipelineErrorSpecs,
  operation: OperationDescriptor,
  params: JsonValue,
): JsonValue {
  try {
    return fromJsonRpcParams(operation.input, params);
  } catch (e) {
    if (e instanceof JsonRpcParamsError)
      throw new A2AError(errors.InvalidParamsError, `Invalid parameters: ${e.message}`);
    throw e;
  }
}

/**
 * An A2A error as a JSON-RPC error response: HTTP 200, or 401/403 for auth failures (a 401
 * with the `WWW-Authenticate` challenge), unless `status` says otherwise.
 */
function errorAnswer<Principal>(
  settings: PipelineSettings<Principal>,
  challenge: readonly [string, string],
  id: JsonRpcIdJson,
  err: A2AError,
  extra?: readonly (readonly [string, string])[],
  status?: number,
  encode: (err: A2AError) => JsonRpcErrorObject = toJsonRpcError,
): UniversalResponse {
  const answered = status ?? (isAuthFailure(settings, err) ? err.spec.httpStatus : 200);
  const headers = extra === undefined ? JSON_HEADERS : [...JSON_HEADERS, ...extra];
  return {
    status: answered,
    headers: answered === 401 ? [...headers, challenge] : headers,
    body: errorResponse(id, encode(err)),
  };
}

/**
 * Whether an error is an authentication or authorisation failure (HTTP 401/403 on JSON-RPC). By reason, not by
 * object identity: an UnauthenticatedError of another generated error table (a second service, a second copy of the
 * package) is still a 401, as on HTTP+JSON, which reads spec.httpStatus.
 */
function isAuthFailure<Principal>(settings: PipelineSettings<Principal>, err: A2AError): boolean {
  const reason = err.spec.reason;
  return (
    reason === settings.errors.UnauthenticatedError.reason ||
    reason === settings.errors.PermissionDeniedError.reason
  );
}
