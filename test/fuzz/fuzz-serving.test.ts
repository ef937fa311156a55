// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The still-serves oracle (test/support/fuzz-serving.ts) catches what it is meant to: a task stored
 * with a value no JSON encoder can write (a NaN in its metadata), planted below the decode (the
 * request decoders refuse non-finite numbers since #25, so the defect is planted in the store):
 *
 * - in a fuzz property on the in-process agent whose store keeps a poisoned copy of the tasks of
 *   "poison" messages (the runtime answers from its own clean object, so every answer is fine and
 *   the per-answer oracles see nothing: the same property without the still-serves oracle passes),
 *   GetTask on JSON-RPC and HTTP+JSON is reported for the input that stored it, and ListTasks by
 *   the sweep; gRPC too: binary doubles could carry the NaN, but the task runtime answers a task no
 *   JSON binding can answer with the same clear error on every binding;
 * - a task planted in the store outside any input is reported by the full sweep;
 * - on the example agent's SQLite file, a task written by another connection is reported on
 *   JSON-RPC, HTTP+JSON and Connect at once, and at the end the agent is restarted on the file and swept;
 * - tasks the store dropped by retention (maxTasks) are not reported.
 *
 * And the generators of #25 build what they claim: a non-finite number planted at every
 * Struct/Value position of a SendMessage or CancelTask request (JSON text that parses to ±Infinity;
 * a binary double NaN or ±Infinity that survives protobuf encoding), and SendMessage bodies and
 * gRPC messages exactly one byte under and over their limits, messages of 1,000 and 1,001 parts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { create, fromBinary, toBinary, type JsonObject } from "@bufbuild/protobuf";
import { timestampNow } from "@bufbuild/protobuf/wkt";
import Database from "better-sqlite3";
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { listenGrpc } from "@protoc-gen-a2a/runtime/grpc";
import {
  AgentCardSchema,
  CancelTaskRequestSchema,
  SendMessageRequestSchema,
  TaskSchema,
  TaskState,
  type Task,
} from "../../generated-example/gen/a2a_pb.js";
import { createA2AServiceGrpcRoutes } from "../../generated-example/gen/a2a_a2a_grpc_server.js";
import { startExampleAgent, type ExampleAgent } from "../../generated-example/agent/echo-agent.js";
import { CountingTaskStore, createInProcessAgent, FUZZ_TOKENS } from "../support/fuzz-agent.js";
import { checkJsonRpcAnswer } from "../support/fuzz-checks.js";
import { GrpcFuzzClient } from "../support/fuzz-grpc.js";
import { runFuzzProperty } from "../support/fuzz-harness.js";
import { exchangeInProcess, socketAgent, type HttpInput } from "../support/fuzz-http.js";
import { ServingOracle, type ServingSchedule } from "../support/fuzz-serving.js";
import { inProcessServing, normalSend, socketServing } from "../support/fuzz-targets.js";
import { SqliteTaskLedger } from "../support/fuzz-task-ledger.js";

import { encodePayload } from "../support/fuzz-grpc-inputs.js";
import {
  NONFINITE_MARK,
  nonFinitePlan,
  plantMark,
  replaceMarks,
  withNonFiniteText,
} from "../support/fuzz-nonfinite.js";
import { LIMITS, sizedGrpcMessage, sizedHttpInput } from "../support/fuzz-sizes.js";

const SCHEDULE: ServingSchedule = { sweepEvery: 10, restartEvery: 0, sweepShare: 1 };

/** Whether a task's history holds a text part "poison". */
const poisoned = (task: Task) =>
  task.history.some((m) =>
    m.parts.some((p) => p.content.case === "text" && p.content.value === "poison"),
  );

/** Keeps, for the tasks of "poison" messages, a copy whose metadata holds a NaN; what the runtime answers from stays clean. */
class PoisoningStore extends CountingTaskStore {
  override async saveTask(...args: Parameters<CountingTaskStore["saveTask"]>): Promise<void> {
    const [scope, task] = args;
    await super.saveTask(
      scope,
      poisoned(task as Task) ? { ...(task as Task), metadata: { n: Number.NaN } } : task,
    );
  }
}

/** A task of the anonymous owner whose metadata no JSON encoder can write. */
const poisonedTask = (id: string) =>
  create(TaskSchema, {
    id,
    contextId: `c-${id}`,
    status: { state: TaskState.COMPLETED, timestamp: timestampNow() },
    metadata: { n: Number.NaN },
  });

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  vi.restoreAllMocks();
});

