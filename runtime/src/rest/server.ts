// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The HTTP+JSON/REST server of A2A (spec §11), framework-neutral: the precompiled route
 * table picks the operation, the request is assembled transcoding-style from path,
 * query and body, then the same pipeline as JSON-RPC runs (authentication, version,
 * ProtoJSON decoding, REQUIRED fields, extensions, handler). Errors are §11.6 bodies:
 * `{"error": {"code", "status", "message", "details": [ErrorInfo, …]}}`.
 */
import type { DescMessage, JsonValue, Message } from "@bufbuild/protobuf";
import { A2AError, toHttpError, type A2AErrorSpec } from "../errors/a2a-error.js";
import { ServiceParameters, type CallContext } from "../pipeline/call-context.js";
import { withTenant } from "../pipeline/call-abort.js";
import { isJsonMediaType } from "../http/content-type.js";
import { clipped, quoted } from "../client/input.js";
import { JSON_BODY_ERRORS, readJsonBody } from "../http/json-body.js";
import { encodeSseEvent } from "../http/sse.js";
import { callError, eventTextCaches, responseText } from "../http/server-answer.js";
import { answerHttpCall, decodeServiceRequest, httpCallContext } from "../http/server-call.js";
import type { UniversalHandler, UniversalRequest, UniversalResponse } from "../http/universal.js";
import type { OperationDescriptor } from "../protocol/operation.js";
import type { RequirementTable } from "../pipeline/required-fields.js";
import type { JsonTextWriterTable } from "../protojson/json-write.js";
import { matchRoute, type Route, type RouteTable } from "./route-matcher.js";
import {
  authChallengeHeader,
  withActivatedExtensions,
  resolveServerOptions,
  type HttpServerOptions,
  type ServiceDefinitionBase,
} from "../pipeline/server-pipeline.js";
import { RestRequestError, assembleRequest, type RestRequestShape } from "./request-shape.js";
import { normalizeBasePath, stripBasePath } from "../http/paths.js";
import { hasObjectJson, hasOwnJsonForm } from "../protojson/json-form.js";
import { ownEntry } from "../protojson/own-json.js";

/** What the generated code hands the server. */
export interface RestServiceDefinition<Principal> extends ServiceDefinitionBase<Principal> {
  readonly routes: RouteTable;
  /** RPC name → operation. */
  readonly operations: Readonly<Record<string, OperationDescriptor>>;
  /** RPC name → top-level request fields. */
  readonly requests: Readonly<Record<string, RestRequestShape>>;
  /** REQUIRED fields of responses (always emitted). */
  readonly responseFields: RequirementTable;
  /** The generated ProtoJSON writers of the response types (`<Service>ResponseJsonWriters`); reflection without them. */
  readonly responseWriters?: JsonTextWriterTable | undefined;
}

/** Options of the HTTP+JSON server. */
export interface RestServerOptions<Principal> extends HttpServerOptions<Principal> {
  /**
   * Content-Type of responses: "application/a2a+json" (spec v1.0.1 §11.1, the default) or
   * "application/json" (v1.0.0 and clients that compare the string exactly).
   */
  readonly responseContentType?: "application/a2a+json" | "application/json" | undefined;
  /**
   * The path of the interface URL (`AgentInterface.url`), e.g. "/a2a/rest": routes are
   * matched below it, and requests outside it are 404. Default: the root.
   */
  readonly basePath?: string | undefined;
  /**
   * The body of error answers and SSE `error` events, for another protocol version's wire (A2A 0.3:
   * `v03RestErrorBody` of `@protoc-gen-a2a/runtime/v0_3`). Default: §11.6's `{error: {code, status, message, details}}`.
   * The HTTP status is the error's either way.
   */
  readonly errorBody?: ((error: A2AError) => JsonValue) | undefined;
}

const DEFAULT_MAX_BODY = 10 * 1024 * 1024;
const ACCEPTED_TYPES = ["application/json", "application/a2a+json"];

