import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { create, setExtension, toBinary } from "@bufbuild/protobuf";
import {
  CodeGeneratorRequestSchema,
  CodeGeneratorResponseSchema,
  type FileDescriptorProto,
  type MethodDescriptorProto,
} from "@bufbuild/protobuf/wkt";
import { fromBinary } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { http } from "../../plugin/src/gen/google/api/annotations_pb.js";
import { HttpRuleSchema, type HttpRule } from "../../plugin/src/gen/google/api/http_pb.js";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { GenerationError } from "../../plugin/src/generation-error.js";
import { setNoticeSink } from "../../plugin/src/notices.js";
import { fileOf, fixtures, loadFixture, repoRoot, runPlugin } from "../support/plugin-runner.js";

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
    [
      "a template without a leading slash",
      withRule("GetBook", { pattern: { case: "get", value: "v1/{name}" } }),
      `${where}.GetBook: option google.api.http: invalid path template "v1/{name}"`,
    ],
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
      withRule("CreateBook", {
        pattern: { case: "post", value: "/v1/{parent=shelves/*}/books" },
        body: "volume",
      }),
      `${where}.CreateBook: option google.api.http: body "volume" names no field of demo.v1.CreateBookRequest`,
    ],
    [
      "a GET with a body",
      withRule("GetBook", {
        pattern: { case: "get", value: "/v1/{name=shelves/*/books/*}" },
        body: "*",
      }),
      `${where}.GetBook: option google.api.http: GET "/v1/{name=shelves/*/books/*}" must not have a body`,
    ],
    [
      "nested additional_bindings",
      withRule("GetBook", {
        pattern: { case: "get", value: "/v1/{name=shelves/*/books/*}" },
        additionalBindings: [
          {
            pattern: { case: "get", value: "/v2/{name}" },
            additionalBindings: [{ pattern: { case: "get", value: "/v3/{name}" } }],
          },
        ],
      }),
      `${where}.GetBook: option google.api.http: additional_bindings must not contain additional_bindings`,
    ],
    [
      "response_body",
      withRule("GetBook", {
        pattern: { case: "get", value: "/v1/{name=shelves/*/books/*}" },
        responseBody: "title",
      }),
      `${where}.GetBook: option google.api.http: response_body "title" is not supported: the HTTP+JSON binding answers with the whole response message; remove response_body, or leave the RPC's HTTP rules out with skip_http_rules=demo.v1.LibraryService.GetBook (it stays on JSON-RPC and gRPC)`,
    ],
    [
      "a rule without a pattern",
      withRule("GetBook", {}),
      `${where}.GetBook: option google.api.http: the rule has no pattern`,
    ],
    [
      "two bindings that match the same requests",
      withRule("DeleteBook", { pattern: { case: "get", value: "/v1/{name=shelves/*/books/*}" } }),
      `${where}.DeleteBook: option google.api.http: GET "/v1/{name=shelves/*/books/*}" matches exactly the same requests as a binding of demo.v1.LibraryService.GetBook`,
    ],
    [
      "a client-streaming RPC (with unsupported_rpcs=error; the default skips it, test/plugin/unsupported-rpcs.test.ts)",
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

describe("HTTP rules the HTTP+JSON binding cannot serve", () => {
  /** Runs the plugin, collecting the notices; returns the run (or the GenerationError) and the notices. */
  function run(
    parameter: string,
    mutate: (files: FileDescriptorProto[]) => void,
  ): { run?: ReturnType<typeof runPlugin>; error?: Error; notices: string[] } {
    const notices: string[] = [];
    const previous = setNoticeSink((line) => notices.push(line));
    try {
      return { run: runPlugin("library", parameter, mutate), notices };
    } catch (e) {
      return { error: e as Error, notices };
    } finally {
      setNoticeSink(previous);
    }
  }

  const custom = (kind: string, path = "/v1/{name=shelves/*/books/*}") =>
    withRule("GetBook", { pattern: { case: "custom", value: { kind, path } } });

  it.each([
    [
      "FOO",
      custom("FOO"),
      `custom kind "FOO" ("/v1/{name=shelves/*/books/*}") is not supported: the HTTP+JSON binding serves GET, PUT, POST, DELETE, PATCH and HEAD (Node's HTTP parser, fetch and OpenAPI refuse or cannot describe other methods)`,
    ],
    [
      "OPTIONS",
      custom("OPTIONS"),
      `custom kind "OPTIONS" ("/v1/{name=shelves/*/books/*}") is not supported: the HTTP+JSON binding serves GET, PUT, POST, DELETE, PATCH and HEAD (Node's HTTP parser, fetch and OpenAPI refuse or cannot describe other methods)`,
    ],
    [
      "M-SEARCH",
      custom("M-SEARCH"),
      'custom kind "M-SEARCH" ("/v1/{name=shelves/*/books/*}") is not an HTTP method name',
    ],
    [
      "HEAD on an RPC answering a message, without a GET of the same path",
      custom("HEAD"),
      'custom kind "HEAD" ("/v1/{name=shelves/*/books/*}") needs an RPC returning google.protobuf.Empty or a GET binding of the same path: a HEAD answer carries no body, so demo.v1.Book could not reach the client',
    ],
    [
      "HEAD on a server-streaming RPC",
      (files: FileDescriptorProto[]) => {
        withRule("GetBook", {
          pattern: { case: "get", value: "/v1/{name=shelves/*/books/*}" },
          additionalBindings: [
            {
              pattern: {
                case: "custom",
                value: { kind: "HEAD", path: "/v1/{name=shelves/*/books/*}" },
              },
            },
          ],
        })(files);
        method(files, "GetBook").serverStreaming = true;
      },
      'custom kind "HEAD" ("/v1/{name=shelves/*/books/*}") needs a unary RPC: a HEAD answer carries no body, so no event of the stream could reach the client',
    ],
    [
      "HEAD with a body",
      withRule("GetBook", {
        pattern: { case: "custom", value: { kind: "head", path: "/v1/{name=shelves/*/books/*}" } },
        body: "*",
      }),
      'custom kind "HEAD" ("/v1/{name=shelves/*/books/*}") must not have a body (body: "*"): a HEAD request has none',
    ],
  ])(
    "%s: unsupported_rpcs=error fails with one line naming file, RPC and kind; the default skips the rule with that notice",
    (_name, mutate, problem) => {
      const failed = run("unsupported_rpcs=error", mutate);
      expect(failed.error).toBeInstanceOf(GenerationError);
      expect(failed.error?.message).toBe(`${where}.GetBook: option google.api.http: ${problem}`);
      const skipped = run("target=ts", mutate);
      expect(skipped.error).toBeUndefined();
      expect(skipped.notices).toEqual([
        `protoc-gen-a2a: notice: ${where}.GetBook: option google.api.http: ${problem}; this HTTP rule is skipped, the RPC stays on the other bindings (unsupported_rpcs=error fails instead)`,
      ]);
      const routes = fileOf(skipped.run!, "demo/v1/library_a2a_rest_routes.ts");
      expect(routes).not.toMatch(
        /method: "(FOO|OPTIONS|M-SEARCH|HEAD)",\n\s+template: "\/v1\/\{name=shelves\/\*\/books\/\*\}"/,
      );
      const openapi = JSON.parse(fileOf(skipped.run!, "demo/v1/library_a2a_openapi.json")) as {
        paths: Record<string, Record<string, unknown>>;
      };
      for (const item of Object.values(openapi.paths))
        for (const key of Object.keys(item))
          expect(["get", "put", "post", "delete", "patch", "head", "parameters"]).toContain(key);
      expect(fileOf(skipped.run!, "demo/v1/library_a2a_jsonrpc_methods.ts")).toContain("GetBook");
    },
  );

  it("the standard methods spelled as custom kinds are those methods", () => {
    const result = run("target=ts", custom("get"));
    expect(result.notices).toEqual([]);
    expect(fileOf(result.run!, "demo/v1/library_a2a_rest_routes.ts")).toMatch(
      /method: "GET",\n\s+template: "\/v1\/\{name=shelves\/\*\/books\/\*\}",/,
    );
  });

  it.each([
    [
      "/v1/./{name=shelves/*/books/*}",
      'dot segment "." (URL normalization removes it, so no request could reach this path) at offset 4',
    ],
    [
      "/v1/../{name=shelves/*/books/*}",
      'dot segment ".." (URL normalization removes it, so no request could reach this path) at offset 4',
    ],
    [
      "/v1/{name=shelves/%2e/books/*}",
      'dot segment "%2e" (URL normalization removes it, so no request could reach this path) at offset 18',
    ],
    ["/v1//{name=shelves/*/books/*}", "empty segment at offset 4"],
    ["/v1/{name=shelves/*/books/*}/", "empty segment at offset 29"],
  ])("%s is refused at generation with one line", (template, problem) => {
    const result = run(
      "target=ts",
      withRule("GetBook", { pattern: { case: "get", value: template } }),
    );
    expect(result.error).toBeInstanceOf(GenerationError);
    expect(result.error?.message).toBe(
      `${where}.GetBook: option google.api.http: invalid path template ${JSON.stringify(template)}: ${problem}`,
    );
  });

  it.each([
    [
      "a malformed template",
      withRule("GetBook", { pattern: { case: "get", value: "/v1/./{name}" } }),
      'invalid path template "/v1/./{name}": dot segment',
    ],
    [
      "a GET with a body",
      withRule("GetBook", {
        pattern: { case: "get", value: "/v1/{name=shelves/*/books/*}" },
        body: "*",
      }),
      'GET "/v1/{name=shelves/*/books/*}" must not have a body',
    ],
    [
      "a variable naming no field",
      withRule("GetBook", { pattern: { case: "get", value: "/v1/{title}" } }),
      "path variable {title} in",
    ],
    ["a custom kind (unsupported_rpcs=error)", custom("FOO"), 'custom kind "FOO"'],
  ])(
    "bindings=jsonrpc+grpc emits no REST code: %s only gives a notice",
    (_name, mutate, problem) => {
      const result = run("bindings=jsonrpc+grpc,unsupported_rpcs=error", mutate);
      expect(result.error).toBeUndefined();
      expect(result.notices).toHaveLength(1);
      expect(result.notices[0]).toContain(
        `protoc-gen-a2a: notice: ${where}.GetBook: option google.api.http: HTTP rule ignored, bindings=jsonrpc+grpc emits no HTTP+JSON code: ${problem}`,
      );
      const files = [...result.run!.files.keys()];
      expect(files.filter((f) => /rest|openapi/.test(f))).toEqual([]);
      expect(fileOf(result.run!, "demo/v1/library_a2a_jsonrpc_methods.ts")).toContain("GetBook");
      // with rest, the same rule fails as before (a custom kind under unsupported_rpcs=error too)
      expect(run("unsupported_rpcs=error", mutate).error).toBeInstanceOf(GenerationError);
    },
  );
});

describe("the protoc-gen-a2a executable", () => {
  const bin = join(repoRoot, "plugin/bin/protoc-gen-a2a");

  function exec(files: FileDescriptorProto[], parameter: string) {
    const request = create(CodeGeneratorRequestSchema, {
      fileToGenerate: [fixtures.library.file],
      protoFile: files,
      parameter,
    });
    return spawnSync(process.execPath, [bin], {
      input: toBinary(CodeGeneratorRequestSchema, request),
    });
  }

  it("prints one line naming file, RPC and option, no stack trace, and exits 1", () => {
    const files = loadFixture("library");
    withRule("GetBook", { pattern: { case: "get", value: "/v1/{name" } })(files);
    const result = exec(files, "target=ts");
    expect(result.status).toBe(1);
    const stderr = result.stderr.toString();
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toMatch(
      /^protoc-gen-a2a: demo\/v1\/library\.proto: rpc demo\.v1\.LibraryService\.GetBook: option google\.api\.http: invalid path template "\/v1\/\{name"/,
    );
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it("rejects a bad option the same way", () => {
    const result = exec(loadFixture("library"), "errors=v9");
    expect(result.status).toBe(1);
    expect(result.stderr.toString()).toMatch(
      /^protoc-gen-a2a: invalid option "errors=v9": errors must be one of v1\.0\.1, v1\.0\.0; got "v9"\n$/,
    );
  });

  it("refuses import_extension=.mjs saying why and what to use, in one line", () => {
    const result = exec(loadFixture("library"), "import_extension=.mjs");
    expect(result.status).toBe(1);
    expect(result.stderr.toString()).toMatch(
      /^protoc-gen-a2a: invalid option "import_extension=\.mjs": import_extension must be js, ts or none \(as for protoc-gen-es, [^\n]*use import_extension=js with "type": "module" in package\.json\n$/,
    );
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

  it.each([["--help"], ["-h"], ["init", "--help"]])(
    "%s prints the usage and succeeds",
    (...args) => {
      const result = spawnSync(process.execPath, [bin, ...args]);
      expect(result.status).toBe(0);
      expect(result.stdout.toString()).toMatch(
        /^protoc-gen-a2a v?\d+\.\d+\.\d+: generates A2A servers[\s\S]*protoc-gen-a2a init \[dir\] \[--force\]/,
      );
    },
  );

  it("scaffold-binding --help prints its usage, the bundled binary runs it (ts-morph loaded only then)", () => {
    const help = spawnSync(process.execPath, [bin, "scaffold-binding", "--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout.toString()).toMatch(
      /^usage: protoc-gen-a2a scaffold-binding --name <short-name> --uri <binding URI>/,
    );
    const bad = spawnSync(process.execPath, [bin, "scaffold-binding", "--name", "ws"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr.toString()).toMatch(
      /^protoc-gen-a2a scaffold-binding: --name and --uri are required/,
    );
  });

  it("an unknown command is a usage error (exit 2)", () => {
    const result = spawnSync(process.execPath, [bin, "generate"]);
    expect(result.status).toBe(2);
    expect(result.stderr.toString()).toMatch(/^protoc-gen-a2a: unknown command "generate"/);
  });
});
