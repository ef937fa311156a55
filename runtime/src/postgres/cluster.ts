// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The cross-instance side of the PostgreSQL task store ({@link TaskCluster}):
 *
 * - Liveness: each instance has a row in `a2a_instances` whose `expires_at` its heartbeat pushes
 *   forward (every `heartbeatMs`, to `leaseMs` ahead). Every instance's heartbeat also reclaims:
 *   it deletes expired instances and the turn tickets of instances that are gone; a deleted ticket
 *   that was running its task (the first of the task's tickets) fails the task if it is still
 *   SUBMITTED or WORKING, in the same transaction, with a status message and an event in the log,
 *   so that every stream of it on every instance ends FAILED. A task left SUBMITTED or WORKING with
 *   no ticket at all (a process that ran before, alone) is failed the same way. An instance never
 *   touches tasks whose ticket holder is alive.
 * - Turn tickets (`a2a_turns`, a serial): a turn of a task runs when its ticket is the first of the
 *   task's; tickets are served in the order they were taken, across instances. A released ticket
 *   wakes the waiters (`pg_notify('a2a_turn', key)`), a poll every `heartbeatMs` covers lost wake-ups.
 * - Wake-ups: one pooled connection LISTENs on `a2a_task_event` and `a2a_turn`; when it is lost it
 *   is reopened, and every watcher is told that wake-ups may have been missed (it reads the log).
 */
import { randomUUID } from "node:crypto";
import type { Notification, Pool, PoolClient } from "pg";
import type { TaskCluster, TaskEventRecord, TurnTicket } from "../task/cluster.js";
import type { StreamResponseShape, TaskShape } from "../task/shapes.js";
import type { TaskScope } from "../task/store.js";
import {
  inTransaction,
  PUSH_OUTBOX_CHANNEL,
  TASK_EVENT_CHANNEL,
  type PostgresTaskRows,
} from "./store.js";
import { failedChange, taskKey } from "./rows.js";
import { CONSOLE_LOGGER, type Logger } from "../observe/logger.js";

/** The wake-up channel of released turn tickets (payload: the task key). */
const TURN_CHANNEL = "a2a_turn";

/** Default heartbeat period. */
export const DEFAULT_HEARTBEAT_MS = 1_000;
/** Default lease: an instance that has not heartbeaten for this long is dead. */
export const DEFAULT_LEASE_MS = 10_000;

/** Options of the cluster side of the store. */
export interface PostgresClusterOptions {
  /** This instance's id (default: a random UUID). Must be unique among live instances. */
  readonly instanceId?: string | undefined;
  /** Heartbeat (and reclaim, and ticket poll) period in ms. Default {@link DEFAULT_HEARTBEAT_MS}. */
  readonly heartbeatMs?: number | undefined;
  /** How long an instance stays alive without a heartbeat, in ms. Default {@link DEFAULT_LEASE_MS}. */
  readonly leaseMs?: number | undefined;
  /** The status message of a task failed because the instance running it stopped. */
  readonly interruptedText?: string | undefined;
  /** Where problems of the background work go (default: an error to `logger`). */
  readonly onError?: ((error: unknown, context: string) => void) | undefined;
  /** Where the default `onError` reports. Default: `console`. */
  readonly logger?: Logger | undefined;
}

const FAILED = 4;

/** A ticket this instance holds or waits with. */
interface HeldTicket extends TurnTicket {
  readonly ticket: string;
}

/** See the file comment. */
export class PostgresTaskCluster implements TaskCluster {
  readonly instanceId: string;
  readonly #rows: PostgresTaskRows;
  readonly #pool: Pool;
  readonly #heartbeatMs: number;
  readonly #leaseMs: number;
  readonly #interruptedText: string;
  readonly #onError: (error: unknown, context: string) => void;
  /** Tickets taken and not released (granted or waiting). */
  readonly #tickets = new Set<string>();
  /** Tickets whose release failed: the heartbeat deletes them. */
  readonly #unreleased = new Set<string>();
  /**
   * Tickets of turns that ended here whose row is being deleted (or is left to the heartbeat): no turn runs
   * under them, whatever a2a_turns says until the delete commits (isRunning leaves them out).
   */
  readonly #released = new Set<string>();
  /** Watchers of task events, by task key. */
  readonly #watchers = new Map<string, Set<(seq: number | undefined) => void>>();
  /** Waiters for a turn, by task key. */
  readonly #turnWaiters = new Map<string, Set<() => void>>();
  #listener: PoolClient | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;
  #closed = false;
  #beating = false;
  #sweeping = false;

  constructor(rows: PostgresTaskRows, options: PostgresClusterOptions = {}) {
    this.#rows = rows;
    this.#pool = rows.pool;
    this.instanceId = options.instanceId ?? randomUUID();
    this.#heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
    this.#leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    if (!(this.#heartbeatMs > 0 && this.#leaseMs > this.#heartbeatMs))
      throw new RangeError("leaseMs must be more than heartbeatMs (> 0)");
    this.#interruptedText =
      options.interruptedText ??
      "The agent instance running this task stopped before finishing it; send the request again.";
    const logger = options.logger ?? CONSOLE_LOGGER;
    this.#onError =
      options.onError ??
      ((error, context) => logger.error(`PostgreSQL task cluster: ${context}`, error));
  }

  /** Registers the instance, starts listening and heartbeating, and reclaims once. */
  async start(): Promise<void> {
    await this.#register();
    // Tickets of an earlier process with this instance id: it is gone, this one holds none yet.
    await this.#pool.query("DELETE FROM a2a_turns WHERE instance_id = $1", [this.instanceId]);
    await this.#listen();
    await this.reclaim();
    this.#timer = setInterval(() => this.#tick(), this.#heartbeatMs);
    this.#timer.unref();
  }

  async #register(): Promise<void> {
    await this.#pool.query(
      `INSERT INTO a2a_instances (id, expires_at) VALUES ($1, now() + $2 * interval '1 millisecond')
       ON CONFLICT (id) DO UPDATE SET heartbeat_at = now(), expires_at = EXCLUDED.expires_at`,
      [this.instanceId, this.#leaseMs],
    );
  }

  async #listen(): Promise<void> {
    const client = await this.#pool.connect();
    client.on("notification", (n: Notification) => this.#notified(n));
    client.on("error", (e: Error) => this.#listenerLost(client, e));
    await client.query(
      `LISTEN ${TASK_EVENT_CHANNEL}; LISTEN ${TURN_CHANNEL}; LISTEN ${PUSH_OUTBOX_CHANNEL}`,
    );
    this.#listener = client;
  }

  #listenerLost(client: PoolClient, error: Error): void {
    if (this.#listener !== client) return;
    this.#listener = undefined;
    client.release(error);
    if (this.#closed) return;
    this.#onError(error, "the LISTEN connection was lost; reconnecting");
    const retry = (delay: number): void => {
      setTimeout(() => {
        if (this.#closed) return;
        this.#listen().then(
          () => {
            // Wake-ups sent while nobody listened are lost: every watcher reads the log, every waiter looks again.
            for (const set of this.#watchers.values()) for (const wake of set) wake(undefined);
            for (const set of this.#turnWaiters.values()) for (const wake of set) wake();
            this.onPushQueued?.();
          },
          () => retry(Math.min(delay * 2, 5_000)),
        );
      }, delay).unref();
    };
    retry(100);
  }

  /** Called when push notifications were queued anywhere (set by the outbox's delivery loop). */
  onPushQueued: (() => void) | undefined;

  #notified(n: Notification): void {
    const payload = n.payload ?? "";
    if (n.channel === PUSH_OUTBOX_CHANNEL) {
      this.onPushQueued?.();
      return;
    }
    if (n.channel === TURN_CHANNEL) {
      for (const wake of this.#turnWaiters.get(payload) ?? []) wake();
      return;
    }
    if (n.channel !== TASK_EVENT_CHANNEL) return;
    const space = payload.indexOf(" ");
    const seq = Number(payload.slice(0, space));
    const key = payload.slice(space + 1);
    if (key === "*") {
      for (const set of this.#watchers.values()) for (const wake of set) wake(undefined);
      return;
    }
    for (const wake of this.#watchers.get(key) ?? [])
      wake(Number.isSafeInteger(seq) ? seq : undefined);
  }

  /** Every period: the heartbeat (its own step, on the LISTEN connection when there is one), then the reclaim. */
  #tick(): void {
    void this.#heartbeat();
    void this.#sweep();
  }

  /**
   * Pushes this instance's lease forward. Kept apart from the reclaim and, when it can, off the shared
   * pool (the LISTEN connection is this instance's own), so that a busy pool does not make a live
   * instance miss its lease.
   */
  async #heartbeat(): Promise<void> {
    if (this.#beating || this.#closed) return;
    this.#beating = true;
    try {
      const db = this.#listener ?? this.#pool;
      const result = await db.query(
        "UPDATE a2a_instances SET heartbeat_at = now(), expires_at = now() + $2 * interval '1 millisecond' WHERE id = $1",
        [this.instanceId, this.#leaseMs],
      );
      if (result.rowCount === 0 && !this.#closed) {
        // Declared dead (a pause longer than the lease): our tickets are gone and our running tasks failed.
        this.#onError(
          new Error(
            `instance ${this.instanceId} missed its lease; its running tasks were failed by another instance`,
          ),
          "heartbeat",
        );
        await this.#register();
      }
    } catch (e) {
      this.#onError(e, "heartbeat");
    } finally {
      this.#beating = false;
    }
  }

  async #sweep(): Promise<void> {
    if (this.#sweeping || this.#closed) return;
    this.#sweeping = true;
    try {
      // A ticket whose release failed would block its task for as long as we live: delete it (only those: a ticket
      // being taken right now is in no snapshot of #tickets yet).
      if (this.#unreleased.size > 0) {
        const stale = [...this.#unreleased];
        await this.#pool.query(
          "DELETE FROM a2a_turns WHERE instance_id = $1 AND ticket = ANY($2::bigint[])",
          [this.instanceId, stale],
        );
        for (const ticket of stale) this.#unreleased.delete(ticket);
      }
      await this.reclaim();
      // Lost wake-ups: waiters look again.
      for (const set of this.#turnWaiters.values()) for (const wake of set) wake();
    } catch (e) {
      this.#onError(e, "reclaiming the tasks of stopped instances");
    } finally {
      this.#sweeping = false;
    }
  }

  /**
   * Deletes expired instances and the tickets of instances that are gone, failing the tasks whose
   * running turn they held (and tasks left SUBMITTED or WORKING with no ticket). Resolves with the
   * number of tasks failed.
   */
  async reclaim(): Promise<number> {
    await this.#pool.query("DELETE FROM a2a_instances WHERE expires_at < now()");
    // One transaction: the turn of a task whose runner died is given up and the task failed together,
    // so that the next ticket holder never starts a turn of a task still WORKING for a dead runner.
    let failed = await inTransaction(this.#pool, async (client) => {
      const deleted = await client.query<{
        ticket: string;
        tenant: string;
        owner: string;
        task_id: string;
      }>(
        `DELETE FROM a2a_turns t WHERE NOT EXISTS (SELECT 1 FROM a2a_instances i WHERE i.id = t.instance_id)
         RETURNING ticket, tenant, owner, task_id`,
      );
      let count = 0;
      const done = new Set<string>();
      for (const row of deleted.rows) {
        const scope = { tenant: row.tenant, owner: row.owner };
        const key = taskKey(scope, row.task_id);
        await client.query("SELECT pg_notify($1, $2)", [TURN_CHANNEL, key]);
        // The first ticket of its task was running it.
        const earlier = await client.query(
          "SELECT 1 FROM a2a_turns WHERE tenant = $1 AND owner = $2 AND task_id = $3 AND ticket < $4 LIMIT 1",
          [row.tenant, row.owner, row.task_id, row.ticket],
        );
        const earlierDeleted = deleted.rows.some(
          (d) =>
            d.tenant === row.tenant &&
            d.owner === row.owner &&
            d.task_id === row.task_id &&
            BigInt(d.ticket) < BigInt(row.ticket),
        );
        if (earlier.rowCount !== 0 || earlierDeleted || done.has(key)) continue;
        done.add(key);
        if (await this.#failIfRunning(client, scope, row.task_id)) count++;
      }
      return count;
    });
    const orphans = await this.#pool.query<{ tenant: string; owner: string; id: string }>(
      `SELECT tenant, owner, id FROM a2a_tasks t WHERE state IN (1, 2)
         AND NOT EXISTS (SELECT 1 FROM a2a_turns u WHERE u.tenant = t.tenant AND u.owner = t.owner AND u.task_id = t.id) LIMIT 1000`,
    );
    for (const row of orphans.rows) {
      const scope = { tenant: row.tenant, owner: row.owner };
      try {
        const orphanFailed = await inTransaction(this.#pool, async (client) => {
          const held = await client.query(
            "SELECT 1 FROM a2a_turns WHERE tenant = $1 AND owner = $2 AND task_id = $3 LIMIT 1",
            [row.tenant, row.owner, row.id],
          );
          return held.rowCount === 0 && (await this.#failIfRunning(client, scope, row.id));
        });
        if (orphanFailed) failed++;
      } catch (e) {
        this.#onError(e, `failing task ${row.id}, left WORKING by a stopped instance`);
      }
    }
    return failed;
  }

  /** In `client`'s transaction: fails the task if it is still SUBMITTED or WORKING. */
  async #failIfRunning(client: PoolClient, scope: TaskScope, taskId: string): Promise<boolean> {
    const task = await this.#rows.lockTask(client, scope, taskId);
    const state = task?.status?.state;
    if (task === undefined || (state !== 1 && state !== 2)) return false;
    const change = failedChange(this.#rows.schemas, task, FAILED, this.#interruptedText);
    await this.#rows.updateWithEvent(client, scope, task, change.next, change.event);
    return true;
  }

  /** {@inheritDoc task!TaskCluster.create} */
  async create(
    scope: TaskScope,
    task: TaskShape,
    event: StreamResponseShape,
  ): Promise<{ readonly seq: number; readonly ticket: TurnTicket }> {
    this.#checkOpen();
    // One statement: the task, its first event and this turn's ticket.
    const ticket = await this.#rows.insertWithEvent(
      this.#pool,
      scope,
      task,
      event,
      this.instanceId,
    );
    return { seq: 1, ticket: this.#held(scope, task.id, ticket) };
  }

  /** {@inheritDoc task!TaskCluster.commit} */
  commit(
    scope: TaskScope,
    base: TaskShape,
    next: TaskShape,
    event: StreamResponseShape | undefined,
  ): Promise<number> {
    return this.#rows.updateWithEvent(this.#pool, scope, base, next, event);
  }

  /** {@inheritDoc task!TaskCluster.seqOf} */
  seqOf(task: TaskShape): number | undefined {
    return this.#rows.seqOf(task);
  }

  /** {@inheritDoc task!TaskCluster.readTask} */
  readTask(scope: TaskScope, taskId: string): Promise<TaskShape | undefined> {
    return this.#rows.getTask(scope, taskId);
  }

  /** {@inheritDoc task!TaskCluster.readEvents} */
  readEvents(
    scope: TaskScope,
    taskId: string,
    afterSeq: number,
    limit: number,
  ): Promise<TaskEventRecord[]> {
    return this.#rows.readEvents(scope, taskId, afterSeq, limit);
  }

  /** {@inheritDoc task!TaskCluster.acquireTurn} */
  async acquireTurn(scope: TaskScope, taskId: string, signal?: AbortSignal): Promise<TurnTicket> {
    this.#checkOpen();
    signal?.throwIfAborted();
    const taken = await this.#pool.query<{ ticket: string }>({
      name: "a2a_take_turn",
      text: "INSERT INTO a2a_turns (tenant, owner, task_id, instance_id) VALUES ($1, $2, $3, $4) RETURNING ticket",
      values: [scope.tenant, scope.owner, taskId, this.instanceId],
    });
    const held = this.#held(scope, taskId, (taken.rows[0] as { ticket: string }).ticket);
    const key = taskKey(scope, taskId);
    try {
      for (;;) {
        const wait = this.#waitForTurn(key, signal);
        const first = await this.#pool.query<{ ticket: string }>({
          name: "a2a_first_turn",
          text: "SELECT ticket FROM a2a_turns WHERE tenant = $1 AND owner = $2 AND task_id = $3 ORDER BY ticket LIMIT 1",
          values: [scope.tenant, scope.owner, taskId],
        });
        if (first.rows[0]?.ticket === held.ticket) {
          wait.cancel();
          return held;
        }
        if (first.rows[0] === undefined)
          throw new Error(
            `the turn ticket of task ${taskId} was taken away (this instance missed its lease)`,
          );
        await wait.promise;
      }
    } catch (e) {
      held.release();
      throw e;
    }
  }

  /** A wake-up of `key`'s turn waiters, an abort, or the poll period, whichever comes first. */
  #waitForTurn(
    key: string,
    signal: AbortSignal | undefined,
  ): { promise: Promise<void>; cancel(): void } {
    let set = this.#turnWaiters.get(key);
    if (set === undefined) this.#turnWaiters.set(key, (set = new Set()));
    const waiters = set;
    let done: () => void = () => {};
    let fail: (e: unknown) => void = () => {};
    const promise = new Promise<void>((resolve, reject) => {
      done = resolve;
      fail = reject;
    });
    const timer = setTimeout(() => wake(), this.#heartbeatMs);
    const onAbort = (): void => {
      cancel();
      fail(signal?.reason);
    };
    const cancel = (): void => {
      clearTimeout(timer);
      waiters.delete(wake);
      if (waiters.size === 0 && this.#turnWaiters.get(key) === waiters)
        this.#turnWaiters.delete(key);
      signal?.removeEventListener("abort", onAbort);
    };
    const wake = (): void => {
      cancel();
      done();
    };
    waiters.add(wake);
    signal?.addEventListener("abort", onAbort, { once: true });
    // A wake-up between the query and here is caught by the poll.
    return { promise, cancel };
  }

  #held(scope: TaskScope, taskId: string, ticket: string): HeldTicket {
    this.#tickets.add(ticket);
    let released = false;
    return {
      ticket,
      release: () => {
        if (released) return;
        released = true;
        this.#released.add(ticket);
        void this.#release(scope, taskId, ticket, 0).finally(() => this.#released.delete(ticket));
      },
    };
  }

  async #release(scope: TaskScope, taskId: string, ticket: string, attempt: number): Promise<void> {
    try {
      await this.#pool.query({
        name: "a2a_release_turn",
        text: "WITH d AS (DELETE FROM a2a_turns WHERE ticket = $1 RETURNING 1) SELECT pg_notify($2, $3)",
        values: [ticket, TURN_CHANNEL, taskKey(scope, taskId)],
      });
      this.#tickets.delete(ticket);
    } catch (e) {
      if (this.#closed || attempt >= 3) {
        // The heartbeat deletes tickets this instance does not hold any more.
        this.#tickets.delete(ticket);
        this.#unreleased.add(ticket);
        if (!this.#closed) this.#onError(e, `releasing the turn of task ${taskId}`);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt).unref());
      await this.#release(scope, taskId, ticket, attempt + 1);
    }
  }

  /** {@inheritDoc task!TaskCluster.isRunning} */
  async isRunning(scope: TaskScope, taskId: string): Promise<boolean> {
    // Not the turns that ended here and whose ticket is still being deleted (the delete is not awaited by the turn).
    const result = await this.#pool.query(
      `SELECT 1 FROM a2a_turns t JOIN a2a_instances i ON i.id = t.instance_id
       WHERE t.tenant = $1 AND t.owner = $2 AND t.task_id = $3 AND i.expires_at > now() AND t.ticket::text <> ALL($4::text[]) LIMIT 1`,
      [scope.tenant, scope.owner, taskId, [...this.#released, ...this.#unreleased]],
    );
    return result.rowCount !== 0;
  }

  /** {@inheritDoc task!TaskCluster.watch} */
  watch(scope: TaskScope, taskId: string, wake: (seq: number | undefined) => void): () => void {
    const key = taskKey(scope, taskId);
    let set = this.#watchers.get(key);
    if (set === undefined) this.#watchers.set(key, (set = new Set()));
    const watchers = set;
    watchers.add(wake);
    return () => {
      watchers.delete(wake);
      if (watchers.size === 0 && this.#watchers.get(key) === watchers) this.#watchers.delete(key);
    };
  }

  /**
   * For tests: stops heartbeating as a dead process would (its row expires, other instances reclaim
   * its tickets and fail its running tasks), without closing anything.
   */
  stopHeartbeatForTest(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** Tasks with a live in-process watcher (for tests). */
  get watched(): number {
    return this.#watchers.size;
  }

  #checkOpen(): void {
    if (this.#closed) throw new Error("the PostgreSQL task store is closed");
  }

  /**
   * Leaves the cluster: waits up to `graceMs` for this instance's turns to end, then gives up its
   * tickets and its row (its tasks still SUBMITTED or WORKING are failed now, each with an event, so
   * that streams on other instances end) and stops listening.
   */
  async close(graceMs = 0): Promise<void> {
    if (this.#closed) return;
    const deadline = Date.now() + graceMs;
    while (this.#tickets.size > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    this.#closed = true;
    if (this.#timer !== undefined) clearInterval(this.#timer);
    try {
      await this.#pool.query("DELETE FROM a2a_instances WHERE id = $1", [this.instanceId]);
      await this.reclaim();
    } catch (e) {
      this.#onError(e, "leaving the cluster");
    }
    const listener = this.#listener;
    this.#listener = undefined;
    listener?.release();
    for (const set of this.#turnWaiters.values()) for (const wake of set) wake();
  }
}
