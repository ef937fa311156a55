// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Fuzzing SSE reconnects on the example agent (issue #17), over real sockets: a streaming message
 * (JSON-RPC or HTTP+JSON; the ACTS behaviours that stream, wait, chunk, ask for input or run until
 * canceled) is cut off after a random number of events or a random delay, then re-subscribed with
 * SubscribeToTask one to three times (JSON-RPC, REST GET or POST :subscribe), each stream cut again
 * after a few events. Proves, per input: every event decodes as a StreamResponse of the same task;
 * a subscription opens with the Task as its first event (spec §3.1.6), or is refused with
 * UnsupportedOperation only when the task is terminal; a stream ends when its task is terminal; no
 * stream hangs without an event or an end within the bound; after the input is answered or the
 * task canceled, the task is terminal and a new subscription is refused with UnsupportedOperation;
 * no unhandled rejection, nothing logged; a normal request is still served; and every task still
 * served on every binding, also after a restart of the agent on its SQLite file (the still-serves
 * oracle, test/support/fuzz-serving.ts). Budget:
 * A2A_FUZZ_RUNS (default 34 here), A2A_FUZZ_SEED.
 */
import fc from "fast-check";
import { fromJson, type JsonValue } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StreamResponseSchema } from "../../generated-example/gen/a2a_pb.js";
import { fuzzBudget } from "../support/fuzz-config.js";
import { loadFixtures } from "../support/fuzz-failures.js";
import { runFuzzProperty, tally, watchProcessFaults } from "../support/fuzz-harness.js";
import { replayFixtures, servingOracle } from "../support/fuzz-http-suite.js";
import { checkRestError, JSONRPC_CODES } from "../support/fuzz-checks.js";
import { exchangeOverSocket } from "../support/fuzz-http.js";
import {
  INTERRUPTED,
  openStream,
  stateOf,
  TERMINAL,
  taskIdOf,
  type OpenStream,
  type SseItem,
} from "../support/fuzz-sse.js";
import { jsonRpcSanity, startFuzzTargets, type FuzzTargets } from "../support/fuzz-targets.js";

const budget = fuzzBudget("sse", { runs: 34, socketShare: 1, msPerInput: 3_000 });
let targets: FuzzTargets;

beforeAll(async () => {
  watchProcessFaults();
  targets = await startFuzzTargets();
});
afterAll(async () => {
  await targets?.close();
});

const BEHAVIOURS = [
  "tck-long-running",
  "tck-stream-chunked",
  "tck-stream-basic",
  "fuzz echo",
  "tck-input-required",
  "tck-cancel",
] as const;

/** One reconnect scenario. */
interface SseInput {
  readonly behaviour: (typeof BEHAVIOURS)[number];
  readonly start: "jsonrpc" | "rest";
  /** Events read from the first stream before the cut. */
  readonly cutAfter: number;
  readonly rounds: readonly {
    readonly binding: "jsonrpc" | "rest-get" | "rest-post";
    readonly events: number;
  }[];
}

const sseInput: fc.Arbitrary<SseInput> = fc.record({
  behaviour: fc.constantFrom(...BEHAVIOURS),
  start: fc.constantFrom("jsonrpc" as const, "rest" as const),
  cutAfter: fc.nat(4),
  rounds: fc.array(
    fc.record({
      binding: fc.constantFrom("jsonrpc" as const, "rest-get" as const, "rest-post" as const),
      events: fc.nat(3),
    }),
    { minLength: 1, maxLength: 3 },
  ),
});

const EVENT_MS = 5_000;
/** How long a stream of a task that waits (for input, or for a cancel) is read before it is cut. */
const IDLE_MS = 250;
/** Whether a task in `state` may rest there (no event due): interrupted, or a tck-cancel task working. */
const resting = (input: SseInput, state: string | undefined) =>
  INTERRUPTED.has(state ?? "") ||
  (input.behaviour === "tck-cancel" && state === "TASK_STATE_WORKING");
let rpcId = 0;
const rpc = (method: string, params: unknown) => ({ jsonrpc: "2.0", id: ++rpcId, method, params });

/** Problems of one stream item. */
function itemProblems(
  item: SseItem,
  binding: "jsonrpc" | "rest",
  taskId: string | undefined,
): string[] {
  if (item.kind === "error") {
    if (binding === "rest") {
      const problems: string[] = [];
      checkRestError(
        item.json,
        (item.json as { error?: { code?: number } })?.error?.code ?? 0,
        problems,
      );
      return problems;
    }
    const code = (item.json as { code?: number })?.code;
    return typeof code === "number" && JSONRPC_CODES.has(code)
      ? []
      : [`a JSON-RPC stream error that is not spec-shaped: ${item.raw.slice(0, 200)}`];
  }
  try {
    fromJson(StreamResponseSchema, item.json as JsonValue);
  } catch (e) {
    return [`an event that is not a StreamResponse: ${e instanceof Error ? e.message : String(e)}`];
  }
  const id = taskIdOf(item.json);
  return taskId !== undefined && id !== undefined && id !== taskId
    ? [`an event of task ${id} on the stream of task ${taskId}`]
    : [];
}

