/**
 * The ACTS runner (§4–§9, §12): runs the tests of loaded documents against one agent on one
 * binding through one `ActsClient`, and returns a result per test (pass / fail / skip with
 * its reason / error). Tests run in parallel (§4: no shared state), steps in order.
 *
 * Readings of the suite where it strays from its own format (each one documented where it is
 * applied): operation-name aliases and request shapes (operations.ts); `expect_error.code`
 * for `error_type` and `data` for `details`; `expect` keys other than `status`/`body` are
 * body assertions; an operation that failed has status "error" and the root
 * `{error: {type, code, message, details}}`; event views (streams.ts); `items` (assertions.ts).
 */
import { randomUUID } from "node:crypto";
import type { ActsClient, ActsError, AgentEndpoints, Binding, JsonObject, JsonValue, OperationOutcome } from "./client.js";
import type { ActsDocument, ActsStep, ActsTest, Level } from "./document.js";
import { check, show, type AssertionFailure } from "./assertions.js";
import { buildRequest, isStreamOperation, resolveOperation, type AbstractOperation } from "./operations.js";
import { resolvePath, valueAt } from "./paths.js";
import { sendHttp, type HttpResult } from "./raw-http.js";
import { checkStream } from "./streams.js";
import { RESPONSE_SCHEMAS, withRequiredFields } from "./canonical-json.js";
import { interpolate, UnresolvedVariableError, type VariableScope } from "./variables.js";

export type Outcome = "pass" | "fail" | "skip" | "error";
/** Why a test was skipped: it does not apply (transport, capability the card does not declare) or the runner/SUT lacks something. */
export type SkipKind = "transport" | "capability" | "behaviour" | "runner";

export interface FailureDetail {
  readonly message: string;
  readonly step_id?: string;
  readonly expected?: string;
  readonly actual?: string;
  readonly assertion_path?: string;
}

export interface StepResult {
  readonly id: string;
  readonly result: Outcome;
  readonly duration_ms: number;
  readonly failure?: FailureDetail;
}

export interface TestResult {
  readonly file: string;
  readonly suite: { readonly id: string; readonly name: string };
  readonly id: string;
  readonly name: string;
  readonly level: Level;
  readonly result: Outcome;
  readonly duration_ms: number;
  readonly skip_reason?: string;
  readonly skip_kind?: SkipKind;
  readonly failure?: FailureDetail;
  readonly steps: readonly StepResult[];
  /** What the runner did beyond or short of the test's text (runner-special checks). */
  readonly notes: readonly string[];
}

/** An extra check for a test whose text asks the runner for more than its steps (tag `runner-special`). */
export interface SpecialCheckRun {
  readonly records: ReadonlyMap<string, StepRecord>;
  readonly client: ActsClient;
  readonly binding: Binding;
  readonly endpoints: AgentEndpoints;
  readonly signal: AbortSignal;
}
export type SpecialCheck = (run: SpecialCheckRun) => Promise<{ failures: AssertionFailure[]; note: string }>;

export interface RunnerConfig {
  readonly binding: Binding;
  readonly client: ActsClient;
  readonly endpoints: AgentEndpoints;
  /** The agent's public card (ProtoJSON), for preconditions. */
  readonly card: JsonObject;
  /** SUT behaviour prefixes the agent implements (§11). */
  readonly behaviours: ReadonlySet<string>;
  /** Runner-provided variables (below document variables, §12.2). */
  readonly variables: Readonly<Record<string, string>>;
  /** Headers sent with get_extended_agent_card (credentials, runner requirement `auth_credentials`). */
  readonly authHeaders?: Readonly<Record<string, string>>;
  /** Runner requirements this runner can satisfy (§3.2). */
  readonly runnerRequirements: ReadonlySet<string>;
  readonly specialChecks?: Readonly<Record<string, SpecialCheck>>;
  /** Parses a canonical wire payload with the client of this binding (client steps, §10); absent = client steps are skipped. */
  readonly parseWirePayload?: (operation: AbstractOperation, payload: JsonValue, signal: AbortSignal) => Promise<OperationOutcome>;
  /** Per-step time limit unless the step says otherwise (`expect_stream.timeout_ms`). */
  readonly stepTimeoutMs?: number;
  readonly concurrency?: number;
}

