import { describe, it, expect } from "vitest";
import { parseHttpTemplate } from "../../../plugin/src/model/http-template.js";
import { sortRoutes } from "../../../plugin/src/model/route-order.js";
import {
  matchRoute,
  type Route,
  type RouteMatch,
  type RouteTable,
} from "../../../runtime/src/rest/route-matcher.js";
import { seededRandom } from "../../support/random.js";

type A2aOperation =
  | "SendMessage"
  | "SendStreamingMessage"
  | "GetTask"
  | "ListTasks"
  | "CancelTask"
  | "SubscribeToTask"
  | "CreateTaskPushNotificationConfig"
  | "GetTaskPushNotificationConfig"
  | "ListTaskPushNotificationConfigs"
  | "GetExtendedAgentCard"
  | "DeleteTaskPushNotificationConfig";

/** a2a.proto v1.0.1 bindings in declaration order (rule, then the `/{tenant}` additional binding), plus POST twins of SubscribeToTask. */
const a2aBindings: [method: string, template: string, operation: A2aOperation, body: string][] = [
  ["POST", "/message:send", "SendMessage", "*"],
  ["POST", "/{tenant}/message:send", "SendMessage", "*"],
  ["POST", "/message:stream", "SendStreamingMessage", "*"],
  ["POST", "/{tenant}/message:stream", "SendStreamingMessage", "*"],
  ["GET", "/tasks/{id=*}", "GetTask", ""],
  ["GET", "/{tenant}/tasks/{id=*}", "GetTask", ""],
  ["GET", "/tasks", "ListTasks", ""],
  ["GET", "/{tenant}/tasks", "ListTasks", ""],
  ["POST", "/tasks/{id=*}:cancel", "CancelTask", "*"],
  ["POST", "/{tenant}/tasks/{id=*}:cancel", "CancelTask", "*"],
  ["GET", "/tasks/{id=*}:subscribe", "SubscribeToTask", ""],
  ["GET", "/{tenant}/tasks/{id=*}:subscribe", "SubscribeToTask", ""],
  ["POST", "/tasks/{id=*}:subscribe", "SubscribeToTask", "*"],
  ["POST", "/{tenant}/tasks/{id=*}:subscribe", "SubscribeToTask", "*"],
  ["POST", "/tasks/{task_id=*}/pushNotificationConfigs", "CreateTaskPushNotificationConfig", "*"],
  [
    "POST",
    "/{tenant}/tasks/{task_id=*}/pushNotificationConfigs",
    "CreateTaskPushNotificationConfig",
    "*",
  ],
  ["GET", "/tasks/{task_id=*}/pushNotificationConfigs/{id=*}", "GetTaskPushNotificationConfig", ""],
  [
    "GET",
    "/{tenant}/tasks/{task_id=*}/pushNotificationConfigs/{id=*}",
    "GetTaskPushNotificationConfig",
    "",
  ],
  ["GET", "/tasks/{task_id=*}/pushNotificationConfigs", "ListTaskPushNotificationConfigs", ""],
  [
    "GET",
    "/{tenant}/tasks/{task_id=*}/pushNotificationConfigs",
    "ListTaskPushNotificationConfigs",
    "",
  ],
  ["GET", "/extendedAgentCard", "GetExtendedAgentCard", ""],
  ["GET", "/{tenant}/extendedAgentCard", "GetExtendedAgentCard", ""],
  [
    "DELETE",
    "/tasks/{task_id=*}/pushNotificationConfigs/{id=*}",
    "DeleteTaskPushNotificationConfig",
    "",
  ],
  [
    "DELETE",
    "/{tenant}/tasks/{task_id=*}/pushNotificationConfigs/{id=*}",
    "DeleteTaskPushNotificationConfig",
    "",
  ],
];

