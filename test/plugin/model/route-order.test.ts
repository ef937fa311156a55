import { describe, it, expect } from "vitest";
import { parseHttpTemplate } from "../../../plugin/src/model/http-template.js";
import { comparePatterns, sortRoutes } from "../../../plugin/src/model/route-order.js";
import type { CompiledPattern } from "../../../runtime/src/rest/route-matcher.js";
import { seededRandom } from "../../support/random.js";

interface TestRoute {
  readonly method: string;
  readonly template: string;
  readonly operation: string;
  readonly pattern: CompiledPattern;
}

/** a2a.proto v1.0.1 bindings in declaration order (rule, additional binding), plus the POST twins of SubscribeToTask. */
const a2aBindings: [method: string, template: string, operation: string][] = [
  ["POST", "/message:send", "SendMessage"],
  ["POST", "/{tenant}/message:send", "SendMessage"],
  ["POST", "/message:stream", "SendStreamingMessage"],
  ["POST", "/{tenant}/message:stream", "SendStreamingMessage"],
  ["GET", "/tasks/{id=*}", "GetTask"],
  ["GET", "/{tenant}/tasks/{id=*}", "GetTask"],
  ["GET", "/tasks", "ListTasks"],
  ["GET", "/{tenant}/tasks", "ListTasks"],
  ["POST", "/tasks/{id=*}:cancel", "CancelTask"],
  ["POST", "/{tenant}/tasks/{id=*}:cancel", "CancelTask"],
  ["GET", "/tasks/{id=*}:subscribe", "SubscribeToTask"],
  ["GET", "/{tenant}/tasks/{id=*}:subscribe", "SubscribeToTask"],
  ["POST", "/tasks/{id=*}:subscribe", "SubscribeToTask"],
  ["POST", "/{tenant}/tasks/{id=*}:subscribe", "SubscribeToTask"],
  ["POST", "/tasks/{task_id=*}/pushNotificationConfigs", "CreateTaskPushNotificationConfig"],
  [
    "POST",
    "/{tenant}/tasks/{task_id=*}/pushNotificationConfigs",
    "CreateTaskPushNotificationConfig",
  ],
  ["GET", "/tasks/{task_id=*}/pushNotificationConfigs/{id=*}", "GetTaskPushNotificationConfig"],
  [
    "GET",
    "/{tenant}/tasks/{task_id=*}/pushNotificationConfigs/{id=*}",
    "GetTaskPushNotificationConfig",
  ],
  ["GET", "/tasks/{task_id=*}/pushNotificationConfigs", "ListTaskPushNotificationConfigs"],
  ["GET", "/{tenant}/tasks/{task_id=*}/pushNotificationConfigs", "ListTaskPushNotificationConfigs"],
  ["GET", "/extendedAgentCard", "GetExtendedAgentCard"],
  ["GET", "/{tenant}/extendedAgentCard", "GetExtendedAgentCard"],
  [
    "DELETE",
    "/tasks/{task_id=*}/pushNotificationConfigs/{id=*}",
    "DeleteTaskPushNotificationConfig",
  ],
  [
    "DELETE",
    "/{tenant}/tasks/{task_id=*}/pushNotificationConfigs/{id=*}",
    "DeleteTaskPushNotificationConfig",
  ],
];

const a2aRoutes: TestRoute[] = a2aBindings.map(([method, template, operation]) => ({
  method,
  template,
  operation,
  pattern: parseHttpTemplate(template),
}));

const label = (r: TestRoute): string => `${r.method} ${r.template}`;

/** Precedence key: verb or not, then the segment kinds (L = literal). */
const shape = (r: TestRoute): string =>
  (r.pattern.verb === undefined ? "" : ":verb ") +
  r.pattern.segments.map((s) => (s === "*" || s === "**" ? s : "L")).join("/");

