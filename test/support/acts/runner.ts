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
 *
 * Every operation step is judged on the wire (wire-call.ts): the assertions read what the
 * agent sent, a wire violation or a client that read it differently fails the step, and
 * `expect_error` compares the error's JSON-RPC code, HTTP status or gRPC status and its
 * ErrorInfo reason and domain with the spec table (spec-errors.ts). Raw steps and the
 * public Agent Card are judged the same way from their responses.
 */
import { randomUUID } from "node:crypto";
import type {
  ActsClient,
  AgentEndpoints,
  Binding,
  JsonObject,
  JsonValue,
  OperationOutcome,
} from "./client.js";
import type { ActsDocument, ActsStep, ActsTest, Level } from "./document.js";
import { check, show, type AssertionFailure } from "./assertions.js";
import {
  buildRequest,
  isStreamOperation,
  resolveOperation,
  type AbstractOperation,
} from "./operations.js";
import { resolvePath, valueAt } from "./paths.js";
import { sendHttp } from "./raw-http.js";
import { ACTS_ERROR_ALIASES, ERROR_DOMAIN, GRPC_CODES, specErrorByName } from "./spec-errors.js";
import { checkStream } from "./streams.js";
import { interpolate, UnresolvedVariableError, type VariableScope } from "./variables.js";
import {
  asProblems,
  errorRoot,
  WireCaller,
  type StepError,
  type StepRecord,
  type WireSource,
} from "./wire-call.js";
import { judgeAgentCard, judgeRawResponse } from "./wire-judge.js";

export type { StepRecord } from "./wire-call.js";

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
  /** Operations through the client, judged on the wire like steps. */
  readonly caller: WireCaller;
  /** The headers the runner sends with every operation (credentials of a secured profile). */
  readonly headers: Readonly<Record<string, string>>;
  readonly binding: Binding;
  readonly endpoints: AgentEndpoints;
  /** The runner's variables (webhookUrl, otherUserTaskId, …). */
  readonly variables: Readonly<Record<string, string>>;
  readonly signal: AbortSignal;
}
/**
 * What a special check found: failures (empty = the claim holds) and a note saying what was
 * checked, or `gap` when this runner/client cannot check the claim (reported as a skip of kind
 * "runner", never as a pass).
 */
export type SpecialCheckOutcome =
  | { readonly failures: AssertionFailure[]; readonly note: string }
  | { readonly gap: string };
export type SpecialCheck = (run: SpecialCheckRun) => Promise<SpecialCheckOutcome>;

export interface RunnerConfig {
  readonly binding: Binding;
  /** The client under test, pointed at the wire tap. */
  readonly client: ActsClient;
  /** Where the exchanges of the client's calls are recorded. */
  readonly wire: WireSource;
  /** Where raw steps, the Agent Card fetch and special checks' plain HTTP go (the harness points them at the tap as well, unrecorded). */
  readonly endpoints: AgentEndpoints;
  /** Headers of every operation step (e.g. credentials when the card requires them). Default none. */
  readonly callHeaders?: Readonly<Record<string, string>>;
  /**
   * Default true. False: wire violations and client disagreements do not fail steps or special
   * checks (the assertions still read the wire). Only to measure what the suite's own
   * assertions catch (the mutation tests' "ACTS alone" column).
   */
  readonly judgeWire?: boolean;
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
  readonly parseWirePayload?: (
    operation: AbstractOperation,
    payload: JsonValue,
    signal: AbortSignal,
  ) => Promise<OperationOutcome>;
  /** Per-step time limit unless the step says otherwise (`expect_stream.timeout_ms`). */
  readonly stepTimeoutMs?: number;
  readonly concurrency?: number;
}

class StepFailure extends Error {
  constructor(readonly detail: FailureDetail) {
    super(detail.message);
  }
}

