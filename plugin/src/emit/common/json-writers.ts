// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import type { GeneratedFile, ImportSymbol, Printable, Schema } from "@bufbuild/protoplugin";
import { ScalarType, type DescEnum, type DescField, type DescMessage } from "@bufbuild/protobuf";
import { FeatureSet_FieldPresence } from "@bufbuild/protobuf/wkt";
import type { FileModel } from "../../model/service-model.js";
import { hasImplicitPresence } from "../../model/required-fields.js";
import {
  fieldEnum,
  fieldMessage,
  isWrapperType,
  planJsonWriters,
  scalarWriter,
  type JsonWriterNode,
} from "../../model/json-writer-plan.js";
import { generateTsFile } from "../preamble.js";
import { runtimeImport } from "../runtime-package.js";
import { jsonZero } from "./requirement-table.js";
import { planJsonReaders } from "../../model/json-reader-plan.js";
import { printJsonReaders } from "./json-readers.js";

/** How deep `fillRequiredDefaults` descends (required-fields.ts MAX_DEPTH): deeper, a filling writer leaves the message to reflection. */
const FILL_MAX_DEPTH = 64;

/** The name of the table of a service's response writers. */
export function responseWritersName(serviceName: string): string {
  return `${serviceName}ResponseJsonWriters`;
}

/**
 * Emits `<file>_a2a_json.ts`: one ProtoJSON writer per message type the responses and stream
 * events of the file's services reach, producing the JSON text directly, exactly as
 * `JSON.stringify(encodeMessage(schema, message, responseFields, registry))` writes it (same key
 * order, REQUIRED zero values, int64 strings, enum names, base64, well-known types), and per
 * service the `<Service>ResponseJsonWriters` table the JSON-RPC and HTTP+JSON servers use; and the
 * request readers (json-readers.ts, `<Service>RequestJsonReaders`). Returns false when no service has
 * a response type to write or a request type to read (no file then).
 */
export function emitJsonWriters(schema: Schema<object>, model: FileModel): boolean {
  const plan = planJsonWriters(model);
  const readers = planJsonReaders(model);
  if (plan.writers.length === 0 && readers.readers.length === 0) return false;
  const f = generateTsFile(schema, model, "jsonWriters");
  printJsonReaders(f, model, readers);
  if (plan.writers.length === 0) return true;
  const rt = (name: string, typeOnly = false) => f.import(name, runtimeImport(""), typeOnly);
  const Source = rt("JsonWriteSource", true);
  const Oneof = rt("JsonWriteOneof", true);
  const Table = rt("JsonTextWriterTable", true);
  const Registry = f.import("Registry", "@bufbuild/protobuf", true);
  const bail = rt("bailJsonWrite");

  for (const service of model.services) {
    const roots = plan.roots.get(service.typeName) ?? [];
    f.print(
      f.jsDoc(
        [
          `ProtoJSON writers of the response and stream event types of ${service.typeName}, by type name: the`,
          "JSON text of a message, REQUIRED zero values filled as the service's response table says. The JSON-RPC",
          "and HTTP+JSON servers use them in place of reflection (`responseWriters`).",
        ].join("\n"),
      ),
    );
    f.print(f.export("const", responseWritersName(service.desc.name)), ": ", Table, " = {");
    for (const node of roots) {
      f.print(
        "  ",
        f.string(node.message.typeName),
        ": (m, r) => ",
        node.name,
        "(m as ",
        Source,
        node.rules === undefined ? ", r)," : ", r, 0),",
      );
    }
    f.print("};");
    f.print();
  }

  for (const [e, name] of plan.enums) {
    f.print(f.jsDoc(`The JSON names of ${e.typeName}, by number.`));
    const entries = e.values
      .filter((v, i, all) => all.findIndex((o) => o.number === v.number) === i)
      .map((v) => `${v.number}: ${JSON.stringify(JSON.stringify(v.jsonName ?? v.name))}`);
    f.print("const ", name, ": Readonly<Record<number, string>> = { ", entries.join(", "), " };");
    f.print();
  }

  for (const node of plan.writers) {
    const filled = node.rules !== undefined;
    f.print(
      f.jsDoc(
        [
          `The ProtoJSON text of ${node.message.typeName}${filled ? ", with the REQUIRED fields ProtoJSON omits at their zero value" : ""}.`,
          ...(filled
            ? [
                `Deeper than ${FILL_MAX_DEPTH} levels, reflection writes it (fillRequiredDefaults stops there).`,
              ]
            : []),
          "",
          `@generated from message ${node.message.typeName}`,
        ].join("\n"),
      ),
    );
    // A writer that neither writes an Any nor calls another writer leaves the registry unread (`_r`: strict user projects have noUnusedParameters).
    f.print(
      "function ",
      node.name,
      "(m: ",
      Source,
      ", ",
      passesRegistry(node) ? "r" : "_r",
      ": ",
      Registry,
      " | undefined",
      filled ? ", d: number" : "",
      "): string {",
    );
    if (filled) f.print("  if (d > ", FILL_MAX_DEPTH, ") ", bail, "();");
    f.print(
      "  if (m.$typeName !== ",
      f.string(node.message.typeName),
      " || m.$unknown !== undefined) ",
      bail,
      "();",
    );
    const fields = node.message.fields.concat().sort((a, b) => a.number - b.number);
    if (fields.length === 0) {
      f.print('  return "{}";');
      f.print("}");
      f.print();
      continue;
    }
    f.print('  let s = "";');
    f.print("  let v: unknown;");
    for (const field of fields)
      printField(f, node, field, { Oneof, Source, bail, rt, enums: plan.enums });
    for (const rule of node.rules ?? []) {
      const field = rule.field;
      const zero =
        rule.required !== undefined && hasImplicitPresence(field) && field.oneof === undefined
          ? jsonZero(field)
          : undefined;
      if (zero === undefined) continue;
      f.print("  v = m[", f.string(field.localName), "];");
      f.print(
        "  if (!(",
        presence(field, "v"),
        ")) s += ",
        ...opened("s", "{", `${JSON.stringify(field.jsonName)}:${JSON.stringify(zero)}`),
        ";",
      );
    }
    f.print('  return s === "" ? "{}" : s + "}";');
    f.print("}");
    f.print();
  }
  return true;
}

