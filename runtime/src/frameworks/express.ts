// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * @protoc-gen-a2a/runtime/express: an A2A {@link UniversalHandler} (a JSON-RPC or HTTP+JSON server's
 * `handler`, the Agent Card, or several of them through `composeHandlers`) as Express middleware.
 *
 * ```ts
 * app.use(["/a2a", "/.well-known/agent-card.json"], a2aExpress(composeHandlers(...)));
 * ```
 *
 * It runs on {@link serveNode} over Express's own node:http request and response, so streams (SSE)
 * are written as they come, with back-pressure, and the write timeout, the pending-bytes bound and the
 * lingering close apply as on a bare node:http server. Only types are imported from Express: the
 * subpath costs nothing to users of other frameworks (express and @types/express are optional peer
 * dependencies).
 */
import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from "express";
import { serveNode, type ServeNodeOptions } from "../http/node-adapter.js";
import type { UniversalHandler } from "../http/universal.js";

/** Options of {@link a2aExpress}: those of {@link serveNode}. */
export type A2AExpressOptions = ServeNodeOptions;

/**
 * What {@link a2aExpress} returns: the middleware, and an error middleware that answers the errors of
 * a body parser mounted before it (`express.json()`: a malformed or oversized body) through the A2A
 * handler, so that they are spec-shaped. Express takes the pair wherever it takes a middleware
 * (`app.use`, `app.post`, `router.all`, …).
 */
export type A2AExpressHandlers = [RequestHandler, ErrorRequestHandler];

/**
 * Serves `handler` as Express middleware: `app.use("/a2a", a2aExpress(handler))`.
 *
 * - The handler sees the request's full path (`req.originalUrl`), wherever the middleware is mounted:
 *   the prefixes given to `composeHandlers` and the HTTP+JSON server's `basePath` are the paths clients
 *   call, as under `serveNode` (`basePath` in the options strips a prefix instead, as serveNode does).
 * - Every request that reaches the middleware is answered by the handler (an unknown path under the
 *   mount gets the handler's JSON 404, never Express's HTML page): mount it at the A2A paths only, and
 *   the app's other routes, before or after it, answer as before.
 * - The body: the handler reads it from the request stream, with its own limit (`maxBodyBytes`). Mount
 *   the middleware before `express.json()` (or where no body parser runs). If a parser has already read
 *   the body, the middleware answers from what it left: `req.rawBody` (a Buffer or string, as set by a
 *   `verify` hook: the exact bytes), else `req.body` when it is a Buffer or string (`express.raw()`,
 *   `express.text()`), else `req.body` re-serialized with `JSON.stringify` (`express.json()`: numbers
 *   beyond 2^53, a JSON-RPC id among them, lose precision, and duplicate members are gone). A body read
 *   by something that left none of these is answered 500 with a JSON error saying so. A body the parser
 *   refused (malformed JSON, over its `limit`) is answered by the handler as malformed or too large.
 */
export function a2aExpress(
  handler: UniversalHandler,
  options?: A2AExpressOptions,
): A2AExpressHandlers {
  const listener = serveNode(handler, options);
  const a2aMiddleware: RequestHandler = function a2aMiddleware(req: Request, res: Response): void {
    if (bodyConsumed(req)) {
      const body = leftBody(req);
      if (body === undefined) {
        consumedBodyError(res);
        return;
      }
      listener(replayed(req, body), res);
      return;
    }
    // serveNode reads req.url synchronously: the full path for the handler, Express's own back after.
    const url = req.url;
    req.url = req.originalUrl;
    try {
      listener(req, res);
    } finally {
      req.url = url;
    }
  };
  const a2aBodyErrors: ErrorRequestHandler = function a2aBodyErrors(
    error: unknown,
    req: Request,
    res: Response,
    next: NextFunction,
  ): void {
    if (res.headersSent || typeof error !== "object" || error === null) {
      next(error);
      return;
    }
    const { type, body } = error as { type?: unknown; body?: unknown };
    // body-parser's errors, raised once the body was read (or dumped): the handler answers as for such a body.
    if (type === "entity.parse.failed" && (typeof body === "string" || body instanceof Uint8Array))
      listener(replayed(req, toBytes(body)), res);
    else if (type === "entity.too.large") listener(replayed(req, "too-large"), res);
    else next(error);
  };
  return [a2aMiddleware, a2aBodyErrors];
}

/** Whether something (a body parser) has read the request's body already. */
function bodyConsumed(req: Request): boolean {
  return req.readableEnded || req.readableDidRead === true;
}

/** The body a parser left: raw bytes when it kept them, else its parsed value as JSON. */
function leftBody(req: Request): Uint8Array | undefined {
  const raw = (req as { rawBody?: unknown }).rawBody;
  if (typeof raw === "string" || raw instanceof Uint8Array) return toBytes(raw);
  const body: unknown = req.body;
  if (typeof body === "string" || body instanceof Uint8Array) return toBytes(body);
  if (body === undefined) return undefined;
  const json = JSON.stringify(body) as string | undefined;
  return json === undefined ? undefined : Buffer.from(json, "utf8");
}

/** A {@link ReplayedRequest}, typed as what serveNode takes (it reads only what the class has). */
function replayed(req: Request, body: Uint8Array | "too-large"): IncomingMessage {
  return new ReplayedRequest(req, body) as unknown as IncomingMessage;
}

function toBytes(body: string | Uint8Array): Uint8Array {
  return typeof body === "string" ? Buffer.from(body, "utf8") : body;
}

const CONSUMED_BODY_MESSAGE =
  "the request body was read before the A2A handler (a body parser such as express.json() runs before it and left no body to replay): mount a2aExpress before the body parser";

function consumedBodyError(res: Response): void {
  const body = JSON.stringify({
    error: { code: 500, status: "INTERNAL", message: CONSUMED_BODY_MESSAGE },
  });
  res.on("error", () => {});
  res.writeHead(500, {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(body)),
  });
  res.end(body);
}

/**
 * The request as serveNode reads it, with the body a parser read before (or "too-large": a body over
 * the parser's limit, declared so that serveNode answers it at once). Headers and URL are the
 * original's; `content-length` is the replayed body's and `content-encoding` is dropped (parsers
 * inflate).
 */
class ReplayedRequest extends Readable {
  readonly headers: IncomingHttpHeaders;
  readonly url: string;
  readonly method: string;
  readonly httpVersionMajor: number;
  #body: Uint8Array | undefined;

  constructor(req: Request, body: Uint8Array | "too-large") {
    super();
    const headers: IncomingHttpHeaders = { ...req.headers };
    delete headers["content-encoding"];
    delete headers["transfer-encoding"];
    headers["content-length"] =
      body === "too-large" ? String(Number.MAX_SAFE_INTEGER) : String(body.byteLength);
    this.headers = headers;
    this.url = req.originalUrl;
    this.method = req.method;
    this.httpVersionMajor = req.httpVersionMajor;
    this.#body = body === "too-large" ? undefined : body;
  }

  /** Whether the whole body was read, as IncomingMessage's. */
  get complete(): boolean {
    return this.readableEnded;
  }

  override _read(): void {
    const body = this.#body;
    this.#body = undefined;
    if (body !== undefined && body.byteLength > 0) this.push(body);
    this.push(null);
  }
}
