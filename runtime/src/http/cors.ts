// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Cross-origin access (CORS) for the A2A endpoints, so a web page on another origin can call an
 * agent: the preflight (`OPTIONS` with `Access-Control-Request-Method`) is answered here, and
 * every other response gets the allow-origin and expose headers. The lists cover what A2A
 * clients send and read: service parameters (`A2A-Version`, `A2A-Extensions`), `Authorization`,
 * the SSE reconnection header, the auth challenge; callers add their protocol's own (Connect's
 * `cors` lists for gRPC-web and Connect).
 */
import type { UniversalHandler, UniversalRequest, UniversalResponse } from "./universal.js";

/** Request headers an A2A client sends. */
export const A2A_CORS_ALLOWED_HEADERS: readonly string[] = [
  "Content-Type",
  "Accept",
  "Authorization",
  "A2A-Version",
  "A2A-Extensions",
  "Last-Event-ID",
];
/** Response headers an A2A client reads. */
export const A2A_CORS_EXPOSED_HEADERS: readonly string[] = [
  "A2A-Version",
  "A2A-Extensions",
  "WWW-Authenticate",
  "Retry-After",
  "ETag",
];

/** Options of {@link withCors} and {@link corsPolicy}. */
export interface CorsOptions {
  /**
   * Origins allowed to call: `"*"` (default: any page, without cookies; `Authorization` set by the
   * page still works) or exact origins (`"https://app.example.com"`), echoed with `Vary: Origin`.
   */
  readonly origins?: "*" | readonly string[] | undefined;
  /** Methods a preflight allows. Default GET, POST, DELETE (the HTTP+JSON binding uses all three). */
  readonly allowMethods?: readonly string[] | undefined;
  /** Request headers allowed besides {@link A2A_CORS_ALLOWED_HEADERS}. */
  readonly allowHeaders?: readonly string[] | undefined;
  /** Response headers exposed besides {@link A2A_CORS_EXPOSED_HEADERS}. */
  readonly exposeHeaders?: readonly string[] | undefined;
  /** How long a browser may cache a preflight. Default 7200 s. */
  readonly maxAgeSeconds?: number | undefined;
}

/** A compiled CORS policy: the headers to add, per request origin. */
export interface CorsPolicy {
  /** The answer to a preflight, or undefined when `method`/`headers` make the request no preflight. */
  preflight(
    method: string,
    header: (name: string) => string | undefined,
  ): { status: number; headers: [string, string][] } | undefined;
  /** Headers to add to an actual response for a request from `origin` (none for an origin not allowed). */
  responseHeaders(origin: string | undefined): readonly (readonly [string, string])[];
}

/** Compiles the options once; the returned policy only compares and copies. */
export function corsPolicy(options?: CorsOptions): CorsPolicy {
  const origins = options?.origins ?? "*";
  const allowed = origins === "*" ? undefined : new Set(origins);
  const join = (a: readonly string[], b: readonly string[] | undefined) =>
    [...new Set([...a, ...(b ?? [])])].join(", ");
  const allowMethods = (options?.allowMethods ?? ["GET", "POST", "DELETE"]).join(", ");
  const allowHeaders = join(A2A_CORS_ALLOWED_HEADERS, options?.allowHeaders);
  const exposeHeaders = join(A2A_CORS_EXPOSED_HEADERS, options?.exposeHeaders);
  const maxAge = String(Math.max(0, Math.floor(options?.maxAgeSeconds ?? 7200)));
  const originHeaders = (origin: string | undefined): [string, string][] | undefined => {
    if (allowed === undefined) return [["access-control-allow-origin", "*"]];
    // Vary even when refused: a cache must not hand one origin's answer to another.
    return origin !== undefined && allowed.has(origin)
      ? [
          ["access-control-allow-origin", origin],
          ["vary", "Origin"],
        ]
      : undefined;
  };
  // The answer for every origin when all are allowed: computed once, shared by every response.
  const wildcard: readonly (readonly [string, string])[] = [
    ["access-control-allow-origin", "*"],
    ["access-control-expose-headers", exposeHeaders],
  ];
  const refused: readonly (readonly [string, string])[] =
    allowed === undefined ? [] : [["vary", "Origin"]];
  return {
    preflight(method, header) {
      if (method !== "OPTIONS" || header("access-control-request-method") === undefined)
        return undefined;
      const base = originHeaders(header("origin"));
      if (base === undefined)
        return { status: 204, headers: allowed === undefined ? [] : [["vary", "Origin"]] };
      return {
        status: 204,
        headers: [
          ...base,
          ["access-control-allow-methods", allowMethods],
          ["access-control-allow-headers", allowHeaders],
          ["access-control-max-age", maxAge],
        ],
      };
    },
    responseHeaders(origin) {
      if (allowed === undefined) return wildcard;
      const base = originHeaders(origin);
      if (base === undefined) return refused;
      return [...base, ["access-control-expose-headers", exposeHeaders]];
    },
  };
}

/** `handler` with CORS: preflights answered here (204), the other responses with the CORS headers added. */
export function withCors(handler: UniversalHandler, options?: CorsOptions): UniversalHandler {
  const policy = corsPolicy(options);
  return async function corsHandler(request: UniversalRequest): Promise<UniversalResponse> {
    if (request.method === "OPTIONS") {
      const preflight = policy.preflight(request.method, (name) => request.header(name));
      if (preflight !== undefined)
        return { status: preflight.status, headers: preflight.headers, body: "" };
    }
    const response = await handler(request);
    const extra = policy.responseHeaders(request.header("origin"));
    if (extra.length === 0) return response;
    // Headers the handler set itself (the Agent Card's own CORS) win. The lists are short: no Set.
    const headers = response.headers.slice();
    for (const header of extra) {
      if (!response.headers.some(([name]) => name.toLowerCase() === header[0]))
        headers.push(header);
    }
    return { ...response, headers };
  };
}
