/**
 * The runner's webhook (runner requirement `webhook_endpoint`): a node:http receiver on
 * 127.0.0.1 that records every delivery with the status it answered. `url` accepts
 * everything (200); a `flakyUrl()` refuses the first delivery of each distinct body with
 * 503, so a redelivery can be observed (PUSH-DELIV-002). Checks wait for the delivery they
 * need (`waitFor`), never for a fixed time. `rewriteHeaders` makes every delivery arrive as a
 * wrong agent would have sent it (the runner's mutation tests).
 */
import { randomUUID } from "node:crypto";
import { listen, type Listening } from "../servers.js";
import type { JsonObject, JsonValue } from "./client.js";

export interface Delivery {
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The body as JSON, or the text when it is not JSON. */
  readonly body: JsonValue;
  /** The status the webhook answered. */
  readonly answered: number;
}

export interface RunnerWebhook {
  /** Accepts every delivery. */
  readonly url: string;
  /** A fresh URL that refuses the first delivery of each distinct body with 503 and accepts it again. */
  flakyUrl(): string;
  readonly deliveries: readonly Delivery[];
  /** Resolves with `find`'s first non-undefined answer over the deliveries so far, or undefined after `timeoutMs`. */
  waitFor<T>(
    find: (deliveries: readonly Delivery[]) => T | undefined,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<T | undefined>;
  close(): Promise<void>;
}

const isMap = (v: unknown): v is JsonObject =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/** The task a delivered `StreamResponse` is about, if it names one. */
export function deliveredTaskId(body: JsonValue): string | undefined {
  if (!isMap(body)) return undefined;
  if (isMap(body["task"]) && typeof body["task"]["id"] === "string") return body["task"]["id"];
  for (const kind of ["statusUpdate", "artifactUpdate", "message"]) {
    const payload = body[kind];
    if (isMap(payload) && typeof payload["taskId"] === "string") return payload["taskId"];
  }
  return undefined;
}

export async function startRunnerWebhook(
  rewriteHeaders?: (headers: Record<string, string>) => Record<string, string>,
): Promise<RunnerWebhook> {
  const deliveries: Delivery[] = [];
  const waiters = new Set<() => void>();
  const refusedOnce = new Set<string>();
  const server: Listening = await listen((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let body: JsonValue;
      try {
        body = JSON.parse(text) as JsonValue;
      } catch {
        body = text;
      }
      const path = req.url ?? "/";
      let answered = 200;
      if (path.startsWith("/flaky/")) {
        const key = `${path} ${text}`;
        if (!refusedOnce.has(key)) {
          refusedOnce.add(key);
          answered = 503;
        }
      }
      const received: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers))
        if (value !== undefined) received[name] = Array.isArray(value) ? value.join(", ") : value;
      const headers = rewriteHeaders?.(received) ?? received;
      deliveries.push({ path, headers, body, answered });
      res.writeHead(answered).end();
      for (const wake of waiters) wake();
    });
  }, "");
  return {
    url: `${server.url}/`,
    flakyUrl: () => `${server.url}/flaky/${randomUUID()}`,
    deliveries,
    waitFor<T>(
      find: (d: readonly Delivery[]) => T | undefined,
      timeoutMs: number,
      signal?: AbortSignal,
    ): Promise<T | undefined> {
      return new Promise((resolve) => {
        const done = (value: T | undefined) => {
          waiters.delete(check);
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          resolve(value);
        };
        const check = () => {
          const found = find(deliveries);
          if (found !== undefined) done(found);
        };
        const onAbort = () => done(undefined);
        const timer = setTimeout(() => done(undefined), timeoutMs);
        signal?.addEventListener("abort", onAbort, { once: true });
        waiters.add(check);
        check();
      });
    },
    close: () => server.close(),
  };
}
