/**
 * The extra checks that tests tagged `runner-special` ask of a runner in their description
 * (beyond their declared steps). Each returns failures (empty = the check passed) and a
 * note saying what was checked, which the report prints.
 */
import { fromJson, type JsonValue as PbJson } from "@bufbuild/protobuf";
import { AgentCardSchema, SendMessageResponseSchema, StreamResponseSchema } from "../../../generated-example/gen/a2a_pb.js";
import { connectA2AService, type A2AServiceBinding } from "../../../generated-example/gen/a2a_a2a_agent_client.js";
import { PushNotificationNotSupportedError, UnsupportedOperationError } from "../../../generated-example/gen/a2a_a2a_errors.js";
import { fakeAgent } from "./client-steps.js";
import type { Binding } from "./client.js";
import type { AssertionFailure } from "./assertions.js";
import type { ActsClient, JsonObject, JsonValue } from "./client.js";
import type { SpecialCheck, StepRecord } from "./runner.js";
import { stateOf } from "./streams.js";
import { valueAt } from "./paths.js";

/** A webhook the agent can reach; records every request it gets. */
export interface WebhookRecorder {
  readonly url: string;
  readonly received: readonly { readonly headers: Readonly<Record<string, string | string[] | undefined>>; readonly body: JsonValue }[];
}

const TERMINAL = new Set(["TASK_STATE_COMPLETED", "TASK_STATE_FAILED", "TASK_STATE_CANCELED", "TASK_STATE_REJECTED"]);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const taskIdOf = (records: ReadonlyMap<string, StepRecord>, step: string): string => {
  const id = valueAt(records.get(step)?.root, "task.id");
  if (typeof id !== "string") throw new Error(`step ${step} has no task.id`);
  return id;
};

/** Starts a long-running task (returnImmediately) for the stream checks. */
async function startLongRunning(client: ActsClient, signal: AbortSignal): Promise<string> {
  const outcome = await client.call("send_message", { message: { messageId: crypto.randomUUID(), role: "ROLE_USER", parts: [{ text: "tck-long-running special check" }] }, configuration: { returnImmediately: true } }, { headers: {}, signal });
  const id = outcome.ok ? valueAt(outcome.body, "task.id") : undefined;
  if (typeof id !== "string") throw new Error(`could not start a long-running task: ${JSON.stringify(outcome)}`);
  return id;
}

/** Reads a subscription until its first event, then aborts it. */
async function subscribeAndDrop(client: ActsClient, taskId: string, signal: AbortSignal): Promise<number> {
  const controller = new AbortController();
  signal.addEventListener("abort", () => controller.abort(), { once: true });
  const pending = client.stream("subscribe_to_task", { id: taskId }, { headers: {}, signal: controller.signal });
  // Give the stream time to open and deliver its first event (the task snapshot), then drop it.
  await sleep(150);
  controller.abort();
  return (await pending).events.length;
}

const lastState = (events: readonly JsonValue[]) => stateOf(events[events.length - 1] ?? null);

/** Push delivery: a POST for the task reached the webhook with the configured credentials. */
function pushDelivered(webhook: WebhookRecorder, credentials: string, knownTaskId?: string): SpecialCheck {
  return async ({ records, signal }) => {
    const taskId = knownTaskId ?? taskIdOf(records, "create-task");
    const deadline = Date.now() + 15_000;
    for (;;) {
      const hits = webhook.received.filter((r) => JSON.stringify(r.body).includes(taskId) && (knownTaskId === undefined || r.headers["authorization"] === `Bearer ${credentials}`));
      if (hits.length > 0) {
        const auth = hits.map((h) => h.headers["authorization"]);
        const failures: AssertionFailure[] = auth.every((a) => a === `Bearer ${credentials}`)
          ? []
          : [{ path: "authorization", message: `webhook got Authorization ${JSON.stringify(auth)}, expected "Bearer ${credentials}"` }];
        return { failures, note: `runner-special: ${hits.length} push notification(s) for the task reached the runner's webhook with Authorization: Bearer ${credentials}` };
      }
      if (Date.now() > deadline || signal.aborted) return { failures: [{ path: "", message: "no push notification for the task reached the webhook within 15 s" }], note: "runner-special: push delivery" };
      await sleep(100);
    }
  };
}

/** Tests tagged runner-special whose declared steps already are the whole check, given the runner's variables. */
const declarative = (why: string): SpecialCheck => async () => ({ failures: [], note: `runner-special: ${why}` });

/** Credentials of the agent under test: a token that may read the extended card and one that may not. */
export interface RunnerCredentials {
  readonly reader: string;
  readonly limited: string;
}

