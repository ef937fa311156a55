import {
  createServer,
  type IncomingHttpHeaders,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { create, fromJsonString, toJson } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  StreamResponseSchema,
  TaskPushNotificationConfigSchema,
  TaskState,
  type StreamResponse,
} from "../../../generated-example/gen/a2a_pb.js";
import { InMemoryTaskStore, type TaskStore } from "@protoc-gen-a2a/runtime/task";
import {
  checkWebhookUrl,
  createPushNotificationSender,
  isBlockedAddress,
  WebhookUrlError,
  type PushDeliveryFailure,
  type PushDeliverySuccess,
  type PushSenderOptions,
  type ResolvedAddress,
} from "@protoc-gen-a2a/runtime/task";
import { InvalidParamsError } from "../../../generated-example/gen/a2a_a2a_errors.js";
import { ListTasksRequestSchema } from "../../../generated-example/gen/a2a_pb.js";
import { A2AServiceResponseJsonWriters } from "../../../generated-example/gen/a2a_a2a_json.js";
import type { JsonTextWriterTable } from "@protoc-gen-a2a/runtime";
import {
  Gate,
  callOf,
  createA2ATaskHandler,
  describeEvent,
  sendRequest,
  taskOf,
  until,
  type A2AExecutor,
} from "../../support/task-runtime-binding.js";

// ---------------------------------------------------------------------------------------------
// A real webhook receiver on 127.0.0.1.