function buildTable<Op extends string>(
  bindings: readonly (readonly [string, string, Op, string?])[],
): RouteTable<Op> {
  const routes: Route<Op>[] = bindings.map(([method, template, operation, body]) => ({
    method,
    template,
    pattern: parseHttpTemplate(template),
    operation,
    body: body ?? "",
  }));
  return { routes: sortRoutes(routes) };
}

const a2a = buildTable(a2aBindings);

/** Compact, comparable view of a result. */
function summary(m: RouteMatch): unknown {
  switch (m.kind) {
    case "match":
      return { match: `${m.route.method} ${m.route.template}`, params: { ...m.params } };
    case "not-found":
      return "not-found";
    case "method-not-allowed":
      return { allow: m.allow };
    case "bad-path":
      return { badPath: m.reason };
  }
}

type Expect =
  | { match: string; params?: Record<string, string> }
  | "not-found"
  | { allow: string[] }
  | { badPath: RegExp };

function check<Op extends string>(
  table: RouteTable<Op>,
  method: string,
  path: string,
  expected: Expect,
): void {
  const got = matchRoute(table, method, path);
  if (typeof expected === "string") {
    expect(summary(got)).toEqual(expected);
  } else if ("match" in expected) {
    expect(summary(got)).toEqual({ match: expected.match, params: expected.params ?? {} });
  } else if ("allow" in expected) {
    expect(summary(got)).toEqual({ allow: expected.allow });
  } else {
    expect(got.kind).toBe("bad-path");
    if (got.kind === "bad-path") expect(got.reason).toMatch(expected.badPath);
  }
}

