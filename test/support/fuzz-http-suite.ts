// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The three cases every HTTP binding's fuzz file runs (JSON-RPC, HTTP+JSON): replay the regression
 * fixtures, then the property in-process and over sockets, each failing on any problem found, each
 * with the still-serves oracle of its target (test/support/fuzz-serving.ts).
 */
import type fc from "fast-check";
import { expect, it } from "vitest";
import { servingSchedule, timeShares, type FuzzBudget } from "./fuzz-config.js";
import { loadFixtures } from "./fuzz-failures.js";
import { runFuzzProperty, takeProcessFaults } from "./fuzz-harness.js";
import { exchangeInProcess, exchangeOverSocket, type HttpInput } from "./fuzz-http.js";
import { ServingOracle } from "./fuzz-serving.js";
import { sizedHttpInput } from "./fuzz-sizes.js";
import { namesBigTask, withBigTask } from "./fuzz-slow-readers.js";
import { jsonRpcSanity, type FuzzTargets } from "./fuzz-targets.js";

/**
 * `raw` ready to send on `transport`: a sized SendMessage built (test/support/fuzz-sizes.ts), the big task
 * named (created on first use: test/support/fuzz-slow-readers.ts); or the problem of creating the big task.
 */
export async function prepared(
  targets: FuzzTargets,
  binding: "jsonrpc" | "rest",
  transport: "in-process" | "socket",
  raw: HttpInput,
): Promise<HttpInput | { problem: string }> {
  let input = raw.grow === undefined ? raw : sizedHttpInput(raw.grow, binding, raw.headers);
  if (namesBigTask(input)) {
    const big = await targets.bigTask(transport);
    if ("problem" in big) return big;
    input = withBigTask(input, big.id);
  }
  return raw.neverRead === true ? { ...input, neverRead: true } : input;
}

/** The still-serves oracle of `transport`'s target (undefined: A2A_FUZZ_STILL_SERVES=off, or none over sockets: the started agent keeps its tasks in memory). */
export function servingOracle<Input>(
  targets: FuzzTargets,
  transport: "in-process" | "socket",
  before: Input,
): ServingOracle<Input> | undefined {
  if (process.env["A2A_FUZZ_STILL_SERVES"] === "off") return undefined;
  const target = transport === "in-process" ? targets.serving.inProcess : targets.serving.socket;
  return target === undefined
    ? undefined
    : new ServingOracle<Input>(target, servingSchedule(), before);
}

/**
 * Replays `fixtures` through `checkOne`, each also judged by the still-serves oracle, then the oracles' full
 * sweep: expects no problem.
 */
export async function replayFixtures<Input>(
  targets: FuzzTargets,
  fixtures: readonly { readonly transport: "in-process" | "socket"; readonly input: Input }[],
  checkOne: (transport: "in-process" | "socket", input: Input) => Promise<string[]>,
  settleMs = 0,
): Promise<void> {
  const before = "(stored before the fixtures)" as Input;
  const used = (t: "in-process" | "socket") =>
    fixtures.some((f) => f.transport === t) ? servingOracle(targets, t, before) : undefined;
  const oracles = { "in-process": used("in-process"), socket: used("socket") };
  for (const f of fixtures) {
    const problems = await checkOne(f.transport, f.input);
    // A late handler failure surfaces after the answer.
    if (settleMs > 0) await new Promise((r) => setTimeout(r, settleMs));
    problems.push(...takeProcessFaults());
    const serving = await oracles[f.transport]?.afterInput(f.input);
    problems.push(...(serving?.own ?? []), ...(serving?.earlier.flatMap((e) => e.problems) ?? []));
    expect(problems, `fixture ${JSON.stringify(f.input).slice(0, 300)}`).toEqual([]);
  }
  for (const oracle of Object.values(oracles)) {
    // No restart here: each socket property restarts the agent at its end.
    const end = (await oracle?.atEnd(false)) ?? [];
    expect(
      end.map((e) => `${e.problems.join("; ")} — input ${JSON.stringify(e.input).slice(0, 300)}`),
      "the still-serves oracle after the fixtures",
    ).toEqual([]);
  }
}

/** What one HTTP binding's fuzz file provides. */
export interface HttpFuzzSuite {
  /** "jsonrpc" or "rest" (fixtures and failure reports are named by it). */
  readonly binding: string;
  readonly arbitrary: fc.Arbitrary<HttpInput>;
  readonly budget: FuzzBudget;
  /** The started targets (set in the file's beforeAll). */
  readonly targets: () => FuzzTargets;
  /** Sends one input and returns its problems (empty: fine). */
  readonly checkOne: (transport: "in-process" | "socket", input: HttpInput) => Promise<string[]>;
}

/** Declares the fixture replay and the in-process and socket properties of `suite` (inside a describe). */
export function httpFuzzCases(suite: HttpFuzzSuite): void {
  const { binding, arbitrary, budget, targets, checkOne } = suite;
  it("replays the regression fixtures (test/fuzz/fixtures/)", async () => {
    const fixtures = loadFixtures<HttpInput>(binding);
    if (process.env["A2A_FUZZ_FIXTURES"] === undefined) expect(fixtures.length).toBeGreaterThan(0);
    await replayFixtures(targets(), fixtures, checkOne);
  });

  for (const transport of ["in-process", "socket"] as const) {
    it(
      transport === "in-process"
        ? "in-process: every input gets a spec-shaped answer and leaves the agent serving what it stored"
        : "over sockets (the started example agent on SQLite, restarted at the end): the same",
      async () => {
        const failures = await runFuzzProperty({
          binding,
          transport,
          arbitrary,
          runs: transport === "in-process" ? budget.inProcessRuns : budget.socketRuns,
          timeShare: timeShares(budget)[transport === "in-process" ? "inProcess" : "socket"],
          seed: transport === "in-process" ? budget.seed : budget.seed + 1,
          check: (input) => checkOne(transport, input),
          sanity: () =>
            jsonRpcSanity((i) =>
              transport === "in-process"
                ? exchangeInProcess(targets().inProcess.jsonrpc, i)
                : exchangeOverSocket(targets().origin, i, targets().http),
            ),
          serving: servingOracle(
            targets(),
            transport,
            "(stored before this property)" as unknown as HttpInput,
          ),
        });
        expect(failures.summary()).toEqual([]);
      },
      budget.timeoutMs,
    );
  }
}
