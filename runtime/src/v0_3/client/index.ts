// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * `@protoc-gen-a2a/runtime/v0_3/client`: 1.0-typed clients of A2A 0.3 agents. `createV03JsonRpcClient` speaks
 * 0.3's JSON-RPC wire; `createV03ProtoClient` wraps a client generated from the 0.3 proto (HTTP+JSON `/v1/…`, gRPC
 * `a2a.v1.A2AService`). Both have the methods of the generated 1.0 `<Service>Client` and throw its error classes;
 * `connectAgent` builds them for 0.3 interfaces through `AgentClientSpec.v03Bindings`.
 */
export {
  V03_JSONRPC_CLIENT_METHODS,
  createV03JsonRpcClient,
  type V03JsonRpcClientOptions,
  type V03JsonRpcMethod,
} from "./jsonrpc-client.js";
export {
  V03_PROTO_CLIENT_ROUTES,
  createV03ProtoClient,
  v03ProtoClientOptions,
  type V03ProtoClientOptions,
  type V03ProtoRoute,
} from "./proto-client.js";
export { V03_EXTENSIONS_HEADER, type V1Errors } from "./common.js";