describe("A2A table", () => {
  it("has 24 routes: 11 RPCs × (rule + tenant binding) + POST twins of both SubscribeToTask bindings", () => {
    expect(a2a.routes).toHaveLength(24);
    expect(new Set(a2a.routes.map((r) => r.operation)).size).toBe(11);
    expect(
      a2a.routes.filter((r) => r.operation === "SubscribeToTask").map((r) => r.method),
    ).toEqual(["GET", "POST", "GET", "POST"]);
  });

  // [method, path, operation, matched template, params]
  const rpcCases: [string, string, A2aOperation, string, Record<string, string>][] = [
    ["POST", "/message:send", "SendMessage", "/message:send", {}],
    ["POST", "/acme/message:send", "SendMessage", "/{tenant}/message:send", { tenant: "acme" }],
    ["POST", "/message:stream", "SendStreamingMessage", "/message:stream", {}],
    [
      "POST",
      "/acme/message:stream",
      "SendStreamingMessage",
      "/{tenant}/message:stream",
      { tenant: "acme" },
    ],
    ["GET", "/tasks/t-1", "GetTask", "/tasks/{id=*}", { id: "t-1" }],
    ["GET", "/acme/tasks/t-1", "GetTask", "/{tenant}/tasks/{id=*}", { tenant: "acme", id: "t-1" }],
    ["GET", "/tasks", "ListTasks", "/tasks", {}],
    ["GET", "/acme/tasks", "ListTasks", "/{tenant}/tasks", { tenant: "acme" }],
    ["POST", "/tasks/t-1:cancel", "CancelTask", "/tasks/{id=*}:cancel", { id: "t-1" }],
    [
      "POST",
      "/acme/tasks/t-1:cancel",
      "CancelTask",
      "/{tenant}/tasks/{id=*}:cancel",
      { tenant: "acme", id: "t-1" },
    ],
    ["GET", "/tasks/t-1:subscribe", "SubscribeToTask", "/tasks/{id=*}:subscribe", { id: "t-1" }],
    [
      "GET",
      "/acme/tasks/t-1:subscribe",
      "SubscribeToTask",
      "/{tenant}/tasks/{id=*}:subscribe",
      { tenant: "acme", id: "t-1" },
    ],
    ["POST", "/tasks/t-1:subscribe", "SubscribeToTask", "/tasks/{id=*}:subscribe", { id: "t-1" }],
    [
      "POST",
      "/acme/tasks/t-1:subscribe",
      "SubscribeToTask",
      "/{tenant}/tasks/{id=*}:subscribe",
      { tenant: "acme", id: "t-1" },
    ],
    [
      "POST",
      "/tasks/t-1/pushNotificationConfigs",
      "CreateTaskPushNotificationConfig",
      "/tasks/{task_id=*}/pushNotificationConfigs",
      { task_id: "t-1" },
    ],
    [
      "POST",
      "/acme/tasks/t-1/pushNotificationConfigs",
      "CreateTaskPushNotificationConfig",
      "/{tenant}/tasks/{task_id=*}/pushNotificationConfigs",
      { tenant: "acme", task_id: "t-1" },
    ],
    [
      "GET",
      "/tasks/t-1/pushNotificationConfigs/c-9",
      "GetTaskPushNotificationConfig",
      "/tasks/{task_id=*}/pushNotificationConfigs/{id=*}",
      { task_id: "t-1", id: "c-9" },
    ],
    [
      "GET",
      "/acme/tasks/t-1/pushNotificationConfigs/c-9",
      "GetTaskPushNotificationConfig",
      "/{tenant}/tasks/{task_id=*}/pushNotificationConfigs/{id=*}",
      { tenant: "acme", task_id: "t-1", id: "c-9" },
    ],
    [
      "GET",
      "/tasks/t-1/pushNotificationConfigs",
      "ListTaskPushNotificationConfigs",
      "/tasks/{task_id=*}/pushNotificationConfigs",
      { task_id: "t-1" },
    ],
    [
      "GET",
      "/acme/tasks/t-1/pushNotificationConfigs",
      "ListTaskPushNotificationConfigs",
      "/{tenant}/tasks/{task_id=*}/pushNotificationConfigs",
      { tenant: "acme", task_id: "t-1" },
    ],
    ["GET", "/extendedAgentCard", "GetExtendedAgentCard", "/extendedAgentCard", {}],
    [
      "GET",
      "/acme/extendedAgentCard",
      "GetExtendedAgentCard",
      "/{tenant}/extendedAgentCard",
      { tenant: "acme" },
    ],
    [
      "DELETE",
      "/tasks/t-1/pushNotificationConfigs/c-9",
      "DeleteTaskPushNotificationConfig",
      "/tasks/{task_id=*}/pushNotificationConfigs/{id=*}",
      { task_id: "t-1", id: "c-9" },
    ],
    [
      "DELETE",
      "/acme/tasks/t-1/pushNotificationConfigs/c-9",
      "DeleteTaskPushNotificationConfig",
      "/{tenant}/tasks/{task_id=*}/pushNotificationConfigs/{id=*}",
      { tenant: "acme", task_id: "t-1", id: "c-9" },
    ],
  ];

  it("covers every route of the table", () => {
    const hit = new Set(rpcCases.map(([m, , , t]) => `${m} ${t}`));
    expect(hit).toEqual(new Set(a2a.routes.map((r) => `${r.method} ${r.template}`)));
  });

  it.each(rpcCases)("%s %s → %s", (method, path, operation, template, params) => {
    const m = matchRoute(a2a, method, path);
    expect(m.kind).toBe("match");
    if (m.kind !== "match") return;
    expect(m.route.operation).toBe(operation);
    expect(m.route.method).toBe(method);
    expect(m.route.template).toBe(template);
    expect({ ...m.params }).toEqual(params);
    expect(Object.keys(m.params).sort()).toEqual(Object.keys(params).sort());
  });

  // [method, path, expected, why]
  const cases: [string, string, Expect, string][] = [
    // --- collisions between plain and tenant forms: the leftmost literal wins (rule 2 of route-order) ---
    [
      "GET",
      "/tasks/tasks",
      { match: "GET /tasks/{id=*}", params: { id: "tasks" } },
      "[tasks,*] beats [*,tasks]: a tenant named 'tasks' cannot list tasks via /tasks/tasks",
    ],
    [
      "GET",
      "/tasks/extendedAgentCard",
      { match: "GET /tasks/{id=*}", params: { id: "extendedAgentCard" } },
      "[tasks,*] beats [*,extendedAgentCard]",
    ],
    [
      "GET",
      "/tasks/tasks/pushNotificationConfigs",
      { match: "GET /tasks/{task_id=*}/pushNotificationConfigs", params: { task_id: "tasks" } },
      "[tasks,*,L] beats [*,tasks,*]",
    ],
    [
      "GET",
      "/tasks/tasks/abc",
      { match: "GET /{tenant}/tasks/{id=*}", params: { tenant: "tasks", id: "abc" } },
      "only the tenant form fits",
    ],
    [
      "GET",
      "/tasks/tasks/tasks",
      { match: "GET /{tenant}/tasks/{id=*}", params: { tenant: "tasks", id: "tasks" } },
      "only the tenant form fits",
    ],
    [
      "GET",
      "/tasks/tasks/extendedAgentCard",
      { match: "GET /{tenant}/tasks/{id=*}", params: { tenant: "tasks", id: "extendedAgentCard" } },
      "tenant GetTask",
    ],
    [
      "GET",
      "/extendedAgentCard/extendedAgentCard",
      { match: "GET /{tenant}/extendedAgentCard", params: { tenant: "extendedAgentCard" } },
      "tenant form",
    ],
    [
      "GET",
      "/message/tasks",
      { match: "GET /{tenant}/tasks", params: { tenant: "message" } },
      "tenant ListTasks",
    ],
    [
      "POST",
      "/message:send/message:send",
      { match: "POST /{tenant}/message:send", params: { tenant: "message:send" } },
      "tenant literally named message:send",
    ],
    [
      "POST",
      "/message:stream/message:send",
      { match: "POST /{tenant}/message:send", params: { tenant: "message:stream" } },
      "tenant named message:stream",
    ],
    [
      "POST",
      "/tasks/message:send",
      { match: "POST /{tenant}/message:send", params: { tenant: "tasks" } },
      "tenant named tasks",
    ],
    [
      "POST",
      "/acme/tasks/tasks:cancel",
      { match: "POST /{tenant}/tasks/{id=*}:cancel", params: { tenant: "acme", id: "tasks" } },
      "task named tasks",
    ],
    // --- colons and verbs ---
    [
      "GET",
      "/tasks/a:b",
      { match: "GET /tasks/{id=*}", params: { id: "a:b" } },
      "a verb-less pattern keeps the colon",
    ],
    [
      "GET",
      "/acme/tasks/a:b:c",
      { match: "GET /{tenant}/tasks/{id=*}", params: { tenant: "acme", id: "a:b:c" } },
      "colons kept",
    ],
    [
      "GET",
      "/ten:ant/tasks/x",
      { match: "GET /{tenant}/tasks/{id=*}", params: { tenant: "ten:ant", id: "x" } },
      "colon in a non-last segment",
    ],
    [
      "POST",
      "/tasks/a:b:cancel",
      { match: "POST /tasks/{id=*}:cancel", params: { id: "a:b" } },
      "only the final :cancel is the verb",
    ],
    [
      "GET",
      "/tasks/abc:subscribe",
      { match: "GET /tasks/{id=*}:subscribe", params: { id: "abc" } },
      "verb routes are tried first",
    ],
    [
      "GET",
      "/tasks/abc%3Asubscribe",
      { match: "GET /tasks/{id=*}", params: { id: "abc:subscribe" } },
      "the verb check is on the raw segment",
    ],
    [
      "GET",
      "/tasks/abc%3asubscribe",
      { match: "GET /tasks/{id=*}", params: { id: "abc:subscribe" } },
      "lower-case escape",
    ],
    [
      "POST",
      "/tasks/abc%3Acancel:cancel",
      { match: "POST /tasks/{id=*}:cancel", params: { id: "abc:cancel" } },
      "encoded colon in the id, real verb",
    ],
    [
      "GET",
      "/tasks/:subscribe",
      { match: "GET /tasks/{id=*}", params: { id: ":subscribe" } },
      "empty prefix before the verb: not the verb route",
    ],
    [
      "GET",
      "/tasks/abc:frobnicate",
      { match: "GET /tasks/{id=*}", params: { id: "abc:frobnicate" } },
      "unknown verb is part of the id",
    ],
    [
      "GET",
      "/tasks/abc:SUBSCRIBE",
      { match: "GET /tasks/{id=*}", params: { id: "abc:SUBSCRIBE" } },
      "verbs are case-sensitive",
    ],
    // A path that ends in a known verb and fits a verb route is a call of that custom method, whatever
    // the request method: verb-less routes are no longer candidates (so no GetTask with id "x:cancel").
    ["GET", "/tasks/x:cancel", { allow: ["POST"] }, "cancel is POST-only"],
    ["PATCH", "/tasks/x:subscribe", { allow: ["GET", "POST"] }, "subscribe is GET and POST"],
    [
      "GET",
      "/tasks/message:send",
      { allow: ["POST"] },
      "fits /{tenant}/message:send (tenant 'tasks')",
    ],
    ["GET", "/message:send", { allow: ["POST"] }, "SendMessage is POST"],
    // An unknown verb does not claim the path, so GetTask (GET) matches it: 405, not 404.
    // (The brief asked for not-found here; that contradicts "405 when a route of another method matches the path".)
    [
      "POST",
      "/tasks/abc:frobnicate",
      { allow: ["GET"] },
      "GET /tasks/{id} matches with id abc:frobnicate",
    ],
    ["POST", "/tasks/abc%3Acancel", { allow: ["GET"] }, "encoded colon: not the cancel verb"],
    // --- wrong method ---
    ["DELETE", "/tasks/abc", { allow: ["GET"] }, "GetTask only"],
    ["PUT", "/message:send", { allow: ["POST"] }, "SendMessage only"],
    ["PUT", "/acme/message:send", { allow: ["POST"] }, "tenant SendMessage only"],
    ["DELETE", "/tasks", { allow: ["GET"] }, "ListTasks only"],
    ["POST", "/extendedAgentCard", { allow: ["GET"] }, "GetExtendedAgentCard only"],
    [
      "POST",
      "/tasks/t/pushNotificationConfigs/c",
      { allow: ["DELETE", "GET"] },
      "Get and Delete config, sorted",
    ],
    [
      "PUT",
      "/tasks/t/pushNotificationConfigs",
      { allow: ["GET", "POST"] },
      "List and Create config",
    ],
    [
      "get",
      "/tasks/abc",
      { allow: ["GET"] },
      "method comparison is exact (the server upper-cases)",
    ],
    // --- not found ---
    ["GET", "/nope", "not-found", "unknown literal"],
    ["POST", "/nope", "not-found", "unknown literal"],
    ["GET", "/tasks/a/b", "not-found", "no 3-segment pattern fits"],
    ["GET", "/a/b/c/d/e/f", "not-found", "too long"],
    ["GET", "/", "not-found", "no root route"],
    ["GET", "/tasks/", "not-found", "trailing slash: empty segment"],
    ["GET", "/tasks//x", "not-found", "empty segment"],
    ["GET", "//tasks", "not-found", "empty first segment"],
    ["GET", "//", "not-found", "only empty segments"],
    ["GET", "/tasks/abc/", "not-found", "trailing slash"],
    ["POST", "/message:send/", "not-found", "trailing slash after a verb"],
    ["GET", "/t%61sks/abc", "not-found", "literals compare against the raw segment"],
    ["GET", "/Tasks/abc", "not-found", "literals are case-sensitive"],
    ["POST", "/message:frob", "not-found", "unknown verb, no tenant"],
    ["POST", "/:send", "not-found", "empty prefix before the verb"],
    // --- bad paths ---
    [
      "GET",
      "/tasks/a%2Fb",
      { match: "GET /tasks/{id=*}", params: { id: "a/b" } },
      "%2F inside a one-segment variable decodes",
    ],
    [
      "GET",
      "/tasks/a%2fb",
      { match: "GET /tasks/{id=*}", params: { id: "a/b" } },
      "lower-case %2f",
    ],
    [
      "GET",
      "/acme%2Fx/tasks/abc",
      { match: "GET /{tenant}/tasks/{id=*}", params: { tenant: "acme/x", id: "abc" } },
      "%2F in the tenant",
    ],
    [
      "DELETE",
      "/acme/tasks/t/pushNotificationConfigs/a%2Fb",
      {
        match: "DELETE /{tenant}/tasks/{task_id=*}/pushNotificationConfigs/{id=*}",
        params: { tenant: "acme", task_id: "t", id: "a/b" },
      },
      "%2F in the config id",
    ],
    [
      "GET",
      "/tasks/%zz",
      { badPath: /malformed percent-encoding in path variable "id"/ },
      "bad escape",
    ],
    [
      "GET",
      "/tasks/abc%",
      { badPath: /malformed percent-encoding in path variable "id"/ },
      "truncated escape",
    ],
    ["GET", "/tasks/abc%4", { badPath: /malformed percent-encoding/ }, "truncated escape"],
    ["GET", "/tasks/%E9", { badPath: /malformed percent-encoding/ }, "not UTF-8"],
    ["GET", "/tasks/%C3%28", { badPath: /malformed percent-encoding/ }, "invalid UTF-8 sequence"],
    ["POST", "/tasks/%zz:cancel", { badPath: /"id"/ }, "bad escape before a verb"],
    ["GET", "tasks/abc", { badPath: /must start with "\/"/ }, "no leading slash"],
    ["GET", "", { badPath: /must start with "\/"/ }, "empty path"],
    ["GET", "?x=1", { badPath: /must start with "\/"/ }, "only a query"],
    ["GET", "*", { badPath: /must start with "\/"/ }, "asterisk-form"],
    ["GET", "http://host/tasks", { badPath: /must start with "\/"/ }, "absolute-form"],
    // --- query strings and fragments are ignored ---
    [
      "GET",
      "/tasks/abc?historyLength=3",
      { match: "GET /tasks/{id=*}", params: { id: "abc" } },
      "query stripped",
    ],
    ["GET", "/tasks?pageSize=10&status=done", { match: "GET /tasks" }, "query stripped"],
    [
      "GET",
      "/tasks/abc#frag",
      { match: "GET /tasks/{id=*}", params: { id: "abc" } },
      "fragment stripped",
    ],
    [
      "GET",
      "/tasks/abc?x=/y#z",
      { match: "GET /tasks/{id=*}", params: { id: "abc" } },
      "slashes in the query",
    ],
    ["GET", "/tasks/abc#x?y", { match: "GET /tasks/{id=*}", params: { id: "abc" } }, "# before ?"],
    [
      "GET",
      "/tasks/abc:subscribe?x=1",
      { match: "GET /tasks/{id=*}:subscribe", params: { id: "abc" } },
      "verb then query",
    ],
    ["GET", "/tasks/?x", "not-found", "trailing slash before the query"],
    // --- percent-decoding ---
    ["GET", "/tasks/%C3%A9", { match: "GET /tasks/{id=*}", params: { id: "é" } }, "UTF-8 é"],
    [
      "GET",
      "/tasks/caf%C3%A9%20au%20lait",
      { match: "GET /tasks/{id=*}", params: { id: "café au lait" } },
      "mixed",
    ],
    [
      "GET",
      "/tasks/%F0%9F%98%80",
      { match: "GET /tasks/{id=*}", params: { id: "😀" } },
      "astral plane",
    ],
    [
      "GET",
      "/tasks/a+b",
      { match: "GET /tasks/{id=*}", params: { id: "a+b" } },
      "'+' is not a space in a path",
    ],
    [
      "GET",
      "/tasks/a%2Bb%3F%23",
      { match: "GET /tasks/{id=*}", params: { id: "a+b?#" } },
      "encoded reserved characters",
    ],
    ["GET", "/tasks/%25", { match: "GET /tasks/{id=*}", params: { id: "%" } }, "encoded percent"],
    [
      "GET",
      "/ten%20ant/tasks/%C3%A9:subscribe",
      { match: "GET /{tenant}/tasks/{id=*}:subscribe", params: { tenant: "ten ant", id: "é" } },
      "decoded tenant and id",
    ],
  ];

  it.each(cases)("%s %j → %j (%s)", (method, path, expected) => {
    check(a2a, method, path, expected);
  });
});

