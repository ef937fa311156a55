// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import { ScalarType, type DescField, type DescMessage } from "@bufbuild/protobuf";

/**
 * How a request field travels in a query string (spec §11.5): scalars and enums by
 * value, timestamps as RFC 3339, repeated ones as repeated keys or a comma list.
 * Nested messages cannot ("MUST use POST").
 */
export type QueryKind = "string" | "bytes" | "bool" | "int" | "int64" | "float" | "enum" | "timestamp" | "duration" | "message";

/** A top-level request field, as the HTTP+JSON binding maps it to and from paths and queries. */
export interface RequestFieldShape {
  /** Proto name, "task_id" (also accepted in queries). */
  readonly name: string;
  /** ProtoJSON name, "taskId". */
  readonly json: string;
  readonly kind: QueryKind;
  readonly repeated: boolean;
}

/** The top-level fields of a request message, for path and query mapping. */
export function requestFieldShapes(message: DescMessage): RequestFieldShape[] {
  return message.fields.map((f) => ({ name: f.name, json: f.jsonName, kind: queryKind(f), repeated: f.fieldKind === "list" }));
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

function messageKind(typeName: string): QueryKind {
  if (typeName === "google.protobuf.Timestamp") return "timestamp";
  if (typeName === "google.protobuf.Duration") return "duration";
  return "message";
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
