/**
 * `protoc-gen-a2a diff` (plugin/src/diff/): the binding-level changes between two versions of
 * a2a.proto (test/fixtures/proto-history/), each marked breaking or not for servers and for
 * clients. Each fixture against proto/a2a.proto (v1.0.1) gives exactly its change, in text and
 * JSON (test/fixtures/proto-history/expected/; `A2A_UPDATE_EXPECTED=1` rewrites them — read the
 * diff before committing); manifests and protos give the same result; the bundled CLI's exit codes.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileOf, repoRoot, runPlugin } from "../../support/plugin-runner.js";
import { runDiff } from "../../../plugin/src/diff/diff-command.js";
import { apiView, compareApis } from "../../../plugin/src/diff/compare.js";
import { loadApi } from "../../../plugin/src/diff/load-api.js";
import { parseOptions } from "../../../plugin/src/options.js";
import type { ApiManifest } from "../../../plugin/src/manifest/api-manifest.js";

const HISTORY = "test/fixtures/proto-history";
const CURRENT = "proto/a2a.proto";
const FIXTURES = [
  "added-rpc",
  "added-required-field",
  "changed-route",
  "removed-field",
  "renamed-enum-value",
  "split-file",
] as const;
const update = process.env["A2A_UPDATE_EXPECTED"] === "1";

let tmp: string;
beforeAll(() => {
  mkdirSync(join(repoRoot, "test/.tmp"), { recursive: true });
  tmp = mkdtempSync(join(repoRoot, "test/.tmp/diff-"));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const diff = (...args: string[]) => runDiff(args, repoRoot);
const json = (...args: string[]) => {
  const r = diff(...args, "--format", "json");
  expect(r.stderr).toBe("");
  return JSON.parse(r.stdout);
};

/** Compares with an expected file (or writes it, with A2A_UPDATE_EXPECTED=1). */
function expectFile(actual: string, name: string): void {
  const path = join(repoRoot, HISTORY, "expected", name);
  if (update) {
    mkdirSync(join(repoRoot, HISTORY, "expected"), { recursive: true });
    writeFileSync(path, actual);
  }
  expect(actual).toBe(readFileSync(path, "utf8"));
}

