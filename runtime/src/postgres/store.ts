// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * A {@link TaskStore} on PostgreSQL through `pg` (an optional peer dependency: only agents that
 * import `@protoc-gen-a2a/runtime/postgres` need it), shared by any number of agent instances.
 *
 * Tasks, events and push configs are protobuf binary (`toBinary`/`fromBinary` with the schemas
 * handed in) next to the indexed columns queries run on (migrations.ts has the schema):
 * - `a2a_tasks (tenant, owner, id)`: ListTasks walks `(tenant, owner, status time DESC, save_seq
 *   DESC)` with the keyset cursors of the other stores (../task/pagination.ts); `version` counts
 *   every write of the task (optimistic concurrency), `event_seq` its events.
 * - `a2a_task_events (tenant, owner, task_id, seq)`: the task's event log, written in the same
 *   transaction as the task state each event produces; `pg_notify('a2a_task_event', …)` in that
 *   transaction wakes the other instances at commit (a wake-up only; the log is the copy).
 * - `a2a_push_configs`: oldest first by a serial kept on replace.
 * The cross-instance side (turn tickets, liveness, wake-ups) is {@link PostgresTaskCluster}.
 */
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import type { Pool, PoolClient } from "pg";
import type {
  TaskConflictError as TaskConflictErrorType,
  TaskEventRecord,
} from "../task/cluster.js";
import { TaskConflictError } from "../task/cluster.js";
import { pushConfigCursor, pushConfigPageToken } from "../task/pagination.js";
import type { PushConfigShape, StreamResponseShape, TaskShape } from "../task/shapes.js";
import type {
  PushConfigPage,
  PushConfigQuery,
  TaskPage,
  TaskQuery,
  TaskScope,
  TaskStore,
} from "../task/store.js";
import { taskBytes, valueBytes } from "../task/size.js";
import { readTaskPage, taskQueryStart } from "../task/stored-rows.js";
import {
  NANOS,
  nanosOf,
  splitNanos,
  taskKey,
  type PostgresStoreSchemas,
  type TaskRow,
} from "./rows.js";

/** The wake-up channel of committed task events (payload: `<seq> <task key>`). */
export const TASK_EVENT_CHANNEL = "a2a_task_event";
/** The wake-up channel of push notifications waiting in the outbox (no payload). */
export const PUSH_OUTBOX_CHANNEL = "a2a_push";

/** Something to run a statement on: the pool, or a client (in a transaction). */
export type Queryable = Pool | PoolClient;

/** What a stored task instance was read or written as. */
interface Stamp {
  readonly version: number;
  readonly seq: number;
}

/** Runs `fn` in a transaction on a client of `pool`. */
export async function inTransaction<T>(
  pool: Pool,
  fn: (client: PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const result = await fn(client);
    await client.query("COMMIT");
    return result;
  } catch (e) {
    await client.query("ROLLBACK").catch(() => {});
    throw e;
  } finally {
    client.release();
  }
}

/** The tasks, events and push configs of the PostgreSQL task store (see the file comment). */
export class PostgresTaskRows implements TaskStore {
  readonly #pool: Pool;
  readonly #schemas: PostgresStoreSchemas;
  /** Version and sequence of every task instance this store returned or stored (instances are never changed). */
  readonly #stamps = new WeakMap<object, Stamp>();
  /** Whether each event is queued, in its transaction, for every push config of its task (see ./push-outbox.ts). */
  pushOutbox = false;

  constructor(pool: Pool, schemas: PostgresStoreSchemas) {
    this.#pool = pool;
    this.#schemas = schemas;
  }

  /** The pool. */
  get pool(): Pool {
    return this.#pool;
  }

  /** The schemas. */
  get schemas(): PostgresStoreSchemas {
    return this.#schemas;
  }

  #decode(row: TaskRow): TaskShape {
    const task = fromBinary(this.#schemas.Task, row.data) as unknown as TaskShape;
    this.#stamps.set(task, { version: Number(row.version), seq: Number(row.event_seq) });
    return task;
  }

  /** The sequence number of the last event of a task instance this store returned or stored. */
  seqOf(task: TaskShape): number | undefined {
    return this.#stamps.get(task)?.seq;
  }

