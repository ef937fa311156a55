import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { JsonObject } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { parseHttpTemplate } from "../../../plugin/src/model/http-template.js";
import { sortRoutes } from "../../../plugin/src/model/route-order.js";
import {
  matchRoute,
  type Route,
  type RouteTable,
} from "../../../runtime/src/rest/route-matcher.js";
import {
  RestRequestError,
  assembleRequest,
  expandPath,
  routeLiterals,
  type RestRequestShape,
} from "../../../runtime/src/rest/request-shape.js";
import { repoRoot } from "../../support/plugin-runner.js";

/**
 * `**` followed by further segments, as Google's own APIs write it: the real templates of
 * google/firestore/v1/firestore.proto (read from google-proto-files), compiled, ordered and
 * matched as generated code does, and built back by the client's expandPath. Table driven.
 */

/** Every `google.api.http` binding of firestore.proto: [method, template, rpc, body], rule and additional bindings. */
function firestoreBindings(): [string, string, string, string][] {
  const text = readFileSync(
    join(repoRoot, "node_modules/google-proto-files/google/firestore/v1/firestore.proto"),
    "utf8",
  );
  const out: [string, string, string, string][] = [];
  let rpc = "";
  for (const line of text.split("\n")) {
    const r = /^\s*rpc (\w+)\(/.exec(line);
    if (r !== null) rpc = r[1]!;
    const m = /^\s*(get|put|post|patch|delete):\s*"([^"]+)"/.exec(line);
    if (m !== null) out.push([m[1]!.toUpperCase(), m[2]!, rpc, ""]);
    const b = /^\s*body:\s*"([^"]*)"/.exec(line);
    if (b !== null) out[out.length - 1]![3] = b[1]!;
  }
  return out;
}

function table(
  bindings: readonly (readonly [string, string, string, string])[],
  skip: readonly string[] = [],
): RouteTable {
  const routes: Route[] = bindings
    .filter(([, , rpc]) => !skip.includes(rpc))
    .map(([method, template, operation, body]) => ({
      method,
      template,
      pattern: parseHttpTemplate(template),
      operation,
      body,
    }));
  return { routes: sortRoutes(routes) };
}

const DB = "projects/p/databases/d";

