// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * A2A 0.3's HTTP+JSON binding beside 1.0's on one base path: the 0.3 routes (`/v1/message:send`,
 * `/v1/tasks/{id}`, … generated from the 0.3 proto) take the requests that name no A2A-Version (or
 * 0.3) under `/v1/`; everything else is 1.0's (where `/v1/…` is the tenant "v1" of a request that says
 * `A2A-Version: 1.0`). Errors in 0.3's body, `{code, message}` with 0.3's JSON-RPC codes, as the 0.3 SDKs read them.
 */
import type { JsonValue } from "@bufbuild/protobuf";
import type { A2AError } from "../errors/a2a-error.js";
import { queryParameter } from "../http/query.js";
import type { UniversalHandler, UniversalRequest, UniversalResponse } from "../http/universal.js";
import { normalizeVersion } from "../pipeline/service-parameters.js";
import { errorToV03 } from "./translate/errors.js";
import { V03_VERSION } from "./jsonrpc-wire.js";

/** The body of a 0.3 HTTP+JSON error (the `errorBody` option of the 0.3 REST server): `{code, message}`, 0.3's codes. */
export function v03RestErrorBody(error: A2AError): JsonValue {
  return errorToV03({ name: error.spec.name, message: error.message });
}

/** Whether a request names A2A 0.3: its A2A-Version header or query parameter is 0.3, or missing/empty (spec §3.6). */
export function requestsV03(request: UniversalRequest): boolean {
  const requested = request.header("a2a-version") ?? queryParameter(request.query, "A2A-Version");
  return normalizeVersion(requested) === V03_VERSION;
}

/** `POST /v1/tasks/{id}/pushNotificationConfigs` (0.3's CreateTaskPushNotificationConfig, plural form). */
const CREATE_CONFIG_PATH = /^\/v1\/tasks\/[^/]+\/pushNotificationConfigs\/?$/;

/**
 * 0.3's CreateTaskPushNotificationConfig body, as the proto's rule says (`body: "config"`, what the 0.3 SDKs'
 * clients send) or as the whole request (`{parent, config_id, config}`, what @a2a-js/sdk 0.3's server and the
 * 0.3 TCK send): the latter is read as its `config`. The body is read (up to the REST server's default limit)
 * and handed on unchanged otherwise.
 */
function withConfigBody(request: UniversalRequest): UniversalRequest {
  let read: Promise<Uint8Array | "too-large"> | undefined;
  const readBody = (limit: number): Promise<Uint8Array | "too-large"> =>
    (read ??= request.readBody(limit).then((bytes) => {
      if (bytes === "too-large") return bytes;
      try {
        const body = JSON.parse(new TextDecoder().decode(bytes)) as unknown;
        if (body !== null && typeof body === "object" && !Array.isArray(body)) {
          const { config, pushNotificationConfig, push_notification_config } = body as Record<
            string,
            unknown
          >;
          if (
            config !== null &&
            typeof config === "object" &&
            !Array.isArray(config) &&
            pushNotificationConfig === undefined &&
            push_notification_config === undefined
          ) {
            return new TextEncoder().encode(JSON.stringify(config));
          }
        }
      } catch {
        // Not JSON: the server answers it.
      }
      return bytes;
    }));
  return new Proxy(request, {
    get: (target, key) => {
      if (key === "readBody") return readBody;
      const value: unknown = Reflect.get(target, key);
      return typeof value === "function"
        ? (value as (...args: unknown[]) => unknown).bind(target)
        : value;
    },
  });
}

/** Options of {@link routeRestVersions}. */
export interface RestVersionRoutes {
  /** The 1.0 HTTP+JSON server's handler (`createA2AServiceRestServer(handler, …).handler`). */
  readonly current: UniversalHandler;
  /** The 0.3 one (the 0.3 proto's `createA2AServiceRestServer(createV03Handler(…), { errorBody: v03RestErrorBody, … }).handler`). */
  readonly v03: UniversalHandler;
  /** The base path both are mounted at ("/a2a/rest"); default the root. */
  readonly basePath?: string | undefined;
}

/**
 * One HTTP+JSON endpoint for both versions: a request under `<basePath>/v1/` that names A2A 0.3 (or
 * no version) goes to the 0.3 routes, anything else to 1.0's. Every answer says `Vary: A2A-Version`.
 */
export function routeRestVersions(routes: RestVersionRoutes): UniversalHandler {
  const base = (routes.basePath ?? "").replace(/\/+$/, "");
  const legacyPrefix = `${base}/v1/`;
  return async function restVersions(request: UniversalRequest): Promise<UniversalResponse> {
    const legacy = request.path.startsWith(legacyPrefix) && requestsV03(request);
    const routed =
      legacy &&
      request.method === "POST" &&
      CREATE_CONFIG_PATH.test(request.path.slice(base.length))
        ? withConfigBody(request)
        : request;
    const response = await (legacy ? routes.v03 : routes.current)(routed);
    return { ...response, headers: [...response.headers, ["vary", "A2A-Version"]] };
  };
}

/**
 * The Agent Card for both versions (the `.well-known/agent-card.json` handler): a request that names
 * A2A 1.x (A2A-Version header or query parameter, as 1.0 clients send on every request) gets the 1.0
 * card; one that names none or 0.3 (spec §3.6: a 0.3 request; 0.3 clients send no header) gets the
 * hybrid card, the 1.0 card with 0.3's top-level fields (`hybridAgentCard`). Both say `Vary: A2A-Version`.
 * `serve` is `serveAgentCard` with its options bound: `(card) => serveAgentCard(card, options)`.
 */
export function serveAgentCardVersions(
  cards: { readonly current: JsonValue; readonly v03: JsonValue },
  serve: (card: JsonValue) => UniversalHandler,
): UniversalHandler {
  const current = serve(cards.current);
  const v03 = serve(cards.v03);
  return async function agentCardVersions(request: UniversalRequest): Promise<UniversalResponse> {
    const response = await (requestsV03(request) ? v03 : current)(request);
    return { ...response, headers: [...response.headers, ["vary", "A2A-Version"]] };
  };
}
