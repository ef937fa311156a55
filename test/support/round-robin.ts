// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * A round-robin front for several instances of an agent, as a load balancer in front of them
 * would be: on 127.0.0.1, one HTTP/1.1 reverse proxy (Agent Card, JSON-RPC, HTTP+JSON, SSE,
 * Connect, WebSocket upgrades) and one h2c proxy (gRPC), each sending every request (every gRPC
 * call) to the next instance in turn. Built on node:http, node:http2 and node:net only.
 *
 * - Bodies are streamed both ways as they come (request bodies, SSE and gRPC streams are never
 *   buffered); a client that goes away cancels the upstream request, and an upstream that dies
 *   mid-response cuts the client's connection (never a clean end that would pass for a complete
 *   response).
 * - Hop-by-hop headers (RFC 9110 §7.6.1: Connection and the headers it names, Keep-Alive,
 *   Proxy-Connection, TE, Transfer-Encoding, Upgrade, Trailer, Proxy-Authenticate,
 *   Proxy-Authorization) are not forwarded; `X-Forwarded-For/-Host/-Proto` are added, and the
 *   upstream sees its own `Host`. Each request gets a new upstream connection (no pooled
 *   keep-alive sockets that an upstream may close under a request).
 * - gRPC: headers, messages and trailers (or a trailers-only answer) pass as they are; `te:
 *   trailers` is kept (HTTP/2 allows it); a reset stream is reset on the other side with its code.
 *
 * The Agent Card passes through like any request: the agents behind the front name the front's
 * addresses in it (the example agent's `publicUrl` / `publicGrpcAddress`, A2A_PUBLIC_URL and
 * A2A_PUBLIC_GRPC_ADDRESS), so the card is the same whichever instance answers (same body, same
 * ETag), and a client that discovers the agent through it goes through the front.
 */
import {
  Agent,
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  request as httpRequest,
  type ServerResponse,
} from "node:http";
import {
  type ClientHttp2Session,
  connect as h2connect,
  constants,
  createServer as createH2Server,
  type IncomingHttpHeaders as H2Headers,
  type ServerHttp2Stream,
} from "node:http2";
import { type AddressInfo, connect as netConnect, type Socket } from "node:net";

/** One instance behind the front. */
export interface Backend {
  /** A name for reports ("a", "b", …). */
  readonly id: string;
  /** Its HTTP origin: http://127.0.0.1:PORT. */
  readonly httpOrigin: string;
  /** Its gRPC (h2c) address: 127.0.0.1:PORT. */
  readonly grpcAddress: string;
}

/** A running front. */
export interface RoundRobinFront {
  /** The HTTP/1.1 proxy's origin: http://127.0.0.1:PORT. */
  readonly url: string;
  /** The h2c (gRPC) proxy's address: 127.0.0.1:PORT. */
  readonly grpcAddress: string;
  /** The instances requests go to now, in rotation order. */
  backends(): readonly Backend[];
  /** Puts an instance in the rotation (replaces one with the same id). */
  add(backend: Backend): void;
  /** Takes an instance out of the rotation (requests it is serving go on). */
  remove(id: string): void;
  /** How many requests (HTTP requests, WebSocket upgrades, gRPC calls) each instance got so far, by id. */
  served(): Readonly<Record<string, number>>;
  /** What went wrong between the front and the instances so far (one line each, the first 200), for diagnostics. */
  problems(): readonly string[];
  /** Stops listening and cuts every connection (both sides). */
  close(): Promise<void>;
}

/** RFC 9110 §7.6.1 hop-by-hop fields, plus Host (the upstream gets its own) and HTTP/2 pseudo-headers. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "te",
  "transfer-encoding",
  "upgrade",
  "trailer",
  "proxy-authenticate",
  "proxy-authorization",
  "host",
]);

/** The names a Connection header lists (each hop-by-hop too). */
function connectionTokens(headers: IncomingHttpHeaders): Set<string> {
  const value = headers.connection;
  const list = Array.isArray(value) ? value.join(",") : (value ?? "");
  return new Set(
    list
      .split(",")
      .map((t) => t.trim().toLowerCase())
      .filter((t) => t !== ""),
  );
}

