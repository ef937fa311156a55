import { clearExtension, create } from "@bufbuild/protobuf";
import {
  MethodDescriptorProtoSchema,
  ServiceDescriptorProtoSchema,
  type FileDescriptorProto,
  type MethodDescriptorProto,
} from "@bufbuild/protobuf/wkt";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { http } from "../../plugin/src/gen/google/api/annotations_pb.js";
import { GenerationError } from "../../plugin/src/generation-error.js";
import { setNoticeSink, type NoticeSink } from "../../plugin/src/notices.js";
import { parseOptions } from "../../plugin/src/options.js";
import { fileOf, fixtures, runPlugin, type PluginRun } from "../support/plugin-runner.js";

/**
 * Services that do not fit every binding, in-process on library.proto (test/support/plugin-runner.ts):
 * a client- or bidi-streaming RPC is skipped with a notice (`unsupported_rpcs=skip`, the default)
 * or fails generation (`error`); services without google.api.http rules get no REST files and
 * nothing imports them. The gRPC side of a skipped RPC (UNIMPLEMENTED) is in test/e2e/codegen/googleapis-rest.test.ts.
 */

function libraryFile(files: FileDescriptorProto[]): FileDescriptorProto {
  const file = files.find((f) => f.name === fixtures.library.file);
  if (file === undefined) throw new Error("no library.proto");
  return file;
}

function method(files: FileDescriptorProto[], name: string): MethodDescriptorProto {
  const m = libraryFile(files).service[0]?.method.find((x) => x.name === name);
  if (m === undefined) throw new Error(`no method ${name}`);
  return m;
}

let notices: string[];
let previous: NoticeSink;
beforeEach(() => {
  notices = [];
  previous = setNoticeSink((line) => notices.push(line));
});
afterEach(() => {
  setNoticeSink(previous);
});

const where = "protoc-gen-a2a: notice: demo/v1/library.proto: rpc demo.v1.LibraryService";

