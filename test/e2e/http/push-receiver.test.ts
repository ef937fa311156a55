/**
 * The client side of push notifications (`createPushNotificationReceiver`, spec §4.3.3,
 * §13.2), served with serveNode on 127.0.0.1: what it refuses and how (status, body, no
 * hand-over), what it accepts, and a real agent (the example agent's push sender) delivering
 * to it, including a redelivery after the application failed once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toJson } from "@bufbuild/protobuf";
import {
  StreamResponseSchema,
  TaskState,
  type StreamResponse,
} from "../../../generated-example/gen/a2a_pb.js";
import { createPushNotificationReceiver, type PushExpectation } from "@protoc-gen-a2a/runtime/http";
import { serveNode } from "@protoc-gen-a2a/runtime/http";
import { serveFetch } from "@protoc-gen-a2a/runtime/http";
import { A2AServiceJsonRpcClient } from "../../../generated-example/gen/a2a_a2a_jsonrpc_client.js";
import {
  startExampleAgent,
  type ExampleAgent,
} from "../../../generated-example/agent/echo-agent.js";
import { eventually, listen, type Listening } from "../../support/servers.js";

const EXPECTED: PushExpectation = {
  authentication: { scheme: "Bearer", credentials: "s3cret-token" },
};
const tasks = new Map<string, PushExpectation>([
  ["task-1", EXPECTED],
  ["task-open", {}],
  ["task-token", { token: { header: "x-a2a-notification-token", value: "t0k" } }],
]);
const handed: { taskId: string; event: StreamResponse }[] = [];
let failNext = 0;
/** The events the application failed on (answered 500). */
const failedOn: StreamResponse[] = [];
let receiver: Listening;

const receive = createPushNotificationReceiver({
  schema: StreamResponseSchema,
  expected: (taskId) => tasks.get(taskId),
  onNotification: (event, { taskId }) => {
    if (failNext > 0) {
      failNext--;
      failedOn.push(event);
      throw new Error("the application's database is down");
    }
    handed.push({ taskId, event });
  },
  maxBodyBytes: 4096,
  onError: () => {},
});

beforeAll(async () => {
  receiver = await listen(serveNode(receive) as never);
});
afterAll(() => receiver.close());

const status = (taskId: string, state = "TASK_STATE_WORKING") =>
  JSON.stringify({ statusUpdate: { taskId, contextId: "c", status: { state } } });
const post = (body: string, headers: Record<string, string> = {}, method = "POST") =>
  fetch(receiver.url, {
    method,
    headers: { "content-type": "application/a2a+json", ...headers },
    ...(method === "GET" ? {} : { body }),
  });

describe("refusals", () => {
  const rows: readonly [string, () => Promise<Response>, number, string][] = [
    ["GET", () => post("", {}, "GET"), 405, "UNIMPLEMENTED"],
    [
      "a text body",
      () =>
        post(status("task-1"), {
          "content-type": "text/plain",
          authorization: "Bearer s3cret-token",
        }),
      415,
      "INVALID_ARGUMENT",
    ],
    [
      "a body over maxBodyBytes",
      () =>
        post(
          JSON.stringify({
            statusUpdate: {
              taskId: "task-1",
              contextId: "x".repeat(5000),
              status: { state: "TASK_STATE_WORKING" },
            },
          }),
          { authorization: "Bearer s3cret-token" },
        ),
      413,
      "INVALID_ARGUMENT",
    ],
    [
      "not JSON",
      () => post("{", { authorization: "Bearer s3cret-token" }),
      400,
      "INVALID_ARGUMENT",
    ],
    [
      "not a StreamResponse",
      () =>
        post(JSON.stringify({ statusUpdate: { status: { state: "NOT_A_STATE" } } }), {
          authorization: "Bearer s3cret-token",
        }),
      400,
      "INVALID_ARGUMENT",
    ],
    [
      "no payload",
      () => post("{}", { authorization: "Bearer s3cret-token" }),
      400,
      "INVALID_ARGUMENT",
    ],
    [
      "no task id",
      () =>
        post(
          JSON.stringify({
            message: { messageId: "m", role: "ROLE_AGENT", parts: [{ text: "x" }] },
          }),
          { authorization: "Bearer s3cret-token" },
        ),
      400,
      "INVALID_ARGUMENT",
    ],
    ["no credentials", () => post(status("task-1")), 401, "UNAUTHENTICATED"],
    [
      "a wrong token",
      () => post(status("task-1"), { authorization: "Bearer wrong" }),
      401,
      "UNAUTHENTICATED",
    ],
    [
      "the token as a prefix",
      () => post(status("task-1"), { authorization: "Bearer s3cret-token-and-more" }),
      401,
      "UNAUTHENTICATED",
    ],
    [
      "another scheme",
      () => post(status("task-1"), { authorization: "Basic s3cret-token" }),
      401,
      "UNAUTHENTICATED",
    ],
    [
      "the right token for a task it does not expect",
      () => post(status("task-unknown"), { authorization: "Bearer s3cret-token" }),
      401,
      "UNAUTHENTICATED",
    ],
    ["a config token header missing", () => post(status("task-token")), 401, "UNAUTHENTICATED"],
    [
      "a config token header wrong",
      () => post(status("task-token"), { "x-a2a-notification-token": "nope" }),
      401,
      "UNAUTHENTICATED",
    ],
  ];
  it.each(rows)("%s → %i, nothing handed over", async (_, send, code, statusName) => {
    const before = handed.length;
    const res = await send();
    expect(res.status).toBe(code);
    const body = (await res.json()) as { error: { code: number; status: string; message: string } };
    expect(body.error).toMatchObject({ code, status: statusName });
    expect(body.error.message).not.toContain("s3cret");
    if (code === 401)
      expect(res.headers.get("www-authenticate")).toBe(tasks.get("task-1")!.authentication!.scheme);
    if (code === 405) expect(res.headers.get("allow")).toBe("POST");
    expect(handed.length).toBe(before);
  });

  it("an unknown task and a wrong token get the same answer", async () => {
    const unknown = await post(status("task-unknown"), { authorization: "Bearer s3cret-token" });
    const wrong = await post(status("task-1"), { authorization: "Bearer wrong" });
    expect([unknown.status, await unknown.text()]).toEqual([wrong.status, await wrong.text()]);
  });
});

