// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * What an agent holds for peers that do not read (issue #25): the bytes of answers produced but not
 * yet taken by their peers (a buffered body still to write, what waits in a response's, socket's,
 * HTTP/2 stream's or WebSocket's buffers), and since when each writer has made no progress. One
 * budget can be shared by every listener of an agent (serveNode, mountConnectRoutes, the gRPC
 * listeners, a custom binding such as the WebSocket one): then the bound holds for the process, not
 * per listener. Two bounds:
 *
 * - a byte budget (`maxBytes`, 0: none): when the writers together hold more, the one that has waited
 *   longest for its peer is destroyed, then the next, until they fit again (never the writer whose
 *   write went over: one answer alone is bounded by the answer's own limits);
 * - a write timeout per writer (`timeoutMs` of {@link WriteBudget.watch}, 0: none): a writer that holds
 *   bytes and has had none of them taken for that long is destroyed (checked every second, or every
 *   quarter of the shortest timeout when that is shorter).
 *
 * Writers report what they hold after every write and every flush they see, so the totals are exact
 * at rest; a writer that cannot see every flush gives a `measure` function, read again before anyone
 * is destroyed for the budget (a writer whose peer took bytes meanwhile is not the one to go).
 */

/** One watched writer (an HTTP response, a gRPC stream, a WebSocket), as it reports itself. */
export interface PendingWrite {
  /**
   * Records what the writer holds now (`heldBytes`), after a write or a flush; `progressed` when
   * some of its bytes were taken by the peer since the last report. May destroy other writers
   * (the byte budget), never this one.
   */
  update(heldBytes: number, progressed: boolean): void;
  /** The writer is done (or gone): it holds nothing any more. */
  close(): void;
}

/** How {@link WriteBudget.watch} watches one writer. */
export interface WatchOptions {
  /** Destroy the writer when it holds bytes and none were taken for this long, in ms (0 or absent: never). */
  readonly timeoutMs?: number | undefined;
  /** What the writer holds now, read before the budget destroys anyone (for writers that do not see every flush). */
  readonly measure?: (() => number) | undefined;
}

/** The totals of a budget, for monitoring and tests. */
export interface PendingWritesStats {
  /** Bytes held for peers that have not taken them yet, summed over the watched writers. */
  readonly bytes: number;
  /** Writers watched (HTTP responses, gRPC streams, WebSockets that held unsent bytes at some point and are not done). */
  readonly responses: number;
}

/** Default byte budget of a listener (and of the example agent, shared by its listeners): 64 MiB. */
export const DEFAULT_MAX_PENDING_WRITE_BYTES = 64 * 1024 * 1024;

class Entry implements PendingWrite {
  held = 0;
  /** When the writer last made progress, or began holding bytes (performance.now()). */
  since = 0;
  gone = false;

  constructor(
    readonly owner: WriteBudget,
    readonly destroy: () => void,
    readonly timeoutMs: number,
    readonly measure: (() => number) | undefined,
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

/**
 * The bytes a set of writers holds for peers that have not read them, and the bounds on them (see
 * the file comment). `new WriteBudget(64 * 1024 * 1024)` and pass it as `writeBudget` to serveNode,
 * the gRPC listeners and custom bindings to bound them together.
 */
export class WriteBudget {
  readonly #maxBytes: number;
  readonly #entries = new Set<Entry>();
  #bytes = 0;
  #timer: ReturnType<typeof setInterval> | undefined;
  #timerEvery = 0;

  /** `maxBytes`: the budget (0: none; default {@link DEFAULT_MAX_PENDING_WRITE_BYTES}). */
  constructor(maxBytes: number = DEFAULT_MAX_PENDING_WRITE_BYTES) {
    if (!(maxBytes >= 0) || maxBytes === Number.POSITIVE_INFINITY)
      throw new RangeError(`maxPendingWriteBytes must be >= 0, got ${maxBytes}`);
    this.#maxBytes = maxBytes;
  }

  /** The budget in bytes (0: none). */
  get maxBytes(): number {
    return this.#maxBytes;
  }

  get stats(): PendingWritesStats {
    return { bytes: this.#bytes, responses: this.#entries.size };
  }

  /** Starts watching a writer; `destroy` ends it when a bound is crossed (it must not throw). */
  watch(destroy: () => void, options?: WatchOptions): PendingWrite {
    const timeoutMs = options?.timeoutMs ?? 0;
    if (!(timeoutMs >= 0)) throw new RangeError(`timeoutMs must be >= 0, got ${timeoutMs}`);
    const entry = new Entry(
      this,
      destroy,
      timeoutMs === Number.POSITIVE_INFINITY ? 0 : timeoutMs,
      options?.measure,
    );
    entry.since = performance.now();
    this.#entries.add(entry);
    if (entry.timeoutMs > 0) {
      const every = Math.max(1, Math.min(1_000, Math.floor(entry.timeoutMs / 4)));
      if (this.#timer === undefined || every < this.#timerEvery) {
        if (this.#timer !== undefined) clearInterval(this.#timer);
        this.#timerEvery = every;
        this.#timer = setInterval(() => this.#sweep(), every);
        this.#timer.unref?.();
      }
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

  /** Over the budget: measures again who can, then destroys the writers that have waited longest, sparing `current`. */
  #evict(current: Entry): void {
    const now = performance.now();
    for (const e of this.#entries) {
      if (e === current || e.measure === undefined || e.held === 0) continue;
      let held: number;
      try {
        held = e.measure();
      } catch {
        continue;
      }
      if (held < e.held) e.since = now; // its peer took bytes since its last report
      this.#bytes += held - e.held;
      e.held = held;
    }
    while (this.#bytes > this.#maxBytes) {
      let victim: Entry | undefined;
      for (const e of this.#entries) {
        if (e !== current && e.held > 0 && (victim === undefined || e.since < victim.since))
          victim = e;
      }
      if (victim === undefined) return;
      this.#kill(victim);
    }
  }

  #kill(entry: Entry): void {
    entry.gone = true;
    this.remove(entry);
    try {
      entry.destroy();
    } catch {
      // destroy must not throw; a writer that does is gone from the accounting all the same
    }
  }

  #sweep(): void {
    const now = performance.now();
    for (const e of this.#entries) {
      if (e.timeoutMs > 0 && e.held > 0 && e.since <= now - e.timeoutMs) this.#kill(e);
    }
    if (this.#entries.size === 0 && this.#timer !== undefined) {
      clearInterval(this.#timer);
      this.#timer = undefined;
      this.#timerEvery = 0;
    }
  }
}
