// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * gRPC Server Reflection (grpc.reflection.v1, and v1alpha which older clients ask for): what
 * `grpcurl` and `buf curl` use to list, describe and call a service with no proto file at hand.
 * This file answers the requests; grpc/reflection-service.ts serves it on Connect, and
 * grpc-js/reflection.ts on grpc-js. No Connect and no grpc-js here.
 *
 * The files served are the protobuf-es descriptors of the `_pb` files, byte for byte as
 * compiled, so the REQUIRED annotations (`google.api.field_behavior`) and the
 * `google.api.http` bindings stay visible to `grpcurl describe`. (@grpc/reflection re-encodes
 * files through protobufjs, which drops custom options, and serves grpc-js only.)
 */
import {
  create,
  toBinary,
  type MessageInitShape,
  type DescEnum,
  type DescFile,
  type DescMessage,
  type DescService,
} from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import { fromBinary } from "@bufbuild/protobuf";
import type {
  ServerReflectionRequest,
  ServerReflectionResponse,
} from "../gen/grpc/reflection/v1/reflection_pb.js";
import {
  ServerReflectionRequestSchema,
  ServerReflectionResponseSchema,
} from "../gen/grpc/reflection/v1/reflection_pb.js";
import * as v1alpha from "../gen/grpc/reflection/v1alpha/reflection_pb.js";

/** gRPC status codes of an ErrorResponse. */
const NOT_FOUND = 5;
const INVALID_ARGUMENT = 3;

/** The services of a server, indexed once: files by name, symbols and extensions to their file. */
export class ReflectionIndex {
  readonly #services: readonly string[];
  readonly #files = new Map<string, DescFile>();
  readonly #encoded = new Map<string, Uint8Array>();
  readonly #symbols = new Map<string, DescFile>();
  /** Extendee type name → extension number → the file that declares the extension. */
  readonly #extensions = new Map<string, Map<number, DescFile>>();

  /**
   * `services`: what `list_services` answers (and whose files, with their imports, are served);
   * `files`: more files to serve, with their imports, e.g. google/rpc/error_details.proto, so that a
   * client can decode the ErrorInfo and BadRequest of `grpc-status-details-bin` (buf curl shows them
   * as base64 otherwise).
   */
  constructor(services: readonly DescService[], files: readonly DescFile[] = []) {
    this.#services = [...new Set(services.map((s) => s.typeName))].sort();
    for (const file of filesWithImports([...services.map((s) => s.file), ...files])) {
      this.#files.set(file.proto.name, file);
      this.#indexFile(file);
    }
  }

