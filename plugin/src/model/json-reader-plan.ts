// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import type { DescEnum, DescMessage } from "@bufbuild/protobuf";
import { Edition, FeatureSet_FieldPresence } from "@bufbuild/protobuf/wkt";
import type { FieldRequirement, OneofRequirement } from "./required-fields.js";
import type { FileModel } from "./service-model.js";
import { planOncePerModel, uniqueNamer } from "./plan-support.js";
import { fieldEnum, fieldMessage, hasCustomJson } from "./json-writer-plan.js";

/** One generated reader: a request message type (or one a request holds) and the validation rules of its type. */
export interface JsonReaderNode {
  readonly message: DescMessage;
  /** The reader's function name in the generated file. */
  readonly name: string;
  /** The REQUIRED and range rules of the type (the services' request tables: the same rules wherever the type occurs). */
  readonly fields: readonly FieldRequirement[];
  /** The exactly-one oneofs of the type. */
  readonly oneofs: readonly OneofRequirement[];
}

/** The readers the `_a2a_json.ts` file of one proto holds. */
export interface JsonReaderPlan {
  /** Every reader, in first-reached order. */
  readonly readers: readonly JsonReaderNode[];
  /** typeName → reader, for the message-typed fields a reader reads with another reader. */
  readonly byType: ReadonlyMap<string, JsonReaderNode>;
  /** Per service (typeName), its request types with a generated reader. */
  readonly roots: ReadonlyMap<string, readonly JsonReaderNode[]>;
  /** The enums the readers read, with their table's name. */
  readonly enums: ReadonlyMap<DescEnum, string>;
}

/**
 * Plans the per-message ProtoJSON readers of a proto file's services: one per message type the
 * requests reach whose protobuf-es object is a plain object (no prototype chain: proto3, or
 * editions without explicit-presence scalars) and whose JSON is an object (well-known types with a
 * JSON form of their own are read by the runtime's helpers, or left to reflection).
 */
export function planJsonReaders(model: FileModel): JsonReaderPlan {
  return plans(model);
}

const plans = planOncePerModel(buildPlan);

/** Whether a generated reader can build messages of this type (see planJsonReaders). */
export function isReadableMessage(message: DescMessage): boolean {
  return !hasCustomJson(message) && !needsPrototypeChain(message);
}

/** protobuf-es's create(): a prototype chain holds the defaults of explicit-presence scalars (proto2, some editions). */
function needsPrototypeChain(desc: DescMessage): boolean {
  switch (desc.file.edition) {
    case Edition.EDITION_PROTO3:
      return false;
    case Edition.EDITION_PROTO2:
      return true;
    default:
      return desc.fields.some(
        (f) =>
          f.presence !== FeatureSet_FieldPresence.IMPLICIT &&
          f.fieldKind !== "message" &&
          f.oneof === undefined,
      );
  }
}

function buildPlan(model: FileModel): JsonReaderPlan {
  const readers: JsonReaderNode[] = [];
  const byType = new Map<string, JsonReaderNode>();
  const enums = new Map<DescEnum, string>();
  const uniqueName = uniqueNamer();
  // The rules of a type are the same in every service's table (they depend on the field alone).
  const rulesOf = (message: DescMessage) => {
    for (const service of model.services) {
      const found = service.requirements.get(message.typeName);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  const visit = (message: DescMessage): JsonReaderNode => {
    const known = byType.get(message.typeName);
    if (known !== undefined) return known;
    const rules = rulesOf(message);
    const node: JsonReaderNode = {
      message,
      name: uniqueName(`read$${message.name}`),
      fields: rules?.fields ?? [],
      oneofs: rules?.oneofs ?? [],
    };
    byType.set(message.typeName, node);
    readers.push(node);
    for (const field of message.fields) {
      const e = fieldEnum(field);
      if (e !== undefined && e.typeName !== "google.protobuf.NullValue" && !enums.has(e))
        enums.set(e, uniqueName(`jsonNumbers$${e.name}`));
      const child = fieldMessage(field);
      if (child !== undefined && isReadableMessage(child)) visit(child);
    }
    return node;
  };
  const roots = new Map<string, JsonReaderNode[]>();
  for (const service of model.services) {
    const seen = new Set<string>();
    const serviceRoots: JsonReaderNode[] = [];
    for (const operation of service.operations) {
      if (!isReadableMessage(operation.input) || seen.has(operation.input.typeName)) continue;
      seen.add(operation.input.typeName);
      serviceRoots.push(visit(operation.input));
    }
    roots.set(service.typeName, serviceRoots);
  }
  return { readers, byType, roots, enums };
}
