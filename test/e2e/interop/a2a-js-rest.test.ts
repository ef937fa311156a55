/**
 * Interop with the reference JS SDK (@a2a-js/sdk 1.3.0) over the HTTP+JSON/REST binding (spec §11), both ways, on
 * real sockets (127.0.0.1):
 *
 *   a. the SDK's client (ClientFactory, preferredTransports ["HTTP+JSON"] → RestTransport) against OUR generated
 *      REST server, with the card's interface without a tenant and with one;
 *   b. OUR generated A2AServiceRestClient against the SDK's express `restHandler` + DefaultRequestHandler.
 *
 * Every exchange is recorded (method, URL, request headers/body, response status/type/body) so expectations can be
 * read against the wire. SDK deviations from the spec are noted where they show; our side is held to the spec.
 */
import { create } from "@bufbuild/protobuf";
import express from "express";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Role as SdkRole, TaskState as SdkTaskState } from "@a2a-js/sdk";
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
  type Client as SdkClient,
} from "@a2a-js/sdk/client";
import {
  TaskNotFoundError as SdkTaskNotFoundError,
  UnsupportedOperationError as SdkUnsupportedOperationError,
  isRestError,
} from "@a2a-js/sdk/errors";
import { UserBuilder, restHandler } from "@a2a-js/sdk/server/express";
import {
  AgentCardSchema,
  Role,
  TaskState,
  type AgentCard,
} from "../../../generated-example/gen/a2a_pb.js";
import { A2AServiceRestClient } from "../../../generated-example/gen/a2a_a2a_rest_client.js";
import { createA2AServiceRestServer } from "../../../generated-example/gen/a2a_a2a_rest_server.js";
import {
  TaskNotCancelableError,
  TaskNotFoundError,
  VersionNotSupportedError,
} from "../../../generated-example/gen/a2a_a2a_errors.js";
import { A2AError } from "@protoc-gen-a2a/runtime";
import { TestAgent } from "../../support/test-agent.js";
import { listen, type Listening } from "../../support/servers.js";
import {
  SDK_ECHO_SKILL,
  SdkEchoExecutor,
  agentCardListener,
  isSdkMessage,
  recordingFetch,
  sdkAgentCard,
  sdkFirstText,
  sdkRequestHandler,
  sdkSend,
  type Exchange,
} from "../../support/sdk-agent.js";

// ---------------------------------------------------------------------------------------
// wire recording
// ---------------------------------------------------------------------------------------

/** The last exchange whose method and path (after the base URL) match. */
function last(log: readonly Exchange[], method: string, pathPattern: RegExp): Exchange {
  const found = log.findLast(
    (e) => e.method === method && pathPattern.test(new URL(e.url).pathname),
  );
  if (found === undefined)
    throw new Error(
      `no ${method} ${pathPattern} was recorded; saw ${log.map((e) => `${e.method} ${e.url}`).join(", ")}`,
    );
  return found;
}

const ourUserMessage = (text: string) => ({
  message: {
    messageId: `ours-${text}`,
    role: Role.USER,
    parts: [{ content: { case: "text" as const, value: text } }],
  },
});

// ---------------------------------------------------------------------------------------
// a. @a2a-js/sdk REST client → our REST server
// ---------------------------------------------------------------------------------------

/**
 * Our REST server (node adapter, mounted at /a2a/rest) with our public card (ProtoJSON) at
 * /.well-known/agent-card.json on the same port, declaring one HTTP+JSON 1.0 interface (with `tenant` if given),
 * and an SDK client made from that URL that prefers HTTP+JSON.
 */