interface Symbols {
  readonly Oneof: ImportSymbol;
  readonly Source: ImportSymbol;
  readonly bail: ImportSymbol;
  readonly rt: (name: string, typeOnly?: boolean) => ImportSymbol;
  readonly enums: ReadonlyMap<DescEnum, string>;
}

/** The statements writing one field, in field-number order (protobuf-es's toJson order). */
function printField(f: GeneratedFile, node: JsonWriterNode, field: DescField, sym: Symbols): void {
  const key = (value: string): Printable[] => [
    ...opened("s", "{", `${JSON.stringify(field.jsonName)}:`),
    " + ",
    value,
  ];
  const local = f.string(field.localName);
  if (field.oneof !== undefined) {
    f.print("  v = m[", f.string(field.oneof.localName), "];");
    f.print("  if ((v as ", sym.Oneof, ").case === ", local, ") {");
    f.print("    v = (v as ", sym.Oneof, ").value;");
    f.print("    s += ", ...key(""), ...valueText(f, node, field, "v", sym, true), ";");
    f.print("  }");
    return;
  }
  f.print("  v = m[", local, "];");
  switch (field.fieldKind) {
    case "list":
      f.print("  if (!Array.isArray(v)) ", sym.bail, "();");
      f.print("  if (v.length > 0) {");
      f.print('    let t = "";');
      f.print(
        '    for (const x of v) t += (t === "" ? "[" : ",") + ',
        ...valueText(f, node, field, "x", sym, false),
        ";",
      );
      f.print("    s += ", ...key('t + "]"'), ";");
      f.print("  }");
      return;
    case "map":
      f.print("  {");
      f.print("    const keys = Object.keys(v as object);");
      f.print("    if (keys.length > 0) {");
      f.print('      let t = "";');
      f.print(
        '      for (const k of keys) t += (t === "" ? "{" : ",") + JSON.stringify(k) + ":" + ',
        ...valueText(f, node, field, "(v as Record<string, unknown>)[k]", sym, false),
        ";",
      );
      f.print("      s += ", ...key('t + "}"'), ";");
      f.print("    }");
      f.print("  }");
      return;
    default:
      if (field.presence === FeatureSet_FieldPresence.IMPLICIT) {
        f.print(
          "  if (",
          presence(field, "v"),
          ") s += ",
          ...key(""),
          ...valueText(f, node, field, "v", sym, false),
          ";",
        );
      } else {
        f.print(
          "  if (v !== undefined && Object.hasOwn(m, ",
          local,
          ")) s += ",
          ...key(""),
          ...valueText(f, node, field, "v", sym, false),
          ";",
        );
        if (field.presence === FeatureSet_FieldPresence.LEGACY_REQUIRED)
          f.print("  else ", sym.bail, "();");
      }
  }
}

/**
 * The text that opens a member of the object or array being written into `into`: `open` and `text` for
 * the first member, `,` and `text` after. The writers build their text opened as they go, so that no
 * `"{" + s.substring(1) + "}"` flattens each level's text again (the copies grew with the nesting).
 */
function opened(into: string, open: string, text: string): Printable[] {
  return [
    "(",
    into,
    ' === "" ? ',
    JSON.stringify(open + text),
    " : ",
    JSON.stringify(`,${text}`),
    ")",
  ];
}

