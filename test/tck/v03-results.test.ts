// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * `npm run tck:v03` (scripts/tck-v03.mjs) reads each run_tck.py run's JUnit XML into rows keyed
 * `<module>::<test>`, with the run's transport and category (scripts/tck/v03/results.mjs), totals
 * them per transport × category, and judges them against test/tck/v03-expected-outcomes.ts with the
 * 1.0 line's verdict. Synthetic runs here: CI has neither the TCK nor its Python packages.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { verdict } from "../../scripts/tck/results.mjs";
import { notATckV03 } from "../../scripts/tck/v03/harness.mjs";
import { keyOfTest, rowsOfRun, totalsTableV03 } from "../../scripts/tck/v03/results.mjs";
import { TCK_V03_EXPECTED_OUTCOMES } from "./v03-expected-outcomes.js";

const JUNIT = `<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" errors="0" failures="2" skipped="2" tests="5">
<testcase classname="tests.mandatory.jsonrpc.test_json_rpc_compliance" name="test_rejects_malformed_json" time="0.01" />
<testcase classname="tests.mandatory.jsonrpc.test_json_rpc_compliance" name="test_rejects_invalid_json_rpc_requests[invalid_request2--32601]" time="0.01"><failure message="assert -32600 == -32601">tests/mandatory/jsonrpc/test_json_rpc_compliance.py:75: AssertionError</failure></testcase>
<testcase classname="tests.mandatory.protocol.test_a2a_v030_new_methods.TestMethodMappingCompliance" name="test_core_method_mapping_compliance" time="0.2"><failure message="Failed: Core method mapping test failed on jsonrpc: 'id'">…</failure></testcase>
<testcase classname="tests.optional.capabilities.test_agent_extensions" name="test_extension_uri_format" time="0.0"><skipped type="pytest.skip" message="No agent extensions declared">skip</skipped></testcase>
<testcase classname="tests.optional.features.test_sdk_limitations" name="test_history_length_parameter_compliance" time="0.3"><skipped type="pytest.xfail" message="Many A2A SDK implementations do not implement historyLength parameter correctly" /></testcase>
</testsuite></testsuites>`;

