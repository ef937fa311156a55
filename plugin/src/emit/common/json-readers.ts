// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import type { GeneratedFile, ImportSymbol, Printable } from "@bufbuild/protoplugin";
import { ScalarType, type DescField, type DescMessage } from "@bufbuild/protobuf";
import { FeatureSet_FieldPresence } from "@bufbuild/protobuf/wkt";
import type { FileModel } from "../../model/service-model.js";
import { fieldEnum, fieldMessage, isWrapperType } from "../../model/json-writer-plan.js";
import {
  isReadableMessage,
  type JsonReaderNode,
  type JsonReaderPlan,
} from "../../model/json-reader-plan.js";
import { runtimeImport } from "../runtime-package.js";

/** Deepest message level a reader reads (the root is 1); deeper, reflection decodes the request (its recursion limit is 100). */
const READ_MAX_DEPTH = 32;

/** The name of the table of a service's request readers. */
export function requestReadersName(serviceName: string): string {
  return `${serviceName}RequestJsonReaders`;
}

interface Symbols {
  readonly read: ImportSymbol;
  readonly Oneof: ImportSymbol;
  readonly plan: JsonReaderPlan;
}

/**
 * Prints, into `<file>_a2a_json.ts`, one ProtoJSON reader per message type the requests of the
 * file's services reach, and per service the `<Service>RequestJsonReaders` table the JSON-RPC and
 * HTTP+JSON servers hand to `decodeRequest`. A reader takes the parsed JSON value and builds the
 * message `fromJson` builds (same properties, same order, same values), the REQUIRED, exactly-one
 * and range rules of the request table checked on the way; for anything else (an unknown key, a
 * value of the wrong type, Any, a rule broken) it returns undefined and reflection decodes the
 * request, answering with the reference message or the reference error.
 */
export function printJsonReaders(f: GeneratedFile, model: FileModel, plan: JsonReaderPlan): void {
  if (plan.readers.length === 0) return;
  const Table = f.import("JsonReaderTable", runtimeImport(""), true);
  const sym: Symbols = {
    read: f.import("jsonRead", runtimeImport("")),
    Oneof: f.import("JsonWriteOneof", runtimeImport(""), true),
    plan,
  };

  for (const service of model.services) {
    const roots = plan.roots.get(service.typeName) ?? [];
    f.print(
      f.jsDoc(
        [
          `ProtoJSON readers of the request types of ${service.typeName}, by type name: the message \`fromJson\` builds,`,
          "REQUIRED, exactly-one and range rules checked, or undefined where reflection decides (an error, Any, an",
          "unknown key). The JSON-RPC and HTTP+JSON servers try them before reflection (`requestReaders`).",
        ].join("\n"),
      ),
    );
    f.print(f.export("const", requestReadersName(service.desc.name)), ": ", Table, " = {");
    for (const node of roots)
      f.print("  ", f.string(node.message.typeName), ": (v) => ", node.name, "(v, 1),");
    f.print("};");
    f.print();
  }

  for (const [e, name] of plan.enums) {
    // protobuf-es's table: JSON names, then proto names (which win where a JSON name is another value's proto name).
    const numbers = new Map<string, number>();
    for (const v of e.values) numbers.set(v.jsonName ?? v.name, v.number);
    for (const v of e.values) numbers.set(v.name, v.number);
    f.print(f.jsDoc(`The numbers of ${e.typeName}, by JSON and proto name.`));
    f.print(
      "const ",
      name,
      ": Readonly<Record<string, number>> = { ",
      [...numbers].map(([k, n]) => `${JSON.stringify(k)}: ${n}`).join(", "),
      " };",
    );
    f.print();
  }

  for (const node of plan.readers) printReader(f, node, sym);
}