/** What a step produced: the assertion root, status, and for streams the events. */
export interface StepRecord {
  readonly root: JsonValue | undefined;
  /** HTTP status for raw steps and get_agent_card; 200 for a successful operation; "error" for a failed one. */
  readonly status: number | "error";
  readonly error?: ActsError;
  readonly events?: JsonValue[];
  readonly headers?: Readonly<Record<string, string>>;
}

/** ACTS error names that our catalog (the A2A v1.0.1 names) spells differently. */
const ERROR_ALIASES: Readonly<Record<string, string>> = {
  JSONParseError: "JsonParseError",
  ExtendedCardNotSupportedError: "ExtendedAgentCardNotConfiguredError",
  // v1.0 has no StreamingNotSupportedError: §3.3.4 answers a missing streaming capability with UnsupportedOperationError.
  StreamingNotSupportedError: "UnsupportedOperationError",
};

class StepFailure extends Error {
  constructor(readonly detail: FailureDetail) {
    super(detail.message);
  }
}

const isMap = (v: unknown): v is JsonObject => v !== null && typeof v === "object" && !Array.isArray(v);
const sleep = (ms: number, signal?: AbortSignal) => new Promise<void>((resolve) => { const t = setTimeout(resolve, ms); signal?.addEventListener("abort", () => { clearTimeout(t); resolve(); }, { once: true }); });

function failWith(stepId: string, failures: readonly AssertionFailure[], context?: string): never {
  const first = failures[0]!;
  const more = failures.length > 1 ? ` (+${failures.length - 1} more: ${failures.slice(1, 4).map((f) => `${f.path}: ${f.message}`).join("; ")})` : "";
  throw new StepFailure({
    message: `${context ? `${context}: ` : ""}${first.path === "" ? "" : `${first.path}: `}${first.message}${more}`,
    step_id: stepId,
    ...(first.expected !== undefined ? { expected: first.expected } : {}),
    ...(first.actual !== undefined ? { actual: first.actual } : {}),
    assertion_path: first.path,
  });
}

function errorRoot(error: ActsError): JsonObject {
  return {
    error: {
      type: error.type,
      ...(error.code !== undefined ? { code: error.code } : {}),
      message: error.message,
      ...(error.details !== undefined ? { details: [...error.details], data: [...error.details] } : {}),
    },
  };
}

/** Maps an assertion on an error name to our catalog's names (string or one_of list). */
function normalizeErrorName(assertion: JsonValue): JsonValue {
  if (typeof assertion === "string") return ERROR_ALIASES[assertion] ?? assertion;
  if (isMap(assertion) && Array.isArray(assertion["one_of"])) return { ...assertion, one_of: assertion["one_of"].map(normalizeErrorName) };
  return assertion;
}

/** The error a raw HTTP response carries (JSON-RPC error object or §11.6 body), named by its ErrorInfo reason. */
function errorOfRawBody(result: HttpResult): ActsError | undefined {
  const body = result.body;
  if (!isMap(body) || !isMap(body["error"])) return undefined;
  const error = body["error"];
  const details = (Array.isArray(error["data"]) ? error["data"] : Array.isArray(error["details"]) ? error["details"] : []) as JsonValue[];
  const info = details.find((d) => isMap(d) && typeof d["reason"] === "string") as JsonObject | undefined;
  const reason = typeof info?.["reason"] === "string" ? info["reason"] : undefined;
  const type = reason === undefined ? "UnknownError" : `${reason.toLowerCase().replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase())}Error`;
  return { type, message: typeof error["message"] === "string" ? error["message"] : "", details, httpStatus: result.status, ...(typeof error["code"] === "number" && result.status === 200 ? { code: error["code"] } : {}) };
}

