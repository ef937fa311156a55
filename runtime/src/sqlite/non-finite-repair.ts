// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Repairs a decoded message that no JSON binding could encode: a NaN or ±Infinity inside a
 * `google.protobuf.Value` (or a `google.protobuf.Struct`, which protobuf-es holds as a plain
 * JsonObject) has no JSON form, so `toJson` throws for the whole message. Binary protobuf stores
 * such numbers fine, which is how a database written by an older version of the store can hold
 * them. Each one is replaced by the string ProtoJSON writes for a non-finite `double` ("NaN",
 * "Infinity", "-Infinity"): the closest JSON spelling of the number, and what a reader of any
 * other double field would see.
 *
 * The walk follows the schema, not the object's shape, so that a `double` field (which ProtoJSON
 * does encode as "NaN") and a map of doubles are left alone.
 */
import type { DescMessage } from "@bufbuild/protobuf";

/** The ProtoJSON spelling of a non-finite double. */
export function protoJsonNonFinite(n: number): string {
  return Number.isNaN(n) ? "NaN" : n > 0 ? "Infinity" : "-Infinity";
}

/**
 * Replaces, in place, every non-finite number that JSON cannot express in `message` (of `schema`)
 * by its ProtoJSON string; returns how many it replaced. For messages the caller owns (just decoded).
 */
export function replaceNonFinite(schema: DescMessage, message: object): number {
  const record = message as Record<string, unknown>;
  let replaced = 0;
  for (const field of schema.fields) {
    let value: unknown;
    if (field.oneof !== undefined) {
      const oneof = record[field.oneof.localName] as
        | { case?: unknown; value?: unknown }
        | undefined;
      if (oneof?.case !== field.localName) continue;
      value = oneof.value;
      if (
        schema.typeName === "google.protobuf.Value" &&
        field.localName === "numberValue" &&
        typeof value === "number" &&
        !Number.isFinite(value)
      ) {
        record[field.oneof.localName] = { case: "stringValue", value: protoJsonNonFinite(value) };
        replaced++;
        continue;
      }
    } else {
      value = record[field.localName];
    }
    if (value === undefined || value === null) continue;
    if (field.fieldKind === "message") replaced += replaceInItem(field, value);
    else if (field.fieldKind === "list" && field.listKind === "message")
      for (const item of value as unknown[]) replaced += replaceInItem(field, item);
    else if (field.fieldKind === "map" && field.mapKind === "message")
      for (const item of Object.values(value as Record<string, unknown>))
        replaced += replaceInItem(field, item);
  }
  return replaced;
}

/** One message value of `field`: a JsonObject for a Struct outside Value (protobuf-es unboxes those), else a message. */
function replaceInItem(
  field: { readonly message: DescMessage; readonly parent: DescMessage },
  item: unknown,
): number {
  if (typeof item !== "object" || item === null) return 0; // an unwrapped wrapper (DoubleValue is fine in JSON)
  if (
    field.message.typeName === "google.protobuf.Struct" &&
    field.parent.typeName !== "google.protobuf.Value"
  )
    return replaceInJson(item);
  return replaceNonFinite(field.message, item);
}

/** A JsonObject or JsonArray: replaces its non-finite numbers, at any depth. */
function replaceInJson(value: object): number {
  let replaced = 0;
  const record = value as Record<string | number, unknown>;
  for (const key of Object.keys(record)) {
    const item = record[key];
    if (typeof item === "number") {
      if (!Number.isFinite(item)) {
        record[key] = protoJsonNonFinite(item);
        replaced++;
      }
    } else if (typeof item === "object" && item !== null) {
      replaced += replaceInJson(item);
    }
  }
  return replaced;
}
