// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Fuzzing the JSON-RPC binding of the example agent (issue #17) with fast-check: valid, mutated
 * and random JSON-RPC requests of the 11 methods, envelopes with members missing, mistyped or
 * repeated, batches, random JSON, bytes and unicode, huge numbers, deep nesting, odd HTTP methods,
 * Content-Types, A2A-Version, A2A-Extensions and Authorization values
 * (test/support/fuzz-jsonrpc-inputs.ts). Proves, per input: an answer within the bound; never a
 * 5xx; a JSON-RPC 2.0 response with the request's id (or null when the envelope was unreadable),
 * and an error code of the spec's tables with a matching A2A ErrorInfo; results and stream events
 * that decode as the method's output; no stack trace or internal detail in the answer; nothing
 * logged as an internal error; no unhandled rejection; no task or push config written by a
 * rejected SendMessage, SendStreamingMessage or push-config request; and a normal request still
 * served every 250 inputs and at the end. Most inputs go in-process through the binding's universal
 * handler (the agent's wiring, test/support/fuzz-agent.ts), a share over real sockets to the
 * started example agent. Budget and seed: A2A_FUZZ_RUNS, A2A_FUZZ_SEED, A2A_FUZZ_SOCKET_SHARE
 * (test/support/fuzz-config.ts; the long run is scripts/fuzz.mjs). The regression fixtures of
 * test/fuzz/fixtures/ are replayed first.
 */
import { afterAll, beforeAll, describe } from "vitest";
import { httpFuzzCases, prepared } from "../support/fuzz-http-suite.js";
import { fuzzBudget } from "../support/fuzz-config.js";
import { tally, watchProcessFaults } from "../support/fuzz-harness.js";
import { exchangeInProcess, exchangeOverSocket, type HttpInput } from "../support/fuzz-http.js";
import { checkJsonRpcAnswer } from "../support/fuzz-checks.js";
import {
  envelopeOf,
  jsonRpcInput,
  KNOWN_TASK,
  withKnownTask,
} from "../support/fuzz-jsonrpc-inputs.js";
import {
  otherOwner,
  refusedJsonRpc,
  socketTaskCount,
  startFuzzTargets,
  type FuzzTargets,
} from "../support/fuzz-targets.js";
import type { HttpAnswer } from "../support/fuzz-http.js";

/** Whether a JSON-RPC answer has a result (or stream event) naming `taskId`. */
const servedTask = (answer: HttpAnswer, taskId: string) =>
  !refusedJsonRpc(answer) && answer.body.includes(taskId);

const budget = fuzzBudget("jsonrpc", { runs: 1_500, socketShare: 0.15, msPerInput: 30 });
let targets: FuzzTargets;

beforeAll(async () => {
  watchProcessFaults();
  targets = await startFuzzTargets();
});
afterAll(async () => {
  await targets?.close();
});

const WRITES = new Set([
  "SendMessage",
  "SendStreamingMessage",
  "CreateTaskPushNotificationConfig",
  "DeleteTaskPushNotificationConfig",
]);

/** Sends one input on one transport; returns its problems. */
async function checkOne(transport: "in-process" | "socket", given: HttpInput): Promise<string[]> {
  const raw = await prepared(targets, "jsonrpc", transport, given);
  if ("problem" in raw) return [raw.problem];
  if (transport === "socket" && raw.neverRead === true) {
    // A slow reader: nothing to judge now; the next inputs, the normal requests and the still-serves oracle must be served.
    await targets.slowReaders.http(targets.origin, raw);
    tally("slow reader (never reads its answer)");
    return targets.takeAgentLogs().map((l) => `the agent logged: ${l}`);
  }
  const method = envelopeOf(raw)?.method ?? "";
  // A client that went away may or may not have changed something: no state check.
  const writes = WRITES.has(method) && raw.abortAfterMs === undefined;
  const crossOwner =
    otherOwner(raw.headers) && Buffer.from(raw.body, "base64").includes(KNOWN_TASK);
  if (crossOwner) tally("cross-owner request for the known task");
  if (transport === "in-process") {
    const input = withKnownTask(raw, targets.knownTask.inProcess);
    const store = targets.inProcess.store;
    const before = [store.creations, store.pushConfigWrites];
    const answer = await exchangeInProcess(targets.inProcess.jsonrpc, input);
    const problems = checkJsonRpcAnswer(input, answer);
    if (crossOwner && servedTask(answer, targets.knownTask.inProcess))
      problems.push(`another owner was served the known task: ${answer.body.slice(0, 200)}`);
    if (
      writes &&
      refusedJsonRpc(answer) &&
      (store.creations !== before[0] || store.pushConfigWrites !== before[1])
    )
      problems.push(
        `a refused ${method} changed the store: ${before[0]}→${store.creations} tasks created, ${before[1]}→${store.pushConfigWrites} push-config writes`,
      );
    problems.push(...targets.inProcess.takeLogs().map((l) => `the server logged: ${l}`));
    return problems;
  }
  const input = withKnownTask(raw, targets.knownTask.socket);
  const counted =
    writes &&
    method !== "DeleteTaskPushNotificationConfig" &&
    method !== "CreateTaskPushNotificationConfig";
  const before = counted ? await socketTaskCount(targets, input) : undefined;
  const answer = await exchangeOverSocket(targets.origin, input, targets.http);
  const problems = checkJsonRpcAnswer(input, answer);
  if (crossOwner && servedTask(answer, targets.knownTask.socket))
    problems.push(`another owner was served the known task: ${answer.body.slice(0, 200)}`);
  if (before !== undefined && refusedJsonRpc(answer)) {
    const after = await socketTaskCount(targets, input);
    if (after !== undefined && after !== before)
      problems.push(`a refused ${method} changed ListTasks totalSize ${before}→${after}`);
  }
  problems.push(...targets.takeAgentLogs().map((l) => `the agent logged: ${l}`));
  return problems;
}

describe("JSON-RPC fuzzing", () => {
  httpFuzzCases({
    binding: "jsonrpc",
    arbitrary: jsonRpcInput,
    budget,
    targets: () => targets,
    checkOne,
  });
});
