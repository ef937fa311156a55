/**
 * Unit tests of the ACTS runner (test/support/acts): dot-paths, the assertion DSL, variables,
 * document loading and validation, request building, `repeat.until`, stream checks, reports,
 * and end-to-end `runActs` runs over inline documents with a fake `ActsClient` that also
 * plays the wire (each answer becomes the JSON-RPC exchange a correct agent would send, or a
 * deliberately broken one). Table-driven; every row asserts something that could fail.
 * No servers, no network: `runActs` only ever talks to the fake client here. The wire
 * modules themselves are tested in acts-wire.test.ts.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { check, passes, show } from "../support/acts/assertions.js";
import type {
  ActsClient,
  ActsError,
  CallOptions,
  JsonObject,
  JsonValue,
  OperationOutcome,
  StreamOperation,
  StreamOutcome,
  UnaryOperation,
} from "../support/acts/client.js";
import { specErrorByName } from "../support/acts/spec-errors.js";
import type { WireSource } from "../support/acts/wire-call.js";
import { OPERATION_METHODS } from "../support/acts/wire-judge.js";
import { EXCHANGE_HEADER, type WireExchange } from "../support/acts/wire-tap.js";
import {
  ActsDocumentError,
  loadActsSuite,
  parseActsDocument,
  type ActsDocument,
} from "../support/acts/document.js";
import {
  buildRequest,
  isStreamOperation,
  resolveOperation,
  type AbstractOperation,
} from "../support/acts/operations.js";
import { parsePath, resolvePath, valueAt } from "../support/acts/paths.js";
import { actsReport, exceptionsList, totalsTable, type RunReport } from "../support/acts/report.js";
import {
  evaluateUntil,
  runActs,
  withMessageId,
  type RunnerConfig,
  type TestResult,
} from "../support/acts/runner.js";
import {
  checkEvent,
  checkMonotonic,
  checkStream,
  eventView,
  payloadOf,
  stateOf,
} from "../support/acts/streams.js";
import {
  interpolate,
  UnresolvedVariableError,
  type VariableScope,
} from "../support/acts/variables.js";
import { repoRoot } from "../support/repo-root.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const brief = (failures: readonly { path: string; message: string }[]) =>
  failures.map((f) => ({ path: f.path, message: f.message }));

// ---------------------------------------------------------------------------------------------
// paths.ts
// ---------------------------------------------------------------------------------------------

describe("parsePath", () => {
  const valid: readonly [string, unknown[]][] = [
    ["task", [{ key: "task" }]],
    ["task.id", [{ key: "task" }, { key: "id" }]],
    [
      "task.artifacts[0].parts[12].text",
      [
        { key: "task" },
        { key: "artifacts" },
        { index: 0 },
        { key: "parts" },
        { index: 12 },
        { key: "text" },
      ],
    ],
    ["tasks[*]", [{ key: "tasks" }, { wildcard: true }]],
    [
      "task.artifacts[*].parts[*]",
      [
        { key: "task" },
        { key: "artifacts" },
        { wildcard: true },
        { key: "parts" },
        { wildcard: true },
      ],
    ],
    ["error.data[*]", [{ key: "error" }, { key: "data" }, { wildcard: true }]],
    ["m[0][1]", [{ key: "m" }, { index: 0 }, { index: 1 }]],
    ["[0].id", [{ index: 0 }, { key: "id" }]],
    ["x-request-id", [{ key: "x-request-id" }]],
    ["@type", [{ key: "@type" }]],
  ];
  it.each(valid)("parses %j", (path, segments) => {
    expect(parsePath(path)).toEqual(segments);
  });

  const malformed = [
    "",
    ".",
    "a.",
    ".a",
    "a..b",
    "a[",
    "a[]",
    "a[x]",
    "a[-1]",
    "a[1.5]",
    "a]",
    "a[0",
    "a[*",
    "a[0]b",
    "a.[0]",
    "a[0]..b",
  ];
  it.each(malformed)("rejects malformed %j", (path) => {
    expect(() => parsePath(path)).toThrow(`malformed path "${path}"`);
  });
});

describe("resolvePath / valueAt", () => {
  const root: JsonValue = {
    task: {
      id: "t-1",
      status: { state: "TASK_STATE_WORKING" },
      artifacts: [{ parts: [{ text: "a" }, { data: { k: 1 } }] }, { parts: [{ text: "b" }] }],
    },
    tasks: [{ id: "x" }, { id: "y" }, { noId: true }],
    nothing: null,
    empty: [],
  };
  const cases: readonly [string, JsonValue[]][] = [
    ["task.id", ["t-1"]],
    ["task.status.state", ["TASK_STATE_WORKING"]],
    ["task.artifacts[1].parts[0].text", ["b"]],
    ["task.artifacts[2]", []],
    ["task.artifacts[*].parts[*].text", ["a", "b"]],
    ["task.artifacts[*].parts[*]", [{ text: "a" }, { data: { k: 1 } }, { text: "b" }]],
    ["tasks[*].id", ["x", "y"]],
    ["tasks.id", []], // a key on an array reaches nothing
    ["task[*]", []], // a wildcard on an object reaches nothing
    ["task.id[0]", []], // an index on a string reaches nothing
    ["nothing", [null]],
    ["nothing.x", []],
    ["empty[*]", []],
    ["missing.deep.path", []],
    ["task.constructor", []], // own properties only
    ["task.toString", []],
  ];
  it.each(cases)("%s", (path, values) => {
    expect(resolvePath(root, path)).toEqual(values);
    expect(valueAt(root, path)).toEqual(values[0]);
  });

  it("resolves against an undefined root to nothing and throws on malformed paths", () => {
    expect(resolvePath(undefined, "a.b")).toEqual([]);
    expect(() => valueAt(root, "task..id")).toThrow(/malformed path/);
  });
});

// ---------------------------------------------------------------------------------------------
// assertions.ts
// ---------------------------------------------------------------------------------------------

type Row = readonly [
  name: string,
  actual: JsonValue | undefined,
  assertion: JsonValue,
  failures: readonly { path: string; message: string }[],
];

describe("check: the assertion DSL", () => {
  const rows: readonly Row[] = [
    // exact match
    ["exact string", "a", "a", []],
    ["exact string mismatch", "a", "b", [{ path: "", message: 'expected "b", got "a"' }]],
    [
      "exact number is not a numeric string",
      "1",
      1,
      [{ path: "", message: 'expected 1, got "1"' }],
    ],
    ["exact boolean", false, false, []],
    ["exact null", null, null, []],
    [
      "exact null vs missing",
      undefined,
      null,
      [{ path: "", message: "expected null, got (missing)" }],
    ],
    [
      "exact false vs missing",
      undefined,
      false,
      [{ path: "", message: "expected false, got (missing)" }],
    ],
    // type
    ["type string", "x", { type: "string" }, []],
    ["type number", 1.5, { type: "number" }, []],
    ["type boolean", true, { type: "boolean" }, []],
    ["type array", [], { type: "array" }, []],
    ["type object", {}, { type: "object" }, []],
    ["type null", null, { type: "null" }, []],
    [
      "type number vs string",
      "1",
      { type: "number" },
      [{ path: "", message: 'type "number": got string' }],
    ],
    [
      "type object vs array",
      [],
      { type: "object" },
      [{ path: "", message: 'type "object": got array' }],
    ],
    [
      "type object vs null",
      null,
      { type: "object" },
      [{ path: "", message: 'type "object": got null' }],
    ],
    [
      "type of missing",
      undefined,
      { type: "string" },
      [{ path: "", message: 'type "string": got missing' }],
    ],
    // exists / absent
    ["exists", 0, { exists: true }, []],
    ["exists: null counts as present", null, { exists: true }, []],
    [
      "exists on missing",
      undefined,
      { exists: true },
      [{ path: "", message: "exists true: missing" }],
    ],
    ["exists false on missing", undefined, { exists: false }, []],
    [
      "exists false on present",
      1,
      { exists: false },
      [{ path: "", message: "absent true: got 1" }],
    ],
    ["absent on missing", undefined, { absent: true }, []],
    ["absent on present", "x", { absent: true }, [{ path: "", message: 'absent true: got "x"' }]],
    ["absent false on present", "x", { absent: false }, []],
    [
      "absent false on missing",
      undefined,
      { absent: false },
      [{ path: "", message: "exists true: missing" }],
    ],
    // contains
    ["contains substring", "hello world", { contains: "lo w" }, []],
    [
      "contains substring mismatch",
      "hello",
      { contains: "xyz" },
      [{ path: "", message: 'contains "xyz": got "hello"' }],
    ],
    ["contains array element", ["a", { b: 1 }], { contains: { b: 1 } }, []],
    [
      "contains array element mismatch",
      [1, 2],
      { contains: 3 },
      [{ path: "", message: "contains 3: got [1,2]" }],
    ],
    [
      "contains on a number",
      12,
      { contains: "1" },
      [{ path: "", message: 'contains "1": got 12' }],
    ],
    [
      "contains on missing",
      undefined,
      { contains: "a" },
      [{ path: "", message: 'contains "a": got (missing)' }],
    ],
    // matches
    ["matches", "abc-123", { matches: "^abc-\\d+$" }, []],
    [
      "matches mismatch",
      "abc",
      { matches: "^x" },
      [{ path: "", message: 'matches "^x": got "abc"' }],
    ],
    [
      "matches missing",
      undefined,
      { matches: "." },
      [{ path: "", message: 'matches ".": missing' }],
    ],
    ["matches a non-string through its JSON", 42, { matches: "^4\\d$" }, []],
    ["matches is unicode-aware", "ü", { matches: "^\\p{L}$" }, []],
    // starts_with / ends_with
    ["starts_with", "https://x", { starts_with: "https://" }, []],
    [
      "starts_with mismatch",
      "http://x",
      { starts_with: "https://" },
      [{ path: "", message: 'starts_with "https://": got "http://x"' }],
    ],
    [
      "starts_with on a non-string",
      123,
      { starts_with: "1" },
      [{ path: "", message: 'starts_with "1": got 123' }],
    ],
    ["ends_with", "file.json", { ends_with: ".json" }, []],
    [
      "ends_with mismatch",
      "file.yaml",
      { ends_with: ".json" },
      [{ path: "", message: 'ends_with ".json": got "file.yaml"' }],
    ],
    // numeric comparisons
    ["gte equal", 5, { gte: 5 }, []],
    ["gte below", 4, { gte: 5 }, [{ path: "", message: "gte 5: got 4" }]],
    ["gte int64 as a string", "10", { gte: 5 }, []],
    ["gte non-numeric string", "abc", { gte: 0 }, [{ path: "", message: 'gte 0: got "abc"' }]],
    ["gte blank string is not 0", " ", { gte: 0 }, [{ path: "", message: 'gte 0: got " "' }]],
    ["gte on missing", undefined, { gte: 0 }, [{ path: "", message: "gte 0: got (missing)" }]],
    ["lte", 5, { lte: 5 }, []],
    ["lte above", 6, { lte: 5 }, [{ path: "", message: "lte 5: got 6" }]],
    ["gt", 6, { gt: 5 }, []],
    ["gt equal fails", 5, { gt: 5 }, [{ path: "", message: "gt 5: got 5" }]],
    ["lt", 4, { lt: 5 }, []],
    ["lt equal fails", 5, { lt: 5 }, [{ path: "", message: "lt 5: got 5" }]],
    ["range (AND of operators)", 7, { gt: 1, lt: 5 }, [{ path: "", message: "lt 5: got 7" }]],
    // counts
    ["count", [1, 2], { count: 2 }, []],
    ["count mismatch", [1, 2], { count: 3 }, [{ path: "", message: "count 3: length 2" }]],
    [
      "count on a non-array",
      "ab",
      { count: 2 },
      [{ path: "", message: 'count 2: expected an array, got "ab"' }],
    ],
    [
      "count on missing",
      undefined,
      { count: 0 },
      [{ path: "", message: "count 0: expected an array, got (missing)" }],
    ],
    ["count_gte", [1, 2], { count_gte: 2 }, []],
    ["count_gte below", [1], { count_gte: 2 }, [{ path: "", message: "count_gte 2: length 1" }]],
    ["count_lte", [], { count_lte: 0 }, []],
    ["count_lte above", [1, 2], { count_lte: 1 }, [{ path: "", message: "count_lte 1: length 2" }]],
    // one_of
    ["one_of literal", "B", { one_of: ["A", "B"] }, []],
    [
      "one_of literal mismatch",
      "C",
      { one_of: ["A", "B"] },
      [{ path: "", message: 'one_of ["A","B"]: got "C"' }],
    ],
    ["one_of map entry is an assertion", 5, { one_of: ["x", { gte: 3 }] }, []],
    [
      "one_of map entry failing",
      1,
      { one_of: ["x", { gte: 3 }] },
      [{ path: "", message: 'one_of ["x",{"gte":3}]: got 1' }],
    ],
    [
      "one_of on missing",
      undefined,
      { one_of: [null] },
      [{ path: "", message: "one_of [null]: got (missing)" }],
    ],
    // all_of / any_of / not
    ["all_of", 3, { all_of: [{ gte: 1 }, { lte: 3 }] }, []],
    [
      "all_of reports the failing member",
      5,
      { all_of: [{ gte: 1 }, { lte: 3 }] },
      [{ path: "", message: "lte 3: got 5" }],
    ],
    ["any_of", "x", { any_of: [{ type: "number" }, { type: "string" }] }, []],
    [
      "any_of none passing",
      5,
      { any_of: [{ gte: 10 }, { type: "string" }] },
      [
        {
          path: "",
          message:
            'any_of [{"gte":10},{"type":"string"}]: no alternative passed (gte 10: got 5 | type "string": got number)',
        },
      ],
    ],
    ["not", "x", { not: { type: "number" } }, []],
    [
      "not failing",
      5,
      { not: { type: "number" } },
      [{ path: "", message: 'not {"type":"number"}: assertion passed but must not: got 5' }],
    ],
    [
      "not of an exact value",
      "a",
      { not: "a" },
      [{ path: "", message: 'not "a": assertion passed but must not: got "a"' }],
    ],
    ["not on missing", undefined, { not: { exists: true } }, []],
    // items
    ["items map: every element", [{ a: 1 }, { a: 1 }], { items: { a: 1 } }, []],
    [
      "items map: failing element path",
      [{ a: 1 }, { a: 2 }],
      { items: { a: 1 } },
      [{ path: "[1].a", message: "expected 1, got 2" }],
    ],
    ["items list: by position", [1, 2, 3], { items: [1, 2] }, []],
    [
      "items list: position mismatch",
      [1, 3],
      { items: [1, 2] },
      [{ path: "[1]", message: "expected 2, got 3" }],
    ],
    [
      "items on a non-array",
      { a: 1 },
      { items: { a: 1 } },
      [{ path: "", message: 'items {"a":1}: expected an array, got {"a":1}' }],
    ],
    ["items on an empty array passes", [], { items: { a: 1 } }, []],
    // nested field maps
    [
      "nested field",
      { task: { status: { state: "X" } } },
      { task: { status: { state: "X" } } },
      [],
    ],
    [
      "nested field mismatch path",
      { task: { status: { state: "X" } } },
      { task: { status: { state: "Y" } } },
      [{ path: "task.status.state", message: 'expected "Y", got "X"' }],
    ],
    [
      "nested field under a missing parent",
      {},
      { task: { id: { type: "string" } } },
      [{ path: "task.id", message: 'type "string": got missing' }],
    ],
    ["nested absent under a missing parent", {}, { task: { id: { absent: true } } }, []],
    [
      "field of a non-object",
      { task: "str" },
      { task: { id: 1 } },
      [{ path: "task.id", message: 'expected an object with field "id", got "str"' }],
    ],
    [
      "field of null",
      { task: null },
      { task: { id: 1 } },
      [{ path: "task.id", message: 'expected an object with field "id", got null' }],
    ],
    ["extra actual fields are fine", { a: 1, b: 2 }, { a: 1 }, []],
    [
      "every failure is reported",
      { a: 1, b: 2 },
      { a: 2, b: 3 },
      [
        { path: "a", message: "expected 2, got 1" },
        { path: "b", message: "expected 3, got 2" },
      ],
    ],
    [
      "operators and fields mixed",
      { id: "x" },
      { type: "object", id: { starts_with: "y" } },
      [{ path: "id", message: 'starts_with "y": got "x"' }],
    ],
    // positional lists
    [
      "positional list prefix",
      { parts: [{ text: "a" }, { text: "b" }] },
      { parts: [{ text: "a" }] },
      [],
    ],
    [
      "positional list second element",
      { parts: [{ text: "a" }, { text: "b" }] },
      { parts: [{}, { text: "c" }] },
      [{ path: "parts[1].text", message: 'expected "c", got "b"' }],
    ],
    [
      "positional list too short",
      { parts: [] },
      { parts: [{ text: "a" }] },
      [{ path: "parts", message: "expected at least 1 element(s), got 0" }],
    ],
    [
      "positional list vs object",
      { parts: {} },
      { parts: [1] },
      [{ path: "parts", message: "expected an array, got {}" }],
    ],
    [
      "positional list vs missing",
      {},
      { parts: [1] },
      [{ path: "parts", message: "expected an array, got (missing)" }],
    ],
    // "type" as a field name
    ["field named type with a non-type-name value", { type: "custom" }, { type: "custom" }, []],
    [
      "field named type holding an assertion map",
      { type: { kind: "k" } },
      { type: { kind: "k" } },
      [],
    ],
    [
      "type with a type name is the operator",
      { type: "string" },
      { type: "string" },
      [{ path: "", message: 'type "string": got object' }],
    ],
  ];
  it.each(rows)("%s", (_, actual, assertion, failures) => {
    expect(brief(check(actual, assertion))).toEqual(failures);
    expect(passes(actual, assertion)).toBe(failures.length === 0);
  });

  it("keeps expected and actual on a failure and prefixes a base path", () => {
    expect(check({ id: 1 }, { id: 2 }, "body")).toEqual([
      { path: "body.id", message: "expected 2, got 1", expected: "2", actual: "1" },
    ]);
    expect(check(4, { gte: 5 })[0]).toMatchObject({ expected: "gte 5", actual: "4" });
  });

  it.each([
    ["one_of", { one_of: "A" }],
    ["all_of", { all_of: { gte: 1 } }],
    ["any_of", { any_of: 1 }],
  ] as const)("%s needs a list", (op, assertion) => {
    expect(() => check(1, assertion)).toThrow(`${op} needs a list`);
  });

  it("shortens long values in messages", () => {
    expect(show("x".repeat(300))).toHaveLength(200);
    expect(show("x".repeat(300)).endsWith("...")).toBe(true);
    expect(show(undefined)).toBe("(missing)");
  });
});

// ---------------------------------------------------------------------------------------------
// variables.ts
// ---------------------------------------------------------------------------------------------

describe("interpolate: variables", () => {
  const scope: VariableScope = {
    captures: new Map([
      [
        "send",
        new Map<string, JsonValue>([
          ["taskId", "t-1"],
          ["n", 5],
          ["response", { task: { id: "t-1" } }],
        ]),
      ],
      ["empty", new Map<string, JsonValue>()],
    ]),
    document: {
      name: "Ann",
      greeting: "hi {{name}}",
      both: "doc",
      obj: "{{send.response}}",
      loop: "{{loop}}",
      ping: "{{pong}}",
      pong: "{{ping}}",
      "send.taskId": "document",
      "other.x": "dotted document var",
      bad: "{{nope}}",
    },
    runner: { both: "runner", name: "RunnerName", webhookUrl: "http://hook/x", runnerOnly: "r" },
    env: { HOME_X: "/h", both: "env", envOnly: "E", EMPTY: "" },
  };
  const ok: readonly [string, JsonValue, JsonValue][] = [
    ["captured value", "{{send.taskId}}", "t-1"],
    ["captures beat a document variable of the same name", "{{send.taskId}}", "t-1"],
    ["whole-string reference keeps an object", "{{send.response}}", { task: { id: "t-1" } }],
    ["whole-string reference keeps a number", "{{send.n}}", 5],
    ["spaces inside braces", "{{  send.taskId }}", "t-1"],
    ["number inside text is stringified", "n={{send.n}}", "n=5"],
    ["object inside text is JSON", "r={{send.response}}", 'r={"task":{"id":"t-1"}}'],
    ["several references", "{{name}}/{{send.taskId}}/{{webhookUrl}}", "Ann/t-1/http://hook/x"],
    ["document beats runner beats env", "{{both}}", "doc"],
    ["runner variable", "{{runnerOnly}}", "r"],
    ["env by bare name as the last resort", "{{envOnly}}", "E"],
    ["env.NAME", "{{env.HOME_X}}", "/h"],
    ["env.NAME set to the empty string", "[{{env.EMPTY}}]", "[]"],
    ["document variable referring to another (document beats runner)", "{{greeting}}", "hi Ann"],
    [
      "document variable that is a whole reference keeps the type",
      "{{obj}}",
      { task: { id: "t-1" } },
    ],
    [
      "dotted name of an uncaptured step falls back to document variables",
      "{{other.x}}",
      "dotted document var",
    ],
    ["no reference", "plain {text}", "plain {text}"],
    ["single braces are text", "{x}", "{x}"],
    ["non-strings pass through", 42, 42],
    ["null passes through", null, null],
    [
      "arrays and maps recursively, keys untouched",
      { "{{name}}": ["{{send.taskId}}", 1, true, null, { deep: "{{send.n}}" }] },
      { "{{name}}": ["t-1", 1, true, null, { deep: 5 }] },
    ],
  ];
  it.each(ok)("%s", (_, input, output) => {
    expect(interpolate(input, scope)).toEqual(output);
  });

  it("$uuid makes a fresh UUID per occurrence", () => {
    const one = interpolate("{{$uuid}}", scope) as string;
    expect(one).toMatch(UUID);
    const [a, b] = (interpolate("{{$uuid}} {{$uuid}}", scope) as string).split(" ");
    expect(a).toMatch(UUID);
    expect(b).toMatch(UUID);
    expect(a).not.toBe(b);
  });

  const errors: readonly [string, string, RegExp][] = [
    ["unknown variable", "{{nope}}", /unresolved variable \{\{nope\}\}/],
    ["unknown variable inside text", "a {{nope}} b", /unresolved variable \{\{nope\}\}/],
    ["unknown step", "{{ghost.taskId}}", /unresolved variable \{\{ghost\.taskId\}\}/],
    ["capture the step did not make", "{{send.contextId}}", /step "send" captured no "contextId"/],
    ["step that captured nothing", "{{empty.x}}", /step "empty" captured no "x"/],
    ["unset env", "{{env.ACTS_SURELY_UNSET}}", /environment variable ACTS_SURELY_UNSET is not set/],
    ["self reference", "{{loop}}", /variable loop refers to itself/],
    ["mutual reference", "{{ping}}", /refers to itself/],
    [
      "document variable referring to an unknown one",
      "{{bad}}",
      /unresolved variable \{\{nope\}\}/,
    ],
  ];
  it.each(errors)("%s fails with UnresolvedVariableError", (_, input, message) => {
    expect(() => interpolate(input, scope)).toThrow(UnresolvedVariableError);
    expect(() => interpolate(input, scope)).toThrow(message);
  });

  it("fails inside nested structures too", () => {
    expect(() => interpolate({ a: [{ b: "{{nope}}" }] }, scope)).toThrow(UnresolvedVariableError);
  });
});

// ---------------------------------------------------------------------------------------------
// document.ts
// ---------------------------------------------------------------------------------------------

/** Strips the common indentation of a template literal. */
function dedent(text: string): string {
  const lines = text.replace(/^\n/, "").split("\n");
  const indent = Math.min(
    ...lines.filter((l) => l.trim() !== "").map((l) => /^ */.exec(l)![0].length),
  );
  return lines.map((l) => l.slice(indent)).join("\n");
}
const indented = (text: string, n: number) =>
  dedent(text)
    .split("\n")
    .map((l) => " ".repeat(n) + l)
    .join("\n");

