/**
 * gRPC Server Reflection (`listen.reflection`) on both server stacks (grpc-js, the default, and
 * Connect), judged by the tools users reach for: `buf curl` lists and calls the service with no
 * proto file at hand; a raw grpc.reflection.v1 / v1alpha client (grpc-js + proto-loader, not our
 * code) gets back the very FileDescriptorProtos protobuf-es compiled, annotations included.
 */
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import * as grpc from "@grpc/grpc-js";
import { loadSync } from "@grpc/proto-loader";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { file_a2a } from "../../../generated-example/gen/a2a_pb.js";
import {
  createA2AServiceGrpcRoutes,
  listenA2AServiceGrpc,
} from "../../../generated-example/gen/a2a_a2a_grpc_server.js";
import { listenGrpc, type GrpcEndpoint } from "@protoc-gen-a2a/runtime/grpc";
import { TestAgent } from "../../support/test-agent.js";
import { repoRoot } from "../../support/repo-root.js";

const run = promisify(execFile);
const VERSION = ["-H", "A2A-Version: 1.0"];
const require = createRequire(import.meta.url);
const BUF = join(dirname(require.resolve("@bufbuild/buf/package.json")), "bin", "buf");

async function bufCurl(
  ...args: string[]
): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(
      BUF,
      ["curl", "--protocol", "grpc", "--http2-prior-knowledge", ...args],
      { timeout: 30_000 },
    );
    return { stdout, stderr, code: 0 };
  } catch (e) {
    const failure = e as { stdout: string; stderr: string; code: number };
    return { stdout: failure.stdout, stderr: failure.stderr, code: failure.code };
  }
}

const STACKS = {
  "grpc-js": (reflection: boolean) =>
    listenA2AServiceGrpc(new TestAgent(), { listen: { reflection } }),
  connect: (reflection: boolean) =>
    listenGrpc(createA2AServiceGrpcRoutes(new TestAgent()), { reflection }),
} satisfies Record<string, (reflection: boolean) => Promise<GrpcEndpoint>>;

