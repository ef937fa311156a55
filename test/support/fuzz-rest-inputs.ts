// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * fast-check arbitraries of HTTP+JSON requests to the example agent (below /a2a/rest): the
 * generated routes (test/../generated-example/gen/a2a_a2a_rest_routes.ts) with their variables
 * filled by the known task ("@task@"), odd text and percent-encodings (`%2F`, `%zz`, `..`,
 * unicode), perhaps a tenant; paths bent (verb changed, segments added or dropped, slashes
 * doubled, case changed); the route's method or another; query parameters of the operation and
 * others with hostile values (historyLength=-1, pageSize=1e99, repeated keys); bodies valid,
 * mutated, random, empty or bytes; and the A2A headers; now and then a SendMessage at a size limit
 * or a request for a large answer that is never read (see {@link restInput}).
 */
import fc from "fast-check";
import { A2AServiceRoutes } from "../../generated-example/gen/a2a_a2a_rest_routes.js";
import { A2AServiceOperationsByName } from "../../generated-example/gen/a2a_a2a_handler.js";
import type { HttpInput } from "./fuzz-http.js";
import {
  authorizationValue,
  sometimes,
  extensionsValue,
  headerValue,
  httpMethod,
  jsonContentType,
  nastyText,
  numberText,
  strayHeaders,
  versionValue,
} from "./fuzz-headers.js";
import { KNOWN_TASK, normalHeaders, paramsOf, urlSafe } from "./fuzz-jsonrpc-inputs.js";
import { BIG_TENANT, withRareInputs } from "./fuzz-sizes.js";
import { BIG_TASK } from "./fuzz-slow-readers.js";

/** Where the example agent mounts HTTP+JSON. */
export const REST_BASE = "/a2a/rest";

const ROUTES = A2AServiceRoutes.routes;

/** A path variable's value, as it goes in the path (percent-encoded, or raw and odd). */
const segmentValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 12, arbitrary: fc.constant(KNOWN_TASK) },
  {
    weight: 4,
    arbitrary: nastyText.map((t) => encodeURIComponent(t.replace(/[\ud800-\udfff]/g, "x"))),
  },
  { weight: 2, arbitrary: nastyText.map(urlSafe) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "",
      ".",
      "..",
      "%",
      "%2",
      "%zz",
      "%2F",
      "%2f..%2f",
      "a%00b",
      "%3A",
      "a:b",
      "x%3Acancel",
      "%E2%82",
      "%C0%80",
      "~",
      "*",
      "{id}",
      "tasks",
      "message:send",
    ),
  },
);

/** Query values: numbers JavaScript cannot hold, odd text, encodings. */
const queryValue: fc.Arbitrary<string> = fc.oneof(
  numberText.map(encodeURIComponent),
  nastyText.map(urlSafe),
  fc.constantFrom(
    "",
    "%",
    "%zz",
    "true",
    "false",
    "TASK_STATE_COMPLETED",
    "completed",
    "2024-01-01T00:00:00Z",
    "yesterday",
    "+",
    "1%2C2",
    KNOWN_TASK,
  ),
);
const QUERY_KEYS = [
  "historyLength",
  "history_length",
  "pageSize",
  "page_size",
  "pageToken",
  "contextId",
  "status",
  "statusTimestampAfter",
  "includeArtifacts",
  "tenant",
  "id",
  "taskId",
  "A2A-Version",
  "a2a-version",
  "$alt",
  "metadata",
  "message.messageId",
  "configuration.historyLength",
];
const query: fc.Arbitrary<string> = fc
  .array(
    fc.tuple(
      fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(...QUERY_KEYS) },
        { weight: 1, arbitrary: nastyText.map(urlSafe) },
      ),
      queryValue,
      fc.boolean(),
    ),
    { maxLength: 4 },
  )
  .map((pairs) => pairs.map(([k, v, bare]) => (bare && v === "" ? k : `${k}=${v}`)).join("&"));

type PathChange =
  | "none"
  | "verb"
  | "case"
  | "slash"
  | "double-slash"
  | "extra-segment"
  | "drop-segment"
  | "encode-colon"
  | "dot-segment";

/** A path below /a2a/rest: a route's template filled in, perhaps bent. Returns the route's method too. */
const routePath: fc.Arbitrary<{ path: string; method: string; body: boolean; operation: string }> =
  fc
    .record({
      route: fc.constantFrom(...ROUTES),
      values: fc.array(segmentValue, { minLength: 3, maxLength: 3 }),
      change: fc.oneof(
        { weight: 24, arbitrary: fc.constant<PathChange>("none") },
        {
          weight: 8,
          arbitrary: fc.constantFrom<PathChange>(
            "verb",
            "case",
            "slash",
            "double-slash",
            "extra-segment",
            "drop-segment",
            "encode-colon",
            "dot-segment",
          ),
        },
      ),
      verb: fc.constantFrom(
        ":cancel",
        ":subscribe",
        ":send",
        ":stream",
        ":",
        "::cancel",
        ":Cancel",
        ":cancel:cancel",
        ":foo",
        "%3Acancel",
      ),
      extra: segmentValue,
    })
    .map(({ route, values, change, verb, extra }) => {
      let i = 0;
      let path = route.template.replace(/\{(\w+)(?:=[^}]*)?\}/g, (_m, name: string) =>
        name === "tenant" ? (values[2] === KNOWN_TASK ? "t1" : values[2]!) : values[i++ % 2]!,
      );
      switch (change) {
        case "verb":
          path = path.includes(":") ? path.replace(/:[a-z]+$/, verb) : `${path}${verb}`;
          break;
        case "case":
          path = path.replace(/tasks|message|pushNotificationConfigs|extendedAgentCard/, (w) =>
            w.toUpperCase(),
          );
          break;
        case "slash":
          path = `${path}/`;
          break;
        case "double-slash":
          path = path.replace("/", "//");
          break;
        case "extra-segment":
          path = `${path}/${extra}`;
          break;
        case "drop-segment":
          path = path.split("/").slice(0, -1).join("/") || "/";
          break;
        case "encode-colon":
          path = path.replace(":", "%3A");
          break;
        case "dot-segment":
          path = path.replace("/tasks/", "/tasks/../tasks/");
          break;
      }
      return {
        path: `${REST_BASE}${path}`,
        method: route.method,
        body: route.body !== "",
        operation: route.operation,
      };
    });