describe("diff of a2a.proto versions", () => {
  it("v1.0.1 → v1.0.1: no changes, the same protos", () => {
    const r = diff(CURRENT, CURRENT);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("No API changes: the same protos.");
    const report = json(CURRENT, CURRENT);
    expect(report.changes).toEqual([]);
    expect(report.summary).toEqual({
      changes: 0,
      breakingForServers: 0,
      breakingForClients: 0,
      breaking: false,
      sameProtos: true,
    });
  });

  it("v1.0.0 → v1.0.1: no binding-level change (the protos differ in comments only), and it says so", () => {
    const r = diff(`${HISTORY}/v1.0.0`, CURRENT, "--fail-on-breaking");
    expect(r.code).toBe(0);
    expectFile(r.stdout, "v1.0.0.txt");
    expect(r.stdout).toContain(
      "No API changes: the protos differ only in what the manifest does not describe",
    );
    const report = json(`${HISTORY}/v1.0.0`, CURRENT);
    expect(report.changes).toEqual([]);
    expect(report.summary.sameProtos).toBe(false);
    expect(report.old.files[0].protoSha256).not.toBe(report.new.files[0].protoSha256);
  });

  for (const fixture of FIXTURES) {
    it(`v1.0.1 → ${fixture}: exactly the fixture's change, in text and JSON`, () => {
      const text = diff(CURRENT, `${HISTORY}/${fixture}`);
      expect(text.code).toBe(0);
      expect(text.stderr).toBe("");
      expectFile(text.stdout, `${fixture}.txt`);
      expectFile(
        `${JSON.stringify(json(CURRENT, `${HISTORY}/${fixture}`), null, 2)}\n`,
        `${fixture}.json`,
      );
    });
  }

  it("marks each fixture's change breaking for the right side", () => {
    const verdicts = (fixture: string) =>
      json(CURRENT, `${HISTORY}/${fixture}`).changes.map(
        (c: { kind: string; breaking: unknown }) => [c.kind, c.breaking],
      );
    expect(verdicts("added-rpc")).toEqual([
      ["operation-added", { servers: true, clients: false }],
      ["message-added", { servers: false, clients: false }],
    ]);
    expect(verdicts("added-required-field")).toEqual([
      ["field-added", { servers: false, clients: true }],
    ]);
    expect(verdicts("changed-route")).toEqual([
      ["route-http-changed", { servers: false, clients: true }],
    ]);
    expect(verdicts("removed-field")).toEqual([
      ["field-removed", { servers: true, clients: true }],
    ]);
    expect(verdicts("renamed-enum-value")).toContainEqual([
      "enum-value-renamed",
      { servers: true, clients: true },
    ]);
    expect(verdicts("split-file")).toEqual([["types-moved", { servers: false, clients: false }]]);
  });

  it("gives the same changes from manifests as from protos", () => {
    const options = parseOptions([]);
    const writeManifests = (source: string, name: string): string => {
      const dir = join(tmp, name);
      mkdirSync(dir, { recursive: true });
      for (const m of loadApi(source, options, "", repoRoot).manifests)
        writeFileSync(
          join(dir, `${m.file.replace(/\.proto$/, "")}_a2a_manifest.json`),
          JSON.stringify(m, null, 2),
        );
      return dir;
    };
    const current = writeManifests(CURRENT, "current");
    for (const fixture of FIXTURES) {
      const fromProtos = json(CURRENT, `${HISTORY}/${fixture}`);
      const other = writeManifests(`${HISTORY}/${fixture}`, fixture);
      const fromManifests = json(join(current, "a2a_a2a_manifest.json"), other);
      expect(fromManifests.old.kind).toBe("manifest");
      expect({ changes: fromManifests.changes, summary: fromManifests.summary }, fixture).toEqual({
        changes: fromProtos.changes,
        summary: fromProtos.summary,
      });
      // The checked-in manifest (written by the plugin, other options) against the fixture's protos.
      const mixed = json("generated-example/gen/a2a_a2a_manifest.json", `${HISTORY}/${fixture}`);
      expect(mixed.changes, fixture).toEqual(fromProtos.changes);
    }
    // Folders of manifests work too: generated-example/gen holds two, a2a.proto's and v0_3/a2a.proto's (A2A 0.3),
    // against the folder of both protos.
    expect(json("generated-example/gen", "proto").summary).toMatchObject({
      changes: 0,
      sameProtos: true,
    });
  });

  it("compares error tables: errors=v1.0.0 → v1.0.1 changes statuses, breaking for clients only", () => {
    const oldManifest = join(tmp, "errors-v1.0.0.json");
    writeFileSync(oldManifest, fileOf(runPlugin("a2a", "errors=v1.0.0"), "a2a_a2a_manifest.json"));
    const report = json(oldManifest, CURRENT);
    expect(
      report.changes.map(
        (c: { kind: string; path: string; description: string }) =>
          `${c.kind} ${c.path}: ${c.description}`,
      ),
    ).toEqual([
      "error-profile-changed errors: error table profile v1.0.0 → v1.0.1",
      "error-http-status-changed errors.TaskNotCancelableError: HTTP status 409 → 400",
      "error-grpc-status-changed errors.PushNotificationNotSupportedError: gRPC status UNIMPLEMENTED → FAILED_PRECONDITION",
      "error-grpc-status-changed errors.UnsupportedOperationError: gRPC status UNIMPLEMENTED → FAILED_PRECONDITION",
      "error-http-status-changed errors.ContentTypeNotSupportedError: HTTP status 415 → 400",
      "error-http-status-changed errors.InvalidAgentResponseError: HTTP status 502 → 500",
      "error-grpc-status-changed errors.VersionNotSupportedError: gRPC status UNIMPLEMENTED → FAILED_PRECONDITION",
    ]);
    for (const c of report.changes.slice(1))
      expect(c.breaking).toEqual({ servers: false, clients: true });
    // --options describes protos with other plugin options.
    expect(json(CURRENT, CURRENT, "--options", "errors=v1.0.0").new.files[0].parameter).toBe(
      "errors=v1.0.0",
    );
  });

  it("takes a removed and an added operation with the same types and routes or position for a rename (heuristic)", () => {
    const base = loadApi(CURRENT, parseOptions([]), "", repoRoot).manifests[0]!;
    const renamed: ApiManifest = {
      ...base,
      services: base.services.map((s) => ({
        ...s,
        operations: s.operations.map((o) =>
          o.name === "CancelTask"
            ? {
                ...o,
                name: "AbortTask",
                jsonRpcMethod: "AbortTask",
                grpcPath: "/lf.a2a.v1.A2AService/AbortTask",
              }
            : o,
        ),
      })),
    };
    const changes = compareApis(apiView([base]), apiView([renamed]));
    expect(changes.map((c) => [c.kind, c.path, c.breaking])).toEqual([
      ["operation-renamed", "lf.a2a.v1.A2AService.AbortTask", { servers: true, clients: true }],
    ]);
    expect(changes[0]!.description).toBe(
      "operation renamed from CancelTask: JSON-RPC method CancelTask → AbortTask, gRPC path /lf.a2a.v1.A2AService/CancelTask → /lf.a2a.v1.A2AService/AbortTask (HTTP routes unchanged)",
    );
    // Other types: not a rename, a removal and an addition.
    const retyped: ApiManifest = {
      ...renamed,
      services: renamed.services.map((s) => ({
        ...s,
        operations: s.operations.map((o) =>
          o.name === "AbortTask" ? { ...o, response: "lf.a2a.v1.Message" } : o,
        ),
      })),
    };
    expect(compareApis(apiView([base]), apiView([retyped])).map((c) => c.kind)).toEqual([
      "operation-added",
      "operation-removed",
    ]);
  });

  it("reports field renames and renumberings, REQUIRED changes and enum values by number", () => {
    const base = loadApi(CURRENT, parseOptions([]), "", repoRoot).manifests[0]!;
    const edit = (
      name: string,
      f: (m: ApiManifest["messages"][number]) => ApiManifest["messages"][number],
    ): ApiManifest => ({
      ...base,
      messages: base.messages.map((m) => (m.name === name ? f(m) : m)),
    });
    const changed = edit("lf.a2a.v1.GetTaskRequest", (m) => ({
      ...m,
      fields: m.fields.map((x) => {
        if (x.name === "id") return { ...x, name: "task_id", jsonName: "taskId" };
        if (x.name === "tenant")
          return { ...x, fieldBehavior: ["REQUIRED"], required: "nonzero" as const };
        if (x.name === "history_length") return { ...x, number: 9 };
        return x;
      }),
    }));
    const changes = compareApis(apiView([base]), apiView([changed]));
    expect(changes.map((c) => [c.kind, c.path, c.breaking])).toEqual([
      [
        "field-required-added",
        "lf.a2a.v1.GetTaskRequest.tenant",
        { servers: false, clients: true },
      ],
      ["field-renamed", "lf.a2a.v1.GetTaskRequest.task_id", { servers: true, clients: true }],
      [
        "field-number-changed",
        "lf.a2a.v1.GetTaskRequest.history_length",
        { servers: true, clients: true },
      ],
    ]);
    const dropped = edit("lf.a2a.v1.CancelTaskRequest", (m) => ({
      ...m,
      fields: m.fields.map((x) =>
        x.name === "id" ? { ...x, fieldBehavior: undefined, required: undefined } : x,
      ),
    }));
    expect(
      compareApis(apiView([base]), apiView([dropped])).map((c) => [c.kind, c.breaking]),
    ).toEqual([["field-required-removed", { servers: true, clients: false }]]);
  });
});