describe("Firestore's real templates", () => {
  const bindings = firestoreBindings();

  it("are read from firestore.proto and all compile (the ones with segments after ** included)", () => {
    expect(bindings.length).toBeGreaterThan(20);
    const mid = bindings
      .filter(([, t]) => /\*\*\}\//.test(t))
      .map(([m, t, rpc]) => `${m} ${t} ${rpc}`);
    expect(mid).toEqual([
      "GET /v1/{parent=projects/*/databases/*/documents/*/**}/{collection_id} ListDocuments",
      "POST /v1/{parent=projects/*/databases/*/documents/**}/{collection_id} CreateDocument",
    ]);
    for (const [, template] of bindings)
      expect(() => parseHttpTemplate(template), template).not.toThrow();
  });

  type Case = readonly [
    method: string,
    path: string,
    rpc: string,
    params: Record<string, string> | undefined,
  ];
  const full: readonly Case[] = [
    // ListDocuments: `**` takes what lies between documents/* and the last segment (zero or more).
    [
      "GET",
      `/v1/${DB}/documents/users`,
      "ListDocuments",
      { parent: `${DB}/documents`, collection_id: "users" },
    ],
    [
      "GET",
      `/v1/${DB}/documents/users/alice/posts`,
      "ListDocuments",
      { parent: `${DB}/documents/users/alice`, collection_id: "posts" },
    ],
    [
      "GET",
      `/v1/${DB}/documents/a/b/c/d/e`,
      "ListDocuments",
      { parent: `${DB}/documents/a/b/c/d`, collection_id: "e" },
    ],
    // …and so takes every GET GetDocument could: the longer pattern is tried first (route-order.ts).
    [
      "GET",
      `/v1/${DB}/documents/users/alice`,
      "ListDocuments",
      { parent: `${DB}/documents/users`, collection_id: "alice" },
    ],
    [
      "DELETE",
      `/v1/${DB}/documents/users/alice`,
      "DeleteDocument",
      { name: `${DB}/documents/users/alice` },
    ],
    ["DELETE", `/v1/${DB}/documents/users`, "DeleteDocument", { name: `${DB}/documents/users` }],
    [
      "PATCH",
      `/v1/${DB}/documents/users/alice/posts/1`,
      "UpdateDocument",
      { "document.name": `${DB}/documents/users/alice/posts/1` },
    ],
    // CreateDocument: `documents/**` may take nothing, then {collection_id}.
    [
      "POST",
      `/v1/${DB}/documents/users`,
      "CreateDocument",
      { parent: `${DB}/documents`, collection_id: "users" },
    ],
    [
      "POST",
      `/v1/${DB}/documents/users/alice/posts`,
      "CreateDocument",
      { parent: `${DB}/documents/users/alice`, collection_id: "posts" },
    ],
    // Verbs after a `**` variable: the verb route wins over CreateDocument.
    ["POST", `/v1/${DB}/documents:runQuery`, "RunQuery", { parent: `${DB}/documents` }],
    [
      "POST",
      `/v1/${DB}/documents/users/alice:runQuery`,
      "RunQuery",
      { parent: `${DB}/documents/users/alice` },
    ],
    [
      "POST",
      `/v1/${DB}/documents/users/alice:listCollectionIds`,
      "ListCollectionIds",
      { parent: `${DB}/documents/users/alice` },
    ],
    ["POST", `/v1/${DB}/documents:commit`, "Commit", { database: DB }],
    // Percent-decoding per segment, wherever `**` ends.
    [
      "GET",
      `/v1/${DB}/documents/u%20s/a%C3%BC/p`,
      "ListDocuments",
      { parent: `${DB}/documents/u s/aü`, collection_id: "p" },
    ],
    // Not enough segments, a wrong literal, an empty segment.
    ["GET", `/v1/${DB}/documents`, "not-found", undefined],
    ["GET", `/v1/projects/p/databasez/d/documents/a/b`, "not-found", undefined],
    ["GET", `/v1/${DB}/documents/a//b`, "not-found", undefined],
  ];
  it.each<Case>(full)("%s %s → %s", (method, path, rpc, params) => {
    const m = matchRoute(table(bindings), method, path);
    if (rpc === "not-found") {
      expect(m.kind).toBe("not-found");
      return;
    }
    expect(m.kind).toBe("match");
    if (m.kind !== "match") return;
    expect(m.route.operation).toBe(rpc);
    if (params !== undefined) expect({ ...m.params }).toEqual(params);
  });

  const skipped: readonly Case[] = [
    [
      "GET",
      `/v1/${DB}/documents/users/alice`,
      "GetDocument",
      { name: `${DB}/documents/users/alice` },
    ],
    [
      "GET",
      `/v1/${DB}/documents/users/alice/posts/1`,
      "GetDocument",
      { name: `${DB}/documents/users/alice/posts/1` },
    ],
    ["GET", `/v1/${DB}/documents/users`, "GetDocument", { name: `${DB}/documents/users` }],
  ];
  it.each<Case>(skipped)(
    "with ListDocuments' rules skipped (skip_http_rules): %s %s → %s",
    (method, path, rpc, params) => {
      const m = matchRoute(table(bindings, ["ListDocuments"]), method, path);
      expect(m.kind === "match" ? [m.route.operation, { ...m.params }] : m.kind).toEqual([
        rpc,
        params,
      ]);
    },
  );
});