function printReader(f: GeneratedFile, node: JsonReaderNode, sym: Symbols): void {
  const message = node.message;
  f.print(
    f.jsDoc(
      [
        `Reads ${message.typeName} from its ProtoJSON value as \`fromJson\` does, its request rules checked; undefined`,
        `where reflection decides. Deeper than ${READ_MAX_DEPTH} levels, reflection reads it.`,
        "",
        `@generated from message ${message.typeName}`,
      ].join("\n"),
    ),
  );
  f.print("function ", node.name, "(t: unknown, d: number): object | undefined {");
  f.print(
    "  if (d > ",
    READ_MAX_DEPTH,
    ' || typeof t !== "object" || t === null || Array.isArray(t)) return undefined;',
  );
  // create(): $typeName, then the members in declaration order; message fields and explicit-presence scalars absent.
  const init: Printable[] = ["$typeName: ", f.string(message.typeName)];
  for (const member of message.members) {
    if (member.kind === "oneof") {
      init.push(", ", f.string(member.localName), ": { case: undefined }");
      continue;
    }
    const zero = zeroValue(member, sym);
    if (zero !== undefined) init.push(", ", f.string(member.localName), ": ", ...zero);
  }
  f.print("  const m: Record<string, unknown> = { ", ...init, " };");
  if (message.fields.length > 0) {
    f.print("  for (const k of Object.keys(t)) {");
    f.print("    const v: unknown = (t as Record<string, unknown>)[k];");
    f.print("    switch (k) {");
    for (const field of message.fields) printFieldCase(f, field, sym);
    f.print("      default:");
    f.print("        return undefined;");
    f.print("    }");
    f.print("  }");
  } else {
    f.print("  if (Object.keys(t).length > 0) return undefined;");
  }
  printRules(f, node, sym);
  f.print("  return m;");
  f.print("}");
  f.print();
}

/** The value `create` gives a field of a fresh message, or undefined when the field is absent from it. */
function zeroValue(field: DescField, sym: Symbols): Printable[] | undefined {
  switch (field.fieldKind) {
    case "list":
      return ["[]"];
    case "map":
      return ["{}"];
    case "message":
      return undefined;
    default:
      if (field.oneof !== undefined || field.presence !== FeatureSet_FieldPresence.IMPLICIT)
        return undefined;
      if (field.fieldKind === "enum") return [String(field.enum.values[0]?.number ?? 0)];
      switch (field.scalar) {
        case ScalarType.STRING:
          return ['""'];
        case ScalarType.BOOL:
          return ["false"];
        case ScalarType.BYTES:
          return [sym.read, ".emptyBytes()"];
        case ScalarType.INT64:
        case ScalarType.UINT64:
        case ScalarType.SINT64:
        case ScalarType.FIXED64:
        case ScalarType.SFIXED64:
          return field.longAsString ? ['"0"'] : [sym.read, ".int64Zero"];
        default:
          return ["0"];
      }
  }
}

/** How one value (a field's, a list element, a map value) is read from `src`: an expression that is undefined when the reader must give up, or undefined when it always must. */
function valueExpression(
  field: DescField,
  src: string,
  sym: Symbols,
  inMap: boolean,
): Printable[] | undefined {
  const e = fieldEnum(field);
  if (e !== undefined) {
    if (e.typeName === "google.protobuf.NullValue") return undefined;
    const table = sym.plan.enums.get(e);
    if (table === undefined) throw new Error(`no JSON number table for enum ${e.typeName}`);
    const declared = e.open
      ? "undefined"
      : `[${[...new Set(e.values.map((v) => v.number))].join(", ")}]`;
    return [sym.read, ".enum(", table, ", ", declared, ", ", src, ")"];
  }
  const message = fieldMessage(field);
  if (message !== undefined) return messageExpression(field, message, src, sym);
  const scalar =
    field.fieldKind === "scalar" || field.fieldKind === "list" || field.fieldKind === "map"
      ? field.scalar
      : undefined;
  switch (scalar) {
    case ScalarType.STRING:
      return ["(", sym.read, ".string(", src, ") ? ", src, " : undefined)"];
    case ScalarType.BOOL:
      return ["(typeof ", src, ' === "boolean" ? ', src, " : undefined)"];
    case ScalarType.BYTES:
      return [sym.read, ".bytes(", src, ")"];
    case ScalarType.DOUBLE:
      return [sym.read, ".double(", src, ", false)"];
    case ScalarType.FLOAT:
      return [sym.read, ".double(", src, ", true)"];
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
      return [sym.read, ".int64(", src, ", false, ", String(!inMap && longAsString(field)), ")"];
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return [sym.read, ".int64(", src, ", true, ", String(!inMap && longAsString(field)), ")"];
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return [sym.read, ".int32(", src, ", 0, 4294967295)"];
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      return [sym.read, ".int32(", src, ", -2147483648, 2147483647)"];
    default:
      return undefined;
  }
}

