// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * gRPC Server Reflection on Connect: `grpc.reflection.v1.ServerReflection` and its v1alpha twin
 * (the same messages under another package, which older `grpcurl` releases ask for first) on a
 * Connect router. Reflection is a bidirectional stream, so it needs HTTP/2 (the gRPC listener);
 * gRPC-web and Connect clients on HTTP/1.1 cannot use it.
 */
import type { ConnectRouter } from "@connectrpc/connect";
import type { DescFile, DescService } from "@bufbuild/protobuf";
import { ServerReflection } from "../gen/grpc/reflection/v1/reflection_pb.js";
import { ServerReflection as ServerReflectionV1Alpha } from "../gen/grpc/reflection/v1alpha/reflection_pb.js";
import { ReflectionIndex } from "../grpc-wire/reflection-index.js";
import { reflectionFilesOf } from "./reflection-files.js";

/**
 * Registers reflection on `router` for `services`, or, when omitted, for every service the router
 * has at that point (register your services first). Served as well: `files`, and the files of the
 * error details (google.rpc.ErrorInfo, BadRequest, Status) of the A2A services registered on the
 * router (registerGrpcService), so that clients decode `grpc-status-details-bin`.
 */
export function registerGrpcReflection(
  router: ConnectRouter,
  services?: readonly DescService[],
  files: readonly DescFile[] = [],
): void {
  const index = new ReflectionIndex(
    services ?? [...new Set(router.handlers.map((h) => h.service))],
    [...files, ...reflectionFilesOf(router)],
  );
  router.service(ServerReflection, {
    async *serverReflectionInfo(requests) {
      for await (const request of requests) yield index.answer(request);
    },
  });
  router.service(ServerReflectionV1Alpha, {
    async *serverReflectionInfo(requests) {
      for await (const request of requests) yield index.answerV1Alpha(request);
    },
  });
}
