// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * In-process serialization primitives: a FIFO queue of short critical sections (every
 * state change of a task runs in its task's queue) and a FIFO mutex held for longer spans
 * (one `execute()` at a time per task). Both are per process: a store shared by several
 * processes needs its own locking on top.
 */

/** Runs functions one after the other, in call order, whatever each one's outcome. */
export class SerialQueue {
  #tail: Promise<void> = Promise.resolve();
  #pending = 0;
  readonly #done = (): void => {
    this.#pending--;
  };

  /** Queues `fn`; the promise settles with its outcome once it has run. */
  run<T>(fn: () => T | Promise<T>): Promise<T> {
    this.#pending++;
    const result = this.#tail.then(fn);
    this.#tail = result.then(this.#done, this.#done);
    return result;
  }

  /** True when nothing is queued or running. */
  get idle(): boolean {
    return this.#pending === 0;
  }
}

/** A FIFO mutex: `acquire()` resolves, in call order, with the function that releases it. */
export class Mutex {
  #locked = false;
  readonly #waiters: (() => void)[] = [];

  /** Waits for the lock; call the returned function (once) to release it. */
  acquire(): Promise<() => void> {
    return new Promise((resolve) => {
      if (this.#locked) this.#waiters.push(() => resolve(this.#grant()));
      else resolve(this.#grant());
    });
  }

  /** The lock at once when it is free (its release function), else undefined. */
  tryAcquire(): (() => void) | undefined {
    return this.#locked ? undefined : this.#grant();
  }

  /** Takes the lock; returns the function that releases it (once) to the next waiter. */
  #grant(): () => void {
    this.#locked = true;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiters.shift();
      if (next === undefined) this.#locked = false;
      else next();
    };
  }

  /** True when the lock is free and nobody waits for it. */
  get idle(): boolean {
    return !this.#locked && this.#waiters.length === 0;
  }
}
