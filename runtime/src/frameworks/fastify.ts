// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * @protoc-gen-a2a/runtime/fastify: an A2A {@link UniversalHandler} (a JSON-RPC or HTTP+JSON server's
 * `handler`, the Agent Card, or several of them through `composeHandlers`) as a Fastify plugin.
 *
 * ```ts
 * await app.register(a2aFastify(composeHandlers(...)), { prefix: "/a2a" });
 * ```
 *
 * It runs on {@link serveNode} over Fastify's raw node:http (or node:http2) request and response, so
 * streams (SSE) are written as they come, with back-pressure, and the write timeout, the
 * pending-bytes bound and the lingering close apply as on a bare node:http server. Only types are
 * imported from Fastify: the subpath costs nothing to users of other frameworks (fastify is an optional
 * peer dependency).
 */
import type {
  FastifyError,
  FastifyInstance,
  FastifyPluginAsync,
  FastifyReply,
  FastifyRequest,
} from "fastify";
import { serveNode, type ServeNodeOptions } from "../http/node-adapter.js";
import type { UniversalHandler } from "../http/universal.js";

/** Options of {@link a2aFastify}: those of {@link serveNode}, and the routes to serve. */
export interface A2AFastifyOptions extends ServeNodeOptions {
  /**
   * The routes the plugin declares, all methods, under the prefix it is registered with. Default
   * `["/", "/*"]`: the prefix itself and everything under it. Registered without a prefix, give the
   * A2A paths, e.g. `["/.well-known/agent-card.json", "/a2a/*"]`, so that the app's other paths keep
   * Fastify's 404.
   */
  readonly routes?: readonly string[] | undefined;
}

/**
 * A Fastify plugin serving `handler`: `app.register(a2aFastify(handler), { prefix: "/a2a" })`.
 *
 * - The handler sees the request's full path (the prefix included), as under `serveNode`: the
 *   prefixes given to `composeHandlers` and the HTTP+JSON server's `basePath` are the paths clients
 *   call (`basePath` in the options strips a prefix instead, as serveNode does).
 * - The plugin is encapsulated: in its scope, and there only, every content type is left unparsed, so
 *   the handler reads the raw body with its own limit (`maxBodyBytes`; Fastify's `bodyLimit` does not
 *   apply) and answers a missing or unsupported one itself. Routes outside keep their parsers.
 * - The app's hooks run as for any route (onRequest, preParsing, preValidation, preHandler: authenticate
 *   there if you like); headers they set on the reply (`reply.header`, e.g. by @fastify/cors) are sent
 *   with the handler's answer, which the handler writes itself (`reply.hijack()`), so onSend hooks do
 *   not see it.
 * - A Content-Type header Fastify cannot parse is answered by the handler too (spec-shaped); other
 *   errors go to the app's error handler.
 */
export function a2aFastify(
  handler: UniversalHandler,
  options?: A2AFastifyOptions,
): FastifyPluginAsync {
  const listener = serveNode(handler, options);
  const routes = options?.routes ?? ["/", "/*"];
  const serve = (request: FastifyRequest, reply: FastifyReply): void => {
    reply.hijack();
    const raw = reply.raw;
    // What hooks set with reply.header(): Node sends it along with the headers serveNode writes (which win on a clash).
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) raw.setHeader(name, value);
    }
    listener(request.raw, raw);
  };
  const plugin = async function a2aPlugin(instance: FastifyInstance): Promise<void> {
    instance.removeAllContentTypeParsers();
    // Leaves the body in the raw request (done without a body: request.body stays undefined).
    instance.addContentTypeParser(
      "*",
      (
        _request: FastifyRequest,
        _payload: unknown,
        done: (error: Error | null, body?: unknown) => void,
      ) => done(null),
    );
    instance.setErrorHandler(function a2aErrors(
      error: FastifyError,
      request: FastifyRequest,
      reply: FastifyReply,
    ): void {
      // A malformed Content-Type is refused before any parser runs: the body is untouched, the handler answers.
      if (
        error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE" &&
        !reply.sent &&
        !reply.raw.headersSent
      ) {
        serve(request, reply);
        return;
      }
      throw error; // to the app's error handler
    });
    for (const url of routes) instance.all(url, serve);
  };
  (plugin as unknown as Record<symbol, string>)[Symbol.for("fastify.display-name")] =
    "@protoc-gen-a2a/runtime/fastify";
  return plugin;
}
