// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * `npm run tck`'s reading of a TCK run (scripts/tck/results.mjs), on a small synthetic JUnit XML
 * in pytest's shape: each testcase gets its outcome (passed, failed, error, skipped, xfailed), its
 * message (entities decoded), its requirement id, binding and level (from the collected metadata,
 * else the parameters, the message or the compatibility report); the totals add up by transport
 * and level; and the verdict accepts exactly the listed non-passes: an unlisted one, one listed
 * with another result, transport, profile or message, and a listing that now passes or no longer
 * runs ("stale expectation") all fail the run. Also that the real expected-outcomes file is well
 * formed. CI has no TCK checkout; this is the part of `npm run tck` it can test.
 */
import { describe, expect, it } from "vitest";
import {
  dottedNodeId,
  metadataFromCompatibilityReport,
  parseJunitXml,
  readRun,
  totals,
  totalsTable,
  verdict,
  type TckExpectation,
} from "../../scripts/tck/results.mjs";
import { TCK_EXPECTED_OUTCOMES } from "./expected-outcomes.js";

const C = "tests.compatibility";
const XML = `<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" errors="1" failures="2" skipped="3" tests="8">
<testcase classname="${C}.agent_card.test_agent_card.TestAgentCardDiscovery" name="test_agent_card_retrievable" time="0.038" />
<testcase classname="${C}.core_operations.test_requirements" name="test_must_requirement[CORE-SEND-003-grpc]" time="0.01"><failure message="AssertionError: CORE-SEND-003 [SendMessage returns &quot;ContentTypeNotSupportedError&quot;] failed on grpc: Operation failed: x &amp; y&#10;assert False">long text</failure></testcase>
<testcase classname="${C}.core_operations.test_requirements" name="test_must_requirement[CORE-SEND-003-jsonrpc]" time="0.01" />
<testcase classname="${C}.core_operations.test_error_handling.TestCapabilityStreaming" name="test_streaming_not_supported_jsonrpc" time="0.0"><skipped type="pytest.skip" message="Agent supports streaming">file.py:1: Agent supports streaming</skipped></testcase>
<testcase classname="${C}.core_operations.test_requirements" name="test_may_requirement[CORE-MULTI-002-http_json]" time="0.0"><skipped type="pytest.xfail" message="CORE-MULTI-002 [MAY] failed on http_json: no" /></testcase>
<testcase classname="${C}.core_operations.test_transport_behavior.TestRestFormat" name="test_response_content_type" time="0.0"><failure message="AssertionError: HTTP_JSON-SVC-001 [Content-Type] failed on http_json: got 'application/a2a+json'">t</failure></testcase>
<testcase classname="${C}.grpc.test_streaming.TestGrpcStreaming" name="test_subscribe_first_event_is_task" time="1"><error message="failed on setup with &lt;boom&gt;">trace</error></testcase>
<testcase classname="${C}.core_operations.test_requirements" name="test_should_requirement[no-requirements-grpc]" time="0"><skipped type="pytest.skip" message="No requirements at this level" /></testcase>
</testsuite></testsuites>`;

/** What scripts/tck/collect.py would write for these tests. */
const TESTS = {
  [`${C}.agent_card.test_agent_card.TestAgentCardDiscovery.test_agent_card_retrievable`]: {
    requirement: "CARD-DISC-001",
    level: "MUST",
    transport: "",
  },
  [`${C}.core_operations.test_requirements.test_must_requirement[CORE-SEND-003-grpc]`]: {
    requirement: "CORE-SEND-003",
    level: "MUST",
    transport: "grpc",
  },
  [`${C}.core_operations.test_requirements.test_must_requirement[CORE-SEND-003-jsonrpc]`]: {
    requirement: "CORE-SEND-003",
    level: "MUST",
    transport: "jsonrpc",
  },
  [`${C}.core_operations.test_error_handling.TestCapabilityStreaming.test_streaming_not_supported_jsonrpc`]:
    { requirement: "CORE-CAP-002", level: "MUST", transport: "" },
  [`${C}.core_operations.test_requirements.test_may_requirement[CORE-MULTI-002-http_json]`]: {
    requirement: "CORE-MULTI-002",
    level: "MAY",
    transport: "http_json",
  },
  [`${C}.core_operations.test_transport_behavior.TestRestFormat.test_response_content_type`]: {
    requirement: "HTTP_JSON-SVC-001",
    level: "MUST",
    transport: "http_json",
  },
  [`${C}.grpc.test_streaming.TestGrpcStreaming.test_subscribe_first_event_is_task`]: {
    requirement: "STREAM-SUB-002",
    level: "MUST",
    transport: "grpc",
  },
  [`${C}.core_operations.test_requirements.test_should_requirement[no-requirements-grpc]`]: {
    requirement: "",
    level: "SHOULD",
    transport: "grpc",
  },
};

