/**
 * gRPC Server Reflection serves the error details' schema (issue #25, point 6) on both stacks (grpc-js:
 * listenA2AServiceGrpc; Connect: listenGrpc): google/rpc/error_details.proto, which a2a.proto does not
 * import, so that a client can decode the google.rpc.ErrorInfo and BadRequest packed in
 * `grpc-status-details-bin`:
 *   - a raw grpc.reflection.v1 client (grpc-js + proto-loader) resolves both symbols to that file;
 *   - with the files it serves, a client that knows only google.rpc.Status decodes an A2A error's details
 *     (as grpcurl does; buf curl prints details with the types compiled into it, not from reflection).
 */
import { connect } from "node:http2";
import { join } from "node:path";
import { create, createFileRegistry, fromBinary, toBinary } from "@bufbuild/protobuf";
import {
  anyUnpack,
  FileDescriptorProtoSchema,
  FileDescriptorSetSchema,
  type FileDescriptorProto,
} from "@bufbuild/protobuf/wkt";
import * as grpc from "@grpc/grpc-js";
import { loadSync } from "@grpc/proto-loader";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { file_google_rpc_error_details } from "../../../generated-example/gen/google/rpc/error_details_pb.js";
import {
  createA2AServiceGrpcRoutes,
  listenA2AServiceGrpc,
} from "../../../generated-example/gen/a2a_a2a_grpc_server.js";
import { listenGrpc, type GrpcEndpoint } from "@protoc-gen-a2a/runtime/grpc";
import { StatusSchema } from "../../../generated-example/gen/google/rpc/status_pb.js";
import { TestAgent } from "../../support/test-agent.js";
import { frame } from "../../support/grpc-frames.js";
import { repoRoot } from "../../support/repo-root.js";

/** The grpc-status-details-bin of one call (trailers, or a trailers-only answer). */
function statusDetails(address: string, method: string, body: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const session = connect(`http://${address}`);
    session.on("error", reject);
    const req = session.request({
      ":method": "POST",
      ":path": `/lf.a2a.v1.A2AService/${method}`,
      "content-type": "application/grpc",
      te: "trailers",
      "a2a-version": "1.0",
    });
    let details: unknown;
    req.on("response", (h) => (details ??= h["grpc-status-details-bin"]));
    req.on("trailers", (t) => (details ??= t["grpc-status-details-bin"]));
    req.resume();
    req.on("close", () => {
      session.close();
      typeof details === "string"
        ? resolve(details)
        : reject(new Error("no grpc-status-details-bin"));
    });
    req.end(body);
  });
}

const STACKS = {
  "grpc-js": () =>
    listenA2AServiceGrpc(new TestAgent(), { logger: { error() {} }, listen: { reflection: true } }),
  connect: () =>
    listenGrpc(createA2AServiceGrpcRoutes(new TestAgent(), { logger: { error() {} } }), {
      reflection: true,
    }),
} satisfies Record<string, () => Promise<GrpcEndpoint>>;

