/**
 * A2A over WebSocket (generated-example/bindings/ws/, built from `protoc-gen-a2a scaffold-binding`),
 * end to end over real sockets on 127.0.0.1: against the example agent, reached through its Agent
 * Card, every operation through `A2AServiceWsClient`; typed errors; connection-level (upgrade) and
 * per-frame service parameters; streaming order and end; multiplexing; cancellation (abort and
 * socket close reach the agent's handler signal); malformed and oversized frames answered with
 * error frames on a socket that stays usable; backpressure against a reader that stops reading;
 * `connectA2AService` with the binding's transport; and the binding-equivalence kit.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { create, type JsonObject } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { isA2AError, type CallContext } from "@protoc-gen-a2a/runtime";
import { checkAgentCard } from "@protoc-gen-a2a/runtime/http";
import { assertBindingEquivalence, formatEquivalenceReport } from "@protoc-gen-a2a/runtime/testing";
import {
  AgentCardSchema,
  Role,
  StreamResponseSchema,
  TaskState,
  type AgentCard,
  type Message,
  type StreamResponse,
  type Task,
} from "../../../generated-example/gen/a2a_pb.js";
import {
  ContentTypeNotSupportedError,
  errorRegistry,
  InvalidParamsError,
  MethodNotFoundError,
  PermissionDeniedError,
  TaskNotFoundError,
  UnauthenticatedError,
  UnsupportedOperationError,
  VersionNotSupportedError,
} from "../../../generated-example/gen/a2a_a2a_errors.js";
import type {
  A2AServiceClient,
  A2AServiceHandler,
} from "../../../generated-example/gen/a2a_a2a_handler.js";
import {
  AgentConnectError,
  connectA2AService,
} from "../../../generated-example/gen/a2a_a2a_agent_client.js";
import {
  checkA2AServiceBindingEquivalence,
  type A2AServiceBindingFactory,
} from "../../../generated-example/gen/a2a_a2a_equivalence.js";
import {
  startExampleAgent,
  type ExampleAgent,
  type ExamplePrincipal,
} from "../../../generated-example/agent/echo-agent.js";
import { WS_PROTOCOL_BINDING } from "../../../generated-example/bindings/ws/ws-operations.js";
import {
  A2AServiceWsClient,
  connectWs,
  type WsSocketConnection,
} from "../../../generated-example/bindings/ws/ws-client.js";
import {
  attachWsServer,
  WS_DEFAULT_MAX_FRAME_BYTES,
} from "../../../generated-example/bindings/ws/ws-server.js";
import { wsBindingFactory } from "../../../generated-example/bindings/ws/ws-equivalence.js";
import { collect } from "../../support/task-runtime-binding.js";

const TOKENS = {
  "admin-token": { subject: "admin", extendedCard: true },
  "user-token": { subject: "user", extendedCard: false },
};
const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

/** Every call the agent's handler got (all bindings), with its context. */
const calls: { operation: string; context: CallContext<ExamplePrincipal | undefined> }[] = [];
let agent: ExampleAgent;
let cardJson: JsonObject;
let wsUrl: string;
/** Connections opened by a test, closed after all. */
const opened: WsSocketConnection[] = [];
const connection = (headers?: Record<string, string>) => {
  const c = connectWs(wsUrl, headers === undefined ? undefined : { headers });
  opened.push(c);
  return c;
};
const clientOn = (
  c: WsSocketConnection,
  options: { headers?: Record<string, string>; version?: string } = {},
) => new A2AServiceWsClient({ ...options, url: wsUrl, connection: c });

beforeAll(async () => {
  agent = await startExampleAgent({
    tokens: TOKENS,
    longRunningMs: 300,
    allowPrivateWebhooks: true,
    onCall: (operation, context) => calls.push({ operation, context }),
  });
  cardJson = (await (await fetch(agent.cardUrl)).json()) as JsonObject;
  wsUrl =
    (cardJson["supportedInterfaces"] as { url: string; protocolBinding: string }[]).find(
      (i) => i.protocolBinding === WS_PROTOCOL_BINDING,
    )?.url ?? "";
});
afterAll(async () => {
  await Promise.all(opened.map((c) => c.close()));
  await agent.close();
});

