/**
 * Plain HTTP for the steps that are not client calls: `raw` steps (§4.4) and
 * `get_agent_card`. Deliberately independent of the code under test: node's fetch, and
 * the runner's SSE reader (text/event-stream responses become the list of their events'
 * `data`, parsed as JSON when they are JSON).
 */
import type { JsonValue } from "./client.js";
import { parseSse } from "./wire-judge.js";

export interface HttpResult {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** JSON body, or the text when it is not JSON; for an event stream: undefined. */
  readonly body: JsonValue | undefined;
  /** For a text/event-stream response: the events' data, in order. */
  readonly events?: JsonValue[];
  /** The body exactly as received. */
  readonly bytes: Buffer;
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

/** An event stream's events' data, parsed as JSON when they are JSON. */
export const parseEventStream = (text: string): JsonValue[] =>
  parseSse(text).map((e) => parseMaybeJson(e.data));

export async function sendHttp(request: HttpRequest): Promise<HttpResult> {
  const response = await fetch(request.url, {
    method: request.method,
    headers: request.headers,
    ...(request.body !== undefined ? { body: request.body } : {}),
    redirect: "manual",
    signal: request.signal,
  });
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  const text = bytes.toString("utf8");
  if ((headers["content-type"] ?? "").startsWith("text/event-stream"))
    return {
      status: response.status,
      headers,
      body: undefined,
      events: parseEventStream(text),
      bytes,
    };
  return {
    status: response.status,
    headers,
    body: text === "" ? undefined : parseMaybeJson(text),
    bytes,
  };
}
