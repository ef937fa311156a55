/**
 * Spec §13.2 ("Agents SHOULD validate webhook URLs"), issue #17: a task handler given a push sender's
 * `onTaskEvent` refuses, when a push config is created, the URLs that sender would refuse at
 * delivery: InvalidParams naming the field, nothing stored. A host that does not resolve now is
 * accepted (delivery checks again). `checkPushUrl: false` turns the default off.
 */
import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { A2AError } from "@protoc-gen-a2a/runtime";
import { InMemoryTaskStore, createPushNotificationSender } from "@protoc-gen-a2a/runtime/task";
import {
  ListTaskPushNotificationConfigsRequestSchema,
  StreamResponseSchema,
  TaskPushNotificationConfigSchema,
  TaskState,
} from "../../../generated-example/gen/a2a_pb.js";
import {
  callOf,
  createA2ATaskHandler,
  sendRequest,
  taskOf,
} from "../../support/task-runtime-binding.js";

/** A handler whose tasks wait for input (so configs can be added), with a push sender of `policy` unless told otherwise. */
function setup(policy: { allowPrivateNetworks?: boolean } = {}, checkPushUrl?: false) {
  const store = new InMemoryTaskStore();
  const push = createPushNotificationSender({
    store,
    schemas: { StreamResponse: StreamResponseSchema },
    fetch: async () => new Response(null, { status: 204 }),
    ...policy,
  });
  const handler = createA2ATaskHandler({
    store,
    capabilities: { pushNotifications: true },
    onTaskEvent: push.onTaskEvent,
    ...(checkPushUrl === false ? { checkPushUrl } : {}),
    executor: {
      async execute(_context, emitter) {
        await emitter.requireInput("more?");
      },
    },
  });
  return { handler, push };
}

async function newTask(handler: ReturnType<typeof setup>["handler"]) {
  const task = taskOf(await handler.sendMessage(sendRequest("hi"), callOf("SendMessage")));
  expect(task.status?.state).toBe(TaskState.INPUT_REQUIRED);
  return task.id;
}

const create_ = (handler: ReturnType<typeof setup>["handler"], taskId: string, url: string) =>
  handler.createTaskPushNotificationConfig(
    create(TaskPushNotificationConfigSchema, { taskId, url }),
    callOf("CreateTaskPushNotificationConfig"),
  );
const configsOf = async (handler: ReturnType<typeof setup>["handler"], taskId: string) =>
  (
    await handler.listTaskPushNotificationConfigs(
      create(ListTaskPushNotificationConfigsRequestSchema, { taskId }),
      callOf("ListTaskPushNotificationConfigs"),
    )
  ).configs;

const refused = [
  "file:///etc/passwd",
  "javascript:alert(1)",
  "not a url",
  "http://169.254.169.254/latest/meta-data/",
  "gopher://example.com/",
  "http://127.0.0.1:8080/hook",
  "http://localhost/hook",
  "https://user:secret@8.8.8.8/hook",
  "http://[::1]/hook",
];

describe("push config URLs are checked at creation by the push sender's policy", () => {
  it.each(refused)(
    "CreateTaskPushNotificationConfig refuses %s with InvalidParams on url, and stores nothing",
    async (url) => {
      const { handler } = setup();
      const taskId = await newTask(handler);
      const error = await create_(handler, taskId, url).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(A2AError);
      expect((error as A2AError).spec.name).toBe("InvalidParamsError");
      expect((error as A2AError).message).toMatch(/^url is not allowed: /);
      expect(await configsOf(handler, taskId)).toEqual([]);
    },
  );

  it("SendMessage refuses a bad configuration.taskPushNotificationConfig.url before creating a task", async () => {
    const { handler } = setup();
    const error = await handler
      .sendMessage(
        sendRequest(
          "hi",
          {},
          {
            taskPushNotificationConfig: create(TaskPushNotificationConfigSchema, {
              url: "http://10.0.0.1/hook",
            }),
          },
        ),
        callOf("SendMessage"),
      )
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect((error as A2AError).spec.name).toBe("InvalidParamsError");
    expect((error as A2AError).message).toMatch(
      /^configuration\.taskPushNotificationConfig\.url is not allowed: /,
    );
    expect(handler.liveTasks).toBe(0);
  });

  it("accepts a public address and a host that does not resolve now (delivery checks again)", async () => {
    const { handler } = setup();
    const taskId = await newTask(handler);
    await create_(handler, taskId, "https://8.8.8.8/hook");
    await create_(handler, taskId, "https://no-such-host.invalid/hook");
    expect((await configsOf(handler, taskId)).map((c) => c.url)).toEqual([
      "https://8.8.8.8/hook",
      "https://no-such-host.invalid/hook",
    ]);
  });

  it("follows the sender's policy: allowPrivateNetworks lets loopback through", async () => {
    const { handler } = setup({ allowPrivateNetworks: true });
    const taskId = await newTask(handler);
    await create_(handler, taskId, "http://127.0.0.1:8080/hook");
    expect(await configsOf(handler, taskId)).toHaveLength(1);
  });

  it("checkPushUrl: false turns the check at creation off", async () => {
    const { handler } = setup({}, false);
    const taskId = await newTask(handler);
    await create_(handler, taskId, "http://127.0.0.1:8080/hook");
    expect(await configsOf(handler, taskId)).toHaveLength(1);
  });

  it("the sender's checkUrl is the same check", async () => {
    const { push } = setup();
    await expect(push.checkUrl("file:///etc/passwd")).rejects.toThrow(/scheme/);
    await expect(push.checkUrl("https://8.8.8.8/hook")).resolves.toBeUndefined();
  });
});
