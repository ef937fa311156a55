// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * @protoc-gen-a2a/runtime/hono: an A2A {@link UniversalHandler} (a JSON-RPC or HTTP+JSON server's
 * `handler`, the Agent Card, or several of them through `composeHandlers`) as a Hono handler.
 *
 * ```ts
 * app.all("/a2a/*", a2aHono(composeHandlers(...)));
 * ```
 *
 * It runs on {@link serveFetch}: the answer is a fetch `Response`, streams (SSE) a `ReadableStream`
 * pulled as the client reads, so it works wherever Hono runs (Node with @hono/node-server, Deno, Bun,
 * workers) and Hono's middleware (cors, secureHeaders, …) sees and amends it. Only types are imported
 * from Hono: the subpath costs nothing to users of other frameworks (hono is an optional peer
 * dependency).
 */
import type { Context } from "hono";
import { serveFetch, type ServeFetchOptions } from "../http/fetch-adapter.js";
import type { UniversalHandler } from "../http/universal.js";

/** Options of {@link a2aHono}: those of {@link serveFetch}. */
export type A2AHonoOptions = ServeFetchOptions;

/** What {@link a2aHono} returns: a Hono handler (`app.all(path, …)`, `app.on(methods, path, …)`). */
export type A2AHonoHandler = (c: Context) => Promise<Response>;

/**
 * Serves `handler` as a Hono handler: `app.all("/a2a/*", a2aHono(handler))`, or in a sub-app mounted
 * with `app.route("/a2a", new Hono().all("*", a2aHono(handler)))`.
 *
 * - The handler sees the request's full path, wherever the route is: the prefixes given to
 *   `composeHandlers` and the HTTP+JSON server's `basePath` are the paths clients call (`basePath` in
 *   the options strips a prefix instead, as serveFetch does).
 * - Every request the route matches is answered by the handler (an unknown path under it gets the
 *   handler's JSON 404, not Hono's); other routes answer as before.
 * - The body: the handler reads the request's stream with its own limit (`maxBodyBytes`). When
 *   middleware has read it already (`c.req.json()`, a validator), the body Hono cached is replayed:
 *   as read (`c.req.text()`, `arrayBuffer()`), or, parsed, re-serialized with `JSON.stringify` (numbers
 *   beyond 2^53 lose precision). A body read some other way is answered 500 with a JSON error.
 * - On Node (@hono/node-server), writes honour back-pressure (the stream is pulled as the socket
 *   drains), but serveNode's write timeout and pending-bytes bound do not apply: bound slow readers in
 *   the server (its `requestTimeout`, a proxy), or serve the bindings with serveNode.
 */
export function a2aHono(handler: UniversalHandler, options?: A2AHonoOptions): A2AHonoHandler {
  const serve = serveFetch(handler, options);
  return async function a2aHonoHandler(c: Context): Promise<Response> {
    let request = c.req.raw;
    if (request.bodyUsed) {
      let body: ArrayBuffer;
      try {
        body = await c.req.arrayBuffer(); // Hono's cache of what middleware read
      } catch {
        return consumedBodyError();
      }
      const headers = new Headers(request.headers);
      headers.delete("content-length");
      headers.delete("content-encoding");
      request = new Request(request.url, {
        method: request.method,
        headers,
        body,
        signal: request.signal,
      });
    }
    const response = await serve(request);
    // Through c.body, so that headers middleware set before (c.header(): a request id, …) go out with it too.
    const body = response.body;
    return body === null ? c.body(null, response) : c.body(body, response);
  };
}

const CONSUMED_BODY_MESSAGE =
  "the request body was read before the A2A handler, and Hono kept no copy of it: let the A2A route read the body itself";

function consumedBodyError(): Response {
  return new Response(
    JSON.stringify({ error: { code: 500, status: "INTERNAL", message: CONSUMED_BODY_MESSAGE } }),
    { status: 500, headers: { "content-type": "application/json" } },
  );
}
