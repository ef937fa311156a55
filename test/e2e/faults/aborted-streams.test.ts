/**
 * Aborted streams leave nothing behind (issue #17; bench/aborted-streams.mjs is the 10,000-stream version
 * with heap figures): on every binding the generated code serves, 500 streams of each kind are opened, their
 * first event read, and abandoned the way a client that goes away does it (HTTP/1.1 SSE: the socket
 * destroyed; gRPC on grpc-js and on Connect: RST_STREAM CANCEL on a shared session):
 *   - SendStreamingMessage: each creates a task that stays WORKING until its caller left (the executor then
 *     completes it): every one of them is completed, i.e. every server noticed every departure;
 *   - SubscribeToTask: all subscribe to one WORKING task;
 * then the process's open fds are back to the baseline, the task handler's live tasks back to the one
 * task the subscriptions watched, and the server still serves a stream to its end.
 */
import { request as httpRequest } from "node:http";
import { connect as connectHttp2, constants as h2, type ClientHttp2Session } from "node:http2";
import { create, toBinary } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TaskHandlerIntrospection } from "@protoc-gen-a2a/runtime/task";
import { InMemoryTaskStore } from "@protoc-gen-a2a/runtime/task";
import type { A2AServiceHandler } from "../../../generated-example/gen/a2a_a2a_handler.js";
import {
  Role,
  SendMessageRequestSchema,
  SubscribeToTaskRequestSchema,
  TaskState,
  type Message,
} from "../../../generated-example/gen/a2a_pb.js";
import { createA2ATaskHandler, taskOf } from "../../support/task-runtime-binding.js";
import { eventually } from "../../support/servers.js";
import { SERVERS, message, openFds, type FaultServer } from "../../support/faults-servers.js";

const STREAMS = 500;
const CONCURRENCY = 25;

const textOf = (m: Message | undefined): string =>
  m?.parts[0]?.content.case === "text" ? m.parts[0].content.value : "";
const aborted = (signal: AbortSignal) =>
  new Promise<void>((resolve) =>
    signal.aborted ? resolve() : signal.addEventListener("abort", () => resolve(), { once: true }),
  );

/** One SSE stream on its own connection: resolves once the first event arrived and the socket is destroyed. */
function sseOnce(port: number, method: "GET" | "POST", path: string, body?: string): Promise<void> {
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
          req.destroy();
          reject(new Error(`HTTP ${res.statusCode}`));
          return;
        }
        res.on("data", (chunk: Buffer) => {
          if (!String(chunk).includes("data:")) return;
          req.destroy();
          resolve();
        });
      },
    );
    req.on("error", (e) => (req.destroyed ? resolve() : reject(e)));
    req.end(body);
  });
}

function envelope(payload: Uint8Array): Buffer {
  const out = Buffer.alloc(5 + payload.length);
  out.writeUInt32BE(payload.length, 1);
  out.set(payload, 5);
  return out;
}

/** One gRPC server-streaming call: resolves once its first message arrived and the stream is reset. */
function grpcOnce(session: ClientHttp2Session, method: string, payload: Uint8Array): Promise<void> {
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
    stream.on("data", (chunk: Buffer) => {
      got += chunk.length;
      if (done || got < 5) return;
      done = true;
      stream.close(h2.NGHTTP2_CANCEL);
      resolve();
    });
    stream.on("error", (e) => (done ? undefined : reject(e)));
    stream.on("close", () =>
      done ? undefined : reject(new Error(`closed before any message (${stream.rstCode})`)),
    );
    stream.end(envelope(payload));
  });
}

/** Runs `one(i)` for i < n, `CONCURRENCY` at a time. */
async function pool(n: number, one: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < n) await one(next++);
    }),
  );
}

const sendJson = (i: number) =>
  JSON.stringify({
    message: {
      messageId: `s-${i}-${Math.random()}`,
      role: "ROLE_USER",
      parts: [{ text: `stream ${i}` }],
    },
  });

