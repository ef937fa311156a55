// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * SSE streams over real sockets for the reconnect fuzzer: open a streaming request (JSON-RPC or
 * HTTP+JSON) on its own connection, read its events one by one with a bound, and cut the connection
 * whenever the input says, as a client that goes away does. Events are returned as StreamResponse
 * ProtoJSON (JSON-RPC results unwrapped) or as errors.
 */
import { request as httpRequest, type ClientRequest, type IncomingMessage } from "node:http";

/** One event of a stream: a StreamResponse (ProtoJSON), or an error (JSON-RPC error object or google.rpc.Status body). */
export type SseItem =
  | { readonly kind: "event"; readonly json: Record<string, unknown>; readonly raw: string }
  | { readonly kind: "error"; readonly json: unknown; readonly raw: string };

/** An open stream. */
export interface OpenStream {
  readonly status: number;
  readonly contentType: string;
  /** The whole body when the answer is not a stream. */
  readonly body?: string;
  /** The next event; undefined when the stream ended; "timeout" when none came within `ms`. */
  next(ms: number): Promise<SseItem | undefined | "timeout">;
  /** Destroys the connection (the client goes away). */
  cut(): void;
}

/** Opens `body` (JSON) as a POST (or GET when `method` says) to `url` on a connection of its own. */
export function openStream(
  url: string,
  body: unknown,
  binding: "jsonrpc" | "rest",
  method = "POST",
  boundMs = 15_000,
): Promise<OpenStream | "timeout"> {
  const u = new URL(url);
  const payload = body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req: ClientRequest = httpRequest({
      agent: false,
      host: u.hostname,
      port: u.port,
      method,
      path: `${u.pathname}${u.search}`,
      headers: {
        "content-type": "application/json",
        "a2a-version": "1.0",
        accept: "text/event-stream",
        "content-length": String(payload.length),
      },
    });
    const timer = setTimeout(() => {
      req.destroy();
      resolve("timeout");
    }, boundMs);
    req.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    req.on("response", (res: IncomingMessage) => {
      clearTimeout(timer);
      const contentType = String(res.headers["content-type"] ?? "");
      if (!contentType.startsWith("text/event-stream")) {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType,
            body: Buffer.concat(chunks).toString("utf8"),
            next: async () => undefined,
            cut: () => req.destroy(),
          }),
        );
        return;
      }
      let buffer = "";
      let ended = false;
      const queue: SseItem[] = [];
      let wake: (() => void) | undefined;
      const parse = () => {
        for (let at = buffer.indexOf("\n\n"); at >= 0; at = buffer.indexOf("\n\n")) {
          const block = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          let event = "message";
          const data: string[] = [];
          for (const line of block.split("\n")) {
            if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
            else if (line.startsWith("event:")) event = line.slice(6).trim();
          }
          if (data.length === 0) continue;
          const raw = data.join("\n");
          let json: unknown;
          try {
            json = JSON.parse(raw);
          } catch {
            queue.push({ kind: "error", json: undefined, raw });
            continue;
          }
          if (binding === "jsonrpc") {
            const o = json as { result?: Record<string, unknown>; error?: unknown };
            queue.push(
              o.result !== undefined
                ? { kind: "event", json: o.result, raw }
                : { kind: "error", json: o.error ?? json, raw },
            );
          } else
            queue.push(
              event === "error"
                ? { kind: "error", json, raw }
                : { kind: "event", json: json as Record<string, unknown>, raw },
            );
        }
      };
      res.setEncoding("utf8");
      res.on("data", (c: string) => {
        buffer += c.replace(/\r\n/g, "\n");
        parse();
        wake?.();
      });
      const stop = () => {
        ended = true;
        wake?.();
      };
      res.on("end", stop);
      res.on("close", stop);
      res.on("error", stop);
      resolve({
        status: res.statusCode ?? 0,
        contentType,
        next: async (ms) => {
          const deadline = Date.now() + ms;
          while (queue.length === 0 && !ended) {
            const left = deadline - Date.now();
            if (left <= 0) return "timeout";
            await new Promise<void>((r) => {
              const t = setTimeout(r, left);
              wake = () => {
                clearTimeout(t);
                r();
              };
            });
            wake = undefined;
          }
          return queue.shift();
        },
        cut: () => req.destroy(),
      });
    });
    req.end(payload);
  });
}

/** The task id a StreamResponse names. */
export function taskIdOf(event: Record<string, unknown>): string | undefined {
  const task = event["task"] as { id?: string } | undefined;
  const status = event["statusUpdate"] as { taskId?: string } | undefined;
  const artifact = event["artifactUpdate"] as { taskId?: string } | undefined;
  return task?.id ?? status?.taskId ?? artifact?.taskId;
}

/** The task state a StreamResponse carries, if any. */
export function stateOf(event: Record<string, unknown>): string | undefined {
  const task = event["task"] as { status?: { state?: string } } | undefined;
  const status = event["statusUpdate"] as { status?: { state?: string } } | undefined;
  return task?.status?.state ?? status?.status?.state;
}

/** The terminal task states. */
export const TERMINAL = new Set([
  "TASK_STATE_COMPLETED",
  "TASK_STATE_FAILED",
  "TASK_STATE_CANCELED",
  "TASK_STATE_REJECTED",
]);
/** The interrupted task states (a subscription stays open). */
export const INTERRUPTED = new Set(["TASK_STATE_INPUT_REQUIRED", "TASK_STATE_AUTH_REQUIRED"]);