const isMap = (v: unknown): v is JsonObject =>
  v !== null && typeof v === "object" && !Array.isArray(v);
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(t);
        resolve();
      },
      { once: true },
    );
  });

function failWith(stepId: string, failures: readonly AssertionFailure[], context?: string): never {
  const first = failures[0]!;
  const more =
    failures.length > 1
      ? ` (+${failures.length - 1} more: ${failures
          .slice(1, 4)
          .map((f) => `${f.path}: ${f.message}`)
          .join("; ")})`
      : "";
  throw new StepFailure({
    message: `${context ? `${context}: ` : ""}${first.path === "" ? "" : `${first.path}: `}${first.message}${more}`,
    step_id: stepId,
    ...(first.expected !== undefined ? { expected: first.expected } : {}),
    ...(first.actual !== undefined ? { actual: first.actual } : {}),
    assertion_path: first.path,
  });
}

/** Maps an assertion on an error name to our catalog's names (string or one_of list). */
function normalizeErrorName(assertion: JsonValue): JsonValue {
  if (typeof assertion === "string") return ACTS_ERROR_ALIASES[assertion] ?? assertion;
  if (isMap(assertion) && Array.isArray(assertion["one_of"]))
    return { ...assertion, one_of: assertion["one_of"].map(normalizeErrorName) };
  return assertion;
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
  const fill = (message: JsonValue | undefined): JsonValue | undefined =>
    isMap(message) && message["messageId"] === undefined
      ? { ...message, messageId: randomUUID() }
      : message;
  if (isMap(body["params"]) && isMap(body["params"]["message"])) {
    // The same reading as for operation params (operations.ts): taskId/contextId written beside the message belong in it.
    const { taskId, contextId, ...params } = body["params"];
    const message = {
      ...(body["params"]["message"] as JsonObject),
      ...(taskId !== undefined && body["params"]["message"]["taskId"] === undefined
        ? { taskId }
        : {}),
      ...(contextId !== undefined && body["params"]["message"]["contextId"] === undefined
        ? { contextId }
        : {}),
    };
    return { ...body, params: { ...params, message: fill(message)! } };
  }
  if (body["message"] !== undefined && body["jsonrpc"] === undefined)
    return { ...body, message: fill(body["message"])! };
  return body;
}

/** Why a test does not run here, if it does not. */
function skipReason(
  test: ActsTest,
  config: RunnerConfig,
): { kind: SkipKind; reason: string } | undefined {
  const transports = test.transport ?? test.preconditions?.transport;
  if (transports !== undefined && !transports.includes(config.binding))
    return { kind: "transport", reason: `applies to ${transports.join(", ")} only` };
  const capabilities = isMap(config.card["capabilities"]) ? config.card["capabilities"] : {};
  for (const [name, wanted] of Object.entries(test.preconditions?.capabilities ?? {})) {
    if (name === "authentication") {
      // Not a v1.0 AgentCapabilities field: read as "the card requires credentials" (securityRequirements, §4.4.1, §13.3).
      const requirements = config.card["securityRequirements"];
      const declared = Array.isArray(requirements) && requirements.length > 0;
      if (declared !== wanted)
        return {
          kind: "capability",
          reason: `precondition capabilities.authentication = ${show(wanted)} (read as: the card's securityRequirements ask for credentials); the card ${declared ? "requires credentials" : "allows anonymous callers"}`,
        };
      continue;
    }
    const declared = capabilities[name] ?? (typeof wanted === "boolean" ? false : undefined);
    if (JSON.stringify(declared) !== JSON.stringify(wanted))
      return {
        kind: "capability",
        reason: `precondition capabilities.${name} = ${show(wanted)}; the card declares ${show(declared)}`,
      };
  }
  const skills = Array.isArray(config.card["skills"])
    ? config.card["skills"].filter(isMap).map((s) => s["id"])
    : [];
  for (const skill of test.preconditions?.skills ?? [])
    if (!skills.includes(skill.id))
      return { kind: "capability", reason: `precondition skill ${skill.id} is not in the card` };
  const extensions = Array.isArray(capabilities["extensions"])
    ? capabilities["extensions"].filter(isMap).map((e) => e["uri"])
    : [];
  for (const uri of test.preconditions?.extensions ?? [])
    if (!extensions.includes(uri))
      return { kind: "capability", reason: `precondition extension ${uri} is not declared` };
  const missing = test.requires_behaviors.filter((b) => !config.behaviours.has(b));
  if (missing.length > 0)
    return { kind: "behaviour", reason: `the agent does not implement ${missing.join(", ")}` };
  const unsupported = test.runner_requirements.filter((r) => !config.runnerRequirements.has(r));
  if (unsupported.length > 0)
    return { kind: "runner", reason: `runner requirement ${unsupported.join(", ")} not supported` };
  if (
    config.parseWirePayload === undefined &&
    test.steps.some((s) => s.client_response !== undefined)
  )
    return { kind: "runner", reason: "client steps are not supported for this client" };
  if (config.binding === "grpc" && test.steps.some((s) => s.raw !== undefined))
    return { kind: "runner", reason: "raw HTTP steps have no gRPC form" };
  return undefined;
}

