// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Fuzzing the HTTP+JSON binding of the example agent (issue #17) with fast-check: the generated
 * routes below /a2a/rest with their variables filled by the known task, odd text and
 * percent-encodings, paths bent, other methods, hostile query parameters, valid, mutated and
 * random bodies, and the A2A headers (test/support/fuzz-rest-inputs.ts). Proves, per input: an
 * answer within the bound; never a 5xx; a 2xx whose body decodes as the operation's output (or a
 * stream of StreamResponse events, errors as google.rpc.Status), or a 4xx with a google.rpc.Status
 * body whose code is the HTTP status, whose status is a google.rpc.Code name and whose details
 * carry an A2A ErrorInfo (spec §11.6); no stack trace or internal detail; nothing logged as an
 * internal error; no unhandled rejection; no task or push config written by a refused request;
 * a normal request still served every 250 inputs and at the end. Most inputs in-process through
 * the binding's universal handler, a share over real sockets to the started example agent.
 * Budget and seed: A2A_FUZZ_RUNS, A2A_FUZZ_SEED, A2A_FUZZ_SOCKET_SHARE (scripts/fuzz.mjs for the
 * long run). The regression fixtures of test/fuzz/fixtures/ are replayed first.
 */
import { afterAll, beforeAll, describe } from "vitest";
import { httpFuzzCases, prepared } from "../support/fuzz-http-suite.js";
import type { DescMessage } from "@bufbuild/protobuf";
import { matchRoute } from "@protoc-gen-a2a/runtime/rest";
import { A2AServiceRoutes } from "../../generated-example/gen/a2a_a2a_rest_routes.js";
import { A2AServiceOperationsByName } from "../../generated-example/gen/a2a_a2a_handler.js";
import { fuzzBudget } from "../support/fuzz-config.js";
import { tally, watchProcessFaults } from "../support/fuzz-harness.js";
import { exchangeInProcess, exchangeOverSocket, type HttpInput } from "../support/fuzz-http.js";
import { checkRestAnswer } from "../support/fuzz-checks.js";
import { KNOWN_TASK, withKnownTask } from "../support/fuzz-jsonrpc-inputs.js";
import { REST_BASE, restInput } from "../support/fuzz-rest-inputs.js";
import {
  otherOwner,
  refusedRest,
  socketTaskCount,
  startFuzzTargets,
  type FuzzTargets,
} from "../support/fuzz-targets.js";

const budget = fuzzBudget("rest", { runs: 1_500, socketShare: 0.15, msPerInput: 30 });
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

/** The operation the route table picks for `input`, if any. */
function operationOf(input: HttpInput): string | undefined {
  if (!input.path.startsWith(`${REST_BASE}/`)) return undefined;
  const match = matchRoute(
    A2AServiceRoutes,
    input.method.toUpperCase(),
    input.path.slice(REST_BASE.length),
  );
  return match.kind === "match" ? match.route.operation : undefined;
}

async function checkOne(transport: "in-process" | "socket", given: HttpInput): Promise<string[]> {
  const raw = await prepared(targets, "rest", transport, given);
  if ("problem" in raw) return [raw.problem];
  if (transport === "socket" && raw.neverRead === true) {
    // A slow reader: nothing to judge now; the next inputs, the normal requests and the still-serves oracle must be served.
    await targets.slowReaders.http(targets.origin, raw);
    tally("slow reader (never reads its answer)");
    return targets.takeAgentLogs().map((l) => `the agent logged: ${l}`);
  }
  const operation = operationOf(raw);
  const output: DescMessage | undefined =
    operation === undefined
      ? undefined
      : A2AServiceOperationsByName[operation as keyof typeof A2AServiceOperationsByName].output;
  // A client that went away may or may not have changed something: no state check.
  const writes = operation !== undefined && WRITES.has(operation) && raw.abortAfterMs === undefined;
  const crossOwner =
    otherOwner(raw.headers) &&
    [raw.path, raw.query, Buffer.from(raw.body, "base64").toString("latin1")].some((t) =>
      t.includes(KNOWN_TASK),
    );
  if (crossOwner) tally("cross-owner request for the known task");
  if (transport === "in-process") {
    const input = withKnownTask(raw, targets.knownTask.inProcess);
    const store = targets.inProcess.store;
    const before = [store.creations, store.pushConfigWrites];
    const answer = await exchangeInProcess(targets.inProcess.rest, input);
    const problems = checkRestAnswer(input, answer, output);
    if (crossOwner && !refusedRest(answer) && answer.body.includes(targets.knownTask.inProcess))
      problems.push(`another owner was served the known task: ${answer.body.slice(0, 200)}`);
    if (
      writes &&
      refusedRest(answer) &&
      (store.creations !== before[0] || store.pushConfigWrites !== before[1])
    )
      problems.push(
        `a refused ${operation} changed the store: ${before[0]}→${store.creations} tasks created, ${before[1]}→${store.pushConfigWrites} push-config writes`,
      );
    problems.push(...targets.inProcess.takeLogs().map((l) => `the server logged: ${l}`));
    return problems;
  }
  const input = withKnownTask(raw, targets.knownTask.socket);
  const counted = writes && (operation === "SendMessage" || operation === "SendStreamingMessage");
  const before = counted ? await socketTaskCount(targets, input) : undefined;
  const answer = await exchangeOverSocket(targets.origin, input, targets.http);
  const problems = checkRestAnswer(input, answer, output);
  if (crossOwner && !refusedRest(answer) && answer.body.includes(targets.knownTask.socket))
    problems.push(`another owner was served the known task: ${answer.body.slice(0, 200)}`);
  if (before !== undefined && refusedRest(answer)) {
    const after = await socketTaskCount(targets, input);
    if (after !== undefined && after !== before)
      problems.push(`a refused ${operation} changed ListTasks totalSize ${before}→${after}`);
  }
  problems.push(...targets.takeAgentLogs().map((l) => `the agent logged: ${l}`));
  return problems;
}

describe("HTTP+JSON fuzzing", () => {
  httpFuzzCases({
    binding: "rest",
    arbitrary: restInput,
    budget,
    targets: () => targets,
    checkOne,
  });
});
