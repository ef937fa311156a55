/**
 * The runner's place on the wire: a recording proxy in front of the agent under test, one
 * node:http listener for the HTTP bindings (Agent Card, JSON-RPC, HTTP+JSON, SSE) and one
 * node:http2 (h2c) listener for gRPC. Clients are pointed at the tap; every request that
 * carries the `acts-exchange` header (the runner adds a fresh one to each call) is recorded
 * with its response bytes exactly as they reached the client: status, headers, body, and
 * for gRPC the trailers. The header is removed before the request goes on, so the agent
 * sees what the client sent and nothing else. Built on node:http/http2 only: nothing of
 * the code under test is involved in recording.
 *
 * Responses are forwarded as they arrive (SSE and gRPC streams are not buffered), a client
 * that goes away closes the upstream request, and each chunk is recorded before it is
 * forwarded, so an exchange is complete by the time the client has seen its end.
 *
 * A `WireMutation` makes the tap a deliberately wrong server: it rewrites responses (JSON
 * bodies, single SSE events, gRPC messages and trailers) before they are recorded and
 * forwarded. The mutation tests of the runner use it to prove each ACTS check can fail.
 */
import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import {
  connect,
  constants,
  createServer as createH2Server,
  type ClientHttp2Session,
  type IncomingHttpHeaders as H2Headers,
  type ServerHttp2Stream,
} from "node:http2";
import type { AddressInfo, Socket } from "node:net";
import type { Binding, JsonValue } from "./client.js";

/** The request header that names an exchange. */
export const EXCHANGE_HEADER = "acts-exchange";

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

export interface RecordedResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  /** gRPC trailers (for a trailers-only response: the headers that carry grpc-status). */
  readonly trailers?: Readonly<Record<string, string>>;
  /** The response reached its end (false: the client or the upstream went away first). */
  readonly complete: boolean;
  /** Why it did not complete, when the upstream failed. */
  readonly error?: string;
}

/** One request/response pair as it crossed the tap. */
export interface WireExchange {
  readonly id: string;
  readonly binding: Binding | "card";
  readonly request: RecordedRequest;
  readonly response?: RecordedResponse;
}

/** What a mutation sees of the exchange it rewrites. */
export interface MutationContext {
  readonly binding: Binding | "card";
  readonly method: string;
  /** Path and query of the request (gRPC: `/package.Service/Method`). */
  readonly path: string;
  /** The path relative to the binding's interface URL (JSON-RPC: "/", HTTP+JSON: "/tasks/…", gRPC: as `path`). */
  readonly interfacePath: string;
  /** The request body as JSON when it is JSON (JSON-RPC envelope, REST body), else undefined. */
  readonly requestJson: JsonValue | undefined;
}

/** Ends an SSE or gRPC stream right there, cleanly, as a server that stops early would. */
export const END_STREAM = Symbol("end-stream");

export interface WireMutation {
  readonly name: string;
  /** A whole (non-stream) JSON response body. */
  json?(
    body: JsonValue,
    status: number,
    ctx: MutationContext,
  ): { body: JsonValue; status?: number } | undefined;
  /** One SSE event's data (parsed JSON) and its `event:` field; the event's position in the stream. */
  sseEvent?(
    data: JsonValue,
    index: number,
    ctx: MutationContext,
    event: string | undefined,
  ): JsonValue | typeof END_STREAM | undefined;
  /** One gRPC response message (its protobuf bytes). */
  grpcMessage?(
    bytes: Uint8Array,
    index: number,
    ctx: MutationContext,
  ): Uint8Array | typeof END_STREAM | undefined;
  /** The gRPC trailers, or the headers of a trailers-only response. */
  grpcTrailers?(
    trailers: Record<string, string>,
    ctx: MutationContext,
  ): Record<string, string> | undefined;
}

export interface WireTap {
  /** Where clients should go: the agent's endpoints, re-pointed at the tap. */
  readonly endpoints: {
    readonly cardUrl: string;
    readonly jsonrpc: string;
    readonly rest: string;
    readonly grpc: string;
  };
  /**
   * The exchanges recorded for `id` (normally one), once each has settled (complete, or its
   * client or upstream gone), waiting at most `waitMs` (default 5 s) for that; an exchange
   * still open then is returned as recorded so far (`complete: false`). They are forgotten
   * afterwards.
   */
  take(id: string, waitMs?: number): Promise<WireExchange[]>;
  /** Replaces the active mutation (undefined: forward faithfully). */
  mutate(mutation: WireMutation | undefined): void;
  close(): Promise<void>;
}