/** The documented order for the declaration-ordered A2A list (ties keep declaration order). */
const expectedA2aOrder = [
  // 1. custom verbs first; among them [tasks, *] before [message] (longer first, rule 3) ...
  "POST /tasks/{id=*}:cancel",
  "GET /tasks/{id=*}:subscribe",
  "POST /tasks/{id=*}:subscribe",
  "POST /message:send",
  "POST /message:stream",
  // ... and a leading literal before a leading {tenant} (rule 2)
  "POST /{tenant}/tasks/{id=*}:cancel",
  "GET /{tenant}/tasks/{id=*}:subscribe",
  "POST /{tenant}/tasks/{id=*}:subscribe",
  "POST /{tenant}/message:send",
  "POST /{tenant}/message:stream",
  // 2. no verb: plain forms (leading literal "tasks"/"extendedAgentCard") ...
  "GET /tasks/{task_id=*}/pushNotificationConfigs/{id=*}",
  "DELETE /tasks/{task_id=*}/pushNotificationConfigs/{id=*}",
  "POST /tasks/{task_id=*}/pushNotificationConfigs",
  "GET /tasks/{task_id=*}/pushNotificationConfigs",
  "GET /tasks/{id=*}",
  "GET /tasks",
  "GET /extendedAgentCard",
  // ... then the tenant forms (leading "*")
  "GET /{tenant}/tasks/{task_id=*}/pushNotificationConfigs/{id=*}",
  "DELETE /{tenant}/tasks/{task_id=*}/pushNotificationConfigs/{id=*}",
  "POST /{tenant}/tasks/{task_id=*}/pushNotificationConfigs",
  "GET /{tenant}/tasks/{task_id=*}/pushNotificationConfigs",
  "GET /{tenant}/tasks/{id=*}",
  "GET /{tenant}/tasks",
  "GET /{tenant}/extendedAgentCard",
];

