// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import { getOption, hasOption, type DescField, type DescMessage } from "@bufbuild/protobuf";
import { FeatureSet_FieldPresence } from "@bufbuild/protobuf/wkt";
import { FieldBehavior, field_behavior } from "../gen/google/api/field_behavior_pb.js";
import { fieldConstraint, type FieldConstraint } from "./field-constraints.js";

/** How a REQUIRED field is checked (spec §5.7: present and set; required arrays non-empty). */
export type RequiredCheck =
  /** Explicit presence (messages, proto3 `optional`): the property is not undefined. */
  | "present"
  /** Implicit-presence scalar or enum: not the zero value ("", 0, false, empty bytes). */
  | "nonzero"
  /** Repeated field: at least one element. */
  | "nonempty"
  /** Map field: at least one entry. */
  | "nonempty-map";

/** One field of a message that validation must look at: required, ranged, or leading to nested requirements. */
export interface FieldRequirement {
  readonly field: DescField;
  /** How to check presence, when the field is REQUIRED. */
  readonly required: RequiredCheck | undefined;
  /** A numeric range from the spec text, when the field has one. */
  readonly range: FieldConstraint | undefined;
  /** The nested message to validate (singular, every list element or every map value), if it has requirements. */
  readonly nested: DescMessage | undefined;
}

/** typeName → the fields to check, for every message reachable from the requests that has any requirement. */
export type MessageRequirements = ReadonlyMap<string, { readonly message: DescMessage; readonly fields: readonly FieldRequirement[] }>;

/** True when the field carries `[(google.api.field_behavior) = REQUIRED]`. */
export function isRequiredField(field: DescField): boolean {
  return hasOption(field, field_behavior) && getOption(field, field_behavior).includes(FieldBehavior.REQUIRED);
}

/**
 * Collects the REQUIRED fields of every message reachable from the given request
 * messages. Messages without requirements anywhere below them are left out, so
 * the emitted table stays small; well-known types (google.protobuf.*) are never
 * descended into.
 */
export function collectRequiredFields(roots: readonly DescMessage[]): MessageRequirements {
  const result = new Map<string, { message: DescMessage; fields: FieldRequirement[] }>();
  const hasRequirements = new Map<string, boolean>();

  // Fixed point over the reachable graph, so recursive messages terminate.
  const reachable: DescMessage[] = [];
  const seen = new Set<string>();
  const visit = (m: DescMessage) => {
    if (seen.has(m.typeName) || isWellKnown(m)) return;
    seen.add(m.typeName);
    reachable.push(m);
    for (const f of m.fields) {
      const nested = nestedMessage(f);
      if (nested) visit(nested);
    }
  };
  roots.forEach(visit);

  for (const m of reachable)
    hasRequirements.set(
      m.typeName,
      m.fields.some((f) => isRequiredField(f) || fieldConstraint(f) !== undefined),
    );
  for (let changed = true; changed; ) {
    changed = false;
    for (const m of reachable) {
      if (hasRequirements.get(m.typeName)) continue;
      if (
        m.fields.some((f) => {
          const n = nestedMessage(f);
          return n !== undefined && hasRequirements.get(n.typeName) === true;
        })
      ) {
        hasRequirements.set(m.typeName, true);
        changed = true;
      }
    }
  }

  for (const m of reachable) {
    if (!hasRequirements.get(m.typeName)) continue;
    const fields: FieldRequirement[] = [];
    for (const f of m.fields) {
      const n = nestedMessage(f);
      const nested = n !== undefined && hasRequirements.get(n.typeName) === true ? n : undefined;
      const required = isRequiredField(f) ? requiredCheck(f) : undefined;
      const range = fieldConstraint(f);
      if (required !== undefined || nested !== undefined || range !== undefined) fields.push({ field: f, required, range, nested });
    }
    result.set(m.typeName, { message: m, fields });
  }
  return result;
}

function requiredCheck(f: DescField): RequiredCheck {
  switch (f.fieldKind) {
    case "list":
      return "nonempty";
    case "map":
      return "nonempty-map";
    case "message":
      return "present";
    case "scalar":
    case "enum":
      // proto3 `optional` and oneof members have explicit presence.
      return f.presence === FeatureSet_FieldPresence.EXPLICIT || f.oneof !== undefined ? "present" : "nonzero";
  }
}

function nestedMessage(f: DescField): DescMessage | undefined {
  switch (f.fieldKind) {
    case "message":
      return isWellKnown(f.message) ? undefined : f.message;
    case "list":
      return f.listKind === "message" && !isWellKnown(f.message) ? f.message : undefined;
    case "map":
      return f.mapKind === "message" && !isWellKnown(f.message) ? f.message : undefined;
    default:
      return undefined;
  }
}

function isWellKnown(m: DescMessage): boolean {
  return m.typeName.startsWith("google.protobuf.");
}
