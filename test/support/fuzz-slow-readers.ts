// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Slow readers (issue #25): a client that sends a valid request for a large answer (GetTask of the
 * target's big task, ListTasks of its owner with artifacts) and never reads a byte of it. Over
 * HTTP/1.1 the connection is paused after the request is written; over HTTP/2 (gRPC) the session
 * offers a flow-control window of 0 and the stream is paused. The connection stays open while the
 * next inputs run (at most {@link SlowReaders.max} at once, the oldest closed first; all at the end of
 * a property): those inputs, the normal requests and the still-serves oracle must still be served.
 *
 * An input names the big task as {@link BIG_TASK}; the target creates it on first use
 * ({@link bigTaskText}: the echo agent keeps the text twice, so its answers are about 3 MB in the long run).
 */
import { connect as connectHttp2, type ClientHttp2Session } from "node:http2";
import { connect as connectTcp, type Socket } from "node:net";
import { heavyPer10k } from "./fuzz-config.js";
import { tally } from "./fuzz-harness.js";
import { bodyBytes, type HttpInput } from "./fuzz-http.js";

/** The placeholder for the id of the target's big task (replaced before sending). */
export const BIG_TASK = "@big@";

/**
 * The text of the big task's message: 1.5 MB (answers of about 3 MB, more than loopback socket buffers take) when the
 * slow kinds are on (A2A_FUZZ_HEAVY > 0, the long run), else 240 KB (`npm test` replays the slow-reader fixtures only,
 * and every sweep reads the big task on every binding).
 */
export const bigTaskText = (): string =>
  "slow reader ".repeat(heavyPer10k() > 0 ? 128 * 1024 : 20 * 1024);

/** Open never-reading connections. */
export class SlowReaders {
  readonly #open: { close(): void }[] = [];
  /** Opened so far. */
  opened = 0;

  constructor(readonly max = 4) {}

  #keep(c: { close(): void }): void {
    this.#open.push(c);
    this.opened++;
    while (this.#open.length > this.max) this.#open.shift()!.close();
  }

  /** Writes `input` as an HTTP/1.1 request to `origin` ("http://host:port") and never reads the answer; resolves once the request is written. */
  http(origin: string, input: HttpInput): Promise<void> {
    const url = new URL(origin);
    const body = bodyBytes(input);
    const head = [
      `${input.method} ${input.query === "" ? input.path : `${input.path}?${input.query}`} HTTP/1.1`,
      `host: ${url.host}`,
      ...input.headers.map(([k, v]) => `${k}: ${v}`),
      `content-length: ${body.length}`,
    ];
    return new Promise((resolve) => {
      const socket: Socket = connectTcp({ host: url.hostname, port: Number(url.port) }, () => {
        socket.pause();
        socket.write(
          Buffer.concat([Buffer.from(`${head.join("\r\n")}\r\n\r\n`, "latin1"), body]),
          () => resolve(),
        );
      });
      socket.on("error", () => resolve());
      this.#keep({ close: () => socket.destroy() });
    });
  }

  /** Sends one gRPC call to `address` ("host:port") on a session whose flow-control window is 0, and never reads; resolves once it is sent. */
  grpc(
    address: string,
    path: string,
    headers: readonly (readonly [string, string])[],
    body: Buffer,
  ): Promise<void> {
    return new Promise((resolve) => {
      const session: ClientHttp2Session = connectHttp2(`http://${address}`, {
        settings: { initialWindowSize: 0 },
      });
      session.on("error", () => resolve());
      const h: Record<string, string | string[]> = { ":method": "POST", ":path": path };
      for (const [k, v] of headers) {
        const seen = h[k];
        h[k] = seen === undefined ? v : Array.isArray(seen) ? [...seen, v] : [seen, v];
      }
      try {
        const req = session.request(h);
        const opened = Date.now();
        let closing = false;
        req.on("error", () => {});
        // What the server does with a call it cannot send: counted, not judged (its bound is the server's option).
        req.on("close", () => {
          if (!closing)
            tally(
              `slow reader (gRPC): the server ended the stalled call (RST_STREAM ${req.rstCode}) within ${Math.ceil((Date.now() - opened) / 10_000) * 10} s`,
            );
        });
        this.#keep({
          close: () => {
            closing = true;
            session.destroy();
          },
        });
        req.pause();
        req.end(body, () => resolve());
      } catch {
        session.destroy();
        resolve();
      }
    });
  }

  /** Closes every one still open. */
  closeAll(): void {
    for (const c of this.#open.splice(0)) c.close();
  }
}

/** `input` with {@link BIG_TASK} replaced by `taskId` (path, query, body). */
export function withBigTask(input: HttpInput, taskId: string): HttpInput {
  const text = bodyBytes(input).toString("latin1");
  if (!text.includes(BIG_TASK) && !input.path.includes(BIG_TASK)) return input;
  return {
    ...input,
    path: input.path.replaceAll(BIG_TASK, taskId),
    body: Buffer.from(text.replaceAll(BIG_TASK, taskId), "latin1").toString("base64"),
  };
}

/** Whether `input` names the big task. */
export const namesBigTask = (input: HttpInput): boolean =>
  input.path.includes(BIG_TASK) || bodyBytes(input).includes(BIG_TASK);
