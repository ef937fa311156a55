/**
 * The extra checks that tests tagged `runner-special` ask of a runner in their description,
 * beyond their declared steps. Each one tests the claim its YAML makes, through the wire
 * (operations go through `run.caller`: judged like steps, a wire problem fails the check),
 * and waits for the event it needs (a first stream event, a delivery), never for a fixed
 * time. A claim this runner or client cannot check is reported as a gap, never as a pass.
 */
import { randomUUID } from "node:crypto";
import type { AssertionFailure } from "./assertions.js";
import type { Binding, ClientFeatures, JsonObject, JsonValue, UnaryOperation } from "./client.js";
import { MINIMAL_REQUESTS } from "./client-steps.js";
import { fakeAgent } from "./fake-agent.js";
import { valueAt } from "./paths.js";
import { sendHttp } from "./raw-http.js";
import {
  errorOnWireFailures,
  type SpecialCheck,
  type SpecialCheckOutcome,
  type SpecialCheckRun,
  type StepRecord,
} from "./runner.js";
import { stateOf } from "./streams.js";
import { checkProtoJson } from "./strict-proto.js";
import { StreamResponseSchema } from "../../../generated-example/gen/a2a_pb.js";
import { OPERATION_METHODS, judgeRawResponse } from "./wire-judge.js";
import { asProblems } from "./wire-call.js";
import { deliveredTaskId, type Delivery, type RunnerWebhook } from "./webhook.js";

const TERMINAL = new Set([
  "TASK_STATE_COMPLETED",
  "TASK_STATE_FAILED",
  "TASK_STATE_CANCELED",
  "TASK_STATE_REJECTED",
]);
/** How long a check waits for a delivery or a first event before it fails. */
const WAIT_MS = 15_000;

/** Credentials the agents under test know: may read the extended card; may not use tasks nor the extended card; a second ordinary principal. */
export interface RunnerCredentials {
  readonly reader: string;
  readonly limited: string;
  readonly other: string;
}

class CheckFailed extends Error {}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const lastState = (events: readonly JsonValue[]) => stateOf(events[events.length - 1] ?? null);

/** The record's wire problems as check failures, naming the call. */
function problemsOf(what: string, record: StepRecord): AssertionFailure[] {
  return record.problems.map((p) => ({ path: p.path, message: `${what}: ${p.message}` }));
}

/** Fails the check unless the record is a success without problems. */
function succeeded(what: string, record: StepRecord): void {
  const problems = problemsOf(what, record);
  if (problems.length > 0)
    throw new CheckFailed(problems.map((p) => `${p.path}: ${p.message}`).join("; "));
  if (record.status === "error")
    throw new CheckFailed(`${what} failed: ${record.error?.type} "${record.error?.message}"`);
}

/** Runs a check body; a CheckFailed becomes its failure. */
function check(body: (run: SpecialCheckRun) => Promise<SpecialCheckOutcome>): SpecialCheck {
  return async (run) => {
    try {
      return await body(run);
    } catch (e) {
      if (e instanceof CheckFailed)
        return { failures: [{ path: "", message: e.message }], note: "runner-special" };
      throw e;
    }
  };
}

/** Starts a long-running task (returnImmediately) and returns its id. */
async function startLongRunning(run: SpecialCheckRun): Promise<string> {
  const record = await run.caller.call(
    "send_message",
    {
      message: {
        messageId: randomUUID(),
        role: "ROLE_USER",
        parts: [{ text: "tck-long-running special check" }],
      },
      configuration: { returnImmediately: true },
    },
    { headers: run.headers, signal: run.signal },
  );
  succeeded("SendMessage (tck-long-running)", record);
  const id = valueAt(record.root, "task.id");
  if (typeof id !== "string")
    throw new CheckFailed(`SendMessage returned no task: ${JSON.stringify(record.root)}`);
  return id;
}

/** A long-running task with a push config to `url` (optionally with credentials), added while the task still runs. */
async function taskWithWebhook(
  run: SpecialCheckRun,
  url: string,
  authentication?: { scheme: string; credentials: string },
): Promise<string> {
  const taskId = await startLongRunning(run);
  const record = await run.caller.call(
    "create_push_config",
    { taskId, url, ...(authentication !== undefined ? { authentication } : {}) },
    { headers: run.headers, signal: run.signal },
  );
  succeeded("CreateTaskPushNotificationConfig", record);
  return taskId;
}

