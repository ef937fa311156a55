// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * gRPC Server Reflection (grpc.reflection.v1 and v1alpha) on a grpc-js Server: the runtime's
 * reflection index (grpc/reflection.ts, no Connect) behind a grpc-js bidirectional method, with
 * protobuf-es (de)serialization, so `grpcurl` and `buf curl` work without proto files.
 */
import type { Server, ServerDuplexStream, ServiceDefinition } from "@grpc/grpc-js";
import { fromBinary, toBinary, type DescMessage, type DescService, type Message } from "@bufbuild/protobuf";
import { ServerReflectionRequestSchema, ServerReflectionResponseSchema } from "../gen/grpc/reflection/v1/reflection_pb.js";
import {
  ServerReflectionRequestSchema as ServerReflectionRequestSchemaV1Alpha,
  ServerReflectionResponseSchema as ServerReflectionResponseSchemaV1Alpha,
} from "../gen/grpc/reflection/v1alpha/reflection_pb.js";
import { ReflectionIndex } from "../grpc/reflection.js";

/** Adds reflection to `server`, listing `services` and serving the files that define them with their imports. */
export function addGrpcJsReflection(server: Pick<Server, "addService">, services: readonly DescService[]): void {
  const index = new ReflectionIndex(services);
  for (const [version, requestSchema, responseSchema] of [
    ["v1", ServerReflectionRequestSchema, ServerReflectionResponseSchema],
    ["v1alpha", ServerReflectionRequestSchemaV1Alpha, ServerReflectionResponseSchemaV1Alpha],
  ] as const) {
    const definition: ServiceDefinition = {
      ServerReflectionInfo: {
        path: `/grpc.reflection.${version}.ServerReflection/ServerReflectionInfo`,
        requestStream: true,
        responseStream: true,
        requestSerialize: serialize(requestSchema),
        requestDeserialize: deserialize(requestSchema),
        responseSerialize: serialize(responseSchema),
        responseDeserialize: deserialize(responseSchema),
      },
    };
    server.addService(definition, {
      ServerReflectionInfo: (call: ServerDuplexStream<Message, Message>) => {
        call.on("data", (request: Message) => {
          // v1alpha is wire-identical to v1: convert through the binary form.
          const asV1 = version === "v1" ? (request as never) : fromBinary(ServerReflectionRequestSchema, toBinary(requestSchema as DescMessage, request));
          const answer = index.answer(asV1);
          call.write(version === "v1" ? answer : fromBinary(responseSchema, toBinary(ServerReflectionResponseSchema, answer)));
        });
        call.on("end", () => call.end());
        // A client that goes away mid-stream: nothing to clean up.
        call.on("error", () => {});
      },
    });
  }
}

function serialize(schema: DescMessage): (message: Message) => Buffer {
  return (message) => Buffer.from(toBinary(schema, message));
}

function deserialize(schema: DescMessage): (bytes: Buffer) => Message {
  return (bytes) => fromBinary(schema, bytes);
}
