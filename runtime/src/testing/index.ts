// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * `@protoc-gen-a2a/runtime/testing` (Node only): the binding-equivalence kit. The same scenarios
 * run through every binding's client against one reference agent, and each outcome is compared
 * with the reference bindings' (spec §5.1: every binding has the same operations, behaviour and
 * errors). The generated `check<Service>BindingEquivalence` (`<file>_a2a_equivalence.ts`) calls
 * {@link runBindingEquivalence} with the service's tables and the emitted bindings as references;
 * a custom binding joins as a candidate with a {@link BindingFactory}:
 *
 * ```ts
 * const report = await checkA2AServiceBindingEquivalence({
 *   candidates: { "my-binding": async (handler, serverOptions) => {
 *     const server = await startMyServer(handler, serverOptions);
 *     return { client: new MyClient({ url: server.url }), clientWith: (o) => new MyClient({ ...o, url: server.url }), close: () => server.close() };
 *   } },
 * });
 * assertBindingEquivalence(report); // throws with the Markdown table and one line per failure
 * ```
 */
export type {
  BindingFactory,
  BindingUnderTest,
  EquivalenceClientOptions,
} from "./binding-factory.js";
export type { EquivalenceServiceSpec } from "./service-spec.js";
export { runBindingEquivalence, type BindingEquivalenceOptions } from "./run.js";
export {
  assertBindingEquivalence,
  BindingEquivalenceError,
  equivalenceCell,
  formatEquivalenceReport,
  type EquivalenceBinding,
  type EquivalenceCell,
  type EquivalenceFailure,
  type EquivalenceReport,
  type EquivalenceStatus,
} from "./report.js";
export type {
  ErrorOutcome,
  EventOutcome,
  Observed,
  Outcome,
  OutcomeStep,
  StreamEnd,
} from "./outcome.js";
export { describeDifference } from "./compare.js";
export type { EquivalenceScenario, ScenarioGroup, ServerProfile } from "./scenarios.js";
export { KIT_CREDENTIALS, KIT_PRINCIPALS, KIT_TENANT } from "./scenarios.js";
export type { ScenarioContext, StepOptions, StreamStepOptions } from "./scenario-context.js";
export {
  createReferenceAgent,
  REFERENCE_COMMANDS,
  REFERENCE_CONTEXT_TASK_ID,
  REFERENCE_ECHO_EXTENSION,
  REFERENCE_REQUIRED_EXTENSION,
  REFERENCE_SECRET,
  type ReferenceAgent,
  type ReferenceHandler,
} from "./reference-agent.js";
export { listenHttp, type ListeningHttp } from "./listen.js";