interface Received {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

type Responder = (res: ServerResponse) => void;

const received: Received[] = [];
/** Scripted answers per path, used in order; the default is 200. */
const script = new Map<string, Responder[]>();
let server: Server;
let base = "";

const status =
  (code: number, headers: Record<string, string> = {}): Responder =>
  (res) => {
    res.writeHead(code, headers);
    res.end();
  };
/** Never answers (for timeouts). */
const hang: Responder = () => {};

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = req.url ?? "";
      received.push({
        method: req.method ?? "",
        path,
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      const next = script.get(path)?.shift();
      (next ?? status(200))(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

let pathCounter = 0;
/** A fresh path on the receiver, with scripted answers. */
function hook(...answers: Responder[]): string {
  const path = `/hook-${++pathCounter}`;
  script.set(path, answers);
  return path;
}
const at = (path: string) => received.filter((r) => r.path === path);

// ---------------------------------------------------------------------------------------------
// Sender helpers.

const scope = { tenant: "", owner: "" };

function statusEvent(taskId: string, state: TaskState, text = ""): StreamResponse {
  return create(StreamResponseSchema, {
    payload: {
      case: "statusUpdate",
      value: {
        taskId,
        contextId: "ctx-1",
        status: {
          state,
          ...(text === ""
            ? {}
            : {
                message: {
                  messageId: `m-${text}`,
                  role: 2,
                  parts: [{ content: { case: "text", value: text } }],
                },
              }),
        },
      },
    },
  });
}

/** A sender with recorded outcomes and recorded (instant) sleeps. */
function harness(overrides: Partial<PushSenderOptions> = {}) {
  const store = new InMemoryTaskStore();
  const failures: PushDeliveryFailure[] = [];
  const successes: PushDeliverySuccess[] = [];
  const sleeps: number[] = [];
  const sender = createPushNotificationSender({
    store,
    schemas: { StreamResponse: StreamResponseSchema },
    allowHosts: ["127.0.0.1"],
    onDeliveryError: (f) => failures.push(f),
    onDelivered: (s) => successes.push(s),
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    ...overrides,
  });
  const addConfig = (
    taskId: string,
    url: string,
    extra: Partial<{
      id: string;
      authentication: { scheme: string; credentials: string };
      token: string;
    }> = {},
  ) =>
    store.savePushConfig(
      scope,
      create(TaskPushNotificationConfigSchema, {
        taskId,
        id: extra.id ?? `cfg-${url}`,
        url,
        ...extra,
      }),
    );
  const notify = (taskId: string, event: StreamResponse, state = TaskState.WORKING) =>
    sender.onTaskEvent({ scope, taskId, contextId: "ctx-1", state, event });
  return { store, sender, failures, successes, sleeps, addConfig, notify };
}

// ---------------------------------------------------------------------------------------------

describe("push notification delivery", () => {
  it("POSTs every event of a task, in order, as ProtoJSON StreamResponse with the A2A headers", async () => {
    const h = harness();
    const path = hook();
    await h.addConfig("t-1", base + path, {
      authentication: { scheme: "Bearer", credentials: "s3cret" },
    });
    const events = [
      statusEvent("t-1", TaskState.WORKING, "one"),
      statusEvent("t-1", TaskState.WORKING, "two"),
      statusEvent("t-1", TaskState.WORKING, "three"),
      statusEvent("t-1", TaskState.INPUT_REQUIRED, "four"),
      statusEvent("t-1", TaskState.COMPLETED, "five"),
    ];
    for (const e of events) h.notify("t-1", e);
    expect(await h.sender.close()).toBe(true);

    const got = at(path);
    expect(got.map((r) => JSON.parse(r.body))).toEqual(
      events.map((e) => toJson(StreamResponseSchema, e)),
    );
    expect(got.map((r) => JSON.parse(r.body).statusUpdate.status.message.parts[0].text)).toEqual([
      "one",
      "two",
      "three",
      "four",
      "five",
    ]);
    for (const r of got) {
      expect(r.method).toBe("POST");
      expect(r.headers["content-type"]).toBe("application/a2a+json");
      expect(r.headers["authorization"]).toBe("Bearer s3cret");
      expect(r.headers["a2a-version"]).toBe("1.0");
    }
    expect(h.failures).toEqual([]);
    expect(h.successes).toHaveLength(5);
  });

  it("writes the bodies with the generated writers when given them (the servers' text, no reflection), and with reflection otherwise", async () => {
    const events = [
      statusEvent("t-w", TaskState.WORKING, "one"),
      statusEvent("t-w", TaskState.COMPLETED, "two"),
      create(StreamResponseSchema, {
        payload: {
          case: "artifactUpdate",
          value: {
            taskId: "t-w",
            contextId: "ctx-1",
            artifact: {
              artifactId: "a",
              parts: [{ content: { case: "text", value: 'é \u2028 "quoted"' } }],
            },
            metadata: { n: 1, list: [true, null] },
          },
        },
      }),
    ];
    let written = 0;
    const write = A2AServiceResponseJsonWriters[StreamResponseSchema.typeName];
    if (write === undefined) throw new Error("no generated writer of StreamResponse");
    const counted: JsonTextWriterTable = {
      [StreamResponseSchema.typeName]: (m, r) => {
        written++;
        return write(m, r);
      },
    };
    const withWriters = harness({ writers: counted });
    const plain = harness();
    // jsonOptions beyond a registry: the writers do not apply.
    const protoNames = harness({ writers: counted, jsonOptions: { useProtoFieldName: true } });
    const paths = [hook(), hook(), hook()];
    for (const [i, h] of [withWriters, plain, protoNames].entries()) {
      await h.addConfig("t-w", base + paths[i]);
      for (const e of events) h.notify("t-w", e);
      expect(await h.sender.close()).toBe(true);
    }
    expect(written).toBe(events.length);
    const [byWriter, byReflection, byProtoNames] = paths.map((p) => at(p).map((r) => r.body));
    // The servers' text: what the generated writer answers, and the same JSON as reflection's.
    expect(byWriter).toEqual(events.map((e) => write(e)));
    expect(byWriter?.map((b) => JSON.parse(b))).toEqual(byReflection?.map((b) => JSON.parse(b)));
    expect(byReflection).toEqual(
      events.map((e) => JSON.stringify(toJson(StreamResponseSchema, e))),
    );
    expect(byProtoNames).toEqual(
      events.map((e) =>
        JSON.stringify(toJson(StreamResponseSchema, e, { useProtoFieldName: true })),
      ),
    );
  });

  it("sends no Authorization header without authentication, and the token only when asked to", async () => {
    const h = harness({ tokenHeader: "X-A2A-Notification-Token" });
    const path = hook();
    await h.addConfig("t-tok", base + path, { token: "tok-1" });
    h.notify("t-tok", statusEvent("t-tok", TaskState.WORKING));
    await h.sender.close();
    expect(at(path)[0]?.headers["authorization"]).toBeUndefined();
    expect(at(path)[0]?.headers["x-a2a-notification-token"]).toBe("tok-1");
  });

  it("delivers to every config of the task, across store pages, and nothing for tasks without configs", async () => {
    const h = harness();
    const paths = [hook(), hook(), hook()];
    for (const [i, p] of paths.entries()) await h.addConfig("t-multi", base + p, { id: `c${i}` });
    const store = h.store;
    // A store that pages one config at a time.
    const paged = createPushNotificationSender({
      store: {
        getTask: (s, t) => store.getTask(s, t),
        saveTask: (s, t) => store.saveTask(s, t),
        listTasks: (s, q) => store.listTasks(s, q),
        getPushConfig: (s, t, c) => store.getPushConfig(s, t, c),
        savePushConfig: (s, c) => store.savePushConfig(s, c),
        deletePushConfig: (s, t, c) => store.deletePushConfig(s, t, c),
        listPushConfigs: (s, t, q) => store.listPushConfigs(s, t, { ...q, pageSize: 1 }),
      } satisfies TaskStore,
      schemas: { StreamResponse: StreamResponseSchema },
      allowHosts: ["127.0.0.1"],
    });
    paged.onTaskEvent({
      scope,
      taskId: "t-multi",
      contextId: "ctx-1",
      state: TaskState.WORKING,
      event: statusEvent("t-multi", TaskState.WORKING),
    });
    paged.onTaskEvent({
      scope,
      taskId: "t-none",
      contextId: "ctx-1",
      state: TaskState.WORKING,
      event: statusEvent("t-none", TaskState.WORKING),
    });
    expect(await paged.close()).toBe(true);
    expect(paths.map((p) => at(p).length)).toEqual([1, 1, 1]);
  });

  it("retries on 500 and then delivers", async () => {
    const h = harness();
    const path = hook(status(500), status(502), status(200));
    await h.addConfig("t-2", base + path);
    h.notify("t-2", statusEvent("t-2", TaskState.WORKING));
    await h.sender.close();
    expect(at(path)).toHaveLength(3);
    expect(h.failures).toEqual([]);
    expect(h.successes.map((s) => [s.status, s.attempts])).toEqual([[200, 3]]);
    // Exponential backoff with (fixed) jitter: 500·2^0 and 500·2^1, each 3/4 of the step at random()=0.5.
    expect(h.sleeps).toEqual([375, 750]);
  });

  it("does not retry a 400, nor follow a redirect", async () => {
    const h = harness();
    const bad = hook(status(400));
    const redirect = hook(status(302, { Location: "http://169.254.169.254/latest/meta-data" }));
    await h.addConfig("t-3", base + bad);
    await h.addConfig("t-3r", base + redirect);
    h.notify("t-3", statusEvent("t-3", TaskState.WORKING));
    h.notify("t-3r", statusEvent("t-3r", TaskState.WORKING));
    await h.sender.close();
    expect(at(bad)).toHaveLength(1);
    expect(at(redirect)).toHaveLength(1);
    expect(h.failures.map((f) => [f.taskId, f.reason, f.status, f.attempts]).sort()).toEqual([
      ["t-3", "http-status", 400, 1],
      ["t-3r", "http-status", 302, 1],
    ]);
    expect(h.sleeps).toEqual([]);
  });

  it("honours Retry-After (seconds and dates), capped", async () => {
    const h = harness({ maxRetryAfterMs: 60_000, now: () => Date.parse("2026-01-01T00:00:00Z") });
    const path = hook(
      status(503, { "Retry-After": "7" }),
      status(429, { "Retry-After": "3600" }),
      status(503, { "Retry-After": "Thu, 01 Jan 2026 00:00:02 GMT" }),
      status(200),
    );
    await h.addConfig("t-4", base + path);
    h.notify("t-4", statusEvent("t-4", TaskState.WORKING));
    await h.sender.close();
    expect(at(path)).toHaveLength(4);
    expect(h.sleeps).toEqual([7_000, 60_000, 2_000]);
    expect(h.successes).toHaveLength(1);
  });

  it("gives up after maxRetries: exactly maxRetries + 1 attempts, then reports", async () => {
    const h = harness({ maxRetries: 2 });
    const path = hook(status(500), status(500), status(500), status(500), status(500));
    await h.addConfig("t-5", base + path);
    h.notify("t-5", statusEvent("t-5", TaskState.WORKING));
    await h.sender.close();
    expect(at(path)).toHaveLength(3);
    expect(h.failures.map((f) => [f.reason, f.status, f.attempts, f.url])).toEqual([
      ["http-status", 500, 3, base + path],
    ]);
    expect(h.failures[0]?.event.payload.case).toBe("statusUpdate");
  });

  it("keeps the order of events while a delivery is being retried", async () => {
    const h = harness();
    const path = hook(status(500), status(500));
    await h.addConfig("t-order", base + path);
    for (const text of ["a", "b", "c"])
      h.notify("t-order", statusEvent("t-order", TaskState.WORKING, text));
    await h.sender.close();
    expect(
      at(path).map((r) => JSON.parse(r.body).statusUpdate.status.message.parts[0].text),
    ).toEqual(["a", "a", "a", "b", "c"]);
  });

  it("times an attempt out, and retries it", async () => {
    const h = harness({ timeoutMs: 50, maxRetries: 1 });
    const path = hook(hang, hang);
    await h.addConfig("t-6", base + path);
    h.notify("t-6", statusEvent("t-6", TaskState.WORKING));
    await h.sender.close();
    expect(at(path)).toHaveLength(2);
    expect(h.failures.map((f) => [f.reason, f.attempts])).toEqual([["timeout", 2]]);
  });

  it("retries network errors, bounded", async () => {
    let calls = 0;
    const h = harness({
      maxRetries: 3,
      fetch: async () => {
        calls++;
        throw new TypeError("fetch failed");
      },
    });
    await h.addConfig("t-7", "http://127.0.0.1:9/hook");
    h.notify("t-7", statusEvent("t-7", TaskState.WORKING));
    await h.sender.close();
    expect(calls).toBe(4);
    expect(h.failures.map((f) => [f.reason, f.attempts])).toEqual([["network", 4]]);
  });

  it("caps concurrent deliveries over all tasks", async () => {
    let inFlight = 0;
    let peak = 0;
    const gate = new Gate();
    const h = harness({
      concurrency: 2,
      fetch: async () => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await gate.promise;
        inFlight--;
        return new Response(null, { status: 204 });
      },
    });
    for (let i = 0; i < 6; i++) {
      await h.addConfig(`t-c${i}`, `http://127.0.0.1:9/c${i}`);
      h.notify(`t-c${i}`, statusEvent(`t-c${i}`, TaskState.WORKING));
    }
    await until(() => inFlight === 2);
    gate.open();
    await h.sender.close();
    expect(peak).toBe(2);
    expect(h.successes).toHaveLength(6);
  });

  it("close() is bounded: it aborts what is still running and reports it", async () => {
    const h = harness({
      timeoutMs: 60_000,
      closeTimeoutMs: 20,
      sleep: (ms, signal) =>
        new Promise((r) => {
          if (signal.aborted) return r();
          setTimeout(r, ms);
          signal.addEventListener("abort", () => r());
        }),
    });
    const path = hook(hang);
    await h.addConfig("t-8", base + path);
    h.notify("t-8", statusEvent("t-8", TaskState.WORKING));
    await until(() => at(path).length === 1);
    expect(await h.sender.close()).toBe(false);
    expect(h.sender.pending).toBe(0);
    expect(h.failures.map((f) => f.reason)).toEqual(["closed"]);
    // Events after close are ignored.
    h.notify("t-8", statusEvent("t-8", TaskState.WORKING));
    expect(h.sender.pending).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------

describe("SSRF guard", () => {
  const resolverOf =
    (table: Record<string, string[]>) =>
    async (host: string): Promise<ResolvedAddress[]> => {
      const addresses = table[host];
      if (addresses === undefined) throw new Error(`ENOTFOUND ${host}`);
      return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
    };

  const blocked = [
    "127.0.0.1",
    "127.5.6.7",
    "10.1.2.3",
    "172.20.0.1",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "255.255.255.255",
    "::1",
    "::",
    "fe80::1",
    "fe80::1%eth0",
    "fc00::1",
    "fd12:3456::1",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:10.0.0.1",
    "::ffff:169.254.169.254",
    "64:ff9b::a9fe:a9fe",
    "2002:c0a8:0101::1",
  ];
  it.each(blocked)("refuses a host resolving to %s", async (address) => {
    expect(isBlockedAddress(address)).toBe(true);
    const err = await checkWebhookUrl("https://hooks.example.com/x", {
      resolveHost: resolverOf({ "hooks.example.com": [address] }),
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WebhookUrlError);
    expect((err as WebhookUrlError).code).toBe("blocked-address");
  });

  it.each([
    "93.184.216.34",
    "8.8.8.8",
    "172.32.0.1",
    "100.128.0.1",
    "2606:4700:4700::1111",
    "::ffff:8.8.8.8",
  ])("accepts a public address %s", async (address) => {
    expect(isBlockedAddress(address)).toBe(false);
    const url = await checkWebhookUrl("https://hooks.example.com/x", {
      resolveHost: resolverOf({ "hooks.example.com": [address] }),
    });
    expect(url.hostname).toBe("hooks.example.com");
  });

  it("refuses a host when ANY of its addresses is private", async () => {
    const err = await checkWebhookUrl("https://mixed.example.com/x", {
      resolveHost: resolverOf({ "mixed.example.com": ["93.184.216.34", "10.0.0.5"] }),
    }).catch((e: unknown) => e);
    expect((err as WebhookUrlError).code).toBe("blocked-address");
  });

  it("refuses IP literals and localhost without resolving them", async () => {
    const resolveHost = async (): Promise<ResolvedAddress[]> => {
      throw new Error("must not resolve");
    };
    for (const url of [
      "http://127.0.0.1:8080/",
      "http://[::1]/",
      "http://169.254.169.254/latest/meta-data",
      "http://0x7f000001/",
      "http://[::ffff:127.0.0.1]/",
      "http://0.0.0.0/",
      "http://localhost/",
      "http://api.localhost/",
    ]) {
      const err = await checkWebhookUrl(url, { resolveHost }).catch((e: unknown) => e);
      expect(err, url).toBeInstanceOf(WebhookUrlError);
      expect(["blocked-address", "blocked-host"], url).toContain((err as WebhookUrlError).code);
    }
  });

  it("refuses non-http schemes, credentials in the URL, relative URLs, and http when https is required", async () => {
    const allow = { allowPrivateNetworks: true };
    for (const url of [
      "ftp://hooks.example.com/x",
      "file:///etc/passwd",
      "javascript:alert(1)",
      "data:text/plain,hi",
      "ws://hooks.example.com/",
      "gopher://x/",
    ]) {
      expect(
        ((await checkWebhookUrl(url, allow).catch((e: unknown) => e)) as WebhookUrlError).code,
        url,
      ).toBe("scheme");
    }
    expect(
      (
        (await checkWebhookUrl("https://user:pass@hooks.example.com/", allow).catch(
          (e: unknown) => e,
        )) as WebhookUrlError
      ).code,
    ).toBe("credentials");
    expect(
      ((await checkWebhookUrl("/relative", allow).catch((e: unknown) => e)) as WebhookUrlError)
        .code,
    ).toBe("invalid-url");
    expect(
      (
        (await checkWebhookUrl("http://hooks.example.com/", { ...allow, requireHttps: true }).catch(
          (e: unknown) => e,
        )) as WebhookUrlError
      ).code,
    ).toBe("scheme");
  });

  it("lets allowHosts and allowPrivateNetworks through", async () => {
    await expect(
      checkWebhookUrl("http://127.0.0.1:1234/x", { allowHosts: ["127.0.0.1"] }),
    ).resolves.toBeInstanceOf(URL);
    await expect(
      checkWebhookUrl("http://[::1]:1234/x", { allowHosts: ["[::1]"] }),
    ).resolves.toBeInstanceOf(URL);
    await expect(
      checkWebhookUrl("http://10.0.0.1/x", { allowPrivateNetworks: true }),
    ).resolves.toBeInstanceOf(URL);
    await expect(
      checkWebhookUrl("http://10.0.0.1/x", { allowHosts: ["127.0.0.1"] }),
    ).rejects.toBeInstanceOf(WebhookUrlError);
  });

  it("the sender refuses blocked webhooks without any request, and reports them", async () => {
    let calls = 0;
    const h = harness({
      allowHosts: [],
      resolveHost: resolverOf({
        "internal.example.com": ["10.0.0.7"],
        "mixed.example.com": ["8.8.8.8", "192.168.0.1"],
      }),
      fetch: async () => {
        calls++;
        return new Response(null, { status: 200 });
      },
    });
    for (const url of [
      "http://internal.example.com/h",
      "http://mixed.example.com/h",
      "http://169.254.169.254/",
      "ftp://8.8.8.8/",
      "http://u:p@8.8.8.8/",
      "http://nowhere.example.com/",
    ]) {
      await h.addConfig("t-ssrf", url);
    }
    h.notify("t-ssrf", statusEvent("t-ssrf", TaskState.WORKING));
    await h.sender.close();
    expect(calls).toBe(0);
    // Different URLs are different queues: compare as sets.
    expect(
      h.failures.map((f) => [f.url, f.reason, (f.error as WebhookUrlError).code]).sort(),
    ).toEqual(
      [
        ["http://internal.example.com/h", "refused", "blocked-address"],
        ["http://mixed.example.com/h", "refused", "blocked-address"],
        ["http://169.254.169.254/", "refused", "blocked-address"],
        ["ftp://8.8.8.8/", "refused", "scheme"],
        ["http://u:p@8.8.8.8/", "refused", "credentials"],
        ["http://nowhere.example.com/", "refused", "unresolvable"],
      ].sort(),
    );
  });

  it("checks shorthand IP literals without any resolver (the URL parser normalizes them)", async () => {
    const err = await checkWebhookUrl("http://127.1/x").catch((e: unknown) => e);
    expect((err as WebhookUrlError).code).toBe("blocked-address");
  });
});

// ---------------------------------------------------------------------------------------------

describe("push notifications end to end with the generated task handler", () => {
  it("a push config sent with SendMessage receives the Task, then its status updates", async () => {
    const store = new InMemoryTaskStore();
    const push = createPushNotificationSender({
      store,
      schemas: { StreamResponse: StreamResponseSchema },
      allowHosts: ["127.0.0.1"],
    });
    const executor: A2AExecutor = {
      async execute(_context, emitter) {
        await emitter.working("on it");
        await emitter.complete("done");
      },
    };
    const handler = createA2ATaskHandler({
      executor,
      store,
      capabilities: { pushNotifications: true },
      onTaskEvent: push.onTaskEvent,
    });
    const path = hook();
    const response = await handler.sendMessage(
      sendRequest(
        "go",
        {},
        {
          taskPushNotificationConfig: create(TaskPushNotificationConfigSchema, {
            url: base + path,
            authentication: { scheme: "Bearer", credentials: "abc" },
          }),
        },
      ),
      callOf("SendMessage"),
    );
    const task = taskOf(response);
    await until(() => at(path).length === 3);
    expect(await push.close()).toBe(true);
    const bodies = at(path).map(
      (r) => JSON.parse(r.body) as Record<string, { id?: string; taskId?: string }>,
    );
    expect(bodies.map((b) => Object.keys(b))).toEqual([
      ["task"],
      ["statusUpdate"],
      ["statusUpdate"],
    ]);
    expect(bodies[0]?.task?.id).toBe(task.id);
    expect(bodies.slice(1).map((b) => b.statusUpdate?.taskId)).toEqual([task.id, task.id]);
    const events = at(path).map((r) => describeEvent(fromBody(r.body)));
    expect(events).toEqual(["task:SUBMITTED", "status:WORKING:on it", "status:COMPLETED:done"]);
    expect(at(path).every((r) => r.headers["authorization"] === "Bearer abc")).toBe(true);
  });

  it("a push config created through CreateTaskPushNotificationConfig receives the later updates", async () => {
    const store = new InMemoryTaskStore();
    const push = createPushNotificationSender({
      store,
      schemas: { StreamResponse: StreamResponseSchema },
      allowHosts: ["127.0.0.1"],
    });
    const gate = new Gate();
    const executor: A2AExecutor = {
      async execute(_context, emitter) {
        await emitter.working("waiting");
        await gate.promise;
        await emitter.addArtifact({
          artifactId: "a-1",
          name: "answer",
          parts: [{ content: { case: "text", value: "42" } }],
        });
        await emitter.complete("done");
      },
    };
    const handler = createA2ATaskHandler({
      executor,
      store,
      capabilities: { pushNotifications: true },
      onTaskEvent: push.onTaskEvent,
    });
    const task = taskOf(
      await handler.sendMessage(
        sendRequest("go", {}, { returnImmediately: true }),
        callOf("SendMessage"),
      ),
    );
    const path = hook();
    await handler.createTaskPushNotificationConfig(
      create(TaskPushNotificationConfigSchema, { taskId: task.id, url: base + path }),
      callOf("CreateTaskPushNotificationConfig"),
    );
    gate.open();
    await until(() => at(path).some((r) => r.body.includes("TASK_STATE_COMPLETED")));
    expect(await push.close()).toBe(true);
    const events = at(path).map((r) => describeEvent(fromBody(r.body)));
    // The WORKING update may or may not have been stored before the config; what follows the config is delivered in order.
    expect(events.slice(-2)).toEqual(["artifact:a-1", "status:COMPLETED:done"]);
  });
});

function fromBody(body: string): StreamResponse {
  return fromJsonString(StreamResponseSchema, body);
}

describe("checkPushUrl: refusing webhook URLs when a config is created", () => {
  const executor: A2AExecutor = {
    async execute(_request, emitter) {
      await emitter.complete();
    },
  };
  const resolveHost = async (host: string) => [
    { address: host === "evil.example" ? "169.254.169.254" : "93.184.216.34", family: 4 },
  ];
  const handler = createA2ATaskHandler({
    executor,
    capabilities: { pushNotifications: true },
    checkPushUrl: (url) => checkWebhookUrl(url, { resolveHost }),
  });

  it("CreateTaskPushNotificationConfig refuses a metadata address with InvalidParams naming url", async () => {
    const done = await handler.sendMessage(sendRequest("go"), callOf("SendMessage"));
    const taskId = taskOf(done).id;
    const err = await handler
      .createTaskPushNotificationConfig(
        create(TaskPushNotificationConfigSchema, { taskId, url: "http://evil.example/hook" }),
        callOf("CreateTaskPushNotificationConfig"),
      )
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidParamsError);
    expect((err as InvalidParamsError).fieldViolations[0]?.field).toBe("url");
    const ok = await handler.createTaskPushNotificationConfig(
      create(TaskPushNotificationConfigSchema, { taskId, url: "https://good.example/hook" }),
      callOf("CreateTaskPushNotificationConfig"),
    );
    expect(ok.url).toBe("https://good.example/hook");
  });

  it("SendMessage with a refused config fails before any task exists", async () => {
    const count = async () =>
      (await handler.listTasks(create(ListTasksRequestSchema, {}), callOf("ListTasks"))).totalSize;
    const before = await count();
    const request = sendRequest(
      "go",
      {},
      {
        taskPushNotificationConfig: create(TaskPushNotificationConfigSchema, {
          url: "http://127.0.0.1:9/hook",
        }),
      },
    );
    const err = await handler.sendMessage(request, callOf("SendMessage")).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidParamsError);
    expect((err as InvalidParamsError).fieldViolations[0]?.field).toBe(
      "configuration.taskPushNotificationConfig.url",
    );
    expect(await count()).toBe(before);
  });
});
