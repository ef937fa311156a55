import type { JsonObject } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { parseHttpTemplate } from "../../../plugin/src/model/http-template.js";
import {
  matchRoute,
  type Route,
  type RouteTable,
} from "../../../runtime/src/rest/route-matcher.js";
import {
  RestRequestError,
  assembleRequest,
  buildQuery,
  expandPath,
  routeLiterals,
  type RestPathField,
  type RestRequestShape,
} from "../../../runtime/src/rest/request-shape.js";
import { seededRandom } from "../../support/random.js";

/**
 * Path building (the REST client's expandPath) against the route compiler and matcher, table
 * driven: for many (template, request) pairs the built path matches the compiled route with
 * matchRoute, yields the request's values as params, and assembles back into the same request;
 * values that do not fit the variable's template are refused with a RestRequestError.
 */

function route(method: string, template: string, body = ""): Route {
  return { method, template, pattern: parseHttpTemplate(template), operation: template, body };
}

const str = (name: string, json = name) => ({ name, json, kind: "string" as const });

/** A shape whose path variables are the given field paths (nested ones precompiled as the plugin does). */
function shapeFor(
  paths: Record<string, Omit<RestPathField, "names" | "json"> & { json?: readonly string[] }> = {},
  top: RestRequestShape["fields"] = [],
): RestRequestShape {
  const out: Record<string, RestPathField> = {};
  for (const [field, info] of Object.entries(paths)) {
    const names = field.split(".");
    out[field] = {
      names,
      json: info.json ?? names,
      kind: info.kind,
      ...(info.zero === undefined ? {} : { zero: info.zero }),
    };
  }
  return { fields: top, paths: out };
}

/** expandPath → matchRoute → params, and back through assembleRequest. */
function roundTrip(
  r: Route,
  shape: RestRequestShape,
  json: JsonObject,
  table: RouteTable = { routes: [r] },
) {
  const path = expandPath(r, shape, json, routeLiterals(table.routes));
  const match = matchRoute(table, r.method, path);
  if (match.kind !== "match") throw new Error(`${path} did not match ${r.template}: ${match.kind}`);
  const query = buildQuery(r, shape, json);
  return {
    path,
    match,
    assembled: assembleRequest(match.route, shape, match.params, query, undefined),
  };
}

const NAME = shapeFor({}, [str("name"), str("parent"), str("id"), str("tenant")]);

/** The assembled request equals `json`, or `assembled` when the path carried a zero ProtoJSON had left out (the same message). */
type Case = readonly [
  template: string,
  shape: RestRequestShape,
  json: JsonObject,
  path: string,
  params: Record<string, string>,
  assembled?: JsonObject,
];

