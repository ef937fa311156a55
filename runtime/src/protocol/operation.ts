// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Operation descriptors: what every binding needs to know about an RPC to decode
 * its request, call the handler and encode the response.
 */
import type { DescMessage } from "@bufbuild/protobuf";

/** How an operation answers: one response, or a stream of them. */
export type OperationKind = "unary" | "server_streaming";

/** One RPC of the service. The plugin emits one per RPC, in proto order. */
export interface OperationDescriptor<I extends DescMessage = DescMessage, O extends DescMessage = DescMessage> {
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