describe("accepted", () => {
  it.each([
    ["the configured credentials", "task-1", { authorization: "Bearer s3cret-token" }],
    ["the scheme in another case", "task-1", { authorization: "bearer s3cret-token" }],
    ["a config without authentication (matched by task)", "task-open", {}],
    ["the config's token header", "task-token", { "x-a2a-notification-token": "t0k" }],
  ] as const)("%s → 204, handed over once", async (_, taskId, headers) => {
    const before = handed.length;
    const res = await post(status(taskId), headers);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    expect(handed.length).toBe(before + 1);
    expect(handed.at(-1)).toMatchObject({ taskId, event: { payload: { case: "statusUpdate" } } });
  });

  it("unknown fields are ignored (§5.7), application/json is accepted", async () => {
    const res = await post(
      JSON.stringify({
        task: {
          id: "task-open",
          contextId: "c",
          status: { state: "TASK_STATE_COMPLETED" },
          futureField: 1,
        },
      }),
      { "content-type": "application/json" },
    );
    expect(res.status).toBe(204);
    expect(handed.at(-1)?.event.payload.case).toBe("task");
  });

  it("an application failure answers 500 (so the agent delivers again)", async () => {
    failNext = 1;
    const before = handed.length;
    const res = await post(status("task-open"));
    expect(res.status).toBe(500);
    expect(((await res.json()) as { error: { message: string } }).error.message).not.toContain(
      "database",
    );
    expect(handed.length).toBe(before);
  });

  it("works behind serveFetch too", async () => {
    const fetchHandler = serveFetch(receive);
    const res = await fetchHandler(
      new Request("http://receiver.example/hook", {
        method: "POST",
        headers: { "content-type": "application/a2a+json", authorization: "Bearer s3cret-token" },
        body: status("task-1"),
      }),
    );
    expect(res.status).toBe(204);
  });
});

describe("a real agent delivering to it", () => {
  let agent: ExampleAgent;
  beforeAll(async () => {
    agent = await startExampleAgent({ longRunningMs: 200, allowPrivateWebhooks: true });
  });
  afterAll(() => agent.close());

  it("every event of a task reaches the application with the config's credentials, one failure redelivered", async () => {
    const client = new A2AServiceJsonRpcClient({ url: agent.endpoints.jsonrpc, version: "1.0" });
    const sent = await client.sendMessage({
      message: {
        messageId: "m-push",
        role: 1,
        parts: [{ content: { case: "text", value: "tck-long-running go" } }],
      },
      configuration: { returnImmediately: true },
    });
    if (sent.payload.case !== "task") throw new Error("expected a task");
    const taskId = sent.payload.value.id;
    tasks.set(taskId, { authentication: { scheme: "Bearer", credentials: "agent-token" } });
    failNext = 1;
    await client.createTaskPushNotificationConfig({
      taskId,
      url: receiver.url,
      authentication: { scheme: "Bearer", credentials: "agent-token" },
    });
    const terminal = () =>
      handed.some(
        (h) =>
          h.taskId === taskId &&
          h.event.payload.case === "statusUpdate" &&
          h.event.payload.value.status?.state === TaskState.COMPLETED,
      );
    await eventually(terminal, 10_000).catch(() => undefined);
    const mine = handed.filter((h) => h.taskId === taskId);
    expect(terminal(), JSON.stringify(mine.map((h) => toJson(StreamResponseSchema, h.event)))).toBe(
      true,
    );
    // The first delivery failed in the application and was delivered again (the next one handed over is the same event).
    expect(failNext).toBe(0);
    expect(toJson(StreamResponseSchema, mine[0]!.event)).toEqual(
      toJson(StreamResponseSchema, failedOn.at(-1)!),
    );
  });
});
