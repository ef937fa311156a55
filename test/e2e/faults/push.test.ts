/**
 * Webhook receivers that misbehave (issue #17), against the push sender (runtime/src/task/push/sender.ts)
 * over real sockets on 127.0.0.1: receivers that accept and never answer, and receivers that answer 500.
 * Proves that:
 *   - attempts are bounded (maxRetries + 1, each cut off by timeoutMs), the failure is reported exactly
 *     once per event with the right reason, and nothing stays pending or connected afterwards;
 *   - a hanging receiver cannot starve the others: with more hanging deliveries than the global cap,
 *     a healthy receiver is still delivered to at once (the per-host cap);
 *   - a hanging webhook does not pile events up: past maxQueuedPerWebhook they are reported as
 *     `overflow` without being queued, and close() is bounded;
 *   - end to end through the task runtime: a task whose webhook answers 500 completes normally for its
 *     client, and the failures are reported once per event.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { create } from "@bufbuild/protobuf";
import { afterEach, describe, expect, it } from "vitest";
import {
  StreamResponseSchema,
  TaskPushNotificationConfigSchema,
  TaskState,
  type StreamResponse,
} from "../../../generated-example/gen/a2a_pb.js";
import {
  createPushNotificationSender,
  InMemoryTaskStore,
  type PushDeliveryFailure,
  type PushDeliverySuccess,
  type PushSenderOptions,
} from "@protoc-gen-a2a/runtime/task";
import {
  callOf,
  createA2ATaskHandler,
  sendRequest,
  taskOf,
} from "../../support/task-runtime-binding.js";
import { eventually } from "../../support/servers.js";

/** A webhook receiver: `answer` decides per request (or never answers); counts requests and open sockets. */
class Receiver {
  readonly requests: string[] = [];
  readonly sockets = new Set<Socket>();
  #server: Server | undefined;
  url = "";

  constructor(readonly answer: ((req: IncomingMessage, res: ServerResponse) => void) | "hang") {}

  async start(): Promise<this> {
    const server = (this.#server = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        this.requests.push(req.url ?? "");
        if (this.answer !== "hang") this.answer(req, res);
      });
    }));
    server.on("connection", (s) => {
      this.sockets.add(s);
      s.on("close", () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this;
  }

  close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    return new Promise((resolve) =>
      this.#server === undefined ? resolve() : this.#server.close(() => resolve()),
    );
  }
}

const receivers: Receiver[] = [];
async function receiver(answer: Receiver["answer"]): Promise<Receiver> {
  const r = await new Receiver(answer).start();
  receivers.push(r);
  return r;
}
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

const scope = { tenant: "", owner: "" };
const event = (taskId: string, i = 0): StreamResponse =>
  create(StreamResponseSchema, {
    payload: {
      case: "statusUpdate",
      value: {
        taskId,
        contextId: "ctx-1",
        status: { state: TaskState.WORKING, message: { messageId: `e-${i}`, role: 2, parts: [] } },
      },
    },
  });

/** A real sender (real fetch, real timers) with its outcomes recorded. */
function sender(overrides: Partial<PushSenderOptions> = {}) {
  const store = new InMemoryTaskStore();
  const failures: PushDeliveryFailure[] = [];
  const successes: PushDeliverySuccess[] = [];
  const push = createPushNotificationSender({
    store,
    schemas: { StreamResponse: StreamResponseSchema },
    allowHosts: ["127.0.0.1"],
    baseDelayMs: 10,
    maxDelayMs: 20,
    onDeliveryError: (f) => failures.push(f),
    onDelivered: (s) => successes.push(s),
    ...overrides,
  });
  const addConfig = (taskId: string, url: string) =>
    store.savePushConfig(
      scope,
      create(TaskPushNotificationConfigSchema, { taskId, id: `cfg-${taskId}`, url }),
    );
  const notify = (taskId: string, i = 0) =>
    push.onTaskEvent({
      scope,
      taskId,
      contextId: "ctx-1",
      state: TaskState.WORKING,
      event: event(taskId, i),
    });
  return { store, push, failures, successes, addConfig, notify };
}