/** The wait after attempt `attempt` (1-based) of a `repeat` (§9: delay_ms, default 1000, with its backoff). */
function repeatDelay(repeat: NonNullable<ActsStep["repeat"]>, attempt: number): number {
  const delay = repeat.delay_ms ?? 1000;
  return repeat.backoff === "linear"
    ? delay * attempt
    : repeat.backoff === "exponential"
      ? delay * 2 ** (attempt - 1)
      : delay;
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
    return list[1]!
      .split(",")
      .map(literal)
      .some((v) => v === actual);
  }
  const equal = literal(m[3]!) === actual;
  return m[2] === "==" ? equal : !equal;
}

/** Runs a named assertion / assertion step (§5.5). */
function checkNamedAssertion(assertion: JsonObject, scope: VariableScope): AssertionFailure[] {
  const source = interpolate(assertion["source"], scope);
  const base = typeof assertion["path"] === "string" ? valueAt(source, assertion["path"]) : source;
  const failures: AssertionFailure[] = [];
  if (assertion["match"] !== undefined)
    failures.push(...check(base, interpolate(assertion["match"], scope)!));
  for (const mode of ["any", "all", "none"] as const) {
    const spec = assertion[mode];
    if (spec === undefined) continue;
    if (!isMap(spec) || typeof spec["path"] !== "string" || spec["match"] === undefined)
      throw new Error(`${mode} needs path and match`);
    const match = interpolate(spec["match"], scope)!;
    const elements = resolvePath(base, spec["path"]);
    const passing = elements.filter((e) => check(e, match).length === 0).length;
    const label = `${mode} of ${spec["path"]} (${elements.length} element(s), ${passing} matching ${show(match)})`;
    if (mode === "any" && passing === 0)
      failures.push({
        path: spec["path"],
        message: `no element matched: ${label}`,
        expected: show(match),
      });
    if (mode === "all" && (passing !== elements.length || elements.length === 0))
      failures.push({
        path: spec["path"],
        message: `not every element matched: ${label}`,
        expected: show(match),
      });
    if (mode === "none" && passing > 0)
      failures.push({
        path: spec["path"],
        message: `an element matched: ${label}`,
        expected: show(match),
      });
  }
  return failures;
}

/**
 * Whether `error` is `spec`'s error on the wire of `binding`: its JSON-RPC code and HTTP
 * status, HTTP+JSON status or gRPC status, and its ErrorInfo reason and domain, each as the
 * spec table has them (this runner asks for the ErrorInfo on JSON-RPC too, where §9.5 says
 * SHOULD: the agent under test always sends one).
 */