/**
 * §12.4 "If a request includes a message and no messageId is specified in the test, the
 * runner MUST auto-generate" one: also for raw bodies, where the suite's JSON-RPC
 * SendMessage requests (and an HTTP+JSON send body) omit it and expect success. And, as for
 * operation params, a `taskId`/`contextId` written beside the message moves into it
 * (SendMessageRequest has no such fields; CORE-ERR-008 relies on it).
 */
export function withMessageId(body: JsonValue): JsonValue {
  if (!isMap(body)) return body;
  const fill = (message: JsonValue | undefined): JsonValue | undefined => (isMap(message) && message["messageId"] === undefined ? { ...message, messageId: randomUUID() } : message);
  if (isMap(body["params"]) && isMap(body["params"]["message"])) {
    // The same reading as for operation params (operations.ts): taskId/contextId written beside the message belong in it.
    const { taskId, contextId, ...params } = body["params"];
    const message = { ...(body["params"]["message"] as JsonObject), ...(taskId !== undefined && body["params"]["message"]["taskId"] === undefined ? { taskId } : {}), ...(contextId !== undefined && body["params"]["message"]["contextId"] === undefined ? { contextId } : {}) };
    return { ...body, params: { ...params, message: fill(message)! } };
  }
  if (body["message"] !== undefined && body["jsonrpc"] === undefined) return { ...body, message: fill(body["message"])! };
  return body;
}

/** Why a test does not run here, if it does not. */
function skipReason(test: ActsTest, config: RunnerConfig): { kind: SkipKind; reason: string } | undefined {
  const transports = test.transport ?? test.preconditions?.transport;
  if (transports !== undefined && !transports.includes(config.binding)) return { kind: "transport", reason: `applies to ${transports.join(", ")} only` };
  const capabilities = isMap(config.card["capabilities"]) ? config.card["capabilities"] : {};
  for (const [name, wanted] of Object.entries(test.preconditions?.capabilities ?? {})) {
    const declared = capabilities[name] ?? (typeof wanted === "boolean" ? false : undefined);
    if (JSON.stringify(declared) !== JSON.stringify(wanted)) return { kind: "capability", reason: `precondition capabilities.${name} = ${show(wanted)}; the card declares ${show(declared)}` };
  }
  const skills = Array.isArray(config.card["skills"]) ? config.card["skills"].filter(isMap).map((s) => s["id"]) : [];
  for (const skill of test.preconditions?.skills ?? []) if (!skills.includes(skill.id)) return { kind: "capability", reason: `precondition skill ${skill.id} is not in the card` };
  const extensions = Array.isArray(capabilities["extensions"]) ? capabilities["extensions"].filter(isMap).map((e) => e["uri"]) : [];
  for (const uri of test.preconditions?.extensions ?? []) if (!extensions.includes(uri)) return { kind: "capability", reason: `precondition extension ${uri} is not declared` };
  const missing = test.requires_behaviors.filter((b) => !config.behaviours.has(b));
  if (missing.length > 0) return { kind: "behaviour", reason: `the agent does not implement ${missing.join(", ")}` };
  const unsupported = test.runner_requirements.filter((r) => !config.runnerRequirements.has(r));
  if (unsupported.length > 0) return { kind: "runner", reason: `runner requirement ${unsupported.join(", ")} not supported` };
  if (config.parseWirePayload === undefined && test.steps.some((s) => s.client_response !== undefined)) return { kind: "runner", reason: "client steps are not supported for this client" };
  if (config.binding === "grpc" && test.steps.some((s) => s.raw !== undefined)) return { kind: "runner", reason: "raw HTTP steps have no gRPC form" };
  return undefined;
}

