import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { create, setExtension, toBinary } from "@bufbuild/protobuf";
import { CodeGeneratorRequestSchema, CodeGeneratorResponseSchema, type FileDescriptorProto, type MethodDescriptorProto } from "@bufbuild/protobuf/wkt";
import { fromBinary } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { http } from "../plugin/src/gen/google/api/annotations_pb.js";
import { HttpRuleSchema, type HttpRule } from "../plugin/src/gen/google/api/http_pb.js";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { GenerationError } from "../plugin/src/generation-error.js";
import { fixtures, loadFixture, repoRoot, runPlugin } from "./support/plugin-runner.js";

/** The library.proto method of that name. */
function method(files: FileDescriptorProto[], name: string): MethodDescriptorProto {
  const file = files.find((f) => f.name === fixtures.library.file);
  const m = file?.service[0]?.method.find((x) => x.name === name);
  if (m === undefined) throw new Error(`no method ${name}`);
  return m;
}

/** Replaces the google.api.http rule of a library.proto method. */
function withRule(name: string, rule: MessageInitShape<typeof HttpRuleSchema>) {
  return (files: FileDescriptorProto[]) => {
    const m = method(files, name);
    if (m.options === undefined) throw new Error("no options");
    setExtension(m.options, http, create(HttpRuleSchema, rule) as HttpRule);
  };
}

const where = "demo/v1/library.proto: rpc demo.v1.LibraryService";

