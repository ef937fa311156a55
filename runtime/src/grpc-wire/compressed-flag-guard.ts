// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Refuses, on a raw node:http2 stream, a gRPC message whose compressed flag is set in a call that
 * names no compression. grpc-js reads such a message as uncompressed and serves it (gRPC over HTTP/2:
 * "If the Message-Encoding header is omitted then the Compressed-Flag must be 0"); grpc-go and
 * grpc-java answer INTERNAL, Connect too. Here: InvalidRequestError (request-errors.ts says why).
 *
 * The request body is watched as node:http2 hands it to the stream (its `push`), before the stack
 * serving the call sees a byte of it: every message prefix's flag is looked at, and at the first
 * compressed one the call is answered (a trailers-only response with ErrorInfo) and the stream reset;
 * nothing of that message, nor anything after it, reaches the stack, which sees the call cancelled.
 * Free of Connect and grpc-js.
 */
import { constants, type IncomingHttpHeaders, type ServerHttp2Stream } from "node:http2";
import type { A2AError } from "../errors/a2a-error.js";
import { statusDetailsBin } from "./status-details-bin.js";

/** Whether the call names a compression of its messages (`grpc-encoding` other than identity). */
export function namesCompression(headers: IncomingHttpHeaders): boolean {
  const encoding = headers["grpc-encoding"];
  return encoding !== undefined && encoding !== "identity";
}

/** Watches the request body of `stream` (a call that names no compression) and answers `refusal` at the first compressed message. */
export function refuseCompressedMessages(stream: ServerHttp2Stream, refusal: A2AError): void {
  const push = stream.push;
  const prefix = Buffer.alloc(5);
  /** Bytes of the current message prefix seen (0: at a message boundary). */
  let prefixAt = 0;
  /** Bytes of the current message still to come. */
  let skip = 0;
  let refused = false;
  stream.push = function (
    this: ServerHttp2Stream,
    chunk: unknown,
    encoding?: BufferEncoding,
  ): boolean {
    // After a refusal no data goes through, but the end of the body (null) does: node:http2 destroys a
    // closed stream only once its readable side has ended, and a stream never destroyed stays counted
    // against the connection's concurrent streams (after 100 of them, every new stream is refused with
    // ENHANCE_YOUR_CALM, then the session fails).
    if (refused) return chunk === null ? push.call(this, null) : false;
    if (chunk instanceof Uint8Array) {
      for (let i = 0; i < chunk.length; ) {
        if (skip > 0) {
          const n = Math.min(skip, chunk.length - i);
          skip -= n;
          i += n;
          continue;
        }
        const byte = chunk[i++]!;
        if (prefixAt === 0 && (byte & 0x01) === 0x01) {
          refused = true;
          // Not from inside node:http2's read callback.
          process.nextTick(answer, stream, refusal);
          return false;
        }
        prefix[prefixAt++] = byte;
        if (prefixAt === 5) {
          skip = prefix.readUInt32BE(1);
          prefixAt = 0;
        }
      }
    }
    return push.call(this, chunk, encoding);
  };
}

/** A trailers-only answer with `refusal`, then RST_STREAM NO_ERROR (the client stops sending). */
function answer(stream: ServerHttp2Stream, refusal: A2AError): void {
  try {
    if (!stream.headersSent) {
      stream.respond(
        {
          ":status": 200,
          "content-type": "application/grpc+proto",
          "grpc-status": String(refusal.spec.grpcCode),
          "grpc-message": encodeURIComponent(refusal.message),
          "grpc-status-details-bin": statusDetailsBin(
            refusal.spec.grpcCode,
            refusal.message,
            refusal.reason,
          ),
        },
        { endStream: true },
      );
    }
  } catch {
    // the stream went away meanwhile
  }
  try {
    stream.close(constants.NGHTTP2_NO_ERROR);
  } catch {
    // already closed
  }
}
