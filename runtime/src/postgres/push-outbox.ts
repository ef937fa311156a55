// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Push notifications from a durable outbox, exactly once per event across instances.
 *
 * With the outbox on, every task event is queued in `a2a_push_outbox`, one row per push config of
 * its task, in the transaction that stores the event (./postgres-store.ts): an event that is stored
 * is delivered, even when the instance that stored it dies right after the commit. Every instance
 * runs a delivery loop that claims due rows (`FOR UPDATE SKIP LOCKED`, so one instance delivers each
 * row) — only the oldest row of each (task, config), so that one webhook gets a task's events in
 * order — makes one attempt through the push sender (its URL policy, headers, timeouts), and
 * deletes the row when the receiver answered 2xx, or schedules the next attempt with exponential
 * backoff (honouring `Retry-After`) in the row itself, so retries survive restarts. A row claimed
 * by an instance that died is claimed again once its lock expires. Each delivery carries
 * `A2A-Event-Id: <seq>:<task id>`: the one case that delivers an event twice — an instance dying
 * between the receiver's 2xx and the row's deletion — is recognizable by the receiver.
 */
import type { PoolClient } from "pg";
import type { PushConfigShape, StreamResponseShape } from "../task/shapes.js";
import type {
  PushAttemptResult,
  PushDeliveryFailure,
  PushNotificationSender,
} from "../task/push/sender.js";
import { formatEventId } from "../task/event-ids.js";
import type { PostgresTaskRows } from "./store.js";
import { CONSOLE_LOGGER, type Logger } from "../observe/logger.js";

/** Options of the delivery loop. */
export interface PushOutboxOptions {
  /** Attempts per event and webhook before it is given up (reported). Default 8. */
  readonly maxAttempts?: number | undefined;
  /** Backoff before attempt n+1 is about `baseDelayMs · 2^(n-1)`, at most `maxDelayMs`. Default 1000. */
  readonly baseDelayMs?: number | undefined;
  /** Default 300 000 (5 minutes). */
  readonly maxDelayMs?: number | undefined;
  /** How long a claimed row is this instance's before another may claim it (ms); longer than an attempt. Default 60 000. */
  readonly lockMs?: number | undefined;
  /** Rows claimed at once. Default 16. */
  readonly batchSize?: number | undefined;
  /** Look for due rows at least this often (ms), besides wake-ups. Default 1000. */
  readonly pollMs?: number | undefined;
  /** Called when a delivery is given up. Default: a warning to `logger`. */
  readonly onDeliveryError?: ((failure: PushDeliveryFailure) => void) | undefined;
  /** Where the default `onDeliveryError` and failures of the delivery loop go. Default: `console`. */
  readonly logger?: Logger | undefined;
}

interface OutboxRow {
  readonly id: string;
  readonly tenant: string;
  readonly owner: string;
  readonly task_id: string;
  readonly seq: string;
  readonly config_id: string;
  readonly attempts: number;
}

/** The delivery loop of one instance (see the file comment). */
export class PushOutbox {
  readonly #rows: PostgresTaskRows;
  readonly #sender: Pick<PushNotificationSender, "attemptOnce">;
  readonly #instanceId: string;
  readonly #maxAttempts: number;
  readonly #baseDelayMs: number;
  readonly #maxDelayMs: number;
  readonly #lockMs: number;
  readonly #batchSize: number;
  readonly #onDeliveryError: (failure: PushDeliveryFailure) => void;
  readonly #logger: Logger;
  readonly #timer: ReturnType<typeof setInterval>;
  #running: Promise<void> | undefined;
  #again = false;
  #closed = false;

  constructor(
    rows: PostgresTaskRows,
    sender: Pick<PushNotificationSender, "attemptOnce">,
    instanceId: string,
    options: PushOutboxOptions = {},
  ) {
    this.#rows = rows;
    this.#sender = sender;
    this.#instanceId = instanceId;
    this.#maxAttempts = options.maxAttempts ?? 8;
    this.#baseDelayMs = options.baseDelayMs ?? 1_000;
    this.#maxDelayMs = options.maxDelayMs ?? 300_000;
    this.#lockMs = options.lockMs ?? 60_000;
    this.#batchSize = options.batchSize ?? 16;
    const logger = options.logger ?? CONSOLE_LOGGER;
    this.#logger = logger;
    this.#onDeliveryError =
      options.onDeliveryError ??
      ((f) =>
        logger.warn?.(
          `push notification for task ${f.taskId} to ${f.url} given up (${f.reason}, ${f.attempts} attempt(s))`,
        ));
    this.#timer = setInterval(() => this.wake(), options.pollMs ?? 1_000);
    this.#timer.unref();
    this.wake();
  }

