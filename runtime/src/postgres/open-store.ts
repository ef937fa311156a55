// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Opening and closing the PostgreSQL task store: the rows (./postgres-store.ts) and the cluster
 * side (./cluster.ts) over one connection pool.
 */
import pg from "pg";
import type { ClusteredTaskStore } from "../task/cluster.js";
import { PostgresTaskCluster, type PostgresClusterOptions } from "./cluster.js";
import { checkSchema, migrate } from "./migrations.js";
import { PostgresTaskRows } from "./store.js";
import type { PostgresStoreSchemas } from "./rows.js";
import { PushOutbox, type PushOutboxOptions } from "./push-outbox.js";
import type { PushNotificationSender } from "../task/push/sender.js";

/** Options of {@link PostgresTaskStore.open}. */
export interface PostgresTaskStoreOptions extends PostgresClusterOptions {
  /** A `postgres://…` URL (or set `pool`). */
  readonly connectionString?: string | undefined;
  /** A pool of the agent's own (not ended by `close()`), instead of `connectionString`. */
  readonly pool?: pg.Pool | undefined;
  /** Connections of the pool the store makes (default 10; one of them listens for wake-ups). */
  readonly maxConnections?: number | undefined;
  /** The generated schemas (`Task`, `TaskPushNotificationConfig`, `StreamResponse`). */
  readonly schemas: PostgresStoreSchemas;
  /**
   * Apply missing schema migrations at open (default true; several instances starting at once
   * migrate once, under an advisory lock). With false, a database whose schema is not current is refused.
   */
  readonly migrate?: boolean | undefined;
}

/**
 * A task store on PostgreSQL that any number of agent instances share: a {@link ClusteredTaskStore},
 * so that the task runtime serves any call on any instance as one process would.
 *
 * Meant for the task runtime, which holds a turn ticket whenever a task is SUBMITTED or WORKING: a
 * task saved SUBMITTED or WORKING by other code (`saveTask` directly) has no ticket, and the next
 * reclaim (every heartbeat) fails it as one left by a dead instance.
 */
export class PostgresTaskStore extends PostgresTaskRows implements ClusteredTaskStore {
  /** The cross-instance side. */
  readonly cluster: PostgresTaskCluster;
  readonly #ownsPool: boolean;
  #outbox: PushOutbox | undefined;

  private constructor(pool: pg.Pool, ownsPool: boolean, options: PostgresTaskStoreOptions) {
    super(pool, options.schemas);
    this.#ownsPool = ownsPool;
    this.cluster = new PostgresTaskCluster(this, options);
  }

  /** Connects, checks (or migrates) the schema, and joins the cluster. */
  static async open(options: PostgresTaskStoreOptions): Promise<PostgresTaskStore> {
    const ownsPool = options.pool === undefined;
    if (ownsPool && options.connectionString === undefined)
      throw new TypeError("PostgresTaskStore.open: set connectionString or pool");
    const pool =
      options.pool ??
      new pg.Pool({
        connectionString: options.connectionString,
        max: options.maxConnections ?? 10,
      });
    // An idle connection that fails (the server restarted) must not end the process: the pool replaces it.
    if (ownsPool) pool.on("error", () => {});
    try {
      if (options.migrate === false) await checkSchema(pool);
      else await migrate(pool);
      const store = new PostgresTaskStore(pool, ownsPool, options);
      await store.cluster.start();
      return store;
    } catch (e) {
      if (ownsPool) await pool.end().catch(() => {});
      throw e;
    }
  }

  /**
   * Delivers push notifications from the store's outbox (see ./push-outbox.ts) through `sender`
   * (its URL policy, headers and timeouts; its own queue is not used): from now on every stored event
   * is queued, in its transaction, for each push config of its task, and delivered once by whichever
   * instance claims it. Use it instead of passing `sender.onTaskEvent` to the task handler (pass
   * `checkPushUrl: sender.checkUrl` there, so that push configs are checked as they are created).
   */
  deliverPushNotifications(
    sender: Pick<PushNotificationSender, "attemptOnce">,
    options?: PushOutboxOptions,
  ): void {
    if (this.#outbox !== undefined)
      throw new Error("push notifications are already delivered from this store's outbox");
    this.pushOutbox = true;
    const outbox = new PushOutbox(this, sender, this.cluster.instanceId, options);
    this.#outbox = outbox;
    this.cluster.onPushQueued = () => outbox.wake();
  }

  /**
   * Leaves the cluster (waiting up to `graceMs` for this instance's turns to end; its tasks still
   * running after that are failed) and ends the pool it made.
   */
  async close(graceMs = 0): Promise<void> {
    await this.cluster.close(graceMs);
    await this.#outbox?.close();
    if (this.#ownsPool) await this.pool.end();
  }
}
