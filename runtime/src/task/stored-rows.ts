// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * What the SQL task stores (SQLite, PostgreSQL) share: the status time as indexed columns, the
 * position a ListTasks page token holds, a ListTasks page read from rows, and the FAILED status a
 * store writes itself for a task whose runner is gone.
 */
import { create, type DescMessage } from "@bufbuild/protobuf";
import { timestampNow, type Timestamp } from "@bufbuild/protobuf/wkt";
import { InvalidPageTokenError } from "./errors.js";
import {
  decodePageToken,
  queryFingerprint,
  readTaskPosition,
  taskPageToken,
  type TaskPagePosition,
} from "./pagination.js";
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
export function parseTaskPosition(position: unknown): TaskPagePosition {
  const parsed = readTaskPosition(position);
  const { seconds } = splitNanos(parsed.time);
  if (seconds >= -(2n ** 63n) && seconds < 2n ** 63n) return parsed;
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
  after: TaskPagePosition | undefined;
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
 * A ListTasks page of a SQL store from its rows, read one by one in page order (`LIMIT pageSize + 1`):
 * at most `pageSize` tasks, ending before the task that would pass the query's byte budget (one task
 * at least). `decode` gives a row's task, or undefined for a row it skips (the page continues after
 * it); the next page starts after the last row read into the page (`positionOf`).
 */
export function readTaskPage<Row>(
  rows: Iterable<Row>,
  query: TaskQuery,
  fingerprint: string,
  decode: (row: Row) => TaskShape | undefined,
  positionOf: (row: Row) => TaskPagePosition,
): { tasks: TaskShape[]; nextPageToken: string } {
  const budget = query.budget;
  const tasks: TaskShape[] = [];
  let weight = 0;
  let read = 0;
  let more = false;
  /** The last row of the page: the next page starts after it. */
  let last: Row | undefined;
  for (const row of rows) {
    read++;
    if (tasks.length === query.pageSize) {
      more = true;
      break;
    }
    const task = decode(row);
    if (task === undefined) {
      last = row;
      continue;
    }
    if (budget !== undefined) {
      const size = budget.sizeOf(task);
      if (tasks.length > 0 && weight + size > budget.maxBytes) {
        more = true;
        break;
      }
      weight += size;
    }
    tasks.push(task);
    last = row;
  }
  // Skipped rows took places of the LIMIT: rows may follow.
  if (!more && read === query.pageSize + 1 && last !== undefined) more = true;
  return {
    tasks,
    nextPageToken: more && last !== undefined ? taskPageToken(fingerprint, positionOf(last)) : "",
  };
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
