// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The in-memory {@link TaskStore}: maps keyed by scope (and an index of each context's tasks,
 * so that listing a conversation's tasks does not scan every task), keyset pagination over a
 * sort done per call (fine for tests and small agents; use a database-backed store beyond).
 */
import type { Timestamp } from "@bufbuild/protobuf/wkt";
import { decodePageToken, encodePageToken, pushConfigCursor, pushConfigPageToken, queryFingerprint } from "./pagination.js";
import { InvalidPageTokenError } from "./errors.js";
import type { PushConfigShape, TaskShape } from "./shapes.js";
import type { PushConfigPage, PushConfigQuery, TaskPage, TaskQuery, TaskScope, TaskStore } from "./task-store.js";

interface TaskRecord {
  readonly task: TaskShape;
  /** Save counter: breaks timestamp ties, most recent save first. */
  readonly seq: number;
}

interface ConfigRecord {
  readonly config: PushConfigShape;
  /** Creation counter: list order. */
  readonly seq: number;
}

/** Sort key of a task: status time in nanoseconds since the epoch, then save counter. */
interface TaskPosition {
  readonly time: bigint;
  readonly seq: number;
}

function timeOf(timestamp: Timestamp | undefined): bigint {
  if (timestamp === undefined) return 0n;
  return timestamp.seconds * 1_000_000_000n + BigInt(timestamp.nanos);
}

/** True when `a` sorts before `b` (later status time first, then later save first). */
function before(a: TaskPosition, b: TaskPosition): boolean {
  return a.time !== b.time ? a.time > b.time : a.seq > b.seq;
}

/** An injective key of a scope (the tenant's length first), cheaper than JSON. */
function scopeKey(scope: TaskScope): string {
  return `${scope.tenant.length}:${scope.tenant}${scope.owner}`;
}

/** An injective key of a scope's context. */
function contextKeyOf(scopeKey: string, contextId: string): string {
  return `${scopeKey.length}:${scopeKey}${contextId}`;
}

/** Keeps tasks and push configs in process memory. */
export class InMemoryTaskStore implements TaskStore {
  readonly #tasks = new Map<string, Map<string, TaskRecord>>();
  readonly #configs = new Map<string, Map<string, ConfigRecord>>();
  /** Scope and contextId → the ids of its tasks (a task's contextId never changes). */
  readonly #contexts = new Map<string, Set<string>>();
  #seq = 0;

  /** {@inheritDoc TaskStore.getTask} */
  async getTask(scope: TaskScope, taskId: string): Promise<TaskShape | undefined> {
    return this.#tasks.get(scopeKey(scope))?.get(taskId)?.task;
  }