export function errorOnWireFailures(
  typeName: string,
  error: StepError,
  binding: Binding,
): AssertionFailure[] {
  const spec = specErrorByName(typeName);
  if (spec === undefined || !error.onWire) return [];
  const failures: AssertionFailure[] = [];
  const differ = (path: string, what: string, expected: unknown, actual: unknown) =>
    failures.push({
      path,
      message: `${spec.name} on ${binding} has ${what} ${JSON.stringify(expected)}, the wire has ${actual === undefined ? "none" : JSON.stringify(actual)}`,
      expected: JSON.stringify(expected),
      actual: JSON.stringify(actual),
    });
  if (binding === "jsonrpc") {
    if (error.jsonRpcCode !== spec.jsonRpcCode)
      differ("error.code", "JSON-RPC code", spec.jsonRpcCode, error.jsonRpcCode);
    if (error.httpStatus !== undefined && error.httpStatus !== spec.jsonRpcHttpStatus)
      differ("(http status)", "HTTP status", spec.jsonRpcHttpStatus, error.httpStatus);
  } else if (binding === "rest") {
    if (error.httpStatus === undefined || !spec.restStatuses.includes(error.httpStatus))
      differ("(http status)", "HTTP status", spec.httpStatus, error.httpStatus);
  } else if (error.grpcCode !== GRPC_CODES[spec.grpcStatus])
    differ(
      "(grpc-status)",
      "gRPC status",
      `${spec.grpcStatus} (${GRPC_CODES[spec.grpcStatus]})`,
      error.grpcCode,
    );
  if (error.reason !== spec.reason)
    differ("ErrorInfo.reason", "ErrorInfo reason", spec.reason, error.reason);
  if (error.domain !== ERROR_DOMAIN)
    differ("ErrorInfo.domain", "ErrorInfo domain", ERROR_DOMAIN, error.domain);
  return failures;
}

/** An `expect_error` type assertion (a name, or `one_of` names) against the error on the wire. */
function checkErrorType(
  assertion: JsonValue,
  error: StepError,
  binding: Binding,
): AssertionFailure[] {
  const typeFailures = check(error.type, normalizeErrorName(assertion), "error.type");
  if (typeFailures.length > 0) return typeFailures;
  return errorOnWireFailures(error.type, error, binding);
}

class TestRun {
  readonly records = new Map<string, StepRecord>();
  readonly captures = new Map<string, Map<string, JsonValue>>();
  readonly scope: VariableScope;
  readonly caller: WireCaller;