/**
 * PUSH-DELIV-*: their declared webhook is the document's https://example.com/… (which this
 * runner cannot observe), so the check repeats the test's two steps with the runner's own
 * webhook (a fresh long-running task, then its config at once, so the task is still running
 * when the config lands) and watches what arrives there.
 */
function pushDelivery(webhook: WebhookRecorder, what: "auth" | "at-least-once" | "payload"): SpecialCheck {
  return async (run) => {
    const { client, signal } = run;
    const taskId = await startLongRunning(client, signal);
    const token = `deliv-${crypto.randomUUID()}`;
    const config = await client.call("create_push_config", { taskId, url: webhook.url, authentication: { scheme: "Bearer", credentials: token } }, { headers: {}, signal });
    if (!config.ok) return { failures: [{ path: "", message: `could not add the runner's webhook: ${JSON.stringify(config)}` }], note: "runner-special: push delivery" };
    const result = await pushDelivered(webhook, token, taskId)(run);
    if (result.failures.length > 0 || what !== "payload") return { failures: result.failures, note: `${result.note} (a second config on the runner's webhook)` };
    const bodies = webhook.received.filter((r) => r.headers["authorization"] === `Bearer ${token}`).map((r) => r.body);
    const failures: AssertionFailure[] = [];
    for (const body of bodies) {
      try {
        const event = fromJson(StreamResponseSchema, body as PbJson);
        if (event.payload.case === undefined) failures.push({ path: "", message: `a StreamResponse without a payload: ${JSON.stringify(body)}` });
      } catch (e) {
        failures.push({ path: "", message: `webhook body is not a StreamResponse: ${e instanceof Error ? e.message : String(e)}` });
      }
    }
    return { failures, note: `runner-special: ${bodies.length} webhook body(ies) decode strictly as StreamResponse (the test's steps again with the runner's webhook)` };
  };
}

const BINDING_NAMES: Readonly<Record<Binding, A2AServiceBinding>> = { jsonrpc: "JSONRPC", rest: "HTTP+JSON", grpc: "GRPC" };
const GENERATED = "protoc-gen-a2a";

/** What a call threw (or "ok"). */
async function outcomeOf(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
    return "ok";
  } catch (e) {
    return e;
  }
}

/**
 * The parsed card of a client step, re-pointed at a local fake agent of `binding` (the suite's
 * cards name https://example.com/…), and a connection made from it with connectA2AService.
 */
async function connectToParsedCard(records: ReadonlyMap<string, StepRecord>, step: string, binding: Binding, answer: JsonObject) {
  const agent = await fakeAgent(binding, { jsonrpc: "2.0", id: 1, result: answer }, "get_extended_agent_card");
  const parsed = records.get(step)?.root as JsonObject;
  const url = binding === "grpc" ? agent.endpoints.grpc : binding === "jsonrpc" ? agent.endpoints.jsonrpc : agent.endpoints.rest;
  const card = fromJson(AgentCardSchema, { ...parsed, supportedInterfaces: [{ url, protocolBinding: BINDING_NAMES[binding], protocolVersion: "1.0" }] } as PbJson);
  const connection = await connectA2AService(card, { bindings: [BINDING_NAMES[binding]] });
  return { agent, connection };
}

const streamOnce = (connection: Awaited<ReturnType<typeof connectA2AService>>) => async () => {
  for await (const _ of connection.client.sendStreamingMessage({ message: { messageId: "m", role: 1, parts: [{ content: { case: "text", value: "x" } }] } })) break;
};

