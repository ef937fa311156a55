import { describe, it, expect } from "vitest";
import {
  HttpTemplateError,
  compileHttpTemplate,
  parseHttpTemplate,
  parseHttpTemplateAst,
} from "../../../plugin/src/model/http-template.js";
import type { CompiledPattern, PatternVariable } from "../../../runtime/src/rest/route-matcher.js";
import { seededRandom } from "../../support/random.js";

function v(field: string, start: number, end: number): PatternVariable {
  return { field, start, end };
}
function p(
  segments: string[],
  verb: string | undefined,
  ...variables: PatternVariable[]
): CompiledPattern {
  return { segments, verb, variables };
}

describe("parseHttpTemplate: a2a.proto v1.0.1 bindings", () => {
  const cases: [template: string, expected: CompiledPattern][] = [
    ["/message:send", p(["message"], "send")],
    ["/{tenant}/message:send", p(["*", "message"], "send", v("tenant", 0, 1))],
    ["/message:stream", p(["message"], "stream")],
    ["/{tenant}/message:stream", p(["*", "message"], "stream", v("tenant", 0, 1))],
    ["/tasks/{id=*}", p(["tasks", "*"], undefined, v("id", 1, 2))],
    ["/{tenant}/tasks/{id=*}", p(["*", "tasks", "*"], undefined, v("tenant", 0, 1), v("id", 2, 3))],
    ["/tasks", p(["tasks"], undefined)],
    ["/{tenant}/tasks", p(["*", "tasks"], undefined, v("tenant", 0, 1))],
    ["/tasks/{id=*}:cancel", p(["tasks", "*"], "cancel", v("id", 1, 2))],
    [
      "/{tenant}/tasks/{id=*}:cancel",
      p(["*", "tasks", "*"], "cancel", v("tenant", 0, 1), v("id", 2, 3)),
    ],
    ["/tasks/{id=*}:subscribe", p(["tasks", "*"], "subscribe", v("id", 1, 2))],
    [
      "/{tenant}/tasks/{id=*}:subscribe",
      p(["*", "tasks", "*"], "subscribe", v("tenant", 0, 1), v("id", 2, 3)),
    ],
    [
      "/tasks/{task_id=*}/pushNotificationConfigs",
      p(["tasks", "*", "pushNotificationConfigs"], undefined, v("task_id", 1, 2)),
    ],
    [
      "/{tenant}/tasks/{task_id=*}/pushNotificationConfigs",
      p(
        ["*", "tasks", "*", "pushNotificationConfigs"],
        undefined,
        v("tenant", 0, 1),
        v("task_id", 2, 3),
      ),
    ],
    [
      "/tasks/{task_id=*}/pushNotificationConfigs/{id=*}",
      p(
        ["tasks", "*", "pushNotificationConfigs", "*"],
        undefined,
        v("task_id", 1, 2),
        v("id", 3, 4),
      ),
    ],
    [
      "/{tenant}/tasks/{task_id=*}/pushNotificationConfigs/{id=*}",
      p(
        ["*", "tasks", "*", "pushNotificationConfigs", "*"],
        undefined,
        v("tenant", 0, 1),
        v("task_id", 2, 3),
        v("id", 4, 5),
      ),
    ],
    ["/extendedAgentCard", p(["extendedAgentCard"], undefined)],
    ["/{tenant}/extendedAgentCard", p(["*", "extendedAgentCard"], undefined, v("tenant", 0, 1))],
  ];
  it.each(cases)("%s", (template, expected) => {
    expect(parseHttpTemplate(template)).toStrictEqual(expected);
  });
});

