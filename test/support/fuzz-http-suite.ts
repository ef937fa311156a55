// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The three cases every HTTP binding's fuzz file runs (JSON-RPC, HTTP+JSON): replay the regression
 * fixtures, then the property in-process and over sockets, each failing on any problem found.
 */
import type fc from "fast-check";
import { expect, it } from "vitest";
import { timeShares, type FuzzBudget } from "./fuzz-config.js";
import { loadFixtures } from "./fuzz-failures.js";
import { runFuzzProperty, takeProcessFaults } from "./fuzz-harness.js";
import { exchangeInProcess, exchangeOverSocket, type HttpInput } from "./fuzz-http.js";
import { jsonRpcSanity, type FuzzTargets } from "./fuzz-targets.js";

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
    for (const f of fixtures) {
      const problems = [...(await checkOne(f.transport, f.input)), ...takeProcessFaults()];
      expect(problems, `fixture ${JSON.stringify(f.input).slice(0, 300)}`).toEqual([]);
    }
  });

  for (const transport of ["in-process", "socket"] as const) {
    it(
      transport === "in-process" ? "in-process: every input gets a spec-shaped answer and leaves the agent serving" : "over sockets (the started example agent): the same",
      async () => {
        const failures = await runFuzzProperty({
          binding,
          transport,
          arbitrary,
          runs: transport === "in-process" ? budget.inProcessRuns : budget.socketRuns,
          timeShare: timeShares(budget)[transport === "in-process" ? "inProcess" : "socket"],
          seed: transport === "in-process" ? budget.seed : budget.seed + 1,
          check: (input) => checkOne(transport, input),
          sanity: () => jsonRpcSanity((i) => (transport === "in-process" ? exchangeInProcess(targets().inProcess.jsonrpc, i) : exchangeOverSocket(targets().origin, i, targets().http))),
        });
        expect(failures.summary()).toEqual([]);
      },
      budget.timeoutMs,
    );
  }
}
