// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Group commit of the SQLite task store's saves. better-sqlite3 is synchronous, so a commit per save
 * would block the event loop once per task event. Writes are therefore queued, and every write
 * queued during one event-loop turn is committed in a single transaction at the end of that turn
 * (`setImmediate`; at once past `maxBatch` queued writes). A write's promise resolves only after
 * the commit that holds it returned: a write that fails alone (its `errors` slot set by the commit
 * function) rejects alone, a commit that throws rejects every write of its batch, and later writes
 * go to the next batch, whatever happened to this one. Two writes of one key in one batch are
 * written once, the last one, at the place of the last (both callers wait for that commit).
 *
 * While another connection holds the lock (a commit throwing an error `isBusy` recognizes: nothing
 * of the batch was written), the batch stays queued, before the writes queued since, and a timer
 * tries again every `retryMs` until it has waited `busyTimeoutMs`; then it is rejected with the busy
 * error. Meanwhile only that timer commits: {@link GroupCommit.flush} does nothing, so readers see
 * what is committed. {@link GroupCommit.close} stops the retries and commits at once.
 */

/** A caller waiting for a write. */
interface Waiter {
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/** A write waiting for the next commit, with the callers waiting for it. */
interface PendingWrite<T> {
  readonly key: string;
  readonly item: T;
  readonly waiters: readonly Waiter[];
}

/** What a {@link GroupCommit} commits with, and how long it waits for a lock. */
export interface GroupCommitOptions<T> {
  /**
   * Writes a batch, in order, in one transaction, synchronously. A write that fails alone gets its
   * error in `errors` at its index (the others commit); throwing fails the whole batch (nothing of
   * it may be left written).
   */
  readonly commit: (batch: readonly T[], errors: unknown[]) => void;
  /** True for an error thrown by `commit` that means another connection holds the lock (nothing was written). */
  readonly isBusy: (error: unknown) => boolean;
  /** How long a batch may keep finding the database locked before its writes are rejected, in ms. */
  readonly busyTimeoutMs: number;
  /** Writes queued at most before a commit runs at once, without waiting for the turn to end. Default 256. */
  readonly maxBatch?: number | undefined;
  /** Time between two commit attempts of a batch that found the database locked, in ms. Default 20. */
  readonly retryMs?: number | undefined;
}

/** Batches writes into one transaction per event-loop turn. */
export class GroupCommit<T> {
  readonly #commit: (batch: readonly T[], errors: unknown[]) => void;
  readonly #isBusy: (error: unknown) => boolean;
  readonly #busyTimeoutMs: number;
  readonly #maxBatch: number;
  readonly #retryMs: number;
  /** Writes waiting for the next commit, by key, in the order of their (last) write. */
  readonly #pending = new Map<string, PendingWrite<T>>();
  #flushScheduled = false;
  /** The next commit attempt while another connection holds the lock. */
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  /** When the pending writes first found the database locked (their wait is bounded by busyTimeoutMs). */
  #busySince: number | undefined;
  #closing = false;

  /** A group commit over `options.commit`. */
  constructor(options: GroupCommitOptions<T>) {
    this.#commit = options.commit;
    this.#isBusy = options.isBusy;
    this.#busyTimeoutMs = options.busyTimeoutMs;
    this.#maxBatch = options.maxBatch ?? 256;
    this.#retryMs = options.retryMs ?? 20;
  }

  /** Writes waiting for a commit. */
  get size(): number {
    return this.#pending.size;
  }

  /** True when a write of `key` waits for a commit. */
  has(key: string): boolean {
    return this.#pending.has(key);
  }

  /**
   * Queues the write `item` of `key` for the next commit; resolves once committed, rejects with its
   * own error or its batch's. A write of a key already queued replaces it and moves to the end.
   */
  add(key: string, item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const earlier = this.#pending.get(key);
      // A second write of a key before the commit replaces the first (written once) and moves to the
      // end, so it is written after the writes issued in between, as it would be alone.
      if (earlier !== undefined) this.#pending.delete(key);
      this.#pending.set(key, {
        key,
        item,
        waiters: [...(earlier?.waiters ?? []), { resolve, reject }],
      });
      if (this.#pending.size >= this.#maxBatch) this.#flush();
      else if (!this.#flushScheduled && this.#retryTimer === undefined) this.#schedule();
    });
  }

  /** Commits the pending writes now (so that a read sees them), unless a batch is waiting for the lock. Never throws. */
  flush(): void {
    this.#flush();
  }

  /**
   * Stops retrying: a pending retry is cancelled, and from now on a batch that finds the database
   * locked is rejected at once. Then, when `commit` (default true), commits the pending writes now.
   */
  close(commit = true): void {
    if (this.#retryTimer !== undefined) clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    this.#closing = true;
    if (commit) this.#flush(true);
  }

  #schedule(): void {
    this.#flushScheduled = true;
    setImmediate(() => {
      this.#flushScheduled = false;
      this.#flush();
    });
  }

  /**
   * Commits the pending writes in one transaction, then settles their promises. While a batch waits
   * for the lock only its retry (`force`) commits.
   */
  #flush(force = false): void {
    if (this.#pending.size === 0 || (this.#retryTimer !== undefined && !force)) return;
    const batch = [...this.#pending.values()];
    this.#pending.clear();
    const errors: unknown[] = new Array(batch.length);
    let failure: { error: unknown } | undefined;
    try {
      this.#commit(
        batch.map((write) => write.item),
        errors,
      );
    } catch (e) {
      failure = { error: e };
    }
    if (failure !== undefined && this.#isBusy(failure.error) && !this.#closing) {
      // Nothing of the batch was written (BEGIN IMMEDIATE, or a COMMIT that rolled back, found the lock taken).
      this.#busySince ??= Date.now();
      if (Date.now() - this.#busySince < this.#busyTimeoutMs) {
        this.#requeue(batch);
        this.#retryTimer = setTimeout(() => {
          this.#retryTimer = undefined;
          this.#flush(true);
        }, this.#retryMs);
        return;
      }
    }
    this.#busySince = undefined;
    // Writes queued while the batch waited for the lock.
    if (this.#pending.size > 0 && !this.#flushScheduled) this.#schedule();
    for (let i = 0; i < batch.length; i++) {
      const error = failure !== undefined ? failure.error : errors[i];
      for (const waiter of (batch[i] as PendingWrite<T>).waiters) {
        if (failure !== undefined || i in errors) waiter.reject(error);
        else waiter.resolve();
      }
    }
  }

  /** Puts a batch that found the database locked back before the writes queued since, merging writes of one key. */
  #requeue(batch: readonly PendingWrite<T>[]): void {
    const newer = [...this.#pending.entries()];
    this.#pending.clear();
    for (const write of batch) this.#pending.set(write.key, write);
    for (const [key, write] of newer) {
      const earlier = this.#pending.get(key);
      if (earlier !== undefined) this.#pending.delete(key);
      this.#pending.set(key, {
        ...write,
        waiters: [...(earlier?.waiters ?? []), ...write.waiters],
      });
    }
  }
}
