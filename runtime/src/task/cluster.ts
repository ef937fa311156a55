// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * What the task runtime needs from a store that several agent instances (processes) share, so
 * that any instance serves any call as one process would (a PostgreSQL store implements it:
 * `@protoc-gen-a2a/runtime/postgres`).
 *
 * - A per-task event log: every change of a task is stored with optimistic concurrency (the
 *   change of the stored task it started from, or a conflict), and every event with a per-task
 *   sequence number in the same transaction as the task state it produces.
 * - Wake-ups: an instance is told when an event of a task it watches is committed anywhere; it
 *   then reads the log (a wake-up is never the only copy of an event).
 * - Turn tickets: one turn of a task runs at a time across all instances, in arrival order.
 * - Liveness: an instance that stops heartbeating loses its tickets, and its running tasks are
 *   failed by a surviving instance (that event reaches every stream through the log).
 */
import type { StreamResponseShape, TaskShape } from "./shapes.js";
import type { TaskScope, TaskStore } from "./store.js";

/** One event of a task's event log. */
export interface TaskEventRecord {
  /** Its per-task sequence number (1, 2, …, no gaps). */
  readonly seq: number;
  /** The event. */
  readonly event: StreamResponseShape;
  /** The task state after it. */
  readonly state: number;
}

/** The right to run one turn of a task; released (once) when the turn ends or is canceled. */
export interface TurnTicket {
  /** Lets the next turn of the task, on any instance, start. Idempotent; never throws. */
  release(): void;
}

/** Thrown by {@link TaskCluster.commit} when the stored task is no longer the one the change started from. */
export class TaskConflictError extends Error {
  /** The task that changed under the writer. */
  readonly taskId: string;
  constructor(taskId: string) {
    super(`task ${taskId} was changed by another writer`);
    this.name = "TaskConflictError";
    this.taskId = taskId;
  }
}

/** The cross-instance side of a shared task store (see the file comment). */
export interface TaskCluster {
  /** This instance's id (unique among live instances). */
  readonly instanceId: string;
  /**
   * Stores a new task and its first event in one transaction, with the turn ticket of the turn
   * that created it (so that another instance's message for it queues behind that turn). Resolves
   * with the event's sequence number and the ticket.
   */
  create(
    scope: TaskScope,
    task: TaskShape,
    event: StreamResponseShape,
  ): Promise<{ readonly seq: number; readonly ticket: TurnTicket }>;
  /**
   * Stores `next`, a change of `base` (a task this store returned or stored), and its event (none
   * for a change that streams nothing, as a message appended to the history) in one transaction;
   * resolves with the event's sequence number (the last one when `event` is undefined). Rejects
   * with {@link TaskConflictError}, storing nothing, when the stored task is no longer `base`.
   */
  commit(
    scope: TaskScope,
    base: TaskShape,
    next: TaskShape,
    event: StreamResponseShape | undefined,
  ): Promise<number>;
  /** The sequence number of the last event of a task instance this store returned or stored. */
  seqOf(task: TaskShape): number | undefined;
  /** The task as stored now (never a cached copy), with its sequence number known to {@link seqOf}. */
  readTask(scope: TaskScope, taskId: string): Promise<TaskShape | undefined>;
  /** Up to `limit` events of the task after sequence number `afterSeq`, in order. */
  readEvents(
    scope: TaskScope,
    taskId: string,
    afterSeq: number,
    limit: number,
  ): Promise<TaskEventRecord[]>;
  /**
   * Waits for this instance's turn at the task: tickets are served in the order they were asked
   * for, across instances. Rejects with `signal.reason` when `signal` aborts first (the place is given up).
   */
  acquireTurn(scope: TaskScope, taskId: string, signal?: AbortSignal): Promise<TurnTicket>;
  /** Whether a turn of the task holds its ticket on a live instance. */
  isRunning(scope: TaskScope, taskId: string): Promise<boolean>;
  /**
   * Calls `wake(seq)` whenever an event of the task is committed (on any instance, this one included),
   * and `wake(undefined)` when wake-ups may have been missed (a reconnect): then read the log. Returns
   * the function that stops watching.
   */
  watch(scope: TaskScope, taskId: string, wake: (seq: number | undefined) => void): () => void;
}

/** A task store shared by several instances: it has a {@link TaskCluster}. */
export interface ClusteredTaskStore extends TaskStore {
  /** The cross-instance side of the store. */
  readonly cluster: TaskCluster;
}

/** The cluster of a store, when it is shared. */
export function clusterOf(store: TaskStore): TaskCluster | undefined {
  const cluster = (store as Partial<ClusteredTaskStore>).cluster;
  return cluster !== undefined && typeof cluster === "object" ? cluster : undefined;
}
