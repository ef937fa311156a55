// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * `protoc-gen-a2a diff <old> <new> [--format text|json] [--fail-on-breaking] [--options <plugin options>]`:
 * what changed between two versions of an A2A API at the binding level (operations, JSON-RPC
 * methods, gRPC paths, HTTP routes, fields and their REQUIRED-ness, enum values, the error
 * table, the service parameters), each change marked breaking or not for servers and for
 * clients. Each side is an API manifest (`<file>_a2a_manifest.json`, or a folder of them) or
 * protos (a .proto file, or a folder), built with buf. Exit 0; 1 with `--fail-on-breaking` when
 * a change is breaking; 2 on a usage or input error (one line).
 */
import { parseOptions, type PluginOptions } from "../options.js";
import type { ApiManifest } from "../manifest/api-manifest.js";
import { apiView, compareApis, type ApiChange } from "./compare.js";
import { changeGroup, GROUPS, type ChangeKind } from "./change-kinds.js";
import { InputError, loadApi, type LoadedApi } from "./load-api.js";

export const DIFF_USAGE = `usage: protoc-gen-a2a diff <old> <new> [--format text|json] [--fail-on-breaking] [--options <plugin options>]

Compares two versions of an A2A API at the binding level and says, for each change, whether it
breaks servers (handlers, the task runtime) and clients (code calling the agent). <old> and
<new> are API manifests (<file>_a2a_manifest.json, or a folder of them) or protos (a .proto
file, or a folder of protos, built with buf). --options are the plugin options protos are
described with (e.g. errors=v1.0.0; default: none). Exit 1 with --fail-on-breaking when any
change is breaking, 2 on bad arguments or inputs.`;

export interface DiffResult {
  readonly code: 0 | 1 | 2;
  readonly stdout: string;
  readonly stderr: string;
}

/** One side's provenance, in the JSON output. */
interface SideProvenance {
  readonly source: string;
  readonly kind: "proto" | "manifest";
  readonly files: readonly {
    readonly file: string;
    readonly package: string;
    readonly generator: string;
    readonly protoSha256: string;
    readonly optionsSha256: string;
    readonly parameter: string;
  }[];
}

export interface DiffReport {
  readonly old: SideProvenance;
  readonly new: SideProvenance;
  readonly changes: readonly ApiChange[];
  readonly summary: {
    readonly changes: number;
    readonly breakingForServers: number;
    readonly breakingForClients: number;
    readonly breaking: boolean;
    /** Whether the two sides were made from the same protos (the descriptors' SHA-256 agree). */
    readonly sameProtos: boolean;
  };
}

const fail = (line: string): DiffResult => ({ code: 2, stdout: "", stderr: `${line}\n` });

export function runDiff(args: readonly string[], cwd = process.cwd()): DiffResult {
  if (args.includes("--help") || args.includes("-h"))
    return { code: 0, stdout: `${DIFF_USAGE}\n`, stderr: "" };
  let format: "text" | "json" = "text";
  let failOnBreaking = false;
  let parameter = "";
  const paths: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--format" || a.startsWith("--format=")) {
      const value = a === "--format" ? args[++i] : a.slice("--format=".length);
      if (value !== "text" && value !== "json")
        return fail(
          `protoc-gen-a2a diff: --format must be text or json${value === undefined ? "" : `, not "${value}"`}`,
        );
      format = value;
    } else if (a === "--options" || a.startsWith("--options=")) {
      const value = a === "--options" ? args[++i] : a.slice("--options=".length);
      if (value === undefined)
        return fail("protoc-gen-a2a diff: --options needs a value (e.g. errors=v1.0.0)");
      parameter = value;
    } else if (a === "--fail-on-breaking") failOnBreaking = true;
    else if (a.startsWith("-"))
      return fail(`protoc-gen-a2a diff: unknown option ${a} (see protoc-gen-a2a diff --help)`);
    else paths.push(a);
  }
  if (paths.length !== 2)
    return fail(
      `protoc-gen-a2a diff: expected two inputs, <old> and <new>, got ${paths.length} (see protoc-gen-a2a diff --help)`,
    );
  let options: PluginOptions;
  try {
    options = parseOptions(
      parameter
        .split(",")
        .map((p) => p.trim())
        .filter(
          (p) =>
            p !== "" &&
            !/^(target|import_extension|rewrite_imports|ts_nocheck|keep_empty_files)=/.test(p),
        )
        .map((p) => ({
          key: p.split("=")[0]!,
          value: p.includes("=") ? p.slice(p.indexOf("=") + 1) : "",
        })),
    );
  } catch (e) {
    return fail(`protoc-gen-a2a diff: --options: ${e instanceof Error ? e.message : String(e)}`);
  }
  let before: LoadedApi;
  let after: LoadedApi;
  try {
    // A single .proto file is read after the other side, whose file names tell its proto root (a manifest of it names it as buf did).
    const [oldPath, newPath] = [paths[0]!, paths[1]!];
    const newFirst = oldPath.endsWith(".proto") && !newPath.endsWith(".proto");
    const [firstPath, secondPath] = newFirst ? [newPath, oldPath] : [oldPath, newPath];
    const first = loadApi(firstPath, options, parameter, cwd);
    const second = loadApi(
      secondPath,
      options,
      parameter,
      cwd,
      first.manifests.map((m) => m.file),
    );
    [before, after] = newFirst ? [second, first] : [first, second];
  } catch (e) {
    if (e instanceof InputError)
      return fail(
        e.message.startsWith("protoc-gen-a2a") ? e.message : `protoc-gen-a2a diff: ${e.message}`,
      );
    return fail(
      `protoc-gen-a2a diff: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}`,
    );
  }
  let report: DiffReport;
  try {
    report = diffReport(before, after);
  } catch (e) {
    // A manifest that passed the shape check but is malformed deeper down (edited by hand?).
    return fail(
      `protoc-gen-a2a diff: cannot compare ${paths[0]} with ${paths[1]}: ${e instanceof Error ? e.message.split("\n")[0] : String(e)} (is each a manifest protoc-gen-a2a wrote?)`,
    );
  }
  const stdout = format === "json" ? `${JSON.stringify(report, null, 2)}\n` : formatText(report);
  return { code: failOnBreaking && report.summary.breaking ? 1 : 0, stdout, stderr: "" };
}

