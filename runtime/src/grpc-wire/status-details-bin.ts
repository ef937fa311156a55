// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * `grpc-status-details-bin` for the answers the gRPC stacks give on a raw node:http2 stream, before
 * (or instead of) Connect or grpc-js: no generated google.rpc code is at hand there, so the
 * google.rpc.Status is encoded by hand. Free of Connect and grpc-js: both stacks use it.
 */
import { ERROR_DOMAIN } from "../errors/a2a-error.js";

/** A google.rpc.Status {code, message, details: [ErrorInfo {reason, domain}]} in protobuf binary, base64 (the header's form). */
export function statusDetailsBin(code: number, message: string, reason: string): string {
  const field = (tag: number, bytes: Buffer) =>
    Buffer.concat([Buffer.from([tag]), varint(bytes.length), bytes]);
  const errorInfo = Buffer.concat([
    field(0x0a, Buffer.from(reason)),
    field(0x12, Buffer.from(ERROR_DOMAIN)),
  ]);
  const any = Buffer.concat([
    field(0x0a, Buffer.from("type.googleapis.com/google.rpc.ErrorInfo")),
    field(0x12, errorInfo),
  ]);
  return Buffer.concat([
    Buffer.from([0x08]),
    varint(code),
    field(0x12, Buffer.from(message)),
    field(0x1a, any),
  ]).toString("base64");
}

function varint(n: number): Buffer {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return Buffer.from(out);
}
