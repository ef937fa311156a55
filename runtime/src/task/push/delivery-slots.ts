// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The concurrency caps of push deliveries: a global cap over all receivers, and a cap per receiving
 * host, so that one slow or hanging receiver cannot take every slot from the others.
 */

/** A counting semaphore, FIFO. */
export class Slots {
  #free: number;
  readonly #waiters: (() => void)[] = [];

  /** `size` slots, all free. */
  constructor(size: number) {
    this.#free = size;
  }

  /** Waits for a free slot (in call order); resolves with the function that frees it (idempotent). */
  async acquire(): Promise<() => void> {
    if (this.#free > 0) this.#free--;
    else await new Promise<void>((resolve) => this.#waiters.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiters.shift();
      if (next !== undefined) next();
      else this.#free++;
    };
  }
}

/** A global cap and a cap per host: {@link DeliverySlots.acquire} takes one of each. */
export class DeliverySlots {
  readonly #global: Slots;
  readonly #perHost: number;
  /** The slots of each receiving host with deliveries waiting or in flight (removed once it has none). */
  readonly #hosts = new Map<string, { readonly slots: Slots; users: number }>();

  /** `concurrency` slots in all, `perHost` of them at most for one host. */
  constructor(concurrency: number, perHost: number) {
    this.#global = new Slots(concurrency);
    this.#perHost = perHost;
  }

  /** A slot of the host of `url` (its own cap), then a global one; resolves with the function that releases both. */
  async acquire(url: string): Promise<() => void> {
    const host = hostKeyOf(url);
    let entry = this.#hosts.get(host);
    if (entry === undefined)
      this.#hosts.set(host, (entry = { slots: new Slots(this.#perHost), users: 0 }));
    entry.users++;
    const releaseHost = await entry.slots.acquire();
    const releaseGlobal = await this.#global.acquire();
    const held = entry;
    return () => {
      releaseGlobal();
      releaseHost();
      if (--held.users === 0 && this.#hosts.get(host) === held) this.#hosts.delete(host);
    };
  }
}

/** `host:port` of a URL (the key of the per-host cap); the whole text when it does not parse. */
function hostKeyOf(url: string): string {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return url;
  }
}
