// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The lean path of `listenGrpc` for plain gRPC unary calls (issue #16): served on the node:http2
 * core API (the 'stream' event) instead of Connect's generic per-call pipeline, which costs, per
 * call, the compat request/response objects, web Headers copies, an async-iterable pipeline of
 * seven transforms, three linked AbortSignals and the DOMException Connect's handler creates when
 * it aborts the context at the end of every call (profile in bench/grpc.mjs's header). Measured:
 * 3–5× slower than grpc-js; this path is what the same A2A pipeline costs on node:http2 itself.
 *
 * Same behaviour as Connect's gRPC handler, with Connect's own protocol pieces: the request
 * serialization (`createMethodSerializationLookup`: the same parse errors and size limits),
 * `parseTimeout`, `compressionNegotiate` (response compression as Connect does it, with the
 * adapter's `acceptCompression` and `compressMinBytes`), `setTrailerStatus` (grpc-status,
 * grpc-message, grpc-status-details-bin); the envelope errors with Connect's codes and messages, except
 * for a message that does not decode or is flagged compressed, and a response that cannot be encoded,
 * which get the A2A answers of Connect's paths (request-guard.ts, response-check.ts).
 * Everything else goes to Connect unchanged: gRPC-web, the Connect protocol, server streaming,
 * reflection, compressed requests (`grpc-encoding`), `+json`, unknown paths; and every call when
 * the adapter has interceptors, context values or a shutdown signal, or `grpc: false`.
 */
import { MAX_TIMER_MS } from "../grpc-wire/timeout-header.js";
import type {
  Http2SecureServer,
  Http2Server,
  IncomingHttpHeaders,
  ServerHttp2Stream,
} from "node:http2";
import { create, isMessage, type DescMethod, type Message } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import {
  compressionNegotiate,
  createMethodSerializationLookup,
  validateReadWriteMaxBytes,
  type Compression,
} from "@connectrpc/connect/protocol";
import { parseTimeout, setTrailerStatus } from "@connectrpc/connect/protocol-grpc";
import {
  compressionBrotli,
  compressionGzip,
  type ConnectNodeAdapterOptions,
} from "@connectrpc/connect-node";
import { LazyCallCancellation } from "../pipeline/call-abort.js";
import { ServiceParameters, type HeaderSource } from "../pipeline/call-context.js";
import type { RequestRefusals } from "./request-guard.js";

/** One unary method as the lean path calls it: the A2A pipeline of grpc/server.ts without Connect's HandlerContext. */
export interface LeanUnaryMethod {
  readonly method: DescMethod;
  /** The answers to a request message that does not decode, or is flagged compressed (request-guard.ts). */
  readonly refusals: RequestRefusals;
  /** The answer to a response that cannot be encoded (the generic InternalError; `cause` logged). */
  encodeFailure(cause: unknown): ConnectError;
  /** Runs the pipeline and the handler; resolves the response and the a2a-extensions to echo, or rejects with the ConnectError to answer. */
  call(
    request: Message,
    cancellation: LeanCancellation,
    parameters: ServiceParameters,
  ): Promise<{ response: Message; extensions: string | undefined }>;
}

/** Request path (`/<service>/<method>`) → method, per Connect router (filled by registerGrpcService). */
const leanMethods = new WeakMap<object, Map<string, LeanUnaryMethod>>();

/** Registers a unary method of `router` for the lean path. */
export function registerLeanUnary(router: object, method: LeanUnaryMethod): void {
  let methods = leanMethods.get(router);
  if (methods === undefined) leanMethods.set(router, (methods = new Map()));
  methods.set(`/${method.method.parent.typeName}/${method.method.name}`, method);
}

/** The lean methods registered on `router`, or undefined when the adapter's options need Connect's own pipeline on every call. */
export function leanUnaryMethods(
  router: object | undefined,
  options: Partial<ConnectNodeAdapterOptions> | undefined,
): Map<string, LeanUnaryMethod> | undefined {
  if (router === undefined) return undefined;
  const methods = leanMethods.get(router);
  if (methods === undefined || methods.size === 0) return undefined;
  if (
    (options?.interceptors?.length ?? 0) > 0 ||
    options?.contextValues !== undefined ||
    options?.shutdownSignal !== undefined ||
    options?.grpc === false
  )
    return undefined;
  return methods;
}

const noop = (): void => {};

/** A lean call's cancellation (see call-abort.ts): the signal made on first read; aborted with Connect's reasons. */
export class LeanCancellation extends LazyCallCancellation<ConnectError> {
  /** Settles with `promise`, or rejects with the abort's reason as soon as the call is aborted (a late result is dropped). */
  race<T>(promise: Promise<T>): Promise<T> {
    if (this.reason !== undefined) {
      promise.catch(noop); // a dropped late result: never an unhandled rejection
      return Promise.reject(this.reason);
    }
    return new Promise<T>((resolve, reject) => {
      const stop = this.onAbort(() => reject(this.reason));
      promise.then(
        (value) => {
          stop();
          resolve(value);
        },
        (error: unknown) => {
          stop();
          reject(error as Error);
        },
      );
    });
  }
}

/** Request headers as service parameters, read on demand (pseudo-headers are not parameters). */
class StreamHeaders implements HeaderSource {
  readonly #headers: IncomingHttpHeaders;
  constructor(headers: IncomingHttpHeaders) {
    this.#headers = headers;
  }
  header(name: string): string | undefined {
    if (name.charCodeAt(0) === 58 /* : */) return undefined;
    const v = this.#headers[name.toLowerCase()];
    return typeof v === "string" || v === undefined ? v : v.join(", ");
  }
  headers(): Iterable<[string, string]> {
    const out: [string, string][] = [];
    const all = this.#headers;
    for (const name in all) {
      if (name.charCodeAt(0) === 58) continue;
      const v = all[name];
      if (v !== undefined) out.push([name, typeof v === "string" ? v : v.join(", ")]);
    }
    return out;
  }
}

interface LeanSettings {
  readonly readMaxBytes: number;
  readonly writeMaxBytes: number;
  readonly compressMinBytes: number;
  readonly maxTimeoutMs: number;
  readonly acceptCompression: readonly Compression[];
  readonly binaryOptions: ConnectNodeAdapterOptions["binaryOptions"];
}

/** What a method's calls share: its serialization (Connect's, with the limits). */
interface PreparedMethod {
  readonly lean: LeanUnaryMethod;
  readonly parse: (bytes: Uint8Array) => Message;
  readonly serialize: (message: Message) => Uint8Array;
}

const CONTENT_TYPE = "application/grpc+proto";
const OK_TRAILERS = { "grpc-status": "0" };

/**
 * Serves the lean methods on `server` ahead of Connect: the server's compat 'stream' listener (the one
 * node:http2 adds for the 'request' listener, Connect's adapter) is taken off and called for every stream
 * the lean path does not serve. Returns false (and changes nothing) when that listener cannot be found.
 */
export function installLeanUnary(
  server: Http2Server | Http2SecureServer,
  methods: Map<string, LeanUnaryMethod>,
  options: Partial<ConnectNodeAdapterOptions> | undefined,
): boolean {
  const compat = server.listeners("stream") as ((...args: unknown[]) => void)[];
  if (compat.length !== 1) return false;
  const limits = validateReadWriteMaxBytes(
    options?.readMaxBytes,
    options?.writeMaxBytes,
    options?.compressMinBytes,
  );
  const settings: LeanSettings = {
    ...limits,
    maxTimeoutMs: options?.maxTimeoutMs ?? Number.MAX_SAFE_INTEGER,
    acceptCompression: options?.acceptCompression ?? [compressionGzip, compressionBrotli],
    binaryOptions: options?.binaryOptions,
  };
  const prepared = new Map<string, PreparedMethod>();
  for (const [path, lean] of methods) {
    const serialization = createMethodSerializationLookup(
      lean.method,
      options?.binaryOptions,
      options?.jsonOptions,
      limits,
    );
    const input = serialization.getI(true);
    const output = serialization.getO(true);
    prepared.set(path, {
      lean,
      parse: (bytes) => input.parse(bytes) as Message,
      serialize: (message) => output.serialize(message),
    });
  }
  const connect = compat[0]!;
  server.removeListener("stream", connect);
  server.on(
    "stream",
    function (
      this: unknown,
      stream: ServerHttp2Stream,
      headers: IncomingHttpHeaders,
      ...rest: unknown[]
    ) {
      const method =
        headers[":method"] === "POST" ? prepared.get(headers[":path"] ?? "") : undefined;
      if (method === undefined || !plainGrpc(headers)) {
        connect.call(this, stream, headers, ...rest);
        return;
      }
      serve(method, settings, stream, headers);
    },
  );
  return true;
}

/** Plain binary gRPC without request compression: what the lean path serves. */
function plainGrpc(headers: IncomingHttpHeaders): boolean {
  const type = headers["content-type"];
  if (type !== "application/grpc" && type !== "application/grpc+proto") return false;
  const encoding = headers["grpc-encoding"];
  return encoding === undefined || encoding === "identity";
}

/** One lean unary call: read the request (envelope checks as Connect's), run the method, answer. */
function serve(
  method: PreparedMethod,
  settings: LeanSettings,
  stream: ServerHttp2Stream,
  headers: IncomingHttpHeaders,
): void {
  const cancellation = new LeanCancellation();
  let answered = false;
  let timer: NodeJS.Timeout | undefined;
  const negotiated = compressionNegotiate(
    settings.acceptCompression as Compression[],
    null,
    stringHeader(headers["grpc-accept-encoding"]),
    "grpc-accept-encoding",
  );
  const responseCompression = negotiated.response;

  const respond = (
    extra: Record<string, string> | undefined,
    body: Uint8Array | undefined,
    trailers: Record<string, string>,
  ) => {
    if (answered) return;
    answered = true;
    if (timer !== undefined) clearTimeout(timer);
    if (stream.destroyed || stream.closed) return;
    const responseHeaders: Record<string, string | number> = {
      ":status": 200,
      "content-type": CONTENT_TYPE,
    };
    if (responseCompression !== null) responseHeaders["grpc-encoding"] = responseCompression.name;
    if (extra !== undefined) Object.assign(responseHeaders, extra);
    try {
      stream.respond(responseHeaders, { waitForTrailers: true });
      stream.once("wantTrailers", () => {
        try {
          stream.sendTrailers(trailers);
        } catch {
          // the stream went away meanwhile
        }
      });
      stream.end(body);
    } catch {
      // the client went away (ERR_HTTP2_INVALID_STREAM, …): nobody to answer
    }
  };
  const fail = (error: unknown) => {
    const err =
      error instanceof ConnectError
        ? error
        : new ConnectError("internal error", Code.Internal, undefined, undefined, error);
    const trailers = new Headers();
    setTrailerStatus(trailers, err);
    const out: Record<string, string> = {};
    trailers.forEach((value, key) => {
      out[key] = value;
    });
    respond(undefined, undefined, out);
    // Answered before the request ended (too large, timeout): the rest of it is discarded.
    if (!stream.readableEnded) stream.resume();
  };

  stream.on("error", noop); // writes racing a disconnect must not crash the process
  stream.once("close", () => {
    if (timer !== undefined) clearTimeout(timer);
    if (!answered) cancellation.abort(new ConnectError("operation was aborted", Code.Canceled));
  });

  const timeout = parseTimeout(stringHeader(headers["grpc-timeout"]), settings.maxTimeoutMs);
  if (timeout.error !== undefined) {
    fail(timeout.error);
    return;
  }
  if (timeout.timeoutMs !== undefined) {
    timer = setTimeout(
      () => {
        const reason = new ConnectError("the operation timed out", Code.DeadlineExceeded);
        cancellation.abort(reason);
        fail(reason);
      },
      Math.min(timeout.timeoutMs, MAX_TIMER_MS),
    );
  }

  // The body, with each envelope's length checked against readMaxBytes as soon as its prefix arrives.
  const chunks: Buffer[] = [];
  let size = 0;
  let nextPrefix = 0;
  const onData = (chunk: Buffer) => {
    chunks.push(chunk);
    size += chunk.length;
    while (size >= nextPrefix + 5) {
      const length = readUint32(chunks, nextPrefix + 1);
      if (length > settings.readMaxBytes) {
        stream.off("data", onData);
        stream.off("end", onEnd);
        fail(
          new ConnectError(
            `message size ${length} is larger than configured readMaxBytes ${settings.readMaxBytes}`,
            Code.ResourceExhausted,
          ),
        );
        return;
      }
      nextPrefix += 5 + length;
    }
  };
  const onEnd = () => {
    if (answered) return;
    let request: Message;
    try {
      request = single(method, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    } catch (e) {
      fail(e);
      return;
    }
    method.lean
      .call(request, cancellation, ServiceParameters.fromHeaders(new StreamHeaders(headers)))
      .then(async ({ response, extensions }) => {
        if (answered) return;
        const message = isMessage(response, method.lean.method.output)
          ? response
          : create(method.lean.method.output, response as never);
        let bytes: Uint8Array;
        try {
          bytes = method.serialize(message);
        } catch (e) {
          // A ConnectError over writeMaxBytes is Connect's own answer; anything else is the handler's message that does not encode.
          throw e instanceof ConnectError && e.code === Code.ResourceExhausted
            ? e
            : method.lean.encodeFailure(e);
        }
        let flags = 0;
        if (responseCompression !== null && bytes.byteLength >= settings.compressMinBytes) {
          bytes = await responseCompression.compress(bytes);
          flags = 1;
        }
        const frame = Buffer.allocUnsafe(5 + bytes.byteLength);
        frame[0] = flags;
        frame.writeUInt32BE(bytes.byteLength, 1);
        frame.set(bytes, 5);
        respond(
          extensions === undefined ? undefined : { "a2a-extensions": extensions },
          frame,
          OK_TRAILERS,
        );
      }, fail)
      .catch(fail);
  };
  stream.on("data", onData);
  stream.once("end", onEnd);
}

/** The one request message of a unary call, with Connect's errors (and their order) for anything else, the A2A refusals for a bad message. */
function single(method: PreparedMethod, body: Buffer): Message {
  let at = 0;
  let first: Message | undefined;
  while (body.length - at >= 5) {
    const flags = body[at]!;
    const length = body.readUInt32BE(at + 1);
    if (body.length - at - 5 < length) break; // incomplete
    if ((flags & 0x01) === 0x01) throw method.lean.refusals.compressed("grpc-encoding");
    const message = parse(method, body.subarray(at + 5, at + 5 + length));
    if (first !== undefined)
      throw new ConnectError(
        "protocol error: received extra input message for unary method",
        Code.Unimplemented,
      );
    first = message;
    at += 5 + length;
  }
  if (at < body.length)
    throw new ConnectError("protocol error: incomplete envelope", Code.InvalidArgument);
  if (first === undefined)
    throw new ConnectError(
      "protocol error: missing input message for unary method",
      Code.Unimplemented,
    );
  return first;
}

/** One request message decoded; one that does not decode is the A2A refusal (Connect's own error over readMaxBytes passes). */
function parse(method: PreparedMethod, bytes: Uint8Array): Message {
  try {
    return method.parse(bytes);
  } catch (e) {
    if (e instanceof ConnectError && e.code === Code.ResourceExhausted) throw e;
    throw method.lean.refusals.undecodable(method.lean.method.input, e);
  }
}

/** The big-endian uint32 at `offset` of the concatenated chunks. */
function readUint32(chunks: readonly Buffer[], offset: number): number {
  let value = 0;
  let skip = offset;
  let need = 4;
  for (const chunk of chunks) {
    if (skip >= chunk.length) {
      skip -= chunk.length;
      continue;
    }
    for (let i = skip; i < chunk.length && need > 0; i++, need--) value = value * 256 + chunk[i]!;
    skip = 0;
    if (need === 0) break;
  }
  return value;
}

function stringHeader(value: string | string[] | undefined): string | null {
  return value === undefined ? null : typeof value === "string" ? value : value.join(", ");
}
