// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import {
  getOption,
  hasOption,
  type DescField,
  type DescMessage,
  type DescOneof,
} from "@bufbuild/protobuf";
import { FeatureSet_FieldPresence } from "@bufbuild/protobuf/wkt";
import { FieldBehavior, field_behavior } from "../gen/google/api/field_behavior_pb.js";
import { isV03UnsentRequiredField } from "./a2a-v0-3.js";
import { fieldConstraint, type FieldConstraint } from "./field-constraints.js";
import { exactlyOneRule } from "./oneof-rules.js";

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

/** A oneof the spec requires exactly one member of (oneof-rules.ts). */
export interface OneofRequirement {
  readonly oneof: DescOneof;
  /** Where the rule comes from. */
  readonly source: string;
}

/** typeName → the fields (and exactly-one oneofs) to check, for every message reachable from the roots that has any requirement. */
export type MessageRequirements = ReadonlyMap<
  string,
  {
    readonly message: DescMessage;
    readonly fields: readonly FieldRequirement[];
    readonly oneofs: readonly OneofRequirement[];
  }
>;

const requiredFields = new WeakMap<DescField, boolean>();

/** True when the field carries `[(google.api.field_behavior) = REQUIRED]` or is a proto2 `required` field. */
export function isRequiredField(field: DescField): boolean {
  // Asked for every field by each emitter; reading the option decodes it again each time: once per field.
  let required = requiredFields.get(field);
  if (required === undefined) {
    required = readRequired(field);
    requiredFields.set(field, required);
  }
  return required;
}

function readRequired(field: DescField): boolean {
  if (isV03UnsentRequiredField(field)) return false;
  if (field.presence === FeatureSet_FieldPresence.LEGACY_REQUIRED) return true;
  return (
    hasOption(field, field_behavior) &&
    getOption(field, field_behavior).includes(FieldBehavior.REQUIRED)
  );
}

/**
 * Collects the REQUIRED fields of every message reachable from the given request
 * messages. Messages without requirements anywhere below them are left out, so
 * the emitted table stays small; well-known types (google.protobuf.*) are never
 * descended into.
 */
export function collectRequiredFields(
  roots: readonly DescMessage[],
  options: { readonly oneofs: boolean } = { oneofs: true },
): MessageRequirements {
  const oneofRule = (o: DescOneof) => (options.oneofs ? exactlyOneRule(o) : undefined);
  const result = new Map<
    string,
    { message: DescMessage; fields: FieldRequirement[]; oneofs: OneofRequirement[] }
  >();
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
      m.fields.some((f) => isRequiredField(f) || fieldConstraint(f) !== undefined) ||
        m.oneofs.some((o) => oneofRule(o) !== undefined),
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
      const required = requiredRule(f);
      const range = fieldConstraint(f);
      if (required !== undefined || nested !== undefined || range !== undefined)
        fields.push({ field: f, required, range, nested });
    }
    const oneofs = m.oneofs.flatMap((oneof): OneofRequirement[] => {
      const source = oneofRule(oneof);
      return source === undefined ? [] : [{ oneof, source }];
    });
    result.set(m.typeName, { message: m, fields, oneofs });
  }
  return result;
}

/**
 * REQUIRED fields the spec allows at their zero value (CHECKLIST K11): an empty page
 * (`tasks: []`, `nextPageToken: ""`, `totalSize: 0`), a card without skills (§8.4.1's
 * `"skills": []`). Present, but not necessarily set. Keyed like field-constraints.ts.
 */
const MAY_BE_ZERO = new Set([
  "ListTasksResponse.tasks",
  "ListTasksResponse.next_page_token",
  "ListTasksResponse.page_size",
  "ListTasksResponse.total_size",
  "AgentCard.skills",
]);

/**
 * How a REQUIRED field is checked, wherever the message occurs: the server's check for
 * requests, and the JSON Schemas' `required` plus non-zero rule. Undefined when the
 * field is not REQUIRED; `"present"` for the K11 fields that may be empty.
 */
export function requiredRule(f: DescField): RequiredCheck | undefined {
  if (!isRequiredField(f)) return undefined;
  return MAY_BE_ZERO.has(`${f.parent.name}.${f.name}`) ? "present" : requiredCheck(f);
}

/** True when the field has implicit presence (a list, a map, a plain proto3 scalar or enum): ProtoJSON omits it at its zero value. */
export function hasImplicitPresence(f: DescField): boolean {
  return requiredCheck(f) !== "present";
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
      // proto3 `optional`, proto2 fields (`required` ones too: set, even to zero) and oneof members have explicit presence.
      return f.presence === FeatureSet_FieldPresence.EXPLICIT ||
        f.presence === FeatureSet_FieldPresence.LEGACY_REQUIRED ||
        f.oneof !== undefined
        ? "present"
        : "nonzero";
  }
}

export function nestedMessage(f: DescField): DescMessage | undefined {
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

export function isWellKnown(m: DescMessage): boolean {
  return m.typeName.startsWith("google.protobuf.");
}