/** The error reason of a refused subscription (JSON-RPC code or REST ErrorInfo reason). */
function refusal(stream: OpenStream, first: SseItem | undefined): string | undefined {
  if (stream.body !== undefined) {
    try {
      const b = JSON.parse(stream.body) as {
        error?: { code?: number; details?: { reason?: string }[] };
      };
      return b.error?.details?.[0]?.reason ?? String(b.error?.code);
    } catch {
      return `unreadable: ${stream.body.slice(0, 100)}`;
    }
  }
  if (first?.kind === "error")
    return (
      (
        first.json as {
          code?: number;
          data?: { reason?: string }[];
          error?: { details?: { reason?: string }[] };
        }
      ).data?.[0]?.reason ??
      (first.json as { error?: { details?: { reason?: string }[] } }).error?.details?.[0]?.reason ??
      "?"
    );
  return undefined;
}

async function getTaskState(id: string): Promise<string | undefined> {
  const res = await fetch(targets.agent.endpoints.jsonrpc, {
    method: "POST",
    headers: { "content-type": "application/json", "a2a-version": "1.0" },
    body: JSON.stringify(rpc("GetTask", { id })),
  });
  const body = (await res.json()) as { result?: { status?: { state?: string } } };
  return body.result?.status?.state;
}

/** Subscribes to `taskId` on `binding`. */
function subscribe(binding: "jsonrpc" | "rest-get" | "rest-post", taskId: string) {
  const { jsonrpc, rest } = targets.agent.endpoints;
  if (binding === "jsonrpc")
    return openStream(jsonrpc, rpc("SubscribeToTask", { id: taskId }), "jsonrpc", "POST", EVENT_MS);
  return openStream(
    `${rest}/tasks/${encodeURIComponent(taskId)}:subscribe`,
    binding === "rest-post" ? {} : undefined,
    "rest",
    binding === "rest-post" ? "POST" : "GET",
    EVENT_MS,
  );
}