describe("the 0.3 results", () => {
  it("keys a test by its file's module and function, with or without a class and parameters", () => {
    expect(
      keyOfTest("tests.mandatory.jsonrpc.test_json_rpc_compliance.test_x[a.b-1]", "test_x"),
    ).toBe("test_json_rpc_compliance::test_x");
    expect(
      keyOfTest(
        "tests.mandatory.protocol.test_a2a_v030_new_methods.TestMethodMappingCompliance.test_y",
        "test_y",
      ),
    ).toBe("test_a2a_v030_new_methods::test_y");
  });

  it("reads a run's rows with the run's transport and category", () => {
    const rows = rowsOfRun(JUNIT, { category: "mandatory", transport: "jsonrpc" });
    expect(rows.map((r) => [r.requirement, r.transport, r.level, r.outcome])).toEqual([
      ["test_json_rpc_compliance::test_rejects_malformed_json", "jsonrpc", "mandatory", "passed"],
      [
        "test_json_rpc_compliance::test_rejects_invalid_json_rpc_requests",
        "jsonrpc",
        "mandatory",
        "failed",
      ],
      [
        "test_a2a_v030_new_methods::test_core_method_mapping_compliance",
        "jsonrpc",
        "mandatory",
        "failed",
      ],
      ["test_agent_extensions::test_extension_uri_format", "jsonrpc", "mandatory", "skipped"],
      [
        "test_sdk_limitations::test_history_length_parameter_compliance",
        "jsonrpc",
        "mandatory",
        "xfailed",
      ],
    ]);
    expect(rows[1]!.message).toBe("assert -32600 == -32601");
  });

  it("totals per transport and category, the equivalence run as 'any', then the sum", () => {
    const rows = [
      ...rowsOfRun(JUNIT, { category: "mandatory", transport: "http_json" }),
      ...rowsOfRun(JUNIT, { category: "transport-equivalence", transport: "any" }),
    ];
    expect(totalsTableV03(rows).split("\n")).toEqual([
      "| transport | category | passed | failed | skipped | xfailed |",
      "| --- | --- | ---: | ---: | ---: | ---: |",
      "| http_json | mandatory | 1 | 2 | 1 | 1 |",
      "| any (jsonrpc+http_json+grpc) | transport-equivalence | 1 | 2 | 1 | 1 |",
      "| **all** | | **2** | **4** | **2** | **2** |",
    ]);
  });

  it("judges rows against the expected outcomes: listed non-passes are expected, others unexpected, unseen entries stale", () => {
    const rows = rowsOfRun(JUNIT, { category: "mandatory", transport: "jsonrpc" });
    const { ok, findings } = verdict(rows, TCK_V03_EXPECTED_OUTCOMES, "v03", ["v03"]);
    expect(ok).toBe(false); // a synthetic run lacks most listed non-passes: they are stale
    const kinds = (key: string) => [
      ...new Set(
        findings.filter((f) => f.key === key && f.transport === "jsonrpc").map((f) => f.kind),
      ),
    ];
    expect(kinds("test_json_rpc_compliance::test_rejects_invalid_json_rpc_requests")).toEqual([
      "expected",
    ]);
    expect(kinds("test_a2a_v030_new_methods::test_core_method_mapping_compliance")).toEqual([
      "expected",
    ]);
    expect(kinds("test_agent_extensions::test_extension_uri_format")).toEqual(["expected"]);
    expect(kinds("test_sdk_limitations::test_history_length_parameter_compliance")).toEqual([
      "expected",
    ]);
    expect(kinds("test_tasks_cancel_method::test_tasks_cancel_valid")).toEqual(["stale"]);

    const unlisted = rowsOfRun(
      JUNIT.replace(
        'name="test_rejects_malformed_json" time="0.01" />',
        'name="test_rejects_malformed_json" time="0.01"><failure message="assert None == -32700">x</failure></testcase>',
      ),
      {
        category: "mandatory",
        transport: "jsonrpc",
      },
    );
    const again = verdict(unlisted, TCK_V03_EXPECTED_OUTCOMES, "v03", ["v03"]);
    expect(
      again.findings.find((f) => f.key === "test_json_rpc_compliance::test_rejects_malformed_json")
        ?.kind,
    ).toBe("unexpected");
  });

  it("gives every expected non-pass a reason that says what kind it is", () => {
    const kinds =
      /^(TCK defect|TCK placeholder|TCK's own skip|Our choice|Bug in our 0\.3 side|Interoperability gap in our 0\.3 side|Not applicable|Local run)/;
    for (const [key, list] of Object.entries(TCK_V03_EXPECTED_OUTCOMES)) {
      expect(key).toMatch(/^test_\w+::test_\w+$/);
      for (const e of list) {
        expect(e.reason, key).toMatch(kinds);
        expect(e.transports.length, key).toBeGreaterThan(0);
      }
    }
  });
});

describe("the 0.3 checkout check", () => {
  const dir = mkdtempSync(join(tmpdir(), "tck-v03-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("names what a folder lacks, and recognises the 1.0 line", () => {
    expect(notATckV03(join(dir, "nope"))).toMatch(/does not exist$/);
    const v10 = join(dir, "v10");
    mkdirSync(join(v10, "tests", "compatibility"), { recursive: true });
    writeFileSync(join(v10, "run_tck.py"), "");
    expect(notATckV03(v10)).toMatch(
      /not an a2aproject\/a2a-tck 0\.3\.x checkout .*check out branch 0\.3\.x/,
    );
    const v03 = join(dir, "v03");
    for (const f of [
      "run_tck.py",
      "a2a.proto",
      "tests/conftest.py",
      "tck/grpc_stubs/a2a_pb2.py",
      "tck/transport/grpc_client.py",
    ]) {
      mkdirSync(join(v03, f, ".."), { recursive: true });
      writeFileSync(join(v03, f), "");
    }
    mkdirSync(join(v03, "tests", "mandatory"), { recursive: true });
    expect(notATckV03(v03)).toBeUndefined();
  });
});