/** An in-process agent on `store`, its gRPC routes listening, as a still-serves target. */
async function inProcessTarget(store: CountingTaskStore) {
  const agent = createInProcessAgent(create(AgentCardSchema, { name: "still-serves" }), store);
  const grpc = await listenGrpc(createA2AServiceGrpcRoutes(agent.handler, agent.serverOptions));
  const client = new GrpcFuzzClient(grpc.address);
  cleanups.push(async () => {
    client.close();
    await grpc.close();
    await agent.close();
  });
  return { agent, target: inProcessServing(agent, client) };
}

describe("the still-serves oracle", () => {
  it("reports the input that stored an unservable task (GetTask on JSON-RPC and HTTP+JSON, ListTasks by the sweep), which no per-answer oracle sees", async () => {
    const arbitrary = fc.constantFrom("hello", "poison", "world").map((text) => normalSend(text));
    const property = async (withOracle: boolean) => {
      const { agent, target } = await inProcessTarget(new PoisoningStore());
      return runFuzzProperty<HttpInput>({
        binding: "still-serves-check",
        transport: "in-process",
        arbitrary,
        runs: 30,
        seed: 25,
        check: async (input) => [
          ...checkJsonRpcAnswer(input, await exchangeInProcess(agent.jsonrpc, input)),
          ...agent.takeLogs(),
        ],
        sanity: async () => [],
        ...(withOracle
          ? {
              serving: new ServingOracle<HttpInput>(
                target,
                SCHEDULE,
                "(before)" as unknown as HttpInput,
              ),
            }
          : {}),
      });
    };
    // Every answer is spec-shaped: without the still-serves oracle nothing is found.
    expect((await property(false)).summary()).toEqual([]);
    const found = (await property(true)).firsts();
    const all = found.flatMap((f) => f.problems).join("\n");
    expect(all).toMatch(
      /the agent no longer serves a task this input saved \(in-process\): GetTask \(jsonrpc\) of task .* answered error -32603/,
    );
    expect(all).toMatch(
      /the agent no longer serves a task this input saved \(in-process\): GetTask \(rest\) of task .* answered HTTP 500/,
    );
    expect(all).toMatch(/ListTasks \(jsonrpc\)/);
    expect(all).toMatch(/ListTasks \(rest\)/);
    // Binary protobuf carries NaN: gRPC still serves the task.
    expect(all).toMatch(/GetTask \(grpc\)/);
    // What is charged to an input is the doing of an input that stored a poisoned task (never of a clean one that came after).
    for (const f of found)
      expect(Buffer.from(f.input.body, "base64").toString(), f.problems.join("; ")).toContain(
        '"text":"poison"',
      );
  });

  it("reports a task planted in the store outside any input in the full sweep, charged to what came before", async () => {
    const store = new CountingTaskStore();
    const { agent, target } = await inProcessTarget(store);
    await exchangeInProcess(agent.jsonrpc, normalSend("a clean task"));
    await store.saveTask({ tenant: "", owner: "" }, poisonedTask("planted"));
    await store.takeSaved();
    const oracle = new ServingOracle<string>(target, SCHEDULE, "(before)");
    expect((await oracle.afterInput("an input that saved nothing")).own).toEqual([]);
    const end = await oracle.atEnd();
    expect(end.map((e) => e.input)).toEqual(["(before)"]);
    const problems = end[0]!.problems.join("\n");
    expect(problems).toMatch(
      /GetTask \(jsonrpc\) of task "planted" .* answered error -32603 .*\(full sweep\)/,
    );
    expect(problems).toMatch(
      /GetTask \(rest\) of task "planted" .* answered HTTP 500 .*\(full sweep\)/,
    );
    expect(problems).toMatch(/ListTasks \(jsonrpc\)/);
    expect(problems).toMatch(/ListTasks \(rest\)/);
    expect(problems).toMatch(/GetTask \(grpc\) of task "planted"/);
    // Reported once: a second sweep adds nothing.
    expect(await oracle.sweep()).toEqual([]);
  });

  it("reports a task written to the example agent's SQLite file at once, and in the sweep after a restart on the file", async () => {
    // The agent logs the failed encodings with their stacks: expected here.
    vi.spyOn(console, "error").mockImplementation(() => {});
    const dir = mkdtempSync(join(tmpdir(), "a2a-still-serves-"));
    const file = join(dir, "tasks.db");
    let agent: ExampleAgent = await startExampleAgent({ tokens: FUZZ_TOKENS, taskDatabase: file });
    const http = socketAgent();
    const grpc = new GrpcFuzzClient(() => agent.grpcAddress);
    const ledger = new SqliteTaskLedger(file);
    cleanups.push(async () => {
      grpc.close();
      http.destroy();
      ledger.close();
      await agent.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const restart = async () => {
      ledger.close();
      await agent.close();
      agent = await startExampleAgent({ tokens: FUZZ_TOKENS, taskDatabase: file });
    };
    const target = socketServing(() => agent, http, grpc, ledger, { restart });
    const oracle = new ServingOracle<string>(target, SCHEDULE, "(before)");
    // Another connection writes below the agent: the request decoders and the store itself refuse a NaN (and a second
    // task store on the agent's file is refused), so the row is written with raw SQL (as an older version's file, or
    // another program, may hold it).
    const poisoned = poisonedTask("written-below");
    const raw = new Database(file);
    raw
      .prepare(
        `INSERT INTO tasks (tenant, owner, id, context_id, state, status_seconds, status_nanos, seq, data, bytes)
         VALUES ('', '', ?, ?, ?, ?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM tasks), ?, 0)`,
      )
      .run(
        poisoned.id,
        poisoned.contextId,
        poisoned.status?.state ?? 0,
        poisoned.status?.timestamp?.seconds ?? 0n,
        poisoned.status?.timestamp?.nanos ?? 0,
        toBinary(TaskSchema, poisoned),
      );
    raw.close();
    const own = (await oracle.afterInput("the write")).own.join("\n");
    expect(own).toMatch(
      /\(socket\): GetTask \(jsonrpc\) of task "written-below" .* answered error -32603/,
    );
    expect(own).toMatch(
      /\(socket\): GetTask \(rest\) of task "written-below" .* answered HTTP 500/,
    );
    expect(own).toMatch(
      /\(socket\): GetTask \(connect\) of task "written-below" .* answered HTTP 500/,
    );
    expect(own).toMatch(/GetTask \(grpc\)/);
    const end = (await oracle.atEnd()).flatMap((e) => e.problems).join("\n");
    expect(oracle.stats.restarts).toBe(1);
    expect(oracle.stats.sweeps).toBe(1);
    expect(end).toMatch(/ListTasks \(jsonrpc\)/);
  });

  it("does not report tasks the store dropped by retention, nor served ones", async () => {
    const store = new CountingTaskStore({ maxTasks: 3 });
    const { agent, target } = await inProcessTarget(store);
    const oracle = new ServingOracle<string>(target, SCHEDULE, "(before)");
    for (let i = 0; i < 6; i++) {
      await exchangeInProcess(agent.jsonrpc, normalSend(`task ${i}`));
      expect(await oracle.afterInput(`input ${i}`)).toEqual({ own: [], earlier: [] });
    }
    expect(await oracle.atEnd()).toEqual([]);
    expect(oracle.stats.accepted).toBe(6);
    expect((await store.held()).length).toBe(3);
  });
});

const send = (): JsonObject => ({
  message: { messageId: "m", role: "ROLE_USER", parts: [{ text: "x" }, { text: "y" }] },
});

/** Whether `v` holds a non-finite number anywhere. */
const hasNonFinite = (v: unknown): boolean =>
  typeof v === "number"
    ? !Number.isFinite(v)
    : typeof v === "object" && v !== null
      ? Object.values(v).some(hasNonFinite)
      : false;

describe("non-finite numbers", () => {
  it("reach every Struct/Value position of a SendMessage: the request's, the message's and a part's metadata, a part's data", () => {
    const fields = new Set<string>();
    for (let at = 0; at < 8; at++) {
      const json = send();
      expect(plantMark(SendMessageRequestSchema, json, { at, depth: at % 4, shape: at })).toBe(
        true,
      );
      const parsed = JSON.parse(withNonFiniteText(JSON.stringify(json), "1e400")) as JsonObject;
      expect(hasNonFinite(parsed), JSON.stringify(json)).toBe(true);
      const message = parsed["message"] as JsonObject;
      if (hasNonFinite(parsed["metadata"])) fields.add("metadata");
      if (hasNonFinite(message["metadata"])) fields.add("message.metadata");
      for (const p of message["parts"] as JsonObject[]) {
        if (hasNonFinite(p["metadata"])) fields.add("part.metadata");
        // A part's data replaces the other members of its oneof.
        if (hasNonFinite(p["data"]))
          fields.add(p["text"] === undefined ? "part.data" : "part.data with text");
      }
    }
    expect([...fields].sort()).toEqual([
      "message.metadata",
      "metadata",
      "part.data",
      "part.metadata",
    ]);
  });

  it("are binary doubles on gRPC, at any depth, in Structs and Values alike", () => {
    fc.assert(
      fc.property(
        nonFinitePlan,
        fc.constantFrom("NaN" as const, "Infinity" as const, "-Infinity" as const),
        (plan, value) => {
          const json = send();
          plantMark(SendMessageRequestSchema, json, plan);
          const bytes = encodePayload(SendMessageRequestSchema, json, "", value);
          expect(bytes).toBeDefined();
          const decoded = fromBinary(SendMessageRequestSchema, bytes!);
          expect(
            JSON.stringify(decoded, (_k, v) => (typeof v === "bigint" ? String(v) : v)),
          ).not.toContain(NONFINITE_MARK);
          expect(hasNonFinite(decoded)).toBe(true);
        },
      ),
      { numRuns: 50, seed: 25 },
    );
    const cancel = create(CancelTaskRequestSchema, { id: "t", metadata: { k: NONFINITE_MARK } });
    expect(replaceMarks(cancel, "NaN")).toBe(1);
    expect(
      Number.isNaN(
        fromBinary(CancelTaskRequestSchema, toBinary(CancelTaskRequestSchema, cancel)).metadata?.[
          "k"
        ],
      ),
    ).toBe(true);
  });
});

describe("sizes", () => {
  it("a body and a gRPC message one byte under and one over the limit, exactly", () => {
    expect(
      Buffer.from(sizedHttpInput({ grow: "body", offset: -1 }, "rest", []).body, "base64").length,
    ).toBe(LIMITS.httpBody - 1);
    for (const offset of [-1, 1])
      expect(sizedGrpcMessage({ grow: "body", offset }).length).toBe(LIMITS.grpcMessage + offset);
    // Past the per-process allowance of stored large bodies (A2A_FUZZ_MAX_BIG, default 2), one under the limit goes one byte over it.
    expect(sizedGrpcMessage({ grow: "body", offset: -1 }).length).toBe(LIMITS.grpcMessage + 1);
  });

  it("messages of 1,000 and 1,001 parts, metadata of 64 KiB", () => {
    for (const offset of [0, 1]) {
      const body = JSON.parse(
        Buffer.from(
          sizedHttpInput({ grow: "parts", offset }, "jsonrpc", []).body,
          "base64",
        ).toString(),
      ) as { params: { message: { parts: unknown[] } } };
      expect(body.params.message.parts.length).toBe(LIMITS.parts + offset);
      const grpc = fromBinary(
        SendMessageRequestSchema,
        sizedGrpcMessage({ grow: "metadata", offset }),
      );
      // jsonSize (runtime/src/pipeline/limits.ts) counts {"k":"…"} as its text plus one.
      expect(JSON.stringify(grpc.message?.metadata).length + 1).toBe(LIMITS.metadata + offset);
    }
  });
});
