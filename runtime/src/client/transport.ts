// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The seam between a typed client and a binding (connect-es's `Transport`): the generated
 * `<Service>TransportClient` has one method per RPC and hands every call to a `Transport`;
 * the JSON-RPC, HTTP+JSON and gRPC transports of this package implement it, and so can a
 * custom binding's (spec §12).
 */
import type { MessageInitShape, MessageShape } from "@bufbuild/protobuf";
import type { CallOptions } from "./call-options.js";
import type { OperationDescriptor } from "../protocol/operation.js";

export interface Transport {
  /** Sends a unary call; resolves with the response, or rejects with an `A2AError` (the generated classes). */
  unary<I extends OperationDescriptor>(
    operation: I,
    request: MessageInitShape<I["input"]>,
    options?: CallOptions,
  ): Promise<MessageShape<I["output"]>>;
  /** Opens a server stream; yields each response, and throws an `A2AError` when it fails. */
  stream<I extends OperationDescriptor>(
    operation: I,
    request: MessageInitShape<I["input"]>,
    options?: CallOptions,
  ): AsyncIterable<MessageShape<I["output"]>>;
}
