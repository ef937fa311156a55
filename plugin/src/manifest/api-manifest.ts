// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The API manifest of a proto file's services (`<file>_a2a_manifest.json`): what the bindings
 * expose, as data, from the one model (service-model.ts), for `protoc-gen-a2a diff` and for
 * tools that want the API without parsing protos. The format is versioned
 * ({@link MANIFEST_VERSION}); every list is in a fixed order (operations and fields in proto
 * order, types by full name, errors in catalog order), so the same proto and options give
 * the same bytes.
 */
import {
  getOption,
  hasOption,
  ScalarType,
  type DescEnum,
  type DescField,
  type DescMessage,
} from "@bufbuild/protobuf";
import { FeatureSet_FieldPresence } from "@bufbuild/protobuf/wkt";
import { FieldBehavior, field_behavior } from "../gen/google/api/field_behavior_pb.js";
import type { FileModel, OperationKind, ServiceModel } from "../model/service-model.js";
import type { HttpBindingOrigin } from "../model/http-binding.js";
import type { RequiredCheck } from "../model/required-fields.js";
import { requiredRule } from "../model/required-fields.js";
import { fieldConstraint } from "../model/field-constraints.js";
import { exactlyOneRule } from "../model/oneof-rules.js";
import { generatedNotice } from "../emit/schema/generated-notice.js";
import { reachableTypes } from "../emit/schema/message-schema.js";
import { version } from "../version.js";
import { A2A_OPERATIONS } from "../../../runtime/src/protocol/a2a-operations.js";

/** The version of the manifest format; readers refuse a newer one. */
export const MANIFEST_VERSION = 1;

export interface ApiManifest {
  readonly $comment: string;
  readonly manifestVersion: typeof MANIFEST_VERSION;
  /** The proto file, as the compiler names it ("a2a.proto"). */
  readonly file: string;
  readonly package: string;
  readonly provenance: ManifestProvenance;
  /** The options that shape the API (the rest only shape the code). */
  readonly options: {
    readonly errors: string;
    readonly subscribePost: boolean;
    readonly bindings: readonly string[];
  };
  readonly services: readonly ManifestService[];
  /** Every message reachable from the operations (well-known types excluded), by full name. */
  readonly messages: readonly ManifestMessage[];
  /** Every enum reachable from the operations, by full name. */
  readonly enums: readonly ManifestEnum[];
  readonly errors: { readonly profile: string; readonly entries: readonly ManifestError[] };
  readonly serviceParameters: readonly ManifestServiceParameter[];
}

export interface ManifestProvenance {
  readonly generator: string;
  readonly protoSha256: string;
  readonly optionsSha256: string;
  /** The plugin parameter the model was built with. */
  readonly parameter: string;
}

export interface ManifestService {
  /** Fully qualified name. */
  readonly name: string;
  /**
   * Whether the task runtime (`create<Service>TaskHandler`) applies, and if not why: `reason` for a
   * service that is not A2A-shaped; `error` for an A2A-shaped one the task runtime refuses (its
   * GenerationError: the plugin stops there, so only `protoc-gen-a2a diff` writes such a manifest).
   */
  readonly taskRuntime: {
    readonly applies: boolean;
    readonly reason?: string;
    readonly error?: string;
  };
  readonly operations: readonly ManifestOperation[];
}

/** How the task runtime answers an operation: it implements it, or it answers UnsupportedOperationError. */
export type TaskRuntimeSupport = "implemented" | "unsupported";

export interface ManifestOperation {
  readonly name: string;
  readonly kind: OperationKind;
  readonly request: string;
  readonly response: string;
  readonly jsonRpcMethod: string;
  readonly grpcPath: string;
  readonly http: readonly ManifestHttpBinding[];
  /** Present when the task runtime applies to the service. */
  readonly taskRuntime?: TaskRuntimeSupport;
  readonly deprecated?: true;
}

export interface ManifestHttpBinding {
  readonly method: string;
  readonly template: string;
  /** "" (no body), "*" or a top-level field name. */
  readonly body: string;
  readonly origin: HttpBindingOrigin;
}

/** Where a type is used: inside requests (validated on input), responses (and stream events), or both. */
export type TypeUsage = "request" | "response";

export interface ManifestMessage {
  readonly name: string;
  /** The proto file that declares it. */
  readonly file: string;
  readonly usage: readonly TypeUsage[];
  readonly fields: readonly ManifestField[];
  readonly oneofs?: readonly ManifestOneof[];
  readonly reserved?: { readonly numbers?: readonly string[]; readonly names?: readonly string[] };
  readonly deprecated?: true;
}

