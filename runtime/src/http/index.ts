// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * @protoc-gen-a2a/runtime/http: serving A2A over HTTP. A framework-neutral exchange
 * (`UniversalHandler`) served natively on node:http / node:http2 (`serveNode`) or as a fetch
 * handler (`serveFetch`: Deno, Bun, workers); Agent Card serving with caching and an interface
 * list built from what is mounted; CORS for web pages on other origins; SSE encoding and parsing; JSON media types; and the client
 * side of push notifications, the webhook receiver.
 */
export type { UniversalBufferedResponse, UniversalHandler, UniversalRequest, UniversalResponse, UniversalStreamResponse } from "./universal.js";
export { DEFAULT_STALLED_WRITE_TIMEOUT_MS, serveNode, type NodeRequestListener, type ServeNodeOptions } from "./node-adapter.js";
export { serveFetch, type ServeFetchOptions } from "./fetch-adapter.js";
export {
  buildSupportedInterfaces,
  checkAgentCard,
  composeHandlers,
  serveAgentCard,
  type AgentCardProblem,
  type AgentInterfaceJson,
  type MountedInterfaces,
  type PrefixedHandler,
  type ServeAgentCardOptions,
} from "./agent-card.js";
export { SSE_HEADERS, SSE_KEEP_ALIVE, SseParser, encodeSseEvent, withKeepAlive, type SseEvent } from "./sse.js";
export { openEventStream, type EventStreamFraming } from "./event-stream.js";
export { isJsonMediaType, parseMediaType, type MediaType } from "./content-type.js";
export { A2A_CORS_ALLOWED_HEADERS, A2A_CORS_EXPOSED_HEADERS, corsPolicy, withCors, type CorsOptions, type CorsPolicy } from "./cors.js";
export { createPushNotificationReceiver, type PushExpectation, type PushNotificationReceiverOptions } from "./push-receiver.js";
