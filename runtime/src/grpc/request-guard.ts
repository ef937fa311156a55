// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The A2A service's request messages on Connect's own paths (gRPC calls off the lean path, gRPC-web,
 * the Connect protocol), read before Connect parses them, so that bad input gets the A2A answer
 * instead of Connect's: a protobuf message that does not decode (or nests deeper than the decoder's
 * recursion limit) is InvalidRequestError, where Connect answers INTERNAL "parse binary: <the
 * decoder's text>"; a message flagged compressed in a call that names no compression is
 * InvalidRequestError too (request-errors.ts), where Connect answers INTERNAL.
 *
 * Connect has no hook between reading a request and parsing it, so each handler of the service in
 * `router.handlers` is wrapped: the request body goes through {@link checkedBody}, which holds the
 * bytes of the first message (a unary or server-streaming method has one), decodes them once with the
 * options Connect will use, and then passes every byte on unchanged, or throws the ConnectError to
 * answer: Connect sends an error from the request body as it sends its own (trailers for gRPC and
 * gRPC-web, a JSON error body for the Connect protocol), ErrorInfo included. What else Connect refuses
 * (sizes over readMaxBytes, incomplete envelopes, unknown compressions, JSON) is left to it. The price:
 * such calls decode their request twice (the lean path, plain gRPC unary calls, checks while parsing).
 */
import { fromBinary, type BinaryReadOptions, type DescMessage, type DescService } from "@bufbuild/protobuf";
import type { ConnectError, ConnectRouter } from "@connectrpc/connect";
import type { Compression, UniversalHandler, UniversalServerRequest } from "@connectrpc/connect/protocol";
import { compressionBrotli, compressionGzip } from "@connectrpc/connect-node";
import { DEFAULT_GRPC_READ_MAX_BYTES } from "./limits.js";

/** How the A2A service answers a request message it cannot read (built by registerGrpcService). */
export interface RequestRefusals {
  /** A message that does not decode as the method's input (`cause`: the decoder's error). */
  undecodable(input: DescMessage, cause: unknown): ConnectError;
  /** A message flagged compressed in a call whose `header` names no compression. */
  compressed(header: string): ConnectError;
}

/** What the adapter serving a router reads with: the check decodes exactly as Connect will. */
export interface RouterReadOptions {
  readonly readMaxBytes?: number | undefined;
  readonly binaryOptions?: Partial<BinaryReadOptions> | undefined;
  readonly acceptCompression?: readonly Compression[] | undefined;
}

const readOptions = new WeakMap<object, RouterReadOptions>();

/** Tells the request check of `router` the adapter's options (listenGrpc and mountConnectRoutes do, before their routes run). */
export function setRouterReadOptions(router: object, options: RouterReadOptions): void {
  readOptions.set(router, options);
}

/** The content types whose messages are protobuf binary, and the header naming their compression. */
const FRAMINGS: Readonly<Record<string, { readonly enveloped: boolean; readonly encodingHeader: string }>> = {
  "application/grpc": { enveloped: true, encodingHeader: "grpc-encoding" },
  "application/grpc+proto": { enveloped: true, encodingHeader: "grpc-encoding" },
  "application/grpc-web": { enveloped: true, encodingHeader: "grpc-encoding" },
  "application/grpc-web+proto": { enveloped: true, encodingHeader: "grpc-encoding" },
  "application/connect+proto": { enveloped: true, encodingHeader: "connect-content-encoding" },
  "application/proto": { enveloped: false, encodingHeader: "content-encoding" },
};

const guarded = new WeakSet<UniversalHandler>();

