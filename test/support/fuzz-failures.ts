// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * What the fuzz properties found: failing inputs grouped by the kind of problem (so that a long
 * run goes on past a known fault and reports every distinct one), the first input of each kind
 * written as a regression fixture to A2A_FUZZ_SAVE_DIR when that is set, and the fixtures
 * replayed by the short run (test/fuzz/fixtures/*.json; test/fuzz/fixtures-open/ holds the ones
 * of faults not fixed yet, which are not replayed).
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { KNOWN_OPEN } from "../fuzz/known-open.js";

/** A regression fixture: one input of one binding and what was wrong with the answer. */
export interface FuzzFixture<Input> {
  readonly binding: string;
  readonly transport: "in-process" | "socket";
  readonly input: Input;
  readonly problems: readonly string[];
  readonly seed: number;
  readonly found: string;
  /** Free text: the finding, its status. */
  readonly note?: string;
}

/** Kinds of fault printed and saved per property at most (a broken server would otherwise flood). */
const MAX_KINDS = 30;

/** The problem text with its variable parts (numbers, quoted values) blanked: one key per kind of fault. */
export function problemKind(problem: string): string {
  // An error thrown or rejected: its class is the kind, not its message.
  const fault =
    /^(unhandled rejection|uncaught exception|the server logged|the agent logged): (?:[^:]*: )?([A-Za-z]*Error)\b/.exec(
      problem,
    );
  if (fault !== null) return `${fault[1]}: ${fault[2]}`;
  return problem
    .replace(/"(?:[^"\\]|\\.)*"/g, '"…"')
    .replace(/\d+/g, "N")
    .slice(0, 160);
}

/** Collects the failures of one property. */
export class FuzzFailures<Input> {
  readonly #kinds = new Map<string, { count: number; fixture: FuzzFixture<Input> }>();
  #total = 0;

  constructor(
    readonly binding: string,
    readonly transport: "in-process" | "socket",
    readonly seed: number,
  ) {}

  /** Inputs that failed. */
  get total(): number {
    return this.#total;
  }

  /** Inputs whose only problems are known open findings, by finding. */
  readonly knownOpen = new Map<string, number>();

  /** Records `problems` of `input` (nothing when empty); returns whether it failed. Problems of known open findings are only counted. */
  record(input: Input, all: readonly string[]): boolean {
    const problems: string[] = [];
    for (const p of all) {
      const known = KNOWN_OPEN.find((k) => k.binding === this.binding && k.problem.test(p));
      if (known === undefined) problems.push(p);
      else this.knownOpen.set(known.finding, (this.knownOpen.get(known.finding) ?? 0) + 1);
    }
    if (problems.length === 0) return false;
    this.#total++;
    const kind = `${this.binding}: ${problemKind(problems[0]!)}`;
    const seen = this.#kinds.get(kind);
    if (seen !== undefined) {
      seen.count++;
      return true;
    }
    const fixture: FuzzFixture<Input> = {
      binding: this.binding,
      transport: this.transport,
      input,
      problems,
      seed: this.seed,
      found: new Date().toISOString(),
    };
    this.#kinds.set(kind, { count: 1, fixture });
    if (this.#kinds.size > MAX_KINDS) return true;
    process.stderr.write(
      `fuzz ${this.binding} (${this.transport}) FAILURE: ${problems.join("; ")}\n  input: ${JSON.stringify(input).slice(0, 2000)}\n`,
    );
    save(fixture);
    return true;
  }

  /** The first failing input of each kind of fault, with its problems. */
  firsts(): FuzzFixture<Input>[] {
    return [...this.#kinds.values()].map((k) => k.fixture);
  }

  /** One line per kind of fault: count, problem, input (for the assertion message). */
  summary(): string[] {
    return [...this.#kinds.entries()].map(
      ([kind, { count, fixture }]) =>
        `${count}× ${kind}\n    first input: ${JSON.stringify(fixture.input).slice(0, 600)}`,
    );
  }
}

function save(fixture: FuzzFixture<unknown>): void {
  const dir = process.env["A2A_FUZZ_SAVE_DIR"];
  if (dir === undefined || dir === "") return;
  mkdirSync(dir, { recursive: true });
  const hash = createHash("sha256")
    .update(JSON.stringify(fixture.input))
    .digest("hex")
    .slice(0, 12);
  const file = join(dir, `${fixture.binding}-${hash}.json`);
  writeFileSync(file, `${JSON.stringify(fixture, null, 2)}\n`);
  process.stderr.write(`  saved as ${file}\n`);
}

/** The regression fixtures of `binding` in `dir` (default A2A_FUZZ_FIXTURES, else test/fuzz/fixtures), for the short run to replay. */
export function loadFixtures<Input>(
  binding: string,
  dir = process.env["A2A_FUZZ_FIXTURES"] || join(import.meta.dirname, "..", "fuzz", "fixtures"),
): FuzzFixture<Input>[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith(".json"));
  } catch {
    return [];
  }
  return names
    .sort()
    .map((n) => JSON.parse(readFileSync(join(dir, n), "utf8")) as FuzzFixture<Input>)
    .filter((f) => f.binding === binding);
}
