// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * A service parameter of spec §3.2.6: case-insensitive key, case-sensitive value,
 * sent as an HTTP header (JSON-RPC §9.2, HTTP+JSON §11.2) or lowercase gRPC
 * metadata (§10.2).
 */
export interface ServiceParameter {
  /** Canonical spelling, "A2A-Version". */
  readonly name: string;
  /** gRPC metadata key, "a2a-version". */
  readonly grpcKey: string;
  /** Whether HTTP bindings also accept it as a query parameter (§3.6.1 allows it for the version). */
  readonly query: boolean;
  readonly description: string;
  /** A value to show in API documents (Swagger UI fills it into "Try it out"). */
  readonly example?: string;
}

/** The service parameters defined by A2A v1.0. */
export const serviceParameters: readonly ServiceParameter[] = [
  {
    name: "A2A-Version",
    grpcKey: "a2a-version",
    query: true,
    description:
      "The A2A protocol version (Major.Minor) the client uses. Empty means 0.3; an unsupported version is answered with VersionNotSupportedError (§3.6).",
    example: "1.0",
  },
  {
    name: "A2A-Extensions",
    grpcKey: "a2a-extensions",
    query: false,
    description:
      "Comma-separated extension URIs the client wants to use for the request (§3.2.6, §4.6).",
  },
];