describe("the diff CLI (bundled: npm run build)", () => {
  const bin = join(repoRoot, "plugin/bin/protoc-gen-a2a");
  const cli = (...args: string[]) => {
    const r = spawnSync(process.execPath, [bin, "diff", ...args], {
      cwd: repoRoot,
      encoding: "utf8",
    });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };

  it("exits 1 with --fail-on-breaking when a change is breaking, 0 otherwise", () => {
    expect(cli(CURRENT, `${HISTORY}/changed-route`, "--fail-on-breaking").code).toBe(1);
    expect(
      cli(CURRENT, `${HISTORY}/added-required-field`, "--fail-on-breaking", "--format", "json")
        .code,
    ).toBe(1);
    const plain = cli(CURRENT, `${HISTORY}/changed-route`);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toBe(
      readFileSync(join(repoRoot, HISTORY, "expected/changed-route.txt"), "utf8"),
    );
    expect(cli(`${HISTORY}/v1.0.0`, CURRENT, "--fail-on-breaking").code).toBe(0);
    expect(cli(CURRENT, `${HISTORY}/split-file`, "--fail-on-breaking").code).toBe(0);
  }, 60_000);

  it("exits 2 with one clear line on bad arguments and inputs, never a stack trace", () => {
    const broken = join(tmp, "broken");
    mkdirSync(broken, { recursive: true });
    writeFileSync(
      join(broken, "a2a.proto"),
      'syntax = "proto3";\npackage x;\nmessage A { string a = 1 }\n',
    );
    const plain = join(tmp, "plain");
    mkdirSync(plain, { recursive: true });
    writeFileSync(
      join(plain, "x.proto"),
      'syntax = "proto3";\npackage x;\nmessage A { string a = 1; }\n',
    );
    const cases: [string[], RegExp][] = [
      [
        [CURRENT, "nope/a2a.proto"],
        /^protoc-gen-a2a diff: nope\/a2a\.proto: no such file or directory$/,
      ],
      [
        [CURRENT, "package.json"],
        /^protoc-gen-a2a diff: package\.json: not an API manifest \(no "manifestVersion"/,
      ],
      [[CURRENT, "README.md"], /^protoc-gen-a2a diff: README\.md: not a \.proto file and not JSON/],
      [
        [CURRENT, join(broken, "a2a.proto")],
        /^protoc-gen-a2a diff: .*broken\/a2a\.proto: does not compile: a2a\.proto:3:/,
      ],
      [
        [CURRENT, "plugin/bin"],
        /^protoc-gen-a2a diff: plugin\/bin: no \.proto files and no \*_a2a_manifest\.json in this folder$/,
      ],
      [
        [CURRENT, join(plain, "x.proto")],
        /^protoc-gen-a2a diff: .*plain\/x\.proto: no service in x\.proto: nothing to compare$/,
      ],
      [[CURRENT], /^protoc-gen-a2a diff: expected two inputs, <old> and <new>, got 1/],
      [
        [CURRENT, CURRENT, "--format", "xml"],
        /^protoc-gen-a2a diff: --format must be text or json, not "xml"$/,
      ],
      [
        [CURRENT, CURRENT, "--options", "errors=v9"],
        /^protoc-gen-a2a diff: --options: errors must be one of/,
      ],
      [[CURRENT, CURRENT, "--frobnicate"], /^protoc-gen-a2a diff: unknown option --frobnicate/],
    ];
    for (const [args, message] of cases) {
      const r = cli(...args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stdout, args.join(" ")).toBe("");
      const lines = r.stderr.trimEnd().split("\n");
      expect(lines, args.join(" ")).toHaveLength(1);
      expect(lines[0], args.join(" ")).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    expect(cli("--help").stdout).toContain("usage: protoc-gen-a2a diff <old> <new>");
  }, 120_000);
});

describe("a single .proto file keeps the name buf gave it (its proto root, not its folder)", () => {
  const PROTO = [
    'syntax = "proto3";',
    "package acme.lib.v1;",
    'import "google/api/annotations.proto";',
    "message Book { string name = 1; }",
    'service Library { rpc GetBook(Book) returns (Book) { option (google.api.http) = {get: "/v1/{name=books/*}"}; } }',
    "",
  ].join("\n");
  /** Writes `PROTO` at `rel` under a new folder of tmp; the folder. */
  const layout = (name: string, rel: string, bufYaml?: string) => {
    const dir = join(tmp, name);
    mkdirSync(join(dir, rel, ".."), { recursive: true });
    writeFileSync(join(dir, rel), PROTO);
    if (bufYaml !== undefined) writeFileSync(join(dir, "buf.yaml"), bufYaml);
    return dir;
  };
  /** The manifest buf generate writes for the protos of a folder (the folder is the root): its path. */
  const manifestOf = (root: string, name: string) => {
    const [manifest] = loadApi(root, parseOptions([]), "").manifests;
    const path = join(tmp, `${name}_a2a_manifest.json`);
    writeFileSync(path, JSON.stringify(manifest));
    return { path, file: manifest!.file };
  };

  it("against the manifest generated from it, either way round: no change (not every message moved)", () => {
    const root = layout("single-manifest", "names/v1/lib.proto");
    const manifest = manifestOf(root, "single");
    expect(manifest.file).toBe("names/v1/lib.proto");
    const proto = join(root, "names/v1/lib.proto");
    for (const args of [
      [manifest.path, proto],
      [proto, manifest.path],
    ]) {
      const r = diff(...args);
      expect(r.stderr).toBe("");
      expect(r.stdout, args.join(" ")).toContain("No API changes: the same protos.");
      expect(r.stdout).not.toContain("moved");
    }
  });

  it("without a manifest: the folders that spell its package, or its buf.yaml module, are the root; else its folder", () => {
    const byPackage = layout("single-package", "protos/acme/lib/v1/lib.proto");
    expect(
      loadApi(join(byPackage, "protos/acme/lib/v1/lib.proto"), parseOptions([]), "").manifests[0]
        ?.file,
    ).toBe("acme/lib/v1/lib.proto");
    const byModule = layout(
      "single-module",
      "src/proto/v1/lib.proto",
      "version: v2\nmodules:\n  - path: src/proto\n",
    );
    expect(
      loadApi(join(byModule, "src/proto/v1/lib.proto"), parseOptions([]), "").manifests[0]?.file,
    ).toBe("v1/lib.proto");
    const partial = layout("single-partial", "names/v1/lib.proto");
    expect(
      loadApi(join(partial, "names/v1/lib.proto"), parseOptions([]), "").manifests[0]?.file,
    ).toBe("lib.proto");
    const r = diff(join(byPackage, "protos"), join(byPackage, "protos/acme/lib/v1/lib.proto"));
    expect(r.stdout).toContain("No API changes: the same protos.");
  });
});

describe("an RPC name another service of the file gains", () => {
  const proto = (services: string[]) =>
    [
      'syntax = "proto3";',
      "package acme.shop.v1;",
      "message Item { string name = 1; }",
      ...services.map((s) => `service ${s} { rpc Get(Item) returns (Item); }`),
      "",
    ].join("\n");
  it("is documented qualified (`ShelfService.Get`), which breaks nothing: the server still takes `Get`; losing the qualified name breaks clients", () => {
    const one = join(tmp, "shop-one/acme/shop/v1/shop.proto");
    const two = join(tmp, "shop-two/acme/shop/v1/shop.proto");
    mkdirSync(join(one, ".."), { recursive: true });
    mkdirSync(join(two, ".."), { recursive: true });
    writeFileSync(one, proto(["ShelfService"]));
    writeFileSync(two, proto(["ShelfService", "BoxService"]));
    const forward = diff(one, two, "--fail-on-breaking");
    expect(forward.stdout).toContain("JSON-RPC method Get → ShelfService.Get");
    expect(forward.code).toBe(0);
    const jsonRpcChange = (changes: { kind: string; path: string; breaking: unknown }[]) =>
      changes.find((c) => c.kind === "route-jsonrpc-changed");
    expect(jsonRpcChange(json(one, two).changes)?.breaking).toEqual({
      servers: false,
      clients: false,
    });
    expect(jsonRpcChange(json(two, one).changes)?.breaking).toEqual({
      servers: false,
      clients: true,
    });
  });
});
