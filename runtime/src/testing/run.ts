// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The kit's entry: starts the reference agent over every binding (references, then candidates)
 * with the same server options, runs every scenario through each binding's client, and compares
 * each outcome with the first reference's.
 */
import type { AuthRequest } from "../pipeline/call-context.js";
import type { ServerOptions } from "../pipeline/server-pipeline.js";
import type { BindingFactory, BindingUnderTest } from "./binding-factory.js";
import { describeDifference } from "./compare.js";
import type { Outcome } from "./outcome.js";
import {
  createReferenceAgent,
  REFERENCE_REQUIRED_EXTENSION,
  type ReferenceAgent,
} from "./reference-agent.js";
import type {
  EquivalenceBinding,
  EquivalenceCell,
  EquivalenceFailure,
  EquivalenceReport,
} from "./report.js";
import { createScenarioContext } from "./scenario-context.js";
import {
  equivalenceScenarios,
  KIT_CREDENTIALS,
  KIT_PRINCIPALS,
  type EquivalenceScenario,
  type ServerProfile,
} from "./scenarios.js";
import { errorClass, operationsByName, type EquivalenceServiceSpec } from "./service-spec.js";

/** What `runBindingEquivalence` runs. */
export interface BindingEquivalenceOptions<Handler, Client> {
  /**
   * The reference bindings, by name, in order: the first one's outcomes are the expected ones, and
   * every other reference must agree with it. At least one.
   */
  readonly references: Readonly<Record<string, BindingFactory<Handler, Client>>>;
  /** The bindings under test, by name: each must agree with the first reference. */
  readonly candidates?: Readonly<Record<string, BindingFactory<Handler, Client>>> | undefined;
  /**
   * Server options given to every binding, over the kit's (`supportedVersions: ["1.0"]`, an
   * `authenticate` hook the authentication scenarios rely on, a logger that keeps the agent's
   * deliberate crashes quiet).
   */
  readonly serverOptions?: ServerOptions<unknown> | undefined;
  /**
   * The extension the second server profile marks required, for the ExtensionSupportRequiredError
   * scenarios; `false` leaves those scenarios out. Default: the kit's own URI.
   */
  readonly requiredExtension?: string | false | undefined;
  /** Runs only the scenarios this returns true for (by name and group). */
  readonly scenarios?:
    | ((scenario: Pick<EquivalenceScenario, "name" | "group">) => boolean)
    | undefined;
  /** How long one scenario may take on one binding before it fails as timed out. Default 10 000 ms. */
  readonly scenarioTimeoutMs?: number | undefined;
}

/** A binding's server of one profile, started (or the reason it could not be). */
interface Instance<Client> {
  readonly agent: ReferenceAgent;
  readonly started: BindingUnderTest<Client> | undefined;
  readonly startError: string | undefined;
}

/** What one binding did in one scenario. */
type Run =
  | { readonly kind: "outcome"; readonly outcome: Outcome }
  | { readonly kind: "n/a"; readonly why: string }
  | { readonly kind: "broken"; readonly why: string };

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Runs every scenario through every binding and compares the outcomes: a cell fails when its
 * outcome breaks the scenario's expectation (on references too), or differs from the first
 * reference's. Servers are started on demand (one per binding and server profile, each with a
 * reference agent of its own) and all closed before this resolves.
 */