const CASES: readonly Case[] = [
  [
    "/v1/{name=shelves/*/books/*}",
    NAME,
    { name: "shelves/1/books/2" },
    "/v1/shelves/1/books/2",
    { name: "shelves/1/books/2" },
  ],
  [
    "/v1/{name=shelves/*/books/*}",
    NAME,
    { name: "shelves/shelves/books/books" },
    "/v1/shelves/%73helves/books/%62ooks",
    { name: "shelves/shelves/books/books" },
  ],
  [
    "/v1/{name=shelves/*/books/*}",
    NAME,
    { name: "shelves/a b/books/ü:x" },
    "/v1/shelves/a%20b/books/%C3%BC%3Ax",
    { name: "shelves/a b/books/ü:x" },
  ],
  [
    "/v1/{name=shelves/*/books/*}",
    NAME,
    { name: "shelves/%2F/books/%" },
    "/v1/shelves/%252F/books/%25",
    { name: "shelves/%2F/books/%" },
  ],
  [
    "/v1/{name=shelves/*}/books",
    NAME,
    { name: "shelves/s" },
    "/v1/shelves/s/books",
    { name: "shelves/s" },
  ],
  [
    "/v1/{name=projects/*/topics/*}",
    NAME,
    { name: "projects/p:1/topics/t?#" },
    "/v1/projects/p%3A1/topics/t%3F%23",
    { name: "projects/p:1/topics/t?#" },
  ],
  [
    "/v1/{name=operations/**}",
    NAME,
    { name: "operations/a/b/c" },
    "/v1/operations/a/b/c",
    { name: "operations/a/b/c" },
  ],
  [
    "/v1/{name=operations/**}",
    NAME,
    { name: "operations" },
    "/v1/operations",
    { name: "operations" },
  ],
  [
    "/v1/{name=operations/**}",
    NAME,
    { name: "operations/operations" },
    "/v1/operations/%6Fperations",
    { name: "operations/operations" },
  ],
  [
    "/v1/{name=operations/**}:cancel",
    NAME,
    { name: "operations/x:cancel" },
    "/v1/operations/x%3Acancel:cancel",
    { name: "operations/x:cancel" },
  ],
  [
    "/v1/{name=operations/**}:cancel",
    NAME,
    { name: "operations" },
    "/v1/operations:cancel",
    { name: "operations" },
  ],
  ["/v1/{name=**}", NAME, { name: "a/b/c" }, "/v1/a/b/c", { name: "a/b/c" }],
  ["/v1/{name=*/x/*}:verb", NAME, { name: "a/x/b" }, "/v1/a/x/b:verb", { name: "a/x/b" }],
  ["/v1/{name=operations}", NAME, { name: "operations" }, "/v1/operations", { name: "operations" }],
  [
    "/v1/{parent=projects/*/locations/*}/things/{id}",
    NAME,
    { parent: "projects/p/locations/l", id: "t/1" },
    "/v1/projects/p/locations/l/things/t%2F1",
    { parent: "projects/p/locations/l", id: "t/1" },
  ],
  [
    "/{tenant}/tasks/{id=*}:subscribe",
    NAME,
    { tenant: "team/a:b c", id: "ü" },
    "/team%2Fa%3Ab%20c/tasks/%C3%BC:subscribe",
    { tenant: "team/a:b c", id: "ü" },
  ],
  ["/v1/{id}", NAME, { id: "a/b:c%d" }, "/v1/a%2Fb%3Ac%25d", { id: "a/b:c%d" }],
  [
    "/v1/{book.name=shelves/*/books/*}",
    shapeFor({ "book.name": { kind: "string" } }),
    { book: { name: "shelves/1/books/2" } },
    "/v1/shelves/1/books/2",
    { "book.name": "shelves/1/books/2" },
  ],
  [
    "/v1/{a_b.c_d.e_f=x/*}/{d}",
    shapeFor({
      "a_b.c_d.e_f": { kind: "string", json: ["aB", "cD", "eF"] },
      d: { kind: "int", zero: "0" },
    }),
    { aB: { cD: { eF: "x/y" } }, d: -3 },
    "/v1/x/y/-3",
    { "a_b.c_d.e_f": "x/y", d: "-3" },
  ],
  [
    "/v1/{i}",
    shapeFor({ i: { kind: "int", zero: "0" } }),
    { i: 2147483647 },
    "/v1/2147483647",
    { i: "2147483647" },
  ],
  ["/v1/{i}", shapeFor({ i: { kind: "int", zero: "0" } }), {}, "/v1/0", { i: "0" }, { i: 0 }],
  [
    "/v1/{i}",
    shapeFor({ i: { kind: "int64", zero: "0" } }),
    { i: "-9223372036854775808" },
    "/v1/-9223372036854775808",
    { i: "-9223372036854775808" },
  ],
  [
    "/v1/{i}",
    shapeFor({ i: { kind: "int64", zero: "0" } }),
    { i: "18446744073709551615" },
    "/v1/18446744073709551615",
    { i: "18446744073709551615" },
  ],
  [
    "/v1/bools/{b}",
    shapeFor({ b: { kind: "bool", zero: "false" } }),
    { b: true },
    "/v1/bools/true",
    { b: "true" },
  ],
  [
    "/v1/bools/{b}",
    shapeFor({ b: { kind: "bool", zero: "false" } }),
    {},
    "/v1/bools/false",
    { b: "false" },
    { b: false },
  ],
  [
    "/v1/colors/{e}",
    shapeFor({ e: { kind: "enum", zero: "COLOR_UNSPECIFIED" } }),
    { e: "COLOR_RED" },
    "/v1/colors/COLOR_RED",
    { e: "COLOR_RED" },
  ],
  [
    "/v1/colors/{e}",
    shapeFor({ e: { kind: "enum", zero: "COLOR_UNSPECIFIED" } }),
    {},
    "/v1/colors/COLOR_UNSPECIFIED",
    { e: "COLOR_UNSPECIFIED" },
    { e: "COLOR_UNSPECIFIED" },
  ],
  [
    "/v1/colors/{e}",
    shapeFor({ e: { kind: "enum", zero: "COLOR_UNSPECIFIED" } }),
    { e: 7 },
    "/v1/colors/7",
    { e: "7" },
  ],
  [
    "/v1/f/{f}",
    shapeFor({ f: { kind: "float", zero: "0" } }),
    { f: -1.5e-7 },
    "/v1/f/-1.5e-7",
    { f: "-1.5e-7" },
  ],
  [
    "/v1/f/{f}",
    shapeFor({ f: { kind: "float", zero: "0" } }),
    { f: "NaN" },
    "/v1/f/NaN",
    { f: "NaN" },
  ],
  [
    "/v1/f/{f}",
    shapeFor({ f: { kind: "float", zero: "0" } }),
    { f: "-Infinity" },
    "/v1/f/-Infinity",
    { f: "-Infinity" },
  ],
  [
    "/v1/{s.id}/book",
    shapeFor({ "s.id": { kind: "int64", zero: "0" } }),
    { s: {} },
    "/v1/0/book",
    { "s.id": "0" },
    { s: { id: "0" } },
  ],
];

