/**
 * Issue #25 (point 6): webhook URLs whose host is an IPv6 address reaching local space. One table,
 * checked on every path that uses the policy (spec §13.2): `isBlockedAddress`; `checkWebhookUrl`
 * with the address as the URL's host and as a DNS answer; CreateTaskPushNotificationConfig and
 * SendMessage's `configuration.taskPushNotificationConfig` (InvalidParams naming the field, nothing
 * stored); delivery after the host's DNS answer changed (refused, no request made); and the example
 * agent over JSON-RPC on a real socket.
 *
 * IPv4-mapped (::ffff:0:0/96) and NAT64 well-known (64:ff9b::/96) addresses are judged by the IPv4
 * address they embed; the local-use NAT64 prefix 64:ff9b:1::/48 (RFC 8215) and every other IPv6
 * address outside global unicast 2000::/3 (or in its special ranges) are refused.
 */
import { create } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { A2AError } from "@protoc-gen-a2a/runtime";
import {
  InMemoryTaskStore,
  WebhookUrlError,
  checkWebhookUrl,
  createPushNotificationSender,
  isBlockedAddress,
  type PushDeliveryFailure,
  type ResolvedAddress,
} from "@protoc-gen-a2a/runtime/task";
import {
  ListTaskPushNotificationConfigsRequestSchema,
  StreamResponseSchema,
  TaskPushNotificationConfigSchema,
  TaskState,
} from "../../../generated-example/gen/a2a_pb.js";
import {
  startExampleAgent,
  type ExampleAgent,
} from "../../../generated-example/agent/echo-agent.js";
import {
  callOf,
  createA2ATaskHandler,
  sendRequest,
  taskOf,
} from "../../support/task-runtime-binding.js";

/** Addresses that reach loopback, private, link-local or otherwise non-global space. */
const BLOCKED: readonly (readonly [address: string, why: string])[] = [
  ["::ffff:127.0.0.1", "IPv4-mapped loopback (dotted)"],
  ["::ffff:7f00:1", "IPv4-mapped loopback (hex)"],
  ["::ffff:10.0.0.1", "IPv4-mapped private"],
  ["::ffff:a9fe:a9fe", "IPv4-mapped link-local (cloud metadata)"],
  ["::ffff:0:0", "IPv4-mapped 0.0.0.0"],
  ["64:ff9b::7f00:1", "NAT64 well-known prefix, loopback"],
  ["64:ff9b::192.168.1.1", "NAT64 well-known prefix, private"],
  ["64:ff9b::a9fe:a9fe", "NAT64 well-known prefix, link-local"],
  ["64:ff9b:1::7f00:1", "local-use NAT64 prefix (RFC 8215)"],
  ["64:ff9b:1::808:808", "local-use NAT64 prefix, whatever it embeds"],
  ["64:ff9b:1:ffff::1", "local-use NAT64 prefix, other bits"],
  ["::ffff:0:7f00:1", "IPv4-translated ::ffff:0:0:0/96 (SIIT)"],
  ["::7f00:1", "IPv4-compatible (deprecated)"],
  ["::1", "loopback"],
  ["::", "unspecified"],
  ["100::1", "discard-only 100::/64"],
  ["fd00::1", "unique local"],
  ["fe80::1", "link-local"],
  ["ff02::1", "multicast"],
  ["2001::1", "Teredo (2001::/23 IETF protocol assignments)"],
  ["2001:2::1", "benchmarking"],
  ["2001:db8::1", "documentation"],
  ["3fff::1", "documentation (RFC 9637)"],
  ["2002:7f00:1::1", "6to4 of loopback"],
  ["5f00::1", "outside global unicast"],
];
/** Addresses on the Internet, in the same forms. */
const ALLOWED: readonly (readonly [address: string, why: string])[] = [
  ["::ffff:8.8.8.8", "IPv4-mapped public"],
  ["::ffff:808:808", "IPv4-mapped public (hex)"],
  ["64:ff9b::8.8.8.8", "NAT64 well-known prefix, public"],
  ["64:ff9b::808:808", "NAT64 well-known prefix, public (hex)"],
  ["2002:808:808::1", "6to4 of a public address"],
  ["2606:4700:4700::1111", "global unicast"],
  ["2a00:1450:4001:80b::200e", "global unicast"],
];

const asUrl = (address: string) => `http://[${address}]/hook`;