describe("parseHttpTemplate: verbs (grpc-gateway rules)", () => {
  const cases: [template: string, expected: CompiledPattern][] = [
    // After a variable: split at the FIRST colon following the "}".
    ["/v1/{name}:bla:baa", p(["v1", "*"], "bla:baa", v("name", 1, 2))],
    ["/v1/{name=*}:a:b:c", p(["v1", "*"], "a:b:c", v("name", 1, 2))],
    ["/{name=a:b}:c", p(["a:b"], "c", v("name", 0, 1))],
    // Otherwise: split the last segment at its LAST colon.
    ["/a/b/c:d:e", p(["a", "b", "c:d"], "e")],
    ["/message:send", p(["message"], "send")],
    ["/x:y", p(["x"], "y")],
    ["/a:b/c", p(["a:b", "c"], undefined)],
    ["/a:b/c:d", p(["a:b", "c"], "d")],
    ["/a/*:verb", p(["a", "*"], "verb")],
    ["/a/**:verb", p(["a", "**"], "verb")],
    ["/a/*:x:y", p(["a", "*:x"], "y")],
    ["/v1/{name=**}:undelete", p(["v1", "**"], "undelete", v("name", 1, -1))],
    ["/v1/{name=projects/*}:get@x", p(["v1", "projects", "*"], "get@x", v("name", 1, 3))],
    ["/a/b:%41", p(["a", "b"], "%41")],
  ];
  it.each(cases)("%s", (template, expected) => {
    expect(parseHttpTemplate(template)).toStrictEqual(expected);
  });
});

describe("parseHttpTemplate: segments and variables", () => {
  const cases: [template: string, expected: CompiledPattern][] = [
    ["/", p([], undefined)],
    ["/a", p(["a"], undefined)],
    ["/*", p(["*"], undefined)],
    ["/**", p(["**"], undefined)],
    ["/a/*/b/**", p(["a", "*", "b", "**"], undefined)],
    ["/{x}", p(["*"], undefined, v("x", 0, 1))],
    ["/{x=*}", p(["*"], undefined, v("x", 0, 1))],
    [
      "/v1/{name=projects/*/tasks/*}",
      p(["v1", "projects", "*", "tasks", "*"], undefined, v("name", 1, 5)),
    ],
    [
      "/v1/{parent=projects/*}/tasks/{task.id}",
      p(["v1", "projects", "*", "tasks", "*"], undefined, v("parent", 1, 3), v("task.id", 4, 5)),
    ],
    ["/files/{path=**}", p(["files", "**"], undefined, v("path", 1, -1))],
    ["/files/{path=a/**}", p(["files", "a", "**"], undefined, v("path", 1, -1))],
    ["/{a.b.c}/x", p(["*", "x"], undefined, v("a.b.c", 0, 1))],
    ["/{_x9}/{Y_}", p(["*", "*"], undefined, v("_x9", 0, 1), v("Y_", 1, 2))],
    ["/{__proto__}", p(["*"], undefined, v("__proto__", 0, 1))],
    // Every pchar class: unreserved, pct-encoded, sub-delims, ":" and "@".
    [
      "/aZ09-._~/%20%aF/!$&'()*+,;=/@x:y/z",
      p(["aZ09-._~", "%20%aF", "!$&'()*+,;=", "@x:y", "z"], undefined),
    ],
    // A segment that is not exactly "*" or "**" is a literal.
    ["/***/a*/x", p(["***", "a*", "x"], undefined)],
    // "**" followed by further segments, as Google's APIs write it (Firestore); a variable's end is then a pattern index.
    ["/**/a", p(["**", "a"], undefined)],
    ["/a/**/b:verb", p(["a", "**", "b"], "verb")],
    ["/{x=**}/a", p(["**", "a"], undefined, v("x", 0, 1))],
    ["/{x=**/a}", p(["**", "a"], undefined, v("x", 0, 2))],
    ["/{x=**}/{y}", p(["**", "*"], undefined, v("x", 0, 1), v("y", 1, 2))],
    ["/{x=a/**/b}/c", p(["a", "**", "b", "c"], undefined, v("x", 0, 3))],
    [
      "/v1/{parent=projects/*/databases/*/documents/*/**}/{collection_id}",
      p(
        ["v1", "projects", "*", "databases", "*", "documents", "*", "**", "*"],
        undefined,
        v("parent", 1, 8),
        v("collection_id", 8, 9),
      ),
    ],
    [
      "/v1/{parent=projects/*/databases/*/documents/**}/{collection_id}",
      p(
        ["v1", "projects", "*", "databases", "*", "documents", "**", "*"],
        undefined,
        v("parent", 1, 7),
        v("collection_id", 7, 8),
      ),
    ],
    // Dots inside a longer literal are ordinary characters.
    ["/v1/.x/a.b/.../x..", p(["v1", ".x", "a.b", "...", "x.."], undefined)],
  ];
  it.each(cases)("%s", (template, expected) => {
    expect(parseHttpTemplate(template)).toStrictEqual(expected);
  });

  it("{x} and {x=*} compile identically; the AST remembers which form was written", () => {
    expect(parseHttpTemplate("/a/{x}/b")).toStrictEqual(parseHttpTemplate("/a/{x=*}/b"));
    const short = parseHttpTemplateAst("/a/{x}");
    const long = parseHttpTemplateAst("/a/{x=*}");
    expect(short.segments[1]).toMatchObject({
      kind: "variable",
      fieldPath: ["x"],
      explicitSegments: false,
    });
    expect(long.segments[1]).toMatchObject({
      kind: "variable",
      fieldPath: ["x"],
      explicitSegments: true,
    });
  });

  it("parseHttpTemplate = compileHttpTemplate(parseHttpTemplateAst)", () => {
    const t = "/v1/{parent.name=projects/*/locations/**}:list";
    expect(compileHttpTemplate(parseHttpTemplateAst(t))).toStrictEqual(parseHttpTemplate(t));
    expect(parseHttpTemplateAst(t)).toMatchObject({
      template: t,
      verb: "list",
      segments: [
        { kind: "literal", value: "v1", offset: 1 },
        {
          kind: "variable",
          fieldPath: ["parent", "name"],
          offset: 4,
          segments: [
            { kind: "literal", value: "projects", offset: 17 },
            { kind: "wildcard", offset: 26 },
            { kind: "literal", value: "locations", offset: 28 },
            { kind: "deep-wildcard", offset: 38 },
          ],
        },
      ],
    });
  });
});

