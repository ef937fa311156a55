// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
// Opens streams and walks away from them, for bench/aborted-streams.mjs: each stream is opened, its first
// event read, then abandoned the way a client that goes away does it: HTTP/1.1 SSE (JSON-RPC and HTTP+JSON)
// by destroying the socket, gRPC (HTTP/2) by resetting the stream (RST_STREAM CANCEL) on a shared session.
// Plain node:http / node:http2; the two gRPC request messages are protobuf-encoded by hand.
import { request as httpRequest } from "node:http";
import { connect as connectHttp2, constants as h2 } from "node:http2";

/** Protobuf: a length-delimited field. */
function lengthDelimited(field, bytes) {
  return Buffer.concat([varint((field << 3) | 2), varint(bytes.length), bytes]);
}
function varint(n) {
  const out = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return Buffer.from(out);
}
const str = (field, s) => lengthDelimited(field, Buffer.from(s, "utf8"));

/** SendMessageRequest { message: { message_id, role: ROLE_USER, parts: [{ text }] } } */
function sendMessageRequest(messageId, text) {
  const message = Buffer.concat([
    str(1, messageId),
    varint((4 << 3) | 0),
    varint(1),
    lengthDelimited(5, str(1, text)),
  ]);
  return lengthDelimited(2, message);
}
/** SubscribeToTaskRequest { id } */
const subscribeRequest = (id) => str(2, id);

function envelope(payload) {
  const head = Buffer.alloc(5);
  head.writeUInt32BE(payload.length, 1);
  return Buffer.concat([head, payload]);
}

/** gRPC streams per round of 4 sessions (see abortStreams). */
const STREAMS_PER_SESSION = 500;
/** A stream that gave no event within this time counts as a failure. */
const STREAM_TIMEOUT_MS = 15_000;

let counter = 0;
const nextId = () => `abort-${process.pid}-${++counter}`;

/** The kinds of streams, each `(target) => one stream opened, its first event read, abandoned`. */
export const STREAM_KINDS = {
  "jsonrpc-send": { label: "JSON-RPC SSE SendStreamingMessage", binding: "jsonrpc" },
  "jsonrpc-subscribe": { label: "JSON-RPC SSE SubscribeToTask", binding: "jsonrpc" },
  "rest-send": { label: "HTTP+JSON SSE message:stream", binding: "rest" },
  "rest-subscribe": { label: "HTTP+JSON SSE tasks/{id}:subscribe", binding: "rest" },
  "grpcjs-send": { label: "gRPC grpc-js SendStreamingMessage", binding: "grpcJs" },
  "grpcjs-subscribe": { label: "gRPC grpc-js SubscribeToTask", binding: "grpcJs" },
  "connect-send": { label: "gRPC Connect SendStreamingMessage", binding: "connect" },
  "connect-subscribe": { label: "gRPC Connect SubscribeToTask", binding: "connect" },
};

/** One SSE request on its own connection: resolves once the first event arrived and the socket is destroyed. */
function sseOnce(port, path, body, method = "POST") {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        path,
        method,
        agent: false,
        headers: {
          "content-type": "application/json",
          accept: "text/event-stream",
          "a2a-version": "1.0",
        },
      },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          req.destroy();
          return reject(new Error(`${path}: HTTP ${res.statusCode}`));
        }
        res.on("data", (chunk) => {
          if (!String(chunk).includes("data:")) return;
          req.destroy();
          resolve();
        });
      },
    );
    req.on("error", (e) => (req.destroyed ? resolve() : reject(e)));
    req.setTimeout(STREAM_TIMEOUT_MS, () => {
      req.destroy();
      reject(new Error(`${path}: no event within ${STREAM_TIMEOUT_MS} ms`));
    });
    req.end(body);
  });
}

/** One gRPC server-streaming call on `session`: resolves once its first message arrived and the stream is reset. */
function grpcOnce(session, method, payload) {
  return new Promise((resolve, reject) => {
    const stream = session.request({
      ":method": "POST",
      ":path": `/lf.a2a.v1.A2AService/${method}`,
      "content-type": "application/grpc",
      te: "trailers",
      "a2a-version": "1.0",
    });
    let got = 0;
    let done = false;
    stream.on("data", (chunk) => {
      got += chunk.length;
      if (done || got < 5) return;
      done = true;
      stream.close(h2.NGHTTP2_CANCEL);
      resolve();
    });
    stream.on("error", (e) => (done ? undefined : reject(e)));
    stream.on("close", () => {
      if (!done)
        reject(new Error(`${method}: stream closed before any message (${stream.rstCode})`));
    });
    stream.setTimeout(STREAM_TIMEOUT_MS, () => {
      if (done) return;
      done = true;
      stream.close(h2.NGHTTP2_CANCEL);
      reject(new Error(`${method}: no message within ${STREAM_TIMEOUT_MS} ms`));
    });
    stream.end(envelope(payload));
  });
}

