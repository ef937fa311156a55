// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Fuzzing both gRPC stacks (issue #17) with fast-check, over real HTTP/2 connections: the example
 * agent's gRPC port (grpc-js, listenA2AServiceGrpc, as `npm run example` serves it) and
 * `listenGrpc` (Connect, with its lean unary path) on the generated routes of the same agent
 * wiring (test/support/fuzz-agent.ts). Inputs (test/support/fuzz-grpc-inputs.ts): the 11 methods
 * and unknown paths; length-prefixed messages built from valid or mutated requests or random
 * bytes, bent, cut, with odd compression flags, lying lengths, several or none; metadata with
 * odd content types, grpc-timeout and grpc-encoding values, A2A-Version, A2A-Extensions,
 * authorization and random keys. Proves, per call (test/support/fuzz-grpc.ts): an answer within
 * the bound; a grpc-status; HTTP 200 (415 for a non-gRPC content type); status details that decode
 * with an A2A ErrorInfo matching the code, and always such an A2A error for a well-formed call
 * that fails; answer messages that decode; no internal detail in grpc-message; nothing logged as an
 * internal error; no unhandled rejection; no task or push config written by a refused call; a
 * normal call still served every 250 calls and at the end; and every task a call saved still served
 * on every binding, with full sweeps, and for grpc-js a restart of the agent on its SQLite file at
 * the end (the still-serves oracle, test/support/fuzz-serving.ts). Budget: A2A_FUZZ_RUNS (split between the
 * two stacks by A2A_FUZZ_SOCKET_SHARE, the grpc-js share), A2A_FUZZ_SEED. Fixtures of
 * test/fuzz/fixtures/ are replayed first.
 */
import { create, toBinary } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GetTaskRequestSchema } from "../../generated-example/gen/a2a_pb.js";
import { fuzzBudget } from "../support/fuzz-config.js";
import { loadFixtures } from "../support/fuzz-failures.js";
import { replayFixtures, servingOracle } from "../support/fuzz-http-suite.js";
import { runFuzzProperty, tally, watchProcessFaults } from "../support/fuzz-harness.js";
import { BIG_TASK } from "../support/fuzz-slow-readers.js";
import { checkGrpcAnswer, GrpcFuzzClient, grpcStatusOf } from "../support/fuzz-grpc.js";
import {
  GRPC_INPUT,
  grpcBody,
  grpcInput,
  SERVICE,
  type GrpcInput,
} from "../support/fuzz-grpc-inputs.js";
import {
  otherOwner,
  socketTaskCount,
  startFuzzTargets,
  type FuzzTargets,
} from "../support/fuzz-targets.js";
import { KNOWN_TASK } from "../support/fuzz-jsonrpc-inputs.js";
import { frame } from "../support/grpc-frames.js";

const budget = fuzzBudget("grpc", { runs: 1_000, socketShare: 0.5, msPerInput: 40 });
let targets: FuzzTargets;
const clients: Record<"grpc-js" | "grpc-connect", GrpcFuzzClient> = {} as never;
/** The target each stack serves: grpc-js is the started agent's port, Connect the in-process agent's `listenGrpc`. */
const TRANSPORT = { "grpc-js": "socket", "grpc-connect": "in-process" } as const;

beforeAll(async () => {
  watchProcessFaults();
  targets = await startFuzzTargets();
  // The started agent's port changes when the still-serves oracle restarts it.
  clients["grpc-js"] = new GrpcFuzzClient(() => targets.agent.grpcAddress);
  clients["grpc-connect"] = new GrpcFuzzClient(targets.inProcessGrpc.address);
});
afterAll(async () => {
  for (const c of Object.values(clients)) c?.close();
  await targets?.close();
});

const WRITES = new Set(
  [
    "SendMessage",
    "SendStreamingMessage",
    "CreateTaskPushNotificationConfig",
    "DeleteTaskPushNotificationConfig",
  ].map((m) => `${SERVICE}/${m}`),
);

/**
 * Whether the call was refused: a non-zero status and no answer message. CANCELLED and DEADLINE_EXCEEDED
 * are not refusals: gRPC leaves the outcome of such a call open (see F5 in bench/output/fuzz-findings.md).
 */
const refused = (status: string | undefined, body: Buffer) =>
  status !== "0" && status !== "1" && status !== "4" && body.length === 0;