const rows = readRun(XML, { tests: TESTS });

/** Expectations that cover every non-pass of XML. */
const EXPECTED: Record<string, TckExpectation[]> = {
  "CORE-SEND-003": [
    {
      result: "failed",
      transports: ["grpc"],
      message: /Operation failed: x & y/,
      reason: "TCK defect",
    },
  ],
  "CORE-CAP-002": [
    {
      result: "skipped",
      transports: ["jsonrpc"],
      message: /^Agent supports streaming$/,
      reason: "capability",
    },
  ],
  "CORE-MULTI-002": [
    { result: "xfailed", transports: ["http_json"], message: /no$/, reason: "MAY" },
  ],
  "HTTP_JSON-SVC-001": [
    {
      result: "failed",
      transports: ["http_json"],
      test: "test_response_content_type",
      profiles: ["default"],
      message: /a2a\+json/,
      reason: "v1.0.1",
    },
  ],
  "STREAM-SUB-002": [
    {
      result: "failed",
      transports: ["grpc"],
      message: /^failed on setup with <boom>$/,
      reason: "an error counts as failed",
    },
  ],
  test_should_requirement: [
    {
      result: "skipped",
      transports: ["grpc"],
      message: /^No requirements at this level$/,
      reason: "placeholder",
    },
  ],
};