const forTask = (taskId: string, path?: string) => (deliveries: readonly Delivery[]) =>
  deliveries.filter(
    (d) => deliveredTaskId(d.body) === taskId && (path === undefined || d.path === path),
  );

/** Waits until the agent has delivered the task's terminal event to `path` (or WAIT_MS passed); the deliveries. */
async function deliveriesUntilTerminal(
  webhook: RunnerWebhook,
  taskId: string,
  path: string,
  signal: AbortSignal,
): Promise<readonly Delivery[]> {
  const select = forTask(taskId, path);
  const terminal = await webhook.waitFor(
    (all) => {
      const mine = select(all).filter((d) => d.answered < 300);
      return mine.some((d) => TERMINAL.has(stateOf(d.body) ?? "")) ? mine : undefined;
    },
    WAIT_MS,
    signal,
  );
  return terminal ?? select(webhook.deliveries);
}

/**
 * SEC-PUSH-001 / PUSH-DELIV-001: the deliveries for a task reach the webhook with the
 * configured credentials. `fromSteps`: the task and config of the test's own steps (their
 * webhook is the runner's); otherwise a fresh task with a config on the runner's webhook
 * (PUSH-DELIV-* declare https://example.com/…, which the runner cannot observe).
 */
function deliveredWithCredentials(
  webhook: RunnerWebhook,
  fromSteps: { task: string; credentials: string } | undefined,
): SpecialCheck {
  return check(async (run) => {
    const credentials = fromSteps?.credentials ?? `deliv-${randomUUID()}`;
    const taskId =
      fromSteps !== undefined
        ? String(valueAt(run.records.get(fromSteps.task)?.root, "task.id"))
        : await taskWithWebhook(run, webhook.url, { scheme: "Bearer", credentials });
    const path = new URL(webhook.url).pathname;
    const deliveries = await deliveriesUntilTerminal(webhook, taskId, path, run.signal);
    if (deliveries.length === 0)
      throw new CheckFailed(
        `no push notification for task ${taskId} reached the webhook within ${WAIT_MS} ms`,
      );
    const wrong = deliveries
      .filter((d) => d.headers["authorization"] !== `Bearer ${credentials}`)
      .map((d) => d.headers["authorization"] ?? "(none)");
    const failures: AssertionFailure[] =
      wrong.length === 0
        ? []
        : [
            {
              path: "authorization",
              message: `${wrong.length} of ${deliveries.length} deliveries had Authorization ${JSON.stringify([...new Set(wrong)])}, expected "Bearer ${credentials}"`,
            },
          ];
    return {
      failures,
      note: `runner-special: ${deliveries.length} push notification(s) for the task reached the runner's webhook, each with Authorization: Bearer ${fromSteps !== undefined ? credentials : "<the config's token>"}${fromSteps === undefined ? " (a second config on the runner's webhook)" : ""}`,
    };
  });
}

/** PUSH-DELIV-002: a delivery the webhook refuses (503) is delivered again. */
function redelivered(webhook: RunnerWebhook): SpecialCheck {
  return check(async (run) => {
    const url = webhook.flakyUrl();
    const path = new URL(url).pathname;
    const taskId = await taskWithWebhook(run, url);
    const select = forTask(taskId, path);
    const pair = await webhook.waitFor(
      (all) => {
        const mine = select(all);
        const refused = mine.find((d) => d.answered === 503);
        const again =
          refused === undefined
            ? undefined
            : mine.find(
                (d) =>
                  d !== refused &&
                  d.answered < 300 &&
                  JSON.stringify(d.body) === JSON.stringify(refused.body),
              );
        return refused !== undefined && again !== undefined ? { refused, again } : undefined;
      },
      WAIT_MS,
      run.signal,
    );
    const mine = select(webhook.deliveries);
    if (pair === undefined) {
      const refused = mine.filter((d) => d.answered === 503).length;
      throw new CheckFailed(
        refused === 0
          ? `no delivery for task ${taskId} reached the webhook within ${WAIT_MS} ms`
          : `${refused} delivery(ies) refused with 503 were not delivered again within ${WAIT_MS} ms`,
      );
    }
    return {
      failures: [],
      note: `runner-special: the webhook refused the first delivery of each event with 503; the agent delivered it again (${mine.length} attempts for ${new Set(mine.map((d) => JSON.stringify(d.body))).size} event(s))`,
    };
  });
}