describe("unsupported proto shapes stop generation with one clear message", () => {
  it.each([
    [
      "a malformed path template",
      withRule("GetBook", { pattern: { case: "get", value: "/v1/{name=shelves/*" } }),
      `${where}.GetBook: option google.api.http: invalid path template "/v1/{name=shelves/*"`,
    ],
    ["a template without a leading slash", withRule("GetBook", { pattern: { case: "get", value: "v1/{name}" } }), `${where}.GetBook: option google.api.http: invalid path template "v1/{name}"`],
    [
      "a variable naming a missing field",
      withRule("GetBook", { pattern: { case: "get", value: "/v1/{title}" } }),
      `${where}.GetBook: option google.api.http: path variable {title} in "/v1/{title}" names no field: demo.v1.GetBookRequest has no field "title"`,
    ],
    [
      "a variable naming a message field",
      withRule("CreateBook", { pattern: { case: "post", value: "/v1/{book}" }, body: "*" }),
      `${where}.CreateBook: option google.api.http: path variable {book} in "/v1/{book}" must be a singular scalar or enum field, not a message field`,
    ],
    [
      "a body naming a missing field",
      withRule("CreateBook", { pattern: { case: "post", value: "/v1/{parent=shelves/*}/books" }, body: "volume" }),
      `${where}.CreateBook: option google.api.http: body "volume" names no field of demo.v1.CreateBookRequest`,
    ],
    [
      "a GET with a body",
      withRule("GetBook", { pattern: { case: "get", value: "/v1/{name=shelves/*/books/*}" }, body: "*" }),
      `${where}.GetBook: option google.api.http: GET "/v1/{name=shelves/*/books/*}" must not have a body`,
    ],
    [
      "nested additional_bindings",
      withRule("GetBook", {
        pattern: { case: "get", value: "/v1/{name=shelves/*/books/*}" },
        additionalBindings: [{ pattern: { case: "get", value: "/v2/{name}" }, additionalBindings: [{ pattern: { case: "get", value: "/v3/{name}" } }] }],
      }),
      `${where}.GetBook: option google.api.http: additional_bindings must not contain additional_bindings`,
    ],
    [
      "response_body",
      withRule("GetBook", { pattern: { case: "get", value: "/v1/{name=shelves/*/books/*}" }, responseBody: "title" }),
      `${where}.GetBook: option google.api.http: response_body "title" is not supported`,
    ],
    ["a rule without a pattern", withRule("GetBook", {}), `${where}.GetBook: option google.api.http: the rule has no pattern`],
    [
      "two bindings that match the same requests",
      withRule("DeleteBook", { pattern: { case: "get", value: "/v1/{name=shelves/*/books/*}" } }),
      `${where}.DeleteBook: option google.api.http: GET "/v1/{name=shelves/*/books/*}" matches exactly the same requests as a binding of demo.v1.LibraryService.GetBook`,
    ],
    [
      "a client-streaming RPC (with unsupported_rpcs=error; the default skips it, test/unsupported-rpcs.test.ts)",
      (files: FileDescriptorProto[]) => {
        method(files, "Ping").clientStreaming = true;
      },
      `${where}.Ping: client streaming RPCs are not supported`,
    ],
  ])("%s", (_name, mutate, message) => {
    let thrown: unknown;
    try {
      runPlugin("library", "unsupported_rpcs=error", mutate);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(GenerationError);
    expect((thrown as Error).message.startsWith(message)).toBe(true);
  });
});

describe("the protoc-gen-a2a executable", () => {
  const bin = join(repoRoot, "plugin/bin/protoc-gen-a2a");

  function exec(files: FileDescriptorProto[], parameter: string) {
    const request = create(CodeGeneratorRequestSchema, { fileToGenerate: [fixtures.library.file], protoFile: files, parameter });
    return spawnSync(process.execPath, [bin], { input: toBinary(CodeGeneratorRequestSchema, request) });
  }

  it("prints one line naming file, RPC and option, no stack trace, and exits 1", () => {
    const files = loadFixture("library");
    withRule("GetBook", { pattern: { case: "get", value: "/v1/{name" } })(files);
    const result = exec(files, "target=ts");
    expect(result.status).toBe(1);
    const stderr = result.stderr.toString();
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toMatch(/^protoc-gen-a2a: demo\/v1\/library\.proto: rpc demo\.v1\.LibraryService\.GetBook: option google\.api\.http: invalid path template "\/v1\/\{name"/);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it("rejects a bad option the same way", () => {
    const result = exec(loadFixture("library"), "errors=v9");
    expect(result.status).toBe(1);
    expect(result.stderr.toString()).toMatch(/^protoc-gen-a2a: invalid option "errors=v9": errors must be one of v1\.0\.1, v1\.0\.0; got "v9"\n$/);
  });

  it("answers a good request with a CodeGeneratorResponse", () => {
    const result = exec(loadFixture("library"), "target=ts,import_extension=js");
    expect(result.status).toBe(0);
    const response = fromBinary(CodeGeneratorResponseSchema, result.stdout);
    expect(response.error).toBe("");
    expect(response.file.map((f) => f.name)).toContain("demo/v1/library_a2a_handler.ts");
  });

  it("prints its version", () => {
    const result = spawnSync(process.execPath, [bin, "--version"]);
    expect(result.stdout.toString()).toMatch(/^protoc-gen-a2a v\d+\.\d+\.\d+\n$/);
  });

  it.each([["--help"], ["-h"], ["init", "--help"]])("%s prints the usage and succeeds", (...args) => {
    const result = spawnSync(process.execPath, [bin, ...args]);
    expect(result.status).toBe(0);
    expect(result.stdout.toString()).toMatch(/^protoc-gen-a2a v?\d+\.\d+\.\d+: generates A2A servers[\s\S]*protoc-gen-a2a init \[dir\] \[--force\]/);
  });

  it("scaffold-binding --help prints its usage, the bundled binary runs it (ts-morph loaded only then)", () => {
    const help = spawnSync(process.execPath, [bin, "scaffold-binding", "--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout.toString()).toMatch(/^usage: protoc-gen-a2a scaffold-binding --name <short-name> --uri <binding URI>/);
    const bad = spawnSync(process.execPath, [bin, "scaffold-binding", "--name", "ws"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr.toString()).toMatch(/^protoc-gen-a2a scaffold-binding: --name and --uri are required/);
  });

  it("an unknown command is a usage error (exit 2)", () => {
    const result = spawnSync(process.execPath, [bin, "generate"]);
    expect(result.status).toBe(2);
    expect(result.stderr.toString()).toMatch(/^protoc-gen-a2a: unknown command "generate"/);
  });
});
