// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The queues of a push sender: serial lanes (jobs of one key run one after the other, in call
 * order, whatever each one's outcome; different keys run concurrently), bounds on the deliveries
 * waiting (a count per lane, bytes of bodies over all lanes), the count of work pending, and
 * `close()`: wait for it to drain, for a bounded time, then abort what is left.
 */

/** Bounds of a {@link PushDeliveryQueue}. */
export interface PushDeliveryQueueOptions {
  /** Deliveries that may wait (queued or running) in one lane; at least 1. */
  readonly maxQueuedPerWebhook: number;
  /** Bytes of bodies that may wait over all lanes; at least 1. */
  readonly maxQueuedBytes: number;
  /** How long `close()` waits for the pending work before aborting it, in ms. */
  readonly closeTimeoutMs: number;
}

/** Serial lanes with bounds, pending work and a bounded close. */
export class PushDeliveryQueue {
  readonly #maxQueued: number;
  readonly #maxQueuedBytes: number;
  readonly #closeTimeoutMs: number;
  /** Tail of each lane. */
  readonly #tails = new Map<string, Promise<void>>();
  /** Deliveries queued or running per lane (lanes without any are absent). */
  readonly #queued = new Map<string, number>();
  /** Bytes of the bodies of the deliveries queued or running (one body counted once per delivery). */
  #queuedBytes = 0;
  #pending = 0;
  #closed = false;
  #idleWaiters: (() => void)[] = [];
  readonly #lifetime = new AbortController();

  /** A queue with these bounds. */
  constructor(options: PushDeliveryQueueOptions) {
    this.#maxQueued = options.maxQueuedPerWebhook;
    this.#maxQueuedBytes = options.maxQueuedBytes;
    this.#closeTimeoutMs = options.closeTimeoutMs;
  }

  /** Aborted when `close()` stops waiting: work still running should end (and report itself closed). */
  get signal(): AbortSignal {
    return this.#lifetime.signal;
  }

  /** True once `close()` was called. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Jobs queued or running, and work {@link track}ed. */
  get pending(): number {
    return this.#pending;
  }

  /** Runs `job` after the previous job of the lane `key`, counting it as pending. A job's error is dropped. */
  run(key: string, job: () => Promise<void>): void {
    this.#pending++;
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const next = previous
      .then(job)
      .catch(() => {})
      .finally(() => {
        if (this.#tails.get(key) === next) this.#tails.delete(key);
        this.#settle();
      });
    this.#tails.set(key, next);
  }

  /**
   * Queues a delivery of a body of `bytes` in the lane `key` ({@link run}), unless the lane already
   * holds `maxQueuedPerWebhook` deliveries or the body would take the bytes waiting past
   * `maxQueuedBytes`: then returns false and queues nothing. A body is always let through when no
   * bytes are waiting (an idle sender delivers any event).
   */
  offer(key: string, bytes: number, job: () => Promise<unknown>): boolean {
    const waiting = this.#queued.get(key) ?? 0;
    if (
      waiting >= this.#maxQueued ||
      (this.#queuedBytes > 0 && this.#queuedBytes + bytes > this.#maxQueuedBytes)
    )
      return false;
    this.#queued.set(key, waiting + 1);
    this.#queuedBytes += bytes;
    this.run(key, async () => {
      try {
        await job();
      } finally {
        this.#queuedBytes -= bytes;
        const left = (this.#queued.get(key) ?? 1) - 1;
        if (left === 0) this.#queued.delete(key);
        else this.#queued.set(key, left);
      }
    });
    return true;
  }

  /** Runs `work` outside the lanes, counting it as pending while it runs (`close()` waits for it). */
  async track<T>(work: () => Promise<T>): Promise<T> {
    this.#pending++;
    try {
      return await work();
    } finally {
      this.#settle();
    }
  }

  /**
   * Marks the queue closed (the sender takes no new event), then waits at most `closeTimeoutMs`
   * for the pending work; past it, aborts {@link signal} and waits for the work to end. Resolves
   * true when everything finished in time.
   */
  async close(): Promise<boolean> {
    this.#closed = true;
    if (this.#pending === 0) return true;
    const idle = new Promise<boolean>((resolve) => this.#idleWaiters.push(() => resolve(true)));
    const bound = new AbortController();
    const timedOut = abortableSleep(this.#closeTimeoutMs, bound.signal).then(() => false);
    const drained = await Promise.race([idle, timedOut]);
    bound.abort();
    if (drained) return true;
    this.#lifetime.abort();
    if (this.#pending > 0) await idle;
    return false;
  }

  /** One pending job or work ended: wakes `close()` when none is left. */
  #settle(): void {
    if (--this.#pending === 0) {
      const waiters = this.#idleWaiters;
      this.#idleWaiters = [];
      for (const w of waiters) w();
    }
  }
}

/** Waits `ms`, or less when `signal` aborts (then resolves at once). Never rejects. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done);
  });
}