/** Creates the framework-neutral HTTP+JSON handler of a service. */
export function createRestHandler<Principal>(
  service: RestServiceDefinition<Principal>,
  options?: RestServerOptions<Principal>,
): UniversalHandler {
  const settings = resolveServerOptions(options, service.errors, service.registry);
  const maxBody = options?.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const keepAliveMs = options?.keepAliveMs ?? 15_000;
  const eventTextCache = eventTextCaches();
  // Answers are the caller's own (tasks, the extended card, spec §13.3: "appropriate caching headers"): no cache keeps them.
  const jsonHeaders: readonly (readonly [string, string])[] = [
    ["content-type", options?.responseContentType ?? "application/a2a+json"],
    ["cache-control", "no-store"],
  ];
  const errors = service.errors;
  // Routing failures keep METHOD_NOT_FOUND as ErrorInfo reason, with the HTTP status of the case.
  const notFound: A2AErrorSpec = {
    ...errors.MethodNotFoundError,
    httpStatus: 404,
    grpcCode: 5,
    grpcStatus: "NOT_FOUND",
  };
  const notAllowed: A2AErrorSpec = {
    ...errors.MethodNotFoundError,
    httpStatus: 405,
    grpcCode: 12,
    grpcStatus: "UNIMPLEMENTED",
  };
  // A body over maxBodyBytes keeps INVALID_REQUEST as ErrorInfo reason, with HTTP's own status for it (RFC 9110 §15.5.14).
  const tooLarge: A2AErrorSpec = { ...errors.InvalidRequestError, httpStatus: 413 };
  const basePath = normalizeBasePath(options?.basePath);

  const challenge = authChallengeHeader(options);
  const errorBody =
    options?.errorBody ?? ((err: A2AError): JsonValue => toHttpError(err).body as JsonValue);
  const respond = (
    err: A2AError,
    extra?: readonly (readonly [string, string])[],
  ): UniversalResponse => {
    const status = err.spec.httpStatus;
    const body = errorBody(err);
    const headers = extra === undefined ? jsonHeaders : [...jsonHeaders, ...extra];
    // RFC 9110 §15.5.2: a 401 carries a challenge.
    return {
      status,
      headers: status === 401 ? [...headers, challenge] : headers,
      body: JSON.stringify(body),
    };
  };
  const invalid = (spec: A2AErrorSpec, message: string) => respond(new A2AError(spec, message));

  return async function handleRest(request: UniversalRequest): Promise<UniversalResponse> {
    const path = basePath === undefined ? request.path : stripBasePath(request.path, basePath);
    if (path === undefined)
      return invalid(notFound, `no A2A operation at ${clipped(request.path)}`);
    const match = matchRoute(service.routes, request.method, path);
    switch (match.kind) {
      case "not-found":
        return invalid(notFound, `no A2A operation at ${clipped(request.path)}`);
      case "method-not-allowed":
        return respond(
          new A2AError(
            notAllowed,
            `${clipped(request.method)} is not allowed on ${clipped(request.path)}; allowed: ${match.allow.join(", ")}`,
          ),
          [["allow", match.allow.join(", ")]],
        );
      case "bad-path":
        return invalid(errors.InvalidRequestError, `bad request path: ${match.reason}`);
    }
    const route = match.route;
    const operation = ownEntry(service.operations, route.operation);
    const shape = ownEntry(service.requests, route.operation);
    if (operation === undefined || shape === undefined)
      return invalid(notFound, `no A2A operation at ${clipped(request.path)}`);

    const toError = callError(settings, operation.name, request);
    const writeText = responseText(service, settings.registry, operation.output);
    let body: JsonValue | undefined;
    if (route.body !== "") {
      const contentType = request.header("content-type");
      const read = await readJsonBody(request, {
        maxBytes: maxBody,
        maxDepth: settings.limits.maxJsonDepth,
        allowEmpty: true,
        refusedType: isJsonMediaType(contentType, ACCEPTED_TYPES)
          ? undefined
          : `Content-Type must be application/a2a+json or application/json, got ${quoted(contentType ?? "")}`,
      });
      if (!read.ok) {
        return read.kind === "too-large"
          ? respond(new A2AError(tooLarge, read.message), [["connection", "close"]])
          : invalid(errors[JSON_BODY_ERRORS[read.kind]], read.message);
      }
      body = read.value;
    }

    const serviceParameters = ServiceParameters.fromHeaders(request);
    let context: CallContext<Principal>;
    let message: Message;
    try {
      const pathTenant = match.params["tenant"] ?? "";
      context = await httpCallContext(
        settings,
        "HTTP+JSON",
        operation,
        request,
        serviceParameters,
        pathTenant,
      );
      let json: JsonValue;
      try {
        json = hasOwnJsonForm(operation.input)
          ? wholeBodyRequest(route, operation.input, request.query, body)
          : assembleRequest(route, shape, match.params, request.query, body);
      } catch (e) {
        if (e instanceof RestRequestError)
          throw new A2AError(errors.InvalidParamsError, `Invalid parameters: ${e.message}`);
        throw e;
      }
      message = decodeServiceRequest(settings, service, operation, json);
    } catch (e) {
      return respond(toError(e));
    }
    const tenant = (message as { tenant?: unknown }).tenant;
    if (typeof tenant === "string" && tenant !== "" && tenant !== context.tenant)
      context = withTenant(context, tenant);

    return answerHttpCall(settings, service, operation, message, context, keepAliveMs, {
      unary: (response) => ({
        status: 200,
        headers: withActivatedExtensions(jsonHeaders, context),
        body: writeText(response),
      }),
      error: (e) => respond(toError(e)),
      stream: () => ({
        encodeEvent: (m) => encodeSseEvent(writeText(m)),
        shared: {
          cache: eventTextCache(operation.output),
          text: writeText,
          frame: (json) => `data: ${json}\n\n`,
        },
        encodeError: (err) => encodeSseEvent(JSON.stringify(errorBody(err)), { event: "error" }),
        respondError: (err) => respond(err),
        toError,
      }),
    });
  };
}

/**
 * The request of a type whose ProtoJSON is not an object of its fields (a Timestamp, a wrapper, a
 * Value, a Struct, an Any: json-form.ts): the body as it is, as grpc-gateway reads it (`"1.5s"`,
 * `true`, `[…]`); nothing of it travels in the path or the query.
 */
function wholeBodyRequest(
  route: Route,
  schema: DescMessage,
  query: string,
  body: JsonValue | undefined,
): JsonValue {
  const given = query.split("&").find((pair) => pair !== "" && !/^a2a-version(=|$)/i.test(pair));
  if (given !== undefined)
    throw new RestRequestError(
      `query parameter ${clipped(given.split("=")[0]!)} is not allowed: ${route.method} ${route.template} takes the whole request in the JSON body`,
    );
  if (route.body === "*") return body ?? null;
  return hasObjectJson(schema) ? {} : null;
}
