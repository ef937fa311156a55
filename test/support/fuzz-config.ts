// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The fuzz budget, from the environment, shared by the short run in `npm test` and the long
 * run of scripts/fuzz.mjs (which sets these variables and runs the same test files):
 *
 * | variable               | meaning                                                          | default      |
 * | ---------------------- | ---------------------------------------------------------------- | ------------ |
 * | A2A_FUZZ_RUNS          | inputs per binding (in-process and socket together)              | per file     |
 * | A2A_FUZZ_SEED          | fast-check seed (printed either way)                             | time-based   |
 * | A2A_FUZZ_SOCKET_SHARE  | share of the inputs sent over real sockets (0..1)                | per file     |
 * | A2A_FUZZ_SAVE_DIR      | where a failing input is written as a fixture; unset: not saved  | unset        |
 * | A2A_FUZZ_STATS         | a file each property appends one JSON line of figures to         | unset        |
 * | A2A_FUZZ_SWEEP_EVERY   | still-serves oracle: a full sweep after this many accepted inputs | 250          |
 * | A2A_FUZZ_SWEEP_SHARE   | still-serves oracle: the share of a property's time sweeps may use | 0.1          |
 * | A2A_FUZZ_RESTART_EVERY | restart the started agent on its database after this many accepted socket inputs (0: at the end only) | 0 |
 * | A2A_FUZZ_STILL_SERVES  | "off": no still-serves oracle (to measure what it costs)        | on           |
 * | A2A_FUZZ_SOCKET_STORE  | the started agent's store: "sqlite" (a temporary file) or "memory" (no still-serves oracle over sockets) | sqlite |
 * | A2A_FUZZ_HEAVY         | inputs per 10,000 that are slow: a body or message at its size limit, a slow reader (each) | 0 (scripts/fuzz.mjs: 2) |
 * | A2A_FUZZ_MAX_BIG       | near-limit bodies under the limit (stored) sent per process at most; later ones go over it | 2 |
 */
import { appendFileSync } from "node:fs";
import type { ServingSchedule } from "./fuzz-serving.js";

/** The budget of one binding's properties. */
export interface FuzzBudget {
  /** Inputs handled in-process (through the binding's universal handler). */
  readonly inProcessRuns: number;
  /** Inputs sent over real sockets to the started example agent. */
  readonly socketRuns: number;
  readonly seed: number;
  /** Test timeout for a property, ms: generous, scaled with the runs. */
  readonly timeoutMs: number;
}

function numberFromEnv(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0)
    throw new Error(`${name} must be a non-negative number, got ${JSON.stringify(raw)}`);
  return n;
}

/** The seed of this process: A2A_FUZZ_SEED, else one drawn now (printed by {@link fuzzBudget}). */
const SEED = numberFromEnv("A2A_FUZZ_SEED") ?? (Date.now() ^ (process.pid << 8)) >>> 0;

/**
 * The budget of `binding`: `defaults.runs` inputs (A2A_FUZZ_RUNS overrides), `defaults.socketShare`
 * of them over sockets (A2A_FUZZ_SOCKET_SHARE overrides). Prints the seed.
 */
export function fuzzBudget(
  binding: string,
  defaults: { readonly runs: number; readonly socketShare: number; readonly msPerInput?: number },
): FuzzBudget {
  const runs = Math.round(numberFromEnv("A2A_FUZZ_RUNS") ?? defaults.runs);
  const share = Math.min(1, numberFromEnv("A2A_FUZZ_SOCKET_SHARE") ?? defaults.socketShare);
  const socketRuns = Math.round(runs * share);
  const budget = {
    inProcessRuns: runs - socketRuns,
    socketRuns,
    seed: SEED,
    timeoutMs: 120_000 + runs * (defaults.msPerInput ?? 20),
  };
  console.log(
    `fuzz ${binding}: seed ${SEED} (A2A_FUZZ_SEED=${SEED} to replay), ${budget.inProcessRuns} in-process + ${socketRuns} socket inputs`,
  );
  return budget;
}

/**
 * How a time budget (A2A_FUZZ_MAX_MS) is split between the in-process and the socket property of a binding: by
 * their runs, a socket input counted as 3 in-process ones (what it costs on a loaded machine).
 */
export function timeShares(budget: FuzzBudget): { inProcess: number; socket: number } {
  const weight = budget.inProcessRuns + 3 * budget.socketRuns;
  return weight === 0
    ? { inProcess: 0.5, socket: 0.5 }
    : { inProcess: budget.inProcessRuns / weight, socket: (3 * budget.socketRuns) / weight };
}

/** One property's figures, appended as a JSON line to A2A_FUZZ_STATS when it is set, and printed. */
export interface FuzzStats {
  readonly binding: string;
  readonly transport: "in-process" | "socket";
  readonly runs: number;
  readonly ms: number;
  readonly failures: number;
  /** Inputs that hit known open findings (test/fuzz/known-open.ts), by finding. */
  readonly knownOpen: Readonly<Record<string, number>>;
  readonly seed: number;
}

/** Prints `stats` and appends them to A2A_FUZZ_STATS. */
export function reportStats(stats: FuzzStats): void {
  const rate = stats.ms > 0 ? Math.round((stats.runs * 1000) / stats.ms) : 0;
  console.log(
    `fuzz ${stats.binding} (${stats.transport}): ${stats.runs} inputs in ${(stats.ms / 1000).toFixed(1)} s, ${rate} inputs/s, ${stats.failures} failing, seed ${stats.seed}`,
  );
  const file = process.env["A2A_FUZZ_STATS"];
  if (file !== undefined && file !== "")
    appendFileSync(file, `${JSON.stringify({ ...stats, rate })}\n`);
}

/** The still-serves oracle's schedule (test/support/fuzz-serving.ts), from A2A_FUZZ_SWEEP_EVERY, A2A_FUZZ_SWEEP_SHARE, A2A_FUZZ_RESTART_EVERY. */
export function servingSchedule(): ServingSchedule {
  return {
    sweepEvery: Math.max(1, Math.round(numberFromEnv("A2A_FUZZ_SWEEP_EVERY") ?? 250)),
    sweepShare: Math.min(1, numberFromEnv("A2A_FUZZ_SWEEP_SHARE") ?? 0.1),
    restartEvery: Math.round(numberFromEnv("A2A_FUZZ_RESTART_EVERY") ?? 0),
  };
}

/** A non-negative number from the environment, or `fallback`. */
export function fuzzSetting(name: string, fallback: number): number {
  return numberFromEnv(name) ?? fallback;
}

/** The weight per 10,000 inputs of the slow kinds (A2A_FUZZ_HEAVY: bodies at the size limits, slow readers), at most 1,000. */
export function heavyPer10k(): number {
  return Math.min(1_000, Math.round(numberFromEnv("A2A_FUZZ_HEAVY") ?? 0));
}
