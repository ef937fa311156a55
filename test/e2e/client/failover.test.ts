// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Client failover across the Agent Card's interfaces (runtime/src/client/failover.ts, A2A §5.2,
 * §8.3.2), through the generated connectA2AService, against real servers on 127.0.0.1: the
 * generated JSON-RPC, HTTP+JSON and gRPC servers over one task handler, next to closed ports,
 * sockets that are reset after the request was read and a gateway answering 503.
 */
import {
  connect as connectNet,
  createServer as createNetServer,
  type Server as NetServer,
  type Socket,
} from "node:net";
import type { IncomingMessage, ServerResponse } from "node:http";
import { create } from "@bufbuild/protobuf";
import { afterEach, describe, expect, it } from "vitest";
import {
  LAST_EVENT_ID_PARAMETER,
  isA2AError,
  parseEventId,
  setEventId,
  type CallContext,
} from "@protoc-gen-a2a/runtime";
import {
  DEFAULT_INTERFACE_BACKOFF,
  InterfaceHealth,
  classifyFailure,
  isRetryable,
  selectInterfaces,
  type FailoverEvent,
} from "@protoc-gen-a2a/runtime/client";
import {
  AgentCardSchema,
  StreamResponseSchema,
  TaskState,
  type AgentCard,
  type StreamResponse,
  type SubscribeToTaskRequest,
} from "../../../generated-example/gen/a2a_pb.js";
import {
  connectA2AService,
  type A2AServiceConnection,
  type ConnectA2AServiceOptions,
} from "../../../generated-example/gen/a2a_a2a_agent_client.js";
import { TaskNotFoundError } from "../../../generated-example/gen/a2a_a2a_errors.js";
import type { A2AServiceHandler } from "../../../generated-example/gen/a2a_a2a_handler.js";
import { createA2AServiceJsonRpcServer } from "../../../generated-example/gen/a2a_a2a_jsonrpc_server.js";
import { createA2AServiceRestServer } from "../../../generated-example/gen/a2a_a2a_rest_server.js";
import { listenA2AServiceGrpc } from "../../../generated-example/gen/a2a_a2a_grpc_server.js";
import {
  Gate,
  createA2ATaskHandler,
  describeEvent,
  sendRequest,
  textOf,
  type A2AExecutor,
} from "../../support/task-runtime-binding.js";
import { eventually, listen } from "../../support/servers.js";

/** Executors hold here ("stream …" tasks), until the test opens the gate. */
let gate = new Gate();

/**
 * "task …": a completed task with an artifact; "stream …": working, artifact a1, then (after the
 * gate) artifacts a2, a3 and completed; anything else: a Message.
 */
const executor: A2AExecutor = {
  async execute(request, emitter) {
    const text = textOf(request.message);
    if (text.startsWith("task")) {
      await emitter.working();
      await emitter.addArtifact(
        { artifactId: "a1", parts: [{ content: { case: "text", value: text } }] },
        { lastChunk: true },
      );
      await emitter.complete();
      return;
    }
    if (text.startsWith("stream")) {
      await emitter.working();
      await emitter.addArtifact(
        { artifactId: "a1", parts: [{ content: { case: "text", value: "1" } }] },
        { lastChunk: true },
      );
      await gate.promise;
      await emitter.addArtifact(
        { artifactId: "a2", parts: [{ content: { case: "text", value: "2" } }] },
        { lastChunk: true },
      );
      await emitter.addArtifact(
        { artifactId: "a3", parts: [{ content: { case: "text", value: "3" } }] },
        { lastChunk: true },
      );
      await emitter.complete();
      return;
    }
    await emitter.reply({ parts: [{ content: { case: "text", value: `echo: ${text}` } }] });
  },
};

const logger = { error() {} };
const handler = createA2ATaskHandler({ executor, capabilities: { streaming: true } });

/** A started server and the requests it got. */
interface Endpoint {
  readonly url: string;
  readonly requests: () => number;
  close(): Promise<void>;
}

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  gate.open();
  gate = new Gate();
  await Promise.all(open.splice(0).map((s) => s.close()));
});

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** Counts the requests of `listener`. */
function counting(listener: Listener): { listener: Listener; requests: () => number } {
  let n = 0;
  return {
    listener: (req, res) => {
      n++;
      listener(req, res);
    },
    requests: () => n,
  };
}

/**
 * A JSON-RPC server over `service` (default the shared handler); `down()` says when to answer 503 (a
 * gateway without an A2A error body) instead; `wrap` goes around its listener (a proxy cutting streams).
 */
async function jsonRpcEndpoint(
  down: () => boolean = () => false,
  service: A2AServiceHandler = handler,
  wrap: (l: Listener) => Listener = (l) => l,
): Promise<Endpoint> {
  const { node } = createA2AServiceJsonRpcServer(service, { logger, keepAliveMs: 0 });
  const { listener, requests } = counting(
    wrap((req, res) => {
      if (!down()) return node(req, res);
      req.resume();
      res
        .writeHead(503, { "content-type": "text/html" })
        .end("<html>503 Service Unavailable</html>");
    }),
  );
  const server = await listen(listener, "/a2a");
  open.push(server);
  return { url: server.url, requests, close: () => server.close() };
}