/** The comparison of two loaded sides, as the JSON output has it. */
export function diffReport(before: LoadedApi, after: LoadedApi): DiffReport {
  const changes = compareApis(apiView(before.manifests), apiView(after.manifests));
  const hashes = (m: readonly ApiManifest[]) =>
    m
      .map((x) => `${x.file} ${x.provenance.protoSha256}`)
      .sort()
      .join("\n");
  const servers = changes.filter((c) => c.breaking.servers).length;
  const clients = changes.filter((c) => c.breaking.clients).length;
  return {
    old: provenance(before),
    new: provenance(after),
    changes,
    summary: {
      changes: changes.length,
      breakingForServers: servers,
      breakingForClients: clients,
      breaking: servers + clients > 0,
      sameProtos: hashes(before.manifests) === hashes(after.manifests),
    },
  };
}

function provenance(side: LoadedApi): SideProvenance {
  return {
    source: side.source,
    kind: side.kind,
    files: side.manifests.map((m) => ({
      file: m.file,
      package: m.package,
      generator: m.provenance.generator,
      protoSha256: m.provenance.protoSha256,
      optionsSha256: m.provenance.optionsSha256,
      parameter: m.provenance.parameter,
    })),
  };
}

const short = (sha: string) => sha.slice(0, 12);
const sideLine = (label: string, side: SideProvenance) =>
  `${label}: ${side.source} (${side.kind}: ${side.files.map((f) => `${f.file} sha256:${short(f.protoSha256)}`).join(", ")}; ${side.files[0]?.generator ?? "?"})`;

function verdict(c: ApiChange): string {
  const { servers, clients } = c.breaking;
  if (servers && clients) return "breaking for servers and clients";
  if (servers) return "breaking for servers";
  if (clients) return "breaking for clients";
  return "not breaking";
}

const marker = (kind: ChangeKind) =>
  kind.endsWith("-added") ? "+" : kind.endsWith("-removed") ? "-" : "~";

/** The text output: the two sides, the changes grouped (GROUPS order), a summary line. */
export function formatText(report: DiffReport): string {
  const lines = [
    "protoc-gen-a2a diff",
    `  ${sideLine("old", report.old)}`,
    `  ${sideLine("new", report.new)}`,
    "",
  ];
  const { summary } = report;
  if (summary.changes === 0) {
    lines.push(
      summary.sameProtos
        ? "No API changes: the same protos."
        : "No API changes: the protos differ only in what the manifest does not describe (comments, options of other tools, declarations no operation uses).",
    );
    return `${lines.join("\n")}\n`;
  }
  for (const group of GROUPS) {
    const inGroup = report.changes.filter((c) => changeGroup(c.kind) === group);
    if (inGroup.length === 0) continue;
    lines.push(`${group.charAt(0).toUpperCase()}${group.slice(1)}`);
    for (const c of inGroup) {
      lines.push(`  ${marker(c.kind)} ${c.path}: ${c.description}`);
      lines.push(`      ${verdict(c)}: ${c.reason}`);
    }
    lines.push("");
  }
  const count = (n: number) => (n === 0 ? "none" : String(n));
  lines.push(
    `${summary.changes} change${summary.changes === 1 ? "" : "s"}; breaking for servers: ${count(summary.breakingForServers)}, for clients: ${count(summary.breakingForClients)}.`,
  );
  return `${lines.join("\n")}\n`;
}