/** The runner-special checks this runner implements, by test id. */
export function specialChecks(webhook: WebhookRecorder, credentials: RunnerCredentials): Record<string, SpecialCheck> {
  const extendedCard = declarative("the declared raw requests are the check (insufficientAuthToken is a valid token without the extended-card right)");
  return {
    "CLIENT-CAP-001": async ({ records, client, binding }) => {
      if (client.implementation !== GENERATED) return { failures: [], note: "runner-special: capability gating not checked for this client (only the parse step)" };
      const { agent, connection } = await connectToParsedCard(records, "parse-card", binding, {});
      try {
        const streaming = await outcomeOf(streamOnce(connection));
        const push = await outcomeOf(() => connection.client.createTaskPushNotificationConfig({ taskId: "t", url: "https://example.com/hook" }));
        const failures: AssertionFailure[] = [];
        if (!(streaming instanceof UnsupportedOperationError)) failures.push({ path: "streaming", message: `SendStreamingMessage was not refused locally: ${String(streaming)}` });
        if (!(push instanceof PushNotificationNotSupportedError)) failures.push({ path: "pushNotifications", message: `CreateTaskPushNotificationConfig was not refused locally: ${String(push)}` });
        if (agent.requests !== 0) failures.push({ path: "", message: `${agent.requests} request(s) reached the agent` });
        return { failures, note: "runner-special: connectA2AService on the parsed card refuses SendStreamingMessage (UnsupportedOperationError) and push config (PushNotificationNotSupportedError) without a request" };
      } finally {
        await agent.close();
      }
    },
    "CLIENT-AUTH-001": async ({ records, client, binding }) => {
      if (client.implementation !== GENERATED) return { failures: [], note: "runner-special: card replacement not checked for this client (only the parse steps)" };
      const extended = records.get("parse-extended-card")?.root as JsonObject;
      const { agent, connection } = await connectToParsedCard(records, "parse-public-card", binding, extended);
      try {
        const failures: AssertionFailure[] = [];
        const before = await outcomeOf(streamOnce(connection));
        if (!(before instanceof UnsupportedOperationError)) failures.push({ path: "", message: `with the public card (streaming false) streaming was not refused: ${String(before)}` });
        await connection.client.getExtendedAgentCard({});
        if (connection.card.capabilities?.streaming !== true) failures.push({ path: "card.capabilities.streaming", message: "the connection kept the public card after GetExtendedAgentCard" });
        const seen = agent.requests;
        const after = await outcomeOf(streamOnce(connection));
        if (after instanceof UnsupportedOperationError || agent.requests === seen) failures.push({ path: "", message: `after the extended card, streaming is still refused locally: ${String(after)}` });
        return { failures, note: "runner-special: after GetExtendedAgentCard the connectA2AService connection uses the extended card (streaming no longer refused locally)" };
      } finally {
        await agent.close();
      }
    },
    "SEC-EXTCARD-001": extendedCard,
    "SEC-EXTCARD-002": extendedCard,
    "SEC-EXTCARD-004": extendedCard,
    "CORE-CTX-001": async ({ client, signal }) => {
      // "verify the server errors instead of minting a new contextId": nothing may exist in that context afterwards.
      const outcome = await client.call("list_tasks", { contextId: "client-generated-context-that-should-be-rejected" }, { headers: {}, signal });
      const tasks = outcome.ok ? valueAt(outcome.body, "tasks") : undefined;
      const failures: AssertionFailure[] = outcome.ok && (tasks === undefined || (Array.isArray(tasks) && tasks.length === 0)) ? [] : [{ path: "tasks", message: `ListTasks of the rejected context: ${JSON.stringify(outcome)}` }];
      return { failures, note: "runner-special: after the rejection, ListTasks finds no task in the client's contextId (none was created under it)" };
    },
    "CORE-ERR-009": async ({ client, signal }) => {
      // Another principal's task and a task that does not exist must give the same answer (ids aside).
      const reader = { authorization: `Bearer ${credentials.reader}` };
      const sent = await client.call("send_message", { message: { messageId: crypto.randomUUID(), role: "ROLE_USER", parts: [{ text: "tck-complete-task owned by the reader" }] } }, { headers: reader, signal });
      const taskId = sent.ok ? valueAt(sent.body, "task.id") : undefined;
      if (typeof taskId !== "string") return { failures: [{ path: "", message: `could not create the reader's task: ${JSON.stringify(sent)}` }], note: "runner-special: missing vs unauthorized" };
      const missingId = crypto.randomUUID();
      const [other, missing, own] = await Promise.all([
        client.call("get_task", { id: taskId }, { headers: { authorization: `Bearer ${credentials.limited}` }, signal }),
        client.call("get_task", { id: missingId }, { headers: { authorization: `Bearer ${credentials.limited}` }, signal }),
        client.call("get_task", { id: taskId }, { headers: reader, signal }),
      ]);
      const failures: AssertionFailure[] = [];
      if (!own.ok) failures.push({ path: "", message: `the owner could not read its task: ${JSON.stringify(own)}` });
      if (other.ok || missing.ok) failures.push({ path: "", message: `expected errors for both, got ${JSON.stringify({ other, missing })}` });
      else {
        const shape = (e: typeof other.error, id: string) => JSON.stringify({ ...e, message: e.message.split(id).join("<id>"), details: JSON.stringify(e.details ?? []).split(id).join("<id>") });
        if (shape(other.error, taskId) !== shape(missing.error, missingId)) failures.push({ path: "error", message: `another principal's task answers ${shape(other.error, taskId)}, a missing one ${shape(missing.error, missingId)}` });
      }
      return { failures, note: "runner-special: another principal's task and a missing task give the same error (type, code, message and details, ids masked)" };
    },
    "REST-CT-001": async ({ records, endpoints, signal }) => {
      const taskId = valueAt(records.get("send")?.root, "task.id");
      const response = await fetch(`${endpoints.rest}/tasks/${encodeURIComponent(String(taskId))}`, { headers: { "a2a-version": "1.0" }, signal });
      await response.arrayBuffer();
      const type = response.headers.get("content-type") ?? "";
      const failures: AssertionFailure[] = type.startsWith("application/a2a+json") ? [] : [{ path: "content-type", message: `GET /tasks/{id} answered Content-Type ${type}` }];
      return { failures, note: `runner-special: GET /tasks/{id} answered Content-Type ${type}` };
    },
    "CARD-CACHE-001": async ({ records }) => {
      const headers = records.get("step-1")?.headers ?? {};
      const failures: AssertionFailure[] = [];
      if (!headers["cache-control"]) failures.push({ path: "cache-control", message: "no Cache-Control header on the Agent Card" });
      if (!headers["etag"]) failures.push({ path: "etag", message: "no ETag header on the Agent Card" });
      return { failures, note: `runner-special: Cache-Control "${headers["cache-control"]}", ETag ${headers["etag"]}` };
    },
    "DM-SERIAL-002": async ({ records }) => {
      try {
        fromJson(SendMessageResponseSchema, records.get("send")?.root as PbJson); // strict: unknown fields, wrong types, bad enum names throw
        return { failures: [], note: "runner-special: the response is a valid SendMessageResponse (strict ProtoJSON decode against a2a.proto)" };
      } catch (e) {
        return { failures: [{ path: "", message: `not a valid SendMessageResponse: ${e instanceof Error ? e.message : String(e)}` }], note: "runner-special: schema validation" };
      }
    },
    "SEC-PUSH-001": pushDelivered(webhook, "test-token"),
    "PUSH-DELIV-001": pushDelivery(webhook, "auth"),
    "PUSH-DELIV-002": pushDelivery(webhook, "at-least-once"),
    "PUSH-DELIV-003": pushDelivery(webhook, "payload"),
    "SEC-PUSH-002": pushDelivered(webhook, "expected-token"),
    "STREAM-MULTI-001": async ({ client, signal }) => {
      const taskId = await startLongRunning(client, signal);
      const [a, b] = await Promise.all([client.stream("subscribe_to_task", { id: taskId }, { headers: {}, signal }), client.stream("subscribe_to_task", { id: taskId }, { headers: {}, signal })]);
      const failures: AssertionFailure[] = [];
      // The first event of each is its own snapshot of the task; what follows must be the same events in the same order.
      if (JSON.stringify(a.events.slice(1)) !== JSON.stringify(b.events.slice(1))) failures.push({ path: "events", message: `the two streams differ: ${JSON.stringify(a.events)} vs ${JSON.stringify(b.events)}` });
      if (!TERMINAL.has(lastState(a.events) ?? "")) failures.push({ path: "events", message: "the streams did not end at a terminal state" });
      return { failures, note: `runner-special: two concurrent SubscribeToTask streams on one long-running task got the same ${a.events.length - 1} update(s) after their snapshots` };
    },
    "STREAM-MULTI-002": async ({ client, signal }) => {
      const taskId = await startLongRunning(client, signal);
      const [dropped, kept] = await Promise.all([subscribeAndDrop(client, taskId, signal), client.stream("subscribe_to_task", { id: taskId }, { headers: {}, signal })]);
      const failures: AssertionFailure[] = TERMINAL.has(lastState(kept.events) ?? "") && kept.error === undefined ? [] : [{ path: "events", message: `the remaining stream did not reach a terminal state: ${JSON.stringify(kept)}` }];
      return { failures, note: `runner-special: one of two streams closed after ${dropped} event(s); the other still reached ${lastState(kept.events)}` };
    },
    "STREAM-RESUB-001": async ({ client, signal }) => {
      const taskId = await startLongRunning(client, signal);
      const before = await subscribeAndDrop(client, taskId, signal);
      const again = await client.stream("subscribe_to_task", { id: taskId }, { headers: {}, signal });
      const first = again.events[0] as JsonObject | undefined;
      const failures: AssertionFailure[] = [];
      if (first?.["task"] === undefined) failures.push({ path: "events[0]", message: `the resubscription did not start with the task snapshot: ${JSON.stringify(first)}` });
      if (!TERMINAL.has(lastState(again.events) ?? "")) failures.push({ path: "events", message: "the resubscription did not reach a terminal state" });
      return { failures, note: `runner-special: disconnected after ${before} event(s), resubscribed, got the snapshot and ${again.events.length - 1} update(s) to ${lastState(again.events)}` };
    },
  };
}