/** The wait after attempt `attempt` (1-based) of a `repeat` (§9: delay_ms, default 1000, with its backoff). */
function repeatDelay(repeat: NonNullable<ActsStep["repeat"]>, attempt: number): number {
  const delay = repeat.delay_ms ?? 1000;
  return repeat.backoff === "linear" ? delay * attempt : repeat.backoff === "exponential" ? delay * 2 ** (attempt - 1) : delay;
}

/** Evaluates `repeat.until` (§9.1): `path == v`, `path != v`, `path in [a, b]`. */
export function evaluateUntil(expression: string, root: JsonValue | undefined): boolean {
  const m = /^\s*([^\s=!]+)\s*(==|!=|in)\s*([^\s=].*?)\s*$/.exec(expression);
  if (m === null) throw new Error(`malformed until expression "${expression}"`);
  const literal = (text: string): JsonValue => {
    const t = text.trim();
    if (/^".*"$|^'.*'$/.test(t)) return t.slice(1, -1);
    if (t === "true" || t === "false") return t === "true";
    if (t === "null") return null;
    if (t !== "" && Number.isFinite(Number(t))) return Number(t);
    return t;
  };
  const actual = valueAt(root, m[1]!);
  if (m[2] === "in") {
    const list = /^\[(.*)\]$/.exec(m[3]!);
    if (list === null) throw new Error(`"in" needs a [list] in "${expression}"`);
    return list[1]!.split(",").map(literal).some((v) => v === actual);
  }
  const equal = literal(m[3]!) === actual;
  return m[2] === "==" ? equal : !equal;
}

/** Runs a named assertion / assertion step (§5.5). */
function checkNamedAssertion(assertion: JsonObject, scope: VariableScope): AssertionFailure[] {
  const source = interpolate(assertion["source"], scope);
  const base = typeof assertion["path"] === "string" ? valueAt(source, assertion["path"]) : source;
  const failures: AssertionFailure[] = [];
  if (assertion["match"] !== undefined) failures.push(...check(base, interpolate(assertion["match"], scope)!));
  for (const mode of ["any", "all", "none"] as const) {
    const spec = assertion[mode];
    if (spec === undefined) continue;
    if (!isMap(spec) || typeof spec["path"] !== "string" || spec["match"] === undefined) throw new Error(`${mode} needs path and match`);
    const match = interpolate(spec["match"], scope)!;
    const elements = resolvePath(base, spec["path"]);
    const passing = elements.filter((e) => check(e, match).length === 0).length;
    const label = `${mode} of ${spec["path"]} (${elements.length} element(s), ${passing} matching ${show(match)})`;
    if (mode === "any" && passing === 0) failures.push({ path: spec["path"], message: `no element matched: ${label}`, expected: show(match) });
    if (mode === "all" && (passing !== elements.length || elements.length === 0)) failures.push({ path: spec["path"], message: `not every element matched: ${label}`, expected: show(match) });
    if (mode === "none" && passing > 0) failures.push({ path: spec["path"], message: `an element matched: ${label}`, expected: show(match) });
  }
  return failures;
}

class TestRun {
  readonly records = new Map<string, StepRecord>();
  readonly captures = new Map<string, Map<string, JsonValue>>();
  readonly scope: VariableScope;

  constructor(
    readonly test: ActsTest,
    readonly document: ActsDocument,
    readonly config: RunnerConfig,
  ) {
    this.scope = { captures: this.captures, document: document.variables, runner: config.variables, env: process.env };
  }

