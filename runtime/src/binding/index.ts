// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * `@protoc-gen-a2a/runtime/binding`: what a custom binding (spec §12) builds on. The server
 * side runs every call through the pipeline the standard bindings share
 * ({@link createBindingDispatcher}); the client side implements `Transport` (from the root entry).
 */
export { createBindingDispatcher, type BindingCall, type BindingDispatcher, type BindingResult, type BindingServiceDefinition } from "./dispatcher.js";