/** PUSH-DELIV-003: every delivered body is exactly a StreamResponse of the task, as JSON. */
function payloadFormat(webhook: RunnerWebhook): SpecialCheck {
  return check(async (run) => {
    const credentials = `fmt-${randomUUID()}`;
    const taskId = await taskWithWebhook(run, webhook.url, { scheme: "Bearer", credentials });
    const deliveries = (
      await deliveriesUntilTerminal(webhook, taskId, new URL(webhook.url).pathname, run.signal)
    ).filter((d) => d.headers["authorization"] === `Bearer ${credentials}`);
    if (deliveries.length === 0)
      throw new CheckFailed(
        `no push notification for task ${taskId} reached the webhook within ${WAIT_MS} ms`,
      );
    const failures: AssertionFailure[] = [];
    deliveries.forEach((d, i) => {
      const type = (d.headers["content-type"] ?? "").split(";")[0]!.trim();
      if (type !== "application/a2a+json" && type !== "application/json")
        failures.push({
          path: `deliveries[${i}]`,
          message: `Content-Type ${JSON.stringify(d.headers["content-type"])}`,
        });
      for (const v of checkProtoJson(StreamResponseSchema, d.body))
        failures.push({ path: `deliveries[${i}].${v.path}`, message: v.message });
    });
    if (!TERMINAL.has(lastState(deliveries.map((d) => d.body)) ?? ""))
      failures.push({ path: "deliveries", message: "no delivery reported the terminal state" });
    return {
      failures,
      note: `runner-special: ${deliveries.length} webhook body(ies), each strictly a StreamResponse of the task (camelCase, enum names, REQUIRED fields, one payload), the last one terminal`,
    };
  });
}

/**
 * SEC-PUSH-002: the client's webhook receiver rejects deliveries with invalid credentials.
 * The check starts the implementation's receiver, registers it for a task with the
 * credentials of the test (expected-token), forges deliveries with a wrong token, without
 * one, and with the right token for a task the client does not expect, and lets the agent
 * deliver for real: the forgeries must get 401 and never reach the application, the agent's
 * deliveries must be accepted (2xx) and handed over.
 */
function receiverRejectsForgeries(features: ClientFeatures): SpecialCheck {
  return async (run) => {
    if (features.startPushReceiver === undefined)
      return {
        gap: "this client implementation has no webhook receiver that validates push notification credentials",
      };
    const credentials = { scheme: "Bearer", credentials: "expected-token" };
    let registered = "";
    const accepted: { taskId: string; body: JsonValue }[] = [];
    let terminalHandedOver!: () => void;
    const terminal = new Promise<void>((resolve) => (terminalHandedOver = resolve));
    const receiver = await features.startPushReceiver({
      expected: (taskId) => (taskId === registered ? credentials : undefined),
      onNotification: (body, taskId) => {
        accepted.push({ taskId, body });
        if (taskId === registered && TERMINAL.has(stateOf(body) ?? "")) terminalHandedOver();
      },
    });
    try {
      const taskId = await startLongRunning(run);
      registered = taskId;
      const event = JSON.stringify({
        statusUpdate: { taskId, contextId: "forged", status: { state: "TASK_STATE_COMPLETED" } },
      });
      const forge = async (headers: Record<string, string>, body = event) =>
        (
          await fetch(receiver.url, {
            method: "POST",
            headers: { "content-type": "application/a2a+json", ...headers },
            body,
            signal: run.signal,
          })
        ).status;
      const forged = {
        "wrong token": await forge(bearer("not-the-expected-token")),
        "no credentials": await forge({}),
        "another scheme": await forge({ authorization: "Basic ZXhwZWN0ZWQtdG9rZW4=" }),
        "right token, unexpected task": await forge(
          bearer("expected-token"),
          JSON.stringify({
            statusUpdate: {
              taskId: randomUUID(),
              contextId: "forged",
              status: { state: "TASK_STATE_COMPLETED" },
            },
          }),
        ),
      };
      const failures: AssertionFailure[] = [];
      for (const [what, status] of Object.entries(forged))
        if (status !== 401)
          failures.push({
            path: what,
            message: `a forged delivery (${what}) was answered ${status}, expected 401`,
          });
      if (accepted.length > 0)
        failures.push({
          path: "",
          message: `${accepted.length} forged delivery(ies) reached the application`,
        });
      const config = await run.caller.call(
        "create_push_config",
        { taskId, url: receiver.url, authentication: credentials },
        { headers: run.headers, signal: run.signal },
      );
      succeeded("CreateTaskPushNotificationConfig", config);
      // The agent's own deliveries: wait until the receiver handed over the terminal one.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        terminal,
        new Promise<void>((resolve) => (timer = setTimeout(resolve, WAIT_MS))),
      ]);
      clearTimeout(timer);
      if (!accepted.some((a) => a.taskId === taskId && TERMINAL.has(stateOf(a.body) ?? "")))
        failures.push({
          path: "",
          message: `the agent's deliveries (Authorization: Bearer expected-token) did not reach the application within ${WAIT_MS} ms`,
        });
      return {
        failures,
        note: `runner-special: the client's receiver answered 401 to ${Object.keys(forged).join(", ")} and accepted the agent's ${accepted.length} delivery(ies) with the expected token`,
      };
    } finally {
      await receiver.close();
    }
  };
}

