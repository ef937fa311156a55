// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Stream event ids: every event of a task's event log has a per-task sequence number (1, 2, …,
 * in the order the events were stored). A stream event handed out by the task runtime carries its
 * id on the side (the A2A messages have no field for it): the SSE writers send it as `id:`, and a
 * client that lost its stream asks SubscribeToTask for what came after it with `Last-Event-ID`.
 *
 * The id's text is `<sequence>:<task id>`: the sequence first (digits), then the task id as it is,
 * so a task id with any characters but CR, LF and NUL (which SSE ids cannot hold) round-trips.
 */

const ids = new WeakMap<object, string>();

/** Marks `event` (a stream event about to be handed out) with its id. */
export function setEventId(event: object, id: string): void {
  ids.set(event, id);
}

/** The id `event` was marked with, if any. */
export function eventIdOf(event: object): string | undefined {
  return ids.get(event);
}

/** The id of the event with sequence `seq` of task `taskId`; undefined when the task id cannot travel in an SSE id. */
export function formatEventId(taskId: string, seq: number): string | undefined {
  if (/[\r\n\0]/.test(taskId)) return undefined;
  return `${seq}:${taskId}`;
}

/** A parsed event id. */
export interface ParsedEventId {
  /** The task the event belongs to. */
  readonly taskId: string;
  /** Its sequence number in the task's event log (≥ 1). */
  readonly seq: number;
}

/** Parses an id made by {@link formatEventId}; undefined for anything else. */
export function parseEventId(text: string): ParsedEventId | undefined {
  const colon = text.indexOf(":");
  if (colon < 1 || colon > 15) return undefined;
  const digits = text.slice(0, colon);
  if (!/^[1-9]\d*$/.test(digits)) return undefined;
  const seq = Number(digits);
  if (!Number.isSafeInteger(seq)) return undefined;
  return { seq, taskId: text.slice(colon + 1) };
}

/** The service parameter (HTTP header, gRPC metadata key) a resuming SubscribeToTask names the last event it got with. */
export const LAST_EVENT_ID_PARAMETER = "last-event-id";