describe("parseHttpTemplate: errors", () => {
  // [template, message regex (problem + offset)]
  const cases: [template: string, message: RegExp][] = [
    // empty / leading slash
    ["", /^invalid path template "": template is empty at offset 0$/],
    ["tasks", /^invalid path template "tasks": template must start with "\/" at offset 0$/],
    [" /tasks", /must start with "\/" at offset 0$/],
    // empty segments
    ["//", /: empty segment at offset 1$/],
    ["//a", /: empty segment at offset 1$/],
    ["/a//b", /: empty segment at offset 3$/],
    ["/a/", /: empty segment at offset 3$/],
    ["/{x}/", /: empty segment at offset 5$/],
    ["/a/:verb", /: empty segment before the verb at offset 3$/],
    ["/:verb", /: empty segment before the verb at offset 1$/],
    ["/{x=}", /: empty segment at offset 4$/],
    ["/{x=a//b}", /: empty segment at offset 6$/],
    ["/{x=a/}", /: empty segment at offset 6$/],
    ["/{x=/a}", /: empty segment at offset 4$/],
    // bad literal characters
    ["/a b", /: invalid character " " in literal at offset 2$/],
    ["/tasks/é", /: invalid character "é" in literal at offset 7$/],
    ["/a?b", /: invalid character "\?" in literal at offset 2$/],
    ["/a#", /: invalid character "#" in literal at offset 2$/],
    ["/a[0]", /: invalid character "\[" in literal at offset 2$/],
    ["/a\\b", /: invalid character "\\\\" in literal at offset 2$/],
    [
      "/a%2",
      /: invalid percent-encoding in literal \(expected "%" and two hex digits\) at offset 2$/,
    ],
    ["/a%zz/b", /: invalid percent-encoding in literal .* at offset 2$/],
    ["/%", /: invalid percent-encoding in literal .* at offset 1$/],
    ["/{x=a b}", /: invalid character " " in literal inside variable at offset 5$/],
    ["/{x=%g0}", /: invalid percent-encoding in literal inside variable .* at offset 4$/],
    ["/a{x}", /: unexpected "\{" in literal \(a variable must be a whole segment\) at offset 2$/],
    ["/a}", /: unexpected "\}" in literal \(unmatched "\}"\) at offset 2$/],
    ["/{x}}", /: unmatched "\}" at offset 4$/],
    ["/{x}y", /: unexpected "y" after variable \(expected "\/", ":" or the end\) at offset 4$/],
    ["/{x}{y}", /: unexpected "\{" after variable .* at offset 4$/],
    // bad identifiers
    ["/{}", /: expected a field name at offset 2$/],
    ["/{=a}", /: expected a field name at offset 2$/],
    ["/{.a}", /: expected a field name at offset 2$/],
    ["/{a.}", /: expected a field name at offset 4$/],
    ["/{a..b}", /: expected a field name at offset 4$/],
    ["/{1a}", /: invalid field name: unexpected "1" at offset 2$/],
    ["/{a-b}", /: invalid field name: unexpected "-" at offset 3$/],
    ["/{a b}", /: invalid field name: unexpected " " at offset 3$/],
    ["/{a/b}", /: invalid field name: unexpected "\/" at offset 3$/],
    ["/{é}", /: invalid field name: unexpected "é" at offset 2$/],
    // unterminated variables
    ["/tasks/{id", /^invalid path template "\/tasks\/\{id": unterminated variable at offset 7$/],
    ["/{", /: unterminated variable at offset 1$/],
    ["/{a.", /: unterminated variable at offset 1$/],
    ["/{a=", /: unterminated variable at offset 1$/],
    ["/x/{a=b/*", /: unterminated variable at offset 3$/],
    ["/{a=**:verb", /: unterminated variable at offset 1$/],
    // nested variables (a variable inside a variable)
    ["/{a{b}}", /: variable inside variable \(variables cannot nest\) at offset 3$/],
    ["/{{a}}", /: variable inside variable \(variables cannot nest\) at offset 2$/],
    ["/{a={b}}", /: variable inside variable \(variables cannot nest\) at offset 4$/],
    ["/{a=x/{b=*}}", /: variable inside variable \(variables cannot nest\) at offset 6$/],
    ["/{a=x{b}}", /: variable inside variable \(variables cannot nest\) at offset 5$/],
    // dot segments: URL normalization removes them, no request reaches the route
    [
      "/v1/./{name}",
      /: dot segment "\." \(URL normalization removes it, so no request could reach this path\) at offset 4$/,
    ],
    ["/v1/../x", /: dot segment "\.\." .* at offset 4$/],
    ["/v1/{name=a/./*}", /: dot segment "\." .* at offset 12$/],
    ["/v1/{name=**/..}", /: dot segment "\.\." .* at offset 13$/],
    ["/v1/%2E", /: dot segment "%2E" .* at offset 4$/],
    ["/v1/.%2e:verb", /: dot segment "\.%2e" .* at offset 4$/],
    ["/.", /: dot segment "\." .* at offset 1$/],
    // "**" placement: one per template
    ["/**/**", /: more than one "\*\*" \(at most one is allowed\) at offset 4$/],
    ["/{a=**}/{b=**}", /: more than one "\*\*" .* at offset 11$/],
    ["/**/x/**", /: more than one "\*\*" .* at offset 6$/],
    // verbs
    ["/a:", /: empty verb after the colon at offset 2$/],
    ["/{x}:", /: empty verb after the colon at offset 4$/],
    ["/a/*:", /: empty verb after the colon at offset 4$/],
    ["/{x}:a/b", /: invalid character "\/" in verb at offset 6$/],
    ["/{x}:a b", /: invalid character " " in verb at offset 6$/],
    ["/a:b%", /: invalid percent-encoding in verb .* at offset 4$/],
    ["/a:{x}", /: unexpected "\{" in verb .* at offset 3$/],
    // duplicate / overlapping variables
    ["/{id}/{id}", /: duplicate variable "id" at offset 6$/],
    ["/{a.b}/x/{a.b=**}", /: duplicate variable "a\.b" at offset 9$/],
    ["/{a}/{a.b}", /: variable "a\.b" overlaps variable "a" at offset 5$/],
    ["/{a.b.c}/{a.b}", /: variable "a\.b" overlaps variable "a\.b\.c" at offset 9$/],
  ];
  it.each(cases)("%j", (template, message) => {
    let thrown: unknown;
    try {
      parseHttpTemplate(template);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(HttpTemplateError);
    expect(thrown).toBeInstanceOf(Error);
    const err = thrown as HttpTemplateError;
    expect(err.name).toBe("HttpTemplateError");
    expect(err.template).toBe(template);
    expect(err.message).toMatch(message);
    expect(err.message).toBe(
      `invalid path template ${JSON.stringify(template)}: ${err.problem} at offset ${err.offset}`,
    );
  });

  it("non-overlapping prefixes are fine ({a} and {ab})", () => {
    expect(parseHttpTemplate("/{a}/{ab}/{a_b}").variables.map((x) => x.field)).toEqual([
      "a",
      "ab",
      "a_b",
    ]);
  });
});

describe("parseHttpTemplate: fuzz", () => {
  const rng = seededRandom;
  const alphabet = [
    "/",
    "/",
    "/",
    "{",
    "}",
    "=",
    "*",
    "**",
    ":",
    ".",
    "%",
    "%2F",
    "a",
    "b",
    "x_1",
    "1",
    " ",
    "é",
    "?",
    "-",
    "@",
    "tasks",
    "{id}",
    "{a.b=**}",
  ];

  it("random strings parse or throw HttpTemplateError, and parses are well-formed", () => {
    const next = rng(0xa2a);
    let parsed = 0;
    for (let n = 0; n < 20_000; n++) {
      const len = Math.floor(next() * 12);
      let t = next() < 0.9 ? "/" : "";
      for (let i = 0; i < len; i++) t += alphabet[Math.floor(next() * alphabet.length)]!;
      let result: CompiledPattern;
      try {
        result = parseHttpTemplate(t);
      } catch (e) {
        if (!(e instanceof HttpTemplateError))
          throw new Error(`${JSON.stringify(t)} threw ${String(e)}`);
        expect(e.message.startsWith(`invalid path template ${JSON.stringify(t)}: `)).toBe(true);
        expect(e.offset).toBeGreaterThanOrEqual(0);
        expect(e.offset).toBeLessThanOrEqual(t.length);
        continue;
      }
      parsed++;
      // Invariants of a compiled pattern.
      const segs = result.segments;
      expect(segs.every((s) => s.length > 0)).toBe(true);
      const deep = segs.indexOf("**");
      if (deep >= 0) expect(segs.lastIndexOf("**")).toBe(deep);
      expect(segs.some((s) => s === "." || s === "..")).toBe(false);
      if (result.verb !== undefined) expect(result.verb.length).toBeGreaterThan(0);
      for (const x of result.variables) {
        expect(x.start).toBeGreaterThanOrEqual(0);
        if (x.end === -1) expect(segs[segs.length - 1]).toBe("**");
        else expect(x.end).toBeGreaterThan(x.start);
        expect(x.end).toBeLessThanOrEqual(segs.length);
      }
    }
    // The generator must actually reach the success path too.
    expect(parsed).toBeGreaterThan(100);
  });
});