function messageExpression(
  field: DescField,
  message: DescMessage,
  src: string,
  sym: Symbols,
): Printable[] | undefined {
  switch (message.typeName) {
    case "google.protobuf.Struct":
      // A JSON object in a field, except in google.protobuf.Value (which no reader is generated for).
      return field.parent.typeName === "google.protobuf.Value"
        ? undefined
        : [sym.read, ".struct(", src, ")"];
    case "google.protobuf.Value":
      return [sym.read, ".value(", src, ")"];
    case "google.protobuf.Timestamp":
      return [sym.read, ".timestamp(", src, ")"];
    case "google.protobuf.Duration":
      return [sym.read, ".duration(", src, ")"];
    case "google.protobuf.FieldMask":
      return [sym.read, ".fieldMask(", src, ")"];
  }
  // Any, ListValue and the wrappers: reflection.
  if (isWrapperType(message) || !isReadableMessage(message)) return undefined;
  const child = sym.plan.byType.get(message.typeName);
  if (child === undefined) throw new Error(`no JSON reader for ${message.typeName}`);
  return [child.name, "(", src, ", d + 1)"];
}

/** Whether protobuf-es holds the 64-bit integers of the field as strings (jstype = JS_STRING). */
function longAsString(field: DescField): boolean {
  return (
    (field.fieldKind === "scalar" || (field.fieldKind === "list" && field.listKind === "scalar")) &&
    field.longAsString
  );
}

/** Whether JSON null is a value of the field's type (google.protobuf.Value) rather than "unset". */
function nullIsValue(field: DescField): boolean {
  return fieldMessage(field)?.typeName === "google.protobuf.Value";
}

