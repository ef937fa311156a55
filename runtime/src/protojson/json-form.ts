// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Which messages have a ProtoJSON form that is not a JSON object: the well-known types with a
 * JSON mapping of their own (a Timestamp is `"1970-01-01T00:00:00Z"`, a Duration `"1.5s"`, a
 * wrapper its scalar, a ListValue an array, a Value any JSON). Such a request travels as it is
 * in an HTTP+JSON body and as `params: [value]` on JSON-RPC (jsonrpc/params.ts).
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

/** Well-known types whose ProtoJSON object does not list their fields (Struct: any keys; Any: `@type` and the packed message's). */
const OPAQUE_OBJECT_JSON: ReadonlySet<string> = new Set([
  "google.protobuf.Struct",
  "google.protobuf.Any",
]);

/**
 * Whether a message's ProtoJSON form is always a JSON object (false for Value, ListValue, Timestamp, Duration, FieldMask, the wrappers).
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function hasObjectJson(schema: DescMessage): boolean {
  return !NON_OBJECT_JSON.has(schema.typeName);
}

/**
 * Whether a message's ProtoJSON form is not an object of its own fields (the non-object types,
 * Struct and Any): an HTTP+JSON request of such a type is its body as it is, never spread over
 * path and query.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function hasOwnJsonForm(schema: DescMessage): boolean {
  return NON_OBJECT_JSON.has(schema.typeName) || OPAQUE_OBJECT_JSON.has(schema.typeName);
}