describe("unsupported_rpcs", () => {
  it("skip (the default): a bidi and a client-streaming RPC are left out with one notice each; the rest of the service is generated", () => {
    const run = runPlugin("library", "target=ts,import_extension=js", (files) => {
      Object.assign(method(files, "ReadFile"), { clientStreaming: true, serverStreaming: true });
      method(files, "Ping").clientStreaming = true;
    });
    expect(notices).toEqual([
      `${where}.ReadFile: skipped: bidi streaming RPCs are not supported (A2A bindings carry unary and server-streaming operations only); a gRPC call of it gets UNIMPLEMENTED (unsupported_rpcs=error fails instead)`,
      `${where}.Ping: skipped: client streaming RPCs are not supported (A2A bindings carry unary and server-streaming operations only); a gRPC call of it gets UNIMPLEMENTED (unsupported_rpcs=error fails instead)`,
    ]);
    const handler = fileOf(run, "demo/v1/library_a2a_handler.ts");
    expect(handler).toMatch(/getBook\(/);
    expect(handler).not.toMatch(/readFile|ReadFile\b|ping\(|"Ping"/);
    for (const name of [
      "library_a2a_rest_routes.ts",
      "library_a2a_jsonrpc_methods.ts",
      "library_a2a_grpc_server.ts",
      "library_a2a_rest_client.ts",
    ]) {
      expect(fileOf(run, `demo/v1/${name}`), name).not.toMatch(/ReadFile|"Ping"/);
    }
    // the gRPC server still serves the service descriptor (the skipped methods answer UNIMPLEMENTED)
    expect(fileOf(run, "demo/v1/library_a2a_grpc_server.ts")).toMatch(/service: LibraryService,/);
  });

  it("error: generation fails as before, naming the RPC", () => {
    let thrown: unknown;
    try {
      runPlugin("library", "unsupported_rpcs=error", (files) => {
        Object.assign(method(files, "ReadFile"), { clientStreaming: true, serverStreaming: true });
      });
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(GenerationError);
    expect((thrown as Error).message).toMatch(
      /^demo\/v1\/library\.proto: rpc demo\.v1\.LibraryService\.ReadFile: bidi streaming RPCs are not supported/,
    );
    expect(notices).toEqual([]);
  });

  it("accepts skip and error only", () => {
    expect(parseOptions([]).unsupportedRpcs).toBe("skip");
    expect(parseOptions([{ key: "unsupported_rpcs", value: "error" }]).unsupportedRpcs).toBe(
      "error",
    );
    expect(() => parseOptions([{ key: "unsupported_rpcs", value: "drop" }])).toThrow(
      'unsupported_rpcs must be skip or error; got "drop"',
    );
  });

  it("a service whose only RPC is skipped still generates (an empty handler)", () => {
    const run = runPlugin("library", "target=ts,import_extension=js", (files) => {
      const file = libraryFile(files);
      file.service.push(
        create(ServiceDescriptorProtoSchema, {
          name: "ChatService",
          method: [
            create(MethodDescriptorProtoSchema, {
              name: "Chat",
              inputType: ".demo.v1.PingRequest",
              outputType: ".demo.v1.PingResponse",
              clientStreaming: true,
              serverStreaming: true,
            }),
          ],
        }),
      );
    });
    expect(notices).toEqual([
      expect.stringMatching(/rpc demo\.v1\.ChatService\.Chat: skipped: bidi streaming/),
    ]);
    expect(fileOf(run, "demo/v1/library_a2a_handler.ts")).toMatch(
      /export interface ChatServiceHandler/,
    );
    expect(fileOf(run, "demo/v1/library_a2a_rest_server.ts")).not.toMatch(/ChatService/);
  });
});

/** Every generated file's name and the files that mention the REST ones or the runtime's REST entry point. */
function restTraces(run: PluginRun): { restFiles: string[]; importers: string[] } {
  const names = [...run.files.keys()];
  return {
    restFiles: names.filter((n) => /_a2a_rest_|_a2a_openapi/.test(n)),
    importers: names.filter((n) => /_a2a_rest_|runtime\/rest"/.test(run.files.get(n) ?? "")),
  };
}

describe("services without google.api.http rules", () => {
  const stripRules = (files: FileDescriptorProto[]) => {
    for (const m of libraryFile(files).service[0]!.method)
      if (m.options !== undefined) clearExtension(m.options, http);
  };

  it("a file where no service has a rule gets no route table, REST server, REST client or OpenAPI, and nothing imports them", () => {
    const run = runPlugin("library", "target=ts,import_extension=js", stripRules);
    expect(run.files.has("demo/v1/library_a2a_handler.ts")).toBe(true);
    expect(run.files.has("demo/v1/library_a2a_jsonrpc_server.ts")).toBe(true);
    expect(run.files.has("demo/v1/library_a2a_grpc_server.ts")).toBe(true);
    expect(restTraces(run)).toEqual({ restFiles: [], importers: [] });
  });

  it("with rules the same file has them (control)", () => {
    const { restFiles } = restTraces(runPlugin("library", "target=ts,import_extension=js"));
    expect(restFiles).toEqual([
      "demo/v1/library_a2a_rest_routes.ts",
      "demo/v1/library_a2a_rest_server.ts",
      "demo/v1/library_a2a_rest_client.ts",
      "demo/v1/library_a2a_openapi.json",
    ]);
  });

  it("A2A-shaped without rules: the agent client and the equivalence kit leave HTTP+JSON out", () => {
    const run = runPlugin("a2a", "target=ts,import_extension=js", (files) => {
      const file = files.find((f) => f.name === fixtures.a2a.file)!;
      for (const m of file.service[0]!.method)
        if (m.options !== undefined) clearExtension(m.options, http);
    });
    expect(restTraces(run)).toEqual({ restFiles: [], importers: [] });
    const agentClient = fileOf(run, "a2a_a2a_agent_client.ts");
    expect(agentClient).toMatch(/export type A2AServiceBinding = "JSONRPC" \| "GRPC";/);
    expect(agentClient).not.toMatch(/RestClient/);
    expect(fileOf(run, "a2a_a2a_equivalence.ts")).not.toMatch(/RestClient|RestServer|"HTTP\+JSON"/);
  });
});