/**
 * Opens and abandons `n` streams of `kind` against `target` ({ jsonrpc, rest, grpcJs, connect } ports,
 * holdTaskId), `concurrency` at a time. HTTP/1.1: a connection per stream. gRPC: in rounds of
 * STREAMS_PER_SESSION streams over 4 new sessions, closed once their streams are done (Node's HTTP/2
 * servers, nghttp2's rapid-reset mitigation, end a connection that resets about 1,000 streams in a burst
 * with GOAWAY INTERNAL_ERROR: a client that abandons this many streams spreads them over connections).
 * Resolves with the number of failures (streams that gave no event), of REFUSED_STREAM answers (retried,
 * on a new session: the server did not process them, RFC 9113 §8.7), and the GOAWAY codes the server sent.
 */
export async function abortStreams(kind, target, n, concurrency = 50) {
  const { binding } = STREAM_KINDS[kind];
  const grpc = binding === "grpcJs" || binding === "connect";
  /** GOAWAY error codes the server sent on its own, and how often. */
  const goaways = new Map();
  const session = () => {
    const s = connectHttp2(`http://127.0.0.1:${target[binding]}`);
    s.on("error", () => {});
    s.on("goaway", (code) => {
      if (!s.closed) goaways.set(code, (goaways.get(code) ?? 0) + 1); // not the answer to our own close()
    });
    return s;
  };
  const closeOne = (s) =>
    new Promise((r) => {
      if (s.destroyed) return r();
      s.once("close", r);
      s.close();
    });
  const closeAll = (sessions) => Promise.all(sessions.map(closeOne));
  const one = (i, sessions) => {
    const text = `stream ${i}`;
    switch (kind) {
      case "jsonrpc-send":
        return sseOnce(
          target.jsonrpc,
          "/",
          JSON.stringify({
            jsonrpc: "2.0",
            id: i,
            method: "SendStreamingMessage",
            params: { message: { messageId: nextId(), role: "ROLE_USER", parts: [{ text }] } },
          }),
        );
      case "jsonrpc-subscribe":
        return sseOnce(
          target.jsonrpc,
          "/",
          JSON.stringify({
            jsonrpc: "2.0",
            id: i,
            method: "SubscribeToTask",
            params: { id: target.holdTaskId },
          }),
        );
      case "rest-send":
        return sseOnce(
          target.rest,
          "/message:stream",
          JSON.stringify({
            message: { messageId: nextId(), role: "ROLE_USER", parts: [{ text }] },
          }),
        );
      case "rest-subscribe":
        return sseOnce(
          target.rest,
          `/tasks/${encodeURIComponent(target.holdTaskId)}:subscribe`,
          undefined,
          "GET",
        );
      case "grpcjs-send":
      case "connect-send":
        return grpcOnce(
          sessions[i % sessions.length],
          "SendStreamingMessage",
          sendMessageRequest(nextId(), text),
        );
      default:
        return grpcOnce(
          sessions[i % sessions.length],
          "SubscribeToTask",
          subscribeRequest(target.holdTaskId),
        );
    }
  };
  let failures = 0;
  let refused = 0;
  let firstError;
  /** Runs streams from..to-1, `concurrency` at a time, over `sessions` (gRPC). */
  const round = async (from, to, sessions) => {
    let next = from;
    const extra = [];
    const worker = async () => {
      while (next < to) {
        const i = next++;
        let on = sessions;
        for (let attempt = 1; ; attempt++) {
          try {
            await one(i, on);
            break;
          } catch (e) {
            if (grpc && /REFUSED_STREAM|GOAWAY/.test(String(e?.message)) && attempt < 3) {
              refused++;
              on = [session()];
              extra.push(on[0]);
              continue;
            }
            failures++;
            firstError ??= e;
            break;
          }
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, to - from) }, worker));
    await closeAll([...sessions, ...extra]);
  };
  if (!grpc) await round(0, n, []);
  else
    for (let from = 0; from < n; from += STREAMS_PER_SESSION)
      await round(
        from,
        Math.min(n, from + STREAMS_PER_SESSION),
        Array.from({ length: 4 }, session),
      );
  return { failures, refused, firstError, goaways: Object.fromEntries(goaways) };
}