export async function runBindingEquivalence<Handler, Client>(
  spec: EquivalenceServiceSpec,
  options: BindingEquivalenceOptions<Handler, Client>,
): Promise<EquivalenceReport> {
  const references = Object.entries(options.references);
  const candidates = Object.entries(options.candidates ?? {});
  if (references.length === 0)
    throw new Error("runBindingEquivalence needs at least one reference binding");
  const clash = candidates.find(([name]) => Object.hasOwn(options.references, name));
  if (clash !== undefined)
    throw new Error(`binding ${clash[0]} is both a reference and a candidate`);
  const bindings: (EquivalenceBinding & { factory: BindingFactory<Handler, Client> })[] = [
    ...references.map(([name, factory]) => ({ name, role: "reference" as const, factory })),
    ...candidates.map(([name, factory]) => ({ name, role: "candidate" as const, factory })),
  ];
  const ops = operationsByName(spec);
  const requiredExtension =
    options.requiredExtension === false
      ? undefined
      : (options.requiredExtension ?? REFERENCE_REQUIRED_EXTENSION);
  const scenarios = equivalenceScenarios(spec, { requiredExtension }).map((s, i) => ({
    scenario: s,
    key: `s${i + 1}`,
  }));
  const selected = scenarios.filter(
    ({ scenario }) => options.scenarios?.({ name: scenario.name, group: scenario.group }) ?? true,
  );
  const serverOptions = profileOptions(spec, options.serverOptions, requiredExtension);
  const timeoutMs = options.scenarioTimeoutMs ?? DEFAULT_TIMEOUT_MS;

  const instances = new Map<string, Promise<Instance<Client>>>();
  const instance = (
    binding: (typeof bindings)[number],
    profile: ServerProfile,
  ): Promise<Instance<Client>> => {
    const id = `${binding.name}\u0000${profile}`;
    let pending = instances.get(id);
    if (pending === undefined) {
      const agent = createReferenceAgent(spec);
      pending = binding.factory(agent.handler as Handler, serverOptions[profile]).then(
        (started) => ({ agent, started, startError: undefined }),
        (e: unknown) => ({
          agent,
          started: undefined,
          startError: `could not start ${binding.name} (${profile} server options): ${e instanceof Error ? e.message : String(e)}`,
        }),
      );
      instances.set(id, pending);
    }
    return pending;
  };

  const runs = new Map<string, Run>();
  try {
    for (const binding of bindings) {
      for (const { scenario, key } of selected) {
        runs.set(
          `${scenario.name}\u0000${binding.name}`,
          await runOne(
            spec,
            ops,
            scenario,
            key,
            await instance(binding, scenario.profile),
            timeoutMs,
          ),
        );
      }
    }
  } finally {
    const closing = [...instances.values()].map(async (p) => (await p).started?.close());
    await Promise.allSettled(closing);
  }

  const cells: EquivalenceCell[] = [];
  const failures: EquivalenceFailure[] = [];
  for (const { scenario } of selected) {
    const runOf = (name: string) => runs.get(`${scenario.name}\u0000${name}`) as Run;
    const reference = bindings.find(
      (b) => b.role === "reference" && runOf(b.name).kind === "outcome",
    );
    const referenceOutcome =
      reference === undefined
        ? undefined
        : (runOf(reference.name) as Extract<Run, { kind: "outcome" }>).outcome;
    const referenceSound =
      referenceOutcome !== undefined && scenario.expect?.(referenceOutcome) === undefined;
    for (const binding of bindings) {
      const run = runOf(binding.name);
      const fail = (message: string, comparedWith?: string) => {
        failures.push({
          scenario: scenario.name,
          binding: binding.name,
          comparedWith,
          message: `${scenario.name}: ${message}`,
        });
        return {
          scenario: scenario.name,
          binding: binding.name,
          status: "FAIL" as const,
          message,
          outcome: run.kind === "outcome" ? run.outcome : undefined,
        };
      };
      if (run.kind === "n/a") {
        cells.push({
          scenario: scenario.name,
          binding: binding.name,
          status: "n/a",
          message: run.why,
        });
        continue;
      }
      if (run.kind === "broken") {
        cells.push(fail(run.why));
        continue;
      }
      const problem = scenario.expect?.(run.outcome);
      if (problem !== undefined) {
        cells.push(fail(problem));
        continue;
      }
      if (
        reference !== undefined &&
        reference !== binding &&
        referenceSound &&
        referenceOutcome !== undefined
      ) {
        const difference = describeDifference(referenceOutcome, run.outcome);
        if (difference !== undefined) {
          cells.push(fail(difference, reference.name));
          continue;
        }
      }
      cells.push({
        scenario: scenario.name,
        binding: binding.name,
        status: "pass",
        outcome: run.outcome,
      });
    }
  }
  return {
    service: spec.service,
    bindings: bindings.map(({ name, role }) => ({ name, role })),
    scenarios: selected.map(({ scenario }) => ({ name: scenario.name, group: scenario.group })),
    cells,
    failures,
    ok: failures.length === 0,
  };
}

/** Runs one scenario on one binding's instance, within the time limit; a scenario never throws. */
async function runOne<Client>(
  spec: EquivalenceServiceSpec,
  ops: ReturnType<typeof operationsByName>,
  scenario: EquivalenceScenario,
  key: string,
  instance: Instance<Client>,
  timeoutMs: number,
): Promise<Run> {
  if (instance.started === undefined)
    return { kind: "broken", why: instance.startError ?? "the binding did not start" };
  const { started, agent } = instance;
  if (scenario.needsClientOptions && started.clientWith === undefined)
    return { kind: "n/a", why: "the binding offers no clientWith(options)" };
  const deadline = new AbortController();
  const { context, steps } = createScenarioContext({
    spec,
    ops,
    agent,
    client: started.client as object,
    clientWith:
      started.clientWith === undefined
        ? undefined
        : (o) => (started.clientWith as NonNullable<typeof started.clientWith>)(o) as object,
    key,
    signal: deadline.signal,
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => {
      deadline.abort(
        new DOMException(`the scenario timed out after ${timeoutMs} ms`, "TimeoutError"),
      );
      resolve("timeout");
    }, timeoutMs);
  });
  try {
    const result = await Promise.race([
      scenario.run(context).then(() => "done" as const),
      timedOut,
    ]);
    if (result === "timeout")
      return {
        kind: "broken",
        why: `timed out after ${timeoutMs} ms (steps so far: ${steps.map((s) => s.label).join(", ") || "none"})`,
      };
    return { kind: "outcome", outcome: steps };
  } catch (e) {
    return {
      kind: "broken",
      why: `the scenario failed: ${e instanceof Error ? e.message : String(e)}`,
    };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The server options of each profile: the kit's (versions, authentication, a quiet logger), then the
 * caller's, then for "required-extension" the required extension added.
 */
function profileOptions(
  spec: EquivalenceServiceSpec,
  given: ServerOptions<unknown> | undefined,
  requiredExtension: string | undefined,
): Record<ServerProfile, ServerOptions<unknown>> {
  const authenticate = ({ serviceParameters }: AuthRequest) => {
    const credentials = serviceParameters.get("authorization");
    if (credentials === undefined) return KIT_PRINCIPALS.anonymous;
    if (credentials === KIT_CREDENTIALS.user) return KIT_PRINCIPALS.user;
    if (credentials === KIT_CREDENTIALS.denied)
      throw new (errorClass(spec, "PermissionDeniedError"))(
        "the kit's denied user may not call this agent",
      );
    throw new (errorClass(spec, "UnauthenticatedError"))("unknown credentials");
  };
  const base: ServerOptions<unknown> = {
    supportedVersions: ["1.0"],
    authenticate,
    logger: { error() {} },
    ...given,
  };
  return {
    default: base,
    "required-extension": {
      ...base,
      requiredExtensions: [
        ...(base.requiredExtensions ?? []),
        ...(requiredExtension === undefined ? [] : [requiredExtension]),
      ],
    },
  };
}