describe("generic patterns", () => {
  const table = buildTable([
    ["GET", "/", "Root"],
    ["GET", "/files", "ListFiles"],
    ["GET", "/files/{path=**}", "GetFile"],
    ["POST", "/files/{path=**}:download", "Download"],
    ["GET", "/v1/{name=projects/*/tasks/*}", "GetNested"],
    ["GET", "/v1/{name=projects/*/tasks/*}:run", "RunNested"],
    ["GET", "/v2/{a}/x/{b.c=**}", "Mixed"],
    ["GET", "/v3/{name}:bla:baa", "ColonVerb"],
    ["GET", "/v4/{__proto__}", "Proto"],
    ["PUT", "/v4/{x}", "Put"],
    ["PATCH", "/v4/{y}", "Patch"],
    ["PATCH", "/v4/{z}", "PatchShadowed"],
  ] as const);

  const cases: [string, string, Expect][] = [
    ["GET", "/", { match: "GET /" }],
    ["GET", "/?q", { match: "GET /" }],
    ["GET", "/#f", { match: "GET /" }],
    // "/files" is exact, so it precedes "/files/{path=**}" even though "**" may capture nothing
    ["GET", "/files", { match: "GET /files" }],
    ["GET", "/files/a", { match: "GET /files/{path=**}", params: { path: "a" } }],
    ["GET", "/files/a/b%20c/d", { match: "GET /files/{path=**}", params: { path: "a/b c/d" } }],
    ["GET", "/files/a:b/c:d", { match: "GET /files/{path=**}", params: { path: "a:b/c:d" } }],
    ["GET", "/files/a/", "not-found"],
    ["GET", "/files/a//b", "not-found"],
    ["GET", "/files/a%2Fb", { badPath: /"path".*encoded "\/"/ }],
    ["GET", "/files/ok/%zz", { badPath: /"path"/ }],
    [
      "POST",
      "/files/a/b:download",
      { match: "POST /files/{path=**}:download", params: { path: "a/b" } },
    ],
    ["POST", "/files:download", { match: "POST /files/{path=**}:download", params: { path: "" } }],
    [
      "POST",
      "/files/a%3Ab:download",
      { match: "POST /files/{path=**}:download", params: { path: "a:b" } },
    ],
    ["GET", "/files/a/b:download", { allow: ["POST"] }],
    ["POST", "/files/a", { allow: ["GET"] }],
    ["DELETE", "/files", { allow: ["GET"] }],
    [
      "GET",
      "/v1/projects/p1/tasks/t1",
      { match: "GET /v1/{name=projects/*/tasks/*}", params: { name: "projects/p1/tasks/t1" } },
    ],
    [
      "GET",
      "/v1/projects/p%C3%A9/tasks/t1",
      { match: "GET /v1/{name=projects/*/tasks/*}", params: { name: "projects/pé/tasks/t1" } },
    ],
    [
      "GET",
      "/v1/projects/p1/tasks/t1:run",
      { match: "GET /v1/{name=projects/*/tasks/*}:run", params: { name: "projects/p1/tasks/t1" } },
    ],
    ["GET", "/v1/projects/p1/tasks", "not-found"],
    ["GET", "/v1/projects/p1/tasks/t1/x", "not-found"],
    ["GET", "/v1/other/p1/tasks/t1", "not-found"],
    ["GET", "/v1/projects/p%2F1/tasks/t1", { badPath: /"name"/ }],
    ["GET", "/v2/A/x", { match: "GET /v2/{a}/x/{b.c=**}", params: { a: "A", "b.c": "" } }],
    [
      "GET",
      "/v2/A/x/1/2/3",
      { match: "GET /v2/{a}/x/{b.c=**}", params: { a: "A", "b.c": "1/2/3" } },
    ],
    ["GET", "/v3/n:bla:baa", { match: "GET /v3/{name}:bla:baa", params: { name: "n" } }],
    ["GET", "/v3/n:baa", "not-found"],
    ["GET", "/v3/:bla:baa", "not-found"],
    ["PATCH", "/v4/x", { match: "PATCH /v4/{y}", params: { y: "x" } }],
    ["POST", "/v4/x", { allow: ["GET", "PATCH", "PUT"] }],
  ];
  it.each(cases)("%s %j → %j", (method, path, expected) => {
    check(table, method, path, expected);
  });

  it("a __proto__ field is an own property and does not touch the prototype", () => {
    const m = matchRoute(table, "GET", "/v4/value");
    expect(m.kind).toBe("match");
    if (m.kind !== "match") return;
    expect(Object.keys(m.params)).toEqual(["__proto__"]);
    // biome-ignore lint/suspicious/noProto: the test is that a variable named __proto__ is a plain key
    expect(m.params["__proto__"]).toBe("value");
    expect(Object.getPrototypeOf(m.params)).toBe(null);
  });

  it("an empty table finds nothing but still validates the path", () => {
    const empty: RouteTable = { routes: [] };
    expect(matchRoute(empty, "GET", "/")).toEqual({ kind: "not-found" });
    expect(matchRoute(empty, "GET", "/a/b")).toEqual({ kind: "not-found" });
    expect(matchRoute(empty, "GET", "a")).toMatchObject({ kind: "bad-path" });
  });

  it("allow lists each method once, sorted", () => {
    const t = buildTable([
      ["POST", "/a/{x}", "A"],
      ["DELETE", "/a/{y}", "B"],
      ["POST", "/{z}/b", "C"],
      ["GET", "/a/b", "D"],
    ] as const);
    expect(matchRoute(t, "PUT", "/a/b")).toEqual({
      kind: "method-not-allowed",
      allow: ["DELETE", "GET", "POST"],
    });
  });
});