const message = (text: string, ids: { taskId?: string; contextId?: string } = {}) => ({
  message: {
    messageId: crypto.randomUUID(),
    role: Role.USER,
    parts: [{ content: { case: "text" as const, value: text } }],
    ...ids,
  },
});
const textOf = (m: Message | undefined) =>
  m?.parts[0]?.content.case === "text" ? m.parts[0].content.value : undefined;
/** SendMessage expecting a task; `returnImmediately` for tasks that stay WORKING (tck-cancel). */
async function sendTask(client: A2AServiceClient, text: string): Promise<Task> {
  const response = await client.sendMessage({
    ...message(text),
    configuration: { returnImmediately: text.startsWith("tck-cancel") },
  });
  if (response.payload.case !== "task")
    throw new Error(`expected a task, got ${response.payload.case}`);
  return response.payload.value;
}
const stateOf = (e: StreamResponse) =>
  e.payload.case === "task"
    ? e.payload.value.status?.state
    : e.payload.case === "statusUpdate"
      ? e.payload.value.status?.state
      : undefined;
/** Resolves when `signal` aborts (at once when it has). */
const aborted = (signal: AbortSignal) =>
  new Promise<void>((resolve) =>
    signal.aborted ? resolve() : signal.addEventListener("abort", () => resolve(), { once: true }),
  );
/** The context of the next call of `operation` the agent gets over WebSocket. */
function nextCall(operation: string): Promise<CallContext<ExamplePrincipal | undefined>> {
  const seen = calls.length;
  return new Promise((resolve) => {
    const poll = () => {
      const found = calls
        .slice(seen)
        .find((c) => c.operation === operation && c.context.binding === WS_PROTOCOL_BINDING);
      if (found !== undefined) resolve(found.context);
      else setImmediate(poll);
    };
    poll();
  });
}

/** A raw WebSocket client: frames as JSON, read in order. */
interface RawSocket {
  readonly socket: WebSocket;
  send(frame: unknown): void;
  /** The next frame (parsed). */
  next(): Promise<Record<string, unknown>>;
  /** Frames until one with `id` ends its call (result, end, error), that one included. */
  untilDone(id: unknown): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}
