// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Watching for the end of a call without an AbortSignal. Creating an AbortSignal (an
 * EventTarget) and listening on it costs a few microseconds per request, which the agent
 * path pays even when nothing ever aborts; so a binding hands the call context a
 * {@link CallCancellation} instead, and `context.signal` is only created when a handler
 * reads it. The runtime's own waiters (task subscriptions) use {@link watchCallAbort},
 * which goes to the cancellation's cheap `onAbort` when it has one.
 */
import type { CallContext } from "./call-context.js";

/** Where a call's cancellation comes from: a signal (made on first read), and optionally a cheaper listener hook. */
export interface CallCancellation {
  /** Aborted when the client goes away (or the binding's deadline passes); may be created on first access. */
  readonly signal: AbortSignal;
  /** Whether the call was aborted, without creating the signal; absent: read `signal.aborted`. */
  readonly aborted?: boolean;
  /** Calls `listener` once when the call is aborted (at once if it already was); returns the function that stops watching. */
  onAbort?(listener: () => void): () => void;
}

/** Subscribes to an abort; returns the function that unsubscribes. */
export type AbortWatch = (listener: () => void) => () => void;

/** The key under which a call context keeps its cancellation (copied by object spread, like every own property). */
export const CALL_CANCELLATION: unique symbol = Symbol("protoc-gen-a2a.callCancellation");

const noop = (): void => {};

/** An AbortWatch over an AbortSignal. */
export function signalWatch(signal: AbortSignal): AbortWatch {
  return (listener) => {
    if (signal.aborted) {
      listener();
      return noop;
    }
    signal.addEventListener("abort", listener, { once: true });
    return () => signal.removeEventListener("abort", listener);
  };
}

/** What these helpers read of a call context (a CallContext or the task runtime's TaskCallContext). */
type WithSignal = { readonly signal: AbortSignal };

function cancellationOf(context: WithSignal): CallCancellation | undefined {
  return (context as { readonly [CALL_CANCELLATION]?: CallCancellation })[CALL_CANCELLATION];
}

/** Watches for the call's abort, without creating `context.signal` when the binding offers a cheaper hook. */
export function watchCallAbort(context: WithSignal): AbortWatch {
  const cancellation = cancellationOf(context);
  if (cancellation?.onAbort !== undefined) return (listener) => cancellation.onAbort!(listener);
  return signalWatch(context.signal);
}

/** Whether the call was aborted, without creating `context.signal` when the binding can tell. */
export function isCallAborted(context: WithSignal): boolean {
  const aborted = cancellationOf(context)?.aborted;
  return aborted ?? context.signal.aborted;
}

/** A copy of `context` with another tenant, keeping its signal lazy (a spread would create it). */
export function withTenant<Principal>(context: CallContext<Principal>, tenant: string): CallContext<Principal> {
  const copy = Object.defineProperties({}, Object.getOwnPropertyDescriptors(context)) as CallContext<Principal>;
  Object.defineProperty(copy, "tenant", { value: tenant, enumerable: true, writable: false, configurable: true });
  return copy;
}
