// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * One operation (RPC) of a service, as every emitter and the task runtime's model read it. Its own
 * module so that service-model.ts (which builds it) and task-runtime.ts (which the service model
 * calls) both import it without importing each other.
 */
import type { DescMessage, DescMethod } from "@bufbuild/protobuf";
import type { HttpBinding } from "./http-binding.js";

/** How an operation returns: one response, or a stream of them (server streaming). */
export type OperationKind = "unary" | "server_streaming";

export interface OperationModel {
  readonly desc: DescMethod;
  /** RPC name, "SendMessage"; also the JSON-RPC method name (spec §5.3: PascalCase = RPC name). */
  readonly name: string;
  /** Handler and client method name, "sendMessage" (`then$` for `rpc then`: model/operation-names.ts). */
  readonly localName: string;
  /**
   * JSON-RPC 2.0 `method` value the documents name: the RPC name, or `<Service>.<Rpc>` when
   * another service of the file has an RPC of that name (the method table then accepts both).
   */
  readonly jsonRpcMethod: string;
  /** gRPC path, "/lf.a2a.v1.A2AService/SendMessage". */
  readonly grpcPath: string;
  readonly kind: OperationKind;
  readonly input: DescMessage;
  readonly output: DescMessage;
  /** Every HTTP binding: the google.api.http rule, its additional_bindings, then spec aliases. */
  readonly httpBindings: readonly HttpBinding[];
}