/** A body for an operation: its request (valid, mutated, pointing at the known task), random JSON, bytes, or nothing. */
const bodyFor = (operation: string): fc.Arbitrary<Buffer> => {
  const desc =
    A2AServiceOperationsByName[operation as keyof typeof A2AServiceOperationsByName]?.input;
  return fc.oneof(
    {
      weight: 10,
      arbitrary:
        desc === undefined
          ? fc.constant(Buffer.from("{}"))
          : paramsOf(desc).map((t) => Buffer.from(t)),
    },
    { weight: 2, arbitrary: fc.constant(Buffer.alloc(0)) },
    { weight: 1, arbitrary: fc.json({ maxDepth: 3 }).map((t) => Buffer.from(t)) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 48 }).map((b) => Buffer.from(b)) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          "{",
          "[]",
          "null",
          '{"a":1,"a":2}',
          "\ufeff{}",
          '{"message":null}',
          `${"[".repeat(200)}${"]".repeat(200)}`,
          '{"id":"\\ud800"}',
        )
        .map((t) => Buffer.from(t)),
    },
  );
};

/** A whole HTTP+JSON request. */
const plainRestInput: fc.Arbitrary<HttpInput> = routePath.chain((route) =>
  fc
    .record({
      method: httpMethod([route.method]),
      contentType: jsonContentType(["application/json", "application/a2a+json"]),
      version: sometimes(versionValue, 0.92),
      extensions: sometimes(extensionsValue, 0.1),
      authorization: sometimes(authorizationValue, 0.2),
      stray: sometimes(strayHeaders, 0.1),
      abortAfterMs: sometimes(fc.integer({ min: 0, max: 30 }), 0.015),
      query: fc.oneof(
        { weight: 3, arbitrary: fc.constant("") },
        { weight: 2, arbitrary: query },
        { weight: 1, arbitrary: headerValue(16).map(urlSafe) },
      ),
      body: route.body
        ? bodyFor(route.operation)
        : fc.oneof(
            { weight: 6, arbitrary: fc.constant(Buffer.alloc(0)) },
            { weight: 1, arbitrary: bodyFor(route.operation) },
          ),
    })
    .map((r): HttpInput => {
      const headers: [string, string][] = [];
      if (r.contentType !== undefined && (r.body.length > 0 || r.contentType === ""))
        headers.push(["content-type", r.contentType]);
      if (r.version !== undefined) headers.push(["a2a-version", r.version]);
      if (r.extensions !== undefined) headers.push(["a2a-extensions", r.extensions]);
      if (r.authorization !== undefined) headers.push(["authorization", r.authorization]);
      if (r.stray !== undefined) headers.push(...r.stray);
      const input: HttpInput = {
        method: r.method,
        path: route.path,
        query: r.query,
        headers,
        body: r.body.toString("base64"),
      };
      return r.abortAfterMs === undefined ? input : { ...input, abortAfterMs: r.abortAfterMs };
    }),
);

/**
 * An HTTP+JSON request: mostly {@link plainRestInput}; rarely a SendMessage at a size limit (test/support/fuzz-sizes.ts),
 * or a request for a large answer that the client never reads over a socket (GetTask of the big task, ListTasks with
 * artifacts: test/support/fuzz-slow-readers.ts).
 */
export const restInput: fc.Arbitrary<HttpInput> = withRareInputs(
  plainRestInput,
  (grow): HttpInput => ({
    method: "POST",
    path: `${REST_BASE}/message:send`,
    query: "",
    headers: [
      ["content-type", "application/json"],
      ["a2a-version", "1.0"],
    ],
    body: "",
    grow,
  }),
  fc.tuple(fc.boolean(), normalHeaders).map(
    ([get, headers]): HttpInput => ({
      method: "GET",
      path: get
        ? `${REST_BASE}/${BIG_TENANT}/tasks/${BIG_TASK}`
        : `${REST_BASE}/${BIG_TENANT}/tasks`,
      query: get ? "" : "pageSize=100&includeArtifacts=true",
      headers: (get ? headers.slice(0, 2) : headers).filter(([k]) => k !== "content-type"),
      body: "",
      neverRead: true,
    }),
  ),
);
