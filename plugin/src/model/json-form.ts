// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Messages whose ProtoJSON form is not an object of their fields: the well-known types with a JSON
 * mapping of their own. The runtime's json-form.ts has the same lists: a request of such a type is
 * its HTTP+JSON body as it is, and a non-object one travels on JSON-RPC as `params: [value]`.
 */
import type { DescMessage } from "@bufbuild/protobuf";

const NON_OBJECT_JSON: ReadonlySet<string> = new Set([
  "google.protobuf.Value",
  "google.protobuf.ListValue",
  "google.protobuf.Timestamp",
  "google.protobuf.Duration",
  "google.protobuf.FieldMask",
  "google.protobuf.DoubleValue",
  "google.protobuf.FloatValue",
  "google.protobuf.Int64Value",
  "google.protobuf.UInt64Value",
  "google.protobuf.Int32Value",
  "google.protobuf.UInt32Value",
  "google.protobuf.BoolValue",
  "google.protobuf.StringValue",
  "google.protobuf.BytesValue",
]);

/** Whether a message's ProtoJSON form is always a JSON object (false for Value, ListValue, Timestamp, Duration, FieldMask, the wrappers). */
export function hasObjectJson(message: DescMessage): boolean {
  return !NON_OBJECT_JSON.has(message.typeName);
}

/** Whether a message's ProtoJSON is not an object of its own fields (the non-object types, Struct, Any): it has no by-name parameters. */
export function hasOwnJsonForm(message: DescMessage): boolean {
  return NON_OBJECT_JSON.has(message.typeName) || message.typeName === "google.protobuf.Struct" || message.typeName === "google.protobuf.Any";
}
