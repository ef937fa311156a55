/**
 * The ACTS assertion DSL (§5): a bare scalar is exact equality; a map mixes operators
 * (`type`, `exists`, `absent`, `contains`, `matches`, `starts_with`, `ends_with`, `gte`,
 * `lte`, `gt`, `lt`, `count`, `count_gte`, `count_lte`, `one_of`, `all_of`, `any_of`,
 * `not`) with field names whose values are nested assertions (AND); a list asserts array
 * elements by position.
 *
 * Beyond the ACTS text, because the published suite uses it: `items` (a map: every element
 * matches; a list: by position); `exists: false` means absent; a `one_of` entry that is a
 * map is an assertion (one entry must pass), not a literal.
 */
import type { JsonValue } from "./client.js";

export interface AssertionFailure {
  /** Dot-path of the value that failed, from the assertion root ("" = the root). */
  readonly path: string;
  readonly message: string;
  readonly expected?: string;
  readonly actual?: string;
}

const OPERATORS = new Set([
  "type",
  "exists",
  "absent",
  "contains",
  "matches",
  "starts_with",
  "ends_with",
  "gte",
  "lte",
  "gt",
  "lt",
  "count",
  "count_gte",
  "count_lte",
  "one_of",
  "all_of",
  "any_of",
  "not",
  "items",
]);
const TYPE_NAMES = new Set(["string", "number", "boolean", "array", "object", "null"]);

type Assertion = JsonValue;

const isMap = (v: unknown): v is Record<string, JsonValue> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/** Shows a value in a failure message (undefined = missing). */
export function show(value: JsonValue | undefined): string {
  if (value === undefined) return "(missing)";
  const s = JSON.stringify(value);
  return s.length > 200 ? `${s.slice(0, 197)}...` : s;
}

const join = (path: string, key: string | number) =>
  typeof key === "number" ? `${path}[${key}]` : path === "" ? key : `${path}.${key}`;

/** Is `key` of this assertion map an operator (rather than a field name)? */
function isOperatorKey(key: string, value: JsonValue): boolean {
  if (!OPERATORS.has(key)) return false;
  // A field named "type" holding a nested assertion is a field, not the type operator.
  if (key === "type") return typeof value === "string" && TYPE_NAMES.has(value);
  return true;
}

function typeOf(v: JsonValue | undefined): string {
  if (v === undefined) return "missing";
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
}

function numeric(v: JsonValue | undefined): number | undefined {
  if (typeof v === "number") return v;
  if (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))) return Number(v); // int64 as a JSON string
  return undefined;
}

function equal(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (
    a === undefined ||
    b === undefined ||
    a === null ||
    b === null ||
    typeof a !== "object" ||
    typeof b !== "object"
  )
    return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => equal(x, b[i]));
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  return (
    ka.length === kb.length &&
    ka.every((k) => equal((a as Record<string, JsonValue>)[k], (b as Record<string, JsonValue>)[k]))
  );
}

/** Checks `actual` against `assertion`; returns every failure (empty = pass). */
export function check(
  actual: JsonValue | undefined,
  assertion: Assertion,
  path = "",
): AssertionFailure[] {
  if (Array.isArray(assertion)) return checkPositional(actual, assertion, path);
  if (!isMap(assertion)) {
    return equal(actual, assertion)
      ? []
      : [
          {
            path,
            message: `expected ${show(assertion)}, got ${show(actual)}`,
            expected: show(assertion),
            actual: show(actual),
          },
        ];
  }
  const failures: AssertionFailure[] = [];
  for (const [key, value] of Object.entries(assertion)) {
    if (isOperatorKey(key, value)) {
      failures.push(...checkOperator(actual, key, value, path));
    } else if (actual !== undefined && !isMap(actual)) {
      failures.push({
        path: join(path, key),
        message: `expected an object with field "${key}", got ${show(actual)}`,
        actual: show(actual),
      });
    } else {
      failures.push(
        ...check(actual === undefined ? undefined : actual[key], value, join(path, key)),
      );
    }
  }
  return failures;
}

/** Does `actual` satisfy `assertion`? */
export const passes = (actual: JsonValue | undefined, assertion: Assertion): boolean =>
  check(actual, assertion).length === 0;