describe("built paths match the compiled route and give back the same values", () => {
  it.each(CASES.map((c) => [`${c[0]} ${JSON.stringify(c[2])}`, ...c] as const))(
    "%s",
    (_name, template, shape, json, path, params, assembledJson) => {
      const r = route("GET", template);
      const { path: built, match, assembled } = roundTrip(r, shape, json);
      expect(built).toBe(path);
      expect({ ...match.params }).toEqual(params);
      // the assembled request holds the same values (typed per proto3 JSON)
      expect(assembled).toEqual(assembledJson ?? json);
    },
  );
});

type Refusal = readonly [
  template: string,
  shape: RestRequestShape,
  json: JsonObject,
  message: RegExp,
];

const REFUSALS: readonly Refusal[] = [
  [
    "/v1/{name=shelves/*/books/*}",
    NAME,
    { name: "shelves/1" },
    /name "shelves\/1" does not match shelves\/\*\/books\/\* in the path/,
  ],
  ["/v1/{name=shelves/*/books/*}", NAME, { name: "shelves/1/books/2/3" }, /does not match/],
  ["/v1/{name=shelves/*/books/*}", NAME, { name: "shelves//books/2" }, /does not match/],
  ["/v1/{name=shelves/*/books/*}", NAME, { name: "shelves/1/books/" }, /does not match/],
  ["/v1/{name=shelves/*/books/*}", NAME, { name: "/shelves/1/books/2" }, /does not match/],
  ["/v1/{name=shelves/*/books/*}", NAME, { name: "Shelves/1/books/2" }, /does not match/],
  [
    "/v1/{name=shelves/*/books/*}",
    NAME,
    { name: "shelves/../books/2" },
    /cannot be sent in a URL path/,
  ],
  ["/v1/{name=shelves/*/books/*}", NAME, { name: "" }, /name is required to build the path/],
  ["/v1/{name=shelves/*/books/*}", NAME, {}, /name is required to build the path/],
  ["/v1/{name=operations/**}", NAME, { name: "operation/x" }, /does not match operations\/\*\*/],
  ["/v1/{name=operations/**}", NAME, { name: "operations/a//b" }, /does not match/],
  ["/v1/{name=operations/**}", NAME, { name: "operations/a/" }, /does not match/],
  ["/v1/{name=operations/**}", NAME, { name: "operations/./x" }, /cannot be sent in a URL path/],
  [
    "/v1/{name=operations}",
    NAME,
    { name: "operations/x" },
    /does not match operations in the path/,
  ],
  ["/v1/{id}", NAME, { id: ".." }, /id "\.\." cannot be sent in a URL path/],
  [
    "/v1/{book.name=shelves/*/books/*}",
    shapeFor({ "book.name": { kind: "string" } }),
    { book: { name: "shelves/1" } },
    /book\.name "shelves\/1" does not match/,
  ],
  [
    "/v1/{book.name=shelves/*/books/*}",
    shapeFor({ "book.name": { kind: "string" } }),
    { book: {} },
    /book\.name is required to build the path \/v1\/\{book\.name=shelves\/\*\/books\/\*\}/,
  ],
  [
    "/v1/{book.name=shelves/*/books/*}",
    shapeFor({ "book.name": { kind: "string" } }),
    {},
    /book\.name is required/,
  ],
  [
    "/v1/{book.name}",
    shapeFor({ "book.name": { kind: "string" } }),
    { book: { name: { x: 1 } } },
    /book\.name is required/,
  ],
];

