// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Operation descriptors: what every binding needs to know about an RPC to decode
 * its request, call the handler and encode the response.
 */
import type { DescMessage, DescMethod } from "@bufbuild/protobuf";

/** How an operation answers: one response, or a stream of them. */
export type OperationKind = "unary" | "server_streaming";

/** One RPC of the service. The plugin emits one per RPC, in proto order. */
export interface OperationDescriptor<
  I extends DescMessage = DescMessage,
  O extends DescMessage = DescMessage,
> {
  /** RPC name, "SendMessage": the JSON-RPC method and the last part of the gRPC path. */
  readonly name: string;
  /** Handler method name, "sendMessage". */
  readonly localName: string;
  readonly kind: OperationKind;
  /** Request message schema (protobuf-es). */
  readonly input: I;
  /** Response message schema; for streaming operations, the schema of each event. */
  readonly output: O;
  /** gRPC method path, "/lf.a2a.v1.A2AService/SendMessage". */
  readonly grpcPath: string;
}

/** A protobuf-es method descriptor of an operation (`<Service>.method.<name>` of a `_pb.ts` file). */
type OperationMethod = DescMethod & { readonly methodKind: OperationKind };

/**
 * The descriptor {@link operationOf} builds from a method: the method's own schemas and kind, the RPC name as a literal.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export type OperationOf<M extends OperationMethod, N extends string> = OperationDescriptor<
  M["input"],
  M["output"]
> & {
  readonly name: N;
  readonly kind: M["methodKind"];
};

/**
 * The descriptor of one RPC, read from its protobuf-es method descriptor (the `GenService` of the
 * proto's `_pb.ts` file): kind, request and response schemas and gRPC path come from there, so the
 * generated operation tables restate nothing the descriptor holds. `name` is the RPC's name, given
 * as a literal so that the table's types know it; `localName` only when the generated handler
 * method's name differs from protobuf-es's (a reserved name, escaped).
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function operationOf<M extends OperationMethod, const N extends string>(
  method: M,
  name: N,
  localName: string = method.localName,
): OperationOf<M, N> {
  if (method.name !== name)
    throw new Error(
      `operationOf: the method is ${method.parent.typeName}.${method.name}, not ${name}`,
    );
  return {
    name,
    localName,
    kind: method.methodKind,
    input: method.input,
    output: method.output,
    grpcPath: `/${method.parent.typeName}/${method.name}`,
  };
}