describe("isBlockedAddress and checkWebhookUrl", () => {
  it.each(BLOCKED)(
    "refuses %s (%s) as an address, as a URL's host and as a DNS answer",
    async (address) => {
      expect(isBlockedAddress(address)).toBe(true);
      const literal = await checkWebhookUrl(asUrl(address)).catch((e: unknown) => e);
      expect(literal).toBeInstanceOf(WebhookUrlError);
      expect((literal as WebhookUrlError).code).toBe("blocked-address");
      const resolved = await checkWebhookUrl("https://hooks.example.com/x", {
        resolveHost: async () => [{ address, family: 6 }],
      }).catch((e: unknown) => e);
      expect(resolved).toBeInstanceOf(WebhookUrlError);
      expect((resolved as WebhookUrlError).code).toBe("blocked-address");
    },
  );

  it.each(ALLOWED)(
    "accepts %s (%s) as an address, as a URL's host and as a DNS answer",
    async (address) => {
      expect(isBlockedAddress(address)).toBe(false);
      await expect(checkWebhookUrl(asUrl(address))).resolves.toBeInstanceOf(URL);
      await expect(
        checkWebhookUrl("https://hooks.example.com/x", {
          resolveHost: async () => [{ address, family: 6 }],
        }),
      ).resolves.toBeInstanceOf(URL);
    },
  );
});

/** A task handler whose tasks wait for input, with a push sender whose DNS answers the test sets. */
function setup() {
  const store = new InMemoryTaskStore();
  const dns: Record<string, string> = {};
  const failures: PushDeliveryFailure[] = [];
  let requests = 0;
  const push = createPushNotificationSender({
    store,
    schemas: { StreamResponse: StreamResponseSchema },
    resolveHost: async (host): Promise<ResolvedAddress[]> => {
      const address = dns[host];
      if (address === undefined) throw new Error(`ENOTFOUND ${host}`);
      return [{ address, family: address.includes(":") ? 6 : 4 }];
    },
    fetch: async () => {
      requests++;
      return new Response(null, { status: 204 });
    },
    maxRetries: 0,
    onDeliveryError: (f) => failures.push(f),
  });
  const handler = createA2ATaskHandler({
    store,
    capabilities: { pushNotifications: true },
    onTaskEvent: push.onTaskEvent,
    executor: {
      async execute(_context, emitter) {
        await emitter.requireInput("more?");
      },
    },
  });
  return { handler, push, dns, failures, requests: () => requests };
}
type Setup = ReturnType<typeof setup>;

async function newTask(handler: Setup["handler"]): Promise<string> {
  const task = taskOf(await handler.sendMessage(sendRequest("hi"), callOf("SendMessage")));
  expect(task.status?.state).toBe(TaskState.INPUT_REQUIRED);
  return task.id;
}
const errorOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e,
  );
const configsOf = async (handler: Setup["handler"], taskId: string) =>
  (
    await handler.listTaskPushNotificationConfigs(
      create(ListTaskPushNotificationConfigsRequestSchema, { taskId }),
      callOf("ListTaskPushNotificationConfigs"),
    )
  ).configs;

describe("at creation: the task handler refuses them with InvalidParams naming the field", () => {
  it.each(BLOCKED)(
    "CreateTaskPushNotificationConfig refuses http://[%s]/ (%s) and stores nothing",
    async (address) => {
      const { handler } = setup();
      const taskId = await newTask(handler);
      const error = await errorOf(
        handler.createTaskPushNotificationConfig(
          create(TaskPushNotificationConfigSchema, { taskId, url: asUrl(address) }),
          callOf("CreateTaskPushNotificationConfig"),
        ),
      );
      expect(error).toBeInstanceOf(A2AError);
      expect((error as A2AError).spec.name).toBe("InvalidParamsError");
      expect((error as A2AError).message).toMatch(/^url is not allowed: /);
      expect(await configsOf(handler, taskId)).toEqual([]);
    },
  );

  it.each(BLOCKED)(
    "SendMessage refuses configuration.taskPushNotificationConfig.url http://[%s]/ (%s) before creating a task",
    async (address) => {
      const { handler } = setup();
      const request = sendRequest(
        "hi",
        {},
        {
          taskPushNotificationConfig: create(TaskPushNotificationConfigSchema, {
            url: asUrl(address),
          }),
        },
      );
      const error = await errorOf(handler.sendMessage(request, callOf("SendMessage")));
      expect((error as A2AError).spec.name).toBe("InvalidParamsError");
      expect((error as A2AError).message).toMatch(
        /^configuration\.taskPushNotificationConfig\.url is not allowed: /,
      );
      expect(handler.liveTasks).toBe(0);
    },
  );

  it("a host name resolving to one of them is refused the same way", async () => {
    const { handler, dns } = setup();
    dns["hooks.example.com"] = "64:ff9b:1::7f00:1";
    const taskId = await newTask(handler);
    const error = await errorOf(
      handler.createTaskPushNotificationConfig(
        create(TaskPushNotificationConfigSchema, { taskId, url: "https://hooks.example.com/x" }),
        callOf("CreateTaskPushNotificationConfig"),
      ),
    );
    expect((error as A2AError).message).toMatch(
      /^url is not allowed: Webhook host hooks\.example\.com resolves to 64:ff9b:1::7f00:1/,
    );
  });
});

