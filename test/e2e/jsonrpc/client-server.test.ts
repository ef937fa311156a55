import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Role, TaskState } from "../../../generated-example/gen/a2a_pb.js";
import { A2AServiceJsonRpcClient } from "../../../generated-example/gen/a2a_a2a_jsonrpc_client.js";
import { createA2AServiceJsonRpcServer } from "../../../generated-example/gen/a2a_a2a_jsonrpc_server.js";
import {
  InternalError,
  PermissionDeniedError,
  TaskNotFoundError,
  UnauthenticatedError,
  UnsupportedOperationError,
  VersionNotSupportedError,
} from "../../../generated-example/gen/a2a_a2a_errors.js";
import { ECHO_EXTENSION, TestAgent } from "../../support/test-agent.js";
import { eventually, listen, type Listening } from "../../support/servers.js";

const userMessage = (text: string) => ({
  message: {
    messageId: `m-${text}`,
    role: Role.USER,
    parts: [{ content: { case: "text" as const, value: text } }],
  },
});

describe("generated JSON-RPC client → generated JSON-RPC server, over node:http on 127.0.0.1", () => {
  const agent = new TestAgent();
  const logged: unknown[] = [];
  let server: Listening;
  let client: A2AServiceJsonRpcClient;

  beforeAll(async () => {
    const jsonrpc = createA2AServiceJsonRpcServer(agent, {
      authenticate: ({ serviceParameters }) => {
        const auth = serviceParameters.get("authorization");
        if (auth === "Bearer nope") throw new UnauthenticatedError("bad token");
        if (auth === "Bearer guest") throw new PermissionDeniedError();
        return { user: auth ?? "anonymous" };
      },
      logger: { error: (_m, cause) => logged.push(cause) },
      keepAliveMs: 0,
    });
    server = await listen(jsonrpc.node, "/a2a");
    client = new A2AServiceJsonRpcClient({
      url: server.url,
      headers: { authorization: "Bearer alice" },
    });
  });
  afterAll(() => server.close());

  it("SendMessage → Message", async () => {
    const res = await client.sendMessage(userMessage("hello"));
    if (res.payload.case !== "message")
      throw new Error(`expected a message, got ${res.payload.case}`);
    expect(res.payload.value.parts[0]?.content).toEqual({ case: "text", value: "hello" });
    const ctx = agent.contexts.at(-1)!;
    expect(ctx.binding).toBe("JSONRPC");
    expect(ctx.operation).toBe("SendMessage");
    expect(ctx.requestedVersion).toBe("1.0");
    expect(ctx.principal).toEqual({ user: "Bearer alice" });
  });

  it("SendMessage → Task", async () => {
    const res = await client.sendMessage(userMessage("task"));
    expect(res.payload.case).toBe("task");
    if (res.payload.case !== "task") return;
    expect(res.payload.value.status?.state).toBe(TaskState.COMPLETED);
    expect(res.payload.value.status?.timestamp?.seconds).toBe(1_700_000_000n);
  });

  it("SendStreamingMessage streams every event in order", async () => {
    const cases: string[] = [];
    for await (const event of client.sendStreamingMessage(userMessage("stream me")))
      cases.push(event.payload.case ?? "none");
    expect(cases).toEqual(["task", "statusUpdate", "artifactUpdate", "statusUpdate"]);
  });

  it("GetTask, ListTasks, CancelTask, SubscribeToTask", async () => {
    expect((await client.getTask({ id: "t-7" })).id).toBe("t-7");
    const list = await client.listTasks({});
    expect(list.nextPageToken).toBe("");
    expect(list.pageSize).toBe(50);
    expect((await client.cancelTask({ id: "t-8" })).status?.state).toBe(TaskState.CANCELED);
    const events = [];
    for await (const e of client.subscribeToTask({ id: "t-9" })) events.push(e.payload.case);
    expect(events).toEqual(["task", "statusUpdate"]);
  });

  it("push notification config CRUD and GetExtendedAgentCard", async () => {
    const created = await client.createTaskPushNotificationConfig({
      taskId: "t-1",
      url: "https://example.com/hook",
    });
    expect(created.id).toBe("cfg-1");
    expect((await client.getTaskPushNotificationConfig({ taskId: "t-1", id: "cfg-1" })).url).toBe(
      "https://example.com/hook",
    );
    expect((await client.listTaskPushNotificationConfigs({ taskId: "t-1" })).configs).toHaveLength(
      1,
    );
    await client.deleteTaskPushNotificationConfig({ taskId: "t-1", id: "cfg-1" });
    expect((await client.listTaskPushNotificationConfigs({ taskId: "t-1" })).configs).toHaveLength(
      0,
    );
    expect((await client.getExtendedAgentCard({})).name).toBe("Test agent");
  });

  it("throws the typed error class the handler threw, with its metadata", async () => {
    const err = await client.getTask({ id: "missing" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TaskNotFoundError);
    expect((err as TaskNotFoundError).metadata).toEqual({ taskId: "missing" });
    expect((err as TaskNotFoundError).message).toBe("Task missing not found");
  });

  it("turns an unexpected handler error into InternalError without leaking it, and logs it", async () => {
    const err = await client.sendMessage(userMessage("crash")).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InternalError);
    expect((err as Error).message).toBe("Internal error");
    expect(logged.some((e) => e instanceof Error && e.message.includes("hunter2"))).toBe(true);
  });

  it("an error before the first stream event is a plain error; after it, a final error event", async () => {
    await expect(async () => {
      for await (const _ of client.sendStreamingMessage(userMessage("fail-early")));
    }).rejects.toBeInstanceOf(UnsupportedOperationError);
    const seen: string[] = [];
    const err = await (async () => {
      for await (const e of client.sendStreamingMessage(userMessage("fail-late")))
        seen.push(e.payload.case ?? "");
    })().catch((e: unknown) => e);
    expect(seen).toEqual(["task", "statusUpdate"]);
    expect(err).toBeInstanceOf(InternalError);
  });

  it("sends and echoes extensions", async () => {
    let echoed: string | null = null;
    await client.sendMessage(userMessage("ext"), {
      extensions: [ECHO_EXTENSION, "https://other/ext"],
      onHeaders: (h) => (echoed = h.get("a2a-extensions")),
    });
    expect(agent.contexts.at(-1)?.requestedExtensions).toEqual([
      ECHO_EXTENSION,
      "https://other/ext",
    ]);
    expect(echoed).toBe(ECHO_EXTENSION);
  });

  it("sets the configured tenant", async () => {
    const tenanted = new A2AServiceJsonRpcClient({ url: server.url, tenant: "acme" });
    await tenanted.getTask({ id: "t-1" });
    expect(agent.contexts.at(-1)?.tenant).toBe("acme");
  });

  it("maps auth failures to the auth error classes", async () => {
    const nope = new A2AServiceJsonRpcClient({
      url: server.url,
      headers: { authorization: "Bearer nope" },
    });
    await expect(nope.getTask({ id: "t" })).rejects.toBeInstanceOf(UnauthenticatedError);
    const guest = new A2AServiceJsonRpcClient({
      url: server.url,
      headers: { authorization: "Bearer guest" },
    });
    await expect(guest.getTask({ id: "t" })).rejects.toBeInstanceOf(PermissionDeniedError);
  });

  it("reports an unsupported version as VersionNotSupportedError", async () => {
    const old = new A2AServiceJsonRpcClient({ url: server.url, version: "0.3" });
    const err = await old.getTask({ id: "t" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VersionNotSupportedError);
    expect((err as Error).message).toContain("supported versions: 1.0");
  });

  it("cancels a stream when the caller stops reading; the handler sees the abort", async () => {
    agent.streamAborted = false;
    agent.streamFinally = false;
    const controller = new AbortController();
    for await (const e of client.sendStreamingMessage(userMessage("slow"), {
      signal: controller.signal,
    })) {
      expect(e.payload.case).toBe("task");
      break;
    }
    await eventually(() => agent.streamAborted && agent.streamFinally);
  });

  it("applies a per-call timeout", async () => {
    const err = await (async () => {
      for await (const _ of client.sendStreamingMessage(userMessage("slow"), { timeoutMs: 100 }));
    })().catch((e: unknown) => e);
    expect((err as Error).name).toMatch(/TimeoutError|AbortError/);
  });
});