describe.each(SERVERS)("$name: 500 aborted streams of each kind", ({ name, start, grpc }) => {
  let handler: A2AServiceHandler & TaskHandlerIntrospection;
  let store: InMemoryTaskStore;
  let server: FaultServer;
  let holdId = "";
  /** Streaming turns whose caller left (the executor saw the call's signal abort and completed the task). */
  let callerLeft = 0;
  let baseline = 0;

  beforeAll(async () => {
    store = new InMemoryTaskStore({ maxTasks: 100_000 });
    handler = createA2ATaskHandler({
      store,
      capabilities: { streaming: true },
      executor: {
        async execute(request, emitter) {
          await emitter.working();
          if (textOf(request.message) === "hold") return aborted(request.signal);
          if (textOf(request.message) === "quick") return emitter.complete("done");
          await Promise.race([aborted(request.call.signal), aborted(request.signal)]);
          callerLeft++;
          await emitter.complete("the caller left");
        },
      },
    });
    server = await start(handler);
    holdId = taskOf(
      await server.client.sendMessage({
        ...message("hold"),
        configuration: { returnImmediately: true },
      }),
    ).id;
    // A first stream of each kind (connections, lazy state) before the baseline.
    for await (const _ of server.client.sendStreamingMessage(message("quick")));
    baseline = openFds();
  });
  afterAll(async () => {
    await server.client.cancelTask({ id: holdId });
    await server.close();
  });

  const streams = (kind: "send" | "subscribe"): ((i: number) => Promise<void>) => {
    if (!grpc) {
      const port = server.port;
      if (name === "JSON-RPC") {
        return kind === "send"
          ? (i) =>
              sseOnce(
                port,
                "POST",
                "/",
                JSON.stringify({
                  jsonrpc: "2.0",
                  id: i,
                  method: "SendStreamingMessage",
                  params: JSON.parse(sendJson(i)),
                }),
              )
          : (i) =>
              sseOnce(
                port,
                "POST",
                "/",
                JSON.stringify({
                  jsonrpc: "2.0",
                  id: i,
                  method: "SubscribeToTask",
                  params: { id: holdId },
                }),
              );
      }
      return kind === "send"
        ? (i) => sseOnce(port, "POST", "/message:stream", sendJson(i))
        : () => sseOnce(port, "GET", `/tasks/${encodeURIComponent(holdId)}:subscribe`);
    }
    const sessions = Array.from({ length: 4 }, () =>
      connectHttp2(`http://${server.address}`).on("error", () => {}),
    );
    opened.push(...sessions);
    return kind === "send"
      ? (i) =>
          grpcOnce(
            sessions[i % 4]!,
            "SendStreamingMessage",
            toBinary(
              SendMessageRequestSchema,
              create(SendMessageRequestSchema, {
                message: {
                  messageId: `g-${i}-${Math.random()}`,
                  role: Role.USER,
                  parts: [{ content: { case: "text", value: `stream ${i}` } }],
                },
              }),
            ),
          )
      : (i) =>
          grpcOnce(
            sessions[i % 4]!,
            "SubscribeToTask",
            toBinary(
              SubscribeToTaskRequestSchema,
              create(SubscribeToTaskRequestSchema, { id: holdId }),
            ),
          );
  };
  const opened: ClientHttp2Session[] = [];
  const closeSessions = () =>
    Promise.all(
      opened.splice(0).map(
        (s) =>
          new Promise<void>((r) => {
            if (s.destroyed) return r();
            s.once("close", () => r());
            s.close();
          }),
      ),
    );

  it("SendStreamingMessage: every server-side turn sees its caller leave; fds and live tasks back", async () => {
    const left = callerLeft;
    await pool(STREAMS, streams("send"));
    await closeSessions();
    await eventually(() => callerLeft === left + STREAMS, 30_000);
    await eventually(() => handler.liveTasks === 1 && openFds() <= baseline + 2, 30_000);
    const completed = (
      await store.listTasks(
        { tenant: "", owner: "" },
        {
          contextId: "",
          state: TaskState.COMPLETED,
          statusTimestampAfter: undefined,
          pageSize: 1,
          pageToken: "",
        },
      )
    ).totalSize;
    expect(completed).toBeGreaterThanOrEqual(STREAMS);
  });

  it("SubscribeToTask: fds and live tasks back (the watched task still WORKING)", async () => {
    await pool(STREAMS, streams("subscribe"));
    await closeSessions();
    await eventually(() => handler.liveTasks === 1 && openFds() <= baseline + 2, 30_000);
    expect((await server.client.getTask({ id: holdId })).status?.state).toBe(TaskState.WORKING);
  });

  it("a stream read to its end still works afterwards", async () => {
    const kinds: string[] = [];
    for await (const event of server.client.sendStreamingMessage(message("quick")))
      kinds.push(event.payload.case ?? "");
    expect(kinds).toEqual(["task", "statusUpdate", "statusUpdate"]);
  });
});
