// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Stream event ids and resumption, end to end over real sockets on 127.0.0.1: the SSE writers of
 * both HTTP bindings send `id: <seq>:<task id>` for events marked with `setEventId`; the generated
 * JSON-RPC and HTTP+JSON clients resume a SendStreamingMessage or SubscribeToTask stream whose
 * connection drops with SubscribeToTask and `Last-Event-ID`, handing the caller every event once,
 * in order; with resumption off, for an A2A error during resumption, for unmarked events and when
 * every attempt fails, the caller gets an error (and the call does not hang).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { create } from "@bufbuild/protobuf";
import { afterEach, describe, expect, it } from "vitest";
import type { CallContext } from "@protoc-gen-a2a/runtime";
import { isA2AError, markImmutable } from "@protoc-gen-a2a/runtime";
import {
  DEFAULT_STREAM_RESUME,
  resumeSettings,
  type StreamResumeOptions,
} from "../../../runtime/src/http/stream-resume.js";
import {
  LAST_EVENT_ID_PARAMETER,
  formatEventId,
  parseEventId,
  setEventId,
} from "../../../runtime/src/task/event-ids.js";
import {
  AgentCardSchema,
  Role,
  StreamResponseSchema,
  TaskState,
  type StreamResponse,
  type SubscribeToTaskRequest,
} from "../../../generated-example/gen/a2a_pb.js";
import type {
  A2AServiceClient,
  A2AServiceHandler,
} from "../../../generated-example/gen/a2a_a2a_handler.js";
import {
  TaskNotFoundError,
  UnsupportedOperationError,
} from "../../../generated-example/gen/a2a_a2a_errors.js";
import { A2AServiceJsonRpcClient } from "../../../generated-example/gen/a2a_a2a_jsonrpc_client.js";
import { createA2AServiceJsonRpcServer } from "../../../generated-example/gen/a2a_a2a_jsonrpc_server.js";
import { A2AServiceRestClient } from "../../../generated-example/gen/a2a_a2a_rest_client.js";
import { createA2AServiceRestServer } from "../../../generated-example/gen/a2a_a2a_rest_server.js";
import { connectA2AService } from "../../../generated-example/gen/a2a_a2a_agent_client.js";
import { listen, type Listening } from "../../support/servers.js";

const TASK = "task-1";

/** The task's event log, fresh objects each time: what the handler streams. */
function taskEvents(marked = true, lastState = TaskState.COMPLETED): StreamResponse[] {
  const status = (state: TaskState) => ({ taskId: TASK, contextId: "ctx-1", status: { state } });
  const artifact = (id: string) => ({
    taskId: TASK,
    contextId: "ctx-1",
    artifact: { artifactId: id, parts: [{ content: { case: "text" as const, value: id } }] },
  });
  const events = [
    create(StreamResponseSchema, {
      payload: {
        case: "task",
        value: { id: TASK, contextId: "ctx-1", status: { state: TaskState.SUBMITTED } },
      },
    }),
    create(StreamResponseSchema, {
      payload: { case: "statusUpdate", value: status(TaskState.WORKING) },
    }),
    create(StreamResponseSchema, { payload: { case: "artifactUpdate", value: artifact("a1") } }),
    create(StreamResponseSchema, { payload: { case: "artifactUpdate", value: artifact("a2") } }),
    create(StreamResponseSchema, { payload: { case: "artifactUpdate", value: artifact("a3") } }),
    create(StreamResponseSchema, { payload: { case: "statusUpdate", value: status(lastState) } }),
  ];
  if (marked) {
    for (const [i, event] of events.entries()) setEventId(event, formatEventId(TASK, i + 1)!);
  }
  return events;
}

/** A readable label of an event, to compare streams. */
function label(event: StreamResponse): string {
  switch (event.payload.case) {
    case "task":
      return "task";
    case "statusUpdate":
      return `status:${TaskState[event.payload.value.status?.state ?? 0]}`;
    case "artifactUpdate":
      return `artifact:${event.payload.value.artifact?.artifactId}`;
    default:
      return String(event.payload.case);
  }
}

const ALL = taskEvents().map(label);