  async runStep(step: ActsStep, signal: AbortSignal): Promise<void> {
    if (step.delay_ms !== undefined) await sleep(step.delay_ms, signal);
    if (step.assertion !== undefined) {
      const failures = checkNamedAssertion(step.assertion, this.scope);
      if (failures.length > 0) failWith(step.id, failures);
      return;
    }
    const repeat = step.repeat;
    const attempts = repeat?.max_attempts ?? (repeat ? 10 : 1);
    let record: StepRecord | undefined;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      record = await this.perform(step, signal);
      if (repeat === undefined || evaluateUntil(repeat.until, record.root)) break;
      if (attempt === attempts) {
        throw new StepFailure({ message: `repeat: "${repeat.until}" still false after ${attempts} attempts (last: ${show(record.root)})`, step_id: step.id });
      }
      await sleep(repeatDelay(repeat, attempt), signal);
    }
    this.records.set(step.id, record!);
    this.evaluate(step, record!);
    const captured = new Map<string, JsonValue>([["response", record!.root ?? null]]);
    for (const [name, path] of Object.entries(step.capture ?? {})) {
      const value = valueAt(record!.root, path);
      if (value === undefined) throw new StepFailure({ message: `capture ${name}: nothing at "${path}" in ${show(record!.root)}`, step_id: step.id, assertion_path: path });
      captured.set(name, value);
    }
    this.captures.set(step.id, captured);
    for (const assertion of step.assertions ?? []) {
      const failures = checkNamedAssertion(assertion, this.scope);
      if (failures.length > 0) failWith(step.id, failures, typeof assertion["id"] === "string" ? assertion["id"] : "assertion");
    }
  }

  /** Sends the step's request and returns what came back (no expectations yet). */
  async perform(step: ActsStep, signal: AbortSignal): Promise<StepRecord> {
    if (step.raw !== undefined) return this.performRaw(step, signal);
    if (step.client_response !== undefined) {
      const operation = resolveOperation(step.client_response.operation);
      if (operation === undefined) throw new Error(`unknown operation ${step.client_response.operation}`);
      const outcome = await this.config.parseWirePayload!(operation, step.client_response.wire_payload, signal);
      // The suite asserts the JSON-RPC error object (numeric code) of a parsed error.
      return outcome.ok ? { root: outcome.body, status: 200 } : { root: errorRoot(outcome.error), status: "error", error: outcome.error };
    }
    const operation = resolveOperation(step.operation!);
    if (operation === undefined) throw new Error(`unknown operation ${step.operation}`);
    const params = (interpolate(step.params ?? {}, this.scope) ?? {}) as JsonObject;
    if (operation === "get_agent_card" && params["extended"] !== true) {
      const result = await sendHttp({ method: "GET", url: this.config.endpoints.cardUrl, headers: { accept: "application/json" }, signal });
      return { root: result.body, status: result.status, headers: result.headers };
    }
    const op = operation === "get_agent_card" ? "get_extended_agent_card" : operation;
    const { request } = buildRequest(op, params);
    const options = { headers: op === "get_extended_agent_card" ? (this.config.authHeaders ?? {}) : {}, signal };
    if (isStreamOperation(op)) {
      const outcome = await this.config.client.stream(op, request, options);
      const events = outcome.events.map((e) => withRequiredFields(RESPONSE_SCHEMAS[op], e));
      if (outcome.error !== undefined) return { root: errorRoot(outcome.error), status: "error", error: outcome.error, events };
      return { root: { events }, status: 200, events };
    }
    const outcome = await this.config.client.call(op, request, options);
    return outcome.ok ? { root: withRequiredFields(RESPONSE_SCHEMAS[op], outcome.body), status: 200 } : { root: errorRoot(outcome.error), status: "error", error: outcome.error };
  }

  async performRaw(step: ActsStep, signal: AbortSignal): Promise<StepRecord> {
    const raw = interpolate(step.raw as unknown as JsonObject, this.scope) as JsonObject;
    const path = String(raw["path"]);
    const endpoints = this.config.endpoints;
    const base = this.config.binding === "jsonrpc" ? endpoints.jsonrpc : endpoints.rest;
    // The Agent Card's well-known path is at the origin; every other path is relative to the binding's interface URL.
    const url = path.startsWith("/.well-known/") ? new URL(path, base).href : path === "/" ? base : `${base.replace(/\/$/, "")}${path}`;
    const body = typeof raw["body_raw"] === "string" ? raw["body_raw"] : raw["body"] !== undefined ? JSON.stringify(withMessageId(raw["body"])) : undefined;
    const result = await sendHttp({ method: String(raw["method"]), url, headers: (raw["headers"] ?? {}) as Record<string, string>, ...(body !== undefined ? { body } : {}), signal });
    const error = errorOfRawBody(result);
    return {
      root: result.events !== undefined ? { events: result.events } : result.body,
      status: result.status,
      headers: result.headers,
      ...(result.events !== undefined ? { events: result.events } : {}),
      ...(error !== undefined ? { error } : {}),
    };
  }

  evaluate(step: ActsStep, record: StepRecord): void {
    if (step.expect_error !== undefined) {
      const expectation = interpolate(step.expect_error, this.scope) as JsonObject;
      if (record.error === undefined) throw new StepFailure({ message: `expected an error, got ${show(record.root)}`, step_id: step.id, expected: show(expectation), actual: show(record.root) });
      const failures: AssertionFailure[] = [];
      const name = expectation["error_type"] ?? expectation["code"];
      if (name !== undefined) failures.push(...check(record.error.type, normalizeErrorName(name), "error.type"));
      if (expectation["message"] !== undefined) failures.push(...check(record.error.message, expectation["message"], "error.message"));
      const details = expectation["details"] ?? expectation["data"];
      if (details !== undefined) failures.push(...check(record.error.details as JsonValue[] | undefined, details, "error.details"));
      if (failures.length > 0) failWith(step.id, failures, `error ${record.error.type} "${record.error.message}"`);
    }
    if (step.expect !== undefined) {
      const { status, body, ...rest } = interpolate(step.expect, this.scope) as JsonObject;
      const failures: AssertionFailure[] = [];
      const bodyAssertion = { ...(isMap(body) ? body : {}), ...rest };
      // §6.1: status defaults to success, so a failed operation fails unless the expect block asks for the error.
      if (status !== undefined) failures.push(...check(record.status, status, "status"));
      else if (record.status === "error" && step.raw === undefined && !Object.hasOwn(bodyAssertion, "error")) failures.push({ path: "", message: "the operation failed" });
      if (body !== undefined && !isMap(body)) failures.push(...check(record.root, body));
      if (Object.keys(bodyAssertion).length > 0) failures.push(...check(record.root, bodyAssertion));
      if (failures.length > 0) failWith(step.id, failures, record.error ? `got error ${record.error.type} "${record.error.message}"` : undefined);
    }
    if (step.expect_stream !== undefined) {
      if (record.error !== undefined && step.raw === undefined) {
        throw new StepFailure({ message: `stream ended with ${record.error.type}: ${record.error.message} after ${record.events?.length ?? 0} event(s)`, step_id: step.id });
      }
      const failures = checkStream(record.events ?? [], interpolate(step.expect_stream, this.scope) as JsonObject);
      if (failures.length > 0) failWith(step.id, failures, `${record.events?.length ?? 0} event(s)`);
    }
    if (step.expect === undefined && step.expect_error === undefined && step.expect_stream === undefined && step.raw === undefined && record.error !== undefined && step.client_response === undefined) {
      throw new StepFailure({ message: `unexpected error ${record.error.type}: ${record.error.message}`, step_id: step.id });
    }
    if (step.expect_parsed !== undefined) {
      const failures = check(record.root, interpolate(step.expect_parsed, this.scope)!);
      if (failures.length > 0) failWith(step.id, failures);
    }
  }
}

