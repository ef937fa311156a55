// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Crash safety of the example agent on SQLite (issue #17): the agent (`generated-example/agent/main.ts`
 * with `A2A_TASK_DB`, a child process) is loaded by concurrent clients on JSON-RPC, HTTP+JSON and gRPC
 * (SendMessage creating completed, input-required and long-running tasks; CreateTaskPushNotificationConfig),
 * killed with SIGKILL at a random moment, restarted on the same file, three rounds; after each restart
 * every task and push config whose creation a client saw acknowledged (over all rounds so far) is read
 * back (GetTask on every binding, GetTaskPushNotificationConfig, ListTasks) in its acknowledged state
 * or a later one: nothing acknowledged is lost (test/support/crash-harness.ts; bench/crash-safety.mjs
 * runs more rounds).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { TaskState } from "../../../generated-example/gen/a2a_pb.js";
import {
  type AgentProcess,
  crashRound,
  isSameOrLater,
  Ledger,
  startAgentProcess,
  bundleExampleAgent,
} from "../../support/crash-harness.js";
import { randomSource } from "../../support/crash-random.js";

let dir = "";
let entry = "";
let agent: AgentProcess | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "a2a-crash-"));
  entry = await bundleExampleAgent();
}, 60_000);

afterAll(async () => {
  await agent?.kill();
  rmSync(dir, { recursive: true, force: true });
  rmSync(entry, { force: true });
}, 30_000);

it("orders states as the task state machine does", () => {
  expect(isSameOrLater(TaskState.SUBMITTED, TaskState.WORKING)).toBe(true);
  expect(isSameOrLater(TaskState.WORKING, TaskState.SUBMITTED)).toBe(false);
  expect(isSameOrLater(TaskState.INPUT_REQUIRED, TaskState.COMPLETED)).toBe(true);
  expect(isSameOrLater(TaskState.COMPLETED, TaskState.COMPLETED)).toBe(true);
  expect(isSameOrLater(TaskState.COMPLETED, TaskState.FAILED)).toBe(false);
  expect(isSameOrLater(TaskState.COMPLETED, TaskState.WORKING)).toBe(false);
});

it("loses no acknowledged task or push config across three kill -9 rounds under load", async () => {
  const { random, seed } = randomSource();
  const db = join(dir, "tasks.db");
  const ledger = new Ledger();
  agent = await startAgentProcess(entry, db);
  const lost: string[] = [];
  for (let round = 0; round < 3; round++) {
    const { result, agent: restarted } = await crashRound(agent, entry, db, ledger, {
      workersPerBinding: 3,
      minMs: 400,
      maxMs: 1500,
      random,
    });
    agent = restarted;
    // The round really ran under load and was cut short: calls were acknowledged and calls failed.
    expect(result.load.acknowledged, `round ${round} (seed ${seed})`).toBeGreaterThan(0);
    expect(result.load.failed, `round ${round} (seed ${seed})`).toBeGreaterThan(0);
    // Until the kill, the agent answered every call.
    expect(result.load.errors, `round ${round} (seed ${seed})`).toEqual([]);
    expect(result.load.failedAlive).toBe(0);
    lost.push(...result.verification.lost.map((l) => `round ${round}: ${l}`));
    expect(result.verification.tasksFound + result.verification.lost.length).toBeGreaterThanOrEqual(
      ledger.tasks.size,
    );
  }
  expect(lost, `seed ${seed}`).toEqual([]);
  const states = new Set(ledger.tasks.values());
  // Each kind of acknowledgement was exercised.
  expect(states.has(TaskState.COMPLETED), `seed ${seed}`).toBe(true);
  expect(states.has(TaskState.INPUT_REQUIRED), `seed ${seed}`).toBe(true);
  expect(ledger.configs.size, `seed ${seed}`).toBeGreaterThan(0);
}, 90_000);
