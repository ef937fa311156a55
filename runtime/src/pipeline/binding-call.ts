// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Calls made by a binding's pipeline (JSON-RPC, HTTP+JSON, gRPC, the custom-binding dispatcher),
 * which the task runtime may treat as owning nothing:
 * - the request was decoded for this call alone: nobody else holds it or reads it afterwards;
 * - the response (or each stream event) is serialized and dropped, never changed.
 * So for such a call the task runtime hands the executor the request's own message and returns its
 * stored tasks and feed events as they are (stored tasks are copy-on-write, never changed in place;
 * a shallow copy where a view trims one) instead of deep copies. A direct in-process call (a test, a
 * wrapper of the handler) has no mark and gets copies it may change. Copying a task with its history
 * for every GetTask, stream event and blocking SendMessage was a good part of the agent path's
 * allocations (issue #16).
 */

/**
 * The key under which the call contexts made by the bindings' pipelines carry the mark.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export const BINDING_CALL: unique symbol = Symbol("protoc-gen-a2a.bindingCall");

/**
 * Whether the call context was made by a binding's pipeline (see the module comment).
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function isBindingCall(context: object): boolean {
  return (context as { readonly [BINDING_CALL]?: boolean })[BINDING_CALL] === true;
}

const immutable = new WeakSet<object>();

/**
 * Marks `message` as never changed again by anyone (the task runtime's feed events, handed to
 * every subscriber as they are): a binding may then encode it once for all its streams. Returns it.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function markImmutable<T extends object>(message: T): T {
  immutable.add(message);
  return message;
}

/**
 * Whether {@link markImmutable} marked `message`.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function isImmutable(message: object): boolean {
  return immutable.has(message);
}