  /** The answer to one request of the ServerReflectionInfo stream. */
  answer(request: ServerReflectionRequest): ServerReflectionResponse {
    const response = (
      messageResponse: NonNullable<
        MessageInitShape<typeof ServerReflectionResponseSchema>["messageResponse"]
      >,
    ): ServerReflectionResponse =>
      create(ServerReflectionResponseSchema, {
        validHost: request.host,
        originalRequest: request,
        messageResponse,
      });
    const notFound = (errorMessage: string) =>
      response({ case: "errorResponse", value: { errorCode: NOT_FOUND, errorMessage } });
    const files = (file: DescFile | undefined, what: string) =>
      file === undefined
        ? notFound(`${what} not found`)
        : response({
            case: "fileDescriptorResponse",
            value: { fileDescriptorProto: this.#withImports(file) },
          });
    const r = request.messageRequest;
    switch (r.case) {
      case "listServices":
        return response({
          case: "listServicesResponse",
          value: { service: this.#services.map((name) => ({ name })) },
        });
      case "fileByFilename":
        return files(this.#files.get(r.value), `file ${JSON.stringify(r.value)}`);
      case "fileContainingSymbol":
        return files(
          this.#symbols.get(r.value.replace(/^\./, "")),
          `symbol ${JSON.stringify(r.value)}`,
        );
      case "fileContainingExtension":
        return files(
          this.#extensions
            .get(r.value.containingType.replace(/^\./, ""))
            ?.get(r.value.extensionNumber),
          `extension ${r.value.extensionNumber} of ${JSON.stringify(r.value.containingType)}`,
        );
      case "allExtensionNumbersOfType": {
        const baseTypeName = r.value.replace(/^\./, "");
        const byNumber = this.#extensions.get(baseTypeName);
        if (byNumber === undefined && !this.#symbols.has(baseTypeName))
          return notFound(`type ${JSON.stringify(r.value)} not found`);
        return response({
          case: "allExtensionNumbersResponse",
          value: {
            baseTypeName,
            extensionNumber: [...(byNumber?.keys() ?? [])].sort((a, b) => a - b),
          },
        });
      }
      default:
        return response({
          case: "errorResponse",
          value: {
            errorCode: INVALID_ARGUMENT,
            errorMessage: "the request names no reflection query",
          },
        });
    }
  }

  /** The answer to a v1alpha request: v1alpha is wire-identical to v1, so both convert through their binary form. */
  answerV1Alpha(request: v1alpha.ServerReflectionRequest): v1alpha.ServerReflectionResponse {
    const answer = this.answer(
      fromBinary(
        ServerReflectionRequestSchema,
        toBinary(v1alpha.ServerReflectionRequestSchema, request),
      ),
    );
    return fromBinary(
      v1alpha.ServerReflectionResponseSchema,
      toBinary(ServerReflectionResponseSchema, answer),
    );
  }

  /** The file first, then every file it imports, transitively (encoded once, on first use). */
  #withImports(file: DescFile): Uint8Array[] {
    return filesWithImports([file])
      .reverse()
      .map((f) => {
        let bytes = this.#encoded.get(f.proto.name);
        if (bytes === undefined)
          this.#encoded.set(f.proto.name, (bytes = toBinary(FileDescriptorProtoSchema, f.proto)));
        return bytes;
      });
  }

  #indexFile(file: DescFile): void {
    const symbol = (name: string) => {
      if (!this.#symbols.has(name)) this.#symbols.set(name, file);
    };
    const enumeration = (e: DescEnum, scope: string) => {
      symbol(e.typeName);
      // Enum values are scoped like siblings of their enum (protobuf's C++ scoping rules).
      for (const value of e.values) symbol(`${scope}${value.name}`);
    };
    const extensionsOf = (
      extensions: readonly { typeName: string; number: number; extendee: DescMessage }[],
    ) => {
      for (const ext of extensions) {
        symbol(ext.typeName);
        let byNumber = this.#extensions.get(ext.extendee.typeName);
        if (byNumber === undefined)
          this.#extensions.set(ext.extendee.typeName, (byNumber = new Map()));
        byNumber.set(ext.number, file);
      }
    };
    const message = (m: DescMessage) => {
      symbol(m.typeName);
      for (const field of m.fields) symbol(`${m.typeName}.${field.name}`);
      for (const oneof of m.oneofs) symbol(`${m.typeName}.${oneof.name}`);
      for (const nested of m.nestedMessages) message(nested);
      for (const e of m.nestedEnums) enumeration(e, `${m.typeName}.`);
      extensionsOf(m.nestedExtensions);
    };
    const pkg = file.proto.package === "" ? "" : `${file.proto.package}.`;
    for (const m of file.messages) message(m);
    for (const e of file.enums) enumeration(e, pkg);
    extensionsOf(file.extensions);
    for (const service of file.services) {
      symbol(service.typeName);
      for (const method of service.methods) symbol(`${service.typeName}.${method.name}`);
    }
  }
}

/** The files and, transitively, everything they import; each once, imports before importers. */
export function filesWithImports(roots: readonly DescFile[]): DescFile[] {
  const seen = new Set<string>();
  const out: DescFile[] = [];
  const visit = (file: DescFile): void => {
    if (seen.has(file.proto.name)) return;
    seen.add(file.proto.name);
    for (const dependency of file.dependencies) visit(dependency);
    out.push(file);
  };
  for (const root of roots) visit(root);
  return out;
}