/**
 * The end-to-end fields of a message (from its raw headers, so repeated fields stay separate),
 * as node:http takes them; `keep` names hop-by-hop fields to pass anyway (a WebSocket upgrade).
 */
function endToEnd(
  message: IncomingMessage,
  keep: ReadonlySet<string> = new Set(),
): Record<string, string | string[]> {
  const named = connectionTokens(message.headers);
  const out: Record<string, string | string[]> = {};
  const raw = message.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (!keep.has(name) && (HOP_BY_HOP.has(name) || named.has(name))) continue;
    const value = raw[i + 1]!;
    const before = out[name];
    out[name] =
      before === undefined ? value : Array.isArray(before) ? [...before, value] : [before, value];
  }
  return out;
}

/** The X-Forwarded-* fields for a request from `req`. */
function forwarded(req: IncomingMessage): Record<string, string> {
  const prior = req.headers["x-forwarded-for"];
  const client = req.socket.remoteAddress ?? "";
  return {
    "x-forwarded-for":
      prior === undefined
        ? client
        : `${Array.isArray(prior) ? prior.join(", ") : prior}, ${client}`,
    ...(req.headers.host !== undefined ? { "x-forwarded-host": req.headers.host } : {}),
    "x-forwarded-proto": "http",
  };
}

/** The round-robin choice over a changing list of backends. */
class Rotation {
  #backends: Backend[] = [];
  #next = 0;
  readonly #served = new Map<string, number>();