/** A document with one suite "s" whose tests are `tests` (YAML, a list). */
const withTests = (tests: string) =>
  `acts_version: "1.0"\nspec_version: "1.0"\nsuites:\n  - id: s\n    name: S\n    tests:\n${indented(tests, 6)}\n`;
/** A document with one test "T-1" whose steps are `steps` (YAML, a list). */
const withSteps = (steps: string, extra = "") =>
  withTests(
    `- id: T-1\n  name: t\n  level: must\n${extra ? indented(extra, 2) + "\n" : ""}  steps:\n${indented(steps, 4)}`,
  );

describe("parseActsDocument: validation", () => {
  const op = "- id: a\n  operation: get_task\n  params: {id: x}";
  const rejected: readonly [string, string, RegExp][] = [
    ["root not a map", "- a\n- b\n", /f\.acts\.yaml: the root must be a map/],
    ["acts_version missing", 'spec_version: "1.0"\nsuites: []\n', /acts_version missing/],
    [
      "acts_version not a string",
      'acts_version: 1.0\nspec_version: "1.0"\nsuites: []\n',
      /acts_version missing/,
    ],
    [
      "acts_version major 2",
      'acts_version: "2.0"\nspec_version: "1.0"\nsuites: []\n',
      /acts_version 2\.0: this runner supports major version 1 only/,
    ],
    [
      "acts_version major 10",
      'acts_version: "10.1"\nspec_version: "1.0"\nsuites: []\n',
      /supports major version 1 only/,
    ],
    [
      "acts_version major 0",
      'acts_version: "0.9"\nspec_version: "1.0"\nsuites: []\n',
      /supports major version 1 only/,
    ],
    ["spec_version missing", 'acts_version: "1.0"\nsuites: []\n', /spec_version missing/],
    [
      "neither suites nor include",
      'acts_version: "1.0"\nspec_version: "1.0"\n',
      /needs suites or include/,
    ],
    [
      "suite without id",
      'acts_version: "1.0"\nspec_version: "1.0"\nsuites:\n  - name: S\n    tests: []\n',
      /suite #1 needs id and tests/,
    ],
    [
      "suite tests not a list",
      'acts_version: "1.0"\nspec_version: "1.0"\nsuites:\n  - id: s\n    tests: {}\n',
      /suite #1 needs id and tests/,
    ],
    [
      "variables not strings",
      'acts_version: "1.0"\nspec_version: "1.0"\nvariables: {n: 1}\nsuites: []\n',
      /variables must map names to strings/,
    ],
    ["test not a map", withTests("- just a string"), /suite s: a test must be a map/],
    [
      "test without name",
      withTests(`- id: T-1\n  level: must\n  steps:\n${indented(op, 4)}`),
      /test needs id and name/,
    ],
    [
      "level invalid",
      withTests(`- id: T-1\n  name: t\n  level: required\n  steps:\n${indented(op, 4)}`),
      /test T-1: level must be must\/should\/may, is required/,
    ],
    [
      "level missing",
      withTests(`- id: T-1\n  name: t\n  steps:\n${indented(op, 4)}`),
      /level must be must\/should\/may, is undefined/,
    ],
    [
      "transport unknown",
      withSteps(op, "transport: [http]"),
      /transport must list jsonrpc\/grpc\/rest/,
    ],
    [
      "transport not a list",
      withSteps(op, "transport: jsonrpc"),
      /transport must list jsonrpc\/grpc\/rest/,
    ],
    ["no steps", withTests("- id: T-1\n  name: t\n  level: must"), /test T-1: test needs steps/],
    [
      "empty steps",
      withTests("- id: T-1\n  name: t\n  level: must\n  steps: []"),
      /test needs steps/,
    ],
    ["step not a map", withSteps("- get_task"), /test T-1: a step must be a map/],
    ["step without id", withSteps("- operation: get_task"), /step without an id/],
    ["step with an empty id", withSteps('- id: ""\n  operation: get_task'), /step without an id/],
    [
      "step of no kind",
      withSteps("- id: a\n  params: {}"),
      /step a: needs exactly one of operation, raw, client_response, assertion \(has none\)/,
    ],
    [
      "step of two kinds",
      withSteps("- id: a\n  operation: get_task\n  raw: {method: GET, path: /}"),
      /\(has operation, raw\)/,
    ],
    [
      "operation not a string",
      withSteps("- id: a\n  operation: {name: get_task}"),
      /operation must be a string/,
    ],
    [
      "params not a map",
      withSteps("- id: a\n  operation: get_task\n  params: [1]"),
      /params must be a map/,
    ],
    [
      "raw without path",
      withSteps("- id: a\n  raw: {method: GET}", "transport: [rest]"),
      /raw needs method and path/,
    ],
    [
      "raw with an unknown method",
      withSteps("- id: a\n  raw: {method: PATCH, path: /x}", "transport: [rest]"),
      /raw\.method PATCH is not GET\/POST\/PUT\/DELETE/,
    ],
    [
      "client step without wire_payload",
      withSteps("- id: a\n  client_response: {operation: get_task}\n  expect_parsed: {}"),
      /client_response needs operation and wire_payload/,
    ],
    [
      "client step without expect_parsed",
      withSteps("- id: a\n  client_response: {operation: get_task, wire_payload: {}}"),
      /a client step needs expect_parsed/,
    ],
    [
      "assertion without source",
      withSteps("- id: a\n  assertion: {match: 1}"),
      /assertion needs a source/,
    ],
    [
      "expect and expect_error",
      withSteps(`${op}\n  expect: {}\n  expect_error: {error_type: X}`),
      /expect and expect_error are mutually exclusive/,
    ],
    ["expect not a map", withSteps(`${op}\n  expect: [1]`), /expect must be a map/],
    [
      "expect_error not a map",
      withSteps(`${op}\n  expect_error: TaskNotFoundError`),
      /expect_error must be a map/,
    ],
    [
      "expect_stream not a map",
      withSteps(`${op}\n  expect_stream: true`),
      /expect_stream must be a map/,
    ],
    ["capture not a map", withSteps(`${op}\n  capture: [id]`), /capture must be a map/],
    [
      "assertions not a list",
      withSteps(`${op}\n  assertions: {source: x}`),
      /assertions must be a list of maps/,
    ],
    [
      "assertions of non-maps",
      withSteps(`${op}\n  assertions: [x]`),
      /assertions must be a list of maps/,
    ],
    ["repeat without until", withSteps(`${op}\n  repeat: {max_attempts: 3}`), /repeat needs until/],
    ["duplicate step id", withSteps(`${op}\n${op}`), /test T-1: duplicate step id a/],
    [
      "raw steps only, no transport (§4.4)",
      withSteps("- id: a\n  raw: {method: GET, path: /x}"),
      /a test of raw steps only must name its transport/,
    ],
  ];
  it.each(rejected)("rejects: %s", (_, text, message) => {
    expect(() => parseActsDocument(text, "f.acts.yaml")).toThrow(ActsDocumentError);
    expect(() => parseActsDocument(text, "f.acts.yaml")).toThrow(message);
  });

  it("names the file, suite, test and step of a problem", () => {
    expect(() => parseActsDocument(withSteps(`${op}\n  repeat: {}`), "x.acts.yaml")).toThrow(
      "x.acts.yaml suite s test T-1 step a: repeat needs until",
    );
  });

  const accepted: readonly [string, string][] = [
    ["acts_version 1", 'acts_version: "1"\nspec_version: "1.0"\nsuites: []\n'],
    [
      "acts_version 1.7.3 (minor/patch are compatible)",
      'acts_version: "1.7.3"\nspec_version: "1.0"\nsuites: []\n',
    ],
    ["include only", 'acts_version: "1.0"\nspec_version: "1.0"\ninclude: [a.acts.yaml]\n'],
    [
      "raw steps only with transport",
      withSteps(
        "- id: a\n  raw: {method: POST, path: /x, body_raw: '{'}",
        "transport: [jsonrpc, rest]",
      ),
    ],
    [
      "raw step beside an operation step needs no transport",
      withSteps(`${op}\n- id: b\n  raw: {method: DELETE, path: /x}`),
    ],
    [
      "assertion step",
      withSteps(`${op}\n- id: b\n  assertion: {source: "{{a.response}}", match: {id: x}}`),
    ],
    [
      "client step",
      withSteps(
        "- id: a\n  client_response: {operation: get_task, wire_payload: {jsonrpc: '2.0'}}\n  expect_parsed: {id: x}",
      ),
    ],
    [
      "every optional step field",
      withSteps(
        `${op}\n  description: d\n  expect: {status: 200}\n  capture: {id: id}\n  assertions: [{source: "{{a.response}}"}]\n  repeat: {until: id == x, max_attempts: 2, delay_ms: 1, backoff: linear}\n  delay_ms: 1\n- id: s\n  operation: send_streaming_message\n  params: {}\n  expect_stream: {min_count: 1}`,
      ),
    ],
    [
      "JSON text",
      JSON.stringify({
        acts_version: "1.0",
        spec_version: "1.0",
        suites: [
          {
            id: "s",
            tests: [
              { id: "T", name: "t", level: "may", steps: [{ id: "a", operation: "list_tasks" }] },
            ],
          },
        ],
      }),
    ],
  ];
  it.each(accepted)("accepts: %s", (_, text) => {
    expect(() => parseActsDocument(text, "f.acts.yaml")).not.toThrow();
  });

  it("fills the optional fields of a test with their defaults", () => {
    const doc = parseActsDocument(withSteps(op), "f.acts.yaml");
    expect(doc).toMatchObject({
      file: "f.acts.yaml",
      actsVersion: "1.0",
      specVersion: "1.0",
      variables: {},
    });
    expect(doc.suites).toHaveLength(1);
    expect(doc.suites[0]!.name).toBe("S");
    const test = doc.suites[0]!.tests[0]!;
    expect(test).toEqual({
      id: "T-1",
      name: "t",
      level: "must",
      tags: [],
      requires_behaviors: [],
      runner_requirements: [],
      steps: [{ id: "a", operation: "get_task", params: { id: "x" } }],
      assertions: [],
    });
    expect(test.transport).toBeUndefined();
    expect(test.preconditions).toBeUndefined();
  });

  it("keeps the optional fields of a test", () => {
    const extra =
      "description: d\ntags: [x, y]\ntransport: [grpc]\npreconditions: {capabilities: {streaming: true}}\nrequires_behaviors: [tck-a]\nrunner_requirements: [webhook_endpoint]\nassertions: [{source: '{{a.response}}', match: {id: x}}]";
    const test = parseActsDocument(withSteps(op, extra), "f.acts.yaml").suites[0]!.tests[0]!;
    expect(test).toMatchObject({
      description: "d",
      tags: ["x", "y"],
      transport: ["grpc"],
      preconditions: { capabilities: { streaming: true } },
      requires_behaviors: ["tck-a"],
      runner_requirements: ["webhook_endpoint"],
      assertions: [{ source: "{{a.response}}", match: { id: "x" } }],
    });
  });

  it("a suite's name defaults to its id", () => {
    const doc = parseActsDocument(
      'acts_version: "1.0"\nspec_version: "1.0"\nsuites:\n  - id: only-id\n    tests: []\n',
      "f",
    );
    expect(doc.suites[0]).toEqual({ id: "only-id", name: "only-id", tests: [] });
  });
});