/** An HTTP+JSON server over `service` (default the shared handler). */
async function restEndpoint(service: A2AServiceHandler = handler): Promise<Endpoint> {
  const { node } = createA2AServiceRestServer(service, {
    logger,
    keepAliveMs: 0,
    basePath: "/a2a/rest",
  });
  const { listener, requests } = counting(node);
  const server = await listen(listener, "/a2a/rest");
  open.push(server);
  return { url: server.url, requests, close: () => server.close() };
}

/** A gRPC server over the shared handler. */
async function grpcEndpoint(): Promise<Endpoint> {
  const grpc = await listenA2AServiceGrpc(handler, { listen: { host: "127.0.0.1", port: 0 } });
  open.push(grpc);
  return { url: grpc.address, requests: () => 0, close: () => grpc.close() };
}

/** A gateway that answers every request with 503 and an HTML body. */
async function unavailableEndpoint(path: string): Promise<Endpoint> {
  const { listener, requests } = counting((req, res) => {
    req.resume();
    res.writeHead(503, { "content-type": "text/html" }).end("<html>503 Service Unavailable</html>");
  });
  const server = await listen(listener, path);
  open.push(server);
  return { url: server.url, requests, close: () => server.close() };
}

/** A TCP server that reads the request, then resets the connection: the request may have reached the agent. */
async function resettingEndpoint(path = "/"): Promise<Endpoint> {
  let n = 0;
  const sockets = new Set<Socket>();
  const server: NetServer = createNetServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    socket.once("data", () => {
      n++;
      socket.resetAndDestroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  const close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  open.push({ close });
  return { url: `http://127.0.0.1:${port}${path}`, requests: () => n, close };
}

/** A TCP proxy to `target` (`host:port`); `close()` cuts every connection through it and stops listening. */
async function tcpProxy(target: string): Promise<{ address: string; close(): Promise<void> }> {
  const [host, port] = [
    target.slice(0, target.lastIndexOf(":")),
    Number(target.slice(target.lastIndexOf(":") + 1)),
  ];
  const sockets = new Set<Socket>();
  const track = (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
    s.on("error", () => {});
  };
  const server = createNetServer((client) => {
    const upstream = connectNet(port, host);
    track(client);
    track(upstream);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  open.push({ close: () => (server.listening ? close() : Promise.resolve()) });
  return { address: `127.0.0.1:${(server.address() as { port: number }).port}`, close };
}

/** A port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A card with these interfaces, in this order. */
function cardWith(...interfaces: [binding: string, url: string][]): AgentCard {
  return create(AgentCardSchema, {
    name: "failover test agent",
    description: "one agent, several interfaces",
    version: "1.0.0",
    capabilities: { streaming: true },
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    supportedInterfaces: interfaces.map(([protocolBinding, url]) => ({
      protocolBinding,
      url,
      protocolVersion: "1.0",
    })),
  });
}

/** Connects with failover, recording its events. */
async function connect(
  card: AgentCard,
  options: ConnectA2AServiceOptions = {},
): Promise<{ connection: A2AServiceConnection; events: FailoverEvent[] }> {
  const events: FailoverEvent[] = [];
  const failover =
    options.failover === false
      ? false
      : { ...options.failover, onEvent: (e: FailoverEvent) => events.push(e) };
  const connection = await connectA2AService(card, { ...options, failover });
  return { connection, events };
}

/** The events as `type@candidate index` (for failover: `failover@from>to`), to compare sequences. */
function trace(events: readonly FailoverEvent[]): string[] {
  return events.map((e) => {
    switch (e.type) {
      case "interface-failed":
        return `interface-failed@${e.interface.index}:${e.failure}`;
      case "failover":
        return `failover@${e.from.index}>${e.to.index}`;
      case "interface-recovered":
        return `interface-recovered@${e.interface.index}`;
      case "resubscribe":
        return `resubscribe@${e.from.index}>${e.to.index}`;
      default:
        return `not-retried@${e.interface.index}:${e.reason}`;
    }
  });
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  throw new Error("expected a rejection");
}

/** A task of the shared handler, completed, created through `endpoint`'s JSON-RPC interface. */
async function completedTask(endpoint: Endpoint): Promise<string> {
  const { connection } = await connect(cardWith(["JSONRPC", endpoint.url]), { failover: false });
  const response = await connection.client.sendMessage(sendRequest("task one"));
  if (response.payload.case !== "task") throw new Error("expected a task");
  return response.payload.value.id;
}

describe("candidates", () => {
  it("selectInterfaces: every usable interface in card order (the first is selectInterface's), with why the others were skipped", () => {
    const card = cardWith(
      ["GRPC", "127.0.0.1:1"],
      ["JSONRPC", "http://a.example/rpc"],
      ["urn:custom", "wss://a.example/ws"],
      ["HTTP+JSON", "not a url"],
      ["REST", "http://a.example/rest"],
    );
    const { targets, skipped } = selectInterfaces(card, ["JSONRPC", "HTTP+JSON", "GRPC"]);
    expect(targets.map((t) => [t.protocolBinding, t.index])).toEqual([
      ["GRPC", 0],
      ["JSONRPC", 1],
      ["HTTP+JSON", 4],
    ]);
    expect(skipped).toHaveLength(2);
    expect(
      selectInterfaces(card, ["JSONRPC", "HTTP+JSON", "GRPC"], { prefer: "bindings" }).targets.map(
        (t) => t.index,
      ),
    ).toEqual([1, 4, 0]);
  });

  it("a connection lists its candidates; `interface` is the first until it fails; failover: false keeps one", async () => {
    const rpc = await jsonRpcEndpoint();
    const card = cardWith(
      ["JSONRPC", `http://127.0.0.1:${await closedPort()}/a2a`],
      ["JSONRPC", rpc.url],
    );
    const { connection } = await connect(card);
    expect(connection.interfaces.map((i) => i.index)).toEqual([0, 1]);
    expect(connection.interface.index).toBe(0);
    await connection.client.sendMessage(sendRequest("hello"));
    expect(connection.interface.index).toBe(1);
    expect(connection.interfaceHealth().map((h) => [h.available, h.failures])).toEqual([
      [false, 1],
      [true, 0],
    ]);
    const { connection: single } = await connect(card, { failover: false });
    expect(single.interfaces.map((i) => i.index)).toEqual([0]);
  });
});

describe("failing over", () => {
  it("connection refused on the first interface: the call succeeds on the second (any operation: nothing was sent)", async () => {
    const rpc = await jsonRpcEndpoint();
    const { connection, events } = await connect(
      cardWith(["JSONRPC", `http://127.0.0.1:${await closedPort()}/a2a`], ["JSONRPC", rpc.url]),
    );
    const response = await connection.client.sendMessage(sendRequest("hello"));
    expect(response.payload.case === "message" && textOf(response.payload.value)).toBe(
      "echo: hello",
    );
    expect(trace(events)).toEqual(["interface-failed@0:not-sent", "failover@0>1"]);
    const failed = events[0] as Extract<FailoverEvent, { type: "interface-failed" }>;
    expect(failed.operation).toBe("SendMessage");
    expect(failed.backoffMs).toBe(1000);
    expect(isA2AError(failed.error) && failed.error.grpcCode).toBe(14);
    expect(rpc.requests()).toBe(1);
  });

  it("failover: false: the refused connection's error, as without failover", async () => {
    const rpc = await jsonRpcEndpoint();
    const { connection, events } = await connect(
      cardWith(["JSONRPC", `http://127.0.0.1:${await closedPort()}/a2a`], ["JSONRPC", rpc.url]),
      { failover: false },
    );
    const thrown = await failure(connection.client.sendMessage(sendRequest("hello")));
    expect((thrown as { grpcCode?: number }).grpcCode).toBe(14);
    expect(events).toEqual([]);
    expect(rpc.requests()).toBe(0);
  });

  it("a socket reset after the request was read: GetTask fails over", async () => {
    const rpc = await jsonRpcEndpoint();
    const id = await completedTask(rpc);
    const reset = await resettingEndpoint("/a2a");
    const { connection, events } = await connect(
      cardWith(["JSONRPC", reset.url], ["HTTP+JSON", (await restEndpoint()).url]),
    );
    const task = await connection.client.getTask({ id });
    expect(task.status?.state).toBe(TaskState.COMPLETED);
    expect(reset.requests()).toBe(1);
    expect(trace(events)).toEqual(["interface-failed@0:transport", "failover@0>1"]);
  });

  it("a socket reset after the request was read: SendMessage is not sent again (not-retried), unless retryNonIdempotent", async () => {
    const rpc = await jsonRpcEndpoint();
    const reset = await resettingEndpoint("/a2a");
    const card = cardWith(["JSONRPC", reset.url], ["JSONRPC", rpc.url]);
    const { connection, events } = await connect(card);
    const thrown = await failure(connection.client.sendMessage(sendRequest("hello")));
    expect((thrown as { grpcCode?: number }).grpcCode).toBe(14);
    expect(rpc.requests()).toBe(0);
    expect(trace(events)).toEqual(["interface-failed@0:transport", "not-retried@0:not-idempotent"]);
    // The interface that failed is avoided by the next call.
    expect(connection.interface.index).toBe(1);

    const opted = await connect(card, { failover: { retryNonIdempotent: true } });
    const response = await opted.connection.client.sendMessage(sendRequest("again"));
    expect(response.payload.case === "message" && textOf(response.payload.value)).toBe(
      "echo: again",
    );
    expect(trace(opted.events)).toEqual(["interface-failed@0:transport", "failover@0>1"]);
  });

  it("SendStreamingMessage reset before its first event: not-retried; SubscribeToTask (idempotent) fails over", async () => {
    const rpc = await jsonRpcEndpoint();
    const id = await completedTask(rpc);
    const reset = await resettingEndpoint("/a2a");
    const card = cardWith(["JSONRPC", reset.url], ["JSONRPC", rpc.url]);
    const options: ConnectA2AServiceOptions = {
      resumeStreams: { maxAttempts: 1, initialDelayMs: 1, maxDelayMs: 1 },
    };
    const sending = await connect(card, options);
    const thrown = await failure(
      (async () => {
        for await (const _ of sending.connection.client.sendStreamingMessage(
          sendRequest("task streamed"),
        )) {
          // not reached
        }
      })(),
    );
    expect((thrown as { grpcCode?: number }).grpcCode).toBe(14);
    expect(trace(sending.events)).toEqual([
      "interface-failed@0:transport",
      "not-retried@0:not-idempotent",
    ]);

    // A completed task's subscription is refused (UnsupportedOperationError): an answer from the second interface.
    const subscribing = await connect(card, options);
    const answer = await failure(
      (async () => {
        for await (const _ of subscribing.connection.client.subscribeToTask({ id })) {
          // not reached
        }
      })(),
    );
    expect((answer as Error).name).toBe("UnsupportedOperationError");
    expect(trace(subscribing.events)).toEqual(["interface-failed@0:transport", "failover@0>1"]);
  });

  it.each(["JSONRPC", "HTTP+JSON"])(
    "a %s interface answering 503 without an A2A error body: fails over (any operation)",
    async (binding) => {
      const rpc = await jsonRpcEndpoint();
      const gateway = await unavailableEndpoint(binding === "JSONRPC" ? "/a2a" : "/a2a/rest");
      const { connection, events } = await connect(
        cardWith([binding, gateway.url], ["JSONRPC", rpc.url]),
      );
      const response = await connection.client.sendMessage(sendRequest("hello"));
      expect(response.payload.case).toBe("message");
      expect(gateway.requests()).toBe(1);
      expect(trace(events)).toEqual(["interface-failed@0:unavailable", "failover@0>1"]);
    },
  );

  it("a gRPC interface that is down: the call falls to JSON-RPC", async () => {
    const rpc = await jsonRpcEndpoint();
    const { connection, events } = await connect(
      cardWith(["GRPC", `127.0.0.1:${await closedPort()}`], ["JSONRPC", rpc.url]),
    );
    const response = await connection.client.sendMessage(sendRequest("hello"));
    expect(response.payload.case).toBe("message");
    expect(trace(events)).toEqual(["interface-failed@0:not-sent", "failover@0>1"]);
    expect(connection.interface.protocolBinding).toBe("JSONRPC");
  });

  it("a gRPC interface whose connection is cut after the request: GetTask falls to JSON-RPC, SendMessage does not", async () => {
    const rpc = await jsonRpcEndpoint();
    const id = await completedTask(rpc);
    const reset = await resettingEndpoint();
    const address = new URL(reset.url).host;
    const card = cardWith(["GRPC", address], ["JSONRPC", rpc.url]);
    const reading = await connect(card);
    expect((await reading.connection.client.getTask({ id })).id).toBe(id);
    expect(trace(reading.events)).toEqual(["interface-failed@0:transport", "failover@0>1"]);
    const sending = await connect(card);
    await failure(sending.connection.client.sendMessage(sendRequest("hello")));
    expect(trace(sending.events)).toEqual([
      "interface-failed@0:transport",
      "not-retried@0:not-idempotent",
    ]);
  });

  it("a working gRPC interface is used first; a down JSON-RPC interface after it is never contacted", async () => {
    const grpc = await grpcEndpoint();
    const { connection, events } = await connect(
      cardWith(["GRPC", grpc.url], ["JSONRPC", `http://127.0.0.1:${await closedPort()}/a2a`]),
    );
    expect((await connection.client.sendMessage(sendRequest("hello"))).payload.case).toBe(
      "message",
    );
    expect(events).toEqual([]);
  });

  it("every interface down: each is tried once, then the last error with not-retried(no-other-interface)", async () => {
    const card = cardWith(
      ["JSONRPC", `http://127.0.0.1:${await closedPort()}/a2a`],
      ["GRPC", `127.0.0.1:${await closedPort()}`],
    );
    const { connection, events } = await connect(card);
    const thrown = await failure(connection.client.getTask({ id: "t" }));
    expect((thrown as { grpcCode?: number }).grpcCode).toBe(14);
    expect(trace(events)).toEqual([
      "interface-failed@0:not-sent",
      "failover@0>1",
      "interface-failed@1:not-sent",
      "not-retried@1:no-other-interface",
    ]);
  });
});

describe("answers are not failed over", () => {
  it.each(["JSONRPC", "HTTP+JSON"])(
    "TaskNotFoundError from a %s interface: thrown, the next interface never asked",
    async (binding) => {
      const first = binding === "JSONRPC" ? await jsonRpcEndpoint() : await restEndpoint();
      const second = await jsonRpcEndpoint();
      const { connection, events } = await connect(
        cardWith([binding, first.url], ["JSONRPC", second.url]),
      );
      const thrown = await failure(connection.client.getTask({ id: "no-such-task" }));
      expect(thrown).toBeInstanceOf(TaskNotFoundError);
      expect(events).toEqual([]);
      expect(second.requests()).toBe(0);
    },
  );

  it("the caller's abort is not failed over", async () => {
    const silent = await listen(() => {});
    open.push(silent);
    const rpc = await jsonRpcEndpoint();
    const { connection, events } = await connect(
      cardWith(["JSONRPC", silent.url], ["JSONRPC", rpc.url]),
    );
    const controller = new AbortController();
    const pending = failure(connection.client.getTask({ id: "t" }, { signal: controller.signal }));
    setTimeout(() => controller.abort(new Error("stop")), 30);
    expect(((await pending) as Error).message).toBe("stop");
    expect(events).toEqual([]);
    expect(rpc.requests()).toBe(0);
  });
});

describe("interface health", () => {
  it("a failed interface is skipped until its backoff elapsed, then tried again: failing again doubles the backoff, answering recovers it", async () => {
    let down = true;
    const first = await jsonRpcEndpoint(() => down);
    const second = await jsonRpcEndpoint();
    const { connection, events } = await connect(
      cardWith(["JSONRPC", first.url], ["JSONRPC", second.url]),
      { failover: { backoffMs: { initial: 400, max: 5000 } } },
    );
    const call = async () =>
      expect((await connection.client.sendMessage(sendRequest("hi"))).payload.case).toBe("message");

    await call();
    expect(trace(events)).toEqual(["interface-failed@0:unavailable", "failover@0>1"]);
    expect(first.requests()).toBe(1);

    // Backing off: the next calls go straight to the second interface.
    await call();
    await call();
    expect(first.requests()).toBe(1);
    expect(events).toHaveLength(2);
    expect(connection.interface.index).toBe(1);

    // Backoff elapsed: tried again (half-open), still down: the backoff doubles.
    await eventually(() => connection.interfaceHealth()[0]!.available, 5_000);
    expect(connection.interface.index).toBe(0);
    await call();
    expect(first.requests()).toBe(2);
    expect(trace(events).slice(2)).toEqual(["interface-failed@0:unavailable", "failover@0>1"]);
    expect((events[2] as Extract<FailoverEvent, { type: "interface-failed" }>).backoffMs).toBe(800);

    // Up again: the next try after the backoff answers, and it is healthy again.
    down = false;
    await eventually(() => connection.interfaceHealth()[0]!.available, 5_000);
    await call();
    expect(first.requests()).toBe(3);
    expect(trace(events).slice(4)).toEqual(["interface-recovered@0"]);
    expect(connection.interfaceHealth()[0]).toMatchObject({ available: true, failures: 0 });
    expect(connection.interface.index).toBe(0);
  });
});

describe("streams", () => {
  /** The labels of the events, in order. */
  const labels = (events: readonly StreamResponse[]) => events.map(describeEvent);
  const FULL = [
    "task:SUBMITTED",
    "status:WORKING:",
    "artifact:a1",
    "artifact:a2",
    "artifact:a3",
    "status:COMPLETED:",
  ];
  const TASK = "task-ids";

  /** A task's event log, each event marked `<seq>:task-ids` as a clustered agent's are. */
  function markedLog(): StreamResponse[] {
    const status = (state: TaskState) => ({ taskId: TASK, contextId: "ctx", status: { state } });
    const artifact = (id: string) => ({
      taskId: TASK,
      contextId: "ctx",
      artifact: { artifactId: id, parts: [{ content: { case: "text" as const, value: id } }] },
    });
    const events = [
      create(StreamResponseSchema, {
        payload: {
          case: "task",
          value: { id: TASK, contextId: "ctx", status: { state: TaskState.SUBMITTED } },
        },
      }),
      create(StreamResponseSchema, {
        payload: { case: "statusUpdate", value: status(TaskState.WORKING) },
      }),
      create(StreamResponseSchema, { payload: { case: "artifactUpdate", value: artifact("a1") } }),
      create(StreamResponseSchema, { payload: { case: "artifactUpdate", value: artifact("a2") } }),
      create(StreamResponseSchema, { payload: { case: "artifactUpdate", value: artifact("a3") } }),
      create(StreamResponseSchema, {
        payload: { case: "statusUpdate", value: status(TaskState.COMPLETED) },
      }),
    ];
    for (const [i, event] of events.entries()) setEventId(event, `${i + 1}:${TASK}`);
    return events;
  }

  /**
   * The shared handler, but SendStreamingMessage and SubscribeToTask stream {@link markedLog}; a
   * SubscribeToTask with Last-Event-ID sends the events after it, `overlap` events earlier (a sloppy server).
   */
  function markedService(
    overlap = 0,
  ): A2AServiceHandler & { readonly lastEventIds: (string | undefined)[] } {
    const lastEventIds: (string | undefined)[] = [];
    return {
      ...handler,
      lastEventIds,
      async *sendStreamingMessage() {
        yield* markedLog();
      },
      async *subscribeToTask(request: SubscribeToTaskRequest, context: CallContext) {
        const header = context.serviceParameters.get(LAST_EVENT_ID_PARAMETER);
        lastEventIds.push(header);
        if (request.id !== TASK) throw new TaskNotFoundError();
        const after = header === undefined ? 0 : (parseEventId(header)?.seq ?? 0);
        yield* markedLog().slice(Math.max(0, after - overlap));
      },
    } as A2AServiceHandler & { readonly lastEventIds: (string | undefined)[] };
  }

  /**
   * A proxy-like listener: the first request's SSE body is cut after `n` events (the socket
   * destroyed a moment later, so the client reads what it got first); every later request is reset.
   */
  function cutAfter(n: number): (listener: Listener) => Listener {
    let requests = 0;
    return (listener) => (req, res) => {
      if (requests++ > 0) {
        req.socket.resetAndDestroy();
        return;
      }
      let events = 0;
      const cut = () => setTimeout(() => res.socket?.destroy(), 50);
      const write = res.write.bind(res) as (chunk: unknown, callback?: () => void) => boolean;
      res.write = ((chunk: unknown, callback?: () => void) => {
        if (typeof chunk !== "string" || !chunk.includes("data:")) return write(chunk, callback);
        if (events++ === n) cut();
        return events > n ? true : write(chunk, callback);
      }) as typeof res.write;
      res.end = (() => res) as unknown as typeof res.end;
      listener(req, res);
    };
  }

  it.each([0, 2])(
    "a stream cut after 3 events (ids `<seq>:<task>`) resubscribes on the next interface with Last-Event-ID: every event once (server replaying %i too many)",
    async (overlap) => {
      const first = await jsonRpcEndpoint(undefined, markedService(), cutAfter(3));
      const nextService = markedService(overlap);
      const next = await restEndpoint(nextService);
      const { connection, events } = await connect(
        cardWith(["JSONRPC", first.url], ["HTTP+JSON", next.url]),
        { resumeStreams: { maxAttempts: 1, initialDelayMs: 1, maxDelayMs: 1 } },
      );
      const received = await collectStream(
        connection.client.sendStreamingMessage(sendRequest("go")),
      );
      expect(labels(received)).toEqual(FULL);
      // The first interface: the call, then the HTTP client's own resumption (reset); then the next interface.
      expect(first.requests()).toBe(2);
      expect(nextService.lastEventIds).toEqual(["3:task-ids"]);
      expect(trace(events)).toEqual(["interface-failed@0:transport", "resubscribe@0>1"]);
      expect(events[1]).toMatchObject({
        type: "resubscribe",
        taskId: TASK,
        lastEventId: "3:task-ids",
        operation: "SendStreamingMessage",
      });
    },
  );

  it("a stream whose server goes away mid-way resubscribes on the next interface (no event ids: the task's snapshot, then the rest)", async () => {
    const a = await jsonRpcEndpoint();
    // The next interface's subscription lets the task go on once it has sent its snapshot.
    const b = await restEndpoint({
      ...handler,
      async *subscribeToTask(request: SubscribeToTaskRequest, context: CallContext) {
        for await (const event of handler.subscribeToTask(request, context)) {
          yield event;
          gate.open();
        }
      },
    } as A2AServiceHandler);
    const { connection, events } = await connect(
      cardWith(["JSONRPC", a.url], ["HTTP+JSON", b.url]),
      { resumeStreams: { maxAttempts: 1, initialDelayMs: 1, maxDelayMs: 1 } },
    );
    const received: StreamResponse[] = [];
    for await (const event of connection.client.sendStreamingMessage(
      sendRequest("stream please"),
    )) {
      received.push(event);
      if (event.payload.case === "artifactUpdate") await a.close();
    }
    expect(labels(received)).toEqual([
      "task:SUBMITTED",
      "status:WORKING:",
      "artifact:a1",
      "task:WORKING",
      "artifact:a2",
      "artifact:a3",
      "status:COMPLETED:",
    ]);
    expect(trace(events)).toEqual(["interface-failed@0:transport", "resubscribe@0>1"]);
    expect(events[1]).toMatchObject({
      taskId: received[0]!.payload.case === "task" ? received[0]!.payload.value.id : "?",
      lastEventId: undefined,
    });
  });

  it("a gRPC stream whose connection is cut mid-way (a TCP proxy in front) resubscribes on JSON-RPC", async () => {
    const grpc = await grpcEndpoint();
    const proxy = await tcpProxy(grpc.url);
    const b = await jsonRpcEndpoint(undefined, {
      ...handler,
      async *subscribeToTask(request: SubscribeToTaskRequest, context: CallContext) {
        for await (const event of handler.subscribeToTask(request, context)) {
          yield event;
          gate.open();
        }
      },
    } as A2AServiceHandler);
    const { connection, events } = await connect(
      cardWith(["GRPC", proxy.address], ["JSONRPC", b.url]),
    );
    const received: StreamResponse[] = [];
    for await (const event of connection.client.sendStreamingMessage(
      sendRequest("stream via grpc"),
    )) {
      received.push(event);
      if (event.payload.case === "artifactUpdate" && received.length === 3) await proxy.close();
    }
    expect(labels(received)).toEqual([
      "task:SUBMITTED",
      "status:WORKING:",
      "artifact:a1",
      "task:WORKING",
      "artifact:a2",
      "artifact:a3",
      "status:COMPLETED:",
    ]);
    expect(trace(events)).toEqual(["interface-failed@0:transport", "resubscribe@0>1"]);
  });

  it("the caller's abort of a stream is not failed over", async () => {
    const a = await jsonRpcEndpoint();
    const b = await jsonRpcEndpoint();
    const { connection, events } = await connect(cardWith(["JSONRPC", a.url], ["JSONRPC", b.url]));
    const controller = new AbortController();
    const received: StreamResponse[] = [];
    const thrown = await failure(
      (async () => {
        for await (const event of connection.client.sendStreamingMessage(
          sendRequest("stream stopped"),
          { signal: controller.signal },
        )) {
          received.push(event);
          if (received.length === 3) controller.abort(new Error("enough"));
        }
      })(),
    );
    expect((thrown as Error).message).toBe("enough");
    expect(events).toEqual([]);
    expect(b.requests()).toBe(0);
  });

  it("a task that ended while its stream was moved: its final state (GetTask) ends the stream", async () => {
    const a = await jsonRpcEndpoint();
    let taskId = "";
    // The next interface answers the subscription only once the task is completed: it refuses it then.
    const b = await jsonRpcEndpoint(undefined, {
      ...handler,
      async *subscribeToTask(request: SubscribeToTaskRequest, context: CallContext) {
        for (let n = 0; n < 500; n++) {
          const task = await handler.getTask({ id: taskId } as never, context);
          if (task.status?.state === TaskState.COMPLETED) break;
          await new Promise((r) => setTimeout(r, 5));
        }
        yield* handler.subscribeToTask(request, context);
      },
    } as A2AServiceHandler);
    const { connection, events } = await connect(cardWith(["JSONRPC", a.url], ["JSONRPC", b.url]), {
      resumeStreams: false,
    });
    const received: StreamResponse[] = [];
    for await (const event of connection.client.sendStreamingMessage(sendRequest("stream later"))) {
      received.push(event);
      if (event.payload.case === "task") taskId = event.payload.value.id;
      if (event.payload.case === "artifactUpdate") {
        await a.close();
        gate.open();
      }
    }
    expect(labels(received)).toEqual([
      "task:SUBMITTED",
      "status:WORKING:",
      "artifact:a1",
      "task:COMPLETED",
    ]);
    const final = received[3]!;
    expect(
      final.payload.case === "task" && final.payload.value.artifacts.map((x) => x.artifactId),
    ).toEqual(["a1", "a2", "a3"]);
    expect(trace(events)).toEqual(["interface-failed@0:transport", "resubscribe@0>1"]);
  });

  it("a SubscribeToTask stream cut mid-way continues on the next interface", async () => {
    const first = await jsonRpcEndpoint(undefined, markedService(), cutAfter(2));
    const nextService = markedService();
    const next = await jsonRpcEndpoint(undefined, nextService);
    const { connection, events } = await connect(
      cardWith(["JSONRPC", first.url], ["JSONRPC", next.url]),
      { resumeStreams: false },
    );
    const received = await collectStream(connection.client.subscribeToTask({ id: TASK }));
    expect(labels(received)).toEqual(FULL);
    expect(nextService.lastEventIds).toEqual(["2:task-ids"]);
    expect(trace(events)).toEqual(["interface-failed@0:transport", "resubscribe@0>1"]);
  });

  it("a stream refused before its first event goes to the next interface", async () => {
    const b = await jsonRpcEndpoint();
    const { connection, events } = await connect(
      cardWith(["JSONRPC", `http://127.0.0.1:${await closedPort()}/a2a`], ["JSONRPC", b.url]),
    );
    gate.open();
    const received = await collectStream(
      connection.client.sendStreamingMessage(sendRequest("stream now")),
    );
    expect(labels(received)).toEqual(FULL);
    expect(trace(events)).toEqual(["interface-failed@0:not-sent", "failover@0>1"]);
  });

  it("a stream cut mid-way with every other interface down: the cut's error, not-retried(no-other-interface)", async () => {
    const first = await jsonRpcEndpoint(undefined, markedService(), cutAfter(3));
    const { connection, events } = await connect(
      cardWith(["JSONRPC", first.url], ["GRPC", `127.0.0.1:${await closedPort()}`]),
      { resumeStreams: false },
    );
    const received: StreamResponse[] = [];
    const thrown = await failure(
      (async () => {
        for await (const event of connection.client.sendStreamingMessage(sendRequest("go")))
          received.push(event);
      })(),
    );
    expect(labels(received)).toEqual(FULL.slice(0, 3));
    expect(thrown).toBeInstanceOf(Error);
    expect(trace(events)).toEqual([
      "interface-failed@0:transport",
      "resubscribe@0>1",
      "interface-failed@1:not-sent",
      "not-retried@1:no-other-interface",
    ]);
  });
});

/** Reads a stream to its end. */
async function collectStream<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of stream) out.push(item);
  return out;
}

describe("InterfaceHealth (a fake clock)", () => {
  it("backs off exponentially up to max, half-open after the backoff, healthy again after a success", () => {
    let now = 1_000;
    const health = new InterfaceHealth(3, { initial: 100, max: 350 }, () => now);
    expect(health.order()).toEqual([0, 1, 2]);
    expect(health.failed(0)).toBe(100);
    expect(health.failed(0)).toBeUndefined(); // already backing off: unchanged
    expect(health.isAvailable(0)).toBe(false);
    expect(health.order()).toEqual([1, 2, 0]);
    expect(health.failed(1)).toBe(100);
    now += 50;
    expect(health.failed(2)).toBe(100);
    // All backing off: the soonest to be retried first.
    expect(health.order()).toEqual([0, 1, 2]);
    now += 60;
    expect(health.order()).toEqual([0, 1, 2]);
    expect(health.isAvailable(0)).toBe(true);
    expect(health.failed(0)).toBe(200);
    now += 200;
    expect(health.failed(0)).toBe(350);
    now += 350;
    expect(health.failed(0)).toBe(350);
    expect(health.snapshot()[0]).toEqual({
      candidate: 0,
      available: false,
      failures: 4,
      retryAt: now + 350,
    });
    expect(health.succeeded(0)).toBe(true);
    expect(health.succeeded(0)).toBe(false);
    expect(health.snapshot()[0]).toEqual({
      candidate: 0,
      available: true,
      failures: 0,
      retryAt: 0,
    });
  });

  it("defaults to 1 s doubling up to 30 s", () => {
    expect(DEFAULT_INTERFACE_BACKOFF).toEqual({ initial: 1000, max: 30_000 });
    let now = 0;
    const health = new InterfaceHealth(1, undefined, () => now);
    const delays: (number | undefined)[] = [];
    for (let n = 0; n < 7; n++) {
      delays.push(health.failed(0));
      now += 60_000;
    }
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
  });
});

describe("classifyFailure", () => {
  it("reads the cause chain and the binding", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    expect(classifyFailure(new TypeError("fetch failed", { cause: refused }), "JSONRPC")).toBe(
      "not-sent",
    );
    const closed = Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" });
    expect(classifyFailure(new TypeError("terminated", { cause: closed }), "HTTP+JSON")).toBe(
      "transport",
    );
    expect(classifyFailure(new TaskNotFoundError(), "JSONRPC")).toBe("answer");
    expect(classifyFailure(new Error("a bug"), "JSONRPC")).toBe("answer");
    expect(classifyFailure(new DOMException("the call timed out", "TimeoutError"), "GRPC")).toBe(
      "aborted",
    );
    const aborted = new AbortController();
    aborted.abort();
    expect(
      classifyFailure(new TypeError("fetch failed", { cause: refused }), "JSONRPC", aborted.signal),
    ).toBe("aborted");
  });

  it("isRetryable: not-sent and unavailable always; transport for idempotent operations, or with retryNonIdempotent", () => {
    expect(isRetryable("not-sent", "SendMessage")).toBe(true);
    expect(isRetryable("unavailable", "CreateTaskPushNotificationConfig")).toBe(true);
    expect(isRetryable("transport", "SendMessage")).toBe(false);
    expect(isRetryable("transport", "SendStreamingMessage")).toBe(false);
    expect(isRetryable("transport", "CreateTaskPushNotificationConfig")).toBe(false);
    expect(isRetryable("transport", "SendMessage", true)).toBe(true);
    for (const op of [
      "GetTask",
      "ListTasks",
      "CancelTask",
      "SubscribeToTask",
      "GetExtendedAgentCard",
      "DeleteTaskPushNotificationConfig",
    ])
      expect(isRetryable("transport", op)).toBe(true);
    expect(isRetryable("answer", "GetTask")).toBe(false);
    expect(isRetryable("aborted", "GetTask")).toBe(false);
  });
});
