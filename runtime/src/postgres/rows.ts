// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Row shapes and column values of the PostgreSQL task store.
 */
import { clone, create, type DescMessage } from "@bufbuild/protobuf";
import { failedStatus } from "../task/stored-rows.js";
import type { TaskScope } from "../task/store.js";
import type { StreamResponseShape, TaskShape } from "../task/shapes.js";

export { NANOS, nanosOf, splitNanos, type StatusTime } from "../task/stored-rows.js";

/** A task row as read. */
export interface TaskRow {
  readonly id: string;
  readonly data: Buffer;
  readonly version: string;
  readonly event_seq: string;
  readonly status_seconds: string;
  readonly status_nanos: number;
  readonly save_seq: string;
}

/** The key of a task in wake-up payloads and in-process maps: injective. */
export function taskKey(scope: TaskScope, taskId: string): string {
  return JSON.stringify([scope.tenant, scope.owner, taskId]);
}

/** The scope and id of a key made by {@link taskKey}. */
export function parseTaskKey(key: string): { scope: TaskScope; taskId: string } | undefined {
  try {
    const value: unknown = JSON.parse(key);
    if (Array.isArray(value) && value.length === 3 && value.every((v) => typeof v === "string")) {
      const [tenant, owner, taskId] = value as [string, string, string];
      return { scope: { tenant, owner }, taskId };
    }
  } catch {
    // not a key
  }
  return undefined;
}

/** Schemas the store needs. */
export interface PostgresStoreSchemas {
  /** `TaskSchema`. */
  readonly Task: DescMessage;
  /** `TaskPushNotificationConfigSchema`. */
  readonly TaskPushNotificationConfig: DescMessage;
  /** `StreamResponseSchema`. */
  readonly StreamResponse: DescMessage;
}

/**
 * The FAILED change of `task`: the task with a FAILED status carrying an agent message, and its
 * status-update event (built from the schemas: the store knows no factory).
 */
export function failedChange(
  schemas: PostgresStoreSchemas,
  task: TaskShape,
  failed: number,
  text: string,
): { next: TaskShape; event: StreamResponseShape } {
  const status = failedStatus(schemas.Task, failed, task, text, "PostgreSQL task store");
  const next = clone(schemas.Task, task as never) as unknown as TaskShape;
  next.status = status;
  const event = create(schemas.StreamResponse, {
    payload: {
      case: "statusUpdate",
      value: { taskId: task.id, contextId: task.contextId, status },
    },
  } as never) as unknown as StreamResponseShape;
  return { next, event };
}
