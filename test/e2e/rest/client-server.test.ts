import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Role, TaskState } from "../../../generated-example/gen/a2a_pb.js";
import { A2AServiceRestClient } from "../../../generated-example/gen/a2a_a2a_rest_client.js";
import { createA2AServiceRestServer } from "../../../generated-example/gen/a2a_a2a_rest_server.js";
import {
  InternalError,
  TaskNotFoundError,
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

describe.each([
  ["without tenant", undefined],
  ["with tenant", "acme"],
  ["with a tenant that needs encoding", "team/a:b c"],
])("generated REST client → generated REST server, %s", (_name, tenant) => {
  const agent = new TestAgent();
  let server: Listening;
  let client: A2AServiceRestClient;
  const paths: string[] = [];

  beforeAll(async () => {
    const rest = createA2AServiceRestServer(agent, {
      keepAliveMs: 0,
      basePath: "/a2a/rest",
      logger: { error() {} },
    });
    server = await listen(rest.node, "/a2a/rest");
    client = new A2AServiceRestClient({
      url: server.url,
      tenant,
      fetch: (input, init) => {
        paths.push(
          `${init?.method} ${new URL(String(input)).pathname}${new URL(String(input)).search}`,
        );
        return fetch(input, init);
      },
    });
  });
  afterAll(() => server.close());

  const prefix = tenant === undefined ? "/a2a/rest" : `/a2a/rest/${encodeURIComponent(tenant)}`;

  it("SendMessage and SendStreamingMessage", async () => {
    const res = await client.sendMessage(userMessage("hello"));
    expect(res.payload.case === "message" && res.payload.value.parts[0]?.content.value).toBe(
      "hello",
    );
    expect(paths.at(-1)).toBe(`POST ${prefix}/message:send`);
    const ctx = agent.contexts.at(-1)!;
    expect(ctx.binding).toBe("HTTP+JSON");
    expect(ctx.tenant).toBe(tenant ?? "");
    const kinds = [];
    for await (const e of client.sendStreamingMessage(userMessage("s"))) kinds.push(e.payload.case);
    expect(kinds).toEqual(["task", "statusUpdate", "artifactUpdate", "statusUpdate"]);
    expect(paths.at(-1)).toBe(`POST ${prefix}/message:stream`);
  });

  it("GetTask with historyLength in the query, ListTasks with filters", async () => {
    expect((await client.getTask({ id: "t:1/x", historyLength: 3 })).id).toBe("t:1/x");
    expect(paths.at(-1)).toBe(`GET ${prefix}/tasks/t%3A1%2Fx?historyLength=3`);
    const list = await client.listTasks({
      contextId: "c-1",
      status: TaskState.WORKING,
      pageSize: 10,
      includeArtifacts: true,
    });
    expect(list.nextPageToken).toBe("");
    expect(paths.at(-1)).toBe(
      `GET ${prefix}/tasks?contextId=c-1&status=TASK_STATE_WORKING&pageSize=10&includeArtifacts=true`,
    );
  });

  it("CancelTask and SubscribeToTask (POST by default)", async () => {
    expect((await client.cancelTask({ id: "t-8" })).status?.state).toBe(TaskState.CANCELED);
    expect(paths.at(-1)).toBe(`POST ${prefix}/tasks/t-8:cancel`);
    const kinds = [];
    for await (const e of client.subscribeToTask({ id: "t-9" })) kinds.push(e.payload.case);
    expect(kinds).toEqual(["task", "statusUpdate"]);
    expect(paths.at(-1)).toBe(`POST ${prefix}/tasks/t-9:subscribe`);
    expect(agent.contexts.at(-1)?.operation).toBe("SubscribeToTask");
  });

  it("push config CRUD and the extended card", async () => {
    const created = await client.createTaskPushNotificationConfig({
      taskId: "t-1",
      url: "https://example.com/hook",
      authentication: { scheme: "Bearer", credentials: "x" },
    });
    expect(created.taskId).toBe("t-1");
    expect(paths.at(-1)).toBe(`POST ${prefix}/tasks/t-1/pushNotificationConfigs`);
    expect(
      (await client.getTaskPushNotificationConfig({ taskId: "t-1", id: created.id })).authentication
        ?.scheme,
    ).toBe("Bearer");
    expect(paths.at(-1)).toBe(`GET ${prefix}/tasks/t-1/pushNotificationConfigs/${created.id}`);
    expect((await client.listTaskPushNotificationConfigs({ taskId: "t-1" })).configs).toHaveLength(
      1,
    );
    const empty = await client.deleteTaskPushNotificationConfig({ taskId: "t-1", id: created.id });
    expect(empty.$typeName).toBe("google.protobuf.Empty");
    expect(paths.at(-1)).toBe(`DELETE ${prefix}/tasks/t-1/pushNotificationConfigs/${created.id}`);
    expect((await client.getExtendedAgentCard({})).name).toBe("Test agent");
    expect(paths.at(-1)).toBe(`GET ${prefix}/extendedAgentCard`);
  });

  it("errors come back as the generated classes", async () => {
    const err = await client.getTask({ id: "missing" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TaskNotFoundError);
    expect((err as TaskNotFoundError).metadata).toEqual({ taskId: "missing" });
    await expect(client.sendMessage(userMessage("crash"))).rejects.toBeInstanceOf(InternalError);
    await expect(async () => {
      for await (const _ of client.sendStreamingMessage(userMessage("fail-early")));
    }).rejects.toBeInstanceOf(UnsupportedOperationError);
    const seen: string[] = [];
    const late = await (async () => {
      for await (const e of client.sendStreamingMessage(userMessage("fail-late")))
        seen.push(e.payload.case ?? "");
    })().catch((e: unknown) => e);
    expect(seen).toEqual(["task", "statusUpdate"]);
    expect(late).toBeInstanceOf(InternalError);
    const old = new A2AServiceRestClient({ url: server.url, version: "0.3" });
    await expect(old.getTask({ id: "t" })).rejects.toBeInstanceOf(VersionNotSupportedError);
  });

  it("extensions and stream cancellation", async () => {
    let echoed: string | null = null;
    await client.getTask(
      { id: "t" },
      { extensions: [ECHO_EXTENSION], onHeaders: (h) => (echoed = h.get("a2a-extensions")) },
    );
    expect(echoed).toBe(ECHO_EXTENSION);
    agent.streamAborted = false;
    for await (const e of client.sendStreamingMessage(userMessage("slow"))) {
      expect(e.payload.case).toBe("task");
      break;
    }
    await eventually(() => agent.streamAborted && agent.streamFinally);
  });
});
