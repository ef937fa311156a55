// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * @protoc-gen-a2a/runtime/jsonrpc: the JSON-RPC 2.0 binding (spec §9). The generated
 * `create<Service>JsonRpcServer` and `<Service>JsonRpcClient` are built on these.
 */
export {
  createJsonRpcHandler,
  type JsonRpcServerOptions,
  type JsonRpcServiceDefinition,
} from "./server.js";
export { JsonRpcTransport, type JsonRpcClientOptions } from "./client.js";
export type { StreamResumeOptions } from "../http/stream-resume.js";
export type { JsonRpcWire, JsonRpcWireMethod } from "./wire.js";
export { JsonRpcParamsError, fromJsonRpcParams, toJsonRpcParams } from "./params.js";
