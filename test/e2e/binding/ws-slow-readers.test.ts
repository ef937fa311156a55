/**
 * Issue #25 (point 3): one WebSocket sending 100 GetTask frames for a large task while never
 * reading made the server hold every answer (820 MB for an 8 MB task; the 1,000-calls cap allowed
 * ~8 GB). A socket of the WebSocket binding is now bounded by bytes: answers wait, unencoded,
 * while the socket holds more than `maxBufferedBytes` unwritten; calls read start only while it is
 * under the bound (one per event-loop turn); reading stops meanwhile; a socket that writes nothing
 * out for `stalledWriteTimeoutMs` is closed with 1008 and dropped. Real server and `ws` clients on
 * 127.0.0.1. Memory figures (RSS) come from bench/slow-readers-ws.mjs, not from here: these tests
 * check what the server holds for the socket (`bufferedAmount`) and how many answers it produced.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import type { CallContext } from "@protoc-gen-a2a/runtime";
import { InMemoryTaskStore } from "@protoc-gen-a2a/runtime/task";
import type { A2AServiceHandler } from "../../../generated-example/gen/a2a_a2a_handler.js";
import {
  attachWsServer,
  WS_STALLED_CLOSE_CODE,
  type WsServerAttachment,
} from "../../../generated-example/bindings/ws/ws-server.js";
import {
  callOf,
  createA2ATaskHandler,
  sendRequest,
  taskOf,
  textOf,
} from "../../support/task-runtime-binding.js";

/** The task's artifact: far above the bound, and large enough that the kernel's socket buffers (tens of MiB on loopback) hold only a few answers. */
const ANSWER_BYTES = 4 * 1024 * 1024;
const MAX_BUFFERED = 256 * 1024;
const STALL_MS = 1500;
const FRAMES = 100;

let server: Server;
let ws: WsServerAttachment;
let url: string;
let bigTaskId: string;
/** GetTask calls that reached the handler. */
let getTasks = 0;
/** SendMessage calls that reached the executor, and what releases them. */
let started = 0;
let release: () => void = () => undefined;
let released = new Promise<void>((resolve) => (release = resolve));
/** The contexts of the streams the handler was asked for. */
const streams: CallContext<unknown>[] = [];