describe("a webhook receiver that never answers", () => {
  it("is tried maxRetries + 1 times, each cut off by timeoutMs; reported once as timeout; nothing left pending or connected", async () => {
    const hanging = await receiver("hang");
    const s = sender({ timeoutMs: 200, maxRetries: 2 });
    await s.addConfig("t-1", `${hanging.url}/hook`);
    s.notify("t-1");
    await eventually(() => s.failures.length === 1, 15_000);
    expect(s.failures[0]).toMatchObject({ reason: "timeout", taskId: "t-1", attempts: 3 });
    expect(hanging.requests).toHaveLength(3);
    await eventually(() => s.push.pending === 0, 5_000);
    // The aborted attempts' connections are closed (undici lets them go after its 4 s keep-alive timeout).
    await eventually(() => hanging.sockets.size === 0, 15_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(hanging.requests).toHaveLength(3); // no more attempts later
    expect(s.failures).toHaveLength(1);
    expect(await s.push.close()).toBe(true);
  });

  it("cannot starve the other receivers: with more hanging deliveries than the global cap, a healthy webhook is delivered to at once", async () => {
    const hanging = await receiver("hang");
    const healthy = await receiver((_req, res) => res.writeHead(204).end());
    const s = sender({ timeoutMs: 60_000, maxRetries: 0, concurrency: 4, closeTimeoutMs: 100 });
    for (let i = 0; i < 20; i++) {
      await s.addConfig(`t-hang-${i}`, `${hanging.url}/hook`);
      s.notify(`t-hang-${i}`);
    }
    await eventually(() => hanging.requests.length === 2, 10_000); // its host's cap: 2 of the 4 slots
    await s.addConfig("t-ok", `${healthy.url}/hook`);
    s.notify("t-ok");
    await eventually(() => s.successes.length === 1, 10_000);
    expect(s.successes[0]).toMatchObject({ taskId: "t-ok", status: 204, attempts: 1 });
    expect(s.failures).toEqual([]); // every hanging delivery is still waiting for its (long) timeout
    expect(hanging.requests).toHaveLength(2);
    // close() is bounded: it aborts the hanging ones and reports each once.
    expect(await s.push.close()).toBe(false);
    expect(s.failures.map((f) => f.reason)).toEqual(Array.from({ length: 20 }, () => "closed"));
    // Two were attempted (and aborted); the others never got a slot: no attempt counted.
    expect(s.failures.map((f) => f.attempts).sort()).toEqual([
      ...Array.from({ length: 18 }, () => 0),
      1,
      1,
    ]);
    expect(s.push.pending).toBe(0);
  });

  it("does not pile events up: past maxQueuedPerWebhook they are reported as overflow at once, not queued", async () => {
    const hanging = await receiver("hang");
    const s = sender({
      timeoutMs: 60_000,
      maxRetries: 0,
      maxQueuedPerWebhook: 10,
      closeTimeoutMs: 100,
    });
    await s.addConfig("t-1", `${hanging.url}/hook`);
    for (let i = 0; i < 50; i++) s.notify("t-1", i);
    await eventually(() => s.failures.length === 40, 10_000);
    expect(new Set(s.failures.map((f) => f.reason))).toEqual(new Set(["overflow"]));
    expect(s.failures.every((f) => f.attempts === 0)).toBe(true);
    // The last look-ups settle; then 10 events wait: the first in delivery (its request at the receiver), 9 behind it.
    await eventually(() => s.push.pending === 10 && hanging.requests.length === 1, 10_000);
    await new Promise((r) => setTimeout(r, 200));
    expect(hanging.requests).toHaveLength(1); // in order: the others wait for the first
    expect(await s.push.close()).toBe(false);
    expect(s.failures.filter((f) => f.reason === "closed")).toHaveLength(10);
    expect(s.push.pending).toBe(0);
  });
});

describe("large events to slow webhooks", () => {
  it("are bounded in bytes over all tasks and webhooks: past maxQueuedBytes a delivery is reported as overflow, not queued; delivered ones free their bytes", async () => {
    const held: ServerResponse[] = [];
    const slow = await receiver((_req, res) => held.push(res));
    const s = sender({
      timeoutMs: 60_000,
      maxRetries: 0,
      maxQueuedBytes: 250_000,
      closeTimeoutMs: 100,
    });
    // Events of ~100 KB each (a status message of 100,000 characters), one per task: the count per webhook never binds.
    const big = (taskId: string) =>
      create(StreamResponseSchema, {
        payload: {
          case: "statusUpdate",
          value: {
            taskId,
            contextId: "c",
            status: {
              state: TaskState.WORKING,
              message: {
                messageId: "m",
                role: 2,
                parts: [{ content: { case: "text", value: "z".repeat(100_000) } }],
              },
            },
          },
        },
      });
    const notifyBig = (taskId: string) =>
      s.push.onTaskEvent({
        scope,
        taskId,
        contextId: "c",
        state: TaskState.WORKING,
        event: big(taskId),
      });
    for (let i = 0; i < 6; i++) {
      await s.addConfig(`t-${i}`, `${slow.url}/hook/${i}`);
      notifyBig(`t-${i}`);
    }
    // 2 bodies fit 250,000 bytes; the other 4 are refused at once.
    await eventually(() => s.failures.length === 4 && held.length === 2, 10_000);
    expect(s.failures.map((f) => f.reason)).toEqual([
      "overflow",
      "overflow",
      "overflow",
      "overflow",
    ]);
    expect(s.failures.every((f) => f.attempts === 0)).toBe(true);
    // Once the receiver answers, their bytes are free: the next large event is delivered.
    for (const res of held.splice(0)) res.writeHead(204).end();
    await eventually(() => s.successes.length === 2 && s.push.pending === 0, 10_000);
    notifyBig("t-5");
    await eventually(() => held.length === 1, 10_000);
    held[0]!.writeHead(204).end();
    await eventually(() => s.successes.length === 3, 10_000);
    expect(s.failures).toHaveLength(4);
    expect(await s.push.close()).toBe(true);
  });
});

describe("a webhook receiver that answers 500", () => {
  it("is retried maxRetries times, then reported once as http-status 500", async () => {
    const failing = await receiver((_req, res) => res.writeHead(500).end("boom"));
    const s = sender({ maxRetries: 2 });
    await s.addConfig("t-1", `${failing.url}/hook`);
    s.notify("t-1");
    await eventually(() => s.failures.length === 1, 10_000);
    expect(s.failures[0]).toMatchObject({ reason: "http-status", status: 500, attempts: 3 });
    expect(failing.requests).toHaveLength(3);
    await eventually(() => s.push.pending === 0, 5_000);
    expect(await s.push.close()).toBe(true);
    expect(s.failures).toHaveLength(1);
  });

  it("end to end: the task completes normally for its client; each event's failure is reported once", async () => {
    const failing = await receiver((_req, res) => res.writeHead(500).end());
    const store = new InMemoryTaskStore();
    const failures: PushDeliveryFailure[] = [];
    const push = createPushNotificationSender({
      store,
      schemas: { StreamResponse: StreamResponseSchema },
      allowHosts: ["127.0.0.1"],
      maxRetries: 1,
      baseDelayMs: 10,
      onDeliveryError: (f) => failures.push(f),
    });
    const handler = createA2ATaskHandler({
      store,
      capabilities: { pushNotifications: true },
      onTaskEvent: push.onTaskEvent,
      executor: {
        async execute(_request, emitter) {
          await emitter.working();
          await emitter.complete("done");
        },
      },
    });
    const request = sendRequest(
      "hello",
      {},
      {
        taskPushNotificationConfig: create(TaskPushNotificationConfigSchema, {
          url: `${failing.url}/hook`,
        }),
      },
    );
    const task = taskOf(await handler.sendMessage(request, callOf("SendMessage")));
    expect(task.status?.state).toBe(TaskState.COMPLETED);
    await eventually(() => push.pending === 0, 10_000);
    // Task (SUBMITTED), WORKING, COMPLETED: three events, two attempts each, one report each.
    expect(failures.map((f) => [f.reason, f.status, f.attempts])).toEqual([
      ["http-status", 500, 2],
      ["http-status", 500, 2],
      ["http-status", 500, 2],
    ]);
    expect(failing.requests).toHaveLength(6);
    expect(handler.liveTasks).toBe(0);
    expect(await push.close()).toBe(true);
  });
});
