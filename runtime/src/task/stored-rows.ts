// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * What the SQL task stores (SQLite, PostgreSQL) share: the status time as indexed columns, the
 * position a ListTasks page token holds, and the FAILED status a store writes itself for a task
 * whose runner is gone.
 */
import { create, type DescMessage } from "@bufbuild/protobuf";
import { timestampNow, type Timestamp } from "@bufbuild/protobuf/wkt";
import { InvalidPageTokenError } from "./errors.js";
import { decodePageToken, queryFingerprint } from "./pagination.js";
import type { TaskShape, TaskStatusShape } from "./shapes.js";
import type { TaskQuery } from "./store.js";

/** Nanoseconds per second. */
export const NANOS = 1_000_000_000n;

/** Status time of a task, normalized (0 <= nanos < 1e9); a missing timestamp is the epoch, as in the memory store. */
export interface StatusTime {
  readonly seconds: bigint;
  readonly nanos: number;
}

/** The total nanoseconds of a timestamp (0 for none). */
export function nanosOf(timestamp: Timestamp | undefined): bigint {
  if (timestamp === undefined) return 0n;
  return timestamp.seconds * NANOS + BigInt(timestamp.nanos);
}

/** Normalized seconds and nanos of a total. */
export function splitNanos(total: bigint): StatusTime {
  let seconds = total / NANOS;
  let nanos = total % NANOS;
  if (nanos < 0n) {
    nanos += NANOS;
    seconds -= 1n;
  }
  return { seconds, nanos: Number(nanos) };
}

/**
 * The position a ListTasks page token of a SQL store holds (`{ t: status time in ns, s: save sequence }`);
 * InvalidPageTokenError for anything else, including a time no stored task can have (64-bit seconds).
 */
export function parseTaskPosition(position: unknown): { time: bigint; seq: number } {
  if (typeof position === "object" && position !== null && !Array.isArray(position)) {
    const { t, s } = position as Record<string, unknown>;
    if (
      typeof t === "string" &&
      /^-?\d{1,30}$/.test(t) &&
      typeof s === "number" &&
      Number.isSafeInteger(s)
    ) {
      const time = BigInt(t);
      const { seconds } = splitNanos(time);
      if (seconds >= -(2n ** 63n) && seconds < 2n ** 63n) return { time, seq: s };
    }
  }
  throw new InvalidPageTokenError("pageToken is malformed");
}

/**
 * Where a ListTasks query of a SQL store starts: its status time filter in ns (`since`), the
 * fingerprint its page tokens carry, and the position its page token holds (`after`; undefined on
 * the first page).
 */
export function taskQueryStart(query: TaskQuery): {
  since: bigint | undefined;
  fingerprint: string;
  after: { time: bigint; seq: number } | undefined;
} {
  const since =
    query.statusTimestampAfter === undefined ? undefined : nanosOf(query.statusTimestampAfter);
  const fingerprint = queryFingerprint([
    query.contextId,
    query.state ?? null,
    since === undefined ? null : since.toString(),
  ]);
  const after =
    query.pageToken === ""
      ? undefined
      : parseTaskPosition(decodePageToken(query.pageToken, fingerprint));
  return { since, fingerprint, after };
}

/**
 * A FAILED TaskStatus of `task`, now, with an agent message `text` (built from the Task schema: a
 * store knows no factory). `who` names the caller in the error for a schema that is not a2a.proto's.
 */
export function failedStatus(
  taskSchema: DescMessage,
  failed: number,
  task: TaskShape,
  text: string,
  who: string,
): TaskStatusShape {
  const statusSchema = taskSchema.fields.find((f) => f.name === "status")?.message;
  const messageSchema = statusSchema?.fields.find((f) => f.name === "message")?.message;
  const partSchema = messageSchema?.fields.find((f) => f.name === "parts")?.message;
  const role = messageSchema?.fields
    .find((f) => f.name === "role")
    ?.enum?.values.find((v) => v.name === "ROLE_AGENT")?.number;
  if (
    statusSchema === undefined ||
    messageSchema === undefined ||
    partSchema === undefined ||
    role === undefined
  ) {
    throw new TypeError(
      `${who}: the Task schema has no status.message with parts and ROLE_AGENT (not a2a.proto's Task)`,
    );
  }
  const message = create(messageSchema, {
    messageId: crypto.randomUUID(),
    contextId: task.contextId,
    taskId: task.id,
    role,
    parts: [create(partSchema, { content: { case: "text", value: text } })],
  } as never);
  return create(statusSchema, {
    state: failed,
    timestamp: timestampNow(),
    message,
  } as never) as unknown as TaskStatusShape;
}
