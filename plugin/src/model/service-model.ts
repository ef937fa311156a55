// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import type { DescFile, DescService } from "@bufbuild/protobuf";
import type { PluginOptions } from "../options.js";
import { GenerationError, generationError } from "../generation-error.js";
import { notice } from "../notices.js";
import { buildHttpBindings } from "./http-binding.js";
import { collectRequiredFields, type MessageRequirements } from "./required-fields.js";
import { errorCatalog, type ErrorCatalogEntry } from "./error-catalog.js";
import { serviceParameters, type ServiceParameter } from "./service-parameters.js";
import { taskRuntimeModel, type TaskRuntimeModel } from "./task-runtime.js";
import { provenanceOf, type Provenance } from "./provenance.js";
import {
  ambiguousRpcNames,
  documentedJsonRpcMethod,
  operationLocalNames,
} from "./operation-names.js";
import type { OperationModel } from "./operation-model.js";

export type { OperationKind, OperationModel } from "./operation-model.js";

/**
 * The one model of an A2A-style service that every emitter reads. It is built once
 * per proto file, from the descriptors and the plugin options; emitters never look
 * at raw descriptors options themselves.
 */
export interface FileModel {
  readonly file: DescFile;
  /** Proto file name with extension, for messages ("a2a.proto"). */
  readonly fileName: string;
  readonly services: readonly ServiceModel[];
  /** The error catalog of the selected profile (spec §5.4 plus JSON-RPC standard and auth errors). */
  readonly errors: readonly ErrorCatalogEntry[];
  /** The service parameters of spec §3.2.6, with their per-binding spelling. */
  readonly serviceParameters: readonly ServiceParameter[];
  readonly options: PluginOptions;
  /** The proto's and the options' hashes, which every generated file carries. */
  readonly provenance: Provenance;
}

export interface ServiceModel {
  readonly desc: DescService;
  /** Fully qualified name, "lf.a2a.v1.A2AService". */
  readonly typeName: string;
  readonly operations: readonly OperationModel[];
  /** REQUIRED fields (google.api.field_behavior) of every message reachable from the service's requests: validated on input. */
  readonly requirements: MessageRequirements;
  /**
   * REQUIRED fields of every message reachable from the service's responses: emitted
   * even at their zero value (spec §3.1.4 `nextPageToken: ""`, §8.4.1 canonical form).
   */
  readonly responseRequirements: MessageRequirements;
  /** The pieces the task runtime needs, when the service is A2A-shaped (all eleven operations and the A2A messages). */
  readonly taskRuntime: TaskRuntimeModel | undefined;
  /**
   * Why the task runtime refuses an A2A-shaped service (the drift GenerationError's message):
   * only set when the model was built with `taskRuntimeDrift: "record"` (the diff command).
   */
  readonly taskRuntimeRefusal?: string | undefined;
}

/** How {@link buildFileModel} treats an A2A-shaped service the task runtime's contract refuses. */
export interface BuildOptions {
  /** "throw" (generation: the one-line GenerationError) or "record" (describing a proto: `taskRuntimeRefusal`). Default "throw". */
  readonly taskRuntimeDrift?: "throw" | "record";
}

/** Builds the model of one proto file. Throws GenerationError on unsupported shapes. */
export function buildFileModel(
  file: DescFile,
  options: PluginOptions,
  parameter = "",
  build: BuildOptions = {},
): FileModel {
  const fileName = file.proto.name;
  const ambiguous = ambiguousRpcNames(file.services);
  const services = file.services.map((service) =>
    buildServiceModel(fileName, service, options, build, ambiguous),
  );
  return {
    file,
    fileName,
    services,
    errors: errorCatalog(options.errorProfile),
    serviceParameters,
    options,
    provenance: provenanceOf(file, parameter),
  };
}

function buildServiceModel(
  fileName: string,
  service: DescService,
  options: PluginOptions,
  build: BuildOptions,
  ambiguous: ReadonlySet<string>,
): ServiceModel {
  const localNames = operationLocalNames(service.methods);
  const operations = service.methods.flatMap((method): OperationModel[] => {
    const where = { file: fileName, rpc: `${service.typeName}.${method.name}` };
    if (method.methodKind !== "unary" && method.methodKind !== "server_streaming") {
      const kind = method.methodKind.replace("_", " ");
      if (options.unsupportedRpcs === "error") {
        throw generationError(
          where,
          `${kind} RPCs are not supported: A2A bindings (JSON-RPC, HTTP+JSON with SSE, gRPC) carry unary and server-streaming operations only`,
        );
      }
      notice(
        where,
        `skipped: ${kind} RPCs are not supported (A2A bindings carry unary and server-streaming operations only); a gRPC call of it gets UNIMPLEMENTED (unsupported_rpcs=error fails instead)`,
      );
      return [];
    }
    return [
      {
        desc: method,
        name: method.name,
        localName: localNames.get(method.name) ?? method.localName,
        jsonRpcMethod: documentedJsonRpcMethod(service, method, ambiguous),
        grpcPath: `/${service.typeName}/${method.name}`,
        kind: method.methodKind,
        input: method.input,
        output: method.output,
        httpBindings: buildHttpBindings(where, method, options),
      },
    ];
  });
  let taskRuntime: TaskRuntimeModel | undefined;
  let taskRuntimeRefusal: string | undefined;
  try {
    taskRuntime = taskRuntimeModel(service, { operations });
  } catch (e) {
    if (!(e instanceof GenerationError) || build.taskRuntimeDrift !== "record") throw e;
    taskRuntimeRefusal = e.message;
  }
  return {
    desc: service,
    typeName: service.typeName,
    operations,
    requirements: collectRequiredFields(operations.map((o) => o.input)),
    // Responses are not validated: their table only fills in zero values, so oneof rules stay out.
    responseRequirements: collectRequiredFields(
      operations.map((o) => o.output),
      { oneofs: false },
    ),
    taskRuntime,
    ...(taskRuntimeRefusal !== undefined ? { taskRuntimeRefusal } : {}),
  };
}
