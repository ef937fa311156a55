// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The diff's change kinds (plugin/src/diff/change-kinds.ts): the ids are a stable contract, the
 * comparison emits every kind of the table, the verdicts come from the table's rules, and the
 * table of docs/updating-the-proto.md is the one rendered from it. A stale docs table fails here;
 * `A2A_WRITE_DOCS=1 npx vitest run test/plugin/diff/change-kinds.test.ts` rewrites it.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  breakingOf,
  CHANGE_KINDS,
  changeGroup,
  changeKinds,
  changeKindsTable,
  FACTS,
  GROUPS,
  type ChangeKindSpec,
} from "../../../plugin/src/diff/change-kinds.js";
import { repoRoot } from "../../support/repo-root.js";

const docsPage = join(repoRoot, "docs", "updating-the-proto.md");
const marker = "<!-- The table is rendered from plugin/src/diff/change-kinds.ts";

/** The `kind` values of the JSON output: a public contract (add ids, never rename or drop one). */
const CONTRACT_IDS = [
  "binding-added",
  "binding-removed",
  "enum-added",
  "enum-removed",
  "enum-value-added",
  "enum-value-number-changed",
  "enum-value-removed",
  "enum-value-renamed",
  "error-added",
  "error-grpc-status-changed",
  "error-http-status-changed",
  "error-jsonrpc-code-changed",
  "error-profile-changed",
  "error-reason-changed",
  "error-removed",
  "field-added",
  "field-behavior-changed",
  "field-deprecated",
  "field-json-name-changed",
  "field-number-changed",
  "field-oneof-changed",
  "field-presence-changed",
  "field-range-changed",
  "field-removed",
  "field-renamed",
  "field-required-added",
  "field-required-changed",
  "field-required-removed",
  "field-type-changed",
  "message-added",
  "message-removed",
  "oneof-rule-added",
  "oneof-rule-removed",
  "operation-added",
  "operation-deprecated",
  "operation-kind-changed",
  "operation-removed",
  "operation-renamed",
  "operation-request-changed",
  "operation-response-changed",
  "operation-task-runtime-changed",
  "route-grpc-changed",
  "route-http-added",
  "route-http-changed",
  "route-http-removed",
  "route-jsonrpc-changed",
  "service-added",
  "service-parameter-added",
  "service-parameter-changed",
  "service-parameter-removed",
  "service-removed",
  "task-runtime-changed",
  "types-moved",
];

describe("diff change kinds", () => {
  it("keeps every kind id of the contract", () => {
    expect(changeKinds().sort()).toEqual(CONTRACT_IDS);
  });

  it("lists the kinds by group in GROUPS order", () => {
    const order = changeKinds().map((k) => GROUPS.indexOf(changeGroup(k)));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(new Set(order).size).toBe(GROUPS.length);
  });

  it("gives each rule known facts, and says what `withdrawn` means where a rule names it", () => {
    for (const [kind, spec] of Object.entries(CHANGE_KINDS) as [string, ChangeKindSpec][]) {
      const facts = [spec.servers, spec.clients].flatMap((r) => (typeof r === "boolean" ? [] : r));
      for (const f of facts) expect(Object.keys(FACTS), kind).toContain(f);
      expect(spec.withdrawn !== undefined, `${kind}: withdrawn text`).toBe(
        facts.includes("withdrawn"),
      );
      expect(spec.description, kind).toMatch(/^[^\n|]+$/);
    }
  });

  it("is emitted, each kind, by compare.ts (no kind of the table is dead)", () => {
    const source = readFileSync(join(repoRoot, "plugin", "src", "diff", "compare.ts"), "utf8");
    const emitted = new Set([...source.matchAll(/\badd\(\s*"([a-z-]+)"/g)].map((m) => m[1]));
    expect([...emitted].sort()).toEqual(CONTRACT_IDS);
  });

  it("decides the verdict from the kind's rules and the change's facts", () => {
    expect(breakingOf("binding-added")).toEqual({ servers: false, clients: false });
    expect(breakingOf("service-removed")).toEqual({ servers: false, clients: true });
    expect(breakingOf("operation-added")).toEqual({ servers: true, clients: false });
    expect(breakingOf("field-removed")).toEqual({ servers: true, clients: true });
    expect(breakingOf("field-added", { required: false, request: true, response: true })).toEqual({
      servers: false,
      clients: false,
    });
    expect(breakingOf("field-added", { required: true, request: true, response: false })).toEqual({
      servers: false,
      clients: true,
    });
    expect(breakingOf("field-added", { required: true, request: false, response: true })).toEqual({
      servers: true,
      clients: false,
    });
    expect(breakingOf("field-required-removed", { request: true, response: false })).toEqual({
      servers: true,
      clients: false,
    });
    expect(
      breakingOf("field-range-changed", { request: true, widened: false, narrowed: true }),
    ).toEqual({ servers: false, clients: true });
    expect(
      breakingOf("field-range-changed", { request: false, widened: true, narrowed: true }),
    ).toEqual({ servers: false, clients: false });
    expect(breakingOf("route-jsonrpc-changed", { withdrawn: false })).toEqual({
      servers: false,
      clients: false,
    });
    expect(breakingOf("task-runtime-changed", { withdrawn: true })).toEqual({
      servers: true,
      clients: true,
    });
    expect(breakingOf("service-parameter-changed", { withdrawn: true })).toEqual({
      servers: false,
      clients: true,
    });
  });

  it("is the table of docs/updating-the-proto.md", () => {
    const page = readFileSync(docsPage, "utf8");
    const at = page.indexOf(marker);
    expect(at, `docs/updating-the-proto.md has the line starting ${marker}`).toBeGreaterThan(0);
    const start = page.indexOf("\n", at) + 1;
    const end = page.indexOf("\n\n", start);
    const table = changeKindsTable();
    if (process.env.A2A_WRITE_DOCS === "1" && page.slice(start, end) !== table)
      writeFileSync(docsPage, `${page.slice(0, start)}${table}${page.slice(end)}`);
    const now = readFileSync(docsPage, "utf8");
    expect(
      now.slice(start, now.indexOf("\n\n", start)),
      "docs/updating-the-proto.md's change kinds: A2A_WRITE_DOCS=1 npx vitest run test/plugin/diff/change-kinds.test.ts",
    ).toBe(table);
  });
});
