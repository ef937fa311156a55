// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * One fuzzed HTTP exchange, two ways: in-process through a binding's universal handler
 * (runtime/src/http/universal.ts: fast, for the bulk of the inputs) and over a real socket with
 * node:http (the bar). Both give the same {@link HttpAnswer}; streamed answers (SSE) are read
 * until they end or a bound passes.
 */
import { Agent, request as httpRequest } from "node:http";
import type {
  UniversalHandler,
  UniversalRequest,
  UniversalResponse,
} from "@protoc-gen-a2a/runtime/http";
import type { SizeSpec } from "./fuzz-sizes.js";

/** A request as the fuzzers build it (JSON, so that it can be saved as a fixture). */
export interface HttpInput {
  readonly method: string;
  /** Path, percent-encoded as sent, without the query. */
  readonly path: string;
  /** Query string without "?", "" for none. */
  readonly query: string;
  /** Header lines in order; a name may repeat. */
  readonly headers: readonly (readonly [string, string])[];
  /** The body, base64. */
  readonly body: string;
  /** The client goes away this long (ms) after sending (in-process: the request's signal aborts; socket: the connection is destroyed). */
  readonly abortAfterMs?: number;
  /** A SendMessage of a size at a limit (test/support/fuzz-sizes.ts): the body is built when sent. */
  readonly grow?: SizeSpec;
  /** Over a socket, the client never reads the answer (test/support/fuzz-slow-readers.ts); in-process it is read as usual. */
  readonly neverRead?: true;
}

/** What came back. */
export interface HttpAnswer {
  readonly status: number;
  /** Header names lower-cased; repeated ones joined with ", ". */
  readonly headers: Readonly<Record<string, string>>;
  /** The whole body of a buffered answer; of a stream, what was read. */
  readonly body: string;
  /** Whether the answer was a stream (text/event-stream). */
  readonly streamed: boolean;
  /** A stream: whether it ended before the bound. */
  readonly ended: boolean;
  /** No answer (or no end of a buffered body) within the bound. */
  readonly timedOut: boolean;
  /** The client went away before the answer was complete ({@link HttpInput.abortAfterMs}): only bounds, rejections and logs are judged. */
  readonly aborted?: boolean;
  /** In-process: the handler rejected (it must not) with this error. */
  readonly rejected?: string;
  /** The request could not be sent (the client library refused it): not the server's fault. */
  readonly clientRefused?: string;
}

/** Bounds of one exchange, ms. */
export interface ExchangeBounds {
  /** For the response head (and a buffered body). */
  readonly answerMs: number;
  /** For a stream to end. */
  readonly streamMs: number;
}

/** The default bounds: 15 s for an answer, 15 s for a stream to end. */
export const DEFAULT_BOUNDS: ExchangeBounds = { answerMs: 15_000, streamMs: 15_000 };

/** The body bytes of `input`. */
export const bodyBytes = (input: HttpInput): Buffer => Buffer.from(input.body, "base64");

const timeout = <T>(ms: number, value: T) =>
  new Promise<T>((resolve) => {
    const t = setTimeout(() => resolve(value), ms);
    t.unref?.();
  });

function universalRequest(input: HttpInput, controller: AbortController): UniversalRequest {
  const bytes = new Uint8Array(bodyBytes(input));
  const lower = input.headers.map(([k, v]) => [k.toLowerCase(), v] as const);
  const joined = new Map<string, string>();
  for (const [k, v] of lower) joined.set(k, joined.has(k) ? `${joined.get(k)}, ${v}` : v);
  return {
    method: input.method.toUpperCase(),
    path: input.path,
    query: input.query,
    header: (name) => joined.get(name.toLowerCase()),
    headers: () => joined.entries(),
    readBody: async (limit) => (bytes.length > limit ? "too-large" : bytes),
    signal: controller.signal,
    get aborted() {
      return controller.signal.aborted;
    },
  };
}