async function runTest(test: ActsTest, document: ActsDocument, suite: { id: string; name: string }, config: RunnerConfig): Promise<TestResult> {
  const started = performance.now();
  const base = { file: document.file, suite, id: test.id, name: test.name, level: test.level };
  const skip = skipReason(test, config);
  if (skip !== undefined) return { ...base, result: "skip", duration_ms: 0, skip_reason: skip.reason, skip_kind: skip.kind, steps: [], notes: [] };
  const run = new TestRun(test, document, config);
  const steps: StepResult[] = [];
  const notes: string[] = [];
  const finish = (result: Outcome, failure?: FailureDetail): TestResult => ({
    ...base,
    result,
    duration_ms: Math.round(performance.now() - started),
    ...(failure !== undefined ? { failure } : {}),
    steps,
    notes,
  });
  for (const step of test.steps) {
    const stepStarted = performance.now();
    const timeout = typeof step.expect_stream?.["timeout_ms"] === "number" ? step.expect_stream["timeout_ms"] : (config.stepTimeoutMs ?? 30_000);
    // 4× the waits of the whole repeat schedule (for backoff "none": attempts × delay_ms × 4).
    const repeat = step.repeat;
    const budget = timeout + (repeat ? 4 * Array.from({ length: repeat.max_attempts ?? 10 }, (_, i) => repeatDelay(repeat, i + 1)).reduce((a, b) => a + b, 0) : 0);
    const signal = AbortSignal.timeout(budget);
    try {
      await run.runStep(step, signal);
      steps.push({ id: step.id, result: "pass", duration_ms: Math.round(performance.now() - stepStarted) });
    } catch (e) {
      const duration = Math.round(performance.now() - stepStarted);
      if (e instanceof StepFailure || e instanceof UnresolvedVariableError) {
        const failure: FailureDetail = e instanceof StepFailure ? e.detail : { message: e.message, step_id: step.id };
        steps.push({ id: step.id, result: "fail", duration_ms: duration, failure });
        return finish("fail", failure);
      }
      const failure: FailureDetail = { message: signal.aborted ? `step timed out after ${budget} ms` : `runner error: ${e instanceof Error ? e.message : String(e)}`, step_id: step.id };
      steps.push({ id: step.id, result: "error", duration_ms: duration, failure });
      return finish(signal.aborted ? "fail" : "error", failure);
    }
  }
  for (const assertion of test.assertions) {
    let failures: AssertionFailure[];
    try {
      failures = checkNamedAssertion(assertion, run.scope);
    } catch (e) {
      // As in a step: an unresolved variable fails the test, anything else is a runner error (never the whole run).
      if (e instanceof UnresolvedVariableError) return finish("fail", { message: e.message });
      return finish("error", { message: `runner error: ${e instanceof Error ? e.message : String(e)}` });
    }
    if (failures.length > 0) return finish("fail", { message: failures.map((f) => f.message).join("; "), assertion_path: failures[0]!.path });
  }
  const special = config.specialChecks?.[test.id];
  if (special !== undefined) {
    const outcome = await special({ records: run.records, client: config.client, binding: config.binding, endpoints: config.endpoints, signal: AbortSignal.timeout(config.stepTimeoutMs ?? 30_000) });
    notes.push(outcome.note);
    if (outcome.failures.length > 0) return finish("fail", { message: `runner-special check: ${outcome.failures.map((f) => f.message).join("; ")}` });
  } else if (test.tags.includes("runner-special")) {
    notes.push("runner-special: only the declared steps were run (the extra check its description asks for is not implemented)");
  }
  return finish("pass");
}

/** Runs every test of `documents` (optionally only those `select` keeps) with `config`. */
export async function runActs(documents: readonly ActsDocument[], config: RunnerConfig, select: (test: ActsTest) => boolean = () => true): Promise<TestResult[]> {
  const jobs = documents.flatMap((document) => document.suites.flatMap((suite) => suite.tests.filter(select).map((test) => () => runTest(test, document, { id: suite.id, name: suite.name }, config))));
  const results: TestResult[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < jobs.length; i = next++) results[i] = await jobs[i]!();
  };
  await Promise.all(Array.from({ length: Math.min(config.concurrency ?? 8, jobs.length) }, worker));
  return results;
}

/** A fresh id for requests the runner itself makes. */
export const runnerId = (): string => randomUUID();
