// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/** Serving A2A 0.3 beside 1.0: the wires, the 0.3 service's handler, the routers and the card's 0.3 interfaces. */
export {
  V03_JSONRPC_METHODS,
  V03_VERSION,
  v03ErrorObject,
  v03Headers,
  v03JsonRpcWire,
} from "./jsonrpc-wire.js";
export { createV03Handler, V03_PROTO_OPERATIONS, type V1ServiceBinding } from "./handler.js";
export {
  requestsV03,
  routeRestVersions,
  serveAgentCardVersions,
  v03RestErrorBody,
  type RestVersionRoutes,
} from "./rest.js";
export { withV03Interfaces } from "./interfaces.js";
export { V03_PUSH_PAYLOAD } from "./push-payload.js";
