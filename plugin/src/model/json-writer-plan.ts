// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import { ScalarType, type DescEnum, type DescField, type DescMessage } from "@bufbuild/protobuf";
import type { FieldRequirement } from "./required-fields.js";
import type { FileModel } from "./service-model.js";
import { planOncePerModel, uniqueNamer } from "./plan-support.js";
import { isWrapperDesc } from "@bufbuild/protobuf/wkt";
import { hasOwnJsonForm } from "../../../runtime/src/protojson/json-form.js";

/**
 * True for a well-known type with a JSON form of its own (Timestamp, Struct, a wrapper, Any, …;
 * the runtime's table): the runtime's json-write.ts writes them, no generated writer does.
 */
export const hasCustomJson: (message: DescMessage) => boolean = hasOwnJsonForm;

/** True for a wrapper type (`google.protobuf.StringValue`, …): its JSON is its `value`. */
export function isWrapperType(message: DescMessage): boolean {
  return isWrapperDesc(message);
}

/**
 * One generated writer: a message type, and whether it fills in the REQUIRED zero values of
 * the service's response table (`fillRequiredDefaults` reaches a message only through the
 * table's `nested` rules, so the same type can need a filling and a plain writer).
 */
export interface JsonWriterNode {
  readonly message: DescMessage;
  /** The response-table rules of the type, when this writer fills (and descends through them). */
  readonly rules: readonly FieldRequirement[] | undefined;
  /** The writer's function name in the generated file. */
  readonly name: string;
  /** The writer of each message-typed field (by field number) that a generated writer writes. */
  readonly children: Map<number, JsonWriterNode>;
}

/** What the `_a2a_json.ts` file of one proto holds. */
export interface JsonWriterPlan {
  /** Every writer, in first-reached order. */
  readonly writers: readonly JsonWriterNode[];
  /** Per service (typeName), its response types with a generated writer. */
  readonly roots: ReadonlyMap<string, readonly JsonWriterNode[]>;
  /** The enums the writers write by name, with their table's name. */
  readonly enums: ReadonlyMap<DescEnum, string>;
}

/**
 * Plans the per-message ProtoJSON writers of a proto file's services: one per message type the
 * responses and stream events reach (filling and plain variants apart), well-known types with
 * a JSON form of their own left to the runtime's helpers.
 */
export function planJsonWriters(model: FileModel): JsonWriterPlan {
  return plans(model);
}

const plans = planOncePerModel(buildPlan);

function buildPlan(model: FileModel): JsonWriterPlan {
  const writers: JsonWriterNode[] = [];
  const byKey = new Map<string, JsonWriterNode>();
  const enums = new Map<DescEnum, string>();
  const uniqueName = uniqueNamer();
  const roots = new Map<string, JsonWriterNode[]>();
  for (const service of model.services) {
    const table = service.responseRequirements;
    const visit = (message: DescMessage, filled: boolean): JsonWriterNode => {
      const rules = filled ? table.get(message.typeName)?.fields : undefined;
      const key = `${message.typeName}|${rules === undefined ? "" : JSON.stringify(rules.map((r) => [r.field.number, r.required, r.nested?.typeName]))}`;
      const known = byKey.get(key);
      if (known !== undefined) return known;
      const node: JsonWriterNode = {
        message,
        rules,
        name: uniqueName(`write$${message.name}${rules === undefined ? "" : "$filled"}`),
        children: new Map(),
      };
      byKey.set(key, node);
      writers.push(node);
      for (const field of message.fields) {
        const e = fieldEnum(field);
        if (e !== undefined && e.typeName !== "google.protobuf.NullValue" && !enums.has(e))
          enums.set(e, uniqueName(`jsonNames$${e.name}`));
        const child = fieldMessage(field);
        if (child === undefined || hasCustomJson(child)) continue;
        const descend = rules?.some((r) => r.field === field && r.nested !== undefined) === true;
        node.children.set(field.number, visit(child, descend));
      }
      return node;
    };
    const seen = new Set<string>();
    const serviceRoots: JsonWriterNode[] = [];
    for (const operation of service.operations) {
      if (hasCustomJson(operation.output) || seen.has(operation.output.typeName)) continue;
      seen.add(operation.output.typeName);
      serviceRoots.push(visit(operation.output, true));
    }
    roots.set(service.typeName, serviceRoots);
  }
  return { writers, roots, enums };
}

/** The message type of a message, list-of-message or map-of-message field. */
export function fieldMessage(field: DescField): DescMessage | undefined {
  switch (field.fieldKind) {
    case "message":
      return field.message;
    case "list":
      return field.listKind === "message" ? field.message : undefined;
    case "map":
      return field.mapKind === "message" ? field.message : undefined;
    default:
      return undefined;
  }
}

/** The enum type of an enum, list-of-enum or map-of-enum field. */
export function fieldEnum(field: DescField): DescEnum | undefined {
  switch (field.fieldKind) {
    case "enum":
      return field.enum;
    case "list":
      return field.listKind === "enum" ? field.enum : undefined;
    case "map":
      return field.mapKind === "enum" ? field.enum : undefined;
    default:
      return undefined;
  }
}

/** The runtime helper (json-write.ts) that writes one value of a scalar type. */
export function scalarWriter(scalar: ScalarType): string {
  switch (scalar) {
    case ScalarType.STRING:
      return "writeJsonString";
    case ScalarType.BOOL:
      return "writeJsonBool";
    case ScalarType.BYTES:
      return "writeJsonBytes";
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      return "writeJsonDouble";
    case ScalarType.INT64:
    case ScalarType.UINT64:
    case ScalarType.SINT64:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      return "writeJsonInt64";
    default:
      return "writeJsonInt32";
  }
}
