// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The HTTP+JSON/REST client transport of A2A (spec §11) over `fetch`: paths built from
 * the route table, query strings per §11.5, SSE for streams, §11.6 errors rebuilt into
 * the generated error classes. The generated `<Service>RestClient` wraps it.
 */
import {
  toJson,
  type JsonObject,
  type JsonValue,
  type MessageInitShape,
  type MessageShape,
} from "@bufbuild/protobuf";
import {
  BAD_REQUEST_TYPE,
  ERROR_DOMAIN,
  ERROR_INFO_TYPE,
  type A2AError,
  type ErrorRegistry,
} from "../errors/a2a-error.js";
import { requestHeaders, type CallOptions, type ClientOptions } from "../client/call-options.js";
import { responseMessage } from "../client/response-message.js";
import {
  checkedRequestMessage,
  clientRequestSettings,
  type ClientRequestSettings,
  type ClientServiceTables,
} from "../client/request-check.js";
import { hasOwnJsonForm } from "../protojson/json-form.js";
import type { TypeRegistryOption } from "../protojson/type-registry.js";
import {
  connectionEvents,
  isEventStream,
  resumableCall,
  unaryCall,
  type ClientRequest,
} from "../http/client-stream.js";
import type { ReceivedEvent, ResumableStreamClientOptions } from "../http/stream-resume.js";
import type { OperationDescriptor } from "../protocol/operation.js";
import { matchRoute, type Route, type RouteTable } from "./route-matcher.js";
import { ownEntry, ownJsonValue } from "../protojson/own-json.js";
import {
  RestRequestError,
  bodyWithoutPathFields,
  buildQuery,
  expandPath,
  routeLiterals,
  type RestRequestShape,
} from "./request-shape.js";
import type { Transport } from "../client/transport.js";
import { traceClientStream, traceClientUnary } from "../observe/tracing.js";

/** Options of a REST client, fixed for its lifetime. */
export interface RestClientOptions
  extends ClientOptions,
    ResumableStreamClientOptions,
    TypeRegistryOption {
  /** The interface URL (`AgentInterface.url` of an HTTP+JSON interface); paths are appended to it. */
  readonly url: string;
  /** The fetch to use; default `globalThis.fetch`. */
  readonly fetch?: typeof globalThis.fetch | undefined;
  /**
   * HTTP method for streaming operations bound to both GET and POST (SubscribeToTask:
   * GET in a2a.proto, POST in the spec text). Default "POST".
   */
  readonly streamMethod?: "GET" | "POST" | undefined;
  /** The Content-Type of request bodies. Default "application/a2a+json" (§11); A2A 0.3 agents want "application/json". */
  readonly requestContentType?: string | undefined;
}

/** Calls A2A operations over HTTP+JSON. */
export class RestTransport implements Transport {
  readonly #options: RestClientOptions;
  readonly #fetch: typeof globalThis.fetch;
  readonly #errors: ErrorRegistry;
  readonly #requests: Readonly<Record<string, RestRequestShape>>;
  readonly #routes = new Map<string, Route[]>();
  readonly #base: string;
  readonly #literals: ReadonlySet<string>;
  readonly #table: RouteTable;
  readonly #checks: ClientRequestSettings;

  /** `tables`: the service's REQUIRED table (checked before sending) and type registry, from the generated client. */
  constructor(
    options: RestClientOptions,
    routes: RouteTable,
    requests: Readonly<Record<string, RestRequestShape>>,
    errors: ErrorRegistry,
    tables?: ClientServiceTables,
  ) {
    this.#options = options;
    this.#checks = clientRequestSettings(errors, tables, options.registry);
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.#errors = errors;
    this.#requests = requests;
    this.#base = options.url.replace(/\/+$/, "");
    this.#literals = routeLiterals(routes.routes);
    this.#table = routes;
    for (const route of routes.routes) {
      const list = this.#routes.get(route.operation) ?? [];
      list.push(route);
      this.#routes.set(route.operation, list);
    }
  }