describe("at delivery: a host whose DNS answer became one of them is not sent to", () => {
  it.each(BLOCKED)("DNS answer %s (%s): refused, no request made", async (address) => {
    const { handler, push, dns, failures, requests } = setup();
    dns["hooks.example.com"] = "2606:4700:4700::1111";
    const taskId = await newTask(handler);
    await handler.createTaskPushNotificationConfig(
      create(TaskPushNotificationConfigSchema, { taskId, url: "https://hooks.example.com/x" }),
      callOf("CreateTaskPushNotificationConfig"),
    );
    dns["hooks.example.com"] = address;
    // The next turn of the task is an event for the webhook.
    await handler.sendMessage(sendRequest("again", { taskId }), callOf("SendMessage"));
    await push.close();
    expect(requests()).toBe(0);
    expect(failures.map((f) => [f.reason, f.url])).toContainEqual([
      "refused",
      "https://hooks.example.com/x",
    ]);
    expect(
      String((failures.find((f) => f.reason === "refused")?.error as Error | undefined)?.message),
    ).toContain(`resolves to ${address}`);
  });

  it("control: with a public DNS answer the same event is delivered", async () => {
    const { handler, push, dns, failures, requests } = setup();
    dns["hooks.example.com"] = "2606:4700:4700::1111";
    const taskId = await newTask(handler);
    await handler.createTaskPushNotificationConfig(
      create(TaskPushNotificationConfigSchema, { taskId, url: "https://hooks.example.com/x" }),
      callOf("CreateTaskPushNotificationConfig"),
    );
    await handler.sendMessage(sendRequest("again", { taskId }), callOf("SendMessage"));
    await push.close();
    expect(failures).toEqual([]);
    expect(requests()).toBeGreaterThan(0);
  });
});

describe("the example agent over JSON-RPC (real socket)", () => {
  let agent: ExampleAgent;
  beforeAll(async () => {
    agent = await startExampleAgent();
  });
  afterAll(async () => {
    await agent.close();
  });
  const rpc = async (method: string, params: unknown) => {
    const response = await fetch(agent.endpoints.jsonrpc, {
      method: "POST",
      headers: { "content-type": "application/json", "a2a-version": "1.0" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    return (await response.json()) as {
      result?: { task?: { id: string } };
      error?: { code: number; message: string };
    };
  };

  it.each([
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:7f00:1]/",
    "http://[64:ff9b::7f00:1]/",
    "http://[64:ff9b:1::7f00:1]/",
    "http://[::ffff:0:7f00:1]/",
  ])("CreateTaskPushNotificationConfig and SendMessage refuse %s with -32602", async (url) => {
    const sent = await rpc("SendMessage", {
      message: {
        messageId: crypto.randomUUID(),
        role: "ROLE_USER",
        parts: [{ text: "tck-input-required" }],
      },
    });
    const taskId = sent.result?.task?.id;
    expect(taskId).toBeTypeOf("string");
    const created = await rpc("CreateTaskPushNotificationConfig", { taskId, url });
    expect(created.error?.code).toBe(-32602);
    expect(created.error?.message).toMatch(/^url is not allowed: /);
    const withConfig = await rpc("SendMessage", {
      message: {
        messageId: crypto.randomUUID(),
        role: "ROLE_USER",
        parts: [{ text: "tck-input-required" }],
      },
      configuration: { taskPushNotificationConfig: { url } },
    });
    expect(withConfig.error?.code).toBe(-32602);
    expect(withConfig.error?.message).toMatch(
      /^configuration\.taskPushNotificationConfig\.url is not allowed: /,
    );
  });
});
