// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * A new turn before it is a task: what `execute()` of a message without a taskId runs with until its
 * executor emits its first task event. A turn that answers with a stateless Message never becomes
 * more than this: no live slot, no queue, no lock, no feed subscription, no {@link Turn}. Its
 * caller reads the turn's outcome through {@link FreshTurn} itself (a {@link TurnFeed}: the reply,
 * then the turn's `end` item), exactly as it would read the feed of a real turn.
 *
 * The first task event promotes it ({@link FreshTurn.promote}): the engine builds the real turn
 * then (slot, lock, the caller's feed subscription, emitter), before that event is committed, and
 * from then on this feed reads the real subscription.
 */
import { isCallAborted, watchCallAbort } from "../pipeline/call-abort.js";
import type { TaskCallContext } from "./executor.js";
import type { FeedItem } from "./live-tasks.js";
import type { MessageShape, PushConfigShape, StreamResponseShape } from "./shapes.js";
import type { TaskScope } from "./store.js";
import type { Turn } from "./turn.js";

/** What a turn's caller reads: the items of the turn (its events, then its `end`), closed when done. */
export interface TurnFeed extends AsyncIterableIterator<FeedItem> {
  /** Ends the feed now (idempotent); `return()` does the same for `for await … break`. */
  close(): void;
  /** Same as {@link close}. */
  return(): Promise<IteratorResult<FeedItem>>;
}

/** What a promotion gives: the real turn, and the caller's subscription to its feed (none when the caller left). */
export interface PromotedTurn {
  /** The turn, started (it holds the slot and the task's lock). */
  readonly turn: Turn;
  /** The caller's subscription, made before the first task event is committed; undefined when the caller's feed was closed. */
  readonly feed: TurnFeed | undefined;
}

/** What a fresh turn starts from: the values of its fields of the same names. */
export type FreshTurnInit<Principal> = Pick<
  FreshTurn<Principal>,
  "id" | "scope" | "taskId" | "contextId" | "userMessage" | "pushConfig" | "call"
>;

const DONE: IteratorResult<FeedItem> = { done: true, value: undefined };

/** A new turn that has not emitted a task event yet, and its caller's feed. */
export class FreshTurn<Principal> implements TurnFeed {
  /** Unique turn number (the promoted {@link Turn} keeps it). */
  readonly id: number;
  /** The caller's scope. */
  readonly scope: TaskScope;
  /** The fresh task id. */
  readonly taskId: string;
  /** The context id (the client's or a fresh one). */
  readonly contextId: string;
  /** The user message as a task would store it. */
  readonly userMessage: MessageShape;
  /** Push config to register when the task is created. */
  readonly pushConfig: PushConfigShape | undefined;
  /** The call, whose abort ends the caller's feed. */
  readonly call: TaskCallContext<Principal>;
  /** The stateless reply, once accepted. */
  replied = false;
  /** Set once `execute()` settled. */
  ended = false;
  /** The real turn, once the first task event promoted this one. */
  promoted: Turn | undefined;
  /** Made when the executor reads its signal before the task exists; the promoted turn takes it over. */
  #abort: AbortController | undefined;
  /** Unread items of the unpromoted turn (the reply, the end). */
  #items: FeedItem[] = [];
  #closed = false;
  /** The caller's subscription to the real feed, after a promotion. */
  #real: TurnFeed | undefined;
  #waiter:
    | { resolve: (result: IteratorResult<FeedItem>) => void; reject: (error: unknown) => void }
    | undefined;
  #unwatch: (() => void) | undefined;

  /** The bookkeeping of a new turn. */
  constructor(init: FreshTurnInit<Principal>) {
    this.id = init.id;
    this.scope = init.scope;
    this.taskId = init.taskId;
    this.contextId = init.contextId;
    this.userMessage = init.userMessage;
    this.pushConfig = init.pushConfig;
    this.call = init.call;
    // As a feed subscription made for a call that has already gone away: closed from the start.
    if (isCallAborted(init.call)) this.#closed = true;
  }

  /** The turn's AbortSignal (made on first access; aborted by CancelTask once the task exists). */
  get signal(): AbortSignal {
    if (this.promoted !== undefined) return this.promoted.signal;
    this.#abort ??= new AbortController();
    return this.#abort.signal;
  }

  /** The controller behind a signal read before the promotion (the promoted turn aborts it). */
  get abortController(): AbortController | undefined {
    return this.#abort;
  }

  /** Hands the caller the stateless reply's event. */
  deliverReply(event: StreamResponseShape, bytes: number): void {
    this.replied = true;
    this.#deliver({ kind: "event", event, state: undefined, fanOut: false, bytes });
  }

  /** Hands the caller the end of an unpromoted turn (with the error its caller gets, when it produced nothing). */
  deliverEnd(failure: { readonly error: unknown } | undefined): void {
    this.#deliver({ kind: "end", turn: this.id, failure });
  }

  #deliver(item: FeedItem): void {
    if (this.#closed) return;
    const waiter = this.#waiter;
    if (waiter === undefined) {
      this.#items.push(item);
      return;
    }
    this.#waiter = undefined;
    this.#stopWatching();
    waiter.resolve({ done: false, value: item });
  }

  /**
   * Records the promotion to `turn`; `subscribe` makes the caller's subscription to its feed, unless
   * the caller's feed is closed already. A read waiting on this feed goes on with the subscription.
   */
  promote(turn: Turn, subscribe: () => TurnFeed): TurnFeed | undefined {
    this.promoted = turn;
    if (this.#closed) return undefined;
    const real = subscribe();
    this.#real = real;
    const waiter = this.#waiter;
    if (waiter !== undefined) {
      this.#waiter = undefined;
      this.#stopWatching();
      real.next().then(waiter.resolve, waiter.reject);
    }
    return real;
  }

  /** {@inheritDoc TurnFeed.next} */
  next(): Promise<IteratorResult<FeedItem>> {
    const real = this.#real;
    if (real !== undefined) return real.next();
    if (this.#closed) return Promise.resolve(DONE);
    if (isCallAborted(this.call)) {
      this.close();
      return Promise.resolve(DONE);
    }
    const item = this.#items.shift();
    if (item !== undefined) return Promise.resolve({ done: false, value: item });
    if (this.#waiter !== undefined)
      return Promise.reject(new Error("FreshTurn.next() called while another next() is pending"));
    return new Promise((resolve, reject) => {
      this.#waiter = { resolve, reject };
      // Only a caller that waits needs to hear of its call's abort (most replies are here before it reads).
      const unwatch = watchCallAbort(this.call)(() => this.close());
      if (this.#waiter === undefined) unwatch();
      else this.#unwatch = unwatch;
    });
  }

  #stopWatching(): void {
    const unwatch = this.#unwatch;
    this.#unwatch = undefined;
    unwatch?.();
  }

  /** {@inheritDoc TurnFeed.return} */
  return(): Promise<IteratorResult<FeedItem>> {
    this.close();
    return Promise.resolve(DONE);
  }

  /** {@inheritDoc TurnFeed.close} */
  close(): void {
    const real = this.#real;
    if (real !== undefined) {
      real.close();
      return;
    }
    if (this.#closed) return;
    this.#closed = true;
    this.#items = [];
    this.#stopWatching();
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.resolve(DONE);
  }

  /** The feed itself. */
  [Symbol.asyncIterator](): AsyncIterableIterator<FeedItem> {
    return this;
  }
}