async function startOurServerWithSdkClient(
  agent: TestAgent,
  wire: Exchange[],
  tenant: string | undefined,
) {
  let publicCard: AgentCard | undefined;
  const rest = createA2AServiceRestServer(agent, {
    basePath: "/a2a/rest",
    keepAliveMs: 0,
    logger: { error: () => {} },
  });
  const listener = agentCardListener(
    () => publicCard,
    (req, res) => rest.node(req, res),
  );
  const server = await listen(listener, "/a2a/rest");
  publicCard = create(AgentCardSchema, {
    name: "Interop agent (public card)",
    description: "our REST server, seen by the a2a-js client",
    version: "1.0.0",
    supportedInterfaces: [
      // a JSON-RPC interface first: the client must still pick HTTP+JSON because it is preferred
      {
        url: `http://127.0.0.1:${server.port}/a2a/jsonrpc`,
        protocolBinding: "JSONRPC",
        protocolVersion: "1.0",
      },
      {
        url: server.url,
        protocolBinding: "HTTP+JSON",
        protocolVersion: "1.0",
        tenant: tenant ?? "",
      },
    ],
    capabilities: { streaming: true, pushNotifications: true, extendedAgentCard: true },
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [{ id: "echo", name: "Echo", description: "Echoes", tags: ["echo"] }],
  });
  const fetchImpl = recordingFetch(wire);
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [
        new JsonRpcTransportFactory({ fetchImpl }),
        new RestTransportFactory({ fetchImpl }),
      ],
      preferredTransports: ["HTTP+JSON"],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    }),
  );
  try {
    return { server, client: await factory.createFromUrl(`http://127.0.0.1:${server.port}`) };
  } catch (e) {
    await server.close();
    throw e;
  }
}

