// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import type { JsonObject } from "@bufbuild/protobuf";
import { V03_VERSION } from "./jsonrpc-wire.js";

/** The bindings A2A 0.3 has (its `TransportProtocol`): the same names as 1.0's. */
const V03_BINDINGS = new Set(["JSONRPC", "HTTP+JSON", "GRPC"]);

/**
 * The Agent Card's `supportedInterfaces` with one more entry per core-binding 1.x interface, at the
 * same URL with `protocolVersion: "0.3"` (spec §3.6: an agent MAY list one interface per version,
 * at the same URL or different ones), after all 1.x entries so that 1.0 clients keep their first
 * choice. Give the result to `hybridAgentCard` for the 0.3 top-level fields 0.3 clients read.
 */
export function withV03Interfaces<I extends JsonObject>(supportedInterfaces: readonly I[]): I[] {
  const added = supportedInterfaces
    .filter(
      (i) =>
        typeof i["protocolBinding"] === "string" &&
        V03_BINDINGS.has(i["protocolBinding"]) &&
        String(i["protocolVersion"] ?? "").startsWith("1."),
    )
    .map((i) => ({ ...i, protocolVersion: V03_VERSION }));
  return [...supportedInterfaces, ...added];
}
