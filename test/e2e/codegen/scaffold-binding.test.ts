/**
 * `protoc-gen-a2a scaffold-binding` (plugin/src/scaffold/): the scaffold of a custom binding
 * type-checks as written under strict options (its holes are typed stubs that throw
 * UnsupportedOperationError), is deterministic, and survives the proto changing: after the
 * author edited it and the proto gained one RPC and lost another, a rerun adds the new RPC's
 * entry and flags the removed one, and every hand-written line stays as it was; the result
 * compiles against the code `buf generate` writes for the changed proto.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runScaffold } from "../../../plugin/src/scaffold/scaffold-command.js";
import { REMOVED_MARK } from "../../../plugin/src/scaffold/update-scaffold.js";
import { repoRoot } from "../../support/plugin-runner.js";
import { typeCheck } from "../../support/type-check.js";
import { project, regenerate } from "../../support/agent-project.js";

const URI = "https://example.com/a2a/bindings/ws/v1";
const STRICT_EXTRA = {
  noUnusedLocals: true,
  noUnusedParameters: true,
  exactOptionalPropertyTypes: true,
};
let root: string;

beforeAll(() => {
  mkdirSync(join(repoRoot, "test/.tmp"), { recursive: true });
  root = mkdtempSync(join(repoRoot, "test/.tmp/scaffold-"));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const tsFiles = (dir: string) =>
  readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .map((f) => join(dir, f));
const read = (dir: string) =>
  Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f), "utf8")]));

const scaffold = (dir: string, extra: string[] = []) =>
  runScaffold(["--name", "ws", "--uri", URI, "--image", "image.binpb", ...extra], dir);

describe("scaffold-binding", () => {
  it("writes the operations table, server adapter, client transport and BINDING.md, which type-check under strict as written", async () => {
    const dir = project(root, "fresh");
    const result = await scaffold(dir);
    expect(result.ok, result.lines.join("\n")).toBe(true);
    expect(result.lines.slice(0, 4)).toEqual([
      "wrote   src/ws-binding/ws-operations.ts",
      "wrote   src/ws-binding/ws-server.ts",
      "wrote   src/ws-binding/ws-client.ts",
      "wrote   src/ws-binding/BINDING.md",
    ]);
    const files = read(join(dir, "src/ws-binding"));
    // One marked place per core operation, and per concern.
    for (const rpc of [
      "SendMessage",
      "SendStreamingMessage",
      "GetTask",
      "ListTasks",
      "CancelTask",
      "SubscribeToTask",
      "GetExtendedAgentCard",
      "DeleteTaskPushNotificationConfig",
    ]) {
      expect(files["ws-operations.ts"]).toContain(`/** @a2a-operation ${rpc}: `);
    }
    const all = Object.values(files).join("\n");
    for (const concern of [
      "operations",
      "framing",
      "service-parameters",
      "errors",
      "streaming",
      "auth",
    ])
      expect(all, concern).toContain(`A2A-SCAFFOLD(${concern})`);
    expect(files["ws-server.ts"]).toContain(
      'return unfilledWsServer("decodeWsCall: read a call from a frame',
    );
    expect(files["ws-server.ts"]).toContain("throw new UnsupportedOperationError(");
    expect(files["ws-client.ts"]).toContain(
      "export class A2AServiceWsClient extends A2AServiceTransportClient",
    );
    // BINDING.md: every §12 item, the operations, every error of the catalog and the service parameters, pre-filled.
    const doc = files["BINDING.md"]!;
    for (const heading of [
      "(§5.8, §12.7)",
      "(§12.1)",
      "(§12.2)",
      "(§3.2.6, §12.3)",
      "(§3.3.2, §5.4, §12.4)",
      "(§12.5)",
      "(§12.6)",
    ])
      expect(doc).toContain(heading);
    expect(doc).toContain(
      "| TaskNotFoundError | `TASK_NOT_FOUND` | -32001 | NOT_FOUND | 404 | TODO |",
    );
    expect(doc).toContain(
      "| SubscribeToTask | server streaming | `lf.a2a.v1.SubscribeToTaskRequest` | `lf.a2a.v1.StreamResponse` | TODO |",
    );
    expect(doc).toContain("| `A2A-Extensions` |");
    expect(doc).toContain("Streaming operations: SendStreamingMessage, SubscribeToTask.");
    expect(typeCheck(tsFiles(join(dir, "src")), STRICT_EXTRA)).toEqual([]);
  }, 60_000);

  it("is deterministic", async () => {
    const dir = project(root, "twice");
    await scaffold(dir, ["--out", "a"]);
    await scaffold(dir, ["--out", "b"]);
    const [a, b] = [read(join(dir, "a")), read(join(dir, "b"))];
    // Only the import path of the generated code differs (both folders are as deep).
    expect(a).toEqual(b);
    expect(Object.keys(a).sort()).toEqual([
      "BINDING.md",
      "ws-client.ts",
      "ws-operations.ts",
      "ws-server.ts",
    ]);
  }, 60_000);

  it("keeps the author's work when the proto gains and loses an RPC: adds the stub, flags the removed one", async () => {
    const dir = project(root, "edited");
    await scaffold(dir);
    const bindingDir = join(dir, "src/ws-binding");
    // The author's edits: a wire name, a helper and a comment in the table's file, a filled hole, filled BINDING.md cells.
    const ops = join(bindingDir, "ws-operations.ts");
    const edited = readFileSync(ops, "utf8")
      .replace(
        'GetTask: { wire: "GetTask" },',
        'GetTask: { wire: "tasks/get" }, // the author: our wire calls it tasks/get',
      )
      .concat(
        '\n/** The author\'s own helper. */\nexport function isStreamingWire(wire: string): boolean {\n  return wire.endsWith("Stream") || wire === "SubscribeToTask";\n}\n',
      );
    writeFileSync(ops, edited);
    const server = join(bindingDir, "ws-server.ts");
    const filledServer = readFileSync(server, "utf8").replace(
      '  void frame;\n  return unfilledWsServer("decodeWsCall: read a call from a frame of the https://example.com/a2a/bindings/ws/v1 binding (framing)");',
      '  const f = JSON.parse(String(frame)) as { id: number; method: string; params: WsInboundCall["request"] };\n  return { id: f.id, operation: f.method, request: f.params, serviceParameters: {} };',
    );
    expect(filledServer).not.toBe(readFileSync(server, "utf8"));
    writeFileSync(server, filledServer);
    const docPath = join(bindingDir, "BINDING.md");
    const filledDoc = readFileSync(docPath, "utf8")
      .replace(
        "| TaskNotFoundError | `TASK_NOT_FOUND` | -32001 | NOT_FOUND | 404 | TODO |",
        "| TaskNotFoundError | `TASK_NOT_FOUND` | -32001 | NOT_FOUND | 404 | error frame, code -32001 |",
      )
      .replace(
        "| DeleteTaskPushNotificationConfig | unary | `lf.a2a.v1.DeleteTaskPushNotificationConfigRequest` | `google.protobuf.Empty` | TODO |",
        "| DeleteTaskPushNotificationConfig | unary | `lf.a2a.v1.DeleteTaskPushNotificationConfigRequest` | `google.protobuf.Empty` | frame `push/delete` |",
      )
      .replace("- Reserved names: TODO.", "- Reserved names: `ws-` prefixed ones.");
    writeFileSync(docPath, filledDoc);
    expect(typeCheck(tsFiles(join(dir, "src")), STRICT_EXTRA)).toEqual([]);

    // The proto changes: ArchiveTask added, DeleteTaskPushNotificationConfig removed; buf generate again.
    writeFileSync(
      join(dir, "proto/a2a.proto"),
      readFileSync(join(dir, "proto/a2a.proto"), "utf8")
        .replace(
          /\n {2}\/\/ Deletes a push notification config for a task\.\n {2}rpc DeleteTaskPushNotificationConfig[\s\S]*?\n {2}\}\n/,
          "\n",
        )
        .replace(
          "  // Gets the latest state of a task.\n",
          '  // Archives a task.\n  rpc ArchiveTask(GetTaskRequest) returns (Task) {\n    option (google.api.http) = {post: "/tasks/{id=*}:archive" body: "*"};\n  }\n\n  // Gets the latest state of a task.\n',
        ),
    );
    regenerate(dir);
    // The old scaffold no longer fits the service: the table misses ArchiveTask and names a removed RPC.
    const stale = typeCheck(tsFiles(join(dir, "src")), STRICT_EXTRA);
    expect(stale.join("\n")).toMatch(/ArchiveTask/);

    const rerun = await scaffold(dir);
    expect(rerun.ok, rerun.lines.join("\n")).toBe(true);
    expect(rerun.lines).toContain(
      "updated src/ws-binding/ws-operations.ts: flagged DeleteTaskPushNotificationConfig (no longer in the proto); added ArchiveTask",
    );
    expect(rerun.lines).toContain(
      "kept    src/ws-binding/ws-server.ts (yours; not touched on a rerun)",
    );
    expect(rerun.lines).toContain(
      "updated src/ws-binding/BINDING.md: operations: added ArchiveTask; operations: flagged DeleteTaskPushNotificationConfig (no longer in the proto)",
    );
    const after = readFileSync(ops, "utf8");
    // Every line the author wrote is still there, unchanged.
    expect(after).toContain(
      'GetTask: { wire: "tasks/get" }, // the author: our wire calls it tasks/get',
    );
    expect(after).toContain("export function isStreamingWire(wire: string): boolean {");
    // The new RPC's stub, as a fresh scaffold writes it; the removed one commented out, flagged, its text kept.
    expect(after).toContain(
      '  /** @a2a-operation ArchiveTask: unary, lf.a2a.v1.GetTaskRequest → lf.a2a.v1.Task. */\n  ArchiveTask: { wire: "ArchiveTask" },\n',
    );
    expect(after).toMatch(
      new RegExp(
        `// ${REMOVED_MARK.replace(/[()]/g, "\\$&")}: DeleteTaskPushNotificationConfig is no longer an RPC of lf\\.a2a\\.v1\\.A2AService`,
      ),
    );
    expect(after).toContain(
      '  // A2A-SCAFFOLD(removed): DeleteTaskPushNotificationConfig is no longer an RPC of lf.a2a.v1.A2AService (scaffold-binding v0.1.0); your entry, as it was:\n  // /** @a2a-operation DeleteTaskPushNotificationConfig: unary, lf.a2a.v1.DeleteTaskPushNotificationConfigRequest → google.protobuf.Empty. */\n  // DeleteTaskPushNotificationConfig: { wire: "DeleteTaskPushNotificationConfig" },\n',
    );
    expect(after).not.toMatch(/^\s*DeleteTaskPushNotificationConfig:/m);
    expect(readFileSync(server, "utf8")).toBe(filledServer);
    const doc = readFileSync(docPath, "utf8");
    expect(doc).toContain(
      "| TaskNotFoundError | `TASK_NOT_FOUND` | -32001 | NOT_FOUND | 404 | error frame, code -32001 |",
    );
    expect(doc).toContain("- Reserved names: `ws-` prefixed ones.");
    expect(doc).toContain(
      "| ArchiveTask | unary | `lf.a2a.v1.GetTaskRequest` | `lf.a2a.v1.Task` | TODO |",
    );
    expect(doc).toContain(
      "| ~~DeleteTaskPushNotificationConfig~~ (no longer in the proto) | unary | `lf.a2a.v1.DeleteTaskPushNotificationConfigRequest` | `google.protobuf.Empty` | frame `push/delete` |",
    );
    // It compiles against the regenerated code again.
    expect(typeCheck(tsFiles(join(dir, "src")), STRICT_EXTRA)).toEqual([]);
    // A third run changes nothing.
    const again = await scaffold(dir);
    expect(again.lines.filter((l) => l.startsWith("updated"))).toEqual([]);
  }, 120_000);

  it.each([
    [["--uri", URI], /--name and --uri are required/],
    [["--name", "Web Socket", "--uri", URI], /--name must be kebab-case/],
    [
      ["--name", "ws", "--uri", "websocket"],
      /--uri must be an absolute URI naming the binding \(spec §5\.8\)/,
    ],
    [["--name", "ws", "--uri", URI, "--bogus", "1"], /unknown argument --bogus/],
    [["--name", "ws", "--uri", URI, "--image", "missing.binpb"], /ENOENT|no such file/],
    [
      ["--name", "ws", "--uri", URI, "--image", "test/fixtures/a2a.binpb", "--service", "Nope"],
      /no service to scaffold \(services: lf\.a2a\.v1\.A2AService\); name one with --service/,
    ],
  ])("refuses %j with a clear message", async (args, message) => {
    const result = await runScaffold(args, repoRoot);
    expect(result.ok).toBe(false);
    expect(result.lines.join("\n")).toMatch(message);
  });
});