async function readStream(
  stream: AsyncIterable<string>,
  ms: number,
): Promise<{ text: string; ended: boolean }> {
  const iterator = stream[Symbol.asyncIterator]();
  const deadline = Date.now() + ms;
  let text = "";
  try {
    for (;;) {
      const left = deadline - Date.now();
      const next =
        left <= 0 ? undefined : await Promise.race([iterator.next(), timeout(left, undefined)]);
      if (next === undefined) return { text, ended: false };
      if (next.done === true) return { text, ended: true };
      text += next.value;
    }
  } finally {
    // What a disconnecting client does; the adapters call it too.
    void Promise.resolve(iterator.return?.()).catch(() => {});
  }
}

/** After a client went away: time for what the server still does for it (a task it created, …) to settle before the next input is judged. */
const SETTLE_MS = 25;

/** Sends `input` to `handler` in-process. */
export async function exchangeInProcess(
  handler: UniversalHandler,
  input: HttpInput,
  bounds: ExchangeBounds = DEFAULT_BOUNDS,
): Promise<HttpAnswer> {
  const answer = await exchangeInProcessOnce(handler, input, bounds);
  if (input.abortAfterMs !== undefined) await timeout(SETTLE_MS, undefined);
  return answer;
}

async function exchangeInProcessOnce(
  handler: UniversalHandler,
  input: HttpInput,
  bounds: ExchangeBounds = DEFAULT_BOUNDS,
): Promise<HttpAnswer> {
  const controller = new AbortController();
  const abort =
    input.abortAfterMs === undefined
      ? undefined
      : setTimeout(() => controller.abort(), input.abortAfterMs);
  const aborted = () =>
    controller.signal.aborted && input.abortAfterMs !== undefined ? { aborted: true } : {};
  let response: UniversalResponse | undefined;
  try {
    response = await Promise.race([
      handler(universalRequest(input, controller)),
      timeout(bounds.answerMs, undefined),
    ]);
  } catch (e) {
    // A UniversalHandler never rejects (universal.ts); the node adapter would answer 500 or drop the connection.
    return {
      status: 0,
      headers: {},
      body: "",
      streamed: false,
      ended: false,
      timedOut: false,
      rejected: e instanceof Error ? `${e.name}: ${e.message}` : String(e),
    };
  }
  if (response === undefined) {
    controller.abort();
    return { status: 0, headers: {}, body: "", streamed: false, ended: false, timedOut: true };
  }
  clearTimeout(abort);
  const headers: Record<string, string> = {};
  for (const [k, v] of response.headers)
    headers[k.toLowerCase()] =
      headers[k.toLowerCase()] === undefined ? v : `${headers[k.toLowerCase()]}, ${v}`;
  if ("stream" in response) {
    // A client that goes away mid-stream: read a little, then stop (as the adapters do on disconnect).
    const { text, ended } = await readStream(
      response.stream,
      input.abortAfterMs === undefined
        ? bounds.streamMs
        : Math.min(bounds.streamMs, input.abortAfterMs),
    );
    const was = input.abortAfterMs !== undefined && !ended ? { aborted: true } : aborted();
    controller.abort();
    return {
      status: response.status,
      headers,
      body: text,
      streamed: true,
      ended,
      timedOut: false,
      ...was,
    };
  }
  const body =
    typeof response.body === "string" ? response.body : Buffer.from(response.body).toString("utf8");
  return {
    status: response.status,
    headers,
    body,
    streamed: false,
    ended: true,
    timedOut: false,
    ...aborted(),
  };
}

/** A keep-alive connection pool for {@link exchangeOverSocket}. */
export const socketAgent = (): Agent => new Agent({ keepAlive: true, maxSockets: 4 });

/** Sends `input` to the server at `origin` ("http://127.0.0.1:port") over a real socket. */
export async function exchangeOverSocket(
  origin: string,
  input: HttpInput,
  agent: Agent,
  bounds: ExchangeBounds = DEFAULT_BOUNDS,
): Promise<HttpAnswer> {
  const answer = await exchangeOverSocketOnce(origin, input, agent, bounds);
  if (input.abortAfterMs !== undefined) await timeout(SETTLE_MS, undefined);
  return answer;
}

