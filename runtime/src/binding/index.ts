// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * `@protoc-gen-a2a/runtime/binding`: what a custom binding (spec §12) builds on. The server
 * side runs every call through the pipeline the standard bindings share
 * ({@link createBindingDispatcher}); the client side implements `Transport` (from the root entry).
 *
 * A framed binding (calls and answers as frames on one connection, told apart by call ids: a
 * WebSocket, a child process's pipes, a message queue) finds its whole core here: the server
 * ({@link createFramedBindingServer}: calls by id, cancellation, error frames, extensions,
 * backpressure), the client ({@link FramedTransport} over a {@link createFramedConnection}:
 * multiplexing, cancel frames, typed errors) and a ready framing ({@link decodeJsonCallFrame},
 * {@link jsonReplySink}, {@link jsonClientFrames}: JSON-RPC-like JSON frames). The binding fills
 * the holes: its carrier, and how a frame reads.
 */
export {
  createBindingDispatcher,
  type BindingCall,
  type BindingDispatcher,
  type BindingResult,
  type BindingServiceDefinition,
} from "./dispatcher.js";
export {
  isFramedCallId,
  type FramedAnswer,
  type FramedCallId,
  type FramedConnection,
  type FramedInboundCall,
  type FramedOperationTable,
  type FramedOperationWiring,
  type FramedOutboundCall,
  type FramedReplySink,
} from "./framed-call.js";
export {
  createFramedBindingServer,
  type FramedBindingServer,
  type FramedServerConnection,
  type FramedServerErrors,
  type FramedServerHooks,
} from "./framed-server.js";
export {
  createFramedConnection,
  type FramedChannel,
  type FramedChannelEvents,
  type FramedClientCodec,
  type FramedClientConnection,
  type FramedConnectionOptions,
  type FramedDecodedAnswer,
} from "./framed-connection.js";
export {
  FramedTransport,
  type FramedTransportHooks,
  type FramedTransportOptions,
} from "./framed-transport.js";
export {
  JSON_CANCEL_FRAME_MAX_CHARS,
  decodeJsonAnswerFrame,
  decodeJsonCallFrame,
  encodeJsonCallFrame,
  encodeJsonCancelFrame,
  jsonCancelFrameId,
  jsonClientFrames,
  jsonReplySink,
  peekJsonCallId,
  type JsonAnswerFrame,
  type JsonCallFrameErrors,
  type JsonCallFrameOptions,
} from "./json-call-frames.js";