async function checkOne(input: SseInput): Promise<string[]> {
  const problems: string[] = [];
  const { jsonrpc, rest } = targets.agent.endpoints;
  const message = {
    message: { messageId: `m-${++rpcId}`, role: "ROLE_USER", parts: [{ text: input.behaviour }] },
  };
  const first = await (input.start === "jsonrpc"
    ? openStream(jsonrpc, rpc("SendStreamingMessage", message), "jsonrpc")
    : openStream(`${rest}/message:stream`, message, "rest"));
  if (first === "timeout") return ["SendStreamingMessage: no answer within the bound (hang)"];
  let taskId: string | undefined;
  let state: string | undefined;
  for (let n = 0; n < Math.max(1, input.cutAfter); n++) {
    const item = await first.next(resting(input, state) ? IDLE_MS : EVENT_MS);
    if (item === "timeout") {
      if (!resting(input, state))
        problems.push(
          `SendStreamingMessage: no event and no end within ${EVENT_MS} ms (state ${state})`,
        );
      break;
    }
    if (item === undefined) break;
    problems.push(...itemProblems(item, input.start, taskId));
    if (item.kind === "event") {
      taskId ??= taskIdOf(item.json);
      state = stateOf(item.json) ?? state;
    }
  }
  first.cut();
  tally(`${input.behaviour}: first stream cut in ${state ?? "no state"}`);
  if (taskId === undefined) {
    // A Message answer (no task) or a cut before the first event: nothing to re-subscribe to.
    if (input.behaviour !== "fuzz echo" && input.cutAfter > 0 && problems.length === 0)
      problems.push("no task id in the first events of a task-creating behaviour");
    return problems;
  }
  for (const round of input.rounds) {
    const stream = await subscribe(round.binding, taskId);
    if (stream === "timeout") {
      problems.push(`SubscribeToTask (${round.binding}): no answer within the bound (hang)`);
      continue;
    }
    const binding = round.binding === "jsonrpc" ? "jsonrpc" : "rest";
    const head = stream.body === undefined ? await stream.next(EVENT_MS) : undefined;
    const refused = refusal(stream, head === "timeout" ? undefined : head);
    tally(`subscribe ${refused === undefined ? "streamed" : `refused ${refused}`}`);
    if (refused !== undefined) {
      const now = await getTaskState(taskId);
      if ((refused !== "UNSUPPORTED_OPERATION" && refused !== "-32004") || !TERMINAL.has(now ?? ""))
        problems.push(
          `SubscribeToTask (${round.binding}) refused with ${refused} while the task is ${now}`,
        );
      stream.cut();
      continue;
    }
    if (head === "timeout" || head === undefined) {
      problems.push(
        `SubscribeToTask (${round.binding}): ${head === "timeout" ? "no first event within the bound" : "ended without an event"}`,
      );
      stream.cut();
      continue;
    }
    problems.push(...itemProblems(head, binding, taskId));
    if (head.kind !== "event" || head.json["task"] === undefined)
      problems.push(
        `SubscribeToTask (${round.binding}): the first event is not the Task: ${head.raw.slice(0, 200)}`,
      );
    let last = head.kind === "event" ? stateOf(head.json) : undefined;
    for (let n = 0; n < round.events; n++) {
      const item = await stream.next(resting(input, last) ? IDLE_MS : EVENT_MS);
      if (item === undefined) {
        if (!TERMINAL.has(last ?? ""))
          problems.push(
            `SubscribeToTask (${round.binding}): the stream ended with the task ${last}`,
          );
        break;
      }
      if (item === "timeout") {
        if (!resting(input, last))
          problems.push(
            `SubscribeToTask (${round.binding}): no event and no end within ${EVENT_MS} ms (task ${last})`,
          );
        break;
      }
      problems.push(...itemProblems(item, binding, taskId));
      if (item.kind === "event") last = stateOf(item.json) ?? last;
      if (TERMINAL.has(last ?? "")) {
        const end = await stream.next(EVENT_MS);
        if (end !== undefined)
          problems.push(
            `SubscribeToTask (${round.binding}): the stream did not end after the terminal state (${end === "timeout" ? "timeout" : end.raw.slice(0, 100)})`,
          );
        break;
      }
    }
    stream.cut();
  }
  // Finish the task: answer the input it asked for, or cancel it; then it must be terminal and refuse subscriptions.
  const now = await getTaskState(taskId);
  if (INTERRUPTED.has(now ?? "")) {
    const follow = {
      message: { messageId: `m-${++rpcId}`, taskId, role: "ROLE_USER", parts: [{ text: "done" }] },
    };
    await exchangeOverSocket(
      targets.origin,
      {
        method: "POST",
        path: "/a2a/jsonrpc",
        query: "",
        headers: [
          ["content-type", "application/json"],
          ["a2a-version", "1.0"],
        ],
        body: Buffer.from(JSON.stringify(rpc("SendMessage", follow))).toString("base64"),
      },
      targets.http,
    );
  } else if (input.behaviour === "tck-cancel" && !TERMINAL.has(now ?? "")) {
    await fetch(`${rest}/tasks/${encodeURIComponent(taskId)}:cancel`, {
      method: "POST",
      headers: { "content-type": "application/json", "a2a-version": "1.0" },
      body: "{}",
    });
  }
  let final: string | undefined;
  for (
    const end = Date.now() + 10_000;
    Date.now() < end;
    await new Promise((r) => setTimeout(r, 20))
  ) {
    final = await getTaskState(taskId);
    if (TERMINAL.has(final ?? "")) break;
  }
  if (!TERMINAL.has(final ?? ""))
    problems.push(`the task is ${final}, not terminal, after it was answered or canceled`);
  else {
    const stream = await subscribe("rest-get", taskId);
    const refused =
      stream === "timeout"
        ? "timeout"
        : refusal(
            stream,
            stream.body === undefined
              ? ((await stream.next(EVENT_MS)) as SseItem | undefined)
              : undefined,
          );
    if (stream !== "timeout") stream.cut();
    if (refused !== "UNSUPPORTED_OPERATION")
      problems.push(
        `SubscribeToTask on the terminal task: ${refused ?? "a stream"}, not UnsupportedOperation`,
      );
  }
  problems.push(...targets.takeAgentLogs().map((l) => `the agent logged: ${l}`));
  return problems;
}

describe("SSE reconnect fuzzing", () => {
  it("replays the regression fixtures (test/fuzz/fixtures/)", async () => {
    const fixtures = loadFixtures<SseInput>("sse");
    if (process.env["A2A_FUZZ_FIXTURES"] === undefined) expect(fixtures.length).toBeGreaterThan(0);
    await replayFixtures(targets, fixtures, (_transport, input) => checkOne(input));
  });

  it(
    "streams cut and re-subscribed: spec-shaped events, the Task first, terminal tasks refuse, nothing hangs",
    async () => {
      const failures = await runFuzzProperty({
        binding: "sse",
        transport: "socket",
        arbitrary: sseInput,
        runs: budget.socketRuns + budget.inProcessRuns,
        seed: budget.seed,
        check: checkOne,
        sanity: () => jsonRpcSanity((i) => exchangeOverSocket(targets.origin, i, targets.http)),
        sanityEvery: 20,
        serving: servingOracle(
          targets,
          "socket",
          "(stored before this property)" as unknown as SseInput,
        ),
      });
      expect(failures.summary()).toEqual([]);
    },
    budget.timeoutMs,
  );
});