  /** Looks for due rows now (a wake-up: an event was queued). */
  wake(): void {
    if (this.#closed) return;
    if (this.#running !== undefined) {
      this.#again = true;
      return;
    }
    this.#running = this.#drain()
      .catch((e: unknown) => {
        if (!this.#closed)
          this.#logger.warn?.("push outbox: delivery loop failed; retrying at the next poll", e);
      })
      .finally(() => {
        this.#running = undefined;
        if (this.#again) {
          this.#again = false;
          this.wake();
        }
      });
  }

  async #drain(): Promise<void> {
    for (;;) {
      if (this.#closed) return;
      const claimed = await this.#claim();
      if (claimed.length === 0) return;
      await Promise.all(claimed.map((row) => this.#deliver(row)));
    }
  }

  async #claim(): Promise<OutboxRow[]> {
    const result = await this.#rows.pool.query<OutboxRow>(
      `UPDATE a2a_push_outbox SET locked_by = $1, locked_until = now() + $2 * interval '1 millisecond', attempts = attempts + 1
       WHERE id IN (
         SELECT id FROM a2a_push_outbox c
         WHERE c.next_at <= now() AND (c.locked_until IS NULL OR c.locked_until < now())
           AND NOT EXISTS (SELECT 1 FROM a2a_push_outbox e WHERE e.tenant = c.tenant AND e.owner = c.owner
                           AND e.task_id = c.task_id AND e.config_id = c.config_id AND e.seq < c.seq)
         ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED)
       RETURNING id, tenant, owner, task_id, seq, config_id, attempts`,
      [this.#instanceId, this.#lockMs, this.#batchSize],
    );
    return result.rows;
  }

  async #deliver(row: OutboxRow): Promise<void> {
    const scope = { tenant: row.tenant, owner: row.owner };
    const seq = Number(row.seq);
    const [config, events] = await Promise.all([
      this.#rows.getPushConfig(scope, row.task_id, row.config_id),
      this.#rows.readEvents(scope, row.task_id, seq - 1, 1),
    ]);
    const event = events[0]?.seq === seq ? events[0].event : undefined;
    if (config === undefined || event === undefined) {
      // The config was deleted (or the task purged) since: nothing to deliver.
      await this.#done(row);
      return;
    }
    const result = await this.#sender.attemptOnce(config, event, formatEventId(row.task_id, seq));
    if (result.kind === "delivered") await this.#done(row);
    else if (result.kind === "fail" && result.reason === "closed") await this.#unlock(row, 0);
    else if (result.kind === "fail" || row.attempts >= this.#maxAttempts) {
      await this.#done(row);
      this.#report(row, config, event, result);
    } else await this.#unlock(row, this.#delayOf(row.attempts, result));
  }

  #delayOf(attempts: number, result: PushAttemptResult & { kind: "retry" }): number {
    if (result.retryAfterMs !== undefined)
      return Math.min(this.#maxDelayMs, Math.max(0, result.retryAfterMs));
    const backoff = Math.min(this.#maxDelayMs, this.#baseDelayMs * 2 ** (attempts - 1));
    return backoff / 2 + Math.random() * (backoff / 2);
  }

  #report(
    row: OutboxRow,
    config: PushConfigShape,
    event: StreamResponseShape,
    result: PushAttemptResult,
  ): void {
    const failure: PushDeliveryFailure = {
      reason:
        result.kind === "retry"
          ? result.reason
          : result.kind === "fail"
            ? result.reason
            : "http-status",
      scope: { tenant: row.tenant, owner: row.owner },
      taskId: row.task_id,
      configId: config.id,
      url: config.url,
      attempts: row.attempts,
      ...("status" in result && result.status !== undefined ? { status: result.status } : {}),
      ...("error" in result && result.error !== undefined ? { error: result.error } : {}),
      event,
    };
    try {
      this.#onDeliveryError(failure);
    } catch {
      // A broken reporter must not stop delivery.
    }
  }

  async #done(row: OutboxRow): Promise<void> {
    await this.#rows.pool.query("DELETE FROM a2a_push_outbox WHERE id = $1 AND locked_by = $2", [
      row.id,
      this.#instanceId,
    ]);
  }

  async #unlock(row: OutboxRow, delayMs: number): Promise<void> {
    await this.#rows.pool.query(
      "UPDATE a2a_push_outbox SET locked_by = NULL, locked_until = NULL, next_at = now() + $3 * interval '1 millisecond' WHERE id = $1 AND locked_by = $2",
      [row.id, this.#instanceId, Math.round(delayMs)],
    );
  }

  /** Stops claiming; waits for the attempts in flight. */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    await this.#running;
  }
}

/** Rows waiting in the outbox (for tests and metrics). */
export async function pendingPushes(client: Pick<PoolClient, "query">): Promise<number> {
  const result = await client.query<{ n: string }>("SELECT count(*) AS n FROM a2a_push_outbox");
  return Number(result.rows[0]?.n ?? 0);
}