/** The `case` of one field in the reader's key switch: both its JSON and its proto name. */
function printFieldCase(f: GeneratedFile, field: DescField, sym: Symbols): void {
  const local = f.string(field.localName);
  f.print("      case ", f.string(field.jsonName), ":");
  if (field.name !== field.jsonName) {
    f.print("      case ", f.string(field.name), ":");
    // Both spellings of one field: fromJson refuses the request ("set multiple times").
    f.print(
      "        if (k !== ",
      f.string(field.jsonName),
      " && Object.hasOwn(t, ",
      f.string(field.jsonName),
      ")) return undefined;",
    );
  }
  const ind = "        ";
  if (field.oneof !== undefined) {
    const oneof = f.string(field.oneof.localName);
    // null: a scalar member is skipped; an enum or message member still counts as the oneof's member (reflection, then).
    if (!nullIsValue(field))
      f.print(
        ind,
        "if (v === null) ",
        field.fieldKind === "scalar" ? "break;" : "return undefined;",
      );
    f.print(ind, "if ((m[", oneof, "] as ", sym.Oneof, ").case !== undefined) return undefined;");
    const expr = valueExpression(field, "v", sym, false);
    if (expr === undefined) {
      f.print(ind, "return undefined;");
      return;
    }
    f.print(ind, "{");
    f.print(ind, "  const x = ", ...expr, ";");
    f.print(ind, "  if (x === undefined) return undefined;");
    f.print(ind, "  m[", oneof, "] = { case: ", local, ", value: x };");
    f.print(ind, "}");
    f.print(ind, "break;");
    return;
  }
  switch (field.fieldKind) {
    case "list": {
      f.print(ind, "if (v === null) break;");
      const expr = valueExpression(field, "x", sym, false);
      if (expr === undefined) {
        f.print(ind, "return undefined;");
        return;
      }
      f.print(ind, "if (!Array.isArray(v)) return undefined;");
      f.print(ind, "for (const x of v as unknown[]) {");
      f.print(ind, "  const s = ", ...expr, ";");
      f.print(ind, "  if (s === undefined) return undefined;");
      f.print(ind, "  (m[", local, "] as unknown[]).push(s);");
      f.print(ind, "}");
      f.print(ind, "break;");
      return;
    }
    case "map": {
      f.print(ind, "if (v === null) break;");
      const expr =
        field.mapKey === ScalarType.STRING ? valueExpression(field, "x", sym, true) : undefined;
      if (expr === undefined) {
        f.print(ind, "return undefined;");
        return;
      }
      f.print(ind, 'if (typeof v !== "object" || Array.isArray(v)) return undefined;');
      f.print(ind, "for (const k of Object.keys(v)) {");
      // protobuf-es sets "__proto__" as an own key; its keys must be well-formed strings.
      f.print(ind, '  if (k === "__proto__" || !', sym.read, ".string(k)) return undefined;");
      f.print(ind, "  const x: unknown = (v as Record<string, unknown>)[k];");
      if (!nullIsValue(field)) f.print(ind, "  if (x === null) return undefined;");
      f.print(ind, "  const s = ", ...expr, ";");
      f.print(ind, "  if (s === undefined) return undefined;");
      f.print(ind, "  (m[", local, "] as Record<string, unknown>)[k] = s;");
      f.print(ind, "}");
      f.print(ind, "break;");
      return;
    }
    default: {
      const expr = valueExpression(field, "v", sym, false);
      if (field.fieldKind === "enum" && expr === undefined) {
        // NullValue: null is its value, not "unset".
        f.print(ind, "return undefined;");
        return;
      }
      // null: an implicit-presence field keeps its zero value, any other stays unset (it cannot have been set yet).
      if (!nullIsValue(field)) f.print(ind, "if (v === null) break;");
      if (expr === undefined) {
        f.print(ind, "return undefined;");
        return;
      }
      f.print(ind, "{");
      f.print(ind, "  const x = ", ...expr, ";");
      f.print(ind, "  if (x === undefined) return undefined;");
      f.print(ind, "  m[", local, "] = x;");
      f.print(ind, "}");
      f.print(ind, "break;");
    }
  }
}

/** The request table's rules of the type, as findMissingFields checks them: a broken rule leaves the request to reflection. */
function printRules(f: GeneratedFile, node: JsonReaderNode, sym: Symbols): void {
  for (const rule of node.fields) {
    if (rule.required === undefined && rule.range === undefined) continue;
    const field = rule.field;
    const value: Printable[] =
      field.oneof === undefined
        ? ["m[", f.string(field.localName), "]"]
        : [
            "((m[",
            f.string(field.oneof.localName),
            "] as ",
            sym.Oneof,
            ").case === ",
            f.string(field.localName),
            " ? (m[",
            f.string(field.oneof.localName),
            "] as ",
            sym.Oneof,
            ").value : undefined)",
          ];
    if (rule.required !== undefined)
      f.print(
        "  if (",
        sym.read,
        ".missing(",
        f.string(rule.required),
        ", ",
        ...value,
        ")) return undefined;",
      );
    if (
      rule.range !== undefined &&
      (rule.range.min !== undefined || rule.range.max !== undefined)
    ) {
      const tests: string[] = [];
      if (rule.range.min !== undefined) tests.push(`x < ${rule.range.min}`);
      if (rule.range.max !== undefined) tests.push(`x > ${rule.range.max}`);
      f.print("  {");
      f.print("    const x = ", ...value, ";");
      f.print('    if (typeof x === "number" && (', tests.join(" || "), ")) return undefined;");
      f.print("  }");
    }
  }
  for (const { oneof } of node.oneofs) {
    f.print(
      "  if ((m[",
      f.string(oneof.localName),
      "] as ",
      sym.Oneof,
      ").case === undefined) return undefined;",
    );
  }
}
