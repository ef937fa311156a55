/**
 * Plain HTTP for the steps that are not client calls: `raw` steps (§4.4) and
 * `get_agent_card`. Deliberately independent of the code under test: node's fetch, and a
 * small SSE reader of its own (text/event-stream responses become the list of their
 * events' `data`, parsed as JSON when they are JSON).
 */
import type { JsonValue } from "./client.js";

export interface HttpResult {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** JSON body, or the text when it is not JSON; for an event stream: undefined. */
  readonly body: JsonValue | undefined;
  /** For a text/event-stream response: the events' data, in order. */
  readonly events?: JsonValue[];
}

export interface HttpRequest {
  readonly method: string;
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Sent as is. */
  readonly body?: string;
  readonly signal: AbortSignal;
}

const parseMaybeJson = (text: string): JsonValue => {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
};

/** Splits an event stream into its events' data (multi-line data joined with "\n"; comments skipped). */
export function parseEventStream(text: string): JsonValue[] {
  const events: JsonValue[] = [];
  for (const block of text.replace(/\r\n?/g, "\n").split("\n\n")) {
    const data = block
      .split("\n")
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(5).replace(/^ /, ""));
    if (data.length > 0) events.push(parseMaybeJson(data.join("\n")));
  }
  return events;
}

export async function sendHttp(request: HttpRequest): Promise<HttpResult> {
  const response = await fetch(request.url, {
    method: request.method,
    headers: request.headers,
    ...(request.body !== undefined ? { body: request.body } : {}),
    redirect: "manual",
    signal: request.signal,
  });
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => (headers[key] = value));
  const text = await response.text();
  if ((headers["content-type"] ?? "").startsWith("text/event-stream")) return { status: response.status, headers, body: undefined, events: parseEventStream(text) };
  return { status: response.status, headers, body: text === "" ? undefined : parseMaybeJson(text) };
}