/** Wraps the handlers of `service` in `router.handlers` (see the file comment). Call it right after registering the service. */
export function guardRequestMessages(router: ConnectRouter, service: DescService, refusals: RequestRefusals): void {
  const options = readOptions.get(router) ?? {};
  const settings: CheckSettings = {
    readMaxBytes: options.readMaxBytes ?? DEFAULT_GRPC_READ_MAX_BYTES,
    binaryOptions: options.binaryOptions,
    compressions: options.acceptCompression ?? [compressionGzip, compressionBrotli],
    refusals,
  };
  const handlers = router.handlers;
  for (let i = 0; i < handlers.length; i++) {
    const handler = handlers[i]!;
    if (handler.service !== service || guarded.has(handler)) continue;
    const input = handler.method.input;
    const wrapped: UniversalHandler = Object.assign(function guardedHandler(request: UniversalServerRequest) {
      const framing = request.method === "POST" ? FRAMINGS[(request.header.get("content-type") ?? "").toLowerCase()] : undefined;
      const body = request.body;
      if (framing === undefined || typeof body !== "object" || body === null || !(Symbol.asyncIterator in body)) return handler(request);
      const encoding = request.header.get(framing.encodingHeader);
      return handler({ ...request, body: checkedBody(body as AsyncIterable<Uint8Array>, input, framing.enveloped, framing.encodingHeader, encoding, settings) });
    }, handler);
    guarded.add(wrapped);
    handlers[i] = wrapped;
  }
}

interface CheckSettings {
  readonly readMaxBytes: number;
  readonly binaryOptions: Partial<BinaryReadOptions> | undefined;
  readonly compressions: readonly Compression[];
  readonly refusals: RequestRefusals;
}

/**
 * The request body, unchanged, once its first message has been checked: held until that message is
 * complete (at most readMaxBytes; a longer one is left to Connect's own limit), then decoded; a
 * message that does not decode, or is flagged compressed without a compression named, throws.
 */
async function* checkedBody(
  body: AsyncIterable<Uint8Array>,
  input: DescMessage,
  enveloped: boolean,
  encodingHeader: string,
  encoding: string | null,
  settings: CheckSettings,
): AsyncGenerator<Uint8Array> {
  const held: Uint8Array[] = [];
  let size = 0;
  let checking = true;
  /** The first envelope's length and compressed flag, once its prefix has arrived. */
  let length = -1;
  let compressed = false;
  for await (const chunk of body) {
    if (!checking) {
      yield chunk;
      continue;
    }
    held.push(chunk);
    size += chunk.byteLength;
    if (enveloped && size >= 5) {
      if (length < 0) {
        const prefix = joined(held, size).subarray(0, 5);
        compressed = (prefix[0]! & 0x01) === 0x01;
        if (compressed && (encoding === null || encoding === "" || encoding === "identity")) throw settings.refusals.compressed(encodingHeader);
        length = new DataView(prefix.buffer, prefix.byteOffset, 5).getUint32(1);
        if (length > settings.readMaxBytes) checking = false;
      }
      if (checking && size >= 5 + length) {
        await check(joined(held, size).subarray(5, 5 + length), compressed ? encoding : null, input, settings);
        checking = false;
      }
    } else if (!enveloped && size > settings.readMaxBytes) {
      checking = false;
    }
    if (!checking) {
      yield* held;
      held.length = 0;
    }
  }
  if (checking) {
    // The end of the body: a Connect unary message (the whole body) is complete; an incomplete envelope is Connect's to answer.
    if (!enveloped) await check(joined(held, size), encoding === "identity" ? null : encoding, input, settings);
    yield* held;
  }
}

/** Throws the refusal when `bytes` (compressed with `encoding`, or not) do not decode as `input`. */
async function check(bytes: Uint8Array, encoding: string | null, input: DescMessage, settings: CheckSettings): Promise<void> {
  let message = bytes;
  if (encoding !== null && encoding !== "") {
    const compression = settings.compressions.find((c) => c.name === encoding);
    // An unknown compression, or bytes that do not inflate: Connect's own answer.
    if (compression === undefined) return;
    try {
      message = await compression.decompress(bytes, settings.readMaxBytes);
    } catch {
      return;
    }
  }
  try {
    fromBinary(input, message, settings.binaryOptions);
  } catch (e) {
    throw settings.refusals.undecodable(input, e);
  }
}

/** The held chunks as one array (the one chunk itself when there is one). */
function joined(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}