describe("loadActsSuite", () => {
  it("loads the published suite: 14 files, 111 tests, 65 must", () => {
    const documents = loadActsSuite(
      join(repoRoot, "test", "conformance", "acts", "suite.acts.yaml"),
    );
    const tests = documents.flatMap((d) => d.suites.flatMap((s) => s.tests));
    expect(documents).toHaveLength(14);
    expect(documents.map((d) => d.file)).toEqual([
      "discovery.acts.yaml",
      "core-operations.acts.yaml",
      "history.acts.yaml",
      "multi-turn.acts.yaml",
      "streaming.acts.yaml",
      "polling.acts.yaml",
      "error-handling.acts.yaml",
      "auth-security.acts.yaml",
      "version-negotiation.acts.yaml",
      "wire-format.acts.yaml",
      "data-types.acts.yaml",
      "push-notifications.acts.yaml",
      "transport-bindings.acts.yaml",
      "client-parsing.acts.yaml",
    ]);
    expect(tests).toHaveLength(111);
    expect(tests.filter((t) => t.level === "must")).toHaveLength(65);
    expect(tests.filter((t) => t.level === "should")).toHaveLength(33);
    expect(tests.filter((t) => t.level === "may")).toHaveLength(13);
    expect(new Set(tests.map((t) => t.id)).size).toBe(111);
    // The master's variables reach every included document.
    for (const d of documents) expect(d.variables["baseUrl"]).toBe("{{SUT_BASE_URL}}");
    // Every operation the suite names resolves.
    const operations = tests.flatMap((t) =>
      t.steps.flatMap((s) =>
        [s.operation, s.client_response?.operation].filter((o): o is string => o !== undefined),
      ),
    );
    expect(operations.filter((o) => resolveOperation(o) === undefined)).toEqual([]);
    // Every until expression of the suite parses.
    for (const t of tests)
      for (const s of t.steps)
        if (s.repeat) expect(() => evaluateUntil(s.repeat!.until, {})).not.toThrow();
  });

  const tmp = () => mkdtempSync(join(tmpdir(), "acts-runner-"));
  const file = (id: string, extra = "") =>
    `acts_version: "1.0"\nspec_version: "1.0"\n${extra}suites:\n  - id: s-${id}\n    tests:\n      - id: ${id}\n        name: t\n        level: must\n        steps:\n          - id: a\n            operation: get_task\n`;

  it("merges variables (an included file overrides the master) and drops suite-less documents", () => {
    const dir = tmp();
    writeFileSync(
      join(dir, "master.yaml"),
      'acts_version: "1.0"\nspec_version: "1.0"\nvariables: {a: master, b: master}\ninclude: [one.yaml, two.yaml]\n',
    );
    writeFileSync(join(dir, "one.yaml"), file("T-1", "variables: {b: one}\n"));
    writeFileSync(join(dir, "two.yaml"), file("T-2"));
    const documents = loadActsSuite(join(dir, "master.yaml"));
    expect(documents.map((d) => [d.file, d.variables])).toEqual([
      ["one.yaml", { a: "master", b: "one" }],
      ["two.yaml", { a: "master", b: "master" }],
    ]);
  });

  it("rejects a test id used twice across files", () => {
    const dir = tmp();
    writeFileSync(
      join(dir, "master.yaml"),
      'acts_version: "1.0"\nspec_version: "1.0"\ninclude: [one.yaml, two.yaml]\n',
    );
    writeFileSync(join(dir, "one.yaml"), file("T-1"));
    writeFileSync(join(dir, "two.yaml"), file("T-1"));
    expect(() => loadActsSuite(join(dir, "master.yaml"))).toThrow(
      "two.yaml: test id T-1 is also in one.yaml",
    );
  });

  it("rejects an included file with a bad acts_version, naming it", () => {
    const dir = tmp();
    writeFileSync(
      join(dir, "master.yaml"),
      'acts_version: "1.0"\nspec_version: "1.0"\ninclude: [one.yaml]\n',
    );
    writeFileSync(join(dir, "one.yaml"), file("T-1").replace('"1.0"', '"2.0"'));
    expect(() => loadActsSuite(join(dir, "master.yaml"))).toThrow(
      "one.yaml: acts_version 2.0: this runner supports major version 1 only",
    );
  });

  it("loads a single document without includes", () => {
    const dir = tmp();
    writeFileSync(join(dir, "single.yaml"), file("T-9"));
    expect(loadActsSuite(join(dir, "single.yaml")).map((d) => d.suites[0]!.tests[0]!.id)).toEqual([
      "T-9",
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// operations.ts
// ---------------------------------------------------------------------------------------------

describe("resolveOperation", () => {
  const aliases: readonly [string, AbstractOperation | undefined][] = [
    ["send_message", "send_message"],
    ["send_streaming_message", "send_streaming_message"],
    ["get_task", "get_task"],
    ["list_tasks", "list_tasks"],
    ["cancel_task", "cancel_task"],
    ["subscribe_to_task", "subscribe_to_task"],
    ["get_agent_card", "get_agent_card"],
    ["get_extended_agent_card", "get_extended_agent_card"],
    ["create_push_config", "create_push_config"],
    ["set_push_notification_config", "create_push_config"],
    ["create_push_notification_config", "create_push_config"],
    ["get_push_config", "get_push_config"],
    ["get_push_notification_config", "get_push_config"],
    ["list_push_configs", "list_push_configs"],
    ["list_push_notification_configs", "list_push_configs"],
    ["delete_push_config", "delete_push_config"],
    ["delete_push_notification_config", "delete_push_config"],
    ["SendMessage", undefined],
    ["toString", undefined],
    ["", undefined],
  ];
  it.each(aliases)("%j → %j", (name, operation) => {
    expect(resolveOperation(name)).toBe(operation);
  });

  it("knows the streaming operations", () => {
    expect(
      ["send_streaming_message", "subscribe_to_task"].every((o) =>
        isStreamOperation(o as AbstractOperation),
      ),
    ).toBe(true);
    expect(
      ["send_message", "get_task", "list_tasks", "get_agent_card"].some((o) =>
        isStreamOperation(o as AbstractOperation),
      ),
    ).toBe(false);
  });
});

describe("buildRequest", () => {
  const msg = { role: "ROLE_USER", parts: [{ text: "hi" }] };
  type Op = Parameters<typeof buildRequest>[0];
  const rows: readonly [string, Op, JsonObject, JsonObject, string[]][] = [
    [
      "send_message keeps a given messageId",
      "send_message",
      {
        message: { ...msg, messageId: "m-1" },
        configuration: { returnImmediately: true },
        metadata: { k: "v" },
        tenant: "t",
      },
      {
        message: { ...msg, messageId: "m-1" },
        configuration: { returnImmediately: true },
        metadata: { k: "v" },
        tenant: "t",
      },
      [],
    ],
    [
      "send_message moves taskId/contextId into the message",
      "send_message",
      { message: { ...msg, messageId: "m" }, taskId: "t-1", contextId: "c-1" },
      { message: { ...msg, messageId: "m", taskId: "t-1", contextId: "c-1" } },
      [],
    ],
    [
      "send_message: the message's own taskId wins",
      "send_message",
      { message: { ...msg, messageId: "m", taskId: "inner" }, taskId: "outer" },
      { message: { ...msg, messageId: "m", taskId: "inner" } },
      [],
    ],
    [
      "send_message drops unknown params",
      "send_message",
      { message: { ...msg, messageId: "m" }, historyLength: 2, foo: 1 },
      { message: { ...msg, messageId: "m" } },
      ["historyLength", "foo"],
    ],
    [
      "send_streaming_message moves ids too",
      "send_streaming_message",
      { message: { ...msg, messageId: "m" }, contextId: "c" },
      { message: { ...msg, messageId: "m", contextId: "c" } },
      [],
    ],
    [
      "get_task",
      "get_task",
      { id: "t", historyLength: 3, tenant: "x" },
      { id: "t", historyLength: 3, tenant: "x" },
      [],
    ],
    ["get_task drops taskId", "get_task", { taskId: "t" }, {}, ["taskId"]],
    [
      "list_tasks: cursor is pageToken",
      "list_tasks",
      {
        cursor: "c",
        pageSize: 2,
        contextId: "ctx",
        status: "TASK_STATE_WORKING",
        includeArtifacts: false,
        historyLength: 0,
        statusTimestampAfter: "2020-01-01T00:00:00Z",
      },
      {
        pageToken: "c",
        pageSize: 2,
        contextId: "ctx",
        status: "TASK_STATE_WORKING",
        includeArtifacts: false,
        historyLength: 0,
        statusTimestampAfter: "2020-01-01T00:00:00Z",
      },
      [],
    ],
    [
      "list_tasks: cursor overrides pageToken",
      "list_tasks",
      { pageToken: "p", cursor: "c" },
      { pageToken: "c" },
      [],
    ],
    ["list_tasks drops unknown params", "list_tasks", { id: "x" }, {}, ["id"]],
    [
      "cancel_task",
      "cancel_task",
      { id: "t", metadata: { why: "x" } },
      { id: "t", metadata: { why: "x" } },
      [],
    ],
    [
      "subscribe_to_task",
      "subscribe_to_task",
      { id: "t", historyLength: 1 },
      { id: "t" },
      ["historyLength"],
    ],
    ["get_extended_agent_card", "get_extended_agent_card", { extended: true }, {}, ["extended"]],
    [
      "create_push_config flattens pushNotificationConfig",
      "create_push_config",
      {
        taskId: "t",
        pushNotificationConfig: {
          url: "http://h",
          token: "tok",
          authentication: { scheme: "Bearer", credentials: "c" },
          id: "cfg",
        },
      },
      {
        taskId: "t",
        url: "http://h",
        token: "tok",
        authentication: { scheme: "Bearer", credentials: "c" },
        id: "cfg",
      },
      [],
    ],
    [
      "create_push_config drops what the flat message lacks",
      "create_push_config",
      { taskId: "t", pushNotificationConfig: { url: "http://h", metadata: {} } },
      { taskId: "t", url: "http://h" },
      ["metadata"],
    ],
    [
      "create_push_config with a non-map config",
      "create_push_config",
      { taskId: "t", pushNotificationConfig: "x" },
      { taskId: "t" },
      ["pushNotificationConfig"],
    ],
    [
      "create_push_config already flat",
      "create_push_config",
      { taskId: "t", url: "http://h" },
      { taskId: "t", url: "http://h" },
      [],
    ],
    [
      "get_push_config",
      "get_push_config",
      { taskId: "t", id: "cfg", url: "x" },
      { taskId: "t", id: "cfg" },
      ["url"],
    ],
    [
      "list_push_configs",
      "list_push_configs",
      { taskId: "t", pageSize: 5, pageToken: "p" },
      { taskId: "t", pageSize: 5, pageToken: "p" },
      [],
    ],
    [
      "delete_push_config",
      "delete_push_config",
      { taskId: "t", id: "cfg" },
      { taskId: "t", id: "cfg" },
      [],
    ],
  ];
  it.each(rows)("%s", (_, operation, params, request, dropped) => {
    const before = JSON.stringify(params);
    expect(buildRequest(operation, params)).toEqual({ request, dropped });
    expect(JSON.stringify(params)).toBe(before); // params are not mutated
  });

  it.each(["send_message", "send_streaming_message"] as const)(
    "%s generates a fresh messageId when there is none",
    (operation) => {
      const a = buildRequest(operation, { message: msg }).request["message"] as JsonObject;
      const b = buildRequest(operation, { message: msg }).request["message"] as JsonObject;
      expect(a).toMatchObject(msg);
      expect(a["messageId"]).toMatch(UUID);
      expect(b["messageId"]).toMatch(UUID);
      expect(a["messageId"]).not.toBe(b["messageId"]);
      expect((msg as JsonObject)["messageId"]).toBeUndefined();
    },
  );

  it("send_message without a message sends none (a missing message stays testable)", () => {
    const { request, dropped } = buildRequest("send_message", { taskId: "t" });
    expect(request).toEqual({});
    expect(dropped).toEqual(["taskId"]);
  });
});

describe("withMessageId (raw bodies)", () => {
  const msg = { role: "ROLE_USER", parts: [{ text: "hi" }] };
  it("fills a JSON-RPC SendMessage message and moves taskId/contextId into it", () => {
    const body = {
      jsonrpc: "2.0",
      id: 1,
      method: "SendMessage",
      params: { message: msg, taskId: "t", contextId: "c", configuration: {} },
    };
    const out = withMessageId(body) as JsonObject;
    expect(out).toMatchObject({
      jsonrpc: "2.0",
      id: 1,
      method: "SendMessage",
      params: { configuration: {}, message: { ...msg, taskId: "t", contextId: "c" } },
    });
    expect((out["params"] as JsonObject)["taskId"]).toBeUndefined();
    expect(((out["params"] as JsonObject)["message"] as JsonObject)["messageId"]).toMatch(UUID);
  });
  it("keeps a given messageId and the message's own ids", () => {
    const body = {
      jsonrpc: "2.0",
      id: 1,
      method: "SendMessage",
      params: { message: { ...msg, messageId: "m", taskId: "inner" }, taskId: "outer" },
    };
    expect(withMessageId(body)).toEqual({
      jsonrpc: "2.0",
      id: 1,
      method: "SendMessage",
      params: { message: { ...msg, messageId: "m", taskId: "inner" } },
    });
  });
  it("fills an HTTP+JSON send body", () => {
    expect(
      ((withMessageId({ message: msg }) as JsonObject)["message"] as JsonObject)["messageId"],
    ).toMatch(UUID);
  });
  it.each([
    [
      "a JSON-RPC call without a message",
      { jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: "t" } },
    ],
    ["a JSON-RPC envelope with a top-level message", { jsonrpc: "2.0", message: msg }],
    ["a string", "not json"],
    ["an array", [1, 2]],
  ] as const)("leaves %s alone", (_, body) => {
    expect(withMessageId(body as JsonValue)).toEqual(body);
  });
});

// ---------------------------------------------------------------------------------------------
// runner.ts: evaluateUntil
// ---------------------------------------------------------------------------------------------

describe("evaluateUntil", () => {
  const root: JsonValue = {
    status: { state: "TASK_STATE_WORKING" },
    n: 3,
    flag: true,
    nothing: null,
    big: "9007199254740993",
    tasks: [{ id: "a" }],
  };
  const rows: readonly [string, boolean][] = [
    ["status.state == TASK_STATE_WORKING", true],
    ["status.state==TASK_STATE_WORKING", true],
    ["  status.state   ==   TASK_STATE_WORKING  ", true],
    ['status.state == "TASK_STATE_WORKING"', true],
    ["status.state == 'TASK_STATE_WORKING'", true],
    ["status.state == TASK_STATE_COMPLETED", false],
    ["status.state != TASK_STATE_COMPLETED", true],
    ["status.state != TASK_STATE_WORKING", false],
    ["status.state in [TASK_STATE_COMPLETED, TASK_STATE_WORKING]", true],
    ["status.state in [TASK_STATE_COMPLETED,TASK_STATE_WORKING]", true],
    ["status.state in ['TASK_STATE_WORKING']", true],
    ["status.state in [TASK_STATE_COMPLETED, TASK_STATE_FAILED]", false],
    ["status.state in []", false],
    ["n == 3", true],
    ["n == '3'", false],
    ["n in [1, 2, 3]", true],
    ["n != 3", false],
    ["flag == true", true],
    ["flag == 'true'", false],
    ["nothing == null", true],
    ["missing == null", false],
    ["missing != TASK_STATE_WORKING", true],
    ["tasks[0].id == a", true],
    ["big == '9007199254740993'", true],
  ];
  it.each(rows)("%s → %s", (expression, result) => {
    expect(evaluateUntil(expression, root)).toBe(result);
  });

  it("a missing root makes == false and != true", () => {
    expect(evaluateUntil("status.state == TASK_STATE_COMPLETED", undefined)).toBe(false);
    expect(evaluateUntil("status.state != TASK_STATE_COMPLETED", undefined)).toBe(true);
  });

  const malformed: readonly [string, RegExp][] = [
    ["", /malformed until expression/],
    ["status.state", /malformed until expression/],
    ["status.state = X", /malformed until expression/],
    ["status.state === X", /malformed until expression/],
    ["status.state !== X", /malformed until expression/],
    ["status.state <> X", /malformed until expression/],
    ["== X", /malformed until expression/],
    ["status.state ==", /malformed until expression/],
    ["status.state == ", /malformed until expression/],
    ["status.state in X", /"in" needs a \[list\]/],
    ["status.state in [X", /"in" needs a \[list\]/],
    ["a..b == 1", /malformed path "a\.\.b"/],
  ];
  it.each(malformed)("rejects %j", (expression, message) => {
    expect(() => evaluateUntil(expression, root)).toThrow(message);
  });
});

// ---------------------------------------------------------------------------------------------
// streams.ts
// ---------------------------------------------------------------------------------------------

const S = (s: string) => `TASK_STATE_${s}`;
const su = (state: string, extra: JsonObject = {}): JsonObject => ({
  statusUpdate: { taskId: "t", contextId: "c", status: { state: S(state) }, ...extra },
});
const snap = (state: string): JsonObject => ({
  task: { id: "t", contextId: "c", status: { state: S(state) } },
});
const art = (text = "out"): JsonObject => ({
  artifactUpdate: { taskId: "t", contextId: "c", artifact: { artifactId: "a", parts: [{ text }] } },
});
const msgEvent = (): JsonObject => ({
  message: { messageId: "m", role: "ROLE_AGENT", parts: [{ text: "hi" }] },
});
const rpc = (event: JsonObject): JsonObject => ({ jsonrpc: "2.0", id: 1, result: event });

describe("event views", () => {
  it.each([
    ["task", snap("WORKING"), "task", S("WORKING")],
    ["status update", su("COMPLETED"), "statusUpdate", S("COMPLETED")],
    ["artifact update", art(), "artifactUpdate", undefined],
    ["message", msgEvent(), "message", undefined],
    ["JSON-RPC envelope", rpc(su("WORKING")), "statusUpdate", S("WORKING")],
  ] as const)("%s", (_, event, kind, state) => {
    expect(payloadOf(event)?.[0]).toBe(kind);
    expect(stateOf(event)).toBe(state);
  });

  it("lifts the payload's fields, event keys winning", () => {
    expect(eventView(su("WORKING"))).toEqual({
      taskId: "t",
      contextId: "c",
      status: { state: S("WORKING") },
      statusUpdate: su("WORKING")["statusUpdate"],
    });
    expect(eventView({ task: { id: "inner" }, id: "outer" } as JsonObject)["id"]).toBe("outer");
    expect(eventView("text")).toEqual({});
    expect(payloadOf({ other: {} })).toBeUndefined();
  });
});

describe("checkMonotonic (§7.1)", () => {
  const seq = (...states: (string | JsonObject)[]) =>
    states.map((s) => (typeof s === "string" ? su(s) : s));
  const rows: readonly [string, JsonValue[], string[]][] = [
    ["SUBMITTED → WORKING → COMPLETED", seq("SUBMITTED", "WORKING", "COMPLETED"), []],
    ["task snapshot, then updates", [snap("SUBMITTED"), su("WORKING"), su("COMPLETED")], []],
    ["repeats are allowed", seq("WORKING", "WORKING", "COMPLETED", "COMPLETED"), []],
    ["SUBMITTED repeated", seq("SUBMITTED", "SUBMITTED", "WORKING"), []],
    ["INPUT_REQUIRED → WORKING", seq("WORKING", "INPUT_REQUIRED", "WORKING", "COMPLETED"), []],
    ["AUTH_REQUIRED → WORKING", seq("WORKING", "AUTH_REQUIRED", "WORKING", "FAILED"), []],
    [
      "artifact and message events carry no state",
      seq("WORKING", art(), msgEvent(), "COMPLETED", art()),
      [],
    ],
    ["JSON-RPC envelopes", [rpc(su("WORKING")), rpc(su("COMPLETED"))], []],
    ["no events", [], []],
    [
      "COMPLETED → WORKING",
      seq("COMPLETED", "WORKING"),
      ["events[1]: state TASK_STATE_WORKING after terminal TASK_STATE_COMPLETED"],
    ],
    [
      "FAILED → COMPLETED",
      seq("WORKING", "FAILED", "COMPLETED"),
      ["events[2]: state TASK_STATE_COMPLETED after terminal TASK_STATE_FAILED"],
    ],
    [
      "CANCELED → SUBMITTED",
      seq("CANCELED", "SUBMITTED"),
      ["events[1]: state TASK_STATE_SUBMITTED after terminal TASK_STATE_CANCELED"],
    ],
    [
      "REJECTED → INPUT_REQUIRED",
      seq("REJECTED", "INPUT_REQUIRED"),
      ["events[1]: state TASK_STATE_INPUT_REQUIRED after terminal TASK_STATE_REJECTED"],
    ],
    [
      "terminal, artifact, then a state",
      seq("COMPLETED", art(), "WORKING"),
      ["events[2]: state TASK_STATE_WORKING after terminal TASK_STATE_COMPLETED"],
    ],
    [
      "WORKING → SUBMITTED",
      seq("WORKING", "SUBMITTED"),
      ["events[1]: state regressed from TASK_STATE_WORKING to SUBMITTED"],
    ],
    [
      "INPUT_REQUIRED → SUBMITTED",
      seq("INPUT_REQUIRED", "SUBMITTED"),
      ["events[1]: state regressed from TASK_STATE_INPUT_REQUIRED to SUBMITTED"],
    ],
    [
      "snapshot SUBMITTED after WORKING",
      [su("WORKING"), snap("SUBMITTED")],
      ["events[1]: state regressed from TASK_STATE_WORKING to SUBMITTED"],
    ],
    [
      "every violation is reported",
      seq("COMPLETED", "WORKING", "SUBMITTED"),
      [
        "events[1]: state TASK_STATE_WORKING after terminal TASK_STATE_COMPLETED",
        "events[2]: state regressed from TASK_STATE_WORKING to SUBMITTED",
      ],
    ],
  ];
  it.each(rows)("%s", (_, events, failures) => {
    expect(checkMonotonic(events).map((f) => `${f.path}: ${f.message}`)).toEqual(failures);
    expect(
      checkStream(events, { ordering: "monotonic_state" }).map((f) => `${f.path}: ${f.message}`),
    ).toEqual(failures);
  });

  it("an unknown ordering rule is a runner error", () => {
    expect(() => checkStream([], { ordering: "linear" })).toThrow('unknown ordering rule "linear"');
  });
});

describe("checkEvent", () => {
  const rows: readonly [
    string,
    JsonValue,
    JsonObject,
    { path: string; message: string | RegExp }[],
  ][] = [
    [
      "status_update key on a status update",
      su("WORKING"),
      { status_update: { status: { state: S("WORKING") } } },
      [],
    ],
    ["statusUpdate (ProtoJSON spelling)", su("WORKING"), { statusUpdate: { taskId: "t" } }, []],
    [
      "status_update key on a task",
      snap("WORKING"),
      { status_update: { status: { state: S("WORKING") } } },
      [{ path: "e.statusUpdate", message: /^expected a statusUpdate event, got \{"task"/ }],
    ],
    [
      "status_update field mismatch",
      su("WORKING"),
      { status_update: { status: { state: S("COMPLETED") } } },
      [
        {
          path: "e.statusUpdate.status.state",
          message: 'expected "TASK_STATE_COMPLETED", got "TASK_STATE_WORKING"',
        },
      ],
    ],
    [
      "generic status holds for a task",
      snap("COMPLETED"),
      { status: { state: S("COMPLETED") } },
      [],
    ],
    [
      "generic status holds for a status update",
      su("COMPLETED"),
      { status: { state: S("COMPLETED") } },
      [],
    ],
    [
      "generic field mismatch",
      su("WORKING"),
      { status: { state: S("COMPLETED") } },
      [
        {
          path: "e.status.state",
          message: 'expected "TASK_STATE_COMPLETED", got "TASK_STATE_WORKING"',
        },
      ],
    ],
    ["artifact generic key", art(), { artifact: { exists: true } }, []],
    [
      "artifact on a status update",
      su("WORKING"),
      { artifact: { exists: true } },
      [{ path: "e.artifact", message: "exists true: missing" }],
    ],
    [
      "artifact_update key",
      art("x"),
      { artifact_update: { artifact: { parts: { count_gte: 1 } } } },
      [],
    ],
    ["task key", snap("SUBMITTED"), { task: { id: "t" } }, []],
    [
      "message key on a task",
      snap("SUBMITTED"),
      { message: { exists: true } },
      [{ path: "e.message", message: /^expected a message event/ }],
    ],
    [
      "event-level one_of naming payload kinds",
      su("COMPLETED", { final: true }),
      {
        one_of: [
          { task: { status: { state: S("COMPLETED") } } },
          { status_update: { final: true } },
        ],
      },
      [],
    ],
    [
      "event-level one_of none matching",
      su("WORKING"),
      { one_of: [{ task: {} }, { artifact_update: {} }] },
      [
        {
          path: "e",
          message: /^no alternative of \[\{"task":\{\}\},\{"artifact_update":\{\}\}\] matched/,
        },
      ],
    ],
    ["event-level any_of", art(), { any_of: [{ task: {} }, { artifact_update: {} }] }, []],
    [
      "description, match and index are not assertions",
      su("WORKING"),
      { description: "d", match: "any_position", index: 7, status_update: {} },
      [],
    ],
    [
      "JSON-RPC envelope",
      rpc(su("WORKING")),
      { status_update: { status: { state: S("WORKING") } }, jsonrpc: "2.0" },
      [],
    ],
  ];
  it.each(rows)("%s", (_, event, assertion, failures) => {
    const got = checkEvent(event, assertion, "e");
    expect(got).toHaveLength(failures.length);
    failures.forEach((f, i) => {
      expect(got[i]!.path).toBe(f.path);
      if (typeof f.message === "string") expect(got[i]!.message).toBe(f.message);
      else expect(got[i]!.message).toMatch(f.message);
    });
  });
});

describe("checkStream", () => {
  const events: JsonValue[] = [
    snap("SUBMITTED"),
    su("WORKING"),
    art(),
    su("COMPLETED", { final: true }),
  ];
  const rows: readonly [string, JsonValue[], JsonObject, string[]][] = [
    ["min_count met", events, { min_count: 4 }, []],
    ["min_count missed", events, { min_count: 5 }, ["events: expected at least 5 events, got 4"]],
    ["max_count met", events, { max_count: 4 }, []],
    ["max_count exceeded", events, { max_count: 3 }, ["events: expected at most 3 events, got 4"]],
    [
      "any_position match",
      events,
      {
        events: [
          { match: "any_position", artifact_update: { artifact: { parts: { count_gte: 1 } } } },
        ],
      },
      [],
    ],
    [
      "any_position no match",
      events,
      { events: [{ description: "a message", match: "any_position", message: {} }] },
      ["events[*]: no event matched assertion #0 (a message)"],
    ],
    [
      "any_position no match, second assertion",
      events,
      {
        events: [
          { match: "any_position", task: {} },
          { match: "any_position", status: { state: S("FAILED") } },
        ],
      },
      ["events[*]: no event matched assertion #1"],
    ],
    [
      "exact position by list order",
      events,
      {
        events: [
          { task: { status: { state: S("SUBMITTED") } } },
          { status_update: { status: { state: S("WORKING") } } },
        ],
      },
      [],
    ],
    [
      "exact position mismatch",
      events,
      { events: [{ status_update: {} }] },
      [`events[0].statusUpdate: expected a statusUpdate event, got ${show(events[0])}`],
    ],
    ["explicit index", events, { events: [{ index: 3, status_update: { final: true } }] }, []],
    [
      "explicit exact_position index",
      events,
      { events: [{ match: "exact_position", index: 2, artifact: { artifactId: "a" } }] },
      [],
    ],
    [
      "index beyond the stream",
      events,
      { events: [{ index: 9, description: "late", task: {} }] },
      ["events[9]: no event at index 9 (late) (4 events)"],
    ],
    [
      "position beyond the stream",
      [snap("SUBMITTED")],
      { events: [{ task: {} }, { status_update: {} }] },
      ["events[1]: no event at index 1 (1 events)"],
    ],
    [
      "final_event",
      events,
      { final_event: { status_update: { final: true, status: { state: S("COMPLETED") } } } },
      [],
    ],
    [
      "final_event one_of (spec §7 example)",
      events,
      {
        final_event: {
          one_of: [
            { task: { status: { state: S("COMPLETED") } } },
            { status_update: { final: true, status: { state: S("COMPLETED") } } },
          ],
        },
      },
      [],
    ],
    [
      "final_event mismatch",
      events,
      { final_event: { status: { state: S("FAILED") } } },
      ['final_event.status.state: expected "TASK_STATE_FAILED", got "TASK_STATE_COMPLETED"'],
    ],
    [
      "final_event on an empty stream",
      [],
      { final_event: { task: {} } },
      ["final_event: the stream had no events"],
    ],
    ["each_event", events, { each_event: { contextId: "c" } }, []],
    [
      "each_event failing on one event",
      [...events, msgEvent()],
      { each_event: { contextId: "c" } },
      ['events[4].contextId: expected "c", got (missing)'],
    ],
    ["each_event on an empty stream passes", [], { each_event: { task: {} } }, []],
    [
      "everything at once",
      events,
      {
        min_count: 2,
        max_count: 10,
        ordering: "monotonic_state",
        events: [{ match: "any_position", status_update: { status: { state: S("WORKING") } } }],
        final_event: { status_update: { final: true } },
        each_event: { contextId: { type: "string" } },
        timeout_ms: 100,
      },
      [],
    ],
    [
      "every failure is reported",
      [su("COMPLETED"), su("WORKING")],
      {
        min_count: 3,
        ordering: "monotonic_state",
        final_event: { status: { state: S("COMPLETED") } },
      },
      [
        "events: expected at least 3 events, got 2",
        "events[1]: state TASK_STATE_WORKING after terminal TASK_STATE_COMPLETED",
        'final_event.status.state: expected "TASK_STATE_COMPLETED", got "TASK_STATE_WORKING"',
      ],
    ],
  ];
  it.each(rows)("%s", (_, list, expectation, failures) => {
    expect(checkStream(list, expectation).map((f) => `${f.path}: ${f.message}`)).toEqual(failures);
  });

  it("an event assertion that is not a map is a runner error", () => {
    expect(() => checkStream(events, { events: ["task"] })).toThrow("events[0] must be a map");
  });
});

// ---------------------------------------------------------------------------------------------
// report.ts
// ---------------------------------------------------------------------------------------------

describe("reports", () => {
  const result = (
    file: string,
    id: string,
    level: "must" | "should" | "may",
    outcome: TestResult["result"],
    extra: Partial<TestResult> = {},
  ): TestResult => ({
    file,
    suite: { id: "s", name: "S" },
    id,
    name: id,
    level,
    result: outcome,
    duration_ms: 2,
    steps: [],
    notes: [],
    ...extra,
  });
  const results: TestResult[] = [
    result("a.acts.yaml", "A-1", "must", "pass"),
    result("a.acts.yaml", "A-2", "must", "fail", { failure: { message: "boom", step_id: "x" } }),
    result("a.acts.yaml", "A-3", "should", "skip", {
      skip_kind: "transport",
      skip_reason: "applies to grpc only",
    }),
    result("b.acts.yaml", "B-1", "may", "skip", { skip_kind: "capability", skip_reason: "cap" }),
    result("b.acts.yaml", "B-2", "must", "skip", {
      skip_kind: "behaviour",
      skip_reason: "missing tck-x",
    }),
    result("b.acts.yaml", "B-3", "should", "error", {
      failure: { message: "runner error: x", step_id: "y" },
    }),
    result("b.acts.yaml", "B-4", "may", "pass", { notes: ["a note"] }),
  ];
  const run: RunReport = { implementation: "fake", binding: "jsonrpc", results };

  it("totalsTable: pass/fail+error/n-a/gap per file, overall and per level", () => {
    const lines = totalsTable([run, { ...run, binding: "rest", results: results.slice(0, 1) }])
      .split("\n")
      .map((l) => l.replace(/\s+/g, " ").trim());
    expect(lines).toEqual([
      "file jsonrpc rest",
      "a.acts.yaml 1/1/1/0 1/0/0/0",
      "b.acts.yaml 1/1/1/1 0/0/0/0",
      "all 2/2/2/1 1/0/0/0",
      "level must 1/1/0/1 1/0/0/0",
      "level should 0/1/1/0 0/0/0/0",
      "level may 1/0/1/0 0/0/0/0",
    ]);
  });

  it("actsReport: summary, by level, suites and tests", () => {
    const report = actsReport(run, {
      actsVersion: "1.0",
      specVersion: "1.0",
      sdkVersion: "9",
    }) as Record<string, any>;
    expect(report).toMatchObject({
      acts_version: "1.0",
      spec_version: "1.0",
      sdk: { name: "fake", version: "9", language: "typescript" },
      transport: "jsonrpc",
    });
    expect(report["summary"]).toEqual({
      total: 7,
      passed: 2,
      failed: 1,
      skipped: 3,
      errors: 1,
      duration_ms: 14,
      by_level: {
        must: { total: 3, passed: 1, failed: 1, skipped: 1, errors: 0 },
        should: { total: 2, passed: 0, failed: 0, skipped: 1, errors: 1 },
        may: { total: 2, passed: 1, failed: 0, skipped: 1, errors: 0 },
      },
    });
    expect(report["suites"]).toHaveLength(1);
    const tests = report["suites"][0].tests as Record<string, unknown>[];
    expect(tests.map((t) => t["id"])).toEqual(["A-1", "A-2", "A-3", "B-1", "B-2", "B-3", "B-4"]);
    expect(tests[1]).toMatchObject({ result: "fail", failure: { message: "boom", step_id: "x" } });
    expect(tests[2]).toMatchObject({ skip_reason: "applies to grpc only" });
    expect("notes" in tests[0]!).toBe(false);
    expect(tests[6]).toMatchObject({ notes: ["a note"] });
    expect(Date.parse(report["generated_at"])).not.toBeNaN();
  });

  it("exceptionsList: every non-pass but transport skips, and passes with notes", () => {
    expect(
      exceptionsList([run])
        .split("\n")
        .map((l) => l.replace(/\s+/g, " ")),
    ).toEqual([
      "jsonrpc must fail A-2: [x] boom",
      "jsonrpc may skip B-1: cap",
      "jsonrpc must skip B-2: missing tck-x",
      "jsonrpc should error B-3: [y] runner error: x",
      "jsonrpc may pass B-4: a note",
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// runActs end to end, with a fake client
// ---------------------------------------------------------------------------------------------

type Handler = (
  operation: UnaryOperation,
  request: JsonObject,
  attempt: number,
) => OperationOutcome | Promise<OperationOutcome>;
type StreamHandler = (
  operation: StreamOperation,
  request: JsonObject,
) => StreamOutcome | Promise<StreamOutcome>;
/** Rewrites the JSON-RPC response envelope the fake puts on the wire (to make it wrong), given the client's outcome. */
type WireEdit = (envelope: JsonObject) => JsonObject;

const ERROR_INFO = (reason: string): JsonObject => ({
  "@type": "type.googleapis.com/google.rpc.ErrorInfo",
  reason,
  domain: "a2a-protocol.org",
});

/** The JSON-RPC error object a correct agent sends for `error` (its spec code, an ErrorInfo first). */
function wireErrorOf(error: ActsError): JsonObject {
  const spec = specErrorByName(error.type);
  const details = [...(error.details ?? [])];
  if (
    spec !== undefined &&
    !details.some(
      (d) => typeof d === "object" && d !== null && !Array.isArray(d) && d["reason"] !== undefined,
    )
  )
    details.unshift(ERROR_INFO(spec.reason));
  return {
    code: spec?.jsonRpcCode ?? -32603,
    message: error.message,
    ...(details.length > 0 ? { data: details } : {}),
  };
}

/** The JSON-RPC exchange (request, response) that carries `outcome` of `method`, as a correct agent sends it. */
function jsonRpcExchange(
  id: string,
  method: string,
  outcome: OperationOutcome | StreamOutcome,
  edit: WireEdit,
): WireExchange {
  const request = {
    method: "POST",
    path: "/",
    headers: {},
    body: Buffer.from(JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: {} })),
  };
  const envelope = (body: JsonObject) => edit({ jsonrpc: "2.0", id: 1, ...body });
  if ("events" in outcome) {
    const frames = [
      ...outcome.events.map((e) => envelope({ result: e })),
      ...(outcome.error !== undefined ? [envelope({ error: wireErrorOf(outcome.error) })] : []),
    ];
    const body = frames.map((f) => `data: ${JSON.stringify(f)}\n\n`).join("");
    return {
      id,
      binding: "jsonrpc",
      request,
      response: {
        status: 200,
        headers: { "content-type": "text/event-stream" },
        body: Buffer.from(body),
        complete: true,
      },
    };
  }
  const answer = outcome.ok
    ? envelope({ result: outcome.body })
    : envelope({ error: wireErrorOf(outcome.error) });
  const status = outcome.ok ? 200 : (specErrorByName(outcome.error.type)?.jsonRpcHttpStatus ?? 200);
  return {
    id,
    binding: "jsonrpc",
    request,
    response: {
      status,
      headers: { "content-type": "application/json" },
      body: Buffer.from(JSON.stringify(answer)),
      complete: true,
    },
  };
}

/** An ActsClient that answers from functions, records every call, and plays the wire of its answers (a WireSource). */
class FakeClient implements ActsClient, WireSource {
  readonly binding = "jsonrpc" as const;
  readonly implementation = "fake";
  readonly calls: {
    operation: string;
    request: JsonObject;
    headers: Readonly<Record<string, string>>;
    aborted: boolean;
  }[] = [];
  readonly #exchanges = new Map<string, WireExchange>();
  constructor(
    private readonly handler: Handler,
    private readonly streamHandler: StreamHandler = () => ({ events: [] }),
    private readonly edit: WireEdit = (e) => e,
  ) {}
  #record(operation: string, request: JsonObject, options: CallOptions) {
    const { [EXCHANGE_HEADER]: _exchange, ...headers } = options.headers;
    this.calls.push({ operation, request, headers, aborted: options.signal.aborted });
  }
  #wire(
    operation: UnaryOperation | StreamOperation,
    options: CallOptions,
    outcome: OperationOutcome | StreamOutcome,
  ) {
    const id = options.headers[EXCHANGE_HEADER];
    if (id !== undefined)
      this.#exchanges.set(
        id,
        jsonRpcExchange(id, OPERATION_METHODS[operation], outcome, this.edit),
      );
  }
  async call(
    operation: UnaryOperation,
    request: JsonObject,
    options: CallOptions,
  ): Promise<OperationOutcome> {
    this.#record(operation, request, options);
    const outcome = await this.handler(
      operation,
      request,
      this.calls.filter((c) => c.operation === operation).length,
    );
    this.#wire(operation, options, outcome);
    return outcome;
  }
  async stream(
    operation: StreamOperation,
    request: JsonObject,
    options: CallOptions,
  ): Promise<StreamOutcome> {
    this.#record(operation, request, options);
    const outcome = await this.streamHandler(operation, request);
    this.#wire(operation, options, outcome);
    return outcome;
  }
  async take(id: string): Promise<WireExchange[]> {
    const exchange = this.#exchanges.get(id);
    this.#exchanges.delete(id);
    return exchange === undefined ? [] : [exchange];
  }
  async close(): Promise<void> {}
}

const ok = (body: JsonValue): OperationOutcome => ({ ok: true, body });
const failed = (error: ActsError): OperationOutcome => ({ ok: false, error });
const task = (id: string, state: string): JsonObject => ({
  id,
  contextId: `ctx-${id}`,
  status: { state: S(state) },
  artifacts: [{ artifactId: "a", parts: [{ text: "out" }] }],
});
const page = (tasks: JsonObject[]): JsonObject => ({
  tasks,
  nextPageToken: "",
  pageSize: 50,
  totalSize: tasks.length,
});

/** A document of inline tests (written as objects: YAML 1.2 reads JSON). */
function documentOf(
  tests: readonly JsonObject[],
  variables: Record<string, string> = {},
): ActsDocument {
  return parseActsDocument(
    JSON.stringify({
      acts_version: "1.0",
      spec_version: "1.0",
      variables,
      suites: [{ id: "inline", name: "Inline", tests }],
    }),
    "inline.acts.yaml",
  );
}
const T = (id: string, steps: JsonObject[], extra: JsonObject = {}): JsonObject => ({
  id,
  name: `test ${id}`,
  level: "must",
  steps,
  ...extra,
});

function config(client: FakeClient, extra: Partial<RunnerConfig> = {}): RunnerConfig {
  return {
    binding: "jsonrpc",
    client,
    wire: client,
    endpoints: {
      cardUrl: "http://127.0.0.1:9/.well-known/agent-card.json",
      jsonrpc: "http://127.0.0.1:9/a2a",
      rest: "http://127.0.0.1:9/rest",
      grpc: "127.0.0.1:9",
    },
    card: {
      name: "fake",
      capabilities: { streaming: true, extensions: [{ uri: "urn:ext:a" }] },
      skills: [{ id: "echo" }],
    },
    behaviours: new Set(["tck-complete-task"]),
    variables: { webhookUrl: "http://hook.example/h" },
    runnerRequirements: new Set(["webhook_endpoint"]),
    stepTimeoutMs: 2_000,
    ...extra,
  };
}

async function runOne(
  test: JsonObject,
  client: FakeClient,
  extra: Partial<RunnerConfig> = {},
  variables: Record<string, string> = {},
): Promise<TestResult> {
  const results = await runActs([documentOf([test], variables)], config(client, extra));
  expect(results).toHaveLength(1);
  return results[0]!;
}

/** A small agent: send creates COMPLETED tasks, get_task reads them, other ids are not found. */
function agent(edit?: WireEdit): FakeClient {
  const tasks = new Map<string, JsonObject>();
  let n = 0;
  return new FakeClient(
    (operation, request) => {
      if (operation === "send_message") {
        const t = task(`t-${++n}`, "COMPLETED");
        tasks.set(t["id"] as string, t);
        return ok({ task: t });
      }
      if (operation === "get_task" || operation === "cancel_task") {
        const t = tasks.get(request["id"] as string);
        if (t === undefined)
          return failed({
            type: "TaskNotFoundError",
            message: `task ${String(request["id"])} not found`,
            details: [ERROR_INFO("TASK_NOT_FOUND")],
          });
        if (operation === "cancel_task")
          return failed({ type: "TaskNotCancelableError", message: "task is terminal" });
        return ok(t);
      }
      if (operation === "list_tasks") return ok(page([...tasks.values()]));
      return failed({ type: "UnsupportedOperationError", message: `${operation} unsupported` });
    },
    undefined,
    edit,
  );
}

/** A valid Agent Card (every REQUIRED field). */
const CARD: JsonObject = {
  name: "x",
  description: "an agent",
  supportedInterfaces: [
    { url: "http://127.0.0.1:9/a2a", protocolBinding: "JSONRPC", protocolVersion: "1.0" },
  ],
  version: "1",
  capabilities: {},
  defaultInputModes: ["text/plain"],
  defaultOutputModes: ["text/plain"],
  skills: [],
};

const SEND = {
  id: "send",
  operation: "send_message",
  params: { message: { role: "ROLE_USER", parts: [{ text: "hi" }] } },
};

describe("runActs", () => {
  it("passes: capture, {{step.response}}, step and test-level assertions, canonical list response", async () => {
    const client = agent();
    const r = await runOne(
      T(
        "PASS-1",
        [
          {
            ...SEND,
            capture: { taskId: "task.id", contextId: "task.contextId" },
            expect: {
              status: 200,
              body: { task: { id: { type: "string" }, status: { state: S("COMPLETED") } } },
            },
          },
          {
            id: "get",
            operation: "get_task",
            params: { id: "{{send.taskId}}", historyLength: 2 },
            expect: {
              body: {
                id: "{{send.taskId}}",
                contextId: "{{send.contextId}}",
                status: { state: S("COMPLETED") },
              },
            },
            assertions: [
              {
                id: "text-part",
                source: "{{send.response}}",
                any: { path: "task.artifacts[*].parts[*]", match: { text: { type: "string" } } },
              },
            ],
          },
          {
            id: "list",
            operation: "list_tasks",
            params: { pageSize: 10 },
            expect: { body: { nextPageToken: "", tasks: { count: 1 } } },
          },
          {
            id: "check",
            assertion: {
              source: "{{list.response}}",
              all: { path: "tasks[*]", match: { contextId: "{{send.contextId}}" } },
            },
          },
        ],
        {
          assertions: [
            { source: "{{get.response}}", match: { id: "{{send.taskId}}" } },
            { source: "{{send.response}}", path: "task.status", match: { state: S("COMPLETED") } },
          ],
        },
      ),
      client,
    );
    expect(r).toMatchObject({
      file: "inline.acts.yaml",
      suite: { id: "inline", name: "Inline" },
      id: "PASS-1",
      level: "must",
      result: "pass",
      notes: [],
    });
    expect(r.failure).toBeUndefined();
    expect(r.steps.map((s) => [s.id, s.result])).toEqual([
      ["send", "pass"],
      ["get", "pass"],
      ["list", "pass"],
      ["check", "pass"],
    ]);
    expect(client.calls.map((c) => c.operation)).toEqual([
      "send_message",
      "get_task",
      "list_tasks",
    ]);
    expect(client.calls[0]!.request).toMatchObject({
      message: {
        role: "ROLE_USER",
        parts: [{ text: "hi" }],
        messageId: expect.stringMatching(UUID),
      },
    });
    expect(client.calls[1]!.request).toEqual({ id: "t-1", historyLength: 2 });
    expect(client.calls[2]!.request).toEqual({ pageSize: 10 });
  });

  it("fails with the step id, the assertion path, expected and actual, and stops the test there", async () => {
    const client = agent();
    const r = await runOne(
      T("FAIL-1", [
        { ...SEND, capture: { taskId: "task.id" } },
        {
          id: "get",
          operation: "get_task",
          params: { id: "{{send.taskId}}" },
          expect: { status: 200, body: { status: { state: S("WORKING") } } },
        },
        { id: "never", operation: "list_tasks" },
      ]),
      client,
    );
    expect(r.result).toBe("fail");
    expect(r.failure).toEqual({
      step_id: "get",
      message: 'status.state: expected "TASK_STATE_WORKING", got "TASK_STATE_COMPLETED"',
      assertion_path: "status.state",
      expected: '"TASK_STATE_WORKING"',
      actual: '"TASK_STATE_COMPLETED"',
    });
    expect(r.steps.map((s) => [s.id, s.result])).toEqual([
      ["send", "pass"],
      ["get", "fail"],
    ]);
    expect(client.calls.map((c) => c.operation)).toEqual(["send_message", "get_task"]);
  });

  it("reports how many more failures a step had", async () => {
    const r = await runOne(
      T("FAIL-2", [{ ...SEND, expect: { body: { task: { id: 1, contextId: 2, kind: 3 } } } }]),
      agent(),
    );
    expect(r.failure?.message).toBe(
      'task.id: expected 1, got "t-1" (+2 more: task.contextId: expected 2, got "ctx-t-1"; task.kind: expected 3, got (missing))',
    );
  });

  const skips: readonly [string, JsonObject, Partial<RunnerConfig>, string, string][] = [
    ["transport", { transport: ["grpc", "rest"] }, {}, "transport", "applies to grpc, rest only"],
    [
      "transport from preconditions",
      { preconditions: { transport: ["rest"] } },
      {},
      "transport",
      "applies to rest only",
    ],
    [
      "capability the card lacks",
      { preconditions: { capabilities: { pushNotifications: true } } },
      {},
      "capability",
      "precondition capabilities.pushNotifications = true; the card declares false",
    ],
    [
      "capability that must be absent",
      { preconditions: { capabilities: { streaming: false } } },
      {},
      "capability",
      "precondition capabilities.streaming = false; the card declares true",
    ],
    [
      "skill",
      { preconditions: { skills: [{ id: "translate" }] } },
      {},
      "capability",
      "precondition skill translate is not in the card",
    ],
    [
      "authentication on a card without securityRequirements",
      { preconditions: { capabilities: { authentication: true } } },
      {},
      "capability",
      "precondition capabilities.authentication = true (read as: the card's securityRequirements ask for credentials); the card allows anonymous callers",
    ],
    [
      "no authentication on a card that requires it",
      { preconditions: { capabilities: { authentication: false } } },
      {
        card: {
          name: "fake",
          capabilities: {},
          securityRequirements: [{ schemes: { bearer: { list: [] } } }],
        },
      },
      "capability",
      "precondition capabilities.authentication = false (read as: the card's securityRequirements ask for credentials); the card requires credentials",
    ],
    [
      "extension",
      { preconditions: { extensions: ["urn:ext:b"] } },
      {},
      "capability",
      "precondition extension urn:ext:b is not declared",
    ],
    [
      "missing behaviour",
      { requires_behaviors: ["tck-complete-task", "tck-long-running"] },
      {},
      "behaviour",
      "the agent does not implement tck-long-running",
    ],
    [
      "runner requirement",
      { runner_requirements: ["webhook_endpoint", "concurrent_streams", "stream_disconnect"] },
      {},
      "runner",
      "runner requirement concurrent_streams, stream_disconnect not supported",
    ],
  ];
  it.each(skips)("skips: %s", async (_, extra, cfg, kind, reason) => {
    const client = agent();
    const r = await runOne(T("SKIP", [SEND], extra), client, cfg);
    expect(r).toMatchObject({
      result: "skip",
      skip_kind: kind,
      skip_reason: reason,
      steps: [],
      duration_ms: 0,
    });
    expect(client.calls).toEqual([]);
  });

  it("skips client steps without a wire-payload parser and raw steps on gRPC", async () => {
    const client = agent();
    const clientStep = await runOne(
      T("SKIP-C", [
        {
          id: "c",
          client_response: { operation: "get_task", wire_payload: {} },
          expect_parsed: {},
        },
      ]),
      client,
    );
    expect(clientStep).toMatchObject({
      result: "skip",
      skip_kind: "runner",
      skip_reason: "client steps are not supported for this client",
    });
    const raw = await runOne(
      T("SKIP-R", [SEND, { id: "r", raw: { method: "GET", path: "/x" } }]),
      client,
      { binding: "grpc" },
    );
    expect(raw).toMatchObject({
      result: "skip",
      skip_kind: "runner",
      skip_reason: "raw HTTP steps have no gRPC form",
    });
  });

  it("runs a test whose preconditions hold", async () => {
    const r = await runOne(
      T("RUN", [SEND], {
        transport: ["jsonrpc"],
        preconditions: {
          capabilities: { streaming: true, pushNotifications: false },
          skills: [{ id: "echo" }],
          extensions: ["urn:ext:a"],
        },
        requires_behaviors: ["tck-complete-task"],
        runner_requirements: ["webhook_endpoint"],
      }),
      agent(),
    );
    expect(r.result).toBe("pass");
  });

  it("repeat: polls until the condition holds, then evaluates expect on the last response", async () => {
    const client = new FakeClient((_, request, attempt) =>
      ok(task(request["id"] as string, attempt < 3 ? "WORKING" : "COMPLETED")),
    );
    const r = await runOne(
      T("POLL", [
        {
          id: "poll",
          operation: "get_task",
          params: { id: "t" },
          repeat: {
            until: `status.state in [${S("COMPLETED")}, ${S("FAILED")}]`,
            max_attempts: 5,
            delay_ms: 5,
          },
          expect: { body: { status: { state: S("COMPLETED") } } },
        },
      ]),
      client,
    );
    expect(r.result).toBe("pass");
    expect(client.calls).toHaveLength(3);
  });

  it("repeat: max_attempts exhausted → fail", async () => {
    const client = new FakeClient((_, request) => ok(task(request["id"] as string, "WORKING")));
    const r = await runOne(
      T("POLL-X", [
        {
          id: "poll",
          operation: "get_task",
          params: { id: "t" },
          repeat: {
            until: `status.state == ${S("COMPLETED")}`,
            max_attempts: 3,
            delay_ms: 5,
            backoff: "linear",
          },
        },
      ]),
      client,
    );
    expect(r.result).toBe("fail");
    expect(r.failure?.step_id).toBe("poll");
    expect(r.failure?.message).toMatch(
      /^repeat: "status\.state == TASK_STATE_COMPLETED" still false after 3 attempts \(last: \{"id":"t",.*"TASK_STATE_WORKING"/,
    );
    expect(client.calls).toHaveLength(3);
  });

  it("repeat: the step's time budget covers an exponential backoff schedule", async () => {
    // Delays 10, 20, 40, 80, 160 ms (310 ms) against a 10 ms step timeout: every attempt must still get a live signal.
    const client = new FakeClient((_, request) => ok(task(request["id"] as string, "WORKING")));
    const r = await runOne(
      T("POLL-EXP", [
        {
          id: "poll",
          operation: "get_task",
          params: { id: "t" },
          repeat: {
            until: `status.state == ${S("COMPLETED")}`,
            max_attempts: 6,
            delay_ms: 10,
            backoff: "exponential",
          },
        },
      ]),
      client,
      { stepTimeoutMs: 10 },
    );
    expect(r.failure?.message).toMatch(/still false after 6 attempts/);
    expect(client.calls.map((c) => c.aborted)).toEqual([false, false, false, false, false, false]);
    expect(r.duration_ms).toBeGreaterThanOrEqual(300);
  });

  it("a malformed until expression is a runner error", async () => {
    const r = await runOne(
      T("POLL-BAD", [
        {
          id: "poll",
          operation: "get_task",
          params: { id: "t" },
          repeat: { until: "status.state ~ X" },
        },
      ]),
      new FakeClient(() => ok(task("t", "WORKING"))),
    );
    expect(r).toMatchObject({
      result: "error",
      failure: {
        step_id: "poll",
        message: 'runner error: malformed until expression "status.state ~ X"',
      },
    });
  });

  const errorRows: readonly [string, ActsError, JsonObject, "pass" | "fail", string?][] = [
    [
      "ACTS name JSONParseError matches JsonParseError",
      { type: "JsonParseError", message: "bad json" },
      { error_type: "JSONParseError" },
      "pass",
    ],
    [
      "ExtendedCardNotSupportedError matches ExtendedAgentCardNotConfiguredError",
      { type: "ExtendedAgentCardNotConfiguredError", message: "no" },
      { error_type: "ExtendedCardNotSupportedError" },
      "pass",
    ],
    [
      "StreamingNotSupportedError matches UnsupportedOperationError",
      { type: "UnsupportedOperationError", message: "no" },
      { error_type: "StreamingNotSupportedError" },
      "pass",
    ],
    [
      "code: dialect",
      { type: "TaskNotFoundError", message: "gone" },
      { code: "TaskNotFoundError" },
      "pass",
    ],
    [
      "code: one_of with an alias",
      { type: "JsonParseError", message: "x" },
      { code: { one_of: ["InvalidParamsError", "JSONParseError"] } },
      "pass",
    ],
    [
      "message and details",
      {
        type: "TaskNotFoundError",
        message: "task t not found",
        details: [ERROR_INFO("TASK_NOT_FOUND")],
      },
      {
        error_type: "TaskNotFoundError",
        message: { contains: "not found" },
        details: [{ reason: "TASK_NOT_FOUND" }],
      },
      "pass",
    ],
    [
      "data: for details",
      { type: "TaskNotFoundError", message: "x", details: [ERROR_INFO("TASK_NOT_FOUND")] },
      { error_type: "TaskNotFoundError", data: { count: 1 } },
      "pass",
    ],
    [
      "interpolated expectation",
      { type: "TaskNotFoundError", message: "task t-9 not found" },
      { error_type: "TaskNotFoundError", message: { contains: "{{missingId}}" } },
      "pass",
    ],
    [
      "wrong error type",
      { type: "TaskNotFoundError", message: "gone" },
      { error_type: "TaskNotCancelableError" },
      "fail",
      'error TaskNotFoundError "gone": error.type: expected "TaskNotCancelableError", got "TaskNotFoundError"',
    ],
    [
      "wrong alias target",
      { type: "InvalidParamsError", message: "x" },
      { error_type: "JSONParseError" },
      "fail",
      'error InvalidParamsError "x": error.type: expected "JsonParseError", got "InvalidParamsError"',
    ],
    [
      "code: one_of none matching",
      { type: "InternalError", message: "x" },
      { code: { one_of: ["TaskNotFoundError", "TaskNotCancelableError"] } },
      "fail",
      'error InternalError "x": error.type: one_of ["TaskNotFoundError","TaskNotCancelableError"]: got "InternalError"',
    ],
    [
      "message mismatch",
      { type: "TaskNotFoundError", message: "gone" },
      { error_type: "TaskNotFoundError", message: { matches: "^task" } },
      "fail",
      'error TaskNotFoundError "gone": error.message: matches "^task": got "gone"',
    ],
    [
      "too few details",
      { type: "TaskNotFoundError", message: "gone" },
      { error_type: "TaskNotFoundError", details: { count_gte: 2 } },
      "fail",
      'error TaskNotFoundError "gone": error.details: count_gte 2: length 1',
    ],
  ];
  it.each(errorRows)("expect_error: %s", async (_, error, expectation, outcome, message) => {
    const r = await runOne(
      T("ERR", [
        { id: "get", operation: "get_task", params: { id: "t-9" }, expect_error: expectation },
      ]),
      new FakeClient(() => failed(error)),
      {},
      { missingId: "t-9" },
    );
    expect(r.result, JSON.stringify(r.failure)).toBe(outcome);
    if (message !== undefined) expect(r.failure).toMatchObject({ step_id: "get", message });
  });

  // The error on the wire, against the spec table entry of the expected type (§5.4, §9.5).
  const wrongWires: readonly [string, WireEdit, string][] = [
    [
      "a wrong JSON-RPC code with the right reason",
      (e) => ({ ...e, error: { ...(e["error"] as JsonObject), code: -32603 } }),
      "wire: code -32603 is InternalError, but ErrorInfo.reason TASK_NOT_FOUND is TaskNotFoundError (code -32001)",
    ],
    [
      "the right code with a wrong reason",
      (e) => ({
        ...e,
        error: { ...(e["error"] as JsonObject), data: [ERROR_INFO("TASK_NOT_CANCELABLE")] },
      }),
      "wire: code -32001 is TaskNotFoundError, but ErrorInfo.reason TASK_NOT_CANCELABLE is TaskNotCancelableError (code -32002)",
    ],
    [
      "no ErrorInfo",
      (e) => ({ ...e, error: { ...(e["error"] as JsonObject), data: [] } }),
      'ErrorInfo.reason: TaskNotFoundError on jsonrpc has ErrorInfo reason "TASK_NOT_FOUND", the wire has none',
    ],
    [
      "a foreign ErrorInfo domain",
      (e) => ({
        ...e,
        error: {
          ...(e["error"] as JsonObject),
          data: [{ ...ERROR_INFO("TASK_NOT_FOUND"), domain: "example.com" }],
        },
      }),
      'wire: ErrorInfo.domain is "example.com", not "a2a-protocol.org" (§10.6, §11.6)',
    ],
    [
      "details as an object",
      (e) => ({
        ...e,
        error: { ...(e["error"] as JsonObject), data: ERROR_INFO("TASK_NOT_FOUND") },
      }),
      "wire: error details must be an array of Any objects (§9.5, §11.6)",
    ],
    [
      "the response id of another request",
      (e) => ({ ...e, id: 2 }),
      "wire: response id 2 is not the request's id 1",
    ],
    [
      "a result beside the error",
      (e) => ({ ...e, result: {} }),
      "wire: a JSON-RPC response has exactly one of result and error (has both)",
    ],
  ];
  it.each(wrongWires)("expect_error fails on %s", async (_, edit, message) => {
    const client = new FakeClient(
      () => failed({ type: "TaskNotFoundError", message: "gone" }),
      undefined,
      edit,
    );
    const r = await runOne(
      T("ERR-WIRE", [
        {
          id: "get",
          operation: "get_task",
          params: { id: "t" },
          expect_error: { error_type: "TaskNotFoundError" },
        },
      ]),
      client,
    );
    expect(r.result).toBe("fail");
    expect(r.failure?.step_id).toBe("get");
    expect(r.failure?.message).toContain(message);
  });

  it("expect_error on a success fails", async () => {
    const r = await runOne(
      T("ERR-OK", [
        {
          id: "get",
          operation: "get_task",
          params: { id: "t" },
          expect_error: { error_type: "TaskNotFoundError" },
        },
      ]),
      new FakeClient(() => ok(task("t", "WORKING"))),
    );
    expect(r.failure).toMatchObject({
      step_id: "get",
      message: expect.stringMatching(/^expected an error, got \{"id":"t",/),
    });
  });

  it("an unexpected error fails the step (no expectation, a capture, or expect status 200)", async () => {
    const client = new FakeClient(() => failed({ type: "InternalError", message: "kaboom" }));
    const bare = await runOne(
      T("UNEXP-1", [{ id: "get", operation: "get_task", params: { id: "t" } }]),
      client,
    );
    expect(bare).toMatchObject({
      result: "fail",
      failure: { step_id: "get", message: "unexpected error InternalError: kaboom" },
    });
    const capture = await runOne(
      T("UNEXP-2", [
        { id: "get", operation: "get_task", params: { id: "t" }, capture: { x: "id" } },
      ]),
      client,
    );
    expect(capture).toMatchObject({
      result: "fail",
      failure: { step_id: "get", message: "unexpected error InternalError: kaboom" },
    });
    const status = await runOne(
      T("UNEXP-3", [
        { id: "get", operation: "get_task", params: { id: "t" }, expect: { status: 200 } },
      ]),
      client,
    );
    expect(status).toMatchObject({
      result: "fail",
      failure: {
        step_id: "get",
        message: 'got error InternalError "kaboom": status: expected 200, got "error"',
      },
    });
    const empty = await runOne(
      T("UNEXP-4", [{ id: "get", operation: "get_task", params: { id: "t" }, expect: {} }]),
      client,
    );
    expect(empty).toMatchObject({
      result: "fail",
      failure: {
        step_id: "get",
        message: 'got error InternalError "kaboom": the operation failed',
      },
    });
    const body = await runOne(
      T("UNEXP-5", [
        { id: "get", operation: "get_task", params: { id: "t" }, expect: { body: { id: "t" } } },
      ]),
      client,
    );
    expect(body).toMatchObject({
      result: "fail",
      failure: {
        step_id: "get",
        message:
          'got error InternalError "kaboom": the operation failed (+1 more: id: expected "t", got (missing))',
      },
    });
    // Body assertions that happen to hold on the error root ({error: …}) do not make a failed operation pass.
    const vacuous = await runOne(
      T("UNEXP-6", [
        {
          id: "get",
          operation: "get_task",
          params: { id: "t" },
          expect: { body: { artifacts: { absent: true } } },
        },
      ]),
      client,
    );
    expect(vacuous).toMatchObject({
      result: "fail",
      failure: {
        step_id: "get",
        message: 'got error InternalError "kaboom": the operation failed',
      },
    });
  });

  it("expect may ask for the error of an operation (status: error, or an error key)", async () => {
    const client = new FakeClient(() =>
      failed({
        type: "TaskNotFoundError",
        message: "gone",
        details: [ERROR_INFO("TASK_NOT_FOUND")],
      }),
    );
    const byStatus = await runOne(
      T("EXP-ERR-1", [
        {
          id: "get",
          operation: "get_task",
          params: { id: "t" },
          expect: { status: "error", error: { exists: true } },
        },
      ]),
      client,
    );
    expect(byStatus.result).toBe("pass");
    const byKey = await runOne(
      T("EXP-ERR-2", [
        {
          id: "get",
          operation: "get_task",
          params: { id: "t" },
          expect: {
            error: {
              type: "TaskNotFoundError",
              code: -32001,
              message: "gone",
              details: [{ reason: "TASK_NOT_FOUND" }],
              data: { count: 1 },
            },
          },
        },
      ]),
      client,
    );
    expect(byKey.result).toBe("pass");
    const inBody = await runOne(
      T("EXP-ERR-3", [
        {
          id: "get",
          operation: "get_task",
          params: { id: "t" },
          expect: { body: { error: { type: "InternalError" } } },
        },
      ]),
      client,
    );
    expect(inBody.failure).toMatchObject({
      step_id: "get",
      message:
        'got error TaskNotFoundError "gone": error.type: expected "InternalError", got "TaskNotFoundError"',
    });
    const success = await runOne(
      T("EXP-ERR-4", [
        { id: "get", operation: "get_task", params: { id: "t" }, expect: { status: "error" } },
      ]),
      new FakeClient(() => ok(task("t", "WORKING"))),
    );
    expect(success.failure).toMatchObject({
      step_id: "get",
      message: 'status: expected "error", got 200',
    });
  });

  it("assertions read the wire, not the client's decoding; a client that reads it differently fails the step", async () => {
    // The client says COMPLETED; the wire says WORKING.
    const onTheWire = (e: JsonObject): JsonObject => ({
      ...e,
      result: { ...(e["result"] as JsonObject), status: { state: S("WORKING") } },
    });
    const client = new FakeClient(() => ok(task("t", "COMPLETED")), undefined, onTheWire);
    const r = await runOne(
      T("WIRE-1", [
        {
          id: "get",
          operation: "get_task",
          params: { id: "t" },
          expect: { body: { status: { state: S("WORKING") } } },
        },
      ]),
      client,
    );
    expect(r.failure).toMatchObject({
      step_id: "get",
      message:
        'client: decoded the response differently from the wire (status.state: wire "TASK_STATE_WORKING", client "TASK_STATE_COMPLETED")',
    });
    const agrees = new FakeClient(() => ok(task("t", "WORKING")), undefined, onTheWire);
    expect(
      (
        await runOne(
          T("WIRE-2", [
            {
              id: "get",
              operation: "get_task",
              params: { id: "t" },
              expect: { body: { status: { state: S("WORKING") } } },
            },
          ]),
          agrees,
        )
      ).result,
    ).toBe("pass");
  });

  const violations: readonly [string, WireEdit, string][] = [
    [
      "an unknown field",
      (e) => ({ ...e, result: { ...(e["result"] as JsonObject), unexpected_field: 1 } }),
      'result.unexpected_field: wire: unknown field "unexpected_field" (lf.a2a.v1.Task has no such field)',
    ],
    [
      "a snake_case name",
      (e) => ({ ...e, result: { id: "t", context_id: "c", status: { state: S("COMPLETED") } } }),
      'result.context_id: wire: proto field name "context_id"; JSON uses "contextId" (§5.5)',
    ],
    [
      "an enum as a number",
      (e) => ({ ...e, result: { id: "t", status: { state: 3 } } }),
      "result.status.state: wire: enum lf.a2a.v1.TaskState as the number 3; ProtoJSON writes the value name (§5.5)",
    ],
    [
      "a lowercase enum name",
      (e) => ({ ...e, result: { id: "t", status: { state: "task_state_completed" } } }),
      'result.status.state: wire: "task_state_completed" is not a value of enum lf.a2a.v1.TaskState',
    ],
    [
      "a missing REQUIRED field",
      (e) => ({ ...e, result: { id: "t" } }),
      "result.status: wire: REQUIRED field status is missing (§5.7)",
    ],
    [
      "a null",
      (e) => ({ ...e, result: { id: "t", status: { state: S("COMPLETED") }, contextId: null } }),
      "result.contextId: wire: null; a ProtoJSON printer omits an unset field",
    ],
    [
      "no jsonrpc member",
      (e) => {
        const { jsonrpc: _, ...rest } = e;
        return rest;
      },
      'jsonrpc: wire: expected "2.0", got undefined',
    ],
  ];
  it.each(violations)(
    "a wire violation fails the step whatever it expects: %s",
    async (_, edit, message) => {
      const r = await runOne(
        T("WIRE-V", [{ id: "get", operation: "get_task", params: { id: "t" } }]),
        new FakeClient(() => ok(task("t", "COMPLETED")), undefined, edit),
      );
      expect(r.result).toBe("fail");
      expect(r.failure).toMatchObject({ step_id: "get" });
      expect(r.failure?.message).toContain(message);
    },
  );

  it("with judgeWire off, violations do not fail a step, and the assertions still read the wire", async () => {
    const edit: WireEdit = (e) => ({
      ...e,
      result: {
        ...(e["result"] as JsonObject),
        unexpected_field: 1,
        status: { state: S("WORKING") },
      },
    });
    const test = T("JW", [
      {
        id: "get",
        operation: "get_task",
        params: { id: "t" },
        expect: { body: { status: { state: S("WORKING") } } },
      },
    ]);
    const judged = await runOne(
      test,
      new FakeClient(() => ok(task("t", "WORKING")), undefined, edit),
    );
    expect(judged.failure?.message).toContain('unknown field "unexpected_field"');
    const alone = await runOne(
      test,
      new FakeClient(() => ok(task("t", "WORKING")), undefined, edit),
      { judgeWire: false },
    );
    expect(alone.result).toBe("pass");
    const readsTheWire = await runOne(
      T("JW-2", [
        {
          id: "get",
          operation: "get_task",
          params: { id: "t" },
          expect: { body: { status: { state: S("COMPLETED") } } },
        },
      ]),
      new FakeClient(() => ok(task("t", "COMPLETED")), undefined, edit),
      { judgeWire: false },
    );
    expect(readsTheWire.failure?.message).toBe(
      'status.state: expected "TASK_STATE_COMPLETED", got "TASK_STATE_WORKING"',
    );
  });

  it("runs a test that wants authentication on a card whose securityRequirements ask for it", async () => {
    const r = await runOne(
      T("AUTH", [SEND], { preconditions: { capabilities: { authentication: true } } }),
      agent(),
      {
        card: {
          name: "fake",
          capabilities: {},
          securityRequirements: [{ schemes: { bearer: { list: [] } } }],
        },
      },
    );
    expect(r.result).toBe("pass");
  });

  it("a call that never reached the wire fails; a request the client cannot express is the step's error", async () => {
    const client = agent();
    const nothing: WireSource = { take: async () => [] };
    const silent = await runOne(T("OFF-1", [SEND]), client, { wire: nothing });
    expect(silent.failure).toMatchObject({
      step_id: "send",
      message: expect.stringContaining("client: answered without any request reaching the agent"),
    });
    const refused = await runOne(
      T("OFF-2", [
        {
          id: "get",
          operation: "get_task",
          params: { id: "t" },
          expect_error: { error_type: "TaskNotFoundError" },
        },
      ]),
      new FakeClient(() => failed({ type: "TaskNotFoundError", message: "checked locally" })),
      { wire: nothing },
    );
    expect(refused.failure?.message).toContain(
      'client: refused locally with TaskNotFoundError ("checked locally"); nothing reached the agent',
    );
    const unsupported = await runOne(
      T("OFF-3", [{ id: "get", operation: "get_task", params: { id: "t" } }]),
      new FakeClient(() => failed({ type: "ClientUnsupported", message: "cannot send it" })),
      {
        wire: nothing,
      },
    );
    expect(unsupported.failure).toMatchObject({
      step_id: "get",
      message: "unexpected error ClientUnsupported: cannot send it",
    });
  });

  it("the client must report errors and successes as the wire carries them", async () => {
    const hidesError = new FakeClient(
      () => ok(task("t", "COMPLETED")),
      undefined,
      () => ({
        jsonrpc: "2.0",
        id: 1,
        error: { code: -32001, message: "gone", data: [ERROR_INFO("TASK_NOT_FOUND")] },
      }),
    );
    const r1 = await runOne(
      T("CL-1", [
        {
          id: "get",
          operation: "get_task",
          params: { id: "t" },
          expect_error: { error_type: "TaskNotFoundError" },
        },
      ]),
      hidesError,
    );
    expect(r1.failure?.message).toContain(
      "client: reported success for an error response (TaskNotFoundError)",
    );
    const misnames = new FakeClient(
      () => failed({ type: "TaskNotFoundError", message: "gone" }),
      undefined,
      (e) => ({
        ...e,
        error: { code: -32002, message: "gone", data: [ERROR_INFO("TASK_NOT_CANCELABLE")] },
      }),
    );
    const r2 = await runOne(
      T("CL-2", [
        {
          id: "get",
          operation: "get_task",
          params: { id: "t" },
          expect_error: { error_type: "TaskNotCancelableError" },
        },
      ]),
      misnames,
    );
    expect(r2.failure?.message).toContain(
      'client: read the error as TaskNotFoundError ("gone"), the wire says TaskNotCancelableError',
    );
  });

  it("a capture that finds nothing fails the step", async () => {
    const r = await runOne(T("CAP", [{ ...SEND, capture: { taskId: "task.nope" } }]), agent());
    expect(r.failure).toMatchObject({
      step_id: "send",
      assertion_path: "task.nope",
      message: expect.stringMatching(/^capture taskId: nothing at "task\.nope" in \{"task"/),
    });
  });

  it("an unresolved variable fails the step that uses it", async () => {
    const r = await runOne(
      T("VAR", [SEND, { id: "get", operation: "get_task", params: { id: "{{send.taskId}}" } }]),
      agent(),
    );
    expect(r).toMatchObject({
      result: "fail",
      failure: { step_id: "get", message: 'step "send" captured no "taskId"' },
    });
    const env = await runOne(
      T("VAR-ENV", [
        { id: "get", operation: "get_task", params: { id: "{{env.ACTS_SURELY_UNSET}}" } },
      ]),
      agent(),
    );
    expect(env).toMatchObject({
      result: "fail",
      failure: { step_id: "get", message: "environment variable ACTS_SURELY_UNSET is not set" },
    });
  });

  it("document variables beat runner variables; runner variables are available", async () => {
    const client = agent();
    const r = await runOne(
      T("VARS", [
        {
          id: "get",
          operation: "get_task",
          params: { id: "{{taskPrefix}}-{{webhookUrl}}" },
          expect_error: { error_type: "TaskNotFoundError" },
        },
      ]),
      client,
      { variables: { webhookUrl: "runner-hook", taskPrefix: "runner" } },
      { taskPrefix: "doc" },
    );
    expect(r.result).toBe("pass");
    expect(client.calls[0]!.request).toEqual({ id: "doc-runner-hook" });
  });

  it("an unknown operation is a runner error", async () => {
    const r = await runOne(T("OP", [{ id: "x", operation: "frobnicate" }]), agent());
    expect(r).toMatchObject({
      result: "error",
      failure: { step_id: "x", message: "runner error: unknown operation frobnicate" },
    });
    expect(r.steps).toMatchObject([{ id: "x", result: "error" }]);
    // Object.prototype names are not operations.
    const proto = await runOne(T("OP-2", [{ id: "x", operation: "constructor" }]), agent());
    expect(proto).toMatchObject({
      result: "error",
      failure: { step_id: "x", message: "runner error: unknown operation constructor" },
    });
  });

  it("a failing assertion step and a failing step assertion name their step", async () => {
    const step = await runOne(
      T("AS-1", [
        { ...SEND },
        {
          id: "verify",
          assertion: {
            source: "{{send.response}}",
            none: { path: "task.artifacts[*].parts[*]", match: { text: "out" } },
          },
        },
      ]),
      agent(),
    );
    expect(step.failure).toMatchObject({
      step_id: "verify",
      assertion_path: "task.artifacts[*].parts[*]",
      message: expect.stringMatching(
        /^task\.artifacts\[\*\]\.parts\[\*\]: an element matched: none of task\.artifacts\[\*\]\.parts\[\*\] \(1 element\(s\), 1 matching \{"text":"out"\}\)$/,
      ),
    });
    const named = await runOne(
      T("AS-2", [
        {
          ...SEND,
          assertions: [
            {
              id: "has-data",
              source: "{{send.response}}",
              any: { path: "task.artifacts[*].parts[*]", match: { data: { type: "object" } } },
            },
          ],
        },
      ]),
      agent(),
    );
    expect(named.failure).toMatchObject({
      step_id: "send",
      message: expect.stringMatching(
        /^has-data: task\.artifacts\[\*\]\.parts\[\*\]: no element matched/,
      ),
    });
    const all = await runOne(
      T("AS-3", [
        { ...SEND },
        {
          id: "v",
          assertion: { source: "{{send.response}}", all: { path: "task.history[*]", match: {} } },
        },
      ]),
      agent(),
    );
    expect(all.failure?.message).toMatch(
      /not every element matched: all of task\.history\[\*\] \(0 element\(s\)/,
    );
  });

  it("a named assertion's direct match is interpolated", async () => {
    const r = await runOne(
      T("AS-4", [
        { ...SEND, capture: { taskId: "task.id" } },
        {
          id: "v",
          assertion: { source: "{{send.response}}", path: "task.id", match: "{{send.taskId}}" },
        },
      ]),
      agent(),
    );
    expect(r.result).toBe("pass");
  });

  it("a failing test-level assertion fails the test without a step id", async () => {
    const r = await runOne(
      T("TL-1", [SEND], {
        assertions: [
          { source: "{{send.response}}", match: { task: { status: { state: S("FAILED") } } } },
        ],
      }),
      agent(),
    );
    expect(r.result).toBe("fail");
    expect(r.failure).toEqual({
      message: 'expected "TASK_STATE_FAILED", got "TASK_STATE_COMPLETED"',
      assertion_path: "task.status.state",
    });
    expect(r.steps.map((s) => s.result)).toEqual(["pass"]);
  });

  it("a test-level assertion with an unresolved variable fails that test, not the whole run", async () => {
    const results = await runActs(
      [
        documentOf([
          T("TL-2", [SEND], { assertions: [{ source: "{{ghost.response}}", match: {} }] }),
          T("TL-3", [SEND]),
        ]),
      ],
      config(agent()),
    );
    expect(results.map((r) => [r.id, r.result])).toEqual([
      ["TL-2", "fail"],
      ["TL-3", "pass"],
    ]);
    expect(results[0]!.failure?.message).toBe("unresolved variable {{ghost.response}}");
    const broken = await runOne(
      T("TL-4", [SEND], { assertions: [{ source: "{{send.response}}", any: { match: {} } }] }),
      agent(),
    );
    expect(broken).toMatchObject({
      result: "error",
      failure: { message: "runner error: any needs path and match" },
    });
  });

  it("streams: events are checked, and a stream that ends with an error fails", async () => {
    const events = [snap("SUBMITTED"), su("WORKING"), art(), su("COMPLETED")];
    const client = new FakeClient(
      () => ok({}),
      (operation) =>
        operation === "subscribe_to_task"
          ? { events: [snap("WORKING")], error: { type: "InternalError", message: "dropped" } }
          : { events },
    );
    const good = await runOne(
      T("ST-1", [
        {
          id: "s",
          operation: "send_streaming_message",
          params: { message: { role: "ROLE_USER", parts: [{ text: "go" }] } },
          capture: { n: "events[3].statusUpdate.status.state" },
          expect_stream: {
            min_count: 2,
            ordering: "monotonic_state",
            events: [
              { match: "any_position", artifact_update: { artifact: { parts: { count_gte: 1 } } } },
            ],
            final_event: { status_update: { status: { state: S("COMPLETED") } } },
          },
        },
      ]),
      client,
    );
    expect(good.result, JSON.stringify(good.failure)).toBe("pass");
    expect(client.calls[0]!.request).toMatchObject({
      message: { messageId: expect.stringMatching(UUID) },
    });
    const bad = await runOne(
      T("ST-2", [
        {
          id: "s",
          operation: "send_streaming_message",
          params: { message: { role: "ROLE_USER", parts: [] } },
          expect_stream: { max_count: 2 },
        },
      ]),
      client,
    );
    expect(bad.failure).toMatchObject({
      step_id: "s",
      message: "4 event(s): events: expected at most 2 events, got 4",
    });
    const broken = await runOne(
      T("ST-3", [
        {
          id: "sub",
          operation: "subscribe_to_task",
          params: { id: "t" },
          expect_stream: { min_count: 1 },
        },
      ]),
      client,
    );
    expect(broken.failure).toMatchObject({
      step_id: "sub",
      message: "stream ended with InternalError: dropped after 1 event(s)",
    });
    const expected = await runOne(
      T("ST-4", [
        {
          id: "sub",
          operation: "subscribe_to_task",
          params: { id: "t" },
          expect_error: { error_type: "InternalError" },
        },
      ]),
      client,
    );
    expect(expected.result).toBe("pass");
  });

  it("get_agent_card with extended: true calls get_extended_agent_card with the auth headers", async () => {
    const client = new FakeClient(() => ok(CARD));
    const r = await runOne(
      T("CARD", [
        {
          id: "card",
          operation: "get_agent_card",
          params: { extended: true },
          expect: { body: { name: "x" } },
        },
      ]),
      client,
      {
        authHeaders: { authorization: "Bearer t" },
      },
    );
    expect(r.result, JSON.stringify(r.failure)).toBe("pass");
    expect(client.calls).toEqual([
      {
        operation: "get_extended_agent_card",
        request: {},
        headers: { authorization: "Bearer t" },
        aborted: false,
      },
    ]);
  });

  it("runner-special tests: the check's result, a gap when it cannot be checked, never a pass without a check", async () => {
    const plain = await runOne(T("SP-1", [SEND], { tags: ["runner-special"] }), agent());
    expect(plain).toMatchObject({
      result: "skip",
      skip_kind: "runner",
      skip_reason:
        "runner-special: the extra check its description asks for is not implemented by this runner (its steps passed)",
    });
    const special = await runOne(T("SP-2", [SEND], { tags: ["runner-special"] }), agent(), {
      specialChecks: {
        "SP-2": async ({ records }) => ({
          failures: records.has("send") ? [{ path: "", message: "no push arrived" }] : [],
          note: "checked push",
        }),
      },
    });
    expect(special).toMatchObject({
      result: "fail",
      notes: ["checked push"],
      failure: { message: "runner-special check: no push arrived" },
    });
    const passed = await runOne(T("SP-3", [SEND], { tags: ["runner-special"] }), agent(), {
      specialChecks: { "SP-3": async () => ({ failures: [], note: "checked" }) },
    });
    expect(passed).toMatchObject({ result: "pass", notes: ["checked"] });
    const gap = await runOne(T("SP-4", [SEND], { tags: ["runner-special"] }), agent(), {
      specialChecks: { "SP-4": async () => ({ gap: "this client has no receiver" }) },
    });
    expect(gap).toMatchObject({
      result: "skip",
      skip_kind: "runner",
      skip_reason: "runner-special: this client has no receiver",
    });
    const broken = await runOne(T("SP-5", [SEND], { tags: ["runner-special"] }), agent(), {
      specialChecks: {
        "SP-5": async () => {
          throw new Error("boom");
        },
      },
    });
    expect(broken).toMatchObject({
      result: "error",
      failure: { message: "runner-special check: runner error: boom" },
    });
  });

  it("delay_ms delays a step; results keep the document order whatever the concurrency", async () => {
    const tests = [
      T("D-1", [{ ...SEND, delay_ms: 30 }]),
      T("D-2", [SEND]),
      T("D-3", [{ ...SEND, expect: { body: { task: { id: "nope" } } } }]),
      T("D-4", [SEND], { transport: ["grpc"] }),
    ];
    const started = performance.now();
    const results = await runActs([documentOf(tests)], config(agent(), { concurrency: 2 }));
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
    expect(results.map((r) => [r.id, r.result])).toEqual([
      ["D-1", "pass"],
      ["D-2", "pass"],
      ["D-3", "fail"],
      ["D-4", "skip"],
    ]);
    expect(results[0]!.steps[0]!.duration_ms).toBeGreaterThanOrEqual(25);
    const selected = await runActs([documentOf(tests)], config(agent()), (t) => t.id === "D-2");
    expect(selected.map((r) => r.id)).toEqual(["D-2"]);
    expect(await runActs([], config(agent()))).toEqual([]);
  });
});