describe("round trip: encoded values come back decoded on the route they were built for", () => {
  const rng = seededRandom;
  const chars = [
    "a",
    "Z",
    "7",
    "-",
    "_",
    ".",
    "~",
    ":",
    "é",
    " ",
    "%",
    "?",
    "#",
    "+",
    "😀",
    "@",
    "=",
  ];

  it.each(a2a.routes.map((r) => [r.method, r.template, r] as const))(
    "%s %s",
    (method, _template, route) => {
      const next = rng(route.template.length * 31 + method.length);
      for (let n = 0; n < 200; n++) {
        const params: Record<string, string> = {};
        const segs = route.pattern.segments.map((s, i) => {
          if (s !== "*") return s;
          const v = route.pattern.variables.find((x) => x.start === i)!;
          let value = "x"; // a leading letter keeps values distinct from the literal "tasks" etc.
          const len = Math.floor(next() * 6);
          for (let k = 0; k < len; k++) value += chars[Math.floor(next() * chars.length)]!;
          params[v.field] = value;
          return encodeURIComponent(value);
        });
        const path =
          "/" + segs.join("/") + (route.pattern.verb === undefined ? "" : ":" + route.pattern.verb);
        const m = matchRoute(a2a, method, path);
        expect(summary(m), path).toEqual({ match: `${route.method} ${route.template}`, params });
      }
    },
  );
});