/** STREAM-MULTI-002 / STREAM-RESUB-001: subscribes, waits for the first event, closes the stream; the record of what arrived. */
async function subscribeUntilFirstEvent(run: SpecialCheckRun, taskId: string): Promise<StepRecord> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  run.signal.addEventListener("abort", stop, { once: true });
  const timer = setTimeout(stop, WAIT_MS);
  const record = await run.caller.stream(
    "subscribe_to_task",
    { id: taskId },
    { headers: run.headers, signal: controller.signal, onEvent: stop },
  );
  clearTimeout(timer);
  run.signal.removeEventListener("abort", stop);
  return record;
}

function droppedStreamProblems(record: StepRecord): string[] {
  const problems = problemsOf("the stream that was closed", record).map((p) => p.message);
  if ((record.events?.length ?? 0) === 0)
    problems.push(`the stream to be closed mid-flight received no event within ${WAIT_MS} ms`);
  else if (record.complete === true)
    problems.push("the stream to be closed had already ended (nothing was closed mid-flight)");
  return problems;
}

/** Checks of the published suite whose claim their steps already are, with the runner's variables, plus the exact error. */
function errorOfStep(step: string, expected: string, status: number, why: string): SpecialCheck {
  return check(async ({ records, binding }) => {
    const record = records.get(step);
    if (record?.error === undefined) throw new CheckFailed(`step ${step} did not fail`);
    const failures =
      record.error.type !== expected
        ? [{ path: "error", message: `expected ${expected}, got ${record.error.type}` }]
        : errorOnWireFailures(expected, record.error, binding);
    if (record.status !== status)
      failures.push({
        path: "(http status)",
        message: `expected HTTP ${status}, got ${record.status}`,
      });
    if (status === 401 && !record.headers?.["www-authenticate"])
      failures.push({
        path: "www-authenticate",
        message: "a 401 without a WWW-Authenticate challenge (RFC 9110 §15.5.2)",
      });
    return {
      failures,
      note: `runner-special: ${why}: ${expected} (HTTP ${status}${status === 401 ? ", WWW-Authenticate" : ""}) on the wire`,
    };
  });
}

/** Two errors are the same answer when they differ only in the ids they name. */
function sameErrorShape(
  a: StepRecord,
  aId: string,
  b: StepRecord,
  bId: string,
): AssertionFailure[] {
  if (a.error === undefined || b.error === undefined)
    return [
      { path: "", message: `expected two errors, got ${JSON.stringify({ a: a.root, b: b.root })}` },
    ];
  const shape = (r: StepRecord, id: string) =>
    JSON.stringify({
      type: r.error!.type,
      code: r.error!.jsonRpcCode,
      http: r.error!.httpStatus,
      grpc: r.error!.grpcCode,
      message: r.error!.message.split(id).join("<id>"),
      details: JSON.stringify(r.error!.details ?? [])
        .split(id)
        .join("<id>"),
    });
  return shape(a, aId) === shape(b, bId)
    ? []
    : [
        {
          path: "error",
          message: `another principal's task answers ${shape(a, aId)}, a missing one ${shape(b, bId)}`,
        },
      ];
}

