// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import type { GeneratedFile } from "@bufbuild/protoplugin";
import { ScalarType, type DescField } from "@bufbuild/protobuf";
import { hasImplicitPresence, type MessageRequirements } from "../../model/required-fields.js";
import { runtimeImport } from "../runtime-package.js";

/**
 * Emits a precompiled REQUIRED-field table (google.api.field_behavior), read by the
 * runtime's `findMissingFields` (requests) and `fillRequiredDefaults` (responses; then
 * every implicit-presence rule carries the ProtoJSON zero value to emit).
 */
export function emitRequirementTable(
  f: GeneratedFile,
  requirements: MessageRequirements,
  name: string,
  doc: string,
  withZero: boolean,
): void {
  const RequirementTable = f.import("RequirementTable", runtimeImport(""), true);
  f.print(f.jsDoc(doc));
  f.print(f.export("const", name), ": ", RequirementTable, " = {");
  for (const [typeName, { fields, oneofs }] of requirements) {
    f.print("  ", f.string(typeName), ": [");
    for (const r of fields) {
      const parts = [
        `name: ${JSON.stringify(r.field.localName)}`,
        `json: ${JSON.stringify(r.field.jsonName)}`,
      ];
      if (r.required !== undefined) parts.push(`check: ${JSON.stringify(r.required)}`);
      if (!withZero && r.range?.min !== undefined) parts.push(`min: ${r.range.min}`);
      if (!withZero && r.range?.max !== undefined) parts.push(`max: ${r.range.max}`);
      if (r.nested !== undefined) parts.push(`nested: ${JSON.stringify(r.nested.typeName)}`);
      if (r.nested !== undefined && r.field.fieldKind === "map") parts.push("map: true");
      if (r.field.oneof !== undefined)
        parts.push(`oneof: ${JSON.stringify(r.field.oneof.localName)}`);
      const zero =
        withZero && r.required !== undefined && hasImplicitPresence(r.field)
          ? jsonZero(r.field)
          : undefined;
      if (zero !== undefined) parts.push(`zero: ${JSON.stringify(zero)}`);
      f.print("    { ", parts.join(", "), " },");
    }
    // Exactly-one oneofs are an input rule; responses are not validated.
    if (!withZero) {
      for (const { oneof } of oneofs) {
        const members = oneof.fields.map((m) => m.jsonName);
        f.print(
          "    { name: ",
          f.string(oneof.localName),
          ", json: ",
          f.string(oneof.localName),
          ', check: "oneof", members: ',
          JSON.stringify(members),
          " },",
        );
      }
    }
    f.print("  ],");
  }
  f.print("};");
  f.print();
}

/** The ProtoJSON form of a field's zero value, for fields with implicit presence. */
export function jsonZero(field: DescField): unknown {
  switch (field.fieldKind) {
    case "list":
      return [];
    case "map":
      return {};
    case "enum":
      return field.enum.values.find((v) => v.number === 0)?.name ?? 0;
    case "scalar":
      switch (field.scalar) {
        case ScalarType.STRING:
        case ScalarType.BYTES:
          return "";
        case ScalarType.BOOL:
          return false;
        case ScalarType.INT64:
        case ScalarType.UINT64:
        case ScalarType.SINT64:
        case ScalarType.FIXED64:
        case ScalarType.SFIXED64:
          return "0";
        default:
          return 0;
      }
    case "message":
      return undefined;
  }
}