describe("reading the JUnit XML", () => {
  it("one row per testcase, with outcome and decoded message", () => {
    expect(parseJunitXml(XML).map((c) => [c.name, c.outcome])).toEqual([
      ["test_agent_card_retrievable", "passed"],
      ["test_must_requirement[CORE-SEND-003-grpc]", "failed"],
      ["test_must_requirement[CORE-SEND-003-jsonrpc]", "passed"],
      ["test_streaming_not_supported_jsonrpc", "skipped"],
      ["test_may_requirement[CORE-MULTI-002-http_json]", "xfailed"],
      ["test_response_content_type", "failed"],
      ["test_subscribe_first_event_is_task", "failed"],
      ["test_should_requirement[no-requirements-grpc]", "skipped"],
    ]);
    expect(parseJunitXml(XML)[1]?.message).toBe(
      'AssertionError: CORE-SEND-003 [SendMessage returns "ContentTypeNotSupportedError"] failed on grpc: Operation failed: x & y\nassert False',
    );
    expect(() => parseJunitXml("<html>not junit</html>")).toThrow(/not a JUnit XML/);
  });

  it("requirement, transport and level: from the collected metadata", () => {
    expect(rows.map((r) => [r.requirement, r.transport, r.level, r.test])).toEqual([
      ["CARD-DISC-001", "card", "MUST", "test_agent_card_retrievable"],
      ["CORE-SEND-003", "grpc", "MUST", "test_must_requirement"],
      ["CORE-SEND-003", "jsonrpc", "MUST", "test_must_requirement"],
      ["CORE-CAP-002", "jsonrpc", "MUST", "test_streaming_not_supported_jsonrpc"],
      ["CORE-MULTI-002", "http_json", "MAY", "test_may_requirement"],
      ["HTTP_JSON-SVC-001", "http_json", "MUST", "test_response_content_type"],
      ["STREAM-SUB-002", "grpc", "MUST", "test_subscribe_first_event_is_task"],
      ["", "grpc", "SHOULD", "test_should_requirement"],
    ]);
  });

  it("without it: from the parameters, the test name, the module, the message and the compatibility report", () => {
    const report = {
      per_requirement: {
        "HTTP_JSON-SVC-001": {
          transports: { http_json: "FAIL" },
          test_ids: [
            "tests/compatibility/core_operations/test_transport_behavior.py::TestRestFormat::test_response_content_type",
          ],
        },
      },
    };
    const meta = metadataFromCompatibilityReport(report);
    expect(dottedNodeId("tests/compatibility/a/test_b.py::C::test_d[x-grpc]")).toBe(
      "tests.compatibility.a.test_b.C.test_d[x-grpc]",
    );
    const bare = readRun(XML, meta);
    expect(bare.map((r) => [r.requirement, r.transport, r.level])).toEqual([
      ["", "card", ""],
      ["CORE-SEND-003", "grpc", "MUST"],
      ["CORE-SEND-003", "jsonrpc", "MUST"],
      ["", "jsonrpc", ""],
      ["CORE-MULTI-002", "http_json", "MAY"],
      ["HTTP_JSON-SVC-001", "http_json", ""],
      ["", "grpc", ""],
      ["", "grpc", "SHOULD"],
    ]);
  });

  it("totals by transport and level, and the table", () => {
    expect(totals(rows)).toEqual({
      card: { MUST: { passed: 1, failed: 0, xfailed: 0, skipped: 0 } },
      grpc: {
        MUST: { passed: 0, failed: 2, xfailed: 0, skipped: 0 },
        SHOULD: { passed: 0, failed: 0, xfailed: 0, skipped: 1 },
      },
      jsonrpc: { MUST: { passed: 1, failed: 0, xfailed: 0, skipped: 1 } },
      http_json: {
        MAY: { passed: 0, failed: 0, xfailed: 1, skipped: 0 },
        MUST: { passed: 0, failed: 1, xfailed: 0, skipped: 0 },
      },
    });
    const table = totalsTable(rows).split("\n");
    expect(table[0]).toBe("| transport | level | passed | failed | xfailed | skipped |");
    expect(table.slice(2)).toEqual([
      "| jsonrpc | MUST | 1 | 0 | 0 | 1 |",
      "| http_json | MUST | 0 | 1 | 0 | 0 |",
      "| http_json | MAY | 0 | 0 | 1 | 0 |",
      "| grpc | MUST | 0 | 2 | 0 | 0 |",
      "| grpc | SHOULD | 0 | 0 | 0 | 1 |",
      "| card | MUST | 1 | 0 | 0 | 0 |",
      "| **all** | | **2** | **3** | **1** | **2** |",
    ]);
  });
});