  list(): readonly Backend[] {
    return [...this.#backends];
  }

  add(backend: Backend): void {
    this.#backends = [...this.#backends.filter((b) => b.id !== backend.id), backend];
  }

  remove(id: string): void {
    this.#backends = this.#backends.filter((b) => b.id !== id);
  }

  /** The next backend in turn (counted as served), or undefined when there is none. */
  pick(): Backend | undefined {
    if (this.#backends.length === 0) return undefined;
    const backend = this.#backends[this.#next % this.#backends.length]!;
    this.#next = (this.#next + 1) % this.#backends.length;
    this.#served.set(backend.id, (this.#served.get(backend.id) ?? 0) + 1);
    return backend;
  }

  served(): Record<string, number> {
    return Object.fromEntries(this.#served);
  }
}

/** A short plain-text answer of the front itself (no instance, or the instance failed before answering). */
function answer(res: ServerResponse, status: number, text: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res
    .writeHead(status, {
      "content-type": "text/plain; charset=utf-8",
      "content-length": Buffer.byteLength(text),
    })
    .end(text);
}

/** Node's http.Agent without pooling: one upstream connection per request. */
const noPool = new Agent({ keepAlive: false });

/** Where the front notes what went wrong with an instance. */
type Report = (backend: Backend, what: string) => void;

/** Forwards one HTTP/1.1 request to `backend` and its response back, both streamed. */
function proxyHttp(
  req: IncomingMessage,
  res: ServerResponse,
  backend: Backend,
  report: Report,
): void {
  const target = new URL(backend.httpOrigin);
  const headers: OutgoingHttpHeaders = { ...endToEnd(req), ...forwarded(req), host: target.host };
  const upstream = httpRequest({
    host: target.hostname,
    port: target.port,
    method: req.method,
    path: req.url,
    headers,
    agent: noPool,
  });
  req.pipe(upstream);
  // The client went away before the whole answer: so does the upstream request (the agent sees its call canceled).
  res.on("close", () => {
    if (!res.writableFinished) upstream.destroy();
  });
  upstream.on("error", (e) => {
    if (!res.destroyed)
      report(
        backend,
        `${req.method} ${req.url}: ${e.message}${res.headersSent ? " (response cut)" : " (answered 502)"}`,
      );
    answer(res, 502, `round-robin front: instance ${backend.id} failed: ${e.message}`);
  });
  upstream.on("response", (up) => {
    const out = endToEnd(up);
    res.writeHead(up.statusCode ?? 502, up.statusMessage, out);
    // Headers at once (an SSE stream's first event may be a while away), then every chunk as it comes.
    res.flushHeaders();
    up.pipe(res);
    // An upstream that dies mid-response: the client's connection is cut, not ended cleanly.
    up.on("close", () => {
      if (up.complete || res.destroyed) return;
      report(backend, `${req.method} ${req.url}: the response broke off`);
      res.destroy();
    });
  });
}

/** Forwards a WebSocket (or other) upgrade to `backend` and then the bytes both ways. */
function proxyUpgrade(req: IncomingMessage, socket: Socket, head: Buffer, backend: Backend): void {
  const target = new URL(backend.httpOrigin);
  const upstream = netConnect(Number(target.port), target.hostname);
  const headers = {
    ...endToEnd(req, new Set(["connection", "upgrade"])),
    ...forwarded(req),
    host: target.host,
  };
  const lines = Object.entries(headers).flatMap(([name, value]) =>
    (Array.isArray(value) ? value : [value]).map((v) => `${name}: ${v}`),
  );
  upstream.on("connect", () => {
    upstream.write(`${req.method} ${req.url} HTTP/1.1\r\n${lines.join("\r\n")}\r\n\r\n`);
    if (head.length > 0) upstream.write(head);
    upstream.pipe(socket);
    socket.pipe(upstream);
  });
  upstream.on("error", () => socket.destroy());
  socket.on("error", () => upstream.destroy());
  upstream.on("close", () => socket.destroy());
  socket.on("close", () => upstream.destroy());
}

/** HTTP/2 sessions to the backends' gRPC servers, one per address, reopened when lost. */
class H2Sessions {
  readonly #sessions = new Map<string, ClientHttp2Session>();

  get(address: string): ClientHttp2Session {
    const existing = this.#sessions.get(address);
    if (existing !== undefined && !existing.closed && !existing.destroyed) return existing;
    const session = h2connect(`http://${address}`);
    session.on("error", () => undefined);
    session.on("close", () => {
      if (this.#sessions.get(address) === session) this.#sessions.delete(address);
    });
    this.#sessions.set(address, session);
    return session;
  }

  closeAll(): void {
    for (const session of this.#sessions.values()) session.destroy();
    this.#sessions.clear();
  }
}

/** The fields of an HTTP/2 header block to pass on: no pseudo-headers (but those `keep` names) and no connection-specific ones. */
function h2Fields(
  headers: H2Headers,
  keep: readonly string[] = [],
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    if (name.startsWith(":") ? !keep.includes(name) : name !== "te" && HOP_BY_HOP.has(name))
      continue;
    out[name] = Array.isArray(value) ? value : String(value);
  }
  return out;
}

/** Forwards one gRPC call (an HTTP/2 stream) to `backend` and its answer back, messages and trailers as they come. */
function proxyH2Stream(
  stream: ServerHttp2Stream,
  headers: H2Headers,
  backend: Backend,
  sessions: H2Sessions,
  report: Report,
): void {
  let upstream: ReturnType<ClientHttp2Session["request"]>;
  try {
    upstream = sessions.get(backend.grpcAddress).request({
      ...h2Fields(headers, [":method", ":path"]),
      ":authority": backend.grpcAddress,
      ":scheme": "http",
    });
  } catch (e) {
    report(
      backend,
      `gRPC ${String(headers[":path"])}: ${e instanceof Error ? e.message : String(e)}`,
    );
    stream.close(constants.NGHTTP2_REFUSED_STREAM);
    return;
  }
  let trailers: Record<string, string | string[]> = {};
  let done = false;
  stream.pipe(upstream);
  stream.on("error", () => undefined);
  upstream.on("error", () => undefined);
  // The caller canceled (or went away): so is the upstream call.
  stream.on("close", () => {
    if (!done && !upstream.closed) upstream.close(constants.NGHTTP2_CANCEL);
  });
  stream.on("wantTrailers", () => stream.sendTrailers(trailers));
  upstream.on("response", (responseHeaders, flags) => {
    const fields = {
      ...h2Fields(responseHeaders),
      ":status": Number(responseHeaders[":status"] ?? 200),
    };
    if ((flags & constants.NGHTTP2_FLAG_END_STREAM) !== 0) {
      // Trailers-only (an error without messages): grpc-status is in these headers.
      done = true;
      if (!stream.closed) stream.respond(fields, { endStream: true });
      return;
    }
    if (!stream.closed) stream.respond(fields, { waitForTrailers: true });
    upstream.on("data", (chunk: Buffer) => {
      if (!stream.closed) stream.write(chunk);
    });
    upstream.on("trailers", (t) => {
      trailers = h2Fields(t);
    });
    upstream.on("end", () => {
      done = true;
      if (!stream.closed) stream.end();
    });
  });
  // Reset (or lost with its instance) before its end: the caller's stream is reset too.
  upstream.on("close", () => {
    if (!done && !stream.closed)
      report(backend, `gRPC ${String(headers[":path"])}: reset (code ${upstream.rstCode})`);
    if (!done && !stream.closed)
      stream.close(
        upstream.rstCode !== undefined && upstream.rstCode !== constants.NGHTTP2_NO_ERROR
          ? upstream.rstCode
          : constants.NGHTTP2_INTERNAL_ERROR,
      );
  });
}

/** Starts a front on 127.0.0.1 (free ports) over `backends` (more can be added later). */
export async function startRoundRobinFront(
  backends: readonly Backend[] = [],
): Promise<RoundRobinFront> {
  const rotation = new Rotation();
  for (const backend of backends) rotation.add(backend);
  const sessions = new H2Sessions();
  const problems: string[] = [];
  const report: Report = (backend, what) => {
    if (problems.length < 200)
      problems.push(`${new Date().toISOString()} instance ${backend.id}: ${what}`);
  };
  const http = createServer((req, res) => {
    const backend = rotation.pick();
    if (backend === undefined) {
      req.resume();
      answer(res, 503, "round-robin front: no instance to send the request to");
      return;
    }
    proxyHttp(req, res, backend, report);
  });
  http.on("upgrade", (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const backend = rotation.pick();
    if (backend === undefined) socket.destroy();
    else proxyUpgrade(req, socket, head, backend);
  });
  const h2 = createH2Server();
  // Streams only: a 'request' listener would switch on node's compatibility layer, which sends trailers of its own.
  h2.on("stream", (stream, headers) => {
    const backend = rotation.pick();
    if (backend === undefined) stream.close(constants.NGHTTP2_REFUSED_STREAM);
    else proxyH2Stream(stream, headers, backend, sessions, report);
  });
  // Idle client connections stay open longer than a test's pauses (a load balancer's 60 s): a client that reuses one
  // never races the front closing it (Node's 5 s default, with a loaded event loop, makes such races real).
  http.keepAliveTimeout = 65_000;
  http.headersTimeout = 70_000;
  const sockets = new Set<Socket>();
  for (const server of [http, h2]) {
    server.on("connection", (s: Socket) => {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
    });
  }
  await Promise.all([
    new Promise<void>((r) => http.listen(0, "127.0.0.1", r)),
    new Promise<void>((r) => h2.listen(0, "127.0.0.1", r)),
  ]);
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    grpcAddress: `127.0.0.1:${(h2.address() as AddressInfo).port}`,
    backends: () => rotation.list(),
    add: (backend) => rotation.add(backend),
    remove: (id) => rotation.remove(id),
    served: () => rotation.served(),
    problems: () => [...problems],
    async close() {
      sessions.closeAll();
      for (const s of sockets) s.destroy();
      await Promise.all([
        new Promise<void>((r) => http.close(() => r())),
        new Promise<void>((r) => h2.close(() => r())),
      ]);
    },
  };
}
