// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The still-serves oracle (issue #25): an input the agent accepted must not leave it unable to serve
 * what it stored. One request that stored a task no JSON encoder could write (a non-finite number
 * in a Value) answered fine itself, and from then on GetTask of the task and every ListTasks of its
 * owner failed on every JSON binding, for good with SQLite; judging each answer alone never saw it.
 *
 * After every input that saved a task (the store's ledger says which, test/support/fuzz-task-ledger.ts,
 * whatever the answer was), GetTask of each task it saved must succeed and decode on every binding
 * of the target (JSON-RPC, HTTP+JSON, gRPC, and Connect JSON on the started agent), as the task's
 * owner in its tenant. Every `sweepEvery` such inputs, and at the end of a property, the full sweep:
 * for every scope the store holds, ListTasks on every binding, page after page (nextPageToken)
 * until the pages list every task the store holds in the scope, and GetTask of every held task on
 * every binding. The sweeps are kept to `sweepShare` of the property's time (a sweep of the
 * 10,000 tasks a long run ends with takes seconds): a due sweep waits while they used more. With a
 * restartable target (the started agent on its SQLite file) the agent is restarted on the same
 * file every `restartEvery` such inputs and at the end, then swept.
 *
 * Tasks the store dropped (retention: maxTasks, the SQLite purge) are not the oracle's concern: a
 * TaskNotFound for a task the ledger no longer holds is fine. A problem of the sweep is charged to
 * the input that last saved the task (ListTasks problems: the one that saved a task of the scope that
 * GetTask does not serve, else the last input that saved a task of the scope), so that the saved
 * fixture is the input that did it; each (binding, task or scope) is reported once. What the agent
 * logs while the oracle asks is the oracle's finding too (not the next input's).
 */
import { scopeKey, taskKey, type TaskLedger, type TaskRef } from "./fuzz-task-ledger.js";
import {
  tallySkip,
  PROBE_PAGE_SIZE,
  type BindingProbe,
  type Scope,
} from "./fuzz-serving-probes.js";
import { tally } from "./fuzz-harness.js";

/** A system under fuzz as the oracle sees it. */
export interface ServingTarget {
  /** "in-process" or "socket" (for messages). */
  readonly name: string;
  readonly ledger: TaskLedger;
  /** The probes of every binding (a function: a restarted agent listens elsewhere). */
  probes(): readonly BindingProbe[];
  /** Restarts the agent on the same database (absent: it cannot). */
  readonly restart?: () => Promise<void>;
  /** What the agent logged since the last call (its logs while probing belong to the oracle's findings, not to the next input). */
  readonly takeLogs?: () => string[];
}

/** When the oracle sweeps and restarts. */
export interface ServingSchedule {
  /** A full sweep after this many accepted inputs (inputs that saved a task). */
  readonly sweepEvery: number;
  /** Restart the agent (if it can) after this many accepted inputs; 0: only at the end. */
  readonly restartEvery: number;
  /** The share (0..1) of the property's time the due sweeps may use; a due sweep waits while they used more. */
  readonly sweepShare: number;
}

/** Problems charged to an input. */
export interface Attributed<Input> {
  readonly input: Input;
  readonly problems: readonly string[];
}

/** What the oracle did, for the run's figures. */
export interface ServingStats {
  accepted: number;
  tasksChecked: number;
  sweeps: number;
  restarts: number;
  sweepMs: number;
  checkMs: number;
}

/** The still-serves oracle of one property on one target. */
export class ServingOracle<Input> {
  readonly #lastSaver = new Map<string, Input>();
  readonly #scopeSaver = new Map<string, Input>();
  readonly #reported = new Set<string>();
  readonly #started = Date.now();
  #sinceSweep = 0;
  #sinceRestart = 0;
  /** Figures of this oracle. */
  readonly stats: ServingStats = {
    accepted: 0,
    tasksChecked: 0,
    sweeps: 0,
    restarts: 0,
    sweepMs: 0,
    checkMs: 0,
  };

  /**
   * @param target - What is checked.
   * @param schedule - Sweeps and restarts.
   * @param before - What problems of tasks saved before this oracle's first input are charged to (a label).
   */
  constructor(
    readonly target: ServingTarget,
    readonly schedule: ServingSchedule,
    readonly before: Input,
  ) {}

