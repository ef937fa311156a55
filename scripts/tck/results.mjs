// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
// The results of an A2A TCK run (a2aproject/a2a-tck): its JUnit XML read into one row per test,
// the totals (transport × level), and the verdict against the expected outcomes
// (test/tck/expected-outcomes.ts). Pure functions, no I/O: `npm run tck` (scripts/tck.mjs) feeds
// them the files of a run, test/tck/results.test.ts synthetic ones.

/** @typedef {"passed" | "failed" | "skipped" | "xfailed"} TckOutcome */
/** @typedef {"jsonrpc" | "http_json" | "grpc" | "card" | "any"} TckTransport */

/**
 * One test of the run.
 * @typedef {object} TckRow
 * @property {string} nodeid      pytest's node id, dotted (`tests.compatibility.grpc.test_status_codes.TestGrpcStatusCodes.test_x[grpc]`)
 * @property {string} test        the test function's name without parameters (`test_x`)
 * @property {string} requirement the TCK requirement id (`CORE-SEND-003`), or "" when the run does not say
 * @property {TckTransport} transport the binding; "card" for the Agent Card tests, "any" for other transport-independent ones
 * @property {string} level       "MUST", "SHOULD", "MAY", or "" when unknown
 * @property {TckOutcome} outcome
 * @property {string} message     the failure or skip message ("" for a pass)
 */

/**
 * What a run knows about requirements besides the JUnit XML.
 * @typedef {object} TckMetadata
 * @property {Readonly<Record<string, { requirement: string, level: string, transport: string }>>} [tests] dotted node id → what
 *   scripts/tck/collect.py read from the TCK's tests (requirement id, marker level, transport parameter or marker; "" when none)
 * @property {Readonly<Record<string, string>>} [testRequirements] dotted node id → requirement id (the TCK's compatibility.json)
 * @property {Readonly<Record<string, readonly string[]>>} [requirementTransports] requirement id → the transports it was recorded on
 */

const TRANSPORTS = ["jsonrpc", "http_json", "grpc"];
const REQUIREMENT = /\b([A-Z][A-Z0-9_]+-[A-Z]+-\d+[a-z]?)\b/;

/** XML attribute and text entities. */
function unescapeXml(value) {
  return value.replace(/&(#x[0-9a-f]+|#\d+|lt|gt|amp|quot|apos);/gi, (_, e) => {
    const named = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" }[e.toLowerCase()];
    if (named !== undefined) return named;
    return String.fromCodePoint(
      e[1] === "x" || e[1] === "X"
        ? Number.parseInt(e.slice(2), 16)
        : Number.parseInt(e.slice(1), 10),
    );
  });
}

function attributes(text) {
  const out = {};
  for (const m of text.matchAll(/([\w:-]+)\s*=\s*"([^"]*)"/g)) out[m[1]] = unescapeXml(m[2]);
  return out;
}

/**
 * The testcases of a JUnit XML document (pytest's `--junitxml`), in order.
 * @param {string} xml
 * @returns {{ classname: string, name: string, outcome: TckOutcome, message: string }[]}
 */