describe.each(Object.keys(STACKS) as (keyof typeof STACKS)[])(
  "gRPC Server Reflection on the %s stack",
  (stack) => {
    let withReflection: GrpcEndpoint;
    let without: GrpcEndpoint;
    beforeAll(async () => {
      withReflection = await STACKS[stack](true);
      without = await STACKS[stack](false);
    });
    afterAll(async () => {
      await Promise.all([withReflection.close(), without.close()]);
    });

    it("buf curl lists the A2A service and its methods", async () => {
      const services = await bufCurl("--list-services", `http://${withReflection.address}`);
      expect(services.code, services.stderr).toBe(0);
      expect(services.stdout.trim().split("\n")).toEqual(["lf.a2a.v1.A2AService"]);
      const methods = await bufCurl("--list-methods", `http://${withReflection.address}`);
      expect(methods.stdout.trim().split("\n").sort()).toEqual(
        file_a2a.services[0]!.methods.map((m) => `lf.a2a.v1.A2AService/${m.name}`).sort(),
      );
    });

    it("buf curl calls a unary RPC from JSON, with no proto file", async () => {
      const message = { messageId: "m-1", role: "ROLE_USER", parts: [{ text: "hello" }] };
      const reply = await bufCurl(
        ...VERSION,
        "-d",
        JSON.stringify({ message }),
        `http://${withReflection.address}/lf.a2a.v1.A2AService/SendMessage`,
      );
      expect(reply.code, reply.stderr).toBe(0);
      expect(JSON.parse(reply.stdout)).toMatchObject({
        message: { role: "ROLE_AGENT", parts: [{ text: "hello" }] },
      });
    });

    it("buf curl shows an A2A error as its gRPC status", async () => {
      const failed = await bufCurl(
        ...VERSION,
        "-d",
        JSON.stringify({
          message: { messageId: "m-2", role: "ROLE_USER", parts: [{ text: "fail" }] },
        }),
        `http://${withReflection.address}/lf.a2a.v1.A2AService/SendMessage`,
      );
      expect(failed.code).not.toBe(0);
      expect(failed.stderr).toMatch(/"code":\s*"not_found"/);
      expect(failed.stderr).toMatch(/Task nope not found/);
    });

    it("a request that does not fit the schema is refused by buf curl before it is sent", async () => {
      const wrong = await bufCurl(
        "-d",
        JSON.stringify({ notAField: 1 }),
        `http://${withReflection.address}/lf.a2a.v1.A2AService/GetTask`,
      );
      expect(wrong.code).not.toBe(0);
      expect(wrong.stderr).toMatch(/notAField/);
    });

    it("is off unless asked for: buf curl then finds no service", async () => {
      const services = await bufCurl("--list-services", `http://${without.address}`);
      expect(services.code).not.toBe(0);
      expect(services.stderr).toMatch(/unimplemented|reflection/i);
    });

    describe.each(["v1", "v1alpha"])("grpc.reflection.%s, raw", (version) => {
      let client: grpc.Client &
        Record<
          string,
          (...args: unknown[]) => grpc.ClientDuplexStream<object, Record<string, unknown>>
        >;
      beforeAll(() => {
        const protoPath = join(
          repoRoot,
          "third_party",
          "grpc-proto",
          "grpc",
          "reflection",
          version,
          "reflection.proto",
        );
        const loaded = grpc.loadPackageDefinition(
          loadSync(protoPath, { keepCase: false, longs: String, defaults: false, oneofs: true }),
        ) as unknown as Record<
          string,
          Record<string, Record<string, Record<string, grpc.ServiceClientConstructor>>>
        >;
        const Service = loaded["grpc"]!["reflection"]![version]!["ServerReflection"]!;
        client = new Service(withReflection.address, grpc.credentials.createInsecure()) as never;
      });
      afterAll(() => client.close());

      async function ask(request: object): Promise<Record<string, unknown>> {
        const call = client["serverReflectionInfo"]!();
        const answer = new Promise<Record<string, unknown>>((resolve, reject) => {
          call.once("data", resolve);
          call.once("error", reject);
        });
        call.write(request);
        call.end();
        return answer;
      }

      it("file_containing_symbol answers with a2a.proto as protobuf-es compiled it, and its imports", async () => {
        const answer = await ask({ fileContainingSymbol: "lf.a2a.v1.A2AService" });
        const files = (
          answer["fileDescriptorResponse"] as { fileDescriptorProto: Buffer[] }
        ).fileDescriptorProto.map((b) => fromBinary(FileDescriptorProtoSchema, b));
        const a2a = files.find((f) => f.name === "a2a.proto");
        expect(a2a).toBeDefined();
        expect(toBinary(FileDescriptorProtoSchema, a2a!)).toEqual(
          toBinary(FileDescriptorProtoSchema, file_a2a.proto),
        );
        // The requested file first, then its imports, transitively (google/api/http.proto comes through annotations.proto).
        const names = files.map((f) => f.name);
        expect(names[0]).toBe("a2a.proto");
        for (const dependency of [
          ...file_a2a.proto.dependency,
          "google/api/http.proto",
          "google/protobuf/descriptor.proto",
        ])
          expect(names).toContain(dependency);
        expect(new Set(names).size).toBe(names.length);
      });

      it.each([
        ["a method", "lf.a2a.v1.A2AService.GetTask", "a2a.proto"],
        ["a nested field", "lf.a2a.v1.Task.status", "a2a.proto"],
        ["an enum value (scoped beside its enum)", "lf.a2a.v1.TASK_STATE_WORKING", "a2a.proto"],
        [
          "an imported type, leading dot",
          ".google.protobuf.Timestamp",
          "google/protobuf/timestamp.proto",
        ],
        ["an extension", "google.api.field_behavior", "google/api/field_behavior.proto"],
      ])("file_containing_symbol finds %s", async (_, symbol, file) => {
        const answer = await ask({ fileContainingSymbol: symbol });
        const first = (answer["fileDescriptorResponse"] as { fileDescriptorProto: Buffer[] })
          .fileDescriptorProto[0]!;
        expect(fromBinary(FileDescriptorProtoSchema, first).name).toBe(file);
      });

      it("file_by_filename and file_containing_extension serve the declaring file", async () => {
        const byName = await ask({ fileByFilename: "google/api/http.proto" });
        expect(
          fromBinary(
            FileDescriptorProtoSchema,
            (byName["fileDescriptorResponse"] as { fileDescriptorProto: Buffer[] })
              .fileDescriptorProto[0]!,
          ).name,
        ).toBe("google/api/http.proto");
        const byExtension = await ask({
          fileContainingExtension: {
            containingType: "google.protobuf.MethodOptions",
            extensionNumber: 72295728,
          },
        });
        expect(
          fromBinary(
            FileDescriptorProtoSchema,
            (byExtension["fileDescriptorResponse"] as { fileDescriptorProto: Buffer[] })
              .fileDescriptorProto[0]!,
          ).name,
        ).toBe("google/api/annotations.proto");
        const numbers = await ask({ allExtensionNumbersOfType: "google.protobuf.FieldOptions" });
        expect(numbers["allExtensionNumbersResponse"]).toMatchObject({
          baseTypeName: "google.protobuf.FieldOptions",
          extensionNumber: [1052],
        });
      });

      it("list_services names the A2A service only", async () => {
        expect(await ask({ listServices: "*" })).toMatchObject({
          listServicesResponse: { service: [{ name: "lf.a2a.v1.A2AService" }] },
        });
      });

      it.each([
        ["an unknown symbol", { fileContainingSymbol: "no.such.Symbol" }, grpc.status.NOT_FOUND],
        ["an unknown file", { fileByFilename: "nope.proto" }, grpc.status.NOT_FOUND],
        [
          "an unknown extension",
          {
            fileContainingExtension: {
              containingType: "google.protobuf.MethodOptions",
              extensionNumber: 1,
            },
          },
          grpc.status.NOT_FOUND,
        ],
        [
          "an unknown type's extensions",
          { allExtensionNumbersOfType: "no.Such" },
          grpc.status.NOT_FOUND,
        ],
        ["no query at all", {}, grpc.status.INVALID_ARGUMENT],
      ])("%s is an error response, not a failed stream", async (_, request, code) => {
        const answer = await ask(request);
        expect(answer["errorResponse"]).toMatchObject({ errorCode: code });
        expect(answer["originalRequest"]).toBeDefined();
      });

      it("answers several requests on one stream, in order", async () => {
        const call = client["serverReflectionInfo"]!();
        const answers: Record<string, unknown>[] = [];
        const done = new Promise<void>((resolve, reject) => {
          call.on("data", (a: Record<string, unknown>) => answers.push(a));
          call.on("end", resolve);
          call.on("error", reject);
        });
        call.write({ listServices: "" });
        call.write({ fileByFilename: "a2a.proto" });
        call.write({ fileContainingSymbol: "nope" });
        call.end();
        await done;
        expect(answers.map((a) => a["messageResponse"])).toEqual([
          "listServicesResponse",
          "fileDescriptorResponse",
          "errorResponse",
        ]);
      });
    });
  },
);