function checkPositional(
  actual: JsonValue | undefined,
  elements: readonly Assertion[],
  path: string,
): AssertionFailure[] {
  if (!Array.isArray(actual))
    return [
      {
        path,
        message: `expected an array, got ${show(actual)}`,
        expected: "array",
        actual: show(actual),
      },
    ];
  if (actual.length < elements.length) {
    return [
      {
        path,
        message: `expected at least ${elements.length} element(s), got ${actual.length}`,
        expected: `>= ${elements.length}`,
        actual: String(actual.length),
      },
    ];
  }
  return elements.flatMap((element, i) => check(actual[i], element, join(path, i)));
}

function fail(
  path: string,
  operator: string,
  expected: JsonValue,
  actual: JsonValue | undefined,
  what?: string,
): AssertionFailure[] {
  return [
    {
      path,
      message: `${operator} ${show(expected)}: ${what ?? `got ${show(actual)}`}`,
      expected: `${operator} ${show(expected)}`,
      actual: show(actual),
    },
  ];
}

function checkOperator(
  actual: JsonValue | undefined,
  op: string,
  expected: JsonValue,
  path: string,
): AssertionFailure[] {
  switch (op) {
    case "type": {
      const t = typeOf(actual);
      return t === expected ? [] : fail(path, op, expected, actual, `got ${t}`);
    }
    case "exists":
      if (expected === false) return actual === undefined ? [] : fail(path, "absent", true, actual);
      return actual !== undefined ? [] : fail(path, op, expected, actual, "missing");
    case "absent":
      if (expected === false)
        return actual !== undefined ? [] : fail(path, "exists", true, actual, "missing");
      return actual === undefined ? [] : fail(path, op, expected, actual);
    case "contains":
      if (typeof actual === "string" && typeof expected === "string")
        return actual.includes(expected) ? [] : fail(path, op, expected, actual);
      if (Array.isArray(actual))
        return actual.some((x) => equal(x, expected)) ? [] : fail(path, op, expected, actual);
      return fail(path, op, expected, actual);
    case "matches": {
      if (actual === undefined) return fail(path, op, expected, actual, "missing");
      const text = typeof actual === "string" ? actual : JSON.stringify(actual);
      return new RegExp(String(expected), "u").test(text) ? [] : fail(path, op, expected, actual);
    }
    case "starts_with":
      return typeof actual === "string" && actual.startsWith(String(expected))
        ? []
        : fail(path, op, expected, actual);
    case "ends_with":
      return typeof actual === "string" && actual.endsWith(String(expected))
        ? []
        : fail(path, op, expected, actual);
    case "gte":
    case "lte":
    case "gt":
    case "lt": {
      const n = numeric(actual);
      const e = Number(expected);
      const ok =
        n !== undefined &&
        (op === "gte" ? n >= e : op === "lte" ? n <= e : op === "gt" ? n > e : n < e);
      return ok ? [] : fail(path, op, expected, actual);
    }
    case "count":
    case "count_gte":
    case "count_lte": {
      if (!Array.isArray(actual))
        return fail(path, op, expected, actual, `expected an array, got ${show(actual)}`);
      const e = Number(expected);
      const ok =
        op === "count"
          ? actual.length === e
          : op === "count_gte"
            ? actual.length >= e
            : actual.length <= e;
      return ok ? [] : fail(path, op, expected, actual, `length ${actual.length}`);
    }
    case "one_of": {
      if (!Array.isArray(expected)) throw new Error(`${path}: one_of needs a list`);
      const ok = expected.some((option) =>
        isMap(option) || Array.isArray(option) ? passes(actual, option) : equal(actual, option),
      );
      return ok ? [] : fail(path, op, expected, actual);
    }
    case "all_of":
      if (!Array.isArray(expected)) throw new Error(`${path}: all_of needs a list`);
      return expected.flatMap((a) => check(actual, a, path));
    case "any_of": {
      if (!Array.isArray(expected)) throw new Error(`${path}: any_of needs a list`);
      if (expected.some((a) => passes(actual, a))) return [];
      const why = expected
        .map((a) =>
          check(actual, a, path)
            .map((f) => f.message)
            .join("; "),
        )
        .join(" | ");
      return fail(path, op, expected, actual, `no alternative passed (${why})`);
    }
    case "not":
      return passes(actual, expected)
        ? fail(path, op, expected, actual, `assertion passed but must not: got ${show(actual)}`)
        : [];
    case "items":
      if (!Array.isArray(actual))
        return fail(path, op, expected, actual, `expected an array, got ${show(actual)}`);
      if (Array.isArray(expected)) return checkPositional(actual, expected, path);
      return actual.flatMap((element, i) => check(element, expected, join(path, i)));
    default:
      throw new Error(`unknown operator ${op}`);
  }
}
