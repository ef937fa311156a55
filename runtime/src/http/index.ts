// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * @protoc-gen-a2a/runtime/http: serving A2A over HTTP. A framework-neutral exchange
 * (`UniversalHandler`) served natively on node:http / node:http2 (`serveNode`) or as a fetch
 * handler (`serveFetch`: Deno, Bun, workers); Agent Card serving with caching and an interface
 * list built from what is mounted; the generated OpenAPI/OpenRPC documents with the mounted `servers`, and a Swagger UI API
 * reference page (from the optional peer `swagger-ui-dist`); CORS for web pages on other origins; SSE encoding and parsing; JSON
 * media types; the client side of push notifications, the webhook receiver; and `createA2AHttpServer`, a node:http
 * server with connection limits (header size, slowloris timeouts, keep-alive) and JSON error bodies.
 */
export type {
  UniversalBufferedResponse,
  UniversalHandler,
  UniversalRequest,
  UniversalResponse,
  UniversalStreamResponse,
} from "./universal.js";
export {
  DEFAULT_LINGERING_CLOSE_BYTES,
  DEFAULT_LINGERING_CLOSE_MS,
  DEFAULT_MAX_PENDING_WRITE_BYTES,
  DEFAULT_STALLED_WRITE_TIMEOUT_MS,
  pendingWriteStats,
  serveNode,
  type NodeRequestListener,
  type ServeNodeOptions,
} from "./node-adapter.js";
export {
  WriteBudget,
  type PendingWrite,
  type PendingWritesStats,
  type WatchOptions,
} from "../pipeline/write-budget.js";
export { serveFetch, type ServeFetchOptions } from "./fetch-adapter.js";
export {
  DEFAULT_CONNECTIONS_CHECKING_INTERVAL_MS,
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
  DEFAULT_MAX_HEADER_BYTES,
  DEFAULT_REQUEST_TIMEOUT_MS,
  applyHttpServerLimits,
  createA2AHttpServer,
  nodeHttpServerOptions,
  type HttpServerLimits,
} from "./server-limits.js";
export {
  buildSupportedInterfaces,
  checkAgentCard,
  composeHandlers,
  serveAgentCard,
  type AgentCardProblem,
  type AgentInterfaceJson,
  type CustomInterface,
  type MountedInterfaces,
  type PrefixedHandler,
  type ServeAgentCardOptions,
} from "./agent-card.js";
/**
 * Agent Card signatures (A2A §8.4): JWS over the RFC 8785 canonical form of the card, compatible with
 * `@a2a-js/sdk` and `a2a-sdk` (Python). `serveAgentCard(card, { sign })` serves a signed card. Needs the
 * optional peer dependencies `jose` and `canonicalize`, loaded on first use.
 */
export {
  AgentCardSignatureError,
  canonicalizeAgentCard,
  signAgentCard,
  verifyAgentCard,
  type AgentCardJwk,
  type AgentCardJws,
  type AgentCardKey,
  type AgentCardKeyResolver,
  type AgentCardPayloadForm,
  type AgentCardSignatureFailure,
  type AgentCardSignatureHeader,
  type AgentCardSignatureReason,
  type AgentCardVerification,
  type AgentCardVerificationKeys,
  type SignAgentCardOptions,
  type VerifiedAgentCardSignature,
  type VerifyAgentCardOptions,
} from "../card-signature/index.js";
/** API documents (OpenAPI, OpenRPC) with the mounted `servers`, and the Swagger UI reference page on the OpenAPI one. */
export {
  serveApiDocument,
  serveApiReference,
  type ApiDocument,
  type ServeApiDocumentOptions,
  type ServeApiReferenceOptions,
} from "./api-docs.js";
/** An Agent Card's security schemes and requirements as OpenAPI `components.securitySchemes` and `security`, for `serveApiDocument`'s `security`. */
export { openApiSecurity, type OpenApiSecurity } from "./openapi-security.js";
export {
  SSE_HEADERS,
  SSE_KEEP_ALIVE,
  SseParser,
  encodeSseEvent,
  withKeepAlive,
  type SseEvent,
} from "./sse.js";
export { openEventStream, type EventStreamFraming } from "./event-stream.js";
/** Resuming dropped SendStreamingMessage/SubscribeToTask streams in the HTTP clients (SubscribeToTask with `Last-Event-ID`). */
export {
  DEFAULT_STREAM_RESUME,
  RESUMABLE_STREAM_OPERATIONS,
  RESUME_OPERATION,
  StreamConnectionLost,
  resumableStream,
  resumeSettings,
  type OpenStreamConnection,
  type ReceivedEvent,
  type ResumableStreamClientOptions,
  type ResumePoint,
  type ResumeSettings,
  type StreamResumeOptions,
} from "./stream-resume.js";
export { isJsonMediaType, parseMediaType, type MediaType } from "./content-type.js";
export {
  A2A_CORS_ALLOWED_HEADERS,
  A2A_CORS_EXPOSED_HEADERS,
  corsPolicy,
  withCors,
  type CorsOptions,
  type CorsPolicy,
} from "./cors.js";
export {
  createPushNotificationReceiver,
  type PushExpectation,
  type PushNotificationReceiverOptions,
} from "./push-receiver.js";
/** Upgrade requests on a shared node:http server: routes for the protocols served, plain HTTP/1.1 for every other offer (`Upgrade: h2c`). */
export { routeUpgrade, serveUpgradeAsHttp, type UpgradeRoute } from "./upgrade.js";