  constructor(
    readonly test: ActsTest,
    readonly document: ActsDocument,
    readonly config: RunnerConfig,
  ) {
    this.scope = {
      captures: this.captures,
      document: document.variables,
      runner: config.variables,
      env: process.env,
    };
    this.caller = new WireCaller(
      config.binding,
      config.client,
      config.wire,
      config.judgeWire !== false,
    );
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
      if (record.problems.length > 0 && this.config.judgeWire !== false)
        failWith(
          step.id,
          record.problems,
          record.error !== undefined ? `${record.error.type} "${record.error.message}"` : undefined,
        );
      if (repeat === undefined || evaluateUntil(repeat.until, record.root)) break;
      if (attempt === attempts) {
        throw new StepFailure({
          message: `repeat: "${repeat.until}" still false after ${attempts} attempts (last: ${show(record.root)})`,
          step_id: step.id,
        });
      }
      await sleep(repeatDelay(repeat, attempt), signal);
    }
    this.records.set(step.id, record!);
    this.evaluate(step, record!);
    const captured = new Map<string, JsonValue>([["response", record!.root ?? null]]);
    for (const [name, path] of Object.entries(step.capture ?? {})) {
      const value = valueAt(record!.root, path);
      if (value === undefined)
        throw new StepFailure({
          message: `capture ${name}: nothing at "${path}" in ${show(record!.root)}`,
          step_id: step.id,
          assertion_path: path,
        });
      captured.set(name, value);
    }
    this.captures.set(step.id, captured);
    for (const assertion of step.assertions ?? []) {
      const failures = checkNamedAssertion(assertion, this.scope);
      if (failures.length > 0)
        failWith(
          step.id,
          failures,
          typeof assertion["id"] === "string" ? assertion["id"] : "assertion",
        );
    }
  }

  /** Sends the step's request and returns what came back, judged on the wire (no expectations yet). */
  async perform(step: ActsStep, signal: AbortSignal): Promise<StepRecord> {
    if (step.raw !== undefined) return this.performRaw(step, signal);
    if (step.client_response !== undefined) {
      const operation = resolveOperation(step.client_response.operation);
      if (operation === undefined)
        throw new Error(`unknown operation ${step.client_response.operation}`);
      const outcome = await this.config.parseWirePayload!(
        operation,
        step.client_response.wire_payload,
        signal,
      );
      // A client step asserts the client's parse of a canned payload (the suite asserts the JSON-RPC error object of a parsed error).
      if (outcome.ok) return { root: outcome.body, status: 200, problems: [] };
      const error: StepError = {
        type: outcome.error.type,
        message: outcome.error.message,
        ...(outcome.error.details !== undefined ? { details: [...outcome.error.details] } : {}),
        onWire: false,
      };
      return { root: errorRoot(error), status: "error", error, problems: [] };
    }
    const operation = resolveOperation(step.operation!);
    if (operation === undefined) throw new Error(`unknown operation ${step.operation}`);
    const params = (interpolate(step.params ?? {}, this.scope) ?? {}) as JsonObject;
    if (operation === "get_agent_card" && params["extended"] !== true) {
      // As every request of this runner, a 1.0 one: a card request without A2A-Version is a 0.3 request (spec §3.6),
      // which an agent serving 0.3 beside 1.0 answers with the 0.3 fields added (the example agent does).
      const result = await sendHttp({
        method: "GET",
        url: this.config.endpoints.cardUrl,
        headers: { accept: "application/json", "a2a-version": "1.0" },
        signal,
      });
      return {
        root: result.body,
        status: result.status,
        headers: result.headers,
        problems: asProblems(judgeAgentCard(result.status, result.headers, result.body)),
      };
    }
    const op = operation === "get_agent_card" ? "get_extended_agent_card" : operation;
    const { request } = buildRequest(op, params);
    const headers = {
      ...(this.config.callHeaders ?? {}),
      ...(op === "get_extended_agent_card" ? (this.config.authHeaders ?? {}) : {}),
    };
    return isStreamOperation(op)
      ? this.caller.stream(op, request, { headers, signal })
      : this.caller.call(op, request, { headers, signal });
  }

  async performRaw(step: ActsStep, signal: AbortSignal): Promise<StepRecord> {
    const raw = interpolate(step.raw as unknown as JsonObject, this.scope) as JsonObject;
    const path = String(raw["path"]);
    const endpoints = this.config.endpoints;
    const base = this.config.binding === "jsonrpc" ? endpoints.jsonrpc : endpoints.rest;
    // The Agent Card's well-known path is at the origin; every other path is relative to the binding's interface URL.
    const url = path.startsWith("/.well-known/")
      ? new URL(path, base).href
      : path === "/"
        ? base
        : `${base.replace(/\/$/, "")}${path}`;
    const body =
      typeof raw["body_raw"] === "string"
        ? raw["body_raw"]
        : raw["body"] !== undefined
          ? JSON.stringify(withMessageId(raw["body"]))
          : undefined;
    const method = String(raw["method"]);
    const result = await sendHttp({
      method,
      url,
      headers: (raw["headers"] ?? {}) as Record<string, string>,
      ...(body !== undefined ? { body } : {}),
      signal,
    });
    const judged = path.startsWith("/.well-known/")
      ? { violations: judgeAgentCard(result.status, result.headers, result.body) }
      : judgeRawResponse(
          this.config.binding,
          { method, path, ...(body !== undefined ? { body } : {}) },
          { status: result.status, headers: result.headers, body: result.bytes },
        );
    return {
      root: result.events !== undefined ? { events: result.events } : result.body,
      status: result.status,
      headers: result.headers,
      ...(result.events !== undefined ? { events: result.events } : {}),
      ...(judged.error !== undefined ? { error: { ...judged.error, onWire: true } } : {}),
      problems: asProblems(judged.violations),
    };
  }

  evaluate(step: ActsStep, record: StepRecord): void {
    if (step.expect_error !== undefined) {
      const expectation = interpolate(step.expect_error, this.scope) as JsonObject;
      if (record.error === undefined)
        throw new StepFailure({
          message: `expected an error, got ${show(record.root)}`,
          step_id: step.id,
          expected: show(expectation),
          actual: show(record.root),
        });
      const failures: AssertionFailure[] = [];
      const name = expectation["error_type"] ?? expectation["code"];
      if (name !== undefined)
        failures.push(...checkErrorType(name, record.error, this.config.binding));
      if (expectation["message"] !== undefined)
        failures.push(...check(record.error.message, expectation["message"], "error.message"));
      const details = expectation["details"] ?? expectation["data"];
      if (details !== undefined)
        failures.push(
          ...check(record.error.details as JsonValue[] | undefined, details, "error.details"),
        );
      if (failures.length > 0)
        failWith(step.id, failures, `error ${record.error.type} "${record.error.message}"`);
    }
    if (step.expect !== undefined) {
      const { status, body, ...rest } = interpolate(step.expect, this.scope) as JsonObject;
      const failures: AssertionFailure[] = [];
      const bodyAssertion = { ...(isMap(body) ? body : {}), ...rest };
      // §6.1: status defaults to success, so a failed operation fails unless the expect block asks for the error.
      if (status !== undefined) failures.push(...check(record.status, status, "status"));
      else if (
        record.status === "error" &&
        step.raw === undefined &&
        !Object.hasOwn(bodyAssertion, "error")
      )
        failures.push({ path: "", message: "the operation failed" });
      if (body !== undefined && !isMap(body)) failures.push(...check(record.root, body));
      if (Object.keys(bodyAssertion).length > 0)
        failures.push(...check(record.root, bodyAssertion));
      if (failures.length > 0)
        failWith(
          step.id,
          failures,
          record.error ? `got error ${record.error.type} "${record.error.message}"` : undefined,
        );
    }
    if (step.expect_stream !== undefined) {
      if (record.error !== undefined && step.raw === undefined) {
        throw new StepFailure({
          message: `stream ended with ${record.error.type}: ${record.error.message} after ${record.events?.length ?? 0} event(s)`,
          step_id: step.id,
        });
      }
      const failures = checkStream(
        record.events ?? [],
        interpolate(step.expect_stream, this.scope) as JsonObject,
      );
      if (failures.length > 0)
        failWith(step.id, failures, `${record.events?.length ?? 0} event(s)`);
    }
    if (
      step.expect === undefined &&
      step.expect_error === undefined &&
      step.expect_stream === undefined &&
      step.raw === undefined &&
      record.error !== undefined &&
      step.client_response === undefined
    ) {
      throw new StepFailure({
        message: `unexpected error ${record.error.type}: ${record.error.message}`,
        step_id: step.id,
      });
    }
    if (step.expect_parsed !== undefined) {
      const failures = check(record.root, interpolate(step.expect_parsed, this.scope)!);
      if (failures.length > 0) failWith(step.id, failures);
    }
  }
}

