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
export function withTenant<Principal>(
  context: CallContext<Principal>,
  tenant: string,
): CallContext<Principal> {
  const copy = Object.defineProperties(
    {},
    Object.getOwnPropertyDescriptors(context),
  ) as CallContext<Principal>;
  Object.defineProperty(copy, "tenant", {
    value: tenant,
    enumerable: true,
    writable: false,
    configurable: true,
  });
  return copy;
}

/**
 * A {@link CallCancellation} for bindings that learn of a call's end from their own events (a
 * gRPC library's 'cancelled', a stream's 'close'): no AbortSignal per call, the signal is made when
 * a handler first reads it; `abort(reason)` wakes the `onAbort` listeners once.
 */
export class LazyCallCancellation<Reason = unknown> implements CallCancellation {
  #controller: AbortController | undefined;
  #listeners: (() => void)[] | undefined;
  /** The abort reason once aborted. */
  reason: Reason | undefined;

  /** Whether the call was aborted. */
  get aborted(): boolean {
    return this.reason !== undefined;
  }

  /** The call's signal, made on first read (aborted already if the call was). */
  get signal(): AbortSignal {
    let c = this.#controller;
    if (c === undefined) {
      c = this.#controller = new AbortController();
      if (this.reason !== undefined) c.abort(this.reason);
    }
    return c.signal;
  }

  /** {@inheritDoc CallCancellation.onAbort} */
  onAbort(listener: () => void): () => void {
    if (this.reason !== undefined) {
      listener();
      return noop;
    }
    (this.#listeners ??= []).push(listener);
    return () => {
      const list = this.#listeners;
      const i = list === undefined ? -1 : list.indexOf(listener);
      if (i >= 0) list!.splice(i, 1);
    };
  }

  /** Aborts the call with `reason` (the first abort wins); returns whether this call aborted it. */
  abort(reason: Reason): boolean {
    if (this.reason !== undefined) return false;
    this.reason = reason;
    this.#controller?.abort(reason);
    const listeners = this.#listeners;
    this.#listeners = undefined;
    if (listeners !== undefined) for (const listener of listeners) listener();
    return true;
  }
}
