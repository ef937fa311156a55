// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Other JSON-RPC wires on the same endpoint: a wire is a protocol version whose method names and
 * JSON shapes differ from the service's own (A2A 0.3: `message/send`, `kind` discriminators,
 * kebab-case states), served by the same handler through a translation. The server hands a
 * request to a wire when the wire knows its method and the request names no A2A-Version, or the
 * wire's one; everything else (auth, limits, dispatch, SSE) is the server's pipeline.
 */
import type { JsonValue } from "@bufbuild/protobuf";
import type { A2AError, JsonRpcErrorObject } from "../errors/a2a-error.js";
import type { HeaderSource } from "../pipeline/call-context.js";
import { normalizeVersion } from "../pipeline/service-parameters.js";

/** One JSON-RPC method of a wire. */
export interface JsonRpcWireMethod {
  /** The service operation (RPC name) the method is served by: "SendMessage". */
  readonly operation: string;
  /** The method's params → the operation's request as ProtoJSON. Throws (any error) when they cannot be read: InvalidParams. */
  decodeParams(
    params: JsonValue,
    parameters: { readonly get: (name: string) => string | undefined },
  ): JsonValue;
  /** The operation's response (ProtoJSON) → the method's `result`. */
  encodeResult(result: JsonValue): JsonValue;
}

/** A protocol version spoken over JSON-RPC beside the service's own. */
export interface JsonRpcWire {
  /** The A2A protocol version of this wire ("0.3"): the negotiated version of its calls. */
  readonly version: string;
  /** Method name → method. */
  readonly methods: ReadonlyMap<string, JsonRpcWireMethod>;
  /** An A2A error as this wire's error object (its codes). */
  encodeError(error: A2AError): JsonRpcErrorObject;
  /** The request's headers as this wire names them, read as the service's (e.g. X-A2A-Extensions as A2A-Extensions). */
  headers?(request: HeaderSource): HeaderSource;
}

/**
 * The wire that takes a request: one whose methods include `method`, when the request names no
 * A2A-Version (or an empty one) or exactly the wire's version (its major.minor).
 */
export function wireOf(
  wires: readonly JsonRpcWire[] | undefined,
  method: string,
  requestedVersion: string | undefined,
): { wire: JsonRpcWire; method: JsonRpcWireMethod } | undefined {
  if (wires === undefined) return undefined;
  const requested = requestedVersion?.trim() ?? "";
  for (const wire of wires) {
    const found = wire.methods.get(method);
    if (found === undefined) continue;
    if (requested === "" || normalizeVersion(requested) === normalizeVersion(wire.version))
      return { wire, method: found };
  }
  return undefined;
}
