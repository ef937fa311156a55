// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * @protoc-gen-a2a/runtime/next: an A2A {@link UniversalHandler} (a JSON-RPC or HTTP+JSON server's
 * `handler`, the Agent Card, or several of them through `composeHandlers`) as Next.js App Router
 * route handlers, in a catch-all route such as `app/a2a/[[...path]]/route.ts`:
 *
 * ```ts
 * export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = a2aNext(composeHandlers(...));
 * export const dynamic = "force-dynamic";
 * ```
 *
 * Route handlers are fetch handlers, so this is {@link serveFetch} under each method's name: streams
 * (SSE) are a `ReadableStream` pulled as the client reads. Nothing is imported from Next.js.
 */
import { serveFetch, type ServeFetchOptions } from "../http/fetch-adapter.js";
import type { UniversalHandler } from "../http/universal.js";

/** Options of {@link a2aNext}: those of {@link serveFetch}. */
export type A2ANextOptions = ServeFetchOptions;

/** A Next.js route handler (the second argument, the route's params, is not needed). */
export type A2ANextRouteHandler = (request: Request) => Promise<Response>;

/** The route handlers {@link a2aNext} returns, one per HTTP method Next.js routes. */
export interface A2ANextRouteHandlers {
  readonly GET: A2ANextRouteHandler;
  readonly HEAD: A2ANextRouteHandler;
  readonly POST: A2ANextRouteHandler;
  readonly PUT: A2ANextRouteHandler;
  readonly PATCH: A2ANextRouteHandler;
  readonly DELETE: A2ANextRouteHandler;
  readonly OPTIONS: A2ANextRouteHandler;
}

/**
 * Serves `handler` as Next.js route handlers, all methods. The handler sees the request's full path
 * (`/a2a/jsonrpc` in `app/a2a/[[...path]]/route.ts`): the prefixes given to `composeHandlers` and the
 * HTTP+JSON server's `basePath` are the paths clients call. Export `OPTIONS` too: Next.js would
 * otherwise answer CORS preflights itself.
 */
export function a2aNext(handler: UniversalHandler, options?: A2ANextOptions): A2ANextRouteHandlers {
  const serve = serveFetch(handler, options);
  const route: A2ANextRouteHandler = (request: Request) => serve(request);
  return {
    GET: route,
    HEAD: route,
    POST: route,
    PUT: route,
    PATCH: route,
    DELETE: route,
    OPTIONS: route,
  };
}