  /** {@inheritDoc task!TaskStore.getTask} */
  async getTask(scope: TaskScope, taskId: string): Promise<TaskShape | undefined> {
    const result = await this.#pool.query<TaskRow>({
      name: "a2a_get_task",
      text: "SELECT id, data, version, event_seq FROM a2a_tasks WHERE tenant = $1 AND owner = $2 AND id = $3",
      values: [scope.tenant, scope.owner, taskId],
    });
    const row = result.rows[0];
    return row === undefined ? undefined : this.#decode(row);
  }

  /** Creates or replaces the task `task.id` in this scope, without an event: the task's version changes, its event log does not. */
  async saveTask(scope: TaskScope, task: TaskShape): Promise<void> {
    const v = this.#values(scope, task);
    const result = await this.#pool.query<{ version: string; event_seq: string }>(
      `INSERT INTO a2a_tasks (tenant, owner, id, context_id, state, status_seconds, status_nanos, save_seq, version, event_seq, bytes, data)
       VALUES ($1, $2, $3, $4, $5, $6, $7, nextval('a2a_task_saves'), 1, 0, $8, $9)
       ON CONFLICT (tenant, owner, id) DO UPDATE SET context_id = EXCLUDED.context_id, state = EXCLUDED.state,
         status_seconds = EXCLUDED.status_seconds, status_nanos = EXCLUDED.status_nanos, save_seq = EXCLUDED.save_seq,
         version = a2a_tasks.version + 1, bytes = EXCLUDED.bytes, data = EXCLUDED.data
       RETURNING version, event_seq`,
      v,
    );
    const row = result.rows[0];
    if (row !== undefined)
      this.#stamps.set(task, { version: Number(row.version), seq: Number(row.event_seq) });
  }

  #values(scope: TaskScope, task: TaskShape): unknown[] {
    const time = splitNanos(nanosOf(task.status?.timestamp));
    return [
      scope.tenant,
      scope.owner,
      task.id,
      task.contextId,
      task.status?.state ?? 0,
      time.seconds.toString(),
      time.nanos,
      taskBytes(task),
      toBinary(this.#schemas.Task, task as never),
    ];
  }

  /**
   * Stores a new task with its first event (sequence number 1) and, when `instanceId` is given, a turn
   * ticket of that instance for it: one statement (one round trip, one implicit transaction). Resolves
   * with the ticket ("" without one).
   */
  async insertWithEvent(
    db: Queryable,
    scope: TaskScope,
    task: TaskShape,
    event: StreamResponseShape,
    instanceId: string | undefined,
  ): Promise<string> {
    const v = this.#values(scope, task);
    const tail = this.#eventTail(scope, task.id, 1, task.status?.state ?? 0, event, 10);
    const result = await db.query<{ ticket: string | null }>({
      name: "a2a_insert_task",
      text: `WITH upd AS (
         INSERT INTO a2a_tasks (tenant, owner, id, context_id, state, status_seconds, status_nanos, save_seq, version, event_seq, bytes, data)
         VALUES ($1, $2, $3, $4, $5, $6, $7, nextval('a2a_task_saves'), 1, 1, $8, $9) RETURNING tenant, owner, id
       ), ${tail.ctes},
       tk AS (INSERT INTO a2a_turns (tenant, owner, task_id, instance_id) SELECT tenant, owner, id, $${10 + tail.params.length} FROM upd WHERE $${10 + tail.params.length}::text IS NOT NULL RETURNING ticket)
       SELECT (SELECT ticket FROM tk) AS ticket, ${tail.select}`,
      values: [...v, ...tail.params, instanceId ?? null],
    });
    this.#stamps.set(task, { version: 1, seq: 1 });
    return result.rows[0]?.ticket ?? "";
  }

  /**
   * Stores `next`, a change of `base`, and its event (if any): one statement (one round trip, one
   * implicit transaction, or part of `db`'s when it is in one). Throws {@link TaskConflictError},
   * storing nothing, when the stored task is no longer `base`. Resolves with the event's sequence
   * number (the task's last one without an event).
   */
  async updateWithEvent(
    db: Queryable,
    scope: TaskScope,
    base: TaskShape,
    next: TaskShape,
    event: StreamResponseShape | undefined,
  ): Promise<number> {
    const stamp = this.#stamps.get(base);
    if (stamp === undefined)
      throw new TypeError(`task ${base.id}: not an instance this store returned or stored`);
    const v = this.#values(scope, next);
    const seq = event === undefined ? stamp.seq : stamp.seq + 1;
    const update = `UPDATE a2a_tasks SET context_id = $4, state = $5, status_seconds = $6, status_nanos = $7, save_seq = nextval('a2a_task_saves'),
         version = version + 1, event_seq = $10, bytes = $8, data = $9
       WHERE tenant = $1 AND owner = $2 AND id = $3 AND version = $11`;
    let updated: boolean;
    if (event === undefined) {
      const result = await db.query({
        name: "a2a_update_task",
        text: update,
        values: [...v, seq, stamp.version],
      });
      updated = result.rowCount === 1;
    } else {
      const tail = this.#eventTail(scope, next.id, seq, next.status?.state ?? 0, event, 12);
      const result = await db.query<{ updated: number }>({
        name: "a2a_update_task_event",
        text: `WITH upd AS (${update} RETURNING tenant, owner, id), ${tail.ctes}
         SELECT (SELECT count(*) FROM upd)::int AS updated, ${tail.select}`,
        values: [...v, seq, stamp.version, ...tail.params],
      });
      updated = result.rows[0]?.updated === 1;
    }
    if (!updated) throw new TaskConflictError(base.id) satisfies TaskConflictErrorType;
    this.#stamps.set(next, { version: stamp.version + 1, seq });
    return seq;
  }

  /**
   * The part of a write statement that follows the task's row (a CTE `upd` returning its tenant, owner
   * and id): the event's row, its push outbox rows, and the wake-ups, all only when `upd` wrote a row.
   * Its parameters are numbered from `first`.
   */
  #eventTail(
    scope: TaskScope,
    taskId: string,
    seq: number,
    state: number,
    event: StreamResponseShape,
    first: number,
  ): { ctes: string; select: string; params: unknown[] } {
    const key = taskKey(scope, taskId);
    // NOTIFY payloads are limited (8000 bytes): a key too long for one wakes every watcher.
    const wake = key.length < 7000 ? `${seq} ${key}` : `${seq} *`;
    // Exactly the configs registered when the event is stored; delivered by whichever instance claims the row first.
    const outbox = this.pushOutbox && event.payload.case !== "message";
    const [seqP, stateP, dataP, outboxP, channelP, wakeP, pushP] = [0, 1, 2, 3, 4, 5, 6].map(
      (i) => `$${first + i}`,
    );
    return {
      ctes: `ev AS (INSERT INTO a2a_task_events (tenant, owner, task_id, seq, state, data) SELECT tenant, owner, id, ${seqP}::bigint, ${stateP}::int, ${dataP}::bytea FROM upd),
       ob AS (INSERT INTO a2a_push_outbox (tenant, owner, task_id, seq, config_id)
              SELECT c.tenant, c.owner, c.task_id, ${seqP}::bigint, c.id FROM a2a_push_configs c JOIN upd ON c.tenant = upd.tenant AND c.owner = upd.owner AND c.task_id = upd.id
              WHERE ${outboxP}::boolean RETURNING 1)`,
      select: `(SELECT count(*) FROM (SELECT pg_notify(${channelP}::text, ${wakeP}::text) FROM upd) n)::int AS woken,
         (SELECT count(*) FROM (SELECT pg_notify(${pushP}::text, '') WHERE EXISTS (SELECT 1 FROM ob)) p)::int AS pushed`,
      params: [
        seq,
        state,
        toBinary(this.#schemas.StreamResponse, event as never),
        outbox,
        TASK_EVENT_CHANNEL,
        wake,
        PUSH_OUTBOX_CHANNEL,
      ],
    };
  }

  /** Up to `limit` events of the task after `afterSeq`. */
  async readEvents(
    scope: TaskScope,
    taskId: string,
    afterSeq: number,
    limit: number,
  ): Promise<TaskEventRecord[]> {
    const result = await this.#pool.query<{ seq: string; state: number; data: Buffer }>({
      name: "a2a_read_events",
      text: "SELECT seq, state, data FROM a2a_task_events WHERE tenant = $1 AND owner = $2 AND task_id = $3 AND seq > $4 ORDER BY seq LIMIT $5",
      values: [scope.tenant, scope.owner, taskId, afterSeq, limit],
    });
    return result.rows.map((row) => ({
      seq: Number(row.seq),
      state: row.state,
      event: fromBinary(this.#schemas.StreamResponse, row.data) as unknown as StreamResponseShape,
    }));
  }

  /** The task row locked for update in `client`'s transaction (undefined when gone). */
  async lockTask(
    client: PoolClient,
    scope: TaskScope,
    taskId: string,
  ): Promise<TaskShape | undefined> {
    const result = await client.query<TaskRow>(
      "SELECT id, data, version, event_seq FROM a2a_tasks WHERE tenant = $1 AND owner = $2 AND id = $3 FOR UPDATE",
      [scope.tenant, scope.owner, taskId],
    );
    const row = result.rows[0];
    return row === undefined ? undefined : this.#decode(row);
  }

  /** {@inheritDoc task!TaskStore.listTasks} */
  async listTasks(scope: TaskScope, query: TaskQuery): Promise<TaskPage> {
    const { since, fingerprint, after } = taskQueryStart(query);
    const where = ["tenant = $1", "owner = $2"];
    const params: unknown[] = [scope.tenant, scope.owner];
    if (query.contextId !== "") {
      params.push(query.contextId);
      where.push(`context_id = $${params.length}`);
    }
    if (query.state !== undefined) {
      params.push(query.state);
      where.push(`state = $${params.length}`);
    }
    if (since !== undefined) {
      const s = splitNanos(since);
      params.push(s.seconds.toString(), s.nanos);
      where.push(`(status_seconds, status_nanos) >= ($${params.length - 1}, $${params.length})`);
    }
    const filter = where.join(" AND ");
    const countParams = [...params];
    if (after !== undefined) {
      const a = splitNanos(after.time);
      params.push(a.seconds.toString(), a.nanos, after.seq);
      where.push(
        `(status_seconds, status_nanos, save_seq) < ($${params.length - 2}, $${params.length - 1}, $${params.length})`,
      );
    }
    params.push(query.pageSize + 1);
    const client = await this.#pool.connect();
    try {
      // One snapshot for the count and the page.
      await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
      const count = await client.query<{ n: string }>(
        `SELECT count(*) AS n FROM a2a_tasks WHERE ${filter}`,
        countParams,
      );
      const rows = await client.query<TaskRow>(
        `SELECT id, data, version, event_seq, status_seconds, status_nanos, save_seq FROM a2a_tasks WHERE ${where.join(" AND ")}
         ORDER BY status_seconds DESC, status_nanos DESC, save_seq DESC LIMIT $${params.length}`,
        params,
      );
      await client.query("COMMIT");
      const { tasks, nextPageToken } = readTaskPage(
        rows.rows,
        query,
        fingerprint,
        (row) => this.#decode(row),
        (row) => ({
          time: BigInt(row.status_seconds) * NANOS + BigInt(row.status_nanos),
          seq: Number(row.save_seq),
        }),
      );
      return { tasks, nextPageToken, totalSize: Number(count.rows[0]?.n ?? 0) };
    } catch (e) {
      await client.query("ROLLBACK").catch(() => {});
      throw e;
    } finally {
      client.release();
    }
  }

  /** {@inheritDoc task!TaskStore.getPushConfig} */
  async getPushConfig(
    scope: TaskScope,
    taskId: string,
    configId: string,
  ): Promise<PushConfigShape | undefined> {
    const result = await this.#pool.query<{ data: Buffer }>(
      "SELECT data FROM a2a_push_configs WHERE tenant = $1 AND owner = $2 AND task_id = $3 AND id = $4",
      [scope.tenant, scope.owner, taskId, configId],
    );
    const row = result.rows[0];
    return row === undefined
      ? undefined
      : (fromBinary(
          this.#schemas.TaskPushNotificationConfig,
          row.data,
        ) as unknown as PushConfigShape);
  }

  /** {@inheritDoc task!TaskStore.savePushConfig} */
  async savePushConfig(scope: TaskScope, config: PushConfigShape): Promise<void> {
    await this.#pool.query(
      `INSERT INTO a2a_push_configs (tenant, owner, task_id, id, bytes, data) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (tenant, owner, task_id, id) DO UPDATE SET bytes = EXCLUDED.bytes, data = EXCLUDED.data`,
      [
        scope.tenant,
        scope.owner,
        config.taskId,
        config.id,
        valueBytes(config),
        toBinary(this.#schemas.TaskPushNotificationConfig, config as never),
      ],
    );
  }

  /** {@inheritDoc task!TaskStore.listPushConfigs} */
  async listPushConfigs(
    scope: TaskScope,
    taskId: string,
    query: PushConfigQuery,
  ): Promise<PushConfigPage> {
    const afterSeq = pushConfigCursor(taskId, query.pageToken);
    const limit = query.pageSize > 0 ? query.pageSize + 1 : null;
    const result = await this.#pool.query<{ seq: string; data: Buffer }>(
      "SELECT seq, data FROM a2a_push_configs WHERE tenant = $1 AND owner = $2 AND task_id = $3 AND seq > $4 ORDER BY seq LIMIT $5",
      [scope.tenant, scope.owner, taskId, afterSeq, limit],
    );
    const rows = result.rows;
    const page = query.pageSize > 0 ? rows.slice(0, query.pageSize) : rows;
    const last = page.at(-1);
    return {
      configs: page.map(
        (row) =>
          fromBinary(
            this.#schemas.TaskPushNotificationConfig,
            row.data,
          ) as unknown as PushConfigShape,
      ),
      nextPageToken:
        page.length < rows.length && last !== undefined
          ? pushConfigPageToken(taskId, Number(last.seq))
          : "",
    };
  }

  /** {@inheritDoc task!TaskStore.deletePushConfig} */
  async deletePushConfig(scope: TaskScope, taskId: string, configId: string): Promise<void> {
    await this.#pool.query(
      "DELETE FROM a2a_push_configs WHERE tenant = $1 AND owner = $2 AND task_id = $3 AND id = $4",
      [scope.tenant, scope.owner, taskId, configId],
    );
  }

  /** Not part of {@link TaskStore}: deletes a task with its events and push configs. */
  async deleteTask(scope: TaskScope, taskId: string): Promise<void> {
    await inTransaction(this.#pool, async (client) => {
      const args = [scope.tenant, scope.owner, taskId];
      await client.query(
        "DELETE FROM a2a_tasks WHERE tenant = $1 AND owner = $2 AND id = $3",
        args,
      );
      await client.query(
        "DELETE FROM a2a_task_events WHERE tenant = $1 AND owner = $2 AND task_id = $3",
        args,
      );
      await client.query(
        "DELETE FROM a2a_push_configs WHERE tenant = $1 AND owner = $2 AND task_id = $3",
        args,
      );
    });
  }

  /**
   * Deletes terminal tasks (COMPLETED, FAILED, CANCELED, REJECTED) last saved before `before`, with
   * their events and push configs, at most `limit` per call (oldest first); the number deleted.
   */
  async purge(before: Date, limit = 1000): Promise<number> {
    return inTransaction(this.#pool, async (client) => {
      const result = await client.query<{ tenant: string; owner: string; id: string }>(
        `DELETE FROM a2a_tasks WHERE (tenant, owner, id) IN (
           SELECT tenant, owner, id FROM a2a_tasks WHERE state IN (3, 4, 5, 7) AND status_seconds < $1 ORDER BY status_seconds LIMIT $2)
         RETURNING tenant, owner, id`,
        [Math.floor(before.getTime() / 1000), limit],
      );
      for (const row of result.rows) {
        const args = [row.tenant, row.owner, row.id];
        await client.query(
          "DELETE FROM a2a_task_events WHERE tenant = $1 AND owner = $2 AND task_id = $3",
          args,
        );
        await client.query(
          "DELETE FROM a2a_push_configs WHERE tenant = $1 AND owner = $2 AND task_id = $3",
          args,
        );
      }
      return result.rows.length;
    });
  }
}