  /**
   * After `input` was sent and judged: checks the tasks it saved (problems: `own`), then sweeps or
   * restarts when due (problems charged to the inputs that saved the tasks: `earlier`).
   */
  async afterInput(input: Input): Promise<{ own: string[]; earlier: Attributed<Input>[] }> {
    const saved = await this.target.ledger.takeSaved();
    if (saved.length === 0) return { own: [], earlier: [] };
    const started = Date.now();
    this.stats.accepted++;
    this.#sinceSweep++;
    this.#sinceRestart++;
    const own: string[] = [];
    for (const ref of saved) {
      const created = !this.#lastSaver.has(taskKey(ref));
      this.#lastSaver.set(taskKey(ref), input);
      this.#scopeSaver.set(scopeKey(ref), input);
      own.push(
        ...(
          await this.#checkTask(
            ref,
            created ? "a task this input saved" : "a task this input saved again",
          )
        ).map((p) => p.problem),
      );
    }
    this.stats.checkMs += Date.now() - started;
    let earlier: Attributed<Input>[] = [];
    if (
      this.target.restart !== undefined &&
      this.schedule.restartEvery > 0 &&
      this.#sinceRestart >= this.schedule.restartEvery
    )
      earlier = await this.#restartAndSweep();
    else if (
      this.#sinceSweep >= this.schedule.sweepEvery &&
      this.stats.sweepMs <= this.schedule.sweepShare * (Date.now() - this.#started)
    )
      earlier = await this.sweep();
    // Problems of this input's own tasks found by the sweep go with the others of this input.
    return {
      own: [...own, ...earlier.filter((e) => e.input === input).flatMap((e) => e.problems)],
      earlier: earlier.filter((e) => e.input !== input),
    };
  }

  /**
   * At the end of the property: the full sweep; with a restartable target (and `restart`, default true) after a
   * restart on its database instead (what it stored persists: a task unservable before is unservable after).
   */
  async atEnd(restart = true): Promise<Attributed<Input>[]> {
    return restart && this.target.restart !== undefined ? this.#restartAndSweep() : this.sweep();
  }