async function runTest(
  test: ActsTest,
  document: ActsDocument,
  suite: { id: string; name: string },
  config: RunnerConfig,
): Promise<TestResult> {
  const started = performance.now();
  const base = { file: document.file, suite, id: test.id, name: test.name, level: test.level };
  const skip = skipReason(test, config);
  if (skip !== undefined)
    return {
      ...base,
      result: "skip",
      duration_ms: 0,
      skip_reason: skip.reason,
      skip_kind: skip.kind,
      steps: [],
      notes: [],
    };
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
    const timeout =
      typeof step.expect_stream?.["timeout_ms"] === "number"
        ? step.expect_stream["timeout_ms"]
        : (config.stepTimeoutMs ?? 30_000);
    // 4× the waits of the whole repeat schedule (for backoff "none": attempts × delay_ms × 4).
    const repeat = step.repeat;
    const budget =
      timeout +
      (repeat
        ? 4 *
          Array.from({ length: repeat.max_attempts ?? 10 }, (_, i) =>
            repeatDelay(repeat, i + 1),
          ).reduce((a, b) => a + b, 0)
        : 0);
    const signal = AbortSignal.timeout(budget);
    try {
      await run.runStep(step, signal);
      steps.push({
        id: step.id,
        result: "pass",
        duration_ms: Math.round(performance.now() - stepStarted),
      });
    } catch (e) {
      const duration = Math.round(performance.now() - stepStarted);
      if (e instanceof StepFailure || e instanceof UnresolvedVariableError) {
        const failure: FailureDetail =
          e instanceof StepFailure ? e.detail : { message: e.message, step_id: step.id };
        steps.push({ id: step.id, result: "fail", duration_ms: duration, failure });
        return finish("fail", failure);
      }
      const failure: FailureDetail = {
        message: signal.aborted
          ? `step timed out after ${budget} ms`
          : `runner error: ${e instanceof Error ? e.message : String(e)}`,
        step_id: step.id,
      };
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
      return finish("error", {
        message: `runner error: ${e instanceof Error ? e.message : String(e)}`,
      });
    }
    if (failures.length > 0)
      return finish("fail", {
        message: failures.map((f) => f.message).join("; "),
        assertion_path: failures[0]!.path,
      });
  }
  const special = config.specialChecks?.[test.id];
  if (special !== undefined) {
    let outcome: SpecialCheckOutcome;
    try {
      outcome = await special({
        records: run.records,
        client: config.client,
        caller: run.caller,
        headers: config.callHeaders ?? {},
        binding: config.binding,
        endpoints: config.endpoints,
        variables: config.variables,
        signal: AbortSignal.timeout(config.stepTimeoutMs ?? 30_000),
      });
    } catch (e) {
      return finish("error", {
        message: `runner-special check: runner error: ${e instanceof Error ? e.message : String(e)}`,
      });
    }
    if ("gap" in outcome)
      return {
        ...finish("skip"),
        skip_kind: "runner",
        skip_reason: `runner-special: ${outcome.gap}`,
      };
    notes.push(outcome.note);
    if (outcome.failures.length > 0)
      return finish("fail", {
        message: `runner-special check: ${outcome.failures.map((f) => `${f.path === "" ? "" : `${f.path}: `}${f.message}`).join("; ")}`,
      });
  } else if (test.tags.includes("runner-special")) {
    // Its steps ran and passed, but what its description asks the runner for is not checked: a gap, not a pass.
    return {
      ...finish("skip"),
      skip_kind: "runner",
      skip_reason:
        "runner-special: the extra check its description asks for is not implemented by this runner (its steps passed)",
    };
  }
  return finish("pass");
}

/** Runs every test of `documents` (optionally only those `select` keeps) with `config`. */
export async function runActs(
  documents: readonly ActsDocument[],
  config: RunnerConfig,
  select: (test: ActsTest) => boolean = () => true,
): Promise<TestResult[]> {
  const jobs = documents.flatMap((document) =>
    document.suites.flatMap((suite) =>
      suite.tests
        .filter(select)
        .map((test) => () => runTest(test, document, { id: suite.id, name: suite.name }, config)),
    ),
  );
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