  /** {@inheritDoc TaskStore.saveTask} */
  async saveTask(scope: TaskScope, task: TaskShape): Promise<void> {
    const key = scopeKey(scope);
    let tasks = this.#tasks.get(key);
    if (tasks === undefined) this.#tasks.set(key, (tasks = new Map()));
    if (!tasks.has(task.id)) {
      const contextKey = contextKeyOf(key, task.contextId);
      let ids = this.#contexts.get(contextKey);
      if (ids === undefined) this.#contexts.set(contextKey, (ids = new Set()));
      ids.add(task.id);
    }
    tasks.set(task.id, { task, seq: ++this.#seq });
  }

  /** The records a query may match: the context's tasks (from the index), or every task of the scope. */
  *#candidates(key: string, contextId: string): Iterable<TaskRecord> {
    const tasks = this.#tasks.get(key);
    if (tasks === undefined) return;
    if (contextId === "") {
      yield* tasks.values();
      return;
    }
    for (const id of this.#contexts.get(contextKeyOf(key, contextId)) ?? []) {
      const record = tasks.get(id);
      if (record !== undefined) yield record;
    }
  }

  /** {@inheritDoc TaskStore.listTasks} */
  async listTasks(scope: TaskScope, query: TaskQuery): Promise<TaskPage> {
    const fingerprint = queryFingerprint([query.contextId, query.state ?? null, query.statusTimestampAfter === undefined ? null : timeOf(query.statusTimestampAfter).toString()]);
    let after: TaskPosition | undefined;
    if (query.pageToken !== "") after = parseTaskPosition(decodePageToken(query.pageToken, fingerprint));
    const since = query.statusTimestampAfter === undefined ? undefined : timeOf(query.statusTimestampAfter);
    const matching: (TaskRecord & TaskPosition)[] = [];
    for (const record of this.#candidates(scopeKey(scope), query.contextId)) {
      const { task } = record;
      if (query.contextId !== "" && task.contextId !== query.contextId) continue;
      if (query.state !== undefined && task.status?.state !== query.state) continue;
      const time = timeOf(task.status?.timestamp);
      if (since !== undefined && time < since) continue;
      matching.push({ ...record, time });
    }
    matching.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
    const start = after === undefined ? 0 : countBefore(matching, after);
    const page = matching.slice(start, start + query.pageSize);
    const last = page.at(-1);
    const more = start + page.length < matching.length;
    return {
      tasks: page.map((r) => r.task),
      nextPageToken: more && last !== undefined ? encodePageToken(fingerprint, { t: last.time.toString(), s: last.seq }) : "",
      totalSize: matching.length,
    };
  }

  /** {@inheritDoc TaskStore.getPushConfig} */
  async getPushConfig(scope: TaskScope, taskId: string, configId: string): Promise<PushConfigShape | undefined> {
    return this.#configs.get(configKey(scope, taskId))?.get(configId)?.config;
  }

  /** {@inheritDoc TaskStore.savePushConfig} */
  async savePushConfig(scope: TaskScope, config: PushConfigShape): Promise<void> {
    const key = configKey(scope, config.taskId);
    let configs = this.#configs.get(key);
    if (configs === undefined) this.#configs.set(key, (configs = new Map()));
    const existing = configs.get(config.id);
    configs.set(config.id, { config, seq: existing?.seq ?? ++this.#seq });
  }

  /** {@inheritDoc TaskStore.listPushConfigs} */
  async listPushConfigs(scope: TaskScope, taskId: string, query: PushConfigQuery): Promise<PushConfigPage> {
    const afterSeq = pushConfigCursor(taskId, query.pageToken);
    const all = [...(this.#configs.get(configKey(scope, taskId))?.values() ?? [])].filter((r) => r.seq > afterSeq).sort((a, b) => a.seq - b.seq);
    const page = query.pageSize > 0 ? all.slice(0, query.pageSize) : all;
    const last = page.at(-1);
    return {
      configs: page.map((r) => r.config),
      nextPageToken: page.length < all.length && last !== undefined ? pushConfigPageToken(taskId, last.seq) : "",
    };
  }

  /** {@inheritDoc TaskStore.deletePushConfig} */
  async deletePushConfig(scope: TaskScope, taskId: string, configId: string): Promise<void> {
    const key = configKey(scope, taskId);
    const configs = this.#configs.get(key);
    if (configs === undefined) return;
    configs.delete(configId);
    if (configs.size === 0) this.#configs.delete(key);
  }
}

/** An injective key of a task's configs (the tenant's and owner's lengths first). */
function configKey(scope: TaskScope, taskId: string): string {
  return `${scope.tenant.length}:${scope.owner.length}:${scope.tenant}${scope.owner}${taskId}`;
}

function parseTaskPosition(position: unknown): TaskPosition {
  if (typeof position === "object" && position !== null && !Array.isArray(position)) {
    const { t, s } = position as Record<string, unknown>;
    if (typeof t === "string" && /^-?\d{1,30}$/.test(t) && typeof s === "number" && Number.isSafeInteger(s)) return { time: BigInt(t), seq: s };
  }
  throw new InvalidPageTokenError("pageToken is malformed");
}

/** Index of the first record that sorts after `position` (the records are sorted). */
function countBefore(sorted: readonly TaskPosition[], position: TaskPosition): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const item = sorted[mid] as TaskPosition;
    if (before(item, position) || (item.time === position.time && item.seq === position.seq)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
