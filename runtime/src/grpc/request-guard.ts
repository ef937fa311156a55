// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The A2A service's request messages on Connect's own paths (gRPC calls off the lean path, gRPC-web,
 * the Connect protocol), read before Connect parses them, so that bad input gets the A2A answer
 * instead of Connect's: a protobuf message that does not decode (or nests deeper than the decoder's
 * recursion limit) is InvalidRequestError, where Connect answers INTERNAL "parse binary: <the
 * decoder's text>"; a message flagged compressed in a call that names no compression is
 * InvalidRequestError too (grpc-wire/request-errors.ts), where Connect answers INTERNAL; a JSON message is
 * judged as the HTTP+JSON binding judges its body (too deep, not JSON, not the message), where Connect
 * answers INVALID_ARGUMENT without ErrorInfo.
 *
 * Connect has no hook between reading a request and parsing it, so each handler of the service in
 * `router.handlers` is wrapped: the request body goes through {@link checkedBody}, which holds the
 * bytes of the first message (a unary or server-streaming method has one), decodes them once with the
 * options Connect will use, and then passes every byte on unchanged, or throws the ConnectError to
 * answer: Connect sends an error from the request body as it sends its own (trailers for gRPC and
 * gRPC-web, a JSON error body for the Connect protocol), ErrorInfo included. What else Connect refuses
 * (sizes over readMaxBytes, incomplete envelopes, unknown compressions) is left to it. The price: such
 * calls decode their request twice (the lean path, plain gRPC unary calls, checks while parsing).
 */
import {
  fromBinary,
  type BinaryReadOptions,
  type DescMessage,
  type DescService,
} from "@bufbuild/protobuf";
import type { ConnectError, ConnectRouter } from "@connectrpc/connect";
import type {
  Compression,
  UniversalHandler,
  UniversalServerRequest,
} from "@connectrpc/connect/protocol";
import { compressionBrotli, compressionGzip } from "@connectrpc/connect-node";
import { DEFAULT_GRPC_READ_MAX_BYTES } from "../grpc-wire/limits.js";

/** How the A2A service answers a request message it cannot read (built by registerGrpcService). */
export interface RequestRefusals {
  /** A message that does not decode as the method's input (`cause`: the decoder's error). */
  undecodable(input: DescMessage, cause: unknown): ConnectError;
  /** A message flagged compressed in a call whose `header` names no compression. */
  compressed(header: string): ConnectError;
  /** The answer to a ProtoJSON message (UTF-8 bytes), or undefined when it decodes as `input`. */
  json(input: DescMessage, bytes: Uint8Array): ConnectError | undefined;
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

/** How the request message of a content type comes: in an envelope or as the whole body, in which codec, compressed as which header says. */
interface Framing {
  readonly enveloped: boolean;
  readonly json: boolean;
  readonly encodingHeader: string;
}

const GRPC = { enveloped: true, json: false, encodingHeader: "grpc-encoding" } as const;
/** The content types Connect serves (its matchers; `; charset=utf-8` stripped from JSON ones first). */
const FRAMINGS: Readonly<Record<string, Framing>> = {
  "application/grpc": GRPC,
  "application/grpc+proto": GRPC,
  "application/grpc-web": GRPC,
  "application/grpc-web+proto": GRPC,
  "application/grpc+json": { ...GRPC, json: true },
  "application/grpc-web+json": { ...GRPC, json: true },
  "application/connect+proto": {
    enveloped: true,
    json: false,
    encodingHeader: "connect-content-encoding",
  },
  "application/connect+json": {
    enveloped: true,
    json: true,
    encodingHeader: "connect-content-encoding",
  },
  "application/proto": { enveloped: false, json: false, encodingHeader: "content-encoding" },
  "application/json": { enveloped: false, json: true, encodingHeader: "content-encoding" },
};

const CHARSET = /;\s?charset=utf-?8$/;

function framingOf(contentType: string | null): Framing | undefined {
  return contentType === null
    ? undefined
    : FRAMINGS[contentType.toLowerCase().replace(CHARSET, "")];
}

const guarded = new WeakSet<UniversalHandler>();

/** Wraps the handlers of `service` in `router.handlers` (see the file comment). Call it right after registering the service. */
export function guardRequestMessages(
  router: ConnectRouter,
  service: DescService,
  refusals: RequestRefusals,
): void {
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
    const wrapped: UniversalHandler = Object.assign(function guardedHandler(
      request: UniversalServerRequest,
    ) {
      const framing =
        request.method === "POST" ? framingOf(request.header.get("content-type")) : undefined;
      const body = request.body;
      if (
        framing === undefined ||
        typeof body !== "object" ||
        body === null ||
        !(Symbol.asyncIterator in body)
      )
        return handler(request);
      const encoding = request.header.get(framing.encodingHeader);
      return handler({
        ...request,
        body: checkedBody(body as AsyncIterable<Uint8Array>, input, framing, encoding, settings),
      });
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
  framing: Framing,
  encoding: string | null,
  settings: CheckSettings,
): AsyncGenerator<Uint8Array> {
  const { enveloped, encodingHeader } = framing;
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
        if (compressed && (encoding === null || encoding === "" || encoding === "identity"))
          throw settings.refusals.compressed(encodingHeader);
        length = new DataView(prefix.buffer, prefix.byteOffset, 5).getUint32(1);
        if (length > settings.readMaxBytes) checking = false;
      }
      if (checking && size >= 5 + length) {
        await check(
          joined(held, size).subarray(5, 5 + length),
          compressed ? encoding : null,
          input,
          framing.json,
          settings,
        );
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
    if (!enveloped)
      await check(
        joined(held, size),
        encoding === "identity" ? null : encoding,
        input,
        framing.json,
        settings,
      );
    yield* held;
  }
}

/** Throws the refusal when `bytes` (compressed with `encoding`, or not; protobuf binary, or ProtoJSON) do not decode as `input`. */
async function check(
  bytes: Uint8Array,
  encoding: string | null,
  input: DescMessage,
  json: boolean,
  settings: CheckSettings,
): Promise<void> {
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
  if (json) {
    const refusal = settings.refusals.json(input, message);
    if (refusal !== undefined) throw refusal;
    return;
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