  /** Calls a unary operation (in a CLIENT span when the client has `tracing`). */
  unary<I extends OperationDescriptor>(
    operation: I,
    request: MessageInitShape<I["input"]>,
    options?: CallOptions,
  ): Promise<MessageShape<I["output"]>> {
    const call = { operation, binding: "HTTP+JSON", url: this.#options.url, request } as const;
    return traceClientUnary(this.#options, call, options, async (opts) => {
      const target = this.#target(operation, this.#requestJson(operation, request));
      const sent = this.#request(target, opts, "application/json", undefined);
      return unaryCall(sent, opts, this.#options.timeoutMs, (response, text) => {
        const json = parseJson(text);
        if (!response.ok) throw this.#httpError(response.status, json ?? text);
        // A 204 (or any empty 2xx) is google.protobuf.Empty; @a2a-js/sdk answers deletes that way.
        if (text === "" && operation.output.typeName === "google.protobuf.Empty")
          return this.#decode(operation, {});
        return this.#decode(operation, json);
      });
    });
  }

  /**
   * Calls a server-streaming operation: the events as they arrive; breaking out of the loop cancels the call.
   * SendStreamingMessage and SubscribeToTask streams whose connection drops are resumed (see `resumeStreams`).
   */
  stream<I extends OperationDescriptor>(
    operation: I,
    request: MessageInitShape<I["input"]>,
    options?: CallOptions,
  ): AsyncGenerator<MessageShape<I["output"]>> {
    const call = { operation, binding: "HTTP+JSON", url: this.#options.url, request } as const;
    return traceClientStream(this.#options, call, options, (opts) =>
      resumableCall(
        operation,
        this.#options,
        opts,
        () => this.#requestJson(operation, request),
        (op, json, signal, lastEventId) => this.#events(op, json, opts, signal, lastEventId),
      ),
    );
  }

  /**
   * The events of one connection of a stream (`lastEventId` set: a resumption), as
   * {@link connectionEvents} reads them.
   */
  async *#events<I extends OperationDescriptor>(
    operation: I,
    json: JsonObject,
    options: CallOptions | undefined,
    signal: AbortSignal | undefined,
    lastEventId: string | undefined,
  ): AsyncGenerator<ReceivedEvent<MessageShape<I["output"]>>> {
    const target = this.#target(operation, json);
    const request = this.#request(target, options, "text/event-stream", lastEventId);
    yield* connectionEvents(request, options, signal, lastEventId, {
      isStream: (response) => response.ok && isEventStream(response),
      gatewayFailure: (status, text) => this.#httpError(status, parseJson(text) ?? text),
      plain: (response, text) => {
        if (!response.ok) throw this.#httpError(response.status, parseJson(text) ?? text);
        // A server may answer a stream that has exactly one event with a plain body.
        return this.#decode(operation, parseJson(text));
      },
      event: (event) => {
        const json = parseJson(event.data);
        if (event.event === "error") {
          const status =
            typeof json === "object" && json !== null && !Array.isArray(json)
              ? (json as { error?: { code?: unknown } }).error?.code
              : undefined;
          throw this.#httpError(typeof status === "number" ? status : 500, json);
        }
        return this.#decode(operation, json);
      },
    });
  }

  /**
   * The HTTP request of `target`: the client's and the call's headers, `accept`, the body's
   * Content-Type, and for a resumption of a stream, `Last-Event-ID`.
   */
  #request(
    target: RestTarget,
    options: CallOptions | undefined,
    accept: string,
    lastEventId: string | undefined,
  ): ClientRequest {
    const { url, method, body } = target;
    const extra: Record<string, string> = { accept };
    if (body !== undefined)
      extra["content-type"] = this.#options.requestContentType ?? "application/a2a+json";
    if (lastEventId !== undefined) extra["last-event-id"] = lastEventId;
    const headers = requestHeaders(this.#options, options, extra);
    return { fetch: this.#fetch, url, method, headers, body, errors: this.#errors };
  }

  /** The request as ProtoJSON, with the client's tenant. */
  #requestJson(
    operation: OperationDescriptor,
    init: MessageInitShape<OperationDescriptor["input"]>,
  ): JsonObject {
    const message = checkedRequestMessage(this.#checks, operation.input, init, this.#options);
    const registry = this.#checks.registry;
    try {
      const json = toJson(
        operation.input,
        message,
        registry === undefined ? undefined : { registry },
      );
      // A type whose ProtoJSON is not an object of its fields is the body as it is (json-form.ts).
      return (hasOwnJsonForm(operation.input) ? { [WHOLE_BODY]: json } : json) as JsonObject;
    } catch (e) {
      // A proto2 `required` field that is not set: the request cannot be written.
      throw this.#invalidParams(new RestRequestError(e instanceof Error ? e.message : String(e)));
    }
  }

  /** The URL, method and body of a request (its ProtoJSON `json`) by the operation's routes. */
  #target(operation: OperationDescriptor, json: JsonObject): RestTarget {
    const shape = ownEntry(this.#requests, operation.name) ?? { fields: [] };
    let route: Route | undefined;
    let path: string | undefined;
    let first: RestRequestError | undefined;
    // The first candidate whose templates the request fits (additional bindings may take other
    // resource names, `{name=projects/*/topics/*}` or `{name=organizations/*/topics/*}`).
    for (const candidate of this.#candidates(
      operation,
      typeof json["tenant"] === "string" && json["tenant"] !== "",
    )) {
      try {
        path = expandPath(candidate, shape, json, this.#literals);
        checkReaches(this.#table, candidate, path);
        route = candidate;
        break;
      } catch (e) {
        if (!(e instanceof RestRequestError)) throw e;
        first ??= e;
      }
    }
    if (route === undefined || path === undefined) {
      if (first === undefined) throw this.#unsupported(operation);
      throw this.#invalidParams(first);
    }
    let url = this.#base + path;
    let body: string | undefined;
    if (Object.hasOwn(json, WHOLE_BODY))
      return {
        url,
        method: route.method,
        body: route.body === "*" ? JSON.stringify(json[WHOLE_BODY]) : undefined,
      };
    try {
      if (route.body !== "*") {
        const query = buildQuery(route, shape, json);
        if (query !== "") url += `?${query}`;
      }
      if (route.body !== "") {
        // An unset body field sends no body: the server leaves the field unset too (and answers a REQUIRED one with InvalidParams).
        const value =
          route.body === "*"
            ? bodyWithoutPathFields(route, shape, json)
            : ownJsonValue(json, fieldJsonName(shape, route.body));
        if (value !== undefined) body = JSON.stringify(value);
      }
    } catch (e) {
      throw e instanceof RestRequestError ? this.#invalidParams(e) : e;
    }
    return { url, method: route.method, body };
  }

  /** The tenant forms when the request has a tenant, the plain forms otherwise; for streams, the configured method first. */
  #candidates(operation: OperationDescriptor, withTenant: boolean): Route[] {
    const routes = this.#routes.get(operation.name) ?? [];
    const fitting = routes.filter(
      (r) => r.pattern.variables.some((v) => v.field === "tenant") === withTenant,
    );
    const candidates = fitting.length > 0 ? fitting : routes;
    const preferred =
      operation.kind === "server_streaming" ? (this.#options.streamMethod ?? "POST") : undefined;
    // HEAD last: beside a GET of the same path it is that GET without the answer's body.
    const rank = (r: Route): number => (r.method === preferred ? 0 : r.method === "HEAD" ? 2 : 1);
    return [...candidates].sort((a, b) => rank(a) - rank(b));
  }

  /**
   * An HTTP error response as the A2A error: §11.6's `google.rpc.Status` envelope, or A2A 0.3's HTTP+JSON error
   * body `{code, message, data?}` whose `code` is a JSON-RPC code (-32768…-32000; what @a2a-js/sdk 0.3 servers and
   * this runtime's 0.3 HTTP+JSON servers send), read by that code since its HTTP status is ambiguous.
   */
  #httpError(status: number, body: unknown): A2AError {
    if (
      typeof body === "object" &&
      body !== null &&
      !Array.isArray(body) &&
      !Object.hasOwn(body, "error")
    ) {
      const code = (body as { code?: unknown }).code;
      if (typeof code === "number" && Number.isInteger(code) && code >= -32768 && code <= -32000)
        return this.#errors.fromJsonRpcError(body);
    }
    return this.#errors.fromHttpError(status, body);
  }

  #decode<I extends OperationDescriptor>(
    operation: I,
    json: JsonValue | undefined,
  ): MessageShape<I["output"]> {
    return responseMessage(operation, json ?? null, this.#checks.registry, "response", (message) =>
      this.#protocolError(message),
    );
  }

  /**
   * A request this binding cannot express (an empty path field, a message field in a query): the
   * InvalidParamsError the other bindings' servers answer it with, raised before sending, with the
   * field as a violation.
   */
  #invalidParams(e: RestRequestError): A2AError {
    const details: object[] = [
      { "@type": ERROR_INFO_TYPE, reason: "INVALID_PARAMS", domain: ERROR_DOMAIN },
    ];
    if (e.field !== undefined)
      details.push({
        "@type": BAD_REQUEST_TYPE,
        fieldViolations: [{ field: e.field, description: e.message }],
      });
    return this.#errors.fromHttpError(400, {
      error: {
        code: 400,
        status: "INVALID_ARGUMENT",
        message: `Invalid parameters: ${e.message}`,
        details,
      },
    });
  }

  /**
   * An operation without a `google.api.http` rule (the generated REST client of a service that is
   * not A2A-shaped does not offer it; an agent client's full interface does): UnsupportedOperationError,
   * as a server answers an operation it does not implement, raised before sending.
   */
  #unsupported(operation: OperationDescriptor): A2AError {
    const spec = this.#errors.byReason("UNSUPPORTED_OPERATION");
    const status = spec?.httpStatus ?? 400;
    return this.#errors.fromHttpError(status, {
      error: {
        code: status,
        status: spec?.grpcStatus ?? "FAILED_PRECONDITION",
        message: `${operation.name} has no HTTP+JSON binding (no google.api.http rule): call it over JSON-RPC or gRPC`,
        details: [
          { "@type": ERROR_INFO_TYPE, reason: "UNSUPPORTED_OPERATION", domain: ERROR_DOMAIN },
        ],
      },
    });
  }

  #protocolError(message: string): A2AError {
    return this.#errors.fromHttpError(500, {
      error: {
        code: 500,
        status: "INTERNAL",
        message,
        details: [
          {
            "@type": "type.googleapis.com/google.rpc.ErrorInfo",
            reason: "INVALID_AGENT_RESPONSE",
            domain: "a2a-protocol.org",
          },
        ],
      },
    });
  }
}

