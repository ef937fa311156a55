// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * @protoc-gen-a2a/runtime/rest: the HTTP+JSON binding (spec §11): the server over a route
 * table compiled by the plugin from `google.api.http`, the route matcher, and the client
 * transport. The generated `create<Service>RestServer` and `<Service>RestClient` are built on these.
 */
export { createRestHandler, type RestServerOptions, type RestServiceDefinition } from "./server.js";
export { RestTransport, type RestClientOptions } from "./client.js";
export type { StreamResumeOptions } from "../http/stream-resume.js";
export {
  matchRoute,
  type CompiledPattern,
  type PatternSegment,
  type PatternVariable,
  type Route,
  type RouteMatch,
  type RouteTable,
} from "./route-matcher.js";
export {
  RestRequestError,
  type QueryKind,
  type RestField,
  type RestPathField,
  type RestRequestShape,
} from "./request-shape.js";