/** The request of each operation for "every endpoint" checks. */
const EVERY_OPERATION: readonly [
  UnaryOperation | "send_streaming_message" | "subscribe_to_task",
  JsonObject,
][] = [
  ...(Object.entries(MINIMAL_REQUESTS) as [UnaryOperation, JsonObject][]),
  ["send_streaming_message", MINIMAL_REQUESTS.send_message],
  ["subscribe_to_task", { id: "acts-parse" }],
];

/** A fake agent's answer to SendMessage and SendStreamingMessage (one event). */
const AGENT_REPLY: JsonObject = {
  jsonrpc: "2.0",
  id: 1,
  result: { message: { messageId: "m", role: "ROLE_AGENT", parts: [{ text: "ok" }] } },
};

const EXTENDED_CARD_JSONRPC = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "GetExtendedAgentCard",
  params: {},
});

/** The runner-special checks this runner implements, by test id. */
export function specialChecks(
  webhook: RunnerWebhook,
  credentials: RunnerCredentials,
  features: ClientFeatures,
): Record<string, SpecialCheck> {
  return {
    "CLIENT-CAP-001": check(async ({ records, binding }) => {
      if (features.connectFromCard === undefined)
        return { gap: "this client implementation cannot be made from an Agent Card" };
      const agent = await fakeAgent(binding, AGENT_REPLY, "SendMessage");
      try {
        const connection = await features.connectFromCard(
          cardAt(records.get("parse-card")?.root, binding, agent.endpoints),
          binding,
        );
        const streaming = await connection.sendStreamingMessage();
        const push = await connection.createPushConfig();
        const reached = [...agent.requests];
        const failures: AssertionFailure[] = [];
        if (reached.includes(OPERATION_METHODS.send_streaming_message))
          failures.push({
            path: "capabilities.streaming",
            message: "SendStreamingMessage reached an agent whose card says streaming: false",
          });
        if (reached.includes(OPERATION_METHODS.create_push_config))
          failures.push({
            path: "capabilities.pushNotifications",
            message:
              "CreateTaskPushNotificationConfig reached an agent whose card says pushNotifications: false",
          });
        return {
          failures,
          note: `runner-special: with streaming and push notifications off in the card, the client sent ${reached.length === 0 ? "no request" : reached.join(", ")} (streaming: ${streaming.ok ? "ok" : streaming.error}; push config: ${push.ok ? "ok" : push.error})`,
        };
      } finally {
        await agent.close();
      }
    }),
    "CLIENT-AUTH-001": check(async ({ records, binding }) => {
      if (features.connectFromCard === undefined)
        return { gap: "this client implementation cannot be made from an Agent Card" };
      const extendedCard = records.get("parse-extended-card")?.root ?? {};
      const agent = await fakeAgent(
        binding,
        (rpc) =>
          rpc === OPERATION_METHODS.get_extended_agent_card
            ? { jsonrpc: "2.0", id: 1, result: extendedCard }
            : AGENT_REPLY,
        "GetExtendedAgentCard",
      );
      try {
        const connection = await features.connectFromCard(
          cardAt(records.get("parse-public-card")?.root, binding, agent.endpoints),
          binding,
        );
        const failures: AssertionFailure[] = [];
        await connection.sendStreamingMessage();
        if (agent.requests.includes(OPERATION_METHODS.send_streaming_message))
          failures.push({
            path: "",
            message:
              "with the public card (streaming: false) a streaming request reached the agent",
          });
        const extended = await connection.useExtendedCard();
        if (!agent.requests.includes(OPERATION_METHODS.get_extended_agent_card))
          failures.push({
            path: "",
            message: `the client did not fetch the extended card (${extended.ok ? "ok" : extended.error})`,
          });
        const before = agent.requests.length;
        await connection.sendStreamingMessage();
        if (!agent.requests.slice(before).includes(OPERATION_METHODS.send_streaming_message))
          failures.push({
            path: "",
            message:
              "after fetching the extended card (streaming: true), the client still does not stream",
          });
        return {
          failures,
          note: `runner-special: public card → no streaming request; extended card fetched → the next streaming request reached the agent (${agent.requests.join(", ")})`,
        };
      } finally {
        await agent.close();
      }
    }),
    "SEC-EXTCARD-001": errorOfStep(
      "get-extended-card-without-auth",
      "UnauthenticatedError",
      401,
      "the extended card without credentials",
    ),
    "SEC-EXTCARD-002": errorOfStep(
      "get-extended-card-insufficient-auth",
      "PermissionDeniedError",
      403,
      "the extended card with a valid token without the right",
    ),
    "SEC-EXTCARD-004": check(async (run) => {
      // The same refusal through the client under test on this binding and as a raw JSON-RPC request.
      const viaClient = await run.caller.call(
        "get_extended_agent_card",
        {},
        { headers: {}, signal: run.signal },
      );
      const raw = await sendHttp({
        method: "POST",
        url: run.endpoints.jsonrpc,
        headers: { "content-type": "application/json", "a2a-version": "1.0" },
        body: EXTENDED_CARD_JSONRPC,
        signal: run.signal,
      });
      const rawJudged = judgeRawResponse(
        "jsonrpc",
        { method: "POST", path: "/", body: EXTENDED_CARD_JSONRPC },
        { status: raw.status, headers: raw.headers, body: raw.bytes },
      );
      const failures: AssertionFailure[] = [
        ...problemsOf(`GetExtendedAgentCard through the ${run.binding} client`, viaClient),
        ...asProblems(rawJudged.violations),
      ];
      if (viaClient.error?.type !== "UnauthenticatedError")
        failures.push({
          path: run.binding,
          message: `without credentials the ${run.binding} client got ${viaClient.error?.type ?? "the card"}`,
        });
      if (rawJudged.error?.type !== "UnauthenticatedError")
        failures.push({
          path: "jsonrpc",
          message: `without credentials JSON-RPC answered ${rawJudged.error?.type ?? `HTTP ${raw.status} without an error`}`,
        });
      return {
        failures,
        note: `runner-special: without credentials the extended card is refused alike on ${run.binding} (client) and JSON-RPC (raw): UnauthenticatedError`,
      };
    }),
    "CORE-CTX-001": check(async (run) => {
      // "verify the server errors instead of minting a new contextId": nothing may exist in that context afterwards.
      const record = await run.caller.call(
        "list_tasks",
        { contextId: "client-generated-context-that-should-be-rejected" },
        { headers: run.headers, signal: run.signal },
      );
      succeeded("ListTasks", record);
      const tasks = valueAt(record.root, "tasks");
      const failures: AssertionFailure[] =
        Array.isArray(tasks) && tasks.length === 0
          ? []
          : [
              {
                path: "tasks",
                message: `ListTasks of the rejected context: ${JSON.stringify(record.root)}`,
              },
            ];
      return {
        failures,
        note: "runner-special: after the rejection, ListTasks finds no task in the client's contextId (none was created under it)",
      };
    }),
    "CORE-ERR-009": check(async (run) => {
      // Another principal's task and a task that does not exist must give the same answer (ids aside).
      const owner = bearer(credentials.reader);
      const sent = await run.caller.call(
        "send_message",
        {
          message: {
            messageId: randomUUID(),
            role: "ROLE_USER",
            parts: [{ text: "tck-complete-task owned by the reader" }],
          },
        },
        { headers: owner, signal: run.signal },
      );
      succeeded("SendMessage", sent);
      const taskId = String(valueAt(sent.root, "task.id"));
      const missingId = randomUUID();
      const other = bearer(credentials.other);
      const [theirs, missing, own] = await Promise.all([
        run.caller.call("get_task", { id: taskId }, { headers: other, signal: run.signal }),
        run.caller.call("get_task", { id: missingId }, { headers: other, signal: run.signal }),
        run.caller.call("get_task", { id: taskId }, { headers: owner, signal: run.signal }),
      ]);
      succeeded("GetTask by the owner", own);
      const failures = [
        ...problemsOf("GetTask of another principal's task", theirs),
        ...problemsOf("GetTask of a missing task", missing),
        ...sameErrorShape(theirs, taskId, missing, missingId),
      ];
      return {
        failures,
        note: "runner-special: another principal's task and a missing task give the same error on the wire (type, code/status, message and details, ids masked)",
      };
    }),
    "SEC-AUTH-001": errorOfStep(
      "send-without-auth",
      "UnauthenticatedError",
      401,
      "SendMessage without credentials",
    ),
    "SEC-AUTH-002": errorOfStep(
      "send-insufficient-auth",
      "PermissionDeniedError",
      403,
      "SendMessage with a valid token without the right",
    ),
    "SEC-AUTH-003": check(async ({ records, variables }) => {
      const other = records.get("get-other-user-task")!;
      const missing = records.get("get-missing-task")!;
      const failures = sameErrorShape(
        other,
        variables["otherUserTaskId"] ?? "",
        missing,
        "00000000-0000-0000-0000-000000000000",
      );
      if (other.error?.type !== "TaskNotFoundError")
        failures.push({
          path: "error",
          message: `another user's task answered ${other.error?.type}, expected TaskNotFoundError`,
        });
      return {
        failures,
        note: "runner-special: another user's task (created by a second principal) and a missing task give the same TaskNotFoundError (ids masked)",
      };
    }),
    "SEC-AUTH-004": check(async (run) => {
      // "unauthenticated requests to all endpoints are rejected": every operation, without credentials.
      const failures: AssertionFailure[] = [];
      for (const [operation, request] of EVERY_OPERATION) {
        const record =
          operation === "send_streaming_message" || operation === "subscribe_to_task"
            ? await run.caller.stream(operation, request, { headers: {}, signal: run.signal })
            : await run.caller.call(operation, request, { headers: {}, signal: run.signal });
        failures.push(...problemsOf(OPERATION_METHODS[operation], record));
        if (record.error?.type !== "UnauthenticatedError")
          failures.push({
            path: OPERATION_METHODS[operation],
            message: `without credentials: ${record.error?.type ?? "served"}`,
          });
        else
          failures.push(
            ...errorOnWireFailures("UnauthenticatedError", record.error, run.binding).map((f) => ({
              ...f,
              path: `${OPERATION_METHODS[operation]}.${f.path}`,
            })),
          );
      }
      return {
        failures,
        note: `runner-special: all ${EVERY_OPERATION.length} operations without credentials answer UnauthenticatedError on ${run.binding}`,
      };
    }),
    "REST-CT-001": check(async ({ records, endpoints, headers, signal }) => {
      const taskId = valueAt(records.get("send")?.root, "task.id");
      const response = await fetch(
        `${endpoints.rest}/tasks/${encodeURIComponent(String(taskId))}`,
        { headers: { "a2a-version": "1.0", ...headers }, signal },
      );
      await response.arrayBuffer();
      const type = response.headers.get("content-type") ?? "";
      const failures: AssertionFailure[] =
        response.status === 200 && type.startsWith("application/a2a+json")
          ? []
          : [
              {
                path: "content-type",
                message: `GET /tasks/{id} answered ${response.status} with Content-Type ${type}`,
              },
            ];
      return { failures, note: `runner-special: GET /tasks/{id} answered Content-Type ${type}` };
    }),
    "CARD-CACHE-001": check(async ({ records }) => {
      const headers = records.get("step-1")?.headers ?? {};
      const failures: AssertionFailure[] = [];
      if (!headers["cache-control"])
        failures.push({
          path: "cache-control",
          message: "no Cache-Control header on the Agent Card",
        });
      if (!headers["etag"])
        failures.push({ path: "etag", message: "no ETag header on the Agent Card" });
      return {
        failures,
        note: `runner-special: Cache-Control "${headers["cache-control"]}", ETag ${headers["etag"]}`,
      };
    }),
    "DM-SERIAL-002": check(async ({ records }) => {
      // Every operation step is validated strictly against a2a.proto on the wire; this one must have been.
      const send = records.get("send");
      const failures: AssertionFailure[] =
        send?.exchange === undefined
          ? [{ path: "", message: "the send step was not judged on the wire" }]
          : [...(send.problems ?? [])];
      return {
        failures,
        note: "runner-special: the response was validated strictly on the wire against a2a.proto (field names, enum names, types, REQUIRED fields, oneofs, no unknown fields)",
      };
    }),
    "SEC-PUSH-001": deliveredWithCredentials(webhook, {
      task: "create-task",
      credentials: "test-token",
    }),
    "SEC-PUSH-002": receiverRejectsForgeries(features),
    "PUSH-DELIV-001": deliveredWithCredentials(webhook, undefined),
    "PUSH-DELIV-002": redelivered(webhook),
    "PUSH-DELIV-003": payloadFormat(webhook),
    "STREAM-MULTI-001": check(async (run) => {
      const taskId = await startLongRunning(run);
      const [a, b] = await Promise.all(
        [0, 1].map(() =>
          run.caller.stream(
            "subscribe_to_task",
            { id: taskId },
            { headers: run.headers, signal: run.signal },
          ),
        ),
      );
      const failures: AssertionFailure[] = [
        ...problemsOf("first stream", a!),
        ...problemsOf("second stream", b!),
      ];
      // The first event of each is its own snapshot of the task; what follows must be the same events in the same order.
      if (JSON.stringify(a!.events?.slice(1)) !== JSON.stringify(b!.events?.slice(1)))
        failures.push({
          path: "events",
          message: `the two streams differ: ${JSON.stringify(a!.events)} vs ${JSON.stringify(b!.events)}`,
        });
      if (!TERMINAL.has(lastState(a!.events ?? []) ?? ""))
        failures.push({ path: "events", message: "the streams did not end at a terminal state" });
      return {
        failures,
        note: `runner-special: two concurrent SubscribeToTask streams on one long-running task got the same ${(a!.events?.length ?? 1) - 1} update(s) after their snapshots`,
      };
    }),
    "STREAM-MULTI-002": check(async (run) => {
      const taskId = await startLongRunning(run);
      let keptAtDrop = -1;
      let keptEvents = 0;
      const kept = run.caller.stream(
        "subscribe_to_task",
        { id: taskId },
        { headers: run.headers, signal: run.signal, onEvent: () => keptEvents++ },
      );
      const dropped = await subscribeUntilFirstEvent(run, taskId);
      keptAtDrop = keptEvents;
      const other = await kept;
      const failures: AssertionFailure[] = droppedStreamProblems(dropped).map((message) => ({
        path: "dropped",
        message,
      }));
      failures.push(...problemsOf("the stream kept open", other));
      if (!TERMINAL.has(lastState(other.events ?? []) ?? "") || other.error !== undefined)
        failures.push({
          path: "kept",
          message: `the remaining stream did not reach a terminal state: ${JSON.stringify(other.root)}`,
        });
      if ((other.events?.length ?? 0) <= keptAtDrop)
        failures.push({
          path: "kept",
          message: `the remaining stream received nothing after the other was closed (${keptAtDrop} event(s) before)`,
        });
      return {
        failures,
        note: `runner-special: one of two streams closed after its first event (${dropped.events?.length} on the wire); the other received ${(other.events?.length ?? 0) - keptAtDrop} more event(s), to ${lastState(other.events ?? [])}`,
      };
    }),
    "STREAM-RESUB-001": check(async (run) => {
      const taskId = await startLongRunning(run);
      const before = await subscribeUntilFirstEvent(run, taskId);
      const again = await run.caller.stream(
        "subscribe_to_task",
        { id: taskId },
        { headers: run.headers, signal: run.signal },
      );
      const failures: AssertionFailure[] = [
        ...droppedStreamProblems(before).map((message) => ({
          path: "first subscription",
          message,
        })),
        ...problemsOf("resubscription", again),
      ];
      const first = again.events?.[0] as JsonObject | undefined;
      if (first?.["task"] === undefined)
        failures.push({
          path: "events[0]",
          message: `the resubscription did not start with the task snapshot: ${JSON.stringify(first)}`,
        });
      if (!TERMINAL.has(lastState(again.events ?? []) ?? ""))
        failures.push({
          path: "events",
          message: "the resubscription did not reach a terminal state",
        });
      return {
        failures,
        note: `runner-special: disconnected after the first event (${before.events?.length} on the wire), resubscribed, got the snapshot and ${(again.events?.length ?? 1) - 1} update(s) to ${lastState(again.events ?? [])}`,
      };
    }),
  };
}

/** A parsed card of a client step, re-pointed at a local fake agent on `binding` (the suite's cards name https://example.com/…). */
function cardAt(
  parsed: JsonValue | undefined,
  binding: Binding,
  endpoints: { readonly jsonrpc: string; readonly rest: string; readonly grpc: string },
): JsonObject {
  const protocolBinding =
    binding === "jsonrpc" ? "JSONRPC" : binding === "rest" ? "HTTP+JSON" : "GRPC";
  const url =
    binding === "grpc"
      ? endpoints.grpc
      : binding === "jsonrpc"
        ? endpoints.jsonrpc
        : endpoints.rest;
  return {
    ...(parsed as JsonObject),
    supportedInterfaces: [{ url, protocolBinding, protocolVersion: "1.0" }],
  };
}