  /** GetTask of `ref` on every binding; problems by binding (none when served, or when the store dropped the task). */
  async #checkTask(ref: TaskRef, what: string): Promise<{ binding: string; problem: string }[]> {
    const problems: { binding: string; problem: string }[] = [];
    this.stats.tasksChecked++;
    for (const probe of this.target.probes()) {
      const r = await probe.getTask(ref);
      if ("skipped" in r) tallySkip(probe.binding, r.skipped);
      else if (
        "problem" in r &&
        !(r.notFound === true && (await this.target.ledger.version(ref)) === undefined)
      )
        problems.push({
          binding: probe.binding,
          problem: `the agent no longer serves ${what} (${this.target.name}): GetTask (${probe.binding}) of task ${JSON.stringify(ref.id)} (tenant ${JSON.stringify(ref.tenant)}, owner ${JSON.stringify(ref.owner)}) answered ${r.problem}`,
        });
    }
    for (const log of this.target.takeLogs?.() ?? [])
      problems.push({
        binding: "log",
        problem: `the agent logged while serving ${what} (${this.target.name}): ${log}`,
      });
    return problems;
  }

  /** The full sweep: ListTasks pages and GetTask of every task the store holds, on every binding. */
  async sweep(): Promise<Attributed<Input>[]> {
    const started = Date.now();
    this.stats.sweeps++;
    const out: Attributed<Input>[] = [];
    const charge = (input: Input | undefined, key: string, problem: string) => {
      if (this.#reported.has(key)) return;
      this.#reported.add(key);
      out.push({ input: input ?? this.before, problems: [problem] });
    };
    // Tasks saved since the last input (work finishing in the background) are checked here.
    await this.target.ledger.takeSaved();
    const held = await this.target.ledger.held();
    const scopes = new Map<string, { scope: Scope; tasks: { ref: TaskRef; version: number }[] }>();
    for (const h of held) {
      const k = scopeKey(h.ref);
      let s = scopes.get(k);
      if (s === undefined)
        scopes.set(k, (s = { scope: { tenant: h.ref.tenant, owner: h.ref.owner }, tasks: [] }));
      s.tasks.push(h);
    }
    // GetTask first: a task that is not served is the likely cause of a ListTasks of its scope that fails.
    const culprit = new Map<string, Input | undefined>();
    for (const { ref } of held) {
      for (const p of await this.#checkTask(ref, "a stored task")) {
        charge(
          this.#lastSaver.get(taskKey(ref)),
          `get ${p.binding} ${taskKey(ref)}`,
          `${p.problem} (full sweep)`,
        );
        if (!culprit.has(scopeKey(ref)))
          culprit.set(scopeKey(ref), this.#lastSaver.get(taskKey(ref)));
      }
    }
    const probes = this.target.probes();
    for (const [k, { scope, tasks }] of scopes) {
      const listCharged = culprit.has(k) ? culprit.get(k) : this.#scopeSaver.get(k);
      const where = `(${this.target.name}, tenant ${JSON.stringify(scope.tenant)}, owner ${JSON.stringify(scope.owner)})`;
      for (const probe of probes) {
        const listed = await this.#listAll(probe, scope, tasks.length);
        if ("skipped" in listed) {
          tallySkip(probe.binding, listed.skipped);
          continue;
        }
        const logs = this.target.takeLogs?.() ?? [];
        for (const log of logs)
          charge(
            listCharged,
            `list log ${probe.binding} ${k}`,
            `the agent logged while listing ${where} (${probe.binding}): ${log}`,
          );
        if ("problem" in listed) {
          charge(
            listCharged,
            `list ${probe.binding} ${k}`,
            `the agent no longer serves ListTasks ${where}: ListTasks (${probe.binding}) ${listed.problem}`,
          );
          continue;
        }
        for (const t of tasks) {
          if (listed.ok.has(t.ref.id)) continue;
          // Saved again during the listing (its place in the order moved) or dropped: not a gap.
          if ((await this.target.ledger.version(t.ref)) !== t.version) continue;
          charge(
            this.#lastSaver.get(taskKey(t.ref)),
            `unlisted ${probe.binding} ${taskKey(t.ref)}`,
            `ListTasks (${probe.binding}) pages ${where} do not list the stored task ${JSON.stringify(t.ref.id)}`,
          );
        }
      }
    }
    tally(
      `still-serves sweep of ${held.length < 100 ? "<100" : held.length < 1_000 ? "<1,000" : "≥1,000"} tasks`,
    );
    this.stats.sweepMs += Date.now() - started;
    this.#sinceSweep = 0;
    return merge(out);
  }

  /** Every page of ListTasks of `scope` on one binding: the ids listed, or the first problem. */
  async #listAll(
    probe: BindingProbe,
    scope: Scope,
    count: number,
  ): Promise<{ ok: Set<string> } | { problem: string } | { skipped: string }> {
    const ids = new Set<string>();
    const tokens = new Set<string>();
    // Pages enough for the tasks held, and a few for tasks created while paging.
    const most = Math.ceil(count / PROBE_PAGE_SIZE) + 5;
    let token = "";
    for (let page = 1; ; page++) {
      const r = await probe.listPage(scope, token);
      if (!("ok" in r)) return "skipped" in r ? r : { problem: `page ${page}: ${r.problem}` };
      for (const id of r.ok.ids) ids.add(id);
      if (r.ok.next === "") return { ok: ids };
      if (tokens.has(r.ok.next))
        return { problem: `page ${page}: nextPageToken repeats an earlier one` };
      if (page >= most)
        return { problem: `more than ${most} pages of ${PROBE_PAGE_SIZE} for ${count} tasks` };
      tokens.add(r.ok.next);
      token = r.ok.next;
    }
  }

  async #restartAndSweep(): Promise<Attributed<Input>[]> {
    const started = Date.now();
    await this.target.restart!();
    this.stats.restarts++;
    this.stats.sweepMs += Date.now() - started;
    this.#sinceRestart = 0;
    tally("still-serves restart on the same database");
    return this.sweep();
  }
}

/** One entry per input. */
function merge<Input>(list: readonly Attributed<Input>[]): Attributed<Input>[] {
  const by = new Map<Input, string[]>();
  for (const a of list) by.set(a.input, [...(by.get(a.input) ?? []), ...a.problems]);
  return [...by.entries()].map(([input, problems]) => ({ input, problems }));
}