describe("values that do not fit the template are refused, never sent to another route", () => {
  it.each(REFUSALS.map((c) => [`${c[0]} ${JSON.stringify(c[2])}`, ...c] as const))(
    "%s",
    (_name, template, shape, json, message) => {
      const r = route("GET", template);
      let error: unknown;
      try {
        expandPath(r, shape, json);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(RestRequestError);
      expect((error as RestRequestError).message).toMatch(message);
      expect((error as RestRequestError).field).toBe(
        message.source.startsWith("book") ? "book.name" : (Object.keys(json)[0] ?? "name"),
      );
    },
  );
});

describe("random values", () => {
  // Parts a wildcard may take: anything but "/" (which separates segments), non-empty, not a dot segment.
  const ALPHABET = [
    "a",
    "Z",
    "0",
    "-",
    "_",
    ".",
    "~",
    ":",
    "%",
    "%2F",
    " ",
    "+",
    "?",
    "#",
    "&",
    "=",
    "ü",
    "😀",
    "*",
    "@",
    "!",
    "$",
    "'",
    "(",
    ",",
    ";",
  ];
  const WORDS = ["shelves", "books", "operations", "files", "cancel", "x:cancel", "%73", "..."];
  const random = seededRandom(20261201);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const part = (): string => {
    if (random() < 0.3) return pick(WORDS);
    let s = "";
    const n = 1 + Math.floor(random() * 6);
    for (let i = 0; i < n; i++) s += pick(ALPHABET);
    return s === "." || s === ".." ? `${s}x` : s;
  };
  const table: RouteTable = {
    routes: [
      route("GET", "/v1/{name=shelves/*/books/*}:read"),
      route("GET", "/v1/{name=shelves/*/books/*}"),
      route("GET", "/v1/{name=shelves/*}/books"),
      route("GET", "/v1/{name=shelves/*}"),
      route("GET", "/v1/{name=files/**}"),
      route("GET", "/v1/{id}/static"),
    ],
  };
  const fill = (template: string): string =>
    template
      .split("/")
      .map((s) =>
        s === "*"
          ? part()
          : s === "**"
            ? Array.from({ length: Math.floor(random() * 4) }, part)
                .filter((p) => p !== "")
                .join("/")
            : s,
      )
      .join("/")
      .replace(/\/$/, "");

  it("500 names per route reach that route with the same value, among the other routes of the table", () => {
    const misses: string[] = [];
    for (const r of table.routes) {
      const v = r.pattern.variables[0]!;
      const template = r.template.slice(r.template.indexOf("=") + 1, r.template.indexOf("}"));
      for (let i = 0; i < 500; i++) {
        const value =
          v.field === "id" ? [part(), part()].join(random() < 0.5 ? "/" : ":") : fill(template);
        const json = { [v.field]: value };
        const path = expandPath(r, NAME, json, routeLiterals(table.routes));
        const match = matchRoute(table, "GET", path);
        if (match.kind !== "match" || match.route !== r || match.params[v.field] !== value) {
          misses.push(
            `${r.template} ${JSON.stringify(value)} → ${path} → ${match.kind === "match" ? `${match.route.template} ${JSON.stringify(match.params)}` : match.kind}`,
          );
        }
      }
    }
    expect(misses.slice(0, 10)).toEqual([]);
  });
});