describe.each([
  ["without tenant", undefined],
  ["with tenant acme", "acme"],
  ["with a tenant that needs encoding", "team/a b"],
])("a. @a2a-js/sdk REST client → our REST server, %s", (_name, tenant) => {
  const agent = new TestAgent();
  const wire: Exchange[] = [];
  let server: Listening;
  let client: SdkClient;
  const prefix = tenant === undefined ? "/a2a/rest" : `/a2a/rest/${encodeURIComponent(tenant)}`;
  const path = (rest: string) =>
    new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}${rest}$`);

  beforeAll(async () => {
    ({ server, client } = await startOurServerWithSdkClient(agent, wire, tenant));
  });
  afterAll(() => server?.close());

  it("resolves our ProtoJSON card and selects our HTTP+JSON 1.0 interface", () => {
    expect(client.transport.protocolName).toBe("HTTP+JSON");
    expect(client.protocolVersion).toBe("1.0");
    expect(wire[0]?.url).toBe(`http://127.0.0.1:${server.port}/.well-known/agent-card.json`);
  });

  it("sendMessage → Message, with A2A-Version 1.0, at POST …/message:send", async () => {
    const result = await client.sendMessage(sdkSend("hello"));
    if (!isSdkMessage(result))
      throw new Error(`expected a Message, got a Task: ${JSON.stringify(result)}`);
    expect(result.messageId).toBe("reply-hello");
    expect(result.role).toBe(SdkRole.ROLE_AGENT);
    expect(sdkFirstText(result.parts)).toBe("hello");
    const x = last(wire, "POST", path("/message:send"));
    expect(x.requestHeaders["a2a-version"]).toBe("1.0");
    // The SDK sends Content-Type application/json (not the SHOULD application/a2a+json of §11.1); we accept both.
    expect(x.requestHeaders["content-type"]).toBe("application/json");
    expect(x.status).toBe(200);
    expect(x.responseType).toBe("application/a2a+json");
    const ctx = agent.contexts.at(-1)!;
    expect(ctx.operation).toBe("SendMessage");
    expect(ctx.binding).toBe("HTTP+JSON");
    expect(ctx.tenant).toBe(tenant ?? "");
    expect(ctx.requestedVersion).toBe("1.0");
  });

  it("sendMessage → Task", async () => {
    const result = await client.sendMessage(sdkSend("task"));
    if (isSdkMessage(result)) throw new Error("expected a Task");
    expect(result.id).toBe("t-1");
    expect(result.status?.state).toBe(SdkTaskState.TASK_STATE_COMPLETED);
    expect(Date.parse(String(result.status?.timestamp))).toBe(1_700_000_000_000);
    expect(sdkFirstText(result.history[0]?.parts)).toBe("hello");
  });

  it("sendMessageStream yields task, statusUpdate, artifactUpdate, statusUpdate (bare StreamResponse per event)", async () => {
    const events = [];
    for await (const event of client.sendMessageStream(sdkSend("stream me")))
      events.push(event.payload);
    expect(events.map((p) => p?.$case)).toEqual([
      "task",
      "statusUpdate",
      "artifactUpdate",
      "statusUpdate",
    ]);
    const artifact = events[2];
    if (artifact?.$case !== "artifactUpdate")
      throw new Error("third event is not an artifactUpdate");
    expect(sdkFirstText(artifact.value.artifact?.parts)).toBe("stream me");
    expect(artifact.value.lastChunk).toBe(true);
    const x = last(wire, "POST", path("/message:stream"));
    expect(x.requestHeaders["accept"]).toBe("text/event-stream");
    expect(x.responseType).toBe("text/event-stream");
    expect(agent.contexts.at(-1)?.tenant).toBe(tenant ?? "");
  });

  it("stream errors: before the first event the SDK's UnsupportedOperationError; after it, our event: error", async () => {
    const early = await (async () => {
      for await (const _ of client.sendMessageStream(sdkSend("fail-early")));
    })().catch((e: unknown) => e);
    expect(early).toBeInstanceOf(SdkUnsupportedOperationError);
    if (!isRestError(early)) throw new Error(`not a REST error: ${String(early)}`);
    expect(early.statusCode).toBe(400);

    const seen: (string | undefined)[] = [];
    const late = await (async () => {
      for await (const e of client.sendMessageStream(sdkSend("fail-late")))
        seen.push(e.payload?.$case);
    })().catch((e: unknown) => e);
    expect(seen).toEqual(["task", "statusUpdate"]);
    // The SDK reads `event: error` with our §11.6 body; INTERNAL is no A2A reason, so it is a generic REST A2AError
    // (SDK quirk: its statusCode is the 200 of the stream response, not the body's 500).
    if (!isRestError(late)) throw new Error(`not a REST error: ${String(late)}`);
    expect(late.message).toBe("Internal error");
    expect(late.statusCode).toBe(200);
  });

  it("getTask (id with ':' and '/', historyLength), cancelTask (POST, no body), listTasks (query)", async () => {
    const task = await client.getTask({ tenant: "", id: "t:1/x", historyLength: 2 });
    expect(task.id).toBe("t:1/x");
    expect(task.status?.state).toBe(SdkTaskState.TASK_STATE_WORKING);
    expect(last(wire, "GET", path("/tasks/t%3A1%2Fx")).url).toMatch(/\?historyLength=2$/);

    const canceled = await client.cancelTask({ tenant: "", id: "t-8", metadata: undefined });
    expect(canceled.id).toBe("t-8");
    expect(canceled.status?.state).toBe(SdkTaskState.TASK_STATE_CANCELED);
    const cancel = last(wire, "POST", path("/tasks/t-8:cancel"));
    expect(cancel.requestBody).toBeUndefined(); // the SDK POSTs no body: valid for us (body fields are all optional)
    expect(cancel.status).toBe(200);

    const list = await client.listTasks({
      tenant: "",
      contextId: "c 1",
      status: SdkTaskState.TASK_STATE_WORKING,
      pageSize: 10,
      pageToken: "",
      historyLength: 0,
      statusTimestampAfter: "2025-11-09T10:30:00.000Z",
      includeArtifacts: true,
    });
    expect(list.tasks).toEqual([]);
    expect(list.nextPageToken).toBe("");
    expect(list.pageSize).toBe(50);
    const query = new URL(last(wire, "GET", path("/tasks")).url).searchParams;
    expect(Object.fromEntries(query)).toEqual({
      contextId: "c 1", // sent as contextId=c+1 (form encoding), which we read as a space
      status: "TASK_STATE_WORKING",
      pageSize: "10",
      historyLength: "0",
      statusTimestampAfter: "2025-11-09T10:30:00.000Z",
      includeArtifacts: "true",
    });
    expect(agent.contexts.at(-1)?.operation).toBe("ListTasks");
  });

  it("resubscribeTask POSTs /tasks/{id}:subscribe without a body and streams task, statusUpdate", async () => {
    const events = [];
    for await (const event of client.resubscribeTask({ tenant: "", id: "t-9" }))
      events.push(event.payload);
    expect(events.map((p) => p?.$case)).toEqual(["task", "statusUpdate"]);
    expect(events[0]?.$case === "task" && events[0].value.id).toBe("t-9");
    const x = last(wire, "POST", path("/tasks/t-9:subscribe"));
    expect(x.requestBody).toBeUndefined();
    expect(agent.contexts.at(-1)?.operation).toBe("SubscribeToTask");
  });

  it("push notification config create / get / list / delete", async () => {
    const created = await client.createTaskPushNotificationConfig({
      tenant: "",
      id: "",
      taskId: "t-1",
      url: "https://example.com/hook",
      token: "tok-1",
      authentication: { scheme: "Bearer", credentials: "secret" },
    });
    expect(created.id).toBe("cfg-1");
    expect(created.taskId).toBe("t-1");
    expect(created.authentication).toEqual({ scheme: "Bearer", credentials: "secret" });
    const post = last(wire, "POST", path("/tasks/t-1/pushNotificationConfigs"));
    // The SDK repeats taskId (and the tenant) in the body; they agree with the path, so we accept them.
    expect(JSON.parse(post.requestBody ?? "{}").taskId).toBe("t-1");
    expect(JSON.parse(post.requestBody ?? "{}").tenant).toBe(tenant);
    expect(post.status).toBe(200); // transcoding answers 200 (the SDK server answers 201)
    const got = await client.getTaskPushNotificationConfig({
      tenant: "",
      taskId: "t-1",
      id: "cfg-1",
    });
    expect(got.url).toBe("https://example.com/hook");
    const listed = await client.listTaskPushNotificationConfig({
      tenant: "",
      taskId: "t-1",
      pageSize: 0,
      pageToken: "",
    });
    expect(listed.configs.map((c) => c.id)).toEqual(["cfg-1"]);
    await expect(
      client.deleteTaskPushNotificationConfig({ tenant: "", taskId: "t-1", id: "cfg-1" }),
    ).resolves.toBeUndefined();
    const del = last(wire, "DELETE", path("/tasks/t-1/pushNotificationConfigs/cfg-1"));
    expect(del.status).toBe(200);
    expect(del.responseText).toBe("{}"); // google.protobuf.Empty (the SDK server answers 204 with no body)
    expect(agent.configs.size).toBe(0);
  });

  it("getAgentCard fetches our extended card (GET …/extendedAgentCard)", async () => {
    const card = await client.getAgentCard();
    expect(card.name).toBe("Test agent");
    expect(card.skills.map((s) => s.id)).toEqual(["echo"]);
    // SDK deviation: Client.getAgentCard() always calls getExtendedAgentCard({tenant: ""}); the tenant comes from the
    // TenantTransportDecorator, so the tenant form is used when the card declares a tenant.
    expect(last(wire, "GET", path("/extendedAgentCard")).status).toBe(200);
  });

  it("getTask of an unknown id → the SDK's TaskNotFoundError (404, ErrorInfo TASK_NOT_FOUND with metadata)", async () => {
    const err = await client
      .getTask({ tenant: "", id: "missing", historyLength: undefined })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SdkTaskNotFoundError);
    if (!isRestError(err)) throw new Error(`not a REST error: ${String(err)}`);
    expect(err.statusCode).toBe(404);
    expect(err.message).toBe("Task missing not found");
    expect(JSON.parse(last(wire, "GET", path("/tasks/missing")).responseText ?? "null")).toEqual({
      error: {
        code: 404,
        status: "NOT_FOUND",
        message: "Task missing not found",
        details: [
          {
            "@type": "type.googleapis.com/google.rpc.ErrorInfo",
            reason: "TASK_NOT_FOUND",
            domain: "a2a-protocol.org",
            metadata: { taskId: "missing" },
          },
        ],
      },
    });
  });
});