function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  const next = seededRandom(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe("sortRoutes: A2A table", () => {
  it("has 24 routes (11 RPCs × 2 bindings + 2 POST subscribe twins)", () => {
    expect(a2aRoutes).toHaveLength(24);
    expect(expectedA2aOrder).toHaveLength(24);
    expect(new Set(expectedA2aOrder)).toEqual(new Set(a2aRoutes.map(label)));
  });

  it("declaration order sorts to the documented order", () => {
    expect(sortRoutes(a2aRoutes).map(label)).toEqual(expectedA2aOrder);
  });

  it("does not mutate its input and returns a new array", () => {
    const input = [...a2aRoutes];
    const out = sortRoutes(input);
    expect(input.map(label)).toEqual(a2aBindings.map(([m, t]) => `${m} ${t}`));
    expect(out).not.toBe(input);
  });

  const expectedShapes = expectedA2aOrder.map((l) => shape(a2aRoutes.find((r) => label(r) === l)!));
  it.each([1, 2, 3, 42, 1234, 0xa2a, 99999])(
    "shuffle seed %i sorts to the same precedence sequence, ties in input order",
    (seed) => {
      const input = shuffled(a2aRoutes, seed);
      expect(input.map(label)).not.toEqual(a2aRoutes.map(label));
      const out = sortRoutes(input);
      expect(out.map(shape)).toEqual(expectedShapes);
      // Stability: routes with the same precedence key keep their input order.
      for (let i = 1; i < out.length; i++) {
        if (shape(out[i - 1]!) === shape(out[i]!)) {
          expect(input.indexOf(out[i - 1]!)).toBeLessThan(input.indexOf(out[i]!));
        }
      }
      // Sorting the shuffled list by precedence, then by declaration order, gives the exact documented order.
      const byDeclaration = [...out].sort(
        (a, b) =>
          comparePatterns(a.pattern, b.pattern) || a2aRoutes.indexOf(a) - a2aRoutes.indexOf(b),
      );
      expect(byDeclaration.map(label)).toEqual(expectedA2aOrder);
    },
  );

  it("every verb route precedes every verb-less route", () => {
    const out = sortRoutes(shuffled(a2aRoutes, 7));
    const lastVerb = out.findLastIndex((r) => r.pattern.verb !== undefined);
    const firstPlain = out.findIndex((r) => r.pattern.verb === undefined);
    expect(lastVerb).toBe(9);
    expect(firstPlain).toBe(10);
  });

  it("literal before variable: /tasks/{id} before /{tenant}/tasks, /tasks before /{tenant}/extendedAgentCard", () => {
    const out = sortRoutes(shuffled(a2aRoutes, 11)).map(label);
    expect(out.indexOf("GET /tasks/{id=*}")).toBeLessThan(out.indexOf("GET /{tenant}/tasks"));
    expect(out.indexOf("GET /tasks")).toBeLessThan(out.indexOf("GET /{tenant}/extendedAgentCard"));
    expect(out.indexOf("GET /tasks/{task_id=*}/pushNotificationConfigs")).toBeLessThan(
      out.indexOf("GET /{tenant}/tasks/{id=*}"),
    );
  });
});

describe("comparePatterns", () => {
  // [a, b, expected]: "<" a first, ">" b first, "=" tie (declaration order decides)
  const cases: [a: string, b: string, expected: "<" | ">" | "="][] = [
    // rule 1: custom verb first
    ["/a:v", "/a", "<"],
    ["/*:v", "/a", "<"],
    ["/**:v", "/a/b/c", "<"],
    ["/x/y/z", "/{x}:v", ">"],
    // rule 2: literal < "*" < "**", leftmost difference decides
    ["/a", "/*", "<"],
    ["/*", "/**", "<"],
    ["/a", "/**", "<"],
    ["/a/b", "/a/*", "<"],
    ["/a/*", "/*/b", "<"],
    ["/tasks/{id}", "/{tenant}/tasks", "<"],
    ["/a/*/c", "/a/b/*", ">"],
    ["/a/b/**", "/a/**", "<"],
    ["/a/*", "/a/**", "<"],
    ["/v1/{name=projects/*}", "/v1/{name=**}", "<"],
    ["/a/*:v", "/a/b:v", ">"],
    // rule 3: longer first ...
    ["/a/b", "/a", "<"],
    ["/a/*", "/a", "<"],
    ["/a/*/b", "/a/*", "<"],
    ["/a", "/", "<"],
    ["/*", "/", "<"],
    // ... except P before P/** (both match P, the exact one is more specific)
    ["/a", "/a/**", "<"],
    ["/a/{x}", "/a/{x}/{rest=**}", "<"],
    ["/", "/**", "<"],
    ["/a:v", "/a/**:v", "<"],
    // ties: same shape, different literals / forms / verbs
    ["/a/b", "/c/d", "="],
    ["/{x}", "/*", "="],
    ["/{x=a/*}", "/a/{y}", "="],
    ["/a:x", "/b:y", "="],
    ["/files/{p=**}", "/docs/**", "="],
  ];
  it.each(cases)("%s vs %s: %s", (a, b, expected) => {
    const pa = parseHttpTemplate(a);
    const pb = parseHttpTemplate(b);
    const sign = (n: number): "<" | ">" | "=" => (n < 0 ? "<" : n > 0 ? ">" : "=");
    expect(sign(comparePatterns(pa, pb))).toBe(expected);
    const mirrored = expected === "<" ? ">" : expected === ">" ? "<" : "=";
    expect(sign(comparePatterns(pb, pa))).toBe(mirrored);
  });

  it("is a consistent ordering (transitive) over a mixed set of patterns", () => {
    const templates = [
      ...new Set([
        ...cases.flatMap(([a, b]) => [a, b] as const),
        ...a2aBindings.map(([, t]) => t),
        "/a/b/c/**",
        "/*/*",
        "/*/**",
        "/**:w",
      ]),
    ];
    const ps = templates.map(parseHttpTemplate);
    for (const a of ps) {
      for (const b of ps) {
        for (const c of ps) {
          if (comparePatterns(a, b) <= 0 && comparePatterns(b, c) <= 0) {
            expect(comparePatterns(a, c)).toBeLessThanOrEqual(0);
          }
        }
      }
    }
  });

  it("sortRoutes keeps declaration order between equal patterns of different methods", () => {
    const routes = [
      { id: 1, pattern: parseHttpTemplate("/a/{x}") },
      { id: 2, pattern: parseHttpTemplate("/b/{y}") },
      { id: 3, pattern: parseHttpTemplate("/a:v") },
      { id: 4, pattern: parseHttpTemplate("/c/{z=*}") },
      { id: 5, pattern: parseHttpTemplate("/b:w") },
    ];
    expect(sortRoutes(routes).map((r) => r.id)).toEqual([3, 5, 1, 2, 4]);
    expect(sortRoutes([])).toEqual([]);
  });
});
