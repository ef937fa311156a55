// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * gRPC and gRPC-web with the JSON codec (`application/grpc+json`, `application/grpc-web+json`).
 * The A2A gRPC binding is protobuf (spec §10); Connect serves the JSON codecs too, but answers some
 * bad JSON with no response at all: V8's parse error can quote a lone UTF-16 surrogate, Connect
 * percent-encodes the message into `grpc-message` with `encodeURIComponent`, which throws, and the
 * call hangs while a log line is printed for every such request. So both are refused before
 * Connect sees them, unless asked for (`jsonCodecs: true`). The Connect protocol's JSON
 * (`application/json`, what browsers use) is not affected: its errors are JSON bodies.
 */

const JSON_CODEC = /^application\/grpc(?:-web)?\+json\s*(?:;|$)/i;

/** Whether a request's content type is gRPC or gRPC-web with the JSON codec. */
export function isGrpcJsonCodec(contentType: string | undefined): boolean {
  return contentType !== undefined && JSON_CODEC.test(contentType);
}

/** Answers a refused JSON-codec request: 415 with INVALID_ARGUMENT in a trailers-only gRPC(-web) response. */
export function refuseGrpcJsonCodec(
  req: {
    readonly headers: Readonly<Record<string, string | string[] | undefined>>;
    resume(): unknown;
  },
  res: { writeHead(status: number, headers: Record<string, string>): unknown; end(): unknown },
): void {
  const web = /^application\/grpc-web/i.test(String(req.headers["content-type"]));
  res.writeHead(415, {
    "content-type": web ? "application/grpc-web+proto" : "application/grpc",
    "grpc-status": "3",
    "grpc-message": encodeURIComponent(
      "unsupported content type: the A2A gRPC binding is protobuf (application/grpc, application/grpc-web)",
    ),
  });
  res.end();
  // The request body, if any, is not read.
  req.resume();
}