// ---------------------------------------------------------------------------------------
// b. our REST client → @a2a-js/sdk express restHandler
// ---------------------------------------------------------------------------------------

/** The SDK's express REST server (in-memory stores, push configs, extended card) at /a2a/rest. */
async function startSdkRestServer(): Promise<Listening> {
  const card = sdkAgentCard({
    name: "SDK echo",
    description: "the a2a-js reference server",
    url: "http://127.0.0.1/a2a/rest",
    protocolBinding: "HTTP+JSON",
    full: true,
    skills: [SDK_ECHO_SKILL],
  });
  const requestHandler = sdkRequestHandler(card, new SdkEchoExecutor(), "SDK echo (extended)");
  const app = express();
  app.use("/a2a/rest", restHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  return listen(app, "/a2a/rest");
}

describe.each([
  ["without tenant", undefined],
  ["with tenant acme", "acme"],
])("b. our generated REST client → @a2a-js/sdk express restHandler, %s", (_name, tenant) => {
  let server: Listening;
  let client: A2AServiceRestClient;
  const wire: Exchange[] = [];
  let completedTaskId = "";
  const prefix = tenant === undefined ? "/a2a/rest" : `/a2a/rest/${tenant}`;

  beforeAll(async () => {
    server = await startSdkRestServer();
    client = new A2AServiceRestClient({
      url: server.url,
      tenant,
      timeoutMs: 5000,
      fetch: recordingFetch(wire),
    });
  });
  afterAll(() => server?.close());

  it("sendMessage → Message (echo)", async () => {
    const res = await client.sendMessage(ourUserMessage("hello"));
    if (res.payload.case !== "message")
      throw new Error(`expected a message, got ${res.payload.case}`);
    expect(res.payload.value.role).toBe(Role.AGENT);
    expect(res.payload.value.messageId).toBe("sdk-reply-ours-hello");
    expect(res.payload.value.parts[0]?.content).toEqual({ case: "text", value: "hello" });
    const x = wire.at(-1)!;
    expect(`${x.method} ${new URL(x.url).pathname}`).toBe(`POST ${prefix}/message:send`);
    expect(x.requestHeaders["content-type"]).toBe("application/a2a+json");
    expect(x.requestHeaders["a2a-version"]).toBe("1.0");
  });

  it("sendMessage → Task run to COMPLETED, then getTask returns it (historyLength in the query)", async () => {
    const res = await client.sendMessage(ourUserMessage("task"));
    if (res.payload.case !== "task") throw new Error(`expected a task, got ${res.payload.case}`);
    expect(res.payload.value.status?.state).toBe(TaskState.COMPLETED);
    completedTaskId = res.payload.value.id;
    const fetched = await client.getTask({ id: completedTaskId, historyLength: 1 });
    expect(fetched.id).toBe(completedTaskId);
    expect(fetched.status?.state).toBe(TaskState.COMPLETED);
    expect(fetched.artifacts.map((a) => a.artifactId)).toEqual(["sdk-a-1"]);
    expect(fetched.history).toHaveLength(1);
    expect(new URL(wire.at(-1)!.url).search).toBe("?historyLength=1");
  });

  it("sendStreamingMessage yields task, statusUpdate, artifactUpdate, statusUpdate", async () => {
    const events = [];
    for await (const e of client.sendStreamingMessage(ourUserMessage("task")))
      events.push(e.payload);
    expect(events.map((p) => p.case)).toEqual([
      "task",
      "statusUpdate",
      "artifactUpdate",
      "statusUpdate",
    ]);
    const completed = events[3];
    expect(completed?.case === "statusUpdate" && completed.value.status?.state).toBe(
      TaskState.COMPLETED,
    );
  });

  it("subscribeToTask (POST, our default) and with streamMethod GET (the a2a.proto binding) on a WORKING task", async () => {
    const held = await client.sendMessage(ourUserMessage("hold"));
    if (held.payload.case !== "task") throw new Error("expected a task");
    const id = held.payload.value.id;
    for (const streamMethod of ["POST", "GET"] as const) {
      const c = new A2AServiceRestClient({
        url: server.url,
        tenant,
        timeoutMs: 5000,
        streamMethod,
        fetch: recordingFetch(wire),
      });
      for await (const e of c.subscribeToTask({ id })) {
        // the SDK sends the current task first, then waits for updates: stop after the snapshot
        expect(e.payload.case === "task" && e.payload.value.id).toBe(id);
        break;
      }
      expect(`${wire.at(-1)!.method} ${new URL(wire.at(-1)!.url).pathname}`).toBe(
        `${streamMethod} ${prefix}/tasks/${id}:subscribe`,
      );
    }
    const canceled = await client.cancelTask({ id });
    expect(canceled.status?.state).toBe(TaskState.CANCELED);
  });

  it("cancelTask of a COMPLETED task → our TaskNotCancelableError", async () => {
    await expect(client.cancelTask({ id: completedTaskId })).rejects.toBeInstanceOf(
      TaskNotCancelableError,
    );
  });

  it("listTasks with query filters", async () => {
    const list = await client.listTasks({
      status: TaskState.COMPLETED,
      pageSize: 10,
      includeArtifacts: true,
    });
    expect(list.tasks.length).toBeGreaterThanOrEqual(2);
    expect(list.tasks.every((t) => t.status?.state === TaskState.COMPLETED)).toBe(true);
    expect(list.tasks.map((t) => t.id)).toContain(completedTaskId);
    expect(new URL(wire.at(-1)!.url).search).toBe(
      "?status=TASK_STATE_COMPLETED&pageSize=10&includeArtifacts=true",
    );
  });

  it("push notification config create / get / list", async () => {
    const created = await client.createTaskPushNotificationConfig({
      taskId: completedTaskId,
      id: "cfg-x",
      url: "https://example.com/hook",
      token: "tok",
    });
    expect(created.id).toBe("cfg-x");
    expect(created.taskId).toBe(completedTaskId);
    // SDK deviation: 201 Created (transcoding, and our server, answer 200); our client accepts any 2xx
    expect(wire.at(-1)!.status).toBe(201);
    expect(JSON.parse(wire.at(-1)!.requestBody ?? "{}")).toEqual({
      id: "cfg-x",
      url: "https://example.com/hook",
      token: "tok",
    }); // taskId only in the path
    expect(
      (await client.getTaskPushNotificationConfig({ taskId: completedTaskId, id: "cfg-x" })).token,
    ).toBe("tok");
    expect(
      (await client.listTaskPushNotificationConfigs({ taskId: completedTaskId })).configs.map(
        (c) => c.id,
      ),
    ).toEqual(["cfg-x"]);
  });

  // The SDK answers DELETE /[tenant/]tasks/{id}/pushNotificationConfigs/{configId} with `204 No Content` (no body, no
  // Content-Type). 204 is a valid HTTP success (RFC 9110 §15.3.5) and the spec fixes no success codes for HTTP+JSON
  // (§11.3/§11.4): our client reads an empty 2xx body as google.protobuf.Empty.
  it("deleteTaskPushNotificationConfig: the SDK's 204 No Content decodes as google.protobuf.Empty", async () => {
    const result = await client.deleteTaskPushNotificationConfig({
      taskId: completedTaskId,
      id: "cfg-x",
    });
    const x = wire.at(-1)!;
    expect(`${x.method} ${new URL(x.url).pathname}`).toBe(
      `DELETE ${prefix}/tasks/${completedTaskId}/pushNotificationConfigs/cfg-x`,
    );
    expect(x.status).toBe(204);
    expect(x.responseText).toBe("");
    expect(result.$typeName).toBe("google.protobuf.Empty");
    expect(
      (await client.listTaskPushNotificationConfigs({ taskId: completedTaskId })).configs,
    ).toEqual([]);
  });

  it("getExtendedAgentCard decodes the SDK's card", async () => {
    const card = await client.getExtendedAgentCard({});
    expect(card.name).toBe("SDK echo (extended)");
    expect(card.supportedInterfaces[0]?.protocolBinding).toBe("HTTP+JSON");
    expect(card.capabilities?.streaming).toBe(true);
  });

  it("getTask of an unknown id → our TaskNotFoundError (instanceof), from the SDK's §11.6 body", async () => {
    const err = await client.getTask({ id: "no-such-task" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TaskNotFoundError);
    expect(err).toBeInstanceOf(A2AError);
    expect((err as TaskNotFoundError).message).toContain("no-such-task");
    const body = JSON.parse(wire.at(-1)!.responseText ?? "null");
    expect(body.error).toMatchObject({ code: 404, status: "NOT_FOUND" });
    expect(body.error.details[0]).toMatchObject({
      "@type": "type.googleapis.com/google.rpc.ErrorInfo",
      reason: "TASK_NOT_FOUND",
      domain: "a2a-protocol.org",
    });
  });

  it("A2A-Version 0.3 (not declared by the SDK's card) → our VersionNotSupportedError", async () => {
    const old = new A2AServiceRestClient({
      url: server.url,
      tenant,
      version: "0.3",
      timeoutMs: 5000,
    });
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      await expect(old.getTask({ id: completedTaskId })).rejects.toBeInstanceOf(
        VersionNotSupportedError,
      );
    } finally {
      quiet.mockRestore();
    }
  });
});
