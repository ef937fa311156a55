// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * gRPC Server Reflection (grpc.reflection.v1 and v1alpha) on a grpc-js Server: the runtime's
 * reflection index (grpc-wire/reflection-index.ts, no Connect) behind a grpc-js bidirectional method, with
 * protobuf-es (de)serialization, so `grpcurl` and `buf curl` work without proto files.
 */
import {
  status as GrpcStatus,
  type Server,
  type ServerDuplexStream,
  type ServiceDefinition,
} from "@grpc/grpc-js";
import {
  fromBinary,
  toBinary,
  type DescFile,
  type DescMessage,
  type DescService,
  type Message,
} from "@bufbuild/protobuf";
import type { ServerReflectionRequest } from "../gen/grpc/reflection/v1/reflection_pb.js";
import type { ServerReflectionRequest as ServerReflectionRequestV1Alpha } from "../gen/grpc/reflection/v1alpha/reflection_pb.js";
import {
  ServerReflectionRequestSchema,
  ServerReflectionResponseSchema,
} from "../gen/grpc/reflection/v1/reflection_pb.js";
import {
  ServerReflectionRequestSchema as ServerReflectionRequestSchemaV1Alpha,
  ServerReflectionResponseSchema as ServerReflectionResponseSchemaV1Alpha,
} from "../gen/grpc/reflection/v1alpha/reflection_pb.js";
import { ReflectionIndex } from "../grpc-wire/reflection-index.js";

/**
 * Adds reflection to `server`, listing `services` and serving the files that define them with their
 * imports, and `files` (e.g. those of google.rpc.ErrorInfo and BadRequest, so that clients decode
 * `grpc-status-details-bin`: `[ErrorInfoSchema.file]`).
 */
export function addGrpcJsReflection(
  server: Pick<Server, "addService">,
  services: readonly DescService[],
  files: readonly DescFile[] = [],
): void {
  const index = new ReflectionIndex(services, files);
  for (const [version, requestSchema, responseSchema, answer] of [
    [
      "v1",
      ServerReflectionRequestSchema,
      ServerReflectionResponseSchema,
      (r: Message) => index.answer(r as ServerReflectionRequest),
    ],
    [
      "v1alpha",
      ServerReflectionRequestSchemaV1Alpha,
      ServerReflectionResponseSchemaV1Alpha,
      (r: Message) => index.answerV1Alpha(r as ServerReflectionRequestV1Alpha),
    ],
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
        let failed = false;
        call.on("data", (request: Message | typeof UNDECODABLE) => {
          // Messages after a failure are not answered: the call is over.
          if (failed) return;
          // grpc-js leaves the call hanging when its deserializer throws on a later message: the call ends here instead.
          if (request === UNDECODABLE) {
            failed = true;
            call.emit("error", {
              code: GrpcStatus.INVALID_ARGUMENT,
              details: "a reflection request that does not decode",
            });
          } else call.write(answer(request));
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

/** What the request deserializer gives for bytes that do not decode (it must not throw, see above). */
const UNDECODABLE: unique symbol = Symbol("undecodable");

function deserialize(schema: DescMessage): (bytes: Buffer) => Message {
  return (bytes) => {
    try {
      return fromBinary(schema, bytes);
    } catch {
      return UNDECODABLE as unknown as Message;
    }
  };
}