/** The condition under which toJson writes an implicit-presence field held in `v` (and under which fillRequiredDefaults leaves it alone). */
function presence(field: DescField, v: string): string {
  switch (field.fieldKind) {
    case "list":
      return `(${v} as unknown[]).length > 0`;
    case "map":
      return `Object.keys(${v} as object).length > 0`;
    case "enum":
      return `${v} !== ${field.enum.values[0]?.number ?? 0}`;
    case "message":
      return `${v} !== undefined`;
    case "scalar":
      switch (field.scalar) {
        case ScalarType.BOOL:
          return `${v} !== false`;
        case ScalarType.STRING:
          return `${v} !== ""`;
        case ScalarType.BYTES:
          return `!(${v} instanceof Uint8Array) || ${v}.byteLength > 0`;
        case ScalarType.DOUBLE:
        case ScalarType.FLOAT:
          return `!Object.is(${v}, 0)`;
        default:
          // Loose, as toJson's: 0, 0n and "0" are all zero.
          return `${v} != 0`;
      }
  }
}

/** The expression writing one value of the field (the field's value, a list element or a map value) held in `v`. */
function valueText(
  f: GeneratedFile,
  node: JsonWriterNode,
  field: DescField,
  v: string,
  sym: Symbols,
  inOneof: boolean,
): Printable[] {
  const e = fieldEnum(field);
  if (e !== undefined) {
    if (e.typeName === "google.protobuf.NullValue")
      return [sym.rt("writeJsonNullValue"), "(", v, ")"];
    const table = sym.enums.get(e);
    if (table === undefined) throw new Error(`no JSON name table for enum ${e.typeName}`);
    return [sym.rt("writeJsonEnum"), "(", table, ", ", v, ")"];
  }
  const message = fieldMessage(field);
  if (message === undefined) {
    const scalar =
      field.fieldKind === "scalar"
        ? field.scalar
        : field.fieldKind === "list" || field.fieldKind === "map"
          ? field.scalar
          : undefined;
    return [sym.rt(scalarWriter(scalar ?? ScalarType.STRING)), "(", v, ")"];
  }
  return messageText(f, node, field, message, v, sym, inOneof);
}

function messageText(
  f: GeneratedFile,
  node: JsonWriterNode,
  field: DescField,
  message: DescMessage,
  v: string,
  sym: Symbols,
  inOneof: boolean,
): Printable[] {
  switch (message.typeName) {
    case "google.protobuf.Any":
      return [sym.rt("writeJsonAny"), "(", v, ", r)"];
    case "google.protobuf.Timestamp":
      return [sym.rt("writeJsonTimestamp"), "(", v, ")"];
    case "google.protobuf.Duration":
      return [sym.rt("writeJsonDuration"), "(", v, ")"];
    case "google.protobuf.FieldMask":
      return [sym.rt("writeJsonFieldMask"), "(", v, ")"];
    case "google.protobuf.Struct":
      // protobuf-es holds a Struct field as a plain JSON object, except in google.protobuf.Value.
      return field.parent.typeName === "google.protobuf.Value"
        ? [sym.rt("writeJsonStructMessage"), "(", v, ")"]
        : [sym.rt("writeJsonObject"), "(", v, ")"];
    case "google.protobuf.Value":
      return [sym.rt("writeJsonValueMessage"), "(", v, ")"];
    case "google.protobuf.ListValue":
      return [sym.rt("writeJsonListValueMessage"), "(", v, ")"];
  }
  if (isWrapperType(message)) {
    const valueField = message.fields[0];
    const scalar = valueField?.fieldKind === "scalar" ? valueField.scalar : ScalarType.STRING;
    const write = sym.rt(scalarWriter(scalar));
    // A singular wrapper field outside a oneof holds the unwrapped value.
    if (field.fieldKind === "message" && !inOneof) return [write, "(", v, ")"];
    return [
      sym.rt("writeJsonWrapper"),
      "(",
      v,
      ", ",
      f.string(message.typeName),
      ", ",
      write,
      ", ",
      wrapperZero(scalar),
      ")",
    ];
  }
  const child = node.children.get(field.number);
  if (child === undefined)
    throw new Error(`no JSON writer for field ${field.name} of ${node.message.typeName}`);
  return [
    child.name,
    "(",
    v,
    " as ",
    sym.Source,
    ", r",
    child.rules === undefined ? "" : ", d + 1",
    ")",
  ];
}

/** Types {@link messageText} writes with a runtime helper that takes no registry. */
const INLINE_WELL_KNOWN = new Set([
  "google.protobuf.Timestamp",
  "google.protobuf.Duration",
  "google.protobuf.FieldMask",
  "google.protobuf.Struct",
  "google.protobuf.Value",
  "google.protobuf.ListValue",
]);

/** Whether the writer of `node` reads its registry parameter: it writes an Any or calls another writer. */
function passesRegistry(node: JsonWriterNode): boolean {
  return node.message.fields.some((field) => {
    if (fieldEnum(field) !== undefined) return false;
    const message = fieldMessage(field);
    if (message === undefined || INLINE_WELL_KNOWN.has(message.typeName) || isWrapperType(message))
      return false;
    return message.typeName === "google.protobuf.Any" || node.children.has(field.number);
  });
}

function wrapperZero(scalar: ScalarType): string {
  switch (scalar) {
    case ScalarType.STRING:
      return '""';
    case ScalarType.BOOL:
      return "false";
    case ScalarType.BYTES:
      return "new Uint8Array(0)";
    default:
      return "0";
  }
}
