// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Raw SSE streams of the example agent for the multi-instance tests: SendStreamingMessage and
 * SubscribeToTask over JSON-RPC or HTTP+JSON with `fetch`, read event by event with each event's
 * `id:` (`<seq>:<task id>`, runtime/src/task/event-ids.ts), so that a test can cut a stream, resume it
 * elsewhere with `Last-Event-ID` and check the sequence numbers. No client of the code under test
 * is involved: what is checked is what crossed the wire.
 */
import { randomUUID } from "node:crypto";
import type { AgentEndpoints } from "./agent-cluster.js";

/** The HTTP bindings, which stream with SSE. */
export type SseBinding = "JSONRPC" | "HTTP+JSON";

/** A StreamResponse in ProtoJSON (`{"task": …}`, `{"statusUpdate": …}`, …). */
export type StreamJson = Readonly<Record<string, unknown>>;

/** One SSE event as received. */
export interface WireEvent {
  /** Its `id:` field, if it had one. */
  readonly id: string | undefined;
  /** The sequence number of its id (undefined without one). */
  readonly seq: number | undefined;
  /** The StreamResponse (JSON-RPC: the envelope's `result`). */
  readonly payload: StreamJson;
}

/** A user message in ProtoJSON: `messageId` (which may select a TCK behaviour) and one text part; optionally a task to continue. */
export function userMessage(
  text: string,
  options: { messageId?: string; taskId?: string } = {},
): Record<string, unknown> {
  return {
    messageId: options.messageId ?? randomUUID(),
    role: "ROLE_USER",
    parts: [{ text }],
    ...(options.taskId !== undefined ? { taskId: options.taskId } : {}),
  };
}

const JSON_HEADERS = {
  "content-type": "application/json",
  accept: "text/event-stream",
  "a2a-version": "1.0",
};

/** What the server answered instead of an SSE stream. */
async function refusal(response: Response): Promise<Error> {
  return new Error(
    `expected an SSE stream, got HTTP ${response.status} ${response.headers.get("content-type")}: ${(await response.text()).slice(0, 500)}`,
  );
}

/** Starts SendStreamingMessage of `message` on `endpoints` over `binding`; resolves with the open SSE response. */
export async function sendStreaming(
  binding: SseBinding,
  endpoints: AgentEndpoints,
  message: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<Response> {
  const response =
    binding === "JSONRPC"
      ? await fetch(endpoints.jsonrpc, {
          method: "POST",
          headers: JSON_HEADERS,
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "SendStreamingMessage",
            params: { message },
          }),
          signal: signal ?? null,
        })
      : await fetch(`${endpoints.rest}/message:stream`, {
          method: "POST",
          headers: JSON_HEADERS,
          body: JSON.stringify({ message }),
          signal: signal ?? null,
        });
  if (!(response.headers.get("content-type") ?? "").startsWith("text/event-stream"))
    throw await refusal(response);
  return response;
}

/** Starts SubscribeToTask of `taskId` on `endpoints` over `binding` (with `Last-Event-ID` when given); resolves with the open SSE response. */
export async function subscribe(
  binding: SseBinding,
  endpoints: AgentEndpoints,
  taskId: string,
  options: { lastEventId?: string; signal?: AbortSignal } = {},
): Promise<Response> {
  const headers = {
    ...JSON_HEADERS,
    ...(options.lastEventId !== undefined ? { "last-event-id": options.lastEventId } : {}),
  };
  const signal = options.signal ?? null;
  const response =
    binding === "JSONRPC"
      ? await fetch(endpoints.jsonrpc, {
          method: "POST",
          headers,
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "SubscribeToTask",
            params: { id: taskId },
          }),
          signal,
        })
      : await fetch(`${endpoints.rest}/tasks/${encodeURIComponent(taskId)}:subscribe`, {
          method: "GET",
          headers,
          signal,
        });
  if (!(response.headers.get("content-type") ?? "").startsWith("text/event-stream"))
    throw await refusal(response);
  return response;
}

/** The events of one SSE block, or undefined for a block without data (a comment, a keep-alive). */
function parseBlock(block: string): WireEvent | undefined {
  let id: string | undefined;
  const data: string[] = [];
  for (const line of block.split("\n")) {
    if (line.startsWith("id:")) id = line.slice(3).replace(/^ /, "");
    else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
  }
  if (data.length === 0) return undefined;
  const json = JSON.parse(data.join("\n")) as Record<string, unknown>;
  if (json["error"] !== undefined)
    throw new Error(`the stream carried an error: ${JSON.stringify(json["error"])}`);
  const payload = (json["jsonrpc"] !== undefined ? json["result"] : json) as StreamJson;
  const seq = id === undefined ? undefined : Number(id.slice(0, id.indexOf(":")));
  return { id, seq, payload };
}

/** The events of an SSE response as they arrive; ends with the stream (throws if the stream breaks, or carries an error). */
export async function* sseEvents(response: Response): AsyncGenerator<WireEvent> {
  if (response.body === null) return;
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of response.body) {
    buffer += decoder.decode(chunk as Uint8Array, { stream: true }).replace(/\r\n?/g, "\n");
    for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
      const event = parseBlock(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      if (event !== undefined) yield event;
    }
  }
}

/** Every event of an SSE response until it ends. */
export async function readAll(response: Response): Promise<WireEvent[]> {
  const events: WireEvent[] = [];
  for await (const event of sseEvents(response)) events.push(event);
  return events;
}

/** Reads a stream in the background into `events` (visible as they arrive); `done` settles when it ends. */
export function reading(response: Response): {
  readonly events: WireEvent[];
  readonly done: Promise<WireEvent[]>;
} {
  const events: WireEvent[] = [];
  const done = (async () => {
    for await (const event of sseEvents(response)) events.push(event);
    return events;
  })();
  done.catch(() => undefined);
  return { events, done };
}

/** The task state an event states (`TASK_STATE_WORKING`…): a status update's, or a Task snapshot's. */
export function stateOf(payload: StreamJson): string | undefined {
  const status = (
    (payload["statusUpdate"] ?? payload["task"]) as { status?: { state?: string } } | undefined
  )?.status;
  return status?.state;
}

/** The task id of an event. */
export function taskIdOf(payload: StreamJson): string | undefined {
  const task = payload["task"] as { id?: string } | undefined;
  if (task !== undefined) return task.id;
  return ((payload["statusUpdate"] ?? payload["artifactUpdate"]) as { taskId?: string } | undefined)
    ?.taskId;
}

/** A short label of an event: `task:WORKING`, `status:COMPLETED`, `artifact:result`, `message`. */
export function labelOf(payload: StreamJson): string {
  const state = (stateOf(payload) ?? "").replace(/^TASK_STATE_/, "");
  if (payload["task"] !== undefined) return `task:${state}`;
  if (payload["statusUpdate"] !== undefined) return `status:${state}`;
  if (payload["artifactUpdate"] !== undefined)
    return `artifact:${(payload["artifactUpdate"] as { artifact?: { artifactId?: string } }).artifact?.artifactId}`;
  return Object.keys(payload).join(",") || "empty";
}

/** Whether `state` is terminal. */
export function isTerminal(state: string | undefined): boolean {
  return (
    state === "TASK_STATE_COMPLETED" ||
    state === "TASK_STATE_FAILED" ||
    state === "TASK_STATE_CANCELED" ||
    state === "TASK_STATE_REJECTED"
  );
}
