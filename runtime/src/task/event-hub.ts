// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Ordered fan-out of one task's events to any number of subscribers (spec §3.5.2:
 * every active stream gets every event, in the order generated; closing one stream
 * does not affect the others). Each subscriber has its own queue, so a slow reader
 * never delays the task nor the other readers. The queue is bounded: a subscriber
 * that falls more than `maxQueued` items (or `maxQueuedBytes`) behind is cut off on its own (its queue is
 * dropped at once and its next read fails with the hub's overflow error), so a
 * client that stops reading its stream cannot make the server's memory grow.
 */
import { signalWatch, type AbortWatch } from "../pipeline/call-abort.js";

/** The receiving end a hub writes to. */
interface Sink<T> {
  push(item: T): void;
  end(): void;
}

/** The bound of each subscriber's queue. */
export interface QueueLimit<T = unknown> {
  /** Most items a subscriber may have queued and unread; one more ends it. A positive integer, or `Infinity` (unbounded). */
  readonly maxQueued: number;
  /**
   * Most bytes (by `weightOf`) a subscriber may have queued and unread; an item that would pass it
   * ends it, unless the queue is empty (one item always fits). Items are shared between subscribers,
   * but a subscriber that stopped reading keeps alive every item after the point where it stopped:
   * counting items alone let a few large ones pin any amount of memory. Default: unbounded.
   */
  readonly maxQueuedBytes?: number | undefined;
  /** What one item weighs, for `maxQueuedBytes` (called once per item and subscriber: make it cheap). */
  readonly weightOf?: ((item: T) => number) | undefined;
  /** The error the overflowing subscriber's next read rejects with. */
  readonly overflowError: () => unknown;
}

/** No bound (the default of a hub built without one). */
const UNBOUNDED: QueueLimit<unknown> = {
  maxQueued: Infinity,
  overflowError: () => new Error("subscription queue overflow"),
};

/** Throws a RangeError unless `value` is a positive integer or `Infinity`. */
export function checkQueueLimit(value: number, name: string): void {
  if (!(value === Infinity || (Number.isSafeInteger(value) && value >= 1))) {
    throw new RangeError(`${name} must be a positive integer or Infinity, got ${String(value)}`);
  }
}

/**
 * One subscriber's view of a hub: an async iterator over the items published after it
 * subscribed. `return()` (what `for await … break` and the bindings call when a client
 * goes away) ends it at once, even while a `next()` is pending. When more than
 * `limit.maxQueued` items are waiting unread, it ends itself: the queue is dropped,
 * it leaves the hub, and its next `next()` rejects with `limit.overflowError()` (once;
 * later calls are done).
 */
export class Subscription<T> implements AsyncIterableIterator<T> {
  #items: T[] = [];
  #head = 0;
  #ended = false;
  #closed = false;
  /** Set when the queue overflowed, until the reader got the error. */
  #failure: { readonly error: unknown } | undefined;
  #overflowed = false;
  #waiter: ((result: IteratorResult<T>) => void) | undefined;
  readonly #limit: QueueLimit<T>;
  /** Bytes of the queued items (with `limit.weightOf`). */
  #queuedBytes = 0;
  readonly #detach: () => void;
  /** Stops watching for the call's abort. */
  #unwatch: (() => void) | undefined;

  /** Subscribes through `attach`, which registers the sink and returns the function that unregisters it; ends when `abort` fires. */
  constructor(
    attach: (sink: Sink<T>) => () => void,
    abort?: AbortSignal | AbortWatch,
    limit: QueueLimit<T> = UNBOUNDED as QueueLimit<T>,
  ) {
    this.#limit = limit;
    this.#detach = attach({ push: (item) => this.#push(item), end: () => this.#end() });
    if (abort !== undefined) {
      const unwatch = (abort instanceof AbortSignal ? signalWatch(abort) : abort)(() =>
        this.close(),
      );
      // An abort that already happened closed the subscription above: stop watching at once.
      if (this.#closed) unwatch();
      else this.#unwatch = unwatch;
    }
  }

  #push(item: T): void {
    if (this.#closed || this.#ended) return;
    const waiter = this.#waiter;
    if (waiter !== undefined) {
      this.#waiter = undefined;
      waiter({ done: false, value: item });
    } else {
      const queued = this.#items.length - this.#head;
      const weightOf = this.#limit.weightOf;
      const weight = weightOf === undefined ? 0 : weightOf(item);
      if (
        queued >= this.#limit.maxQueued ||
        (queued > 0 && this.#queuedBytes + weight > (this.#limit.maxQueuedBytes ?? Infinity))
      ) {
        this.#overflow();
        return;
      }
      this.#queuedBytes += weight;
      this.#items.push(item);
    }
  }

  /** The reader fell too far behind: drop the queue, leave the hub, fail the next read. */
  #overflow(): void {
    let error: unknown;
    try {
      error = this.#limit.overflowError();
    } catch (e) {
      error = e;
    }
    this.#overflowed = true;
    this.close();
    this.#failure = { error };
  }

  #end(): void {
    this.#ended = true;
    if (this.#head >= this.#items.length) this.#finish();
  }

  #finish(): void {
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.({ done: true, value: undefined });
  }

  /** The next item, waiting for it; done once the hub closed and the queue is drained, or after close(). */
  next(): Promise<IteratorResult<T>> {
    if (this.#closed) {
      const failure = this.#failure;
      if (failure === undefined) return Promise.resolve({ done: true, value: undefined });
      this.#failure = undefined;
      return Promise.reject(failure.error);
    }
    if (this.#head < this.#items.length) {
      const value = this.#items[this.#head] as T;
      this.#items[this.#head] = undefined as T;
      this.#head++;
      const weightOf = this.#limit.weightOf;
      if (weightOf !== undefined)
        this.#queuedBytes =
          this.#head === this.#items.length ? 0 : this.#queuedBytes - weightOf(value);
      if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
        this.#items = this.#items.slice(this.#head);
        this.#head = 0;
      }
      return Promise.resolve({ done: false, value });
    }
    if (this.#ended) return Promise.resolve({ done: true, value: undefined });
    if (this.#waiter !== undefined)
      return Promise.reject(
        new Error("Subscription.next() called while another next() is pending"),
      );
    return new Promise((resolve) => {
      this.#waiter = resolve;
    });
  }

  /** Ends the subscription now (queued items are dropped); other subscribers are unaffected. */
  return(): Promise<IteratorResult<T>> {
    this.close();
    return Promise.resolve({ done: true, value: undefined });
  }

  /** Same as return(), synchronously. Idempotent; after an overflow, drops the pending error. */
  close(): void {
    this.#failure = undefined;
    if (this.#closed) return;
    this.#closed = true;
    this.#items = [];
    this.#head = 0;
    this.#queuedBytes = 0;
    const unwatch = this.#unwatch;
    this.#unwatch = undefined;
    unwatch?.();
    this.#detach();
    this.#finish();
  }

  /** Items queued and not read yet. */
  get backlog(): number {
    return this.#items.length - this.#head;
  }

  /** Bytes of the items queued and not read yet (by the limit's `weightOf`; 0 without one). */
  get backlogBytes(): number {
    return this.#queuedBytes;
  }

  /** True once the subscription was ended because its queue overflowed. */
  get overflowed(): boolean {
    return this.#overflowed;
  }

  /** The subscription itself. */
  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }
}

/** Publishes items, in order, to every current subscription. */
export class EventHub<T> {
  readonly #sinks = new Set<Sink<T>>();
  readonly #limit: QueueLimit<T>;
  #closed = false;

  /** A hub whose subscribers each queue at most `limit.maxQueued` unread items (default: unbounded). */
  constructor(limit: QueueLimit<T> = UNBOUNDED as QueueLimit<T>) {
    checkQueueLimit(limit.maxQueued, "maxQueued");
    if (limit.maxQueuedBytes !== undefined) checkQueueLimit(limit.maxQueuedBytes, "maxQueuedBytes");
    this.#limit = limit;
  }

  /**
   * A new subscription that receives every item published from now on. It also ends
   * when `abort` fires or its queue overflows; `onClose` runs once when it is closed.
   */
  subscribe(abort?: AbortSignal | AbortWatch, onClose?: () => void): Subscription<T> {
    return new Subscription<T>(
      (sink) => {
        if (this.#closed) {
          sink.end();
          return () => onClose?.();
        }
        this.#sinks.add(sink);
        return () => {
          this.#sinks.delete(sink);
          onClose?.();
        };
      },
      abort,
      this.#limit,
    );
  }

  /** Delivers `item` to every subscription, synchronously and in call order (a subscription that overflows leaves the hub). */
  publish(item: T): void {
    for (const sink of this.#sinks) sink.push(item);
  }

  /** Ends every subscription once it has drained what was published; later subscriptions end at once. */
  close(): void {
    this.#closed = true;
    for (const sink of [...this.#sinks]) sink.end();
  }

  /** The number of live subscriptions. */
  get size(): number {
    return this.#sinks.size;
  }
}