async function rawSocket(url: string, headers?: Record<string, string>): Promise<RawSocket> {
  const socket = new WebSocket(url, { headers, perMessageDeflate: false });
  const frames: Record<string, unknown>[] = [];
  const waiting: ((f: Record<string, unknown>) => void)[] = [];
  socket.on("message", (data) => {
    const frame = JSON.parse(String(data)) as Record<string, unknown>;
    const w = waiting.shift();
    if (w !== undefined) w(frame);
    else frames.push(frame);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  const next = () =>
    new Promise<Record<string, unknown>>((resolve) =>
      frames.length > 0 ? resolve(frames.shift()!) : waiting.push(resolve),
    );
  return {
    socket,
    send: (frame) => socket.send(typeof frame === "string" ? frame : JSON.stringify(frame)),
    next,
    untilDone: async (id) => {
      const out: Record<string, unknown>[] = [];
      for (;;) {
        const f = await next();
        out.push(f);
        if (f["id"] === id && ("result" in f || "error" in f || f["end"] === true)) return out;
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (socket.readyState === WebSocket.CLOSED) return resolve();
        socket.once("close", () => resolve());
        socket.resume();
        socket.close();
      }),
  };
}
const sendMessageParams = (text: string) => ({
  message: { messageId: crypto.randomUUID(), role: "ROLE_USER", parts: [{ text }] },
});
const errorOf = (frame: Record<string, unknown>) => errorRegistry.fromJsonRpcError(frame["error"]);

describe("the Agent Card", () => {
  it("lists the WebSocket binding by its URI, with its ws:// URL, after the core bindings, and checks against what is mounted", () => {
    // The 1.0 interfaces (A2A 0.3's follow them).
    const interfaces = (cardJson["supportedInterfaces"] as JsonObject[]).filter(
      (i) => i["protocolVersion"] === "1.0",
    );
    expect(interfaces.at(-1)).toEqual({
      url: `ws://127.0.0.1:${agent.httpPort}/a2a/ws`,
      protocolBinding: WS_PROTOCOL_BINDING,
      protocolVersion: "1.0",
    });
    expect(interfaces.map((i) => i["protocolBinding"]).slice(0, 3)).toEqual([
      "JSONRPC",
      "HTTP+JSON",
      "GRPC",
    ]);
    expect(agent.endpoints.ws).toBe(wsUrl);
    const mounted = {
      baseUrl: `http://127.0.0.1:${agent.httpPort}`,
      jsonRpcPath: "/a2a/jsonrpc",
      restPath: "/a2a/rest",
      grpcAddress: agent.grpcAddress,
      connectPath: "/a2a/connect",
      additionalVersions: ["0.3"],
    };
    expect(
      checkAgentCard(cardJson, {
        ...mounted,
        custom: [{ url: wsUrl, protocolBinding: WS_PROTOCOL_BINDING }],
      }),
    ).toEqual([]);
    expect(
      checkAgentCard(cardJson, {
        ...mounted,
        custom: [{ url: `${wsUrl}2`, protocolBinding: WS_PROTOCOL_BINDING }],
      }).map((p) => p.kind),
    ).toEqual(["url-mismatch"]);
  });

  it("upgrades to other paths of the agent's port are answered 404", async () => {
    const socket = new WebSocket(wsUrl.replace("/a2a/ws", "/a2a/other"));
    const status = await new Promise<number | undefined>((resolve) => {
      socket.once("unexpected-response", (_req, res: IncomingMessage) => resolve(res.statusCode));
      socket.once("open", () => resolve(undefined));
      socket.once("error", () => resolve(-1));
    });
    socket.terminate();
    expect(status).toBe(404);
  });
});

describe("every operation through A2AServiceWsClient", () => {
  it("SendMessage: a Message reply, and a task (tck-complete-task), with the agent's text", async () => {
    const client = clientOn(connection());
    const reply = await client.sendMessage(message("hello over ws"));
    if (reply.payload.case !== "message") throw new Error("expected a message");
    expect(reply.payload.value.role).toBe(Role.AGENT);
    expect(textOf(reply.payload.value)).toBe("hello over ws");
    const task = await sendTask(client, "tck-complete-task ws");
    expect(task.status?.state).toBe(TaskState.COMPLETED);
    expect(task.artifacts[0]?.parts[0]?.content).toEqual({
      case: "text",
      value: "Completed: tck-complete-task ws",
    });
  });

  it("SendStreamingMessage (tck-stream-chunked): every event in order, then the end", async () => {
    const events = await collect(
      clientOn(connection()).sendStreamingMessage(message("tck-stream-chunked ws")),
    );
    const kinds = events.map((e) => e.payload.case);
    expect(kinds[0]).toBe("task");
    expect(kinds.filter((k) => k === "artifactUpdate")).toHaveLength(3);
    const chunks = events.flatMap((e) =>
      e.payload.case === "artifactUpdate"
        ? [{ append: e.payload.value.append, last: e.payload.value.lastChunk }]
        : [],
    );
    expect(chunks).toEqual([
      { append: false, last: false },
      { append: true, last: false },
      { append: true, last: true },
    ]);
    expect(stateOf(events.at(-1)!)).toBe(TaskState.COMPLETED);
  });

  it("GetTask, ListTasks, CancelTask, SubscribeToTask", async () => {
    const client = clientOn(connection());
    const task = await sendTask(client, "tck-cancel ws");
    expect([TaskState.SUBMITTED, TaskState.WORKING]).toContain(task.status?.state);
    expect((await client.getTask({ id: task.id })).id).toBe(task.id);
    const listed = await client.listTasks({ contextId: task.contextId });
    expect(listed.tasks.map((t) => t.id)).toEqual([task.id]);
    const subscription = client.subscribeToTask({ id: task.id })[Symbol.asyncIterator]();
    const snapshot = await subscription.next();
    expect(snapshot.value?.payload.case).toBe("task");
    const canceled = await client.cancelTask({ id: task.id });
    expect(canceled.status?.state).toBe(TaskState.CANCELED);
    const rest: StreamResponse[] = [];
    for (let r = await subscription.next(); r.done !== true; r = await subscription.next())
      rest.push(r.value);
    expect(stateOf(rest.at(-1)!)).toBe(TaskState.CANCELED);
  });

  it("push notification configs: create, get, list, delivery to the webhook, delete", async () => {
    const deliveries: unknown[] = [];
    let delivered: () => void = () => undefined;
    const canceledDelivered = new Promise<void>((resolve) => {
      delivered = resolve;
    });
    const webhook = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => {
        body += String(c);
      });
      req.on("end", () => {
        const parsed = JSON.parse(body) as { statusUpdate?: { status?: { state?: string } } };
        deliveries.push(parsed);
        if (parsed.statusUpdate?.status?.state === "TASK_STATE_CANCELED") delivered();
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => webhook.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(webhook.address() as AddressInfo).port}/hook`;
      const client = clientOn(connection());
      const task = await sendTask(client, "tck-cancel push");
      const config = await client.createTaskPushNotificationConfig({
        taskId: task.id,
        url,
        authentication: { scheme: "Bearer", credentials: "t" },
      });
      expect(config.id).not.toBe("");
      expect(
        (await client.getTaskPushNotificationConfig({ taskId: task.id, id: config.id })).url,
      ).toBe(url);
      expect(
        (await client.listTaskPushNotificationConfigs({ taskId: task.id })).configs.map(
          (c) => c.id,
        ),
      ).toEqual([config.id]);
      await client.cancelTask({ id: task.id });
      await canceledDelivered;
      expect(deliveries.length).toBeGreaterThan(0);
      await client.deleteTaskPushNotificationConfig({ taskId: task.id, id: config.id });
      expect((await client.listTaskPushNotificationConfigs({ taskId: task.id })).configs).toEqual(
        [],
      );
    } finally {
      webhook.closeAllConnections();
      await new Promise<void>((resolve) => webhook.close(() => resolve()));
    }
  });

  it("GetExtendedAgentCard: with a token allowed to read it; PermissionDeniedError otherwise", async () => {
    const client = clientOn(connection());
    const extended = await client.getExtendedAgentCard({}, bearer("admin-token"));
    expect(extended.skills.map((s) => s.id)).toContain("extended");
    await expect(client.getExtendedAgentCard({}, bearer("user-token"))).rejects.toBeInstanceOf(
      PermissionDeniedError,
    );
  });
});

describe("typed errors", () => {
  it("TaskNotFoundError for a missing task; InvalidParamsError for a missing REQUIRED field", async () => {
    const client = clientOn(connection());
    await expect(
      client.getTask({ id: "00000000-0000-0000-0000-000000000000" }),
    ).rejects.toBeInstanceOf(TaskNotFoundError);
    await expect(client.getTask({ id: "" })).rejects.toBeInstanceOf(InvalidParamsError);
  });

  it("VersionNotSupportedError for A2A-Version 9.9: per frame (the client's version), and at the upgrade", async () => {
    await expect(
      clientOn(connection(), { version: "9.9" }).getTask({ id: "x" }),
    ).rejects.toBeInstanceOf(VersionNotSupportedError);
    // A raw socket whose upgrade said 9.9 and whose frame says nothing: the upgrade's value applies.
    const raw = await rawSocket(wsUrl, { "A2A-Version": "9.9" });
    try {
      raw.send({ id: 1, method: "GetTask", params: { id: "x" } });
      expect(errorOf(await raw.next())).toBeInstanceOf(VersionNotSupportedError);
      // The frame's own A2A-Version wins over the upgrade's.
      raw.send({
        id: 2,
        method: "GetTask",
        params: { id: "x" },
        serviceParameters: { "A2A-Version": "1.0" },
      });
      expect(errorOf(await raw.next())).toBeInstanceOf(TaskNotFoundError);
    } finally {
      await raw.close();
    }
  });

  it("UnauthenticatedError for a bad bearer token at the upgrade and per message; a frame's good token wins over the upgrade's bad one", async () => {
    const badAtUpgrade = connection({ authorization: "Bearer nope" });
    await expect(clientOn(badAtUpgrade).sendMessage(message("hi"))).rejects.toBeInstanceOf(
      UnauthenticatedError,
    );
    const overridden = await clientOn(badAtUpgrade).getExtendedAgentCard({}, bearer("admin-token"));
    expect(overridden.name).toBe("protoc-gen-a2a example agent");
    await expect(
      clientOn(connection()).sendMessage(message("hi"), bearer("nope")),
    ).rejects.toBeInstanceOf(UnauthenticatedError);
    // A good token at the upgrade authenticates every call of the socket.
    const goodAtUpgrade = clientOn(connection({ authorization: "Bearer admin-token" }));
    expect((await goodAtUpgrade.getExtendedAgentCard({})).skills.map((s) => s.id)).toContain(
      "extended",
    );
  });

  it("ContentTypeNotSupportedError and UnsupportedOperationError from the agent", async () => {
    const client = clientOn(connection());
    const data = {
      message: {
        messageId: crypto.randomUUID(),
        role: Role.USER,
        parts: [
          {
            content: {
              case: "data" as const,
              value: { kind: { case: "stringValue" as const, value: "unsupported" } },
            },
          },
        ],
      },
    };
    await expect(client.sendMessage(data)).rejects.toBeInstanceOf(ContentTypeNotSupportedError);
    const done = await sendTask(client, "tck-complete-task x");
    await expect(client.sendMessage(message("more", { taskId: done.id }))).rejects.toBeInstanceOf(
      UnsupportedOperationError,
    );
  });
});

describe("ACTS behaviours of the example agent over WebSocket", () => {
  it.each([
    ["tck-reject-task", TaskState.REJECTED],
    ["tck-task-failure", TaskState.FAILED],
    ["tck-auth-required", TaskState.AUTH_REQUIRED],
    ["tck-artifact-data", TaskState.COMPLETED],
    ["tck-artifact-file", TaskState.COMPLETED],
    ["tck-long-running", TaskState.COMPLETED],
  ])("%s → %s", async (text, state) => {
    const task = await sendTask(clientOn(connection()), `${text} ws`);
    expect(task.status?.state).toBe(state);
  });

  it("tck-input-required: INPUT_REQUIRED, then the next message completes it", async () => {
    const client = clientOn(connection());
    const task = await sendTask(client, "tck-input-required ws");
    expect(task.status?.state).toBe(TaskState.INPUT_REQUIRED);
    const next = await client.sendMessage(
      message("here you go", { taskId: task.id, contextId: task.contextId }),
    );
    expect(next.payload.case === "task" ? next.payload.value.status?.state : undefined).toBe(
      TaskState.COMPLETED,
    );
  });

  it("tck-stream-basic: WORKING → artifact → COMPLETED, in order", async () => {
    const events = await collect(
      clientOn(connection()).sendStreamingMessage(message("tck-stream-basic ws")),
    );
    expect(events.map((e) => e.payload.case)).toContain("artifactUpdate");
    expect(events.findIndex((e) => e.payload.case === "artifactUpdate")).toBeLessThan(
      events.length - 1,
    );
    expect(stateOf(events.at(-1)!)).toBe(TaskState.COMPLETED);
  });
});

describe("one socket", () => {
  it("carries two streams at once (multiplexed by id), both complete", async () => {
    const c = connection();
    const client = clientOn(c);
    const [a, b] = await Promise.all([
      collect(client.sendStreamingMessage(message("tck-stream-chunked a"))),
      collect(client.sendStreamingMessage(message("tck-stream-chunked b"))),
    ]);
    const taskOf = (events: StreamResponse[]) =>
      events[0]?.payload.case === "task" ? events[0].payload.value.id : "";
    expect(taskOf(a)).not.toBe(taskOf(b));
    for (const events of [a, b]) {
      expect(stateOf(events.at(-1)!)).toBe(TaskState.COMPLETED);
      expect(events.filter((e) => e.payload.case === "artifactUpdate")).toHaveLength(3);
    }
    expect(c.socket).toBeDefined();
  });

  it("raw frames: two calls with their ids interleave, each ends with its own end frame", async () => {
    const raw = await rawSocket(wsUrl, { "A2A-Version": "1.0" });
    try {
      raw.send({
        id: "a",
        method: "SendStreamingMessage",
        params: sendMessageParams("tck-stream-chunked raw a"),
      });
      raw.send({
        id: "b",
        method: "SendStreamingMessage",
        params: sendMessageParams("tck-stream-chunked raw b"),
      });
      const frames: Record<string, unknown>[] = [];
      const ended = new Set<unknown>();
      while (ended.size < 2) {
        const f = await raw.next();
        frames.push(f);
        if (f["end"] === true) ended.add(f["id"]);
      }
      for (const id of ["a", "b"]) {
        const own = frames.filter((f) => f["id"] === id);
        expect(own.at(-1)).toEqual({ id, end: true });
        expect(own.slice(0, -1).every((f) => Object.keys(f).sort().join() === "event,id")).toBe(
          true,
        );
      }
    } finally {
      await raw.close();
    }
  });

  it("a client abort sends a cancel frame: the agent's handler signal aborts, and the socket serves the next call", async () => {
    const c = connection();
    const client = clientOn(c);
    const abort = new AbortController();
    const started = nextCall("SendStreamingMessage");
    const stream = client
      .sendStreamingMessage(message("tck-cancel abort me"), { signal: abort.signal })
      [Symbol.asyncIterator]();
    const first = await stream.next();
    expect(first.value?.payload.case).toBe("task");
    const context = await started;
    expect(context.signal.aborted).toBe(false);
    const socket = c.socket;
    abort.abort(new Error("the caller gave up"));
    await expect(stream.next()).rejects.toThrow("the caller gave up");
    await aborted(context.signal);
    expect(context.signal.aborted).toBe(true);
    const task = first.value?.payload.case === "task" ? first.value.payload.value : undefined;
    expect((await client.getTask({ id: task!.id })).status?.state).toBe(TaskState.WORKING); // the task lives on (§3.1.2: a stream is not the task)
    expect(c.socket).toBe(socket);
  });

  it("a socket closing cancels every call it carries; the next call opens a new socket", async () => {
    const c = connection();
    const client = clientOn(c);
    const starting = [nextCall("SendStreamingMessage")];
    const s1 = client.sendStreamingMessage(message("tck-cancel close 1"))[Symbol.asyncIterator]();
    await s1.next();
    starting.push(nextCall("SendStreamingMessage"));
    const s2 = client.sendStreamingMessage(message("tck-cancel close 2"))[Symbol.asyncIterator]();
    await s2.next();
    const contexts = await Promise.all(starting);
    expect(new Set(contexts).size).toBe(2);
    const before = c.socket;
    // Each stream: the events already received, then the failure (never a regular end).
    const rest = [s1, s2].map(async (s) => {
      for (let r = await s.next(); r.done !== true; r = await s.next());
      return "ended";
    });
    await c.close();
    await Promise.all(contexts.map((ctx) => aborted(ctx.signal)));
    expect(contexts.every((ctx) => ctx.signal.aborted)).toBe(true);
    for (const p of rest) {
      const e = await p.then(
        (x) => x,
        (x: unknown) => x,
      );
      expect(isA2AError(e) && e.spec.grpcCode).toBe(14); // UNAVAILABLE, as every client reports a lost agent
    }
    expect((await client.sendMessage(message("tck-message-response again"))).payload.case).toBe(
      "message",
    );
    expect(c.socket).toBeDefined();
    expect(c.socket).not.toBe(before);
  });
});

describe("malformed frames get error frames (id null when unreadable), and the socket stays usable", () => {
  it("not JSON, no id, a binary frame, bad serviceParameters, an unknown method, params not an object, a frame over 10 MiB", async () => {
    const raw = await rawSocket(wsUrl, { "A2A-Version": "1.0" });
    try {
      raw.send("this is not json");
      let f = await raw.next();
      expect(f["id"]).toBeNull();
      expect((f["error"] as { code: number }).code).toBe(-32700);

      raw.send({ method: "GetTask", params: { id: "x" } });
      f = await raw.next();
      expect(f["id"]).toBeNull();
      expect((f["error"] as { code: number }).code).toBe(-32600);

      raw.socket.send(Buffer.from("{}"), { binary: true });
      f = await raw.next();
      expect([f["id"], (f["error"] as { code: number }).code]).toEqual([null, -32600]);

      raw.send({
        id: 3,
        method: "GetTask",
        params: { id: "x" },
        serviceParameters: { "A2A-Version": 1 },
      });
      f = await raw.next();
      expect([f["id"], (f["error"] as { code: number }).code]).toEqual([null, -32600]);

      raw.send({ id: 4, method: "NoSuchMethod", params: {} });
      f = await raw.next();
      expect(f["id"]).toBe(4);
      expect(errorOf(f)).toBeInstanceOf(MethodNotFoundError);

      raw.send({ id: 5, method: "GetTask", params: ["x"] });
      f = await raw.next();
      expect(f["id"]).toBe(5);
      expect(errorOf(f)).toBeInstanceOf(InvalidParamsError);

      raw.send(
        JSON.stringify({
          id: 6,
          method: "SendMessage",
          params: sendMessageParams("x".repeat(WS_DEFAULT_MAX_FRAME_BYTES)),
        }),
      );
      f = await raw.next();
      expect(f["id"]).toBeNull();
      expect((f["error"] as { code: number; message: string }).message).toMatch(
        /exceeds the limit of 10485760 bytes/,
      );

      raw.send({
        id: 7,
        method: "SendMessage",
        params: sendMessageParams("tck-message-response still here"),
      });
      f = await raw.next();
      expect(f["id"]).toBe(7);
      expect(f["result"]).toMatchObject({
        message: { role: "ROLE_AGENT", parts: [{ text: "tck-message-response still here" }] },
      });
      expect(raw.socket.readyState).toBe(WebSocket.OPEN);
    } finally {
      await raw.close();
    }
  });

  it("an id in use by a running call is refused without disturbing that call; a cancel of an unknown id is ignored", async () => {
    const raw = await rawSocket(wsUrl, { "A2A-Version": "1.0" });
    try {
      raw.send({
        id: 1,
        method: "SendStreamingMessage",
        params: sendMessageParams("tck-cancel dup"),
      });
      const first = await raw.next();
      expect(first["id"]).toBe(1);
      const taskId = (first["event"] as { task: { id: string } }).task.id;
      raw.send({ id: 1, method: "GetTask", params: { id: taskId } });
      let refused = await raw.next();
      while (refused["id"] === 1) refused = await raw.next(); // the running stream's own events
      expect(refused["id"]).toBeNull();
      expect((refused["error"] as { message: string }).message).toMatch(/in use/);
      raw.send({ id: 99, cancel: true });
      raw.send({ id: 2, method: "CancelTask", params: { id: taskId } });
      const frames = [...(await raw.untilDone(2))];
      if (!frames.some((f) => f["id"] === 1 && f["end"] === true))
        frames.push(...(await raw.untilDone(1)));
      expect(frames.find((f) => f["id"] === 2)?.["result"]).toMatchObject({
        status: { state: "TASK_STATE_CANCELED" },
      });
      expect(frames.filter((f) => f["id"] === 1).at(-1)).toEqual({ id: 1, end: true });
    } finally {
      await raw.close();
    }
  });
});

describe("backpressure", () => {
  it("a client that stops reading makes the server wait: bufferedAmount stays within one frame, the stream is not drained into memory; reading again gets every event in order", async () => {
    const EVENT_BYTES = 1024 * 1024;
    const TOTAL = 128; // 128 MiB: far beyond what the kernel's socket buffers hold (tcp_rmem max + tcp_wmem max here: 36 MiB)
    let produced = 0;
    const payload = "x".repeat(EVENT_BYTES);
    const handler = {
      async *sendStreamingMessage() {
        for (let i = 0; i < TOTAL; i++) {
          produced = i + 1;
          yield create(StreamResponseSchema, {
            payload: {
              case: "message",
              value: {
                messageId: `m${i}`,
                role: Role.AGENT,
                parts: [{ content: { case: "text", value: payload } }],
              },
            },
          });
        }
      },
    } as unknown as A2AServiceHandler;
    const http: Server = createServer();
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    const ws = attachWsServer(http, handler, { versionWhenMissing: "1.0" });
    const raw = await rawSocket(`ws://127.0.0.1:${(http.address() as AddressInfo).port}/a2a/ws`);
    try {
      raw.send({ id: 1, method: "SendStreamingMessage", params: sendMessageParams("flood") });
      const first = await raw.next();
      expect((first["event"] as { message: { messageId: string } }).message.messageId).toBe("m0");
      raw.socket.pause();
      const [serverSocket] = [...ws.sockets];
      // Sample until the producer has stopped (no new event over 40 samples) or produced everything.
      let maxBuffered = 0;
      let stable = 0;
      let last = -1;
      while (stable < 40 && produced < TOTAL) {
        await new Promise((r) => setTimeout(r, 25));
        maxBuffered = Math.max(maxBuffered, serverSocket!.bufferedAmount);
        stable = produced === last ? stable + 1 : 0;
        last = produced;
      }
      expect(produced).toBeLessThan(TOTAL);
      expect(maxBuffered).toBeLessThanOrEqual(2 * EVENT_BYTES);
      raw.socket.resume();
      const frames = await raw.untilDone(1);
      const ids = frames
        .filter((f) => "event" in f)
        .map((f) => (f["event"] as { message: { messageId: string } }).message.messageId);
      expect(ids).toEqual(Array.from({ length: TOTAL - 1 }, (_, i) => `m${i + 1}`));
      expect(frames.at(-1)).toEqual({ id: 1, end: true });
    } finally {
      await raw.close();
      await ws.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    }
  });
});

describe("connectA2AService with the WebSocket transport", () => {
  /** The agent's card with the WebSocket interface first. */
  const wsFirst = () => {
    const interfaces = cardJson["supportedInterfaces"] as JsonObject[];
    const ws = interfaces.filter((i) => i["protocolBinding"] === WS_PROTOCOL_BINDING);
    return {
      ...cardJson,
      supportedInterfaces: [
        ...ws,
        ...interfaces.filter((i) => i["protocolBinding"] !== WS_PROTOCOL_BINDING),
      ],
    };
  };
  const serveCard = async (json: JsonObject) => {
    const server = createServer((_req, res) =>
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(json)),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  };
  const transports = {
    [WS_PROTOCOL_BINDING]: (target: { address: string }, options: object) =>
      new A2AServiceWsClient({ ...options, url: target.address, connection: connection() }),
  };

  it("connects over WebSocket when the card lists it first and the transport is given", async () => {
    const served = await serveCard(wsFirst());
    try {
      const agentConnection = await connectA2AService(served.url, { transports });
      expect(agentConnection.interface).toMatchObject({
        protocolBinding: WS_PROTOCOL_BINDING,
        url: wsUrl,
        index: 0,
      });
      const call = nextCall("SendMessage");
      expect(
        (await agentConnection.client.sendMessage(message("tck-message-response via the card")))
          .payload.case,
      ).toBe("message");
      expect((await call).binding).toBe(WS_PROTOCOL_BINDING);
      await expect(
        agentConnection.client.getTask({ id: "00000000-0000-0000-0000-000000000000" }),
      ).rejects.toBeInstanceOf(TaskNotFoundError);
    } finally {
      await served.close();
    }
  });

  it("skips it without the transport (the next interface, JSON-RPC, is used); a card with only WebSocket does not connect", async () => {
    const served = await serveCard(wsFirst());
    try {
      const agentConnection = await connectA2AService(served.url);
      expect(agentConnection.interface).toMatchObject({ protocolBinding: "JSONRPC", index: 1 });
    } finally {
      await served.close();
    }
    const onlyWs = {
      ...cardJson,
      supportedInterfaces: (cardJson["supportedInterfaces"] as JsonObject[]).filter(
        (i) => i["protocolBinding"] === WS_PROTOCOL_BINDING,
      ),
    };
    const failure = await connectA2AService(fromCard(onlyWs)).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(AgentConnectError);
    expect((failure as AgentConnectError).message).toMatch(/a binding this client does not know/);
    expect(
      (await connectA2AService(fromCard(onlyWs), { transports })).interface.protocolBinding,
    ).toBe(WS_PROTOCOL_BINDING);
  });
});

/** A card JSON as the AgentCard message connectA2AService takes. */
function fromCard(json: JsonObject): AgentCard {
  const interfaces = (
    json["supportedInterfaces"] as {
      url: string;
      protocolBinding: string;
      protocolVersion: string;
    }[]
  ).map((i) => ({ ...i, tenant: "" }));
  return create(AgentCardSchema, {
    name: String(json["name"]),
    supportedInterfaces: interfaces,
    capabilities: { streaming: true, pushNotifications: true, extendedAgentCard: true },
  });
}

describe("the binding-equivalence kit", () => {
  it("takes the WebSocket binding as a candidate: every scenario agrees with the reference bindings", async () => {
    const factory: A2AServiceBindingFactory = wsBindingFactory;
    const report = await checkA2AServiceBindingEquivalence({ candidates: { WebSocket: factory } });
    console.log(formatEquivalenceReport(report));
    assertBindingEquivalence(report);
    // Four bindings (JSON-RPC, HTTP+JSON, gRPC as references, WebSocket), every scenario run and passed on each.
    expect(report.bindings.map((b) => b.name)).toEqual([
      "JSONRPC",
      "HTTP+JSON",
      "GRPC",
      "WebSocket",
    ]);
    const ws = report.cells.filter((c) => c.binding === "WebSocket");
    expect(ws).toHaveLength(report.scenarios.length);
    expect(ws.filter((c) => c.status !== "pass")).toEqual([]);
    expect(report.scenarios.length).toBeGreaterThanOrEqual(80);
  });
});