function exchangeOverSocketOnce(
  origin: string,
  input: HttpInput,
  agent: Agent,
  bounds: ExchangeBounds,
): Promise<HttpAnswer> {
  const url = new URL(origin);
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of input.headers) {
    const name = k.toLowerCase();
    const seen = headers[name];
    headers[name] = seen === undefined ? v : Array.isArray(seen) ? [...seen, v] : [seen, v];
  }
  const body = bodyBytes(input);
  return new Promise<HttpAnswer>((resolve) => {
    let settled = false;
    const finish = (answer: HttpAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(answer);
    };
    let req: ReturnType<typeof httpRequest>;
    try {
      req = httpRequest({
        agent,
        host: url.hostname,
        port: url.port,
        method: input.method,
        path: input.query === "" ? input.path : `${input.path}?${input.query}`,
        headers: { ...headers, "content-length": String(body.length) },
      });
    } catch (e) {
      finish({
        status: 0,
        headers: {},
        body: "",
        streamed: false,
        ended: false,
        timedOut: false,
        clientRefused: e instanceof Error ? e.message : String(e),
      });
      return;
    }
    let state:
      | { status: number; headers: Record<string, string>; streamed: boolean; chunks: Buffer[] }
      | undefined;
    const timer = setTimeout(() => {
      req.destroy();
      if (state === undefined)
        finish({ status: 0, headers: {}, body: "", streamed: false, ended: false, timedOut: true });
      else
        finish({
          status: state.status,
          headers: state.headers,
          body: Buffer.concat(state.chunks).toString("utf8"),
          streamed: state.streamed,
          ended: false,
          timedOut: !state.streamed,
        });
    }, bounds.answerMs + bounds.streamMs);
    req.on("error", (e) => {
      // The server closing the connection after answering (e.g. Connection: close on 413) is fine once the answer is in.
      if (state !== undefined) return;
      finish({
        status: 0,
        headers: {},
        body: "",
        streamed: false,
        ended: false,
        timedOut: false,
        clientRefused: `socket error before an answer: ${e.message}`,
      });
    });
    req.on("response", (res) => {
      const h: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers))
        if (v !== undefined) h[k] = Array.isArray(v) ? v.join(", ") : v;
      state = {
        status: res.statusCode ?? 0,
        headers: h,
        streamed: (h["content-type"] ?? "").startsWith("text/event-stream"),
        chunks: [],
      };
      const s = state;
      res.on("data", (c: Buffer) => s.chunks.push(c));
      res.on("end", () =>
        finish({
          status: s.status,
          headers: s.headers,
          body: Buffer.concat(s.chunks).toString("utf8"),
          streamed: s.streamed,
          ended: true,
          timedOut: false,
        }),
      );
      res.on("error", () =>
        finish({
          status: s.status,
          headers: s.headers,
          body: Buffer.concat(s.chunks).toString("utf8"),
          streamed: s.streamed,
          ended: false,
          timedOut: false,
        }),
      );
    });
    if (input.abortAfterMs !== undefined) {
      const ms = input.abortAfterMs;
      setTimeout(() => {
        if (settled) return;
        req.destroy();
        finish({
          status: 0,
          headers: {},
          body: "",
          streamed: false,
          ended: false,
          timedOut: false,
          aborted: true,
        });
      }, ms).unref?.();
    }
    req.end(body);
  });
}

/** The `data:` payloads of the events of an SSE body, with their `event:` names ("message" by default). */
export function sseEvents(text: string): { event: string; data: string }[] {
  const out: { event: string; data: string }[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    let event = "message";
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      else if (line.startsWith("event:")) event = line.slice(6).trim();
    }
    if (data.length > 0) out.push({ event, data: data.join("\n") });
  }
  return out;
}