/** singular (implicit presence or a message), optional (proto3 `optional`), repeated, map. */
export type FieldCardinality = "singular" | "optional" | "repeated" | "map";

export interface ManifestField {
  readonly name: string;
  readonly number: number;
  readonly jsonName: string;
  /** A scalar's proto name ("string", "int32"), or a message's or enum's full name; for maps, the value type. */
  readonly type: string;
  readonly cardinality: FieldCardinality;
  /** A map's key type. */
  readonly keyType?: string;
  /** The oneof the field belongs to. */
  readonly oneof?: string;
  /** `google.api.field_behavior` values, as written. */
  readonly fieldBehavior?: readonly string[];
  /** How the generated validation checks it as REQUIRED (required-fields.ts); absent when it is not. */
  readonly required?: RequiredCheck;
  /** A numeric range from the spec text (field-constraints.ts). */
  readonly range?: { readonly min?: number; readonly max?: number };
  readonly deprecated?: true;
}

export interface ManifestOneof {
  readonly name: string;
  readonly fields: readonly string[];
  /** Set when the spec requires exactly one member (oneof-rules.ts): its source. Otherwise at most one. */
  readonly exactlyOne?: string;
}

export interface ManifestEnum {
  readonly name: string;
  readonly file: string;
  readonly usage: readonly TypeUsage[];
  readonly values: readonly {
    readonly name: string;
    readonly number: number;
    readonly deprecated?: true;
  }[];
}

export interface ManifestError {
  readonly name: string;
  readonly category: string;
  readonly jsonRpcCode: number;
  readonly httpStatus: number;
  readonly grpcStatus: string;
  readonly reason: string;
}

export interface ManifestServiceParameter {
  readonly name: string;
  readonly grpcKey: string;
  readonly query: boolean;
}

/** Why the task runtime does not apply to a service without all eleven A2A operations. */
function notA2AShaped(service: ServiceModel): string {
  const names = new Set(service.operations.map((o) => o.name));
  const missing = A2A_OPERATIONS.filter((rpc) => !names.has(rpc));
  if (missing.length === A2A_OPERATIONS.length)
    return "not an A2A service: none of the eleven A2A operations";
  return `not A2A-shaped: no ${missing.join(", ")} (the task runtime needs all eleven A2A operations)`;
}

/** The manifest of one proto file's services, from its model. Pure: the same model gives the same object. */
export function apiManifest(model: FileModel, parameter: string): ApiManifest {
  const requests = model.services.flatMap((s) => s.operations.map((o) => o.input));
  const responses = model.services.flatMap((s) => s.operations.map((o) => o.output));
  const inRequests = new Set(reachableTypes(requests).map((t) => t.typeName));
  const inResponses = new Set(reachableTypes(responses).map((t) => t.typeName));
  const usage = (typeName: string): TypeUsage[] => [
    ...(inRequests.has(typeName) ? ["request" as const] : []),
    ...(inResponses.has(typeName) ? ["response" as const] : []),
  ];
  const types = reachableTypes([...requests, ...responses]);
  const o = model.options;
  return {
    $comment: generatedNotice(model, parameter),
    manifestVersion: MANIFEST_VERSION,
    file: model.fileName,
    package: model.file.proto.package,
    provenance: {
      generator: `protoc-gen-a2a v${version}`,
      protoSha256: model.provenance.protoSha256,
      optionsSha256: model.provenance.optionsSha256,
      parameter,
    },
    options: {
      errors: o.errorProfile,
      subscribePost: o.subscribePost,
      bindings: ["jsonrpc", "rest", "grpc"].filter((b) => o.bindings.has(b as never)),
    },
    services: model.services.map(manifestService),
    messages: types
      .filter((t): t is DescMessage => t.kind === "message")
      .map((m) => manifestMessage(m, usage(m.typeName))),
    enums: types
      .filter((t): t is DescEnum => t.kind === "enum")
      .map((e) => manifestEnum(e, usage(e.typeName))),
    errors: {
      profile: o.errorProfile,
      entries: model.errors.map((e) => ({
        name: e.name,
        category: e.category,
        jsonRpcCode: e.jsonRpcCode,
        httpStatus: e.httpStatus,
        grpcStatus: e.grpcStatus,
        reason: e.reason,
      })),
    },
    serviceParameters: model.serviceParameters.map((p) => ({
      name: p.name,
      grpcKey: p.grpcKey,
      query: p.query,
    })),
  };
}

