// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Runs one fuzz property: `runs` inputs of `arbitrary` (seeded), each handed to `check`, which
 * sends it and returns what is wrong with the answer. Unhandled rejections and uncaught
 * exceptions during an input count against it. Every `sanityEvery` inputs, and at the end, a
 * normal request must still be served (`sanity`). With a still-serves oracle (`serving`,
 * test/support/fuzz-serving.ts), every task an input saved must still be served on every binding,
 * and the oracle's full sweeps (and restarts) run when due and at the end; what they find is charged
 * to the input that saved the task. Failures are collected by kind, not thrown, so
 * that a long run reports every distinct fault (test/support/fuzz-failures.ts); the caller
 * asserts that there were none.
 */
import fc from "fast-check";
import { reportStats } from "./fuzz-config.js";
import { FuzzFailures } from "./fuzz-failures.js";
import type { ServingOracle } from "./fuzz-serving.js";

/** One property to run. */
export interface FuzzProperty<Input> {
  readonly binding: string;
  readonly transport: "in-process" | "socket";
  readonly arbitrary: fc.Arbitrary<Input>;
  readonly runs: number;
  readonly seed: number;
  /** Sends `input` and returns the problems of the answer (empty: fine). */
  readonly check: (input: Input) => Promise<string[]>;
  /** A normal request; returns its problems. */
  readonly sanity: () => Promise<string[]>;
  /** Default 250. */
  readonly sanityEvery?: number;
  /** The share (0..1) of the A2A_FUZZ_MAX_MS time budget this property may use. Default 1. */
  readonly timeShare?: number;
  /** The still-serves oracle of the target the inputs go to (absent: none). */
  readonly serving?: ServingOracle<Input>;
}

/** What the problems of tasks saved by the normal requests are charged to. */
const SANITY = "(a normal request between inputs)";

const kinds = new Map<string, number>();

/** Counts one answer of kind `kind` (e.g. "error -32602"), for the coverage line printed after a run. */
export function tally(kind: string): void {
  kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
}

/** The counted kinds, most frequent first, and resets them. */
function takeTally(): string {
  const out = [...kinds.entries()].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k}: ${n}`);
  kinds.clear();
  return out.join(", ");
}

/** Process-level faults seen since the last call of {@link takeProcessFaults}. */
const processFaults: string[] = [];
let watching = false;

/** Starts recording unhandled rejections and uncaught exceptions (once per process). */
export function watchProcessFaults(): void {
  if (watching) return;
  watching = true;
  process.on("unhandledRejection", (reason) =>
    processFaults.push(
      `unhandled rejection: ${reason instanceof Error ? `${reason.name}: ${reason.message}` : String(reason)}`,
    ),
  );
  process.on("uncaughtExceptionMonitor", (e) =>
    processFaults.push(`uncaught exception: ${e.name}: ${e.message}`),
  );
}

/** The unhandled rejections and uncaught exceptions since the last call. */
export function takeProcessFaults(): string[] {
  return processFaults.splice(0, processFaults.length);
}

/** Runs `property`; returns its failures. */
export async function runFuzzProperty<Input>(
  property: FuzzProperty<Input>,
): Promise<FuzzFailures<Input>> {
  watchProcessFaults();
  const failures = new FuzzFailures<Input>(property.binding, property.transport, property.seed);
  const every = property.sanityEvery ?? 250;
  let count = 0;
  const started = Date.now();
  let lastProgress = started;
  const maxMs = process.env["A2A_FUZZ_MAX_MS"]
    ? Math.max(1_000, Number(process.env["A2A_FUZZ_MAX_MS"]) * (property.timeShare ?? 1))
    : undefined;
  takeTally();
  if (property.runs > 0) {
    await fc.assert(
      fc.asyncProperty(property.arbitrary, async (input) => {
        const problems = await property.check(input);
        // Let stray promise rejections of this input surface before judging it.
        await new Promise((r) => setImmediate(r));
        problems.push(...takeProcessFaults());
        if (property.serving !== undefined) {
          const { own, earlier } = await property.serving.afterInput(input);
          problems.push(...own);
          for (const e of earlier) failures.record(e.input, e.problems);
        }
        count++;
        if (Date.now() - lastProgress >= 60_000) {
          lastProgress = Date.now();
          const rate = Math.round((count * 1000) / (Date.now() - started));
          console.log(
            `fuzz ${property.binding} (${property.transport}): ${count} of ${property.runs} inputs, ${rate} inputs/s, ${failures.total} failing`,
          );
        }
        if (count % every === 0) {
          const sane = await property.sanity();
          if (sane.length > 0)
            problems.push(...sane.map((p) => `a normal request after this input failed: ${p}`));
          if (property.serving !== undefined) {
            const { own, earlier } = await property.serving.afterInput(SANITY as Input);
            if (own.length > 0) failures.record(SANITY as Input, own);
            for (const e of earlier) failures.record(e.input, e.problems);
          }
        }
        failures.record(input, problems);
        return true;
      }),
      {
        numRuns: property.runs,
        seed: property.seed,
        endOnFailure: true,
        // A2A_FUZZ_MAX_MS: stop generating after this long (the long run's time budget); what ran is reported.
        ...(maxMs !== undefined
          ? { interruptAfterTimeLimit: maxMs, markInterruptAsFailure: false }
          : {}),
      },
    );
  }
  const sane = await property.sanity();
  if (sane.length > 0)
    failures.record(
      "(a normal request at the end)" as Input,
      sane.map((p) => `a normal request after the run failed: ${p}`),
    );
  if (property.serving !== undefined) {
    const { own, earlier } = await property.serving.afterInput(SANITY as Input);
    if (own.length > 0) failures.record(SANITY as Input, own);
    for (const e of [...earlier, ...(await property.serving.atEnd())])
      failures.record(e.input, e.problems);
    const s = property.serving.stats;
    console.log(
      `fuzz ${property.binding} (${property.transport}) still serves: ${s.accepted} inputs saved tasks, ${s.tasksChecked} task checks in ${(s.checkMs / 1000).toFixed(1)} s, ${s.sweeps} full sweeps and ${s.restarts} restarts in ${(s.sweepMs / 1000).toFixed(1)} s`,
    );
  }
  console.log(`fuzz ${property.binding} (${property.transport}) answers: ${takeTally()}`);
  const knownOpen = Object.fromEntries(failures.knownOpen);
  if (failures.knownOpen.size > 0)
    console.log(
      `fuzz ${property.binding} (${property.transport}): known open findings hit (test/fuzz/known-open.ts): ${JSON.stringify(knownOpen)}`,
    );
  reportStats({
    binding: property.binding,
    transport: property.transport,
    runs: count,
    ms: Date.now() - started,
    failures: failures.total,
    knownOpen,
    seed: property.seed,
  });
  return failures;
}