/** Where a request goes and what it sends: its URL, HTTP method and body (undefined: none). */
interface RestTarget {
  readonly url: string;
  readonly method: string;
  readonly body: string | undefined;
}

/** The key under which #requestJson holds the ProtoJSON of a request that is its body as it is (no field has this name). */
const WHOLE_BODY = " body";

/**
 * Refuses a path that the server's route table gives to another operation: overlapping templates
 * (Firestore's GetDocument `{name=…/documents/*\/**}` and ListDocuments `{parent=…/documents/*\/**}/{collection_id}`)
 * would otherwise deliver the call to the wrong RPC. `skip_http_rules` can leave one of them out.
 */
function checkReaches(table: RouteTable, route: Route, path: string): void {
  const reached = matchRoute(table, route.method, path);
  if (reached.kind === "match" && reached.route.operation !== route.operation) {
    throw new RestRequestError(
      `${route.method} ${path} would reach ${reached.route.operation} (${reached.route.template}), not ${route.operation} (${route.template}): the two routes overlap`,
    );
  }
}

/** The ProtoJSON name of a top-level request field (the body field of a `body: "field"` route). */
function fieldJsonName(shape: RestRequestShape, name: string): string {
  return shape.fields.find((f) => f.name === name)?.json ?? name;
}

function parseJson(text: string): JsonValue | undefined {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
}