describe("expandPath and matchRoute agree on templates with segments after **", () => {
  const str = (name: string) => ({ name, json: name, kind: "string" as const });
  const shape: RestRequestShape = {
    fields: [str("parent"), str("collection_id"), str("path"), str("name"), str("revision")],
  };
  const route = (method: string, template: string): Route => ({
    method,
    template,
    pattern: parseHttpTemplate(template),
    operation: template,
    body: "",
  });

  type Case = readonly [template: string, request: JsonObject, path: string];
  const cases: readonly Case[] = [
    [
      "/v1/{parent=projects/*/databases/*/documents/*/**}/{collection_id}",
      { parent: `${DB}/documents/users`, collection_id: "c" },
      `/v1/${DB}/documents/users/c`,
    ],
    [
      "/v1/{parent=projects/*/databases/*/documents/*/**}/{collection_id}",
      { parent: `${DB}/documents/u/a/p/b`, collection_id: "c" },
      `/v1/${DB}/documents/u/a/p/b/c`,
    ],
    [
      "/v1/{parent=projects/*/databases/*/documents/**}/{collection_id}",
      { parent: `${DB}/documents`, collection_id: "users" },
      `/v1/${DB}/documents/users`,
    ],
    [
      "/v1/{parent=projects/*/databases/*/documents/**}/{collection_id}",
      { parent: `${DB}/documents/a b/ü`, collection_id: "c/d" },
      `/v1/${DB}/documents/a%20b/%C3%BC/c%2Fd`,
    ],
    [
      "/v2/{path=files/**/head}/revisions/{revision}",
      { path: "files/head", revision: "3" },
      "/v2/files/head/revisions/3",
    ],
    [
      "/v2/{path=files/**/head}/revisions/{revision}",
      { path: "files/a/b/head", revision: "3" },
      "/v2/files/a/b/head/revisions/3",
    ],
    [
      "/v2/{path=files/**/head}/revisions/{revision}",
      { path: "files/head/head", revision: "3" },
      "/v2/files/%68ead/head/revisions/3",
    ],
    ["/v2/trees/{path=**}/meta:describe", { path: "a/b:c" }, "/v2/trees/a/b%3Ac/meta:describe"],
    ["/{name=**}/x", { name: "a" }, "/a/x"],
  ];
  it.each<Case>(cases)("%s %j → %s → the same request", (template, request, path) => {
    const r = route("GET", template);
    const routes: RouteTable = { routes: [r] };
    expect(expandPath(r, shape, request, routeLiterals(routes.routes))).toBe(path);
    const m = matchRoute(routes, "GET", path);
    expect(m.kind).toBe("match");
    if (m.kind !== "match") return;
    expect(assembleRequest(r, shape, m.params, "", undefined)).toEqual(request);
  });

  const refused: readonly Case[] = [
    [
      "/v2/{path=files/**/head}/revisions/{revision}",
      { path: "files/a/tail", revision: "1" },
      'path "files/a/tail" does not match files/**/head',
    ],
    [
      "/v2/{path=files/**/head}/revisions/{revision}",
      { path: "head", revision: "1" },
      'path "head" does not match',
    ],
    [
      "/v2/{path=files/**/head}/revisions/{revision}",
      { path: "files//head", revision: "1" },
      'path "files//head" does not match',
    ],
    [
      "/v2/{path=files/**/head}/revisions/{revision}",
      { path: "files/../head", revision: "1" },
      'path "files/../head" cannot be sent in a URL path',
    ],
    [
      "/v1/{parent=projects/*/databases/*/documents/*/**}/{collection_id}",
      { parent: `${DB}/documents`, collection_id: "c" },
      "does not match projects/*/databases/*/documents/*/**",
    ],
  ];
  it.each<Case>(refused)("%s %j is refused: %s", (template, request, message) => {
    const r = route("GET", template);
    let thrown: unknown;
    try {
      expandPath(r, shape, request);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(RestRequestError);
    expect((thrown as Error).message).toContain(message);
  });

  it("an encoded / in a segment taken by ** (or after it, inside the variable) is a bad path", () => {
    const r = route("GET", "/v2/{path=files/**/head}/revisions/{revision}");
    expect(matchRoute({ routes: [r] }, "GET", "/v2/files/a%2Fb/head/revisions/1")).toMatchObject({
      kind: "bad-path",
    });
    expect(matchRoute({ routes: [r] }, "GET", "/v2/files/a/head/revisions/1%2F2")).toMatchObject({
      kind: "match",
      params: { path: "files/a/head", revision: "1/2" },
    });
  });
});