beforeAll(async () => {
  const tasks = createA2ATaskHandler({
    store: new InMemoryTaskStore(),
    capabilities: { streaming: true },
    executor: {
      async execute(context, emitter) {
        const text = textOf(context.message);
        if (text === "big") {
          await emitter.addArtifact(
            {
              artifactId: "big",
              parts: [{ content: { case: "text", value: "x".repeat(ANSWER_BYTES) } }],
            },
            { lastChunk: true },
          );
        } else {
          started++;
          await released;
        }
        await emitter.complete();
      },
    },
  });
  bigTaskId = taskOf(await tasks.sendMessage(sendRequest("big"), callOf("SendMessage"))).id;
  // The task handler, counting GetTask calls; a stream that waits for its caller to leave.
  const handler = new Proxy(tasks, {
    get(target, property) {
      if (property === "getTask") {
        return (request: unknown, context: unknown) => {
          getTasks++;
          return (target.getTask as (r: unknown, c: unknown) => unknown)(request, context);
        };
      }
      if (property === "sendStreamingMessage") {
        return async function* (_request: unknown, context: CallContext<unknown>) {
          streams.push(context);
          await new Promise<void>((resolve) =>
            context.signal.addEventListener("abort", () => resolve(), { once: true }),
          );
        };
      }
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  }) as A2AServiceHandler;
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  ws = attachWsServer(server, handler, {
    versionWhenMissing: "1.0",
    maxBufferedBytes: MAX_BUFFERED,
    stalledWriteTimeoutMs: STALL_MS,
    pingIntervalMs: 0,
  });
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/a2a/ws`;
});
afterAll(async () => {
  release();
  await ws.close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
afterEach(() => {
  getTasks = 0;
});

function open(): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { perMessageDeflate: false });
    socket.once("open", () => resolve(socket));
    socket.once("error", reject);
  });
}
const serverSocketOf = async (): Promise<WebSocket> => {
  // The server side of the newest socket (the test opens one at a time).
  for (;;) {
    const socket = [...ws.sockets].at(-1);
    if (socket !== undefined) return socket;
    await new Promise((r) => setTimeout(r, 5));
  }
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const getTaskFrame = (id: number) =>
  JSON.stringify({ id, method: "GetTask", params: { id: bigTaskId } });

describe("a client that never reads", () => {
  it(`${FRAMES} GetTask frames of a ${ANSWER_BYTES / 1024 / 1024} MiB task: the server produces few answers, holds at most the bound plus one answer, and closes the socket (1008) once it stalled`, async () => {
    const client = await open();
    const serverSocket = await serverSocketOf();
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      client.once("close", (code, reason) => resolve({ code, reason: String(reason) })),
    );
    client.pause(); // stops reading its socket: the server's answers pile up in the kernel, then in the server
    for (let i = 1; i <= FRAMES; i++) client.send(getTaskFrame(i));
    let maxBuffered = 0;
    while (serverSocket.readyState === WebSocket.OPEN) {
      maxBuffered = Math.max(maxBuffered, serverSocket.bufferedAmount);
      await sleep(10);
    }
    const producedWhenStalled = getTasks;
    // The server closes with 1008 and a reason; a peer that reads again within the grace gets the frame.
    client.resume();
    const { code, reason } = await closed;
    expect(code).toBe(WS_STALLED_CLOSE_CODE);
    expect(reason).toBe(`answers not read for ${STALL_MS} ms`);
    // What the kernel's buffers took (tens of MiB on loopback) plus what crossed the bound: a few answers, not 100.
    expect(producedWhenStalled).toBeLessThanOrEqual(20);
    expect(maxBuffered).toBeGreaterThan(MAX_BUFFERED);
    expect(maxBuffered).toBeLessThanOrEqual(MAX_BUFFERED + ANSWER_BYTES + 1024);
    // Dropped: no longer tracked, and the frames it did not read were never started.
    while (ws.sockets.has(serverSocket)) await sleep(10);
    await sleep(50);
    expect(getTasks).toBe(producedWhenStalled);
  });

  it("a client that pauses and reads again before the timeout gets every answer, in order, and keeps its socket", async () => {
    const client = await open();
    const ids: number[] = [];
    client.on("message", (data) => {
      const frame = JSON.parse(String(data)) as { id: number; result?: { id: string } };
      if (frame.result?.id === bigTaskId) ids.push(frame.id);
    });
    client.pause();
    for (let i = 1; i <= 12; i++) client.send(getTaskFrame(i));
    await sleep(STALL_MS / 2);
    const producedWhilePaused = getTasks;
    client.resume();
    while (ids.length < 12) await sleep(10);
    expect(producedWhilePaused).toBeLessThan(12);
    expect(ids).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    await sleep(STALL_MS + 200);
    expect(client.readyState).toBe(WebSocket.OPEN);
    client.close();
  });
});

describe("a normal client is unaffected", () => {
  it("20 GetTask frames of the large task in one burst, read as they come: every answer, socket open", async () => {
    const client = await open();
    const answers = new Map<number, number>();
    client.on("message", (data) => {
      const frame = JSON.parse(String(data)) as {
        id: number;
        result?: { artifacts: { parts: { text: string }[] }[] };
      };
      answers.set(frame.id, frame.result?.artifacts[0]?.parts[0]?.text.length ?? -1);
    });
    for (let i = 1; i <= 20; i++) client.send(getTaskFrame(i));
    while (answers.size < 20) await sleep(10);
    expect([...answers.values()]).toEqual(Array.from({ length: 20 }, () => ANSWER_BYTES));
    expect(getTasks).toBe(20);
    expect(client.readyState).toBe(WebSocket.OPEN);
    client.close();
  });

  it("calls that wait run at once, side by side: 20 blocking SendMessage frames all reach the agent before any ends", async () => {
    const client = await open();
    const answered: number[] = [];
    client.on("message", (data) => answered.push((JSON.parse(String(data)) as { id: number }).id));
    for (let i = 1; i <= 20; i++)
      client.send(
        JSON.stringify({
          id: i,
          method: "SendMessage",
          params: { message: { messageId: `m${i}`, role: "ROLE_USER", parts: [{ text: "wait" }] } },
        }),
      );
    while (started < 20) await sleep(10);
    expect(answered).toEqual([]);
    release();
    released = Promise.resolve();
    while (answered.length < 20) await sleep(10);
    expect([...answered].sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    client.close();
  });

  it("a cancel frame right behind its call frame (one write) still cancels that call", async () => {
    const client = await open();
    const before = streams.length;
    client.send(
      JSON.stringify({
        id: "s",
        method: "SendStreamingMessage",
        params: { message: { messageId: "s1", role: "ROLE_USER", parts: [{ text: "stream" }] } },
      }),
    );
    client.send(JSON.stringify({ id: "s", cancel: true }));
    while (streams.length === before) await sleep(5);
    const context = streams.at(-1)!;
    while (!context.signal.aborted) await sleep(5);
    expect(context.signal.aborted).toBe(true);
    expect(client.readyState).toBe(WebSocket.OPEN);
    client.close();
  });
});