interface HandlerOptions {
  /** Mark the events with ids (default true). */
  readonly marked?: boolean;
  /** How many events before the one after `Last-Event-ID` a resumption repeats (a sloppy server). */
  readonly overlap?: number;
  /** Thrown by a SubscribeToTask that resumes (Last-Event-ID set). */
  readonly resumeError?: () => Error;
  /** The state of the last status update (default COMPLETED). */
  readonly lastState?: TaskState;
  /** The events every call streams (default: fresh ones, {@link taskEvents}). */
  readonly source?: () => StreamResponse[];
}

/** A hand-written handler backed by the fixed event list: honours `last-event-id` in SubscribeToTask. */
class ResumeHandler implements A2AServiceHandler {
  /** Every streaming call: its operation and the Last-Event-ID it carried. */
  readonly calls: { operation: string; lastEventId: string | undefined }[] = [];
  readonly #options: HandlerOptions;

  constructor(options: HandlerOptions = {}) {
    this.#options = options;
  }

  async *sendStreamingMessage(_request: unknown, context: CallContext) {
    this.calls.push({
      operation: "SendStreamingMessage",
      lastEventId: context.serviceParameters.get(LAST_EVENT_ID_PARAMETER),
    });
    yield* this.#events();
  }

  #events(): StreamResponse[] {
    if (this.#options.source !== undefined) return this.#options.source();
    return taskEvents(this.#options.marked ?? true, this.#options.lastState);
  }

  async *subscribeToTask(request: SubscribeToTaskRequest, context: CallContext) {
    const lastEventId = context.serviceParameters.get(LAST_EVENT_ID_PARAMETER);
    this.calls.push({ operation: "SubscribeToTask", lastEventId });
    if (request.id !== TASK) throw new TaskNotFoundError(`Task ${request.id} not found`);
    const events = this.#events();
    const last = lastEventId === undefined ? undefined : parseEventId(lastEventId);
    if (last === undefined || last.taskId !== request.id) {
      yield* events;
      return;
    }
    if (this.#options.resumeError !== undefined) throw this.#options.resumeError();
    yield* events.slice(Math.max(0, last.seq - (this.#options.overlap ?? 0)));
  }

  async sendMessage(): Promise<never> {
    throw new UnsupportedOperationError();
  }
  async getTask(): Promise<never> {
    throw new UnsupportedOperationError();
  }
  async listTasks(): Promise<never> {
    throw new UnsupportedOperationError();
  }
  async cancelTask(): Promise<never> {
    throw new UnsupportedOperationError();
  }
  async createTaskPushNotificationConfig(): Promise<never> {
    throw new UnsupportedOperationError();
  }
  async getTaskPushNotificationConfig(): Promise<never> {
    throw new UnsupportedOperationError();
  }
  async listTaskPushNotificationConfigs(): Promise<never> {
    throw new UnsupportedOperationError();
  }
  async getExtendedAgentCard(): Promise<never> {
    throw new UnsupportedOperationError();
  }
  async deleteTaskPushNotificationConfig(): Promise<never> {
    throw new UnsupportedOperationError();
  }
}

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** How long a cut connection stays open after its last event: the client reads what it got before the reset. */
const CUT_DELAY_MS = 50;

/**
 * A listener that cuts the connection of request number `n` (0-based) after `cutAfter(n)` events
 * (undefined: no cut): later events and the end of the body are held back, and the socket is
 * destroyed {@link CUT_DELAY_MS} later (at once for 0). The client gets a body cut short, not a
 * clean end. (A reset right after the writes could discard what the client had not read yet:
 * fetch's body stream drops its queue when it errors, and the events would be lost before any
 * could be resumed from.)
 */
function cutting(listener: Listener, cutAfter: (n: number) => number | undefined): Listener {
  let requests = 0;
  return (req, res) => {
    const limit = cutAfter(requests++);
    if (limit !== undefined) {
      let events = 0;
      let scheduled = false;
      const cut = (): void => {
        if (scheduled) return;
        scheduled = true;
        setTimeout(() => res.socket?.destroy(), limit === 0 ? 0 : CUT_DELAY_MS);
      };
      const write = res.write.bind(res) as (chunk: unknown, callback?: () => void) => boolean;
      res.write = ((chunk: unknown, callback?: () => void) => {
        if (typeof chunk !== "string" || !chunk.includes("data:")) return write(chunk, callback);
        if (events >= limit) {
          cut();
          return true;
        }
        events++;
        return write(chunk, callback);
      }) as typeof res.write;
      const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
      res.end = ((...args: unknown[]) => {
        if (events < limit) return end(...args);
        cut();
        return res;
      }) as typeof res.end;
    }
    listener(req, res);
  };
}

/** A request for `fetch`. */
interface RawRequest {
  readonly url: string;
  readonly init: RequestInit & { readonly headers: Record<string, string> };
}

/** A listener that answers request number `n` (0-based) with a gateway's 503 when `unavailable(n)`, as a proxy would. */
function gateway(listener: Listener, unavailable: (n: number) => boolean): Listener {
  let requests = 0;
  return (req, res) => {
    if (!unavailable(requests++)) {
      listener(req, res);
      return;
    }
    req.resume();
    res.writeHead(503, { "content-type": "text/html" }).end("<html>503 Service Unavailable</html>");
  };
}

interface Binding {
  readonly name: string;
  /** The server's node listener and the path it is mounted at. */
  server(handler: ResumeHandler): {
    node: Listener;
    fetch: (request: Request) => Promise<Response>;
    path: string;
  };
  client(url: string, resumeStreams?: boolean | StreamResumeOptions): A2AServiceClient;
  /** A raw SendStreamingMessage / SubscribeToTask request for `fetch`. */
  raw(url: string, operation: "SendStreamingMessage" | "SubscribeToTask"): RawRequest;
}

const message = {
  message: {
    messageId: "m-1",
    role: Role.USER,
    parts: [{ content: { case: "text" as const, value: "go" } }],
  },
};
const FAST: StreamResumeOptions = { maxAttempts: 3, initialDelayMs: 5, maxDelayMs: 20 };
const logger = { error() {} };

const BINDINGS: Binding[] = [
  {
    name: "JSON-RPC",
    server: (handler) => ({
      ...createA2AServiceJsonRpcServer(handler, { keepAliveMs: 0, logger }),
      path: "/a2a",
    }),
    client: (url, resumeStreams = FAST) => new A2AServiceJsonRpcClient({ url, resumeStreams }),
    raw: (url, operation) => ({
      url,
      init: {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "text/event-stream",
          "a2a-version": "1.0",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: operation,
          params:
            operation === "SubscribeToTask"
              ? { id: TASK }
              : { message: { messageId: "m-1", role: "ROLE_USER", parts: [{ text: "go" }] } },
        }),
      },
    }),
  },
  {
    name: "HTTP+JSON",
    server: (handler) => ({
      ...createA2AServiceRestServer(handler, { keepAliveMs: 0, basePath: "/a2a/rest", logger }),
      path: "/a2a/rest",
    }),
    client: (url, resumeStreams = FAST) => new A2AServiceRestClient({ url, resumeStreams }),
    raw: (url, operation): RawRequest =>
      operation === "SubscribeToTask"
        ? {
            url: `${url}/tasks/${TASK}:subscribe`,
            init: {
              method: "POST",
              headers: { accept: "text/event-stream", "a2a-version": "1.0" },
            },
          }
        : {
            url: `${url}/message:stream`,
            init: {
              method: "POST",
              headers: {
                "content-type": "application/a2a+json",
                accept: "text/event-stream",
                "a2a-version": "1.0",
              },
              body: JSON.stringify({
                message: { messageId: "m-1", role: "ROLE_USER", parts: [{ text: "go" }] },
              }),
            },
          },
  },
];

/** What a stream handed out before it ended, and how it ended. */
async function drain(
  events: AsyncIterable<StreamResponse>,
): Promise<{ labels: string[]; error: unknown }> {
  const labels: string[] = [];
  try {
    for await (const event of events) labels.push(label(event));
    return { labels, error: undefined };
  } catch (error) {
    return { labels, error };
  }
}

const servers: Listening[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(
  binding: Binding,
  handler: ResumeHandler,
  cutAfter: (n: number) => number | undefined = () => undefined,
  unavailable: (n: number) => boolean = () => false,
): Promise<Listening> {
  const { node, path } = binding.server(handler);
  const server = await listen(gateway(cutting(node, cutAfter), unavailable), path);
  servers.push(server);
  return server;
}

/** The `id:` field values of an SSE body, in order. */
const idLines = (body: string): string[] => [...body.matchAll(/^id: (.*)$/gm)].map((m) => m[1]!);

describe.each(BINDINGS)("$name: SSE event ids on the wire", (binding) => {
  it("sends `id: <seq>:<task id>` before every marked event", async () => {
    const server = await start(binding, new ResumeHandler());
    const { url, init } = binding.raw(server.url, "SendStreamingMessage");
    const body = await (await fetch(url, init)).text();
    expect(idLines(body)).toEqual([
      "1:task-1",
      "2:task-1",
      "3:task-1",
      "4:task-1",
      "5:task-1",
      "6:task-1",
    ]);
    expect(body.startsWith("id: 1:task-1\ndata: ")).toBe(true);
  });

  it("sends no id line for events without an id", async () => {
    const server = await start(binding, new ResumeHandler({ marked: false }));
    const { url, init } = binding.raw(server.url, "SendStreamingMessage");
    const body = await (await fetch(url, init)).text();
    expect(body).toContain("data: ");
    expect(idLines(body)).toEqual([]);
  });

  it("shares the text of immutable events between streams, each chunk with its event's id", async () => {
    const shared = taskEvents().map(markImmutable);
    const server = await start(binding, new ResumeHandler({ source: () => shared }));
    const { url, init } = binding.raw(server.url, "SendStreamingMessage");
    const bodies = await Promise.all([1, 2].map(async () => (await fetch(url, init)).text()));
    expect(idLines(bodies[0]!)).toEqual([
      "1:task-1",
      "2:task-1",
      "3:task-1",
      "4:task-1",
      "5:task-1",
      "6:task-1",
    ]);
    expect(bodies[1]).toBe(bodies[0]);
  });

  it("keeps ids out of the shared text: an event encoded before it was marked gets its id once marked", async () => {
    const events = taskEvents(false).map(markImmutable);
    const server = await start(binding, new ResumeHandler({ source: () => events }));
    const { url, init } = binding.raw(server.url, "SendStreamingMessage");
    const before = await (await fetch(url, init)).text();
    for (const [i, event] of events.entries()) setEventId(event, formatEventId(TASK, i + 1)!);
    const after = await (await fetch(url, init)).text();
    expect(idLines(before)).toEqual([]);
    expect(idLines(after)).toEqual([
      "1:task-1",
      "2:task-1",
      "3:task-1",
      "4:task-1",
      "5:task-1",
      "6:task-1",
    ]);
    expect(after.replace(/^id: .*\n/gm, "")).toBe(before);
  });

  it("hands Last-Event-ID to SubscribeToTask (node adapter): only the events after it, no snapshot", async () => {
    const handler = new ResumeHandler();
    const server = await start(binding, handler);
    const { url, init } = binding.raw(server.url, "SubscribeToTask");
    const body = await (
      await fetch(url, { ...init, headers: { ...init.headers, "Last-Event-ID": "4:task-1" } })
    ).text();
    expect(idLines(body)).toEqual(["5:task-1", "6:task-1"]);
    expect(handler.calls).toEqual([{ operation: "SubscribeToTask", lastEventId: "4:task-1" }]);
  });

  it("hands Last-Event-ID to SubscribeToTask (fetch adapter)", async () => {
    const handler = new ResumeHandler();
    const { fetch: serve, path } = binding.server(handler);
    const { url, init } = binding.raw(`http://agent.example${path}`, "SubscribeToTask");
    const response = await serve(
      new Request(url, { ...init, headers: { ...init.headers, "last-event-id": "5:task-1" } }),
    );
    expect(idLines(await response.text())).toEqual(["6:task-1"]);
    expect(handler.calls).toEqual([{ operation: "SubscribeToTask", lastEventId: "5:task-1" }]);
  });
});

describe.each(BINDINGS)("$name client: resuming a dropped stream", (binding) => {
  it("SendStreamingMessage: every event once, in order, across a cut", async () => {
    const handler = new ResumeHandler();
    const server = await start(binding, handler, (n) => (n === 0 ? 2 : undefined));
    const { labels, error } = await drain(binding.client(server.url).sendStreamingMessage(message));
    expect(error).toBeUndefined();
    expect(labels).toEqual(ALL);
    expect(handler.calls).toEqual([
      { operation: "SendStreamingMessage", lastEventId: undefined },
      { operation: "SubscribeToTask", lastEventId: "2:task-1" },
    ]);
  });

  it("SubscribeToTask: every event once, in order, across a cut", async () => {
    const handler = new ResumeHandler();
    const server = await start(binding, handler, (n) => (n === 0 ? 4 : undefined));
    const { labels, error } = await drain(binding.client(server.url).subscribeToTask({ id: TASK }));
    expect(error).toBeUndefined();
    expect(labels).toEqual(ALL);
    expect(handler.calls).toEqual([
      { operation: "SubscribeToTask", lastEventId: undefined },
      { operation: "SubscribeToTask", lastEventId: "4:task-1" },
    ]);
  });

  it("resumes after every cut that made progress, however many (attempts restart after an event)", async () => {
    const handler = new ResumeHandler();
    // Every connection delivers one event, then drops: 1 attempt in a row would do, 6 connections.
    const server = await start(binding, handler, () => 1);
    const { labels, error } = await drain(
      binding.client(server.url, { ...FAST, maxAttempts: 1 }).sendStreamingMessage(message),
    );
    expect(error).toBeUndefined();
    expect(labels).toEqual(ALL);
    expect(handler.calls.map((c) => c.lastEventId)).toEqual([
      undefined,
      "1:task-1",
      "2:task-1",
      "3:task-1",
      "4:task-1",
      "5:task-1",
    ]);
  });

  it("retries a resumption a gateway answers with 503", async () => {
    const handler = new ResumeHandler();
    // Request 0 is cut after 2 events, requests 1 and 2 get a proxy's 503, request 3 goes through.
    const server = await start(
      binding,
      handler,
      (n) => (n === 0 ? 2 : undefined),
      (n) => n === 1 || n === 2,
    );
    const { labels, error } = await drain(binding.client(server.url).sendStreamingMessage(message));
    expect(error).toBeUndefined();
    expect(labels).toEqual(ALL);
    expect(handler.calls.map((c) => c.lastEventId)).toEqual([undefined, "2:task-1"]);
  });

  it("drops the events a resumed stream repeats", async () => {
    const handler = new ResumeHandler({ overlap: 2 });
    const server = await start(binding, handler, (n) => (n === 0 ? 3 : undefined));
    const { labels, error } = await drain(binding.client(server.url).sendStreamingMessage(message));
    expect(error).toBeUndefined();
    expect(labels).toEqual(ALL);
  });

  it("with resumeStreams: false, the caller gets the connection error", async () => {
    const handler = new ResumeHandler();
    const server = await start(binding, handler, (n) => (n === 0 ? 2 : undefined));
    const { labels, error } = await drain(
      binding.client(server.url, false).sendStreamingMessage(message),
    );
    expect(labels).toEqual(ALL.slice(0, 2));
    expect(error).toBeInstanceOf(Error);
    expect(isA2AError(error)).toBe(false);
    expect(handler.calls).toHaveLength(1);
  });

  it("an A2A error answering the resumption surfaces to the caller", async () => {
    const handler = new ResumeHandler({
      resumeError: () => new TaskNotFoundError("Task task-1 not found"),
    });
    const server = await start(binding, handler, (n) => (n === 0 ? 3 : undefined));
    const { labels, error } = await drain(binding.client(server.url).sendStreamingMessage(message));
    expect(labels).toEqual(ALL.slice(0, 3));
    expect(error).toBeInstanceOf(TaskNotFoundError);
    expect(handler.calls.map((c) => c.operation)).toEqual([
      "SendStreamingMessage",
      "SubscribeToTask",
    ]);
  });

  it("gives up after maxAttempts resumptions in a row without an event, with the original connection error", async () => {
    const handler = new ResumeHandler();
    // The first connection drops after 2 events; every resumption drops before its first event.
    const server = await start(binding, handler, (n) => (n === 0 ? 2 : 0));
    const started = Date.now();
    const { labels, error } = await drain(
      binding
        .client(server.url, { maxAttempts: 3, initialDelayMs: 5, maxDelayMs: 10 })
        .sendStreamingMessage(message),
    );
    expect(labels).toEqual(ALL.slice(0, 2));
    expect(error).toBeInstanceOf(Error);
    expect(isA2AError(error)).toBe(false);
    expect(handler.calls.map((c) => c.lastEventId)).toEqual([
      undefined,
      "2:task-1",
      "2:task-1",
      "2:task-1",
    ]);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("does not resume a stream whose last event carried no id", async () => {
    const handler = new ResumeHandler({ marked: false });
    const server = await start(binding, handler, (n) => (n === 0 ? 2 : undefined));
    const { labels, error } = await drain(binding.client(server.url).sendStreamingMessage(message));
    expect(labels).toEqual(ALL.slice(0, 2));
    expect(error).toBeInstanceOf(Error);
    expect(handler.calls).toHaveLength(1);
  });

  it("a drop right after the final event ends the stream normally, without resuming", async () => {
    const handler = new ResumeHandler();
    const server = await start(binding, handler, () => ALL.length);
    const { labels, error } = await drain(binding.client(server.url).sendStreamingMessage(message));
    expect(error).toBeUndefined();
    expect(labels).toEqual(ALL);
    expect(handler.calls).toHaveLength(1);
  });

  it("SendStreamingMessage: a drop right after an interrupted state fails with the connection error", async () => {
    const handler = new ResumeHandler({ lastState: TaskState.INPUT_REQUIRED });
    const server = await start(binding, handler, () => ALL.length);
    const { labels, error } = await drain(binding.client(server.url).sendStreamingMessage(message));
    expect(labels).toEqual([...ALL.slice(0, -1), "status:INPUT_REQUIRED"]);
    expect(error).toBeInstanceOf(Error);
    expect(handler.calls).toHaveLength(1);
  });

  it("SubscribeToTask: a drop right after an interrupted state is resumed (the task's stream goes on)", async () => {
    const handler = new ResumeHandler({ lastState: TaskState.INPUT_REQUIRED });
    const server = await start(binding, handler, (n) => (n === 0 ? ALL.length : undefined));
    const { labels, error } = await drain(binding.client(server.url).subscribeToTask({ id: TASK }));
    expect(error).toBeUndefined();
    expect(labels).toEqual([...ALL.slice(0, -1), "status:INPUT_REQUIRED"]);
    expect(handler.calls.map((c) => c.lastEventId)).toEqual([undefined, "6:task-1"]);
  });

  it("does not resume after the caller's abort", async () => {
    const handler = new ResumeHandler();
    // The connection holds after 2 events (and drops later): the abort comes first.
    const server = await start(binding, handler, (n) => (n === 0 ? 2 : undefined));
    const controller = new AbortController();
    const labels: string[] = [];
    const error = await (async () => {
      for await (const event of binding
        .client(server.url)
        .subscribeToTask({ id: TASK }, { signal: controller.signal })) {
        labels.push(label(event));
        if (labels.length === 2) controller.abort(new Error("enough"));
      }
    })().catch((e: unknown) => e);
    expect(labels).toEqual(ALL.slice(0, 2));
    expect((error as Error).message).toBe("enough");
    expect(handler.calls).toHaveLength(1);
  });
});

describe("connectA2AService passes resumeStreams to the HTTP bindings' clients", () => {
  const card = (url: string, protocolBinding: string) =>
    create(AgentCardSchema, {
      name: "resume",
      supportedInterfaces: [{ url, protocolBinding, protocolVersion: "1.0" }],
      capabilities: { streaming: true },
    });

  it.each([
    ["JSONRPC", BINDINGS[0]!],
    ["HTTP+JSON", BINDINGS[1]!],
  ])("%s: resumes by default, not with resumeStreams: false", async (protocolBinding, binding) => {
    const handler = new ResumeHandler();
    const server = await start(binding, handler, (n) => (n === 0 || n === 2 ? 2 : undefined));
    const on = await connectA2AService(card(server.url, protocolBinding));
    expect((await drain(on.client.sendStreamingMessage(message))).labels).toEqual(ALL);
    const off = await connectA2AService(card(server.url, protocolBinding), {
      resumeStreams: false,
    });
    const { labels, error } = await drain(off.client.sendStreamingMessage(message));
    expect(labels).toEqual(ALL.slice(0, 2));
    expect(error).toBeInstanceOf(Error);
  });
});

describe("resumeSettings", () => {
  it("fills in the defaults; false turns resumption off", () => {
    expect(resumeSettings(undefined)).toEqual({
      maxAttempts: 5,
      initialDelayMs: 100,
      maxDelayMs: 2000,
    });
    expect(resumeSettings(true)).toBe(DEFAULT_STREAM_RESUME);
    expect(resumeSettings(false)).toBeUndefined();
    expect(resumeSettings({ maxAttempts: 2 })).toEqual({
      maxAttempts: 2,
      initialDelayMs: 100,
      maxDelayMs: 2000,
    });
    expect(resumeSettings({ maxAttempts: -1, initialDelayMs: Number.NaN })).toEqual(
      DEFAULT_STREAM_RESUME,
    );
  });
});