interface Pending {
  /** The exchange as recorded so far (a response not yet settled shows `complete: false`). */
  snapshot(): WireExchange;
  settled: Promise<void>;
}

const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "upgrade",
  "content-length",
  "host",
]);

function flatHeaders(headers: IncomingHttpHeaders | H2Headers): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || name.startsWith(":")) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : String(value);
  }
  return out;
}

function parseJson(bytes: Buffer): JsonValue | undefined {
  if (bytes.length === 0) return undefined;
  try {
    return JSON.parse(bytes.toString("utf8")) as JsonValue;
  } catch {
    return undefined;
  }
}

/** Incremental SSE re-encoder for a mutation: splits events, lets the mutation rewrite each data payload. */
class SseRewriter {
  #buffer = "";
  #index = 0;
  ended = false;
  constructor(
    private readonly mutation: WireMutation,
    private readonly ctx: MutationContext,
  ) {}

  /** Returns the text to forward for `chunk`. */
  push(chunk: string): string {
    if (this.ended) return "";
    this.#buffer += chunk.replace(/\r\n?/g, "\n");
    let out = "";
    for (
      let end = this.#buffer.indexOf("\n\n");
      end >= 0 && !this.ended;
      end = this.#buffer.indexOf("\n\n")
    ) {
      const block = this.#buffer.slice(0, end);
      this.#buffer = this.#buffer.slice(end + 2);
      out += this.#rewrite(block);
    }
    return out;
  }

  #rewrite(block: string): string {
    const lines = block.split("\n");
    const data = lines
      .filter((l) => l.startsWith("data:"))
      .map((l) => l.slice(5).replace(/^ /, ""));
    if (data.length === 0) return `${block}\n\n`;
    const event = lines
      .find((l) => l.startsWith("event:"))
      ?.slice(6)
      .trim();
    let parsed: JsonValue;
    try {
      parsed = JSON.parse(data.join("\n")) as JsonValue;
    } catch {
      return `${block}\n\n`;
    }
    const result = this.mutation.sseEvent!(parsed, this.#index++, this.ctx, event);
    if (result === END_STREAM) {
      this.ended = true;
      return "";
    }
    if (result === undefined) return `${block}\n\n`;
    return `${event !== undefined ? `event: ${event}\n` : ""}data: ${JSON.stringify(result)}\n\n`;
  }
}

/** Incremental gRPC message re-framer for a mutation. */
class GrpcRewriter {
  #buffer = Buffer.alloc(0);
  #index = 0;
  ended = false;
  constructor(
    private readonly mutation: WireMutation,
    private readonly ctx: MutationContext,
  ) {}

