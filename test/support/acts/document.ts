/**
 * Loading and validating ACTS documents (§2–§4, §12.1, §17): YAML 1.2 (or JSON), the
 * master file's `include`s, an `acts_version` major this runner supports (1), and the
 * structure of suites, tests and steps. A structural problem throws with the file and the
 * test/step it is in; the runner never guesses around a malformed document.
 */
import { readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { parse } from "yaml";
import type { Binding, JsonObject, JsonValue } from "./client.js";
import { BINDINGS } from "./client.js";

export type Level = "must" | "should" | "may";

export interface ActsStep {
  readonly id: string;
  readonly description?: string;
  /** Operation name as written (aliases are resolved by the runner). */
  readonly operation?: string;
  readonly params?: JsonObject;
  readonly raw?: {
    readonly method: string;
    readonly path: string;
    readonly headers?: Record<string, string>;
    readonly body?: JsonValue;
    readonly body_raw?: string;
  };
  readonly client_response?: { readonly operation: string; readonly wire_payload: JsonValue };
  readonly expect_parsed?: JsonObject;
  readonly assertion?: JsonObject;
  readonly expect?: JsonObject;
  readonly expect_error?: JsonObject;
  readonly expect_stream?: JsonObject;
  readonly capture?: Record<string, string>;
  readonly assertions?: JsonObject[];
  readonly repeat?: {
    readonly until: string;
    readonly max_attempts?: number;
    readonly delay_ms?: number;
    readonly backoff?: "none" | "linear" | "exponential";
  };
  readonly delay_ms?: number;
}

export interface ActsTest {
  readonly id: string;
  readonly name: string;
  readonly description?: string;
  readonly level: Level;
  readonly tags: readonly string[];
  readonly transport?: readonly Binding[];
  readonly preconditions?: {
    readonly capabilities?: JsonObject;
    readonly skills?: { id: string }[];
    readonly transport?: Binding[];
    readonly extensions?: string[];
  };
  readonly requires_behaviors: readonly string[];
  readonly runner_requirements: readonly string[];
  readonly steps: readonly ActsStep[];
  readonly assertions: readonly JsonObject[];
}

export interface ActsSuite {
  readonly id: string;
  readonly name: string;
  readonly tests: readonly ActsTest[];
}

export interface ActsDocument {
  /** File name (e.g. "core-operations.acts.yaml"). */
  readonly file: string;
  readonly actsVersion: string;
  readonly specVersion: string;
  readonly variables: Readonly<Record<string, string>>;
  readonly suites: readonly ActsSuite[];
}

export class ActsDocumentError extends Error {}

const LEVELS = new Set(["must", "should", "may"]);
const STEP_KINDS = ["operation", "raw", "client_response", "assertion"] as const;

const isMap = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

function need(cond: unknown, where: string, what: string): asserts cond {
  if (!cond) throw new ActsDocumentError(`${where}: ${what}`);
}

function validateStep(raw: unknown, where: string): ActsStep {
  need(isMap(raw), where, "a step must be a map");
  need(typeof raw["id"] === "string" && raw["id"] !== "", where, "step without an id");
  const at = `${where} step ${raw["id"]}`;
  const kinds = STEP_KINDS.filter((k) => raw[k] !== undefined);
  need(
    kinds.length === 1,
    at,
    `needs exactly one of ${STEP_KINDS.join(", ")} (has ${kinds.join(", ") || "none"})`,
  );
  if (raw["operation"] !== undefined)
    need(typeof raw["operation"] === "string", at, "operation must be a string");
  if (raw["params"] !== undefined) need(isMap(raw["params"]), at, "params must be a map");
  if (raw["raw"] !== undefined) {
    const r = raw["raw"];
    need(
      isMap(r) && typeof r["method"] === "string" && typeof r["path"] === "string",
      at,
      "raw needs method and path",
    );
    need(
      ["GET", "POST", "PUT", "DELETE"].includes(r["method"] as string),
      at,
      `raw.method ${String(r["method"])} is not GET/POST/PUT/DELETE`,
    );
  }
  if (raw["client_response"] !== undefined) {
    const c = raw["client_response"];
    need(
      isMap(c) && typeof c["operation"] === "string" && c["wire_payload"] !== undefined,
      at,
      "client_response needs operation and wire_payload",
    );
    need(isMap(raw["expect_parsed"]), at, "a client step needs expect_parsed");
  }
  if (raw["assertion"] !== undefined)
    need(
      isMap(raw["assertion"]) && typeof raw["assertion"]["source"] === "string",
      at,
      "assertion needs a source",
    );
  need(
    !(raw["expect"] !== undefined && raw["expect_error"] !== undefined),
    at,
    "expect and expect_error are mutually exclusive",
  );
  for (const k of ["expect", "expect_error", "expect_stream", "capture"])
    if (raw[k] !== undefined) need(isMap(raw[k]), at, `${k} must be a map`);
  if (raw["assertions"] !== undefined)
    need(
      Array.isArray(raw["assertions"]) && raw["assertions"].every(isMap),
      at,
      "assertions must be a list of maps",
    );
  if (raw["repeat"] !== undefined)
    need(
      isMap(raw["repeat"]) && typeof raw["repeat"]["until"] === "string",
      at,
      "repeat needs until",
    );
  return raw as unknown as ActsStep;
}

function validateTest(raw: unknown, where: string): ActsTest {
  need(isMap(raw), where, "a test must be a map");
  need(
    typeof raw["id"] === "string" && typeof raw["name"] === "string",
    where,
    "test needs id and name",
  );
  const at = `${where} test ${raw["id"]}`;
  need(
    LEVELS.has(raw["level"] as string),
    at,
    `level must be must/should/may, is ${String(raw["level"])}`,
  );
  const transport = raw["transport"];
  if (transport !== undefined)
    need(
      Array.isArray(transport) && transport.every((t) => BINDINGS.includes(t as Binding)),
      at,
      "transport must list jsonrpc/grpc/rest",
    );
  need(Array.isArray(raw["steps"]) && raw["steps"].length > 0, at, "test needs steps");
  const steps = (raw["steps"] as unknown[]).map((s) => validateStep(s, at));
  const ids = new Set<string>();
  for (const s of steps) {
    need(!ids.has(s.id), at, `duplicate step id ${s.id}`);
    ids.add(s.id);
  }
  const onlyRaw = steps.every((s) => s.raw !== undefined);
  need(
    !onlyRaw || transport !== undefined,
    at,
    "a test of raw steps only must name its transport (§4.4)",
  );
  return {
    id: raw["id"] as string,
    name: raw["name"] as string,
    ...(typeof raw["description"] === "string" ? { description: raw["description"] } : {}),
    level: raw["level"] as Level,
    tags: (raw["tags"] as string[] | undefined) ?? [],
    ...(transport !== undefined ? { transport: transport as Binding[] } : {}),
    ...(isMap(raw["preconditions"])
      ? { preconditions: raw["preconditions"] as ActsTest["preconditions"] }
      : {}),
    requires_behaviors: (raw["requires_behaviors"] as string[] | undefined) ?? [],
    runner_requirements: (raw["runner_requirements"] as string[] | undefined) ?? [],
    steps,
    assertions: (raw["assertions"] as JsonObject[] | undefined) ?? [],
  };
}

/** Parses one ACTS document (YAML or JSON text). */
export function parseActsDocument(text: string, file: string): ActsDocument {
  const raw: unknown = parse(text, { version: "1.2", uniqueKeys: false });
  need(isMap(raw), file, "the root must be a map");
  need(typeof raw["acts_version"] === "string", file, "acts_version missing");
  need(
    (raw["acts_version"] as string).split(".")[0] === "1",
    file,
    `acts_version ${String(raw["acts_version"])}: this runner supports major version 1 only`,
  );
  need(typeof raw["spec_version"] === "string", file, "spec_version missing");
  need(
    raw["suites"] !== undefined || raw["include"] !== undefined,
    file,
    "needs suites or include",
  );
  const suites = ((raw["suites"] as unknown[] | undefined) ?? []).map((s, i) => {
    need(
      isMap(s) && typeof s["id"] === "string" && Array.isArray(s["tests"]),
      file,
      `suite #${i + 1} needs id and tests`,
    );
    return {
      id: s["id"] as string,
      name: (s["name"] as string | undefined) ?? (s["id"] as string),
      tests: (s["tests"] as unknown[]).map((t) => validateTest(t, `${file} suite ${s["id"]}`)),
    };
  });
  const variables = (raw["variables"] as Record<string, string> | undefined) ?? {};
  need(
    isMap(variables) && Object.values(variables).every((v) => typeof v === "string"),
    file,
    "variables must map names to strings",
  );
  return {
    file,
    actsVersion: raw["acts_version"] as string,
    specVersion: raw["spec_version"] as string,
    variables,
    suites,
  };
}

/**
 * Loads a master file and the documents it includes (in its order; an included file's own
 * variables override the master's), or a single document. Test ids must be unique overall.
 */
export function loadActsSuite(path: string): ActsDocument[] {
  const master = parseActsDocument(readFileSync(path, "utf8"), basename(path));
  const raw = parse(readFileSync(path, "utf8")) as { include?: unknown };
  const documents = [
    master,
    ...((raw.include as string[] | undefined) ?? []).map((f) =>
      parseActsDocument(readFileSync(join(dirname(path), f), "utf8"), f),
    ),
  ]
    .filter((d) => d.suites.length > 0)
    .map((d) => ({ ...d, variables: { ...master.variables, ...d.variables } }));
  const seen = new Map<string, string>();
  for (const d of documents)
    for (const s of d.suites)
      for (const t of s.tests) {
        need(!seen.has(t.id), d.file, `test id ${t.id} is also in ${seen.get(t.id)}`);
        seen.set(t.id, d.file);
      }
  return documents;
}