function manifestService(service: ServiceModel): ManifestService {
  const unavailable = service.taskRuntimeRefusal;
  const applies = service.taskRuntime !== undefined;
  const implemented = new Set<string>(A2A_OPERATIONS);
  return {
    name: service.typeName,
    taskRuntime: applies
      ? { applies }
      : unavailable === undefined
        ? { applies, reason: notA2AShaped(service) }
        : { applies, error: unavailable },
    operations: service.operations.map(
      (op): ManifestOperation => ({
        name: op.name,
        kind: op.kind,
        request: op.input.typeName,
        response: op.output.typeName,
        jsonRpcMethod: op.jsonRpcMethod,
        grpcPath: op.grpcPath,
        http: op.httpBindings.map((b) => ({
          method: b.method,
          template: b.template,
          body: b.body,
          origin: b.origin,
        })),
        ...(applies
          ? { taskRuntime: implemented.has(op.name) ? "implemented" : "unsupported" }
          : {}),
        ...(op.desc.deprecated ? { deprecated: true } : {}),
      }),
    ),
  };
}

function manifestMessage(m: DescMessage, usage: TypeUsage[]): ManifestMessage {
  const oneofs = m.oneofs.map((oneof): ManifestOneof => {
    const rule = exactlyOneRule(oneof);
    return {
      name: oneof.name,
      fields: oneof.fields.map((f) => f.name),
      ...(rule === undefined ? {} : { exactlyOne: rule }),
    };
  });
  const numbers = m.proto.reservedRange.map((r) =>
    r.end - 1 === r.start ? `${r.start}` : `${r.start}-${r.end - 1}`,
  );
  const names = m.proto.reservedName;
  return {
    name: m.typeName,
    file: m.file.proto.name,
    usage,
    fields: m.fields.map(manifestField),
    ...(oneofs.length > 0 ? { oneofs } : {}),
    ...(numbers.length + names.length > 0
      ? {
          reserved: {
            ...(numbers.length > 0 ? { numbers } : {}),
            ...(names.length > 0 ? { names: [...names] } : {}),
          },
        }
      : {}),
    ...(m.deprecated ? { deprecated: true } : {}),
  };
}

function manifestField(f: DescField): ManifestField {
  const behavior = hasOption(f, field_behavior)
    ? getOption(f, field_behavior).map((b) => FieldBehavior[b] ?? String(b))
    : [];
  const required = requiredRule(f);
  const range = fieldConstraint(f);
  return {
    name: f.name,
    number: f.number,
    jsonName: f.jsonName,
    ...fieldType(f),
    ...(f.oneof === undefined ? {} : { oneof: f.oneof.name }),
    ...(behavior.length > 0 ? { fieldBehavior: behavior } : {}),
    ...(required === undefined ? {} : { required }),
    ...(range === undefined
      ? {}
      : {
          range: {
            ...(range.min === undefined ? {} : { min: range.min }),
            ...(range.max === undefined ? {} : { max: range.max }),
          },
        }),
    ...(f.deprecated ? { deprecated: true } : {}),
  };
}

const scalarName = (s: ScalarType): string => ScalarType[s].toLowerCase();

function fieldType(f: DescField): {
  type: string;
  cardinality: FieldCardinality;
  keyType?: string;
} {
  switch (f.fieldKind) {
    case "scalar":
      return { type: scalarName(f.scalar), cardinality: singular(f) };
    case "enum":
      return { type: f.enum.typeName, cardinality: singular(f) };
    case "message":
      return { type: f.message.typeName, cardinality: "singular" };
    case "list":
      return {
        type:
          f.listKind === "scalar"
            ? scalarName(f.scalar)
            : f.listKind === "enum"
              ? f.enum.typeName
              : f.message.typeName,
        cardinality: "repeated",
      };
    case "map":
      return {
        type:
          f.mapKind === "scalar"
            ? scalarName(f.scalar)
            : f.mapKind === "enum"
              ? f.enum.typeName
              : f.message.typeName,
        cardinality: "map",
        keyType: scalarName(f.mapKey),
      };
  }
}

/** proto3 `optional` (explicit presence outside a oneof) is "optional"; everything else singular. */
function singular(f: DescField): FieldCardinality {
  return f.oneof === undefined && f.presence === FeatureSet_FieldPresence.EXPLICIT
    ? "optional"
    : "singular";
}

function manifestEnum(e: DescEnum, usage: TypeUsage[]): ManifestEnum {
  return {
    name: e.typeName,
    file: e.file.proto.name,
    usage,
    values: e.values.map((v) => ({
      name: v.name,
      number: v.number,
      ...(v.deprecated ? { deprecated: true as const } : {}),
    })),
  };
}