  push(chunk: Buffer): Buffer {
    if (this.ended) return Buffer.alloc(0);
    this.#buffer = Buffer.concat([this.#buffer, chunk]);
    const out: Buffer[] = [];
    while (this.#buffer.length >= 5 && !this.ended) {
      const length = this.#buffer.readUInt32BE(1);
      if (this.#buffer.length < 5 + length) break;
      const flags = this.#buffer[0]!;
      const message = this.#buffer.subarray(5, 5 + length);
      this.#buffer = this.#buffer.subarray(5 + length);
      const result =
        flags === 0
          ? this.mutation.grpcMessage!(new Uint8Array(message), this.#index++, this.ctx)
          : undefined;
      if (result === END_STREAM) {
        this.ended = true;
        break;
      }
      const bytes = result === undefined ? message : Buffer.from(result);
      const head = Buffer.alloc(5);
      head[0] = flags;
      head.writeUInt32BE(bytes.length, 1);
      out.push(head, bytes);
    }
    return Buffer.concat(out);
  }
}

/** Starts a tap in front of `target` (the agent's endpoints) on 127.0.0.1. */
export interface WireTapOptions {
  /** Called with every HTTP/1.1 exchange (JSON-RPC, HTTP+JSON, card) once it settled: a recorder of everything that crossed. */
  readonly onExchange?: (exchange: WireExchange) => void;
}

export async function startWireTap(
  target: {
    readonly cardUrl: string;
    readonly jsonrpc: string;
    readonly rest: string;
    readonly grpc: string;
  },
  options: WireTapOptions = {},
): Promise<WireTap> {
  const pending = new Map<string, Pending[]>();
  let mutation: WireMutation | undefined;
  const http = new URL(target.jsonrpc);
  const jsonrpcPath = http.pathname;
  const restPath = new URL(target.rest).pathname;
  const agent = new Agent({ keepAlive: true });

  const track = (id: string, record: Pending) => {
    const list = pending.get(id) ?? [];
    list.push(record);
    pending.set(id, list);
  };

  const httpBinding = (path: string): Binding | "card" => {
    const pathname = path.split("?")[0]!;
    if (pathname === jsonrpcPath) return "jsonrpc";
    if (pathname === restPath || pathname.startsWith(`${restPath}/`)) return "rest";
    return "card";
  };

  // --- HTTP/1.1 -------------------------------------------------------------------------
  const onHttp = (req: IncomingMessage, res: ServerResponse) => {
    const id =
      typeof req.headers[EXCHANGE_HEADER] === "string" ? req.headers[EXCHANGE_HEADER] : undefined;
    const headers = { ...req.headers };
    delete headers[EXCHANGE_HEADER];
    headers.host = http.host;
    const path = req.url ?? "/";
    const binding = httpBinding(path);
    const requestChunks: Buffer[] = [];
    const responseChunks: Buffer[] = [];
    const exchange: { -readonly [K in keyof WireExchange]: WireExchange[K] } = {
      id: id ?? "",
      binding,
      request: {
        method: req.method ?? "GET",
        path,
        headers: flatHeaders(req.headers),
        body: Buffer.alloc(0),
      },
    };
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => (settle = resolve));
    let head: { status: number; headers: Record<string, string> } | undefined;
    const responseOf = (complete: boolean, error?: string): RecordedResponse | undefined =>
      head === undefined && error === undefined
        ? undefined
        : {
            status: head?.status ?? 502,
            headers: head?.headers ?? {},
            body: Buffer.concat(responseChunks),
            complete,
            ...(error !== undefined ? { error } : {}),
          };
    let done = false;
    const finish = (complete: boolean, error?: string) => {
      if (done) return;
      done = true;
      const response = responseOf(complete, error);
      if (response !== undefined) exchange.response = response;
      settle();
      options.onExchange?.(exchange);
    };
    if (id !== undefined)
      track(id, {
        settled,
        snapshot: () =>
          done
            ? exchange
            : { ...exchange, ...(head !== undefined ? { response: responseOf(false)! } : {}) },
      });

    const upstream = httpRequest({
      host: http.hostname,
      port: http.port,
      method: req.method,
      path,
      headers,
      agent,
    });
    req.on("data", (chunk: Buffer) => requestChunks.push(chunk));
    req.on(
      "end",
      () => (exchange.request = { ...exchange.request, body: Buffer.concat(requestChunks) }),
    );
    req.pipe(upstream);
    res.on("close", () => {
      if (!res.writableFinished) {
        upstream.destroy();
        finish(false);
      }
    });
    upstream.on("error", (e) => {
      if (!res.headersSent)
        res
          .writeHead(502, { "content-type": "text/plain" })
          .end(`wire tap: upstream failed: ${e.message}`);
      else res.destroy();
      finish(false, e.message);
    });
    upstream.on("response", (up) => {
      const status = up.statusCode ?? 502;
      const forwarded: Record<string, string> = {};
      for (const [name, value] of Object.entries(flatHeaders(up.headers)))
        if (!HOP_BY_HOP.has(name)) forwarded[name] = value;
      const active = mutation;
      const pathname = path.split("?")[0]!;
      const interfacePath =
        binding === "rest"
          ? pathname.slice(restPath.length) || "/"
          : binding === "jsonrpc"
            ? "/"
            : pathname;
      const ctx = (): MutationContext => ({
        binding,
        method: req.method ?? "GET",
        path,
        interfacePath,
        requestJson: parseJson(exchange.request.body),
      });
      if ((forwarded["content-type"] ?? "").startsWith("text/event-stream")) {
        head = { status, headers: forwarded };
        res.writeHead(status, forwarded);
        const rewriter =
          active?.sseEvent !== undefined ? new SseRewriter(active, ctx()) : undefined;
        up.on("data", (chunk: Buffer) => {
          const out =
            rewriter === undefined
              ? chunk
              : Buffer.from(rewriter.push(chunk.toString("utf8")), "utf8");
          if (out.length > 0) {
            responseChunks.push(out);
            res.write(out);
          }
          if (rewriter?.ended && !res.writableEnded) {
            finish(true);
            res.end();
            up.destroy();
          }
        });
        up.on("end", () => {
          if (res.writableEnded) return;
          finish(true);
          res.end();
        });
        up.on("error", () => res.destroy());
        return;
      }
      const body: Buffer[] = [];
      up.on("data", (chunk: Buffer) => body.push(chunk));
      up.on("error", () => res.destroy());
      up.on("end", () => {
        let bytes = Buffer.concat(body);
        let finalStatus = status;
        const json = active?.json !== undefined ? parseJson(bytes) : undefined;
        if (json !== undefined) {
          const rewritten = active!.json!(json, status, ctx());
          if (rewritten !== undefined) {
            bytes = Buffer.from(JSON.stringify(rewritten.body), "utf8");
            finalStatus = rewritten.status ?? status;
          }
        }
        head = { status: finalStatus, headers: forwarded };
        responseChunks.push(bytes);
        finish(true);
        res
          .writeHead(finalStatus, { ...forwarded, "content-length": String(bytes.length) })
          .end(bytes);
      });
    });
  };

  // --- HTTP/2 (gRPC) --------------------------------------------------------------------
  let session: ClientHttp2Session | undefined;
  const upstreamSession = (): ClientHttp2Session => {
    if (session === undefined || session.closed || session.destroyed) {
      session = connect(`http://${target.grpc}`);
      session.on("error", () => undefined);
      const current = session;
      current.on("close", () => {
        if (session === current) session = undefined;
      });
    }
    return session;
  };

  const onH2Stream = (stream: ServerHttp2Stream, headers: H2Headers) => {
    const idHeader = headers[EXCHANGE_HEADER];
    const id = typeof idHeader === "string" ? idHeader : undefined;
    const method = String(headers[":method"] ?? "POST");
    const path = String(headers[":path"] ?? "/");
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(flatHeaders(headers)))
      if (name !== EXCHANGE_HEADER) out[name] = value;
    const requestChunks: Buffer[] = [];
    const responseChunks: Buffer[] = [];
    const exchange: { -readonly [K in keyof WireExchange]: WireExchange[K] } = {
      id: id ?? "",
      binding: "grpc",
      request: { method, path, headers: flatHeaders(headers), body: Buffer.alloc(0) },
    };
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => (settle = resolve));
    let head: { status: number; headers: Record<string, string> } | undefined;
    let trailers: Record<string, string> | undefined;
    let done = false;
    const responseOf = (complete: boolean, error?: string): RecordedResponse => ({
      status: head?.status ?? 0,
      headers: head?.headers ?? {},
      body: Buffer.concat(responseChunks),
      ...(trailers !== undefined ? { trailers } : {}),
      complete,
      ...(error !== undefined ? { error } : {}),
    });
    const finish = (complete: boolean, error?: string) => {
      if (done) return;
      done = true;
      exchange.response = responseOf(complete, error);
      settle();
    };
    if (id !== undefined)
      track(id, {
        settled,
        snapshot: () =>
          done
            ? exchange
            : { ...exchange, ...(head !== undefined ? { response: responseOf(false) } : {}) },
      });
    const active = mutation;
    const ctx = (): MutationContext => ({
      binding: "grpc",
      method,
      path,
      interfacePath: path,
      requestJson: undefined,
    });