describe.each(Object.keys(STACKS) as (keyof typeof STACKS)[])(
  "reflection of the error details on the %s stack",
  (stack) => {
    let endpoint: GrpcEndpoint;
    let client: grpc.Client &
      Record<string, () => grpc.ClientDuplexStream<object, Record<string, unknown>>>;
    beforeAll(async () => {
      endpoint = await STACKS[stack]();
      const protoPath = join(
        repoRoot,
        "third_party",
        "grpc-proto",
        "grpc",
        "reflection",
        "v1",
        "reflection.proto",
      );
      const loaded = grpc.loadPackageDefinition(
        loadSync(protoPath, { keepCase: false, longs: String, defaults: false, oneofs: true }),
      ) as unknown as Record<
        string,
        Record<string, Record<string, Record<string, grpc.ServiceClientConstructor>>>
      >;
      const Service = loaded["grpc"]!["reflection"]!["v1"]!["ServerReflection"]!;
      client = new Service(endpoint.address, grpc.credentials.createInsecure()) as never;
    });
    afterAll(async () => {
      client.close();
      await endpoint.close();
    });

    async function fileDescriptors(symbol: string): Promise<FileDescriptorProto[]> {
      const call = client["serverReflectionInfo"]!();
      const answer = new Promise<Record<string, unknown>>((resolve, reject) => {
        call.once("data", resolve);
        call.once("error", reject);
      });
      call.write({ fileContainingSymbol: symbol });
      call.end();
      const files =
        ((await answer)["fileDescriptorResponse"] as { fileDescriptorProto: Buffer[] } | undefined)
          ?.fileDescriptorProto ?? [];
      return files.map((b) => fromBinary(FileDescriptorProtoSchema, b));
    }

    const fileContaining = async (symbol: string) =>
      (await fileDescriptors(symbol)).map((f) => f.name);

    it.each([
      "google.rpc.ErrorInfo",
      "google.rpc.BadRequest",
      "google.rpc.BadRequest.FieldViolation",
    ])("file_containing_symbol %s: google/rpc/error_details.proto, as compiled", async (symbol) => {
      const names = await fileContaining(symbol);
      expect(names[0]).toBe("google/rpc/error_details.proto");
      // With its imports (google/protobuf/duration.proto), each once.
      for (const dependency of file_google_rpc_error_details.proto.dependency)
        expect(names).toContain(dependency);
      expect(new Set(names).size).toBe(names.length);
    });

    it("serves the file byte for byte as protobuf-es compiled it", async () => {
      const call = client["serverReflectionInfo"]!();
      const answer = new Promise<Record<string, unknown>>((resolve, reject) => {
        call.once("data", resolve);
        call.once("error", reject);
      });
      call.write({ fileByFilename: "google/rpc/error_details.proto" });
      call.end();
      const first = ((await answer)["fileDescriptorResponse"] as { fileDescriptorProto: Buffer[] })
        .fileDescriptorProto[0]!;
      expect(
        toBinary(FileDescriptorProtoSchema, fromBinary(FileDescriptorProtoSchema, first)),
      ).toEqual(toBinary(FileDescriptorProtoSchema, file_google_rpc_error_details.proto));
    });

    it("list_services still names the A2A service only", async () => {
      const call = client["serverReflectionInfo"]!();
      const answer = new Promise<Record<string, unknown>>((resolve, reject) => {
        call.once("data", resolve);
        call.once("error", reject);
      });
      call.write({ listServices: "*" });
      call.end();
      expect(await answer).toMatchObject({
        listServicesResponse: { service: [{ name: "lf.a2a.v1.A2AService" }] },
      });
    });

    it("a client that knows only google.rpc.Status decodes an error's ErrorInfo and BadRequest from what reflection serves", async () => {
      // What grpcurl does: the Any details' types looked up by reflection, then decoded with them.
      const files = await fileDescriptors("google.rpc.ErrorInfo");
      // Reflection answers the file first, then its imports: a registry is built imports first.
      const registry = createFileRegistry(
        create(FileDescriptorSetSchema, { file: files.reverse() }),
      );
      // GetTask without its REQUIRED id: InvalidParams with a BadRequest naming `id`.
      const details = await statusDetails(endpoint.address, "GetTask", frame(Buffer.alloc(0)));
      const status = fromBinary(StatusSchema, Buffer.from(details, "base64"));
      const [info, bad] = status.details.map((any) => anyUnpack(any, registry));
      expect(info?.$typeName).toBe("google.rpc.ErrorInfo");
      expect(info).toMatchObject({ reason: "INVALID_PARAMS", domain: "a2a-protocol.org" });
      expect(bad?.$typeName).toBe("google.rpc.BadRequest");
      expect(bad).toMatchObject({ fieldViolations: [{ field: "id" }] });
    });
  },
);