describe("the verdict", () => {
  const kinds = (result: ReturnType<typeof verdict>) =>
    result.findings
      .filter((f) => f.kind !== "expected")
      .map((f) => `${f.kind} ${f.key} ${f.transport} ${f.outcome}`);

  it("every non-pass listed: ok, each with its reason", () => {
    const result = verdict(rows, EXPECTED, "default");
    expect(kinds(result)).toEqual([]);
    expect(result.ok).toBe(true);
    expect(result.findings.map((f) => [f.key, f.reason])).toContainEqual([
      "CORE-SEND-003",
      "TCK defect",
    ]);
  });

  it("an entry of another profile does not apply: its non-pass is unexpected", () => {
    const result = verdict(rows, EXPECTED, "tck");
    expect(kinds(result)).toEqual(["unexpected HTTP_JSON-SVC-001 http_json failed"]);
    expect(result.ok).toBe(false);
  });

  it("an entry without profiles applies to the default profiles only, when they are given", () => {
    const rerun = rows.filter((r) => r.requirement === "CORE-CAP-002");
    const only = { "CORE-CAP-002": EXPECTED["CORE-CAP-002"] ?? [] };
    expect(kinds(verdict(rerun, only, "default", ["tck", "default"]))).toEqual([]);
    expect(kinds(verdict(rerun, only, "default:capabilities-off", ["tck", "default"]))).toEqual([
      "unexpected CORE-CAP-002 jsonrpc skipped",
    ]);
  });

  it("an unlisted non-pass, or one listed with another result, transport, test or message, is unexpected (and its listing stale)", () => {
    const { "CORE-CAP-002": _, ...unlisted } = EXPECTED;
    expect(kinds(verdict(rows, unlisted, "default"))).toEqual([
      "unexpected CORE-CAP-002 jsonrpc skipped",
    ]);
    const variants: Record<string, TckExpectation[]>[] = [
      {
        ...EXPECTED,
        "CORE-CAP-002": [
          { result: "failed", transports: ["jsonrpc"], message: /streaming/, reason: "" },
        ],
      },
      {
        ...EXPECTED,
        "CORE-CAP-002": [
          { result: "skipped", transports: ["grpc"], message: /streaming/, reason: "" },
        ],
      },
      {
        ...EXPECTED,
        "CORE-CAP-002": [
          {
            result: "skipped",
            transports: ["jsonrpc"],
            test: "test_other",
            message: /streaming/,
            reason: "",
          },
        ],
      },
      {
        ...EXPECTED,
        "CORE-CAP-002": [
          { result: "skipped", transports: ["jsonrpc"], message: /push/, reason: "" },
        ],
      },
    ];
    for (const expected of variants) {
      const result = verdict(rows, expected, "default");
      expect(result.ok).toBe(false);
      expect(kinds(result)[0]).toBe("unexpected CORE-CAP-002 jsonrpc skipped");
      expect(kinds(result)[1]).toMatch(/^stale CORE-CAP-002 (jsonrpc|grpc) /);
    }
  });

  it("a listed non-pass that passes now, or a listed test that did not run: stale expectation", () => {
    const expected = {
      ...EXPECTED,
      "CORE-SEND-003": [
        {
          result: "failed" as const,
          transports: ["grpc", "jsonrpc"] as const,
          message: /Operation failed/,
          reason: "TCK defect",
        },
      ],
      "CORE-GONE-001": [
        {
          result: "failed" as const,
          transports: ["grpc"] as const,
          message: /./,
          reason: "removed",
        },
      ],
    };
    const result = verdict(rows, expected, "default");
    expect(result.ok).toBe(false);
    expect(
      result.findings
        .filter((f) => f.kind === "stale")
        .map((f) => [f.key, f.transport, f.outcome, f.message]),
    ).toEqual([
      ["CORE-SEND-003", "jsonrpc", "passed", "stale expectation: the test passes now"],
      ["CORE-GONE-001", "grpc", "not run", "stale expectation: no such test ran"],
    ]);
  });
});

describe("test/tck/expected-outcomes.ts", () => {
  it("is well formed: every entry has a reason, transports, a known result and profile", () => {
    const entries = Object.entries(TCK_EXPECTED_OUTCOMES).flatMap(([key, list]) =>
      list.map((e) => ({ key, ...e })),
    );
    expect(entries.length).toBeGreaterThan(10);
    for (const e of entries) {
      expect(e.reason.length, e.key).toBeGreaterThan(40);
      expect(e.transports.length, e.key).toBeGreaterThan(0);
      expect(["failed", "skipped", "xfailed"]).toContain(e.result);
      for (const p of e.profiles ?? [])
        expect(["tck", "default", "tck:capabilities-off", "default:capabilities-off"]).toContain(p);
    }
    // The v1.0.0/v1.0.1 differences hold in the default profile only: the TCK profile passes them.
    const versionDiffs = entries.filter((e) => /v1\.0\.0 vs v1\.0\.1/.test(e.reason));
    expect(versionDiffs.map((e) => `${e.key} ${e.test}`).sort()).toEqual([
      "GRPC-ERR-002 test_push_not_supported_returns_unimplemented",
      "GRPC-ERR-002 test_unsupported_operation_returns_unimplemented",
      "GRPC-ERR-002 test_version_not_supported_returns_unimplemented",
      "HTTP_JSON-ERR-001 test_error_content_type",
      "HTTP_JSON-ERR-001 test_error_uses_aip193_format",
      "HTTP_JSON-STATUS-001 test_content_type_not_supported_returns_415",
      "HTTP_JSON-SVC-001 test_response_content_type",
    ]);
    for (const e of versionDiffs)
      expect(e.profiles?.every((p) => p.startsWith("default"))).toBe(true);
  });
});