    let upstream: ReturnType<ClientHttp2Session["request"]>;
    try {
      upstream = upstreamSession().request({
        ...out,
        ":method": method,
        ":path": path,
        ":authority": target.grpc,
        ":scheme": "http",
      });
    } catch (e) {
      finish(false, e instanceof Error ? e.message : String(e));
      stream.close(constants.NGHTTP2_INTERNAL_ERROR);
      return;
    }
    stream.on("data", (chunk: Buffer) => {
      requestChunks.push(chunk);
      upstream.write(chunk);
    });
    stream.on("end", () => {
      exchange.request = { ...exchange.request, body: Buffer.concat(requestChunks) };
      upstream.end();
    });
    stream.on("error", () => undefined);
    stream.on("close", () => {
      if (!upstream.closed) upstream.close(constants.NGHTTP2_CANCEL);
      finish(false);
    });
    stream.on("wantTrailers", () => stream.sendTrailers(trailers ?? {}));
    upstream.on("error", (e) => finish(false, e.message));
    upstream.on("response", (responseHeaders, flags) => {
      const status = Number(responseHeaders[":status"] ?? 0);
      const plain = flatHeaders(responseHeaders);
      if ((flags & constants.NGHTTP2_FLAG_END_STREAM) !== 0) {
        // Trailers-only response (an error without messages): grpc-status is in these headers.
        const rewritten = active?.grpcTrailers?.({ ...plain }, ctx()) ?? plain;
        head = { status, headers: rewritten };
        trailers = rewritten;
        finish(true);
        if (!stream.closed)
          stream.respond({ ":status": status, ...rewritten }, { endStream: true });
        return;
      }
      head = { status, headers: plain };
      stream.respond({ ":status": status, ...plain }, { waitForTrailers: true });
      const rewriter =
        active?.grpcMessage !== undefined ? new GrpcRewriter(active, ctx()) : undefined;
      upstream.on("data", (chunk: Buffer) => {
        const bytes = rewriter === undefined ? chunk : rewriter.push(chunk);
        if (bytes.length > 0) {
          responseChunks.push(bytes);
          if (!stream.closed) stream.write(bytes);
        }
        if (rewriter?.ended && trailers === undefined) {
          // Stop as a server that ends the stream early would: OK status, no more messages.
          trailers = { "grpc-status": "0" };
          finish(true);
          if (!stream.closed) stream.end();
          upstream.close(constants.NGHTTP2_CANCEL);
        }
      });
      upstream.on("trailers", (upstreamTrailers) => {
        if (trailers !== undefined) return;
        const plainTrailers = flatHeaders(upstreamTrailers);
        trailers = active?.grpcTrailers?.({ ...plainTrailers }, ctx()) ?? plainTrailers;
      });
      upstream.on("end", () => {
        if (done) return;
        trailers ??= {};
        finish(true);
        if (!stream.closed) stream.end();
      });
    });
    upstream.on("close", () => {
      if (!done) {
        finish(false, `upstream stream closed (code ${upstream.rstCode})`);
        if (!stream.closed) stream.close(upstream.rstCode ?? constants.NGHTTP2_INTERNAL_ERROR);
      }
    });
  };

  const httpServer = createServer(onHttp);
  const h2Server = createH2Server();
  // Streams only: a 'request' listener would switch on node's compatibility layer, which sends trailers of its own.
  h2Server.on("stream", onH2Stream);
  const sockets = new Set<Socket>();
  for (const server of [httpServer, h2Server]) {
    server.on("connection", (s: Socket) => {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
    });
  }
  await Promise.all([
    new Promise<void>((r) => httpServer.listen(0, "127.0.0.1", r)),
    new Promise<void>((r) => h2Server.listen(0, "127.0.0.1", r)),
  ]);
  const httpOrigin = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
  const retarget = (url: string) => {
    const u = new URL(url);
    return `${httpOrigin}${u.pathname}${u.search}`;
  };

  return {
    endpoints: {
      cardUrl: retarget(target.cardUrl),
      jsonrpc: retarget(target.jsonrpc),
      rest: retarget(target.rest).replace(/\/$/, ""),
      grpc: `127.0.0.1:${(h2Server.address() as AddressInfo).port}`,
    },
    async take(id, waitMs = 5_000) {
      const list = pending.get(id) ?? [];
      pending.delete(id);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all(list.map((p) => p.settled)),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs))),
      ]);
      clearTimeout(timer);
      return list.map((p) => p.snapshot());
    },
    mutate(next) {
      mutation = next;
    },
    async close() {
      session?.close();
      agent.destroy();
      for (const s of sockets) s.destroy();
      await Promise.all([
        new Promise<void>((r) => httpServer.close(() => r())),
        new Promise<void>((r) => h2Server.close(() => r())),
      ]);
    },
  };
}
