// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * What one `serveNode` listener holds for clients that do not read (issue #25): the bytes of its
 * responses that were produced but not yet taken by their clients (a buffered body still to write,
 * plus what waits in the response's and socket's or HTTP/2 stream's buffers), and since when each
 * response has made no progress. Two bounds, each off at 0:
 *
 * - a write timeout: a response that holds bytes and has had none of them taken for `timeoutMs` is
 *   destroyed (checked every second, or every quarter of the timeout when that is shorter);
 * - a byte budget for the whole listener: when the responses together hold more than `maxBytes`, the
 *   one that has waited longest for its client is destroyed, then the next, until they fit again
 *   (never the response whose write went over: one answer alone is bounded by the answer's own limits).
 *
 * Accounting is event-driven (every write, every flushed chunk, "finish", "close"), so it is exact at
 * rest; the periodic check only compares times.
 */

/** One watched response, as its writer reports it. */
export interface PendingWrite {
  /**
   * Records what the response holds now (`heldBytes`), after a write or a flush; `progressed` when
   * some of its bytes were taken by the client since the last report. May destroy other responses
   * (the byte budget), never this one.
   */
  update(heldBytes: number, progressed: boolean): void;
  /** The response is over (or gone): it holds nothing any more. */
  close(): void;
}

/** The totals of a listener, for monitoring and tests. */
export interface PendingWritesStats {
  /** Bytes held for clients that have not taken them yet, summed over the listener's responses. */
  readonly bytes: number;
  /** Responses watched (those that held unsent bytes at some point and are not over). */
  readonly responses: number;
}

class Entry implements PendingWrite {
  held = 0;
  /** When the response last made progress, or began holding bytes (performance.now()). */
  since = 0;
  gone = false;

  constructor(
    readonly owner: PendingWrites,
    readonly destroy: () => void,
  ) {}

  update(heldBytes: number, progressed: boolean): void {
    if (this.gone) return;
    this.owner.update(this, heldBytes, progressed);
  }

  close(): void {
    if (this.gone) return;
    this.gone = true;
    this.owner.remove(this);
  }
}

/** The responses of one listener that hold bytes for their clients, and the two bounds on them. */
export class PendingWrites {
  readonly #timeoutMs: number;
  readonly #maxBytes: number;
  readonly #entries = new Set<Entry>();
  #bytes = 0;
  #timer: ReturnType<typeof setInterval> | undefined;

  /** `timeoutMs`: write timeout (0: none); `maxBytes`: budget of the listener (0: none). */
  constructor(timeoutMs: number, maxBytes: number) {
    this.#timeoutMs = timeoutMs;
    this.#maxBytes = maxBytes;
  }

  get stats(): PendingWritesStats {
    return { bytes: this.#bytes, responses: this.#entries.size };
  }

  /** Starts watching a response; `destroy` ends it when a bound is crossed (it must not throw). */
  watch(destroy: () => void): PendingWrite {
    const entry = new Entry(this, destroy);
    entry.since = performance.now();
    this.#entries.add(entry);
    if (this.#timer === undefined && this.#timeoutMs > 0) {
      const every = Math.max(1, Math.min(1_000, Math.floor(this.#timeoutMs / 4)));
      this.#timer = setInterval(() => this.#sweep(), every);
      this.#timer.unref?.();
    }
    return entry;
  }

  /** @internal Entry.update. */
  update(entry: Entry, held: number, progressed: boolean): void {
    if (progressed || entry.held === 0) entry.since = performance.now();
    this.#bytes += held - entry.held;
    entry.held = held;
    if (this.#maxBytes > 0 && this.#bytes > this.#maxBytes) this.#evict(entry);
  }

  /** @internal Entry.close. */
  remove(entry: Entry): void {
    this.#bytes -= entry.held;
    entry.held = 0;
    this.#entries.delete(entry);
  }

  /** Over the budget: destroys the responses that have waited longest, sparing `current`. */
  #evict(current: Entry): void {
    while (this.#bytes > this.#maxBytes) {
      let victim: Entry | undefined;
      for (const e of this.#entries) {
        if (e !== current && e.held > 0 && (victim === undefined || e.since < victim.since)) victim = e;
      }
      if (victim === undefined) return;
      this.#kill(victim);
    }
  }

  #kill(entry: Entry): void {
    entry.gone = true;
    this.remove(entry);
    entry.destroy();
  }

  #sweep(): void {
    const deadline = performance.now() - this.#timeoutMs;
    for (const e of this.#entries) {
      if (e.held > 0 && e.since <= deadline) this.#kill(e);
    }
    if (this.#entries.size === 0 && this.#timer !== undefined) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }
}
