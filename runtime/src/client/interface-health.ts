// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The health of an agent's interfaces as a failover client sees it (failover.ts): an interface
 * that failed is backed off, exponentially (1 s, 2 s, 4 s, … up to 30 s by default); once its
 * backoff elapsed it is tried again ("half-open"): a success makes it healthy again, a failure
 * doubles the backoff. A failure reported while an interface is already backing off (concurrent
 * calls that failed on it together) does not lengthen the backoff.
 */

/** The backoff of an interface after failures, in ms. */
export interface InterfaceBackoffOptions {
  /** The backoff after the first failure in a row. Default 1000. */
  readonly initial?: number | undefined;
  /** The largest backoff. Default 30000. */
  readonly max?: number | undefined;
}

/** The default backoff: 1 s after the first failure, doubled after each further one, at most 30 s. */
export const DEFAULT_INTERFACE_BACKOFF: { readonly initial: number; readonly max: number } =
  Object.freeze({ initial: 1_000, max: 30_000 });

/** The health of one interface at one moment. */
export interface InterfaceHealthState {
  /** Its position among the candidates (not in `supportedInterfaces`). */
  readonly candidate: number;
  /** False while it is backing off after a failure (it is tried only when every healthy interface failed). */
  readonly available: boolean;
  /** Failures in a row; 0 for a healthy interface. */
  readonly failures: number;
  /** When (epoch ms) its backoff ends; 0 when it is not backing off. */
  readonly retryAt: number;
}

/**
 * Per-interface health with exponential backoff. Interfaces are numbered 0…count-1, in the order
 * of preference; {@link order} says which to try, in which order.
 */
export class InterfaceHealth {
  readonly #failures: number[];
  readonly #retryAt: number[];
  readonly #initial: number;
  readonly #max: number;
  readonly #now: () => number;

  /** `count` interfaces, all healthy; `now` is the clock (default `Date.now`). */
  constructor(count: number, backoff?: InterfaceBackoffOptions, now: () => number = Date.now) {
    this.#failures = new Array<number>(count).fill(0);
    this.#retryAt = new Array<number>(count).fill(0);
    const ms = (value: number | undefined, fallback: number) =>
      value !== undefined && value >= 0 && Number.isFinite(value) ? value : fallback;
    this.#initial = ms(backoff?.initial, DEFAULT_INTERFACE_BACKOFF.initial);
    this.#max = Math.max(this.#initial, ms(backoff?.max, DEFAULT_INTERFACE_BACKOFF.max));
    this.#now = now;
  }

  /** Whether interface `i` may be tried now: healthy, or its backoff elapsed (half-open). */
  isAvailable(i: number): boolean {
    return this.#retryAt[i]! <= this.#now();
  }

  /**
   * The interfaces to try, in order: the available ones in preference order, then those still
   * backing off, the soonest to be retried first (a last resort: a call is never failed without
   * trying every interface once).
   */
  order(): number[] {
    const now = this.#now();
    const all = this.#failures.map((_, i) => i);
    const available = all.filter((i) => this.#retryAt[i]! <= now);
    const waiting = all
      .filter((i) => this.#retryAt[i]! > now)
      .sort((a, b) => this.#retryAt[a]! - this.#retryAt[b]! || a - b);
    return [...available, ...waiting];
  }

  /**
   * Records a failure of interface `i`: it backs off for `initial × 2^(failures-1)` ms, at most
   * `max`. Returns the backoff in ms, or undefined when it was already backing off (unchanged).
   */
  failed(i: number): number | undefined {
    const now = this.#now();
    if (this.#retryAt[i]! > now) return undefined;
    const failures = ++this.#failures[i]!;
    const delay = Math.min(this.#initial * 2 ** Math.min(failures - 1, 52), this.#max);
    this.#retryAt[i] = now + delay;
    return delay;
  }

  /** Records a success (an answer, even an A2A error) of interface `i`; true when it had failed before: it recovered. */
  succeeded(i: number): boolean {
    const recovered = this.#failures[i]! > 0;
    this.#failures[i] = 0;
    this.#retryAt[i] = 0;
    return recovered;
  }

  /** The state of every interface now. */
  snapshot(): InterfaceHealthState[] {
    const now = this.#now();
    return this.#failures.map((failures, candidate) => ({
      candidate,
      available: this.#retryAt[candidate]! <= now,
      failures,
      retryAt: this.#retryAt[candidate]!,
    }));
  }
}
