import { execFile } from "node:child_process";
import { createServer, type IncomingHttpHeaders } from "node:http";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import type { AddressInfo } from "node:net";
import { toJson } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import { Role, TaskState, type Message, type Task } from "../../../generated-example/gen/a2a_pb.js";
import {
  ContentTypeNotSupportedError,
  InvalidParamsError,
  PermissionDeniedError,
  PushNotificationNotSupportedError,
  TaskNotFoundError,
  UnauthenticatedError,
  UnsupportedOperationError,
} from "../../../generated-example/gen/a2a_a2a_errors.js";
import { A2AServiceJsonRpcClient } from "../../../generated-example/gen/a2a_a2a_jsonrpc_client.js";
import { A2AServiceRestClient } from "../../../generated-example/gen/a2a_a2a_rest_client.js";
import { A2AServiceGrpcClient } from "../../../generated-example/gen/a2a_a2a_grpc_client.js";
import type { A2AServiceClient } from "../../../generated-example/gen/a2a_a2a_handler.js";
import {
  startExampleAgent,
  type ExampleAgent,
  type ExampleAgentOptions,
} from "../../../generated-example/agent/echo-agent.js";
import { createConnectTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import { CONNECT_PROTOCOL_BINDING, GRPC_WEB_PROTOCOL_BINDING } from "@protoc-gen-a2a/runtime/grpc";
import { WS_PROTOCOL_BINDING } from "../../../generated-example/bindings/ws/ws-operations.js";
import { collect } from "../../support/task-runtime-binding.js";

/**
 * The example agent (`npm run example`, the ACTS SUT), reached through its own Agent Card, on every
 * binding: the three core ones, and gRPC-web and Connect (the Connect routes on the HTTP port,
 * custom bindings named by URI), called by the generated gRPC client over Connect's HTTP/1.1
 * gRPC-web and Connect transports, so errors arrive as the same typed classes.
 */
const BINDINGS = ["JSONRPC", "HTTP+JSON", "GRPC", "GRPC-WEB", "CONNECT"] as const;
type Binding = (typeof BINDINGS)[number];
const TOKENS = {
  "admin-token": { subject: "admin", extendedCard: true },
  "user-token": { subject: "user", extendedCard: false },
};
const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

interface Started {
  agent: ExampleAgent;
  card: {
    capabilities: Record<string, unknown>;
    skills: unknown[];
    supportedInterfaces: { url: string; protocolBinding: string }[];
  };
  clients: Record<Binding, A2AServiceClient>;
}

async function start(options: ExampleAgentOptions): Promise<Started> {
  const agent = await startExampleAgent(options);
  const card = (await (await fetch(agent.cardUrl)).json()) as Started["card"];
  const clients = {} as Record<Binding, A2AServiceClient>;
  for (const i of card.supportedInterfaces) {
    if (i.protocolBinding === "JSONRPC")
      clients["JSONRPC"] = new A2AServiceJsonRpcClient({ url: i.url });
    if (i.protocolBinding === "HTTP+JSON")
      clients["HTTP+JSON"] = new A2AServiceRestClient({ url: i.url });
    if (i.protocolBinding === "GRPC")
      clients["GRPC"] = new A2AServiceGrpcClient({ address: i.url });
    if (i.protocolBinding === GRPC_WEB_PROTOCOL_BINDING)
      clients["GRPC-WEB"] = new A2AServiceGrpcClient({
        address: i.url,
        transport: createGrpcWebTransport({ baseUrl: i.url, httpVersion: "1.1" }),
      });
    if (i.protocolBinding === CONNECT_PROTOCOL_BINDING)
      clients["CONNECT"] = new A2AServiceGrpcClient({
        address: i.url,
        transport: createConnectTransport({ baseUrl: i.url, httpVersion: "1.1" }),
      });
  }
  return { agent, card, clients };
}

let main: Started;
beforeAll(async () => {
  main = await start({ tokens: TOKENS, longRunningMs: 300, allowPrivateWebhooks: true });
});
afterAll(() => main.agent.close());

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

async function sendTask(
  client: A2AServiceClient,
  request: ReturnType<typeof message> & { configuration?: object },
): Promise<Task> {
  const response = await client.sendMessage(request);
  if (response.payload.case !== "task")
    throw new Error(`expected a task, got ${response.payload.case}`);
  return response.payload.value;
}

async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  ms = 5_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe.each(BINDINGS)("example agent over %s", (binding) => {
  const client = () => main.clients[binding];

  it("is listed in the card", () => {
    expect(client()).toBeDefined();
  });

  it("tck-message-response and hello → a Message from the agent, no task", async () => {
    for (const text of ["tck-message-response hi", "hello"]) {
      const reply = await client().sendMessage(message(text));
      if (reply.payload.case !== "message") throw new Error("expected a message");
      expect(reply.payload.value.role).toBe(Role.AGENT);
      expect(textOf(reply.payload.value)).toBe(text);
      expect(reply.payload.value.taskId).toBe("");
    }
    const streamed = await collect(
      client().sendStreamingMessage(message("tck-message-response streaming")),
    );
    expect(streamed.map((e) => e.payload.case)).toEqual(["message"]);
  });

  it("tck-complete-task → COMPLETED with a text artifact and a status message", async () => {
    const task = await sendTask(client(), message("tck-complete-task hello world"));
    expect(task.status?.state).toBe(TaskState.COMPLETED);
    expect(textOf(task.status?.message)).toBe("Task completed.");
    expect(task.artifacts[0]?.parts[0]?.content).toEqual({
      case: "text",
      value: "Completed: tck-complete-task hello world",
    });
    expect((await client().getTask({ id: task.id })).status?.state).toBe(TaskState.COMPLETED);
    expect(
      (await sendTask(client(), { ...message("x"), configuration: { historyLength: 0 } })).history,
    ).toEqual([]);
    await expect(client().sendMessage(message("more", { taskId: task.id }))).rejects.toBeInstanceOf(
      UnsupportedOperationError,
    );
  });

  it("tck-input-required → INPUT_REQUIRED with a prompt; the next message completes it", async () => {
    const task = await sendTask(client(), message("tck-input-required please"));
    expect(task.status?.state).toBe(TaskState.INPUT_REQUIRED);
    expect(textOf(task.status?.message)).toBe("What else should I know?");
    const next = await sendTask(client(), message("here it is", { taskId: task.id }));
    expect(next.status?.state).toBe(TaskState.COMPLETED);
    expect(next.artifacts[0]?.parts[0]?.content.value).toBe("here it is");
  });

  it('tck-multi-turn → INPUT_REQUIRED until "done"; the history lists the user turns in order', async () => {
    const first = await sendTask(client(), message("tck-multi-turn chronological first"));
    expect(first.status?.state).toBe(TaskState.INPUT_REQUIRED);
    const second = await sendTask(
      client(),
      message("tck-multi-turn chronological second", {
        taskId: first.id,
        contextId: first.contextId,
      }),
    );
    expect(second.status?.state).toBe(TaskState.INPUT_REQUIRED);
    const third = await sendTask(client(), message(" Done ", { taskId: first.id }));
    expect(third.status?.state).toBe(TaskState.COMPLETED);
    expect(third.contextId).toBe(first.contextId);
    const history = (await client().getTask({ id: first.id })).history;
    expect(history.map(textOf)).toEqual([
      "tck-multi-turn chronological first",
      "tck-multi-turn chronological second",
      " Done ",
      "Conversation complete after 3 messages.",
    ]);
    expect((await client().getTask({ id: first.id, historyLength: 2 })).history).toHaveLength(2);
    await expect(
      client().sendMessage(
        message("x", {
          taskId: (await sendTask(client(), message("tck-multi-turn"))).id,
          contextId: "wrong-context",
        }),
      ),
    ).rejects.toBeInstanceOf(InvalidParamsError);
  });

  it("tck-reject-task, tck-task-failure, tck-fail-task, tck-auth-required → their states with a status message", async () => {
    const cases = [
      ["tck-reject-task now", TaskState.REJECTED],
      ["tck-task-failure trigger error", TaskState.FAILED],
      ["tck-fail-task legacy", TaskState.FAILED],
      ["tck-auth-required trigger auth", TaskState.AUTH_REQUIRED],
    ] as const;
    for (const [text, state] of cases) {
      const task = await sendTask(client(), message(text));
      expect(task.status?.state, text).toBe(state);
      expect(textOf(task.status?.message), text).toBeTruthy();
    }
  });

  it("tck-artifact-* → COMPLETED with a text, inline file, file URL or data artifact", async () => {
    const part = async (text: string) => {
      const task = await sendTask(client(), message(text));
      expect(task.status?.state).toBe(TaskState.COMPLETED);
      return task.artifacts[0]!.parts[0]!;
    };
    expect((await part("tck-artifact-text hello")).content).toEqual({
      case: "text",
      value: "Generated text content",
    });
    const file = await part("tck-artifact-file document");
    expect(file.content.case).toBe("raw");
    expect(new TextDecoder().decode(file.content.value as Uint8Array)).toBe(
      "Generated file content\n",
    );
    expect([file.filename, file.mediaType]).toEqual(["example.txt", "text/plain"]);
    const url = await part("tck-artifact-file-url document");
    expect(url.content).toEqual({ case: "url", value: "https://example.com/files/example.txt" });
    expect([url.filename, url.mediaType]).toEqual(["example.txt", "text/plain"]);
    const data = await part("tck-artifact-data structured");
    expect(data.content.case).toBe("data");
    expect(toJson(ValueSchema, data.content.value as never)).toEqual({
      kind: "example",
      items: [1, 2, 3],
      nested: { ok: true },
    });
  });

  it("tck-long-running → WORKING, then an artifact and COMPLETED; a cancel stops it at once", async () => {
    const started = await sendTask(client(), {
      ...message("tck-long-running start process"),
      configuration: { returnImmediately: true },
    });
    expect([TaskState.SUBMITTED, TaskState.WORKING]).toContain(started.status?.state);
    expect(
      (
        await until(
          () => client().getTask({ id: started.id }),
          (t) => t.status?.state === TaskState.WORKING,
        )
      ).status?.state,
    ).toBe(TaskState.WORKING);
    const done = await until(
      () => client().getTask({ id: started.id }),
      (t) => t.status?.state === TaskState.COMPLETED,
    );
    expect(done.status?.state).toBe(TaskState.COMPLETED);
    expect(done.artifacts).toHaveLength(1);
    const other = await sendTask(client(), {
      ...message("tck-long-running again"),
      configuration: { returnImmediately: true },
    });
    // Started after `other`, with the same work time: once it has COMPLETED, `other` would have finished its work too.
    const witness = await sendTask(client(), {
      ...message("tck-long-running witness"),
      configuration: { returnImmediately: true },
    });
    expect((await client().cancelTask({ id: other.id })).status?.state).toBe(TaskState.CANCELED);
    expect(
      (
        await until(
          () => client().getTask({ id: witness.id }),
          (t) => t.status?.state === TaskState.COMPLETED,
        )
      ).status?.state,
    ).toBe(TaskState.COMPLETED);
    const after = await client().getTask({ id: other.id });
    expect(after.status?.state).toBe(TaskState.CANCELED);
    expect(after.artifacts).toEqual([]);
  });

  it("tck-cancel → stays WORKING until canceled", async () => {
    const task = await sendTask(client(), {
      ...message("tck-cancel start"),
      configuration: { returnImmediately: true },
    });
    expect([TaskState.SUBMITTED, TaskState.WORKING]).toContain(task.status?.state);
    // A task started after it works for longRunningMs, then COMPLETES; meanwhile this one has stayed WORKING.
    expect((await sendTask(client(), message("tck-long-running witness"))).status?.state).toBe(
      TaskState.COMPLETED,
    );
    expect((await client().getTask({ id: task.id })).status?.state).toBe(TaskState.WORKING);
    expect((await client().cancelTask({ id: task.id })).status?.state).toBe(TaskState.CANCELED);
    expect((await client().cancelTask({ id: task.id })).status?.state).toBe(TaskState.CANCELED);
  });

  it("tck-stream-basic → task, WORKING, the artifact, COMPLETED", async () => {
    const events = await collect(
      client().sendStreamingMessage(message("tck-stream-basic generate output")),
    );
    expect(events.map((e) => e.payload.case)).toEqual([
      "task",
      "statusUpdate",
      "artifactUpdate",
      "statusUpdate",
    ]);
    const [, working, artifact, completed] = events.map((e) => e.payload);
    expect(working?.case === "statusUpdate" && working.value.status?.state).toBe(TaskState.WORKING);
    expect(
      artifact?.case === "artifactUpdate" && artifact.value.artifact?.parts[0]?.content.value,
    ).toBe("Streamed content");
    expect(completed?.case === "statusUpdate" && completed.value.status?.state).toBe(
      TaskState.COMPLETED,
    );
  });

  it("tck-stream-chunked → the artifact in three chunks", async () => {
    const events = await collect(
      client().sendStreamingMessage(message("tck-stream-chunked multi-part")),
    );
    const chunks = events.flatMap((e) =>
      e.payload.case === "artifactUpdate" ? [e.payload.value] : [],
    );
    expect(chunks.map((c) => [c.artifact?.parts[0]?.content.value, c.append, c.lastChunk])).toEqual(
      [
        ["Streamed ", false, false],
        ["chunked ", true, false],
        ["content", true, true],
      ],
    );
    const last = events.at(-1)?.payload;
    expect(last?.case === "statusUpdate" && last.value.status?.state).toBe(TaskState.COMPLETED);
    const id = events[0]?.payload.case === "task" ? events[0].payload.value.id : "";
    expect(
      (await client().getTask({ id })).artifacts[0]?.parts.map((p) => p.content.value).join(""),
    ).toBe("Streamed chunked content");
  });

  it("anything else → an echo artifact", async () => {
    const task = await sendTask(client(), message("do it"));
    expect(task.status?.state).toBe(TaskState.COMPLETED);
    expect(task.artifacts[0]?.parts[0]?.content.value).toBe("do it");
  });

  it("a part that is not text/plain → ContentTypeNotSupportedError, and no task is created", async () => {
    const before = (await client().listTasks({})).totalSize;
    const data = {
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
    };
    await expect(client().sendMessage({ message: data })).rejects.toBeInstanceOf(
      ContentTypeNotSupportedError,
    );
    await expect(collect(client().sendStreamingMessage({ message: data }))).rejects.toBeInstanceOf(
      ContentTypeNotSupportedError,
    );
    const typed = message("x");
    typed.message.parts[0] = { ...typed.message.parts[0]!, mediaType: "text/html" } as never;
    await expect(client().sendMessage(typed)).rejects.toBeInstanceOf(ContentTypeNotSupportedError);
    expect((await client().listTasks({})).totalSize).toBe(before);
  });

  it("a new task with a contextId the agent never issued → InvalidParamsError; an issued one is accepted", async () => {
    await expect(
      client().sendMessage(
        message("tck-complete-task reject client context id", {
          contextId: "client-generated-context",
        }),
      ),
    ).rejects.toBeInstanceOf(InvalidParamsError);
    const first = await sendTask(client(), message("tck-complete-task first"));
    const second = await sendTask(
      client(),
      message("tck-complete-task second", { contextId: first.contextId }),
    );
    expect(second.contextId).toBe(first.contextId);
    expect(
      (await client().listTasks({ contextId: first.contextId })).tasks.map((t) => t.id).sort(),
    ).toEqual([first.id, second.id].sort());
  });

  it("authentication: anonymous works, an unknown token is Unauthenticated, tasks are per subject", async () => {
    await expect(client().sendMessage(message("hello"), bearer("nope"))).rejects.toBeInstanceOf(
      UnauthenticatedError,
    );
    const admins = await sendTask(client(), { ...message("tck-input-required") });
    const mine = await client().sendMessage(
      message("tck-complete-task mine"),
      bearer("user-token"),
    );
    if (mine.payload.case !== "task") throw new Error("expected a task");
    expect((await client().getTask({ id: mine.payload.value.id }, bearer("user-token"))).id).toBe(
      mine.payload.value.id,
    );
    await expect(client().getTask({ id: mine.payload.value.id })).rejects.toBeInstanceOf(
      TaskNotFoundError,
    );
    await expect(client().getTask({ id: admins.id }, bearer("admin-token"))).rejects.toBeInstanceOf(
      TaskNotFoundError,
    );
  });

  it("the extended card: Unauthenticated without a token, PermissionDenied for a token without the right, else the card", async () => {
    await expect(client().getExtendedAgentCard({})).rejects.toBeInstanceOf(UnauthenticatedError);
    await expect(client().getExtendedAgentCard({}, bearer("user-token"))).rejects.toBeInstanceOf(
      PermissionDeniedError,
    );
    const card = await client().getExtendedAgentCard({}, bearer("admin-token"));
    expect(card.skills.map((s) => s.id)).toContain("extended");
  });

  it("push notifications reach a local webhook with the config's bearer credentials", async () => {
    const received: {
      headers: IncomingHttpHeaders;
      body: { statusUpdate?: { status?: { state?: string } } };
    }[] = [];
    const receiver = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        received.push({ headers: req.headers, body: JSON.parse(body) as never });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhook`;
      const task = await sendTask(client(), {
        ...message("tck-long-running start"),
        configuration: { returnImmediately: true },
      });
      const config = await client().createTaskPushNotificationConfig({
        taskId: task.id,
        url,
        authentication: { scheme: "Bearer", credentials: "test-token" },
      });
      expect(config.id).not.toBe("");
      await until(
        async () => received,
        (r) => r.some((e) => e.body.statusUpdate?.status?.state === "TASK_STATE_COMPLETED"),
      );
      expect(received.length).toBeGreaterThan(0);
      for (const r of received) expect(r.headers.authorization).toBe("Bearer test-token");
      expect(received.at(-1)?.body.statusUpdate?.status?.state).toBe("TASK_STATE_COMPLETED");
    } finally {
      receiver.closeAllConnections();
      await new Promise((r) => receiver.close(r));
    }
  });
});

describe("example agent over HTTP+JSON, raw", () => {
  it("GET /extendedAgentCard: 401 without a token, 403 with an insufficient one, 200 with a good one (ACTS SEC-EXTCARD-001/002, CARD-EXT-001)", async () => {
    const url = `${main.agent.endpoints.rest}/extendedAgentCard`;
    const get = (auth?: string) =>
      fetch(url, {
        headers: { "A2A-Version": "1.0", ...(auth === undefined ? {} : { Authorization: auth }) },
      });
    expect((await get()).status).toBe(401);
    expect((await get("Bearer user-token")).status).toBe(403);
    expect((await get("Bearer unknown")).status).toBe(401);
    const ok = await get("Bearer admin-token");
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { skills: unknown[] }).skills.length).toBeGreaterThan(0);
  });

  it("the card advertises what the agent does", () => {
    expect(main.card.capabilities).toEqual({
      streaming: true,
      pushNotifications: true,
      extendedAgentCard: true,
    });
    expect(main.card.skills.length).toBeGreaterThan(0);
    expect(main.agent.endpoints.grpc).toBe(main.agent.grpcAddress);
  });
});

describe("example agent with every capability off", () => {
  let minimal: Started;
  beforeAll(async () => {
    minimal = await start({
      tokens: TOKENS,
      capabilities: { streaming: false, pushNotifications: false, extendedAgentCard: false },
    });
  });
  afterAll(() => minimal.agent.close());

  it("says so in its card", () => {
    expect(minimal.card.capabilities).toEqual({
      streaming: false,
      pushNotifications: false,
      extendedAgentCard: false,
    });
  });

  it.each(BINDINGS)(
    "refuses streaming, push configs and the extended card over %s",
    async (binding) => {
      const client = minimal.clients[binding];
      await expect(
        collect(client.sendStreamingMessage(message("tck-stream-basic"))),
      ).rejects.toBeInstanceOf(UnsupportedOperationError);
      const task = await sendTask(client, message("tck-input-required"));
      await expect(collect(client.subscribeToTask({ id: task.id }))).rejects.toBeInstanceOf(
        UnsupportedOperationError,
      );
      await expect(
        client.createTaskPushNotificationConfig({
          taskId: task.id,
          url: "https://example.com/webhook",
        }),
      ).rejects.toBeInstanceOf(PushNotificationNotSupportedError);
      await expect(client.getExtendedAgentCard({}, bearer("admin-token"))).rejects.toBeInstanceOf(
        UnsupportedOperationError,
      );
    },
  );
});

describe("example agent with an unreachable webhook", () => {
  it("accepts the config, keeps working and closes promptly", async () => {
    const { agent, clients } = await start({ longRunningMs: 50 });
    const client = clients["JSONRPC"];
    const task = await sendTask(client, {
      ...message("tck-long-running start"),
      configuration: { returnImmediately: true },
    });
    await client.createTaskPushNotificationConfig({
      taskId: task.id,
      url: "https://unreachable.invalid/webhook",
      authentication: { scheme: "Bearer", credentials: "x" },
    });
    expect(
      (
        await until(
          () => client.getTask({ id: task.id }),
          (t) => t.status?.state === TaskState.COMPLETED,
        )
      ).status?.state,
    ).toBe(TaskState.COMPLETED);
    const started = Date.now();
    await agent.close();
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});

describe("the extended card", () => {
  it.each(BINDINGS)(
    "lists the same interfaces as the public card (supportedInterfaces is REQUIRED) over %s",
    async (binding) => {
      const extended = await main.clients[binding].getExtendedAgentCard({}, bearer("admin-token"));
      expect(extended.supportedInterfaces.map((i) => [i.protocolBinding, i.url])).toEqual(
        main.card.supportedInterfaces.map((i) => [i.protocolBinding, i.url]),
      );
      expect(extended.skills.map((s) => s.id)).toContain("extended");
    },
  );
});

describe("example agent with requireAuthentication", () => {
  let secured: Started;
  const tokens = {
    ...TOKENS,
    "no-tasks-token": { subject: "reader", extendedCard: true, tasks: false },
  };
  beforeAll(async () => {
    secured = await start({ tokens, requireAuthentication: true });
  });
  afterAll(() => secured.agent.close());

  it("says so in its card (securityRequirements on the bearer scheme); the card itself stays public", () => {
    expect(
      (secured.card as unknown as { securityRequirements: unknown }).securityRequirements,
    ).toEqual([{ schemes: { bearer: {} } }]);
  });

  it.each(BINDINGS)(
    "refuses anonymous callers with UnauthenticatedError and serves tokens over %s",
    async (binding) => {
      const client = secured.clients[binding];
      await expect(client.sendMessage(message("hello"))).rejects.toBeInstanceOf(
        UnauthenticatedError,
      );
      await expect(
        client.getTask({ id: "00000000-0000-0000-0000-000000000000" }),
      ).rejects.toBeInstanceOf(UnauthenticatedError);
      const reply = await client.sendMessage(message("hello"), bearer("user-token"));
      expect(reply.payload.case).toBe("message");
    },
  );

  it.each(BINDINGS)(
    "a token without the task right gets PermissionDeniedError for tasks but may read the extended card over %s",
    async (binding) => {
      const client = secured.clients[binding];
      await expect(
        client.sendMessage(message("hello"), bearer("no-tasks-token")),
      ).rejects.toBeInstanceOf(PermissionDeniedError);
      await expect(client.listTasks({}, bearer("no-tasks-token"))).rejects.toBeInstanceOf(
        PermissionDeniedError,
      );
      expect((await client.getExtendedAgentCard({}, bearer("no-tasks-token"))).name).toBe(
        "protoc-gen-a2a example agent",
      );
    },
  );
});

describe("example agent for web pages and gRPC tools", () => {
  const connectUrl = () => main.agent.endpoints.connect;

  it("lists gRPC-web and Connect (custom bindings, by URI) at its Connect routes, then A2A over WebSocket", () => {
    const custom = main.card.supportedInterfaces.filter((i) =>
      i.protocolBinding.startsWith("https://"),
    );
    expect(custom).toEqual([
      { url: connectUrl(), protocolBinding: GRPC_WEB_PROTOCOL_BINDING, protocolVersion: "1.0" },
      { url: connectUrl(), protocolBinding: CONNECT_PROTOCOL_BINDING, protocolVersion: "1.0" },
      // generated-example/bindings/ws/ (test/e2e/binding/ws.test.ts)
      {
        url: main.agent.endpoints.ws,
        protocolBinding: WS_PROTOCOL_BINDING,
        protocolVersion: "1.0",
      },
    ]);
    expect(connectUrl()).toBe(`http://127.0.0.1:${main.agent.httpPort}/a2a/connect`);
  });

  it("the Connect protocol is a plain JSON POST (what curl or a page's fetch sends)", async () => {
    const post = (rpc: string, body: object, headers: Record<string, string> = {}) =>
      fetch(`${connectUrl()}/lf.a2a.v1.A2AService/${rpc}`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "Connect-Protocol-Version": "1",
          "A2A-Version": "1.0",
          ...headers,
        },
        body: JSON.stringify(body),
      });
    const sent = await post("SendMessage", {
      message: { messageId: "m-web", role: "ROLE_USER", parts: [{ text: "hello" }] },
    });
    expect(sent.status).toBe(200);
    expect(await sent.json()).toMatchObject({ message: { role: "ROLE_AGENT" } });
    const missing = await post("GetTask", { id: "00000000-0000-0000-0000-000000000000" });
    expect(missing.status).toBe(404);
    const error = (await missing.json()) as {
      code: string;
      message: string;
      details: { type: string }[];
    };
    expect(error).toMatchObject({ code: "not_found", message: expect.stringMatching(/not found/) });
    expect(error.details.map((d) => d.type)).toContain("google.rpc.ErrorInfo");
    expect(
      (
        await post(
          "SendMessage",
          { message: { messageId: "m", role: "ROLE_USER", parts: [{ text: "hi" }] } },
          { Authorization: "Bearer nope" },
        )
      ).status,
    ).toBe(401);
  });

  it.each([
    [
      "the Connect routes",
      () => `${main.agent.endpoints.connect}/lf.a2a.v1.A2AService/SendMessage`,
      "content-type, connect-protocol-version, x-grpc-web, authorization, a2a-version",
    ],
    [
      "JSON-RPC",
      () => main.agent.endpoints.jsonrpc,
      "content-type, authorization, a2a-version, a2a-extensions",
    ],
    [
      "HTTP+JSON",
      () => `${main.agent.endpoints.rest}/message:send`,
      "content-type, authorization, a2a-version",
    ],
  ])(
    "answers a browser's CORS preflight on %s, and its calls carry the CORS headers",
    async (_, url, requested) => {
      const preflight = await fetch(url(), {
        method: "OPTIONS",
        headers: {
          Origin: "https://page.example",
          "Access-Control-Request-Method": "POST",
          "Access-Control-Request-Headers": requested,
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
      const allowed = (preflight.headers.get("access-control-allow-headers") ?? "")
        .toLowerCase()
        .split(/,\s*/);
      expect(allowed).toEqual(expect.arrayContaining(requested.split(", ")));
      expect(preflight.headers.get("access-control-allow-methods")).toContain("POST");
    },
  );

  it("a gRPC-web call from another origin gets the allow-origin and the exposed gRPC headers", async () => {
    const client = main.clients["GRPC-WEB"];
    expect((await client.sendMessage(message("hello"))).payload.case).toBe("message");
    const raw = await fetch(`${connectUrl()}/lf.a2a.v1.A2AService/GetTask`, {
      method: "POST",
      headers: {
        Origin: "https://page.example",
        "Content-Type": "application/grpc-web+proto",
        "X-Grpc-Web": "1",
      },
      body: new Uint8Array([0, 0, 0, 0, 0]),
    });
    expect(raw.headers.get("access-control-allow-origin")).toBe("*");
    expect(raw.headers.get("access-control-expose-headers")?.toLowerCase()).toContain(
      "grpc-status-details-bin",
    );
  });

  it("serves gRPC Server Reflection on its gRPC port: buf curl lists and calls it without proto files", async () => {
    const run = promisify(execFile);
    const buf = join(
      dirname(createRequire(import.meta.url).resolve("@bufbuild/buf/package.json")),
      "bin",
      "buf",
    );
    const base = `http://${main.agent.endpoints.grpc}`;
    const listed = await run(buf, [
      "curl",
      "--protocol",
      "grpc",
      "--http2-prior-knowledge",
      "--list-services",
      base,
    ]);
    // A2A 1.0's service and 0.3's (served beside it: legacyV03, the default).
    expect(listed.stdout.trim().split("\n").sort()).toEqual([
      "a2a.v1.A2AService",
      "lf.a2a.v1.A2AService",
    ]);
    const called = await run(buf, [
      "curl",
      "--protocol",
      "grpc",
      "--http2-prior-knowledge",
      "-H",
      "A2A-Version: 1.0",
      "-d",
      JSON.stringify({
        message: {
          messageId: "m-buf",
          role: "ROLE_USER",
          parts: [{ text: "tck-complete-task via buf curl" }],
        },
      }),
      `${base}/lf.a2a.v1.A2AService/SendMessage`,
    ]);
    expect(JSON.parse(called.stdout)).toMatchObject({
      task: { status: { state: "TASK_STATE_COMPLETED" } },
    });
    // 0.3's service through reflection too (0.3 clients send no A2A-Version).
    const legacy = await run(buf, [
      "curl",
      "--protocol",
      "grpc",
      "--http2-prior-knowledge",
      "-d",
      JSON.stringify({
        request: {
          messageId: "m-buf-03",
          role: "ROLE_USER",
          content: [{ text: "tck-complete-task via buf curl 0.3" }],
        },
        configuration: { blocking: true },
      }),
      `${base}/a2a.v1.A2AService/SendMessage`,
    ]);
    expect(JSON.parse(legacy.stdout)).toMatchObject({
      task: { status: { state: "TASK_STATE_COMPLETED" } },
    });
  });
});
