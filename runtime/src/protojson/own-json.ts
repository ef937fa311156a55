// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Own-property access to JSON objects keyed by request field names. A proto field may be named
 * after an `Object.prototype` member (`constructor`, `to_string` → `toString`, `__proto__`…):
 * a plain `object[key]` would read the inherited function, and `object[key] = value` with
 * `"__proto__"` would replace the prototype instead of setting the field.
 */
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";

/** The value of `object`'s own property `key`, or undefined (never an inherited member). */
export function ownJsonValue(
  object: Readonly<Record<string, JsonValue>>,
  key: string,
): JsonValue | undefined {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/** The own entry `key` of a lookup table (generated tables, matcher params), or undefined (never an inherited member). */
export function ownEntry<T>(
  table: Readonly<Record<string, T>> | undefined,
  key: string,
): T | undefined {
  return table !== undefined && Object.hasOwn(table, key) ? table[key] : undefined;
}

/** Sets `object`'s own property `key`, `"__proto__"` included, as a plain enumerable data property. */
export function setOwnJsonValue(object: JsonObject, key: string, value: JsonValue): void {
  if (key === "__proto__")
    Object.defineProperty(object, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  else object[key] = value;
}

/**
 * A message init object, and the plain objects and arrays in it, as copies of their own properties
 * on null-prototype objects. protobuf-es's `create()` reads `init[localName]`: for a field whose
 * local name is an `Object.prototype` member (`hasOwnProperty`, `isPrototypeOf`, `__proto__`…) a
 * plain `{}` would hand it the inherited function. Messages (with `$typeName`) and other objects
 * (bytes, Dates) are kept as they are.
 */
export function ownMessageInit<T>(init: T): T {
  if (typeof init !== "object" || init === null) return init;
  if (Array.isArray(init)) return init.map(ownMessageInit) as T;
  if (Object.getPrototypeOf(init) !== Object.prototype || Object.hasOwn(init, "$typeName"))
    return init;
  const copy = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(init)) {
    Object.defineProperty(copy, key, {
      value: ownMessageInit((init as Record<string, unknown>)[key]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy as T;
}
