// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import { ScalarType, type DescField, type DescMessage } from "@bufbuild/protobuf";

/**
 * How a request field travels in a query string (spec §11.5): scalars and enums by
 * value, timestamps as RFC 3339, repeated ones as repeated keys or a comma list.
 * Nested messages cannot ("MUST use POST").
 */
export type QueryKind =
  | "string"
  | "bytes"
  | "bool"
  | "int"
  | "int64"
  | "float"
  | "enum"
  | "timestamp"
  | "duration"
  | "message";

/** A request field, as the HTTP+JSON binding maps it to and from paths and queries. */
export interface RequestFieldShape {
  /** Proto name, "task_id" (also accepted in queries). */
  readonly name: string;
  /** ProtoJSON name, "taskId". */
  readonly json: string;
  readonly kind: QueryKind;
  readonly repeated: boolean;
  /** With `nested`, for a singular message field: its fields, whose scalars travel as dotted query keys ("page.size"). */
  readonly fields?: readonly RequestFieldShape[];
}

/** How deep dotted query keys go ("a.b.c.d"). */
const MAX_QUERY_DEPTH = 4;

/**
 * The top-level fields of a request message, for path and query mapping. With `nested`
 * (operations that have a query), singular message fields also get their fields, down to
 * a few levels and never into a message already on the way (recursive types).
 */
export function requestFieldShapes(
  message: DescMessage,
  options: { readonly nested: boolean } = { nested: false },
): RequestFieldShape[] {
  return fieldShapes(message, options.nested ? MAX_QUERY_DEPTH : 0, [message.typeName]);
}

function fieldShapes(
  message: DescMessage,
  depth: number,
  along: readonly string[],
): RequestFieldShape[] {
  return message.fields.map((f) => {
    const shape: RequestFieldShape = {
      name: f.name,
      json: f.jsonName,
      kind: queryKind(f),
      repeated: f.fieldKind === "list",
    };
    if (
      depth > 0 &&
      f.fieldKind === "message" &&
      shape.kind === "message" &&
      !along.includes(f.message.typeName) &&
      !f.message.typeName.startsWith("google.protobuf.")
    ) {
      return {
        ...shape,
        fields: fieldShapes(f.message, depth - 1, [...along, f.message.typeName]),
      };
    }
    return shape;
  });
}

/** The kind of a path variable's leaf field (a singular scalar or enum). */
export function pathFieldKind(f: DescField): QueryKind {
  return queryKind(f);
}

function queryKind(f: DescField): QueryKind {
  switch (f.fieldKind) {
    case "enum":
      return "enum";
    case "scalar":
      return scalarKind(f.scalar);
    case "list":
      if (f.listKind === "enum") return "enum";
      if (f.listKind === "scalar") return scalarKind(f.scalar);
      return messageKind(f.message.typeName);
    case "message":
      return messageKind(f.message.typeName);
    case "map":
      return "message";
  }
}

/** Well-known types whose ProtoJSON form is a scalar travel in a query like that scalar (google.api.http). */
const SCALAR_LIKE: Readonly<Record<string, QueryKind>> = {
  "google.protobuf.Timestamp": "timestamp",
  "google.protobuf.Duration": "duration",
  // "paths" joined by ",", one value (not a list)
  "google.protobuf.FieldMask": "string",
  "google.protobuf.StringValue": "string",
  "google.protobuf.BytesValue": "bytes",
  "google.protobuf.BoolValue": "bool",
  "google.protobuf.Int32Value": "int",
  "google.protobuf.UInt32Value": "int",
  "google.protobuf.Int64Value": "int64",
  "google.protobuf.UInt64Value": "int64",
  "google.protobuf.FloatValue": "float",
  "google.protobuf.DoubleValue": "float",
};

function messageKind(typeName: string): QueryKind {
  // Own entries only: a message in no package may be named "constructor".
  return Object.hasOwn(SCALAR_LIKE, typeName) ? SCALAR_LIKE[typeName]! : "message";
}

function scalarKind(scalar: ScalarType): QueryKind {
  switch (scalar) {
    case ScalarType.STRING:
      return "string";
    case ScalarType.BYTES:
      return "bytes";
    case ScalarType.BOOL:
      return "bool";
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      return "float";
    case ScalarType.INT64:
    case ScalarType.UINT64:
    case ScalarType.SINT64:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      return "int64";
    default:
      return "int";
  }
}