async function checkOne(stack: "grpc-js" | "grpc-connect", input: GrpcInput): Promise<string[]> {
  const taskId = stack === "grpc-js" ? targets.knownTask.socket : targets.knownTask.inProcess;
  const big = JSON.stringify(input.frames).includes(BIG_TASK)
    ? await targets.bigTask(TRANSPORT[stack])
    : { id: "" };
  if ("problem" in big) return [big.problem];
  const { body, wellFormed } = grpcBody(input, taskId, big.id);
  if (input.neverRead === true) {
    // A slow reader: nothing to judge now; the next calls, the normal calls and the still-serves oracle must be served.
    await targets.slowReaders.grpc(clients[stack].address, input.path, input.headers, body);
    tally("slow reader (never reads its answer)");
    return (stack === "grpc-js" ? targets.takeAgentLogs() : targets.inProcess.takeLogs()).map(
      (l) => `the server logged: ${l}`,
    );
  }
  const sent = [input.path, ...input.headers.flat(), body.toString("latin1")].join("\n");
  // A cancelled call may or may not have changed something: no state check.
  const writes = WRITES.has(input.path) && input.cancelAfterMs === undefined;
  const store = targets.inProcess.store;
  const before = [store.creations, store.pushConfigWrites];
  const counted =
    writes &&
    stack === "grpc-js" &&
    (input.path === `${SERVICE}/SendMessage` || input.path === `${SERVICE}/SendStreamingMessage`);
  const auth = {
    method: "POST",
    path: "",
    query: "",
    body: "",
    headers: input.headers.filter(([k]) => k === "authorization"),
  };
  const tasksBefore = counted ? await socketTaskCount(targets, auth) : undefined;
  const answer = await clients[stack].call(
    input.path,
    input.headers,
    body,
    15_000,
    input.cancelAfterMs,
  );
  const problems = checkGrpcAnswer(input, answer, wellFormed, sent);
  if (
    otherOwner(input.headers) &&
    JSON.stringify(input.frames).includes(KNOWN_TASK) &&
    grpcStatusOf(answer) === "0" &&
    answer.body.includes(Buffer.from(taskId))
  )
    problems.push("another owner was served the known task");
  const status = grpcStatusOf(answer);
  if (
    stack === "grpc-connect" &&
    writes &&
    refused(status, answer.body) &&
    (store.creations !== before[0] || store.pushConfigWrites !== before[1])
  )
    problems.push(
      `a refused ${input.path} changed the store: ${before[0]}→${store.creations} tasks created, ${before[1]}→${store.pushConfigWrites} push-config writes`,
    );
  if (tasksBefore !== undefined && refused(status, answer.body)) {
    const after = await socketTaskCount(targets, auth);
    if (after !== undefined && after !== tasksBefore)
      problems.push(`a refused ${input.path} changed ListTasks totalSize ${tasksBefore}→${after}`);
  }
  const logs = stack === "grpc-js" ? targets.takeAgentLogs() : targets.inProcess.takeLogs();
  problems.push(...logs.map((l) => `the server logged: ${l}`));
  return problems;
}

/** A normal GetTask of the known task on a stack. */
async function sanity(stack: "grpc-js" | "grpc-connect"): Promise<string[]> {
  const id = stack === "grpc-js" ? targets.knownTask.socket : targets.knownTask.inProcess;
  const payload = toBinary(GetTaskRequestSchema, create(GetTaskRequestSchema, { id }));
  const answer = await clients[stack].call(
    `${SERVICE}/GetTask`,
    [
      ["content-type", "application/grpc"],
      ["te", "trailers"],
      ["a2a-version", "1.0"],
    ],
    frame(payload),
  );
  const status = grpcStatusOf(answer);
  return status === "0"
    ? []
    : [`GetTask: grpc-status ${status}, ${answer.timedOut ? "timed out" : (answer.reset ?? "")}`];
}

describe("gRPC fuzzing", () => {
  it("the request schemas the inputs are built from cover the 11 methods", () => {
    expect(GRPC_INPUT.size).toBe(11);
  });

  it("replays the regression fixtures (test/fuzz/fixtures/)", async () => {
    for (const binding of ["grpc-js", "grpc-connect"] as const) {
      const fixtures = loadFixtures<GrpcInput>(binding);
      if (process.env["A2A_FUZZ_FIXTURES"] === undefined)
        expect(fixtures.length).toBeGreaterThan(0);
      // A late handler failure (F1) surfaces after the answer: 100 ms each.
      await replayFixtures(
        targets,
        fixtures.map((f) => ({ ...f, transport: TRANSPORT[binding] })),
        (_transport, input) => checkOne(binding, input),
        100,
      );
    }
  });

  for (const stack of ["grpc-connect", "grpc-js"] as const) {
    it(
      `${stack === "grpc-js" ? "grpc-js (the example agent's gRPC port)" : "Connect (listenGrpc)"}: every call gets a gRPC status and leaves the server serving`,
      async () => {
        const failures = await runFuzzProperty({
          binding: stack,
          transport: "socket",
          arbitrary: grpcInput,
          runs: stack === "grpc-js" ? budget.socketRuns : budget.inProcessRuns,
          seed: stack === "grpc-js" ? budget.seed + 1 : budget.seed,
          check: (input) => checkOne(stack, input),
          sanity: () => sanity(stack),
          timeShare: 0.5,
          serving: servingOracle(
            targets,
            TRANSPORT[stack],
            "(stored before this property)" as unknown as GrpcInput,
          ),
        });
        expect(failures.summary()).toEqual([]);
      },
      budget.timeoutMs,
    );
  }
});