export function parseJunitXml(xml) {
  const cases = [];
  for (const m of xml.matchAll(/<testcase\b((?:[^>"]|"[^"]*")*?)(\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const { classname = "", name = "" } = attributes(m[1]);
    const body = m[3] ?? "";
    const result = /<(failure|error|skipped)\b((?:[^>"]|"[^"]*")*?)(\/>|>([\s\S]*?)<\/\1>)/.exec(
      body,
    );
    let outcome = "passed";
    let message = "";
    if (result !== null) {
      const attrs = attributes(result[2]);
      outcome =
        result[1] === "skipped"
          ? attrs.type === "pytest.xfail"
            ? "xfailed"
            : "skipped"
          : "failed";
      message = attrs.message ?? unescapeXml(result[4] ?? "").trim();
    }
    cases.push({ classname, name, outcome, message });
  }
  if (cases.length === 0 && !/<testsuites?\b/.test(xml))
    throw new Error("not a JUnit XML document (no <testsuite>)");
  return cases;
}

/** pytest's node id (`tests/compatibility/x.py::Class::test[p]`) in the dotted form the JUnit XML uses. */
export function dottedNodeId(nodeid) {
  const bracket = nodeid.indexOf("[");
  const path = bracket < 0 ? nodeid : nodeid.slice(0, bracket);
  const params = bracket < 0 ? "" : nodeid.slice(bracket);
  return (
    path
      .replace(/\.py::/, "::")
      .replace(/\//g, ".")
      .replace(/::/g, ".") + params
  );
}

/**
 * The metadata in the TCK's compatibility.json (`--compatibility-report`): which requirement
 * each test recorded, and on which transports.
 * @param {any} report
 * @returns {Pick<TckMetadata, "testRequirements" | "requirementTransports">}
 */
export function metadataFromCompatibilityReport(report) {
  const testRequirements = {};
  const requirementTransports = {};
  for (const [id, entry] of Object.entries(report?.per_requirement ?? {})) {
    for (const nodeid of entry?.test_ids ?? []) testRequirements[dottedNodeId(nodeid)] = id;
    requirementTransports[id] = Object.keys(entry?.transports ?? {});
  }
  return { testRequirements, requirementTransports };
}

/** The binding a test ran on. */
function transportOf(classname, name, params, requirement, metadata, collected) {
  if (TRANSPORTS.includes(collected)) return collected;
  const param = /(?:^|-)(jsonrpc|http_json|grpc)$/.exec(params);
  if (param !== null) return param[1];
  const suffix = /_(jsonrpc|http_json|grpc|rest)$/.exec(name);
  if (suffix !== null) return suffix[1] === "rest" ? "http_json" : suffix[1];
  const module = /^tests\.compatibility\.(jsonrpc|http_json|grpc|agent_card)\./.exec(classname);
  if (module !== null) return module[1] === "agent_card" ? "card" : module[1];
  const recorded = (metadata.requirementTransports?.[requirement] ?? []).filter((t) =>
    TRANSPORTS.includes(t),
  );
  if (recorded.length === 1) return recorded[0];
  return "any";
}

/**
 * One row per testcase, with its requirement, transport and level.
 * @param {string} xml
 * @param {TckMetadata} [metadata]
 * @returns {TckRow[]}
 */
export function readRun(xml, metadata = {}) {
  return parseJunitXml(xml).map(({ classname, name, outcome, message }) => {
    const nodeid = `${classname}.${name}`;
    const bracket = name.indexOf("[");
    const test = bracket < 0 ? name : name.slice(0, bracket);
    const params = bracket < 0 ? "" : name.slice(bracket + 1, -1);
    const collected = metadata.tests?.[nodeid];
    const requirement =
      collected?.requirement ||
      REQUIREMENT.exec(params)?.[1] ||
      REQUIREMENT.exec(message)?.[1] ||
      metadata.testRequirements?.[nodeid] ||
      "";
    const byName = /^test_(must|should|may)_requirement$/.exec(test);
    const level = collected?.level || (byName !== null ? byName[1].toUpperCase() : "");
    return {
      nodeid,
      test,
      requirement,
      transport: transportOf(
        classname,
        test,
        params,
        requirement,
        metadata,
        collected?.transport ?? "",
      ),
      level,
      outcome,
      message,
    };
  });
}

const LEVELS = ["MUST", "SHOULD", "MAY", ""];
const ROWS = ["jsonrpc", "http_json", "grpc", "card", "any"];

/**
 * Totals by transport and level: `{ [transport]: { [level]: { passed, failed, xfailed, skipped } } }`.
 * @param {readonly TckRow[]} rows
 */
export function totals(rows) {
  const out = {};
  for (const row of rows) {
    const byLevel = (out[row.transport] ??= {});
    const cell = (byLevel[row.level] ??= { passed: 0, failed: 0, xfailed: 0, skipped: 0 });
    cell[row.outcome] += 1;
  }
  return out;
}

/**
 * The totals as a Markdown table (one line per transport and level that has tests, then the sum).
 * @param {readonly TckRow[]} rows
 */
export function totalsTable(rows) {
  const t = totals(rows);
  const lines = [
    "| transport | level | passed | failed | xfailed | skipped |",
    "| --- | --- | ---: | ---: | ---: | ---: |",
  ];
  const sum = { passed: 0, failed: 0, xfailed: 0, skipped: 0 };
  for (const transport of ROWS) {
    for (const level of LEVELS) {
      const cell = t[transport]?.[level];
      if (cell === undefined) continue;
      lines.push(
        `| ${transport} | ${level || "?"} | ${cell.passed} | ${cell.failed} | ${cell.xfailed} | ${cell.skipped} |`,
      );
      for (const k of Object.keys(sum)) sum[k] += cell[k];
    }
  }
  lines.push(
    `| **all** | | **${sum.passed}** | **${sum.failed}** | **${sum.xfailed}** | **${sum.skipped}** |`,
  );
  return lines.join("\n");
}

/**
 * An expected non-pass (test/tck/expected-outcomes.ts).
 * @typedef {object} TckExpectation
 * @property {Exclude<TckOutcome, "passed">} result
 * @property {readonly TckTransport[]} transports
 * @property {string} [test]           the test function, when the requirement has several
 * @property {readonly string[]} [profiles] the runs it applies to (default: `defaultProfiles`)
 * @property {RegExp} message
 * @property {string} reason
 */

/**
 * A verdict line.
 * @typedef {object} TckFinding
 * @property {"expected" | "unexpected" | "stale"} kind
 * @property {string} key         requirement id (or test name)
 * @property {TckTransport} transport
 * @property {string} test
 * @property {TckOutcome | "not run"} outcome
 * @property {string} message
 * @property {string} [reason]    the expectation's reason (expected, stale)
 */

/** The expectations' key of a row: its requirement id, or its test name when it has none. */
export const keyOf = (row) => row.requirement || row.test;

/**
 * Compares a run with the expected outcomes. Every non-pass must match an expectation (same key,
 * transport, profile, result, and the message matching); every expectation must match at least
 * one test on each of its transports, else it is stale (the test passes now, or did not run).
 * @param {readonly TckRow[]} rows
 * @param {Readonly<Record<string, readonly TckExpectation[]>>} expected
 * @param {string} profile the run ("tck", "default", "tck:capabilities-off", …)
 * @param {readonly string[]} [defaultProfiles] the runs an entry without `profiles` applies to (default: every run)
 * @returns {{ ok: boolean, findings: TckFinding[] }}
 */
export function verdict(rows, expected, profile, defaultProfiles) {
  const applies = (e) => (e.profiles ?? defaultProfiles ?? [profile]).includes(profile);
  const used = new Set();
  const findings = [];
  for (const row of rows) {
    if (row.outcome === "passed") continue;
    const key = keyOf(row);
    const match = (expected[key] ?? []).find(
      (e) =>
        applies(e) &&
        e.result === row.outcome &&
        e.transports.includes(row.transport) &&
        (e.test === undefined || e.test === row.test) &&
        e.message.test(row.message),
    );
    if (match !== undefined)
      used.add(`${key}\u0000${expected[key].indexOf(match)}\u0000${row.transport}`);
    findings.push({
      kind: match === undefined ? "unexpected" : "expected",
      key,
      transport: row.transport,
      test: row.test,
      outcome: row.outcome,
      message: row.message,
      ...(match ? { reason: match.reason } : {}),
    });
  }
  for (const [key, list] of Object.entries(expected)) {
    list.forEach((e, i) => {
      if (!applies(e)) return;
      for (const transport of e.transports) {
        if (used.has(`${key}\u0000${i}\u0000${transport}`)) continue;
        const ran = rows.filter(
          (r) =>
            keyOf(r) === key &&
            r.transport === transport &&
            (e.test === undefined || e.test === r.test),
        );
        const passed = ran.find((r) => r.outcome === "passed");
        findings.push({
          kind: "stale",
          key,
          transport,
          test: e.test ?? ran[0]?.test ?? "",
          outcome: passed !== undefined ? "passed" : ran.length === 0 ? "not run" : ran[0].outcome,
          message:
            passed !== undefined
              ? "stale expectation: the test passes now"
              : ran.length === 0
                ? "stale expectation: no such test ran"
                : `stale expectation: ${ran[0].outcome} "${ran[0].message}"`,
          reason: e.reason,
        });
      }
    });
  }
  return { ok: findings.every((f) => f.kind === "expected"), findings };
}
