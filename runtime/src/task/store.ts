// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The persistence interface of the task runtime. Everything is async and keyed by a
 * {@link TaskScope} (tenant + owner), so that a SQL implementation maps each method to
 * one indexed query: tasks `(tenant, owner, id)` with an index on
 * `(tenant, owner, status_time DESC, seq DESC)`, push configs `(tenant, owner, task_id, id)`.
 */
import type { Timestamp } from "@bufbuild/protobuf/wkt";
import type { PushConfigShape, TaskShape } from "./shapes.js";

/**
 * Who a task belongs to: the tenant of the call and the owner key derived from the
 * authenticated principal. A task is only ever visible in the scope that created it
 * (spec §13.1); a lookup in another scope finds nothing, which the runtime answers with
 * TaskNotFound, never with a permission error.
 */
export interface TaskScope {
  /** `CallContext.tenant` ("" when none). */
  readonly tenant: string;
  /** The owner key (see `TaskHandlerOptions.ownerOf`). */
  readonly owner: string;
}

/** ListTasks filters and page, validated by the runtime before they reach the store. */
export interface TaskQuery {
  /** Only tasks of this context; "" = any. */
  readonly contextId: string;
  /** Only tasks whose `status.state` is this number; undefined = any. */
  readonly state: number | undefined;
  /** Only tasks whose `status.timestamp` is at or after this instant; undefined = any. */
  readonly statusTimestampAfter: Timestamp | undefined;
  /** 1–100. */
  readonly pageSize: number;
  /** "" for the first page, else a `nextPageToken` this store issued. */
  readonly pageToken: string;
  /**
   * A byte budget for the page (the task runtime's `maxResponseBytes`): when set, the page ends
   * before the task that would take the sum of `sizeOf` over the page past `maxBytes` — always
   * holding at least one task — and `nextPageToken` continues after the last task returned (the
   * spec lets a page hold fewer than `pageSize` tasks). A store that reads tasks from elsewhere
   * should call `sizeOf` as it reads them and stop there, so that one page never loads much more
   * than `maxBytes`. A store that ignores it stays correct: the runtime then trims the page
   * itself and asks again for the shorter page (one more query).
   */
  readonly budget?: TaskPageBudget | undefined;
}

/** The byte budget of one ListTasks page (see {@link TaskQuery.budget}). */
export interface TaskPageBudget {
  /** Bytes the page's tasks may weigh together. */
  readonly maxBytes: number;
  /** What one task weighs in the answer (its view: history trimmed, artifacts left out). */
  sizeOf(task: TaskShape): number;
}

/** One page of tasks. */
export interface TaskPage {
  /** Sorted by `status.timestamp` descending, ties broken by the most recent save first. */
  readonly tasks: readonly TaskShape[];
  /** Cursor of the next page; "" when this is the last one. */
  readonly nextPageToken: string;
  /** How many tasks match the filters, over all pages. */
  readonly totalSize: number;
}

/** A page request for push configs. */
export interface PushConfigQuery {
  /** Configs per page; 0 = all. */
  readonly pageSize: number;
  /** "" for the first page, else a `nextPageToken` this store issued. */
  readonly pageToken: string;
}

/** One page of push configs, oldest first. */
export interface PushConfigPage {
  /** The configs. */
  readonly configs: readonly PushConfigShape[];
  /** Cursor of the next page; "" when this is the last one. */
  readonly nextPageToken: string;
}

/**
 * Stores tasks and push notification configs.
 *
 * Contract: the runtime never mutates an object after handing it to `saveTask` /
 * `savePushConfig`, and never mutates what `get*` / `list*` return (it clones before
 * changing or handing out), so an in-memory store may keep and return the same
 * instances. The runtime serializes all writes to one task within a process; a store
 * shared between processes must add its own concurrency control (e.g. a version column).
 * `listTasks` and `listPushConfigs` throw `InvalidPageTokenError` (./errors.ts) for a token they
 * did not issue for the same query.
 *
 * A bounded store (byte or count quotas) refuses a save it has no room for with
 * `TaskStoreFullError` (./errors.ts), having stored nothing; it never refuses a save that puts a
 * task in a terminal state (the runtime's own FAILED and CANCELED must always land), and may make
 * room by dropping terminal tasks. Task weights are `taskBytes()` (./task-size.ts), push configs'
 * `valueBytes()`, so that every store and the runtime count the same bytes.
 */
export interface TaskStore {
  /** The task, or undefined when it does not exist in this scope. */
  getTask(scope: TaskScope, taskId: string): Promise<TaskShape | undefined>;
  /** Creates or replaces the task `task.id` in this scope. */
  saveTask(scope: TaskScope, task: TaskShape): Promise<void>;
  /** One page of the scope's tasks matching the query. */
  listTasks(scope: TaskScope, query: TaskQuery): Promise<TaskPage>;
  /** The config, or undefined when the task or the config does not exist in this scope. */
  getPushConfig(
    scope: TaskScope,
    taskId: string,
    configId: string,
  ): Promise<PushConfigShape | undefined>;
  /** Creates or replaces the config `(config.taskId, config.id)` in this scope. */
  savePushConfig(scope: TaskScope, config: PushConfigShape): Promise<void>;
  /** One page of the task's configs, oldest first. */
  listPushConfigs(
    scope: TaskScope,
    taskId: string,
    query: PushConfigQuery,
  ): Promise<PushConfigPage>;
  /** Deletes the config; does nothing when it does not exist. */
  deletePushConfig(scope: TaskScope, taskId: string, configId: string): Promise<void>;
}
