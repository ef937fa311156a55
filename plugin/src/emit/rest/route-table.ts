// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import type { GeneratedFile, ImportSymbol, Schema } from "@bufbuild/protoplugin";
import type { FileModel, ServiceModel } from "../../model/service-model.js";
import { ScalarType, type DescField } from "@bufbuild/protobuf";
import {
  pathFieldKind,
  requestFieldShapes,
  type RequestFieldShape,
} from "../../model/query-fields.js";
import type { HttpBinding } from "../../model/http-binding.js";
import { sortRoutes } from "../../model/route-order.js";
import { generationError } from "../../generation-error.js";
import { outputModule } from "../file-names.js";
import { runtimeImport } from "../runtime-package.js";
import { serviceSymbols } from "../common/handler-interface.js";
import { generateTsFile } from "../preamble.js";

/** The services of a file that have at least one google.api.http rule: only they get REST files. */
export function restServices(model: FileModel): ServiceModel[] {
  return model.services.filter(hasRestBinding);
}

/** True when the service has a google.api.http rule (its REST server, client and routes are emitted). */
export function hasRestBinding(service: ServiceModel): boolean {
  return service.operations.some((op) => op.httpBindings.length > 0);
}

/**
 * Emits `<file>_a2a_rest_routes.ts`: per service, the HTTP+JSON route table with every
 * `google.api.http` binding precompiled (segments, verb, variables) and already in
 * match order, so the runtime matcher only compares strings.
 */
export function emitRouteTable(schema: Schema<object>, model: FileModel): void {
  const f = generateTsFile(schema, model, "restRoutes");
  const RouteTable = f.import("RouteTable", runtimeImport("rest"), true);
  for (const service of restServices(model)) {
    const names = serviceSymbols(service);
    const OperationName = f.import(names.operationName, outputModule(model.file, "handler"), true);
    const routes = service.operations.flatMap((op) =>
      op.httpBindings.map((binding) => ({ op, binding, pattern: binding.pattern })),
    );
    checkAmbiguity(model.fileName, service.typeName, routes);
    const ordered = sortRoutes(routes);
    f.print(
      f.jsDoc(
        [
          `HTTP+JSON routes of ${service.typeName}, in match order: custom-verb patterns first,`,
          "then segment by segment literal before `*` before `**`, then proto order.",
          "Match with `matchRoute(table, method, path)` from the runtime.",
          "",
          `@generated from service ${service.typeName}`,
        ].join("\n"),
      ),
    );
    f.print(f.export("const", names.routes), ": ", RouteTable, "<", OperationName, "> = {");
    f.print("  routes: [");
    for (const { op, binding } of ordered) {
      f.print(
        "    // ",
        binding.method,
        " ",
        binding.template,
        " → ",
        op.name,
        originNote(binding),
      );
      f.print("    {");
      f.print("      method: ", f.string(binding.method), ",");
      f.print("      template: ", f.string(binding.template), ",");
      const variables = binding.pattern.variables.map(
        (v) => `{ field: ${JSON.stringify(v.field)}, start: ${v.start}, end: ${v.end} }`,
      );
      f.print(
        "      pattern: { segments: [",
        binding.pattern.segments.map((s) => JSON.stringify(s)).join(", "),
        "], verb: ",
        binding.pattern.verb === undefined ? "undefined" : JSON.stringify(binding.pattern.verb),
        ", variables: [",
        variables.join(", "),
        "] },",
      );
      f.print("      operation: ", f.string(op.name), ",");
      f.print("      body: ", f.string(binding.body), ",");
      f.print("    },");
    }
    f.print("  ],");
    f.print("};");
    f.print();
    emitRequestShapes(f, service, names.restRequests, OperationName);
  }
}

/**
 * Emits the top-level request fields of every operation with an HTTP binding (proto and
 * JSON names, query kind), for assembling requests from paths and queries and back.
 */
function emitRequestShapes(
  f: GeneratedFile,
  service: ServiceModel,
  name: string,
  OperationName: ImportSymbol,
): void {
  const RestRequestShape = f.import("RestRequestShape", runtimeImport("rest"), true);
  f.print(
    f.jsDoc(
      [
        `Request fields of the operations of ${service.typeName} that have HTTP bindings: how each`,
        "maps to path variables and query parameters (spec §11.5; `message` fields cannot be",
        "sent in a query).",
      ].join("\n"),
    ),
  );
  f.print(
    f.export("const", name),
    ": Partial<Record<",
    OperationName,
    ", ",
    RestRequestShape,
    ">> = {",
  );
  for (const op of service.operations) {
    if (op.httpBindings.length === 0) continue;
    // Fields of nested messages only where a query carries them (GET, DELETE, `body: "field"`).
    const nested = op.httpBindings.some((b) => b.body !== "*");
    f.print("  ", objectKey(op.name), ": {");
    f.print("    fields: [");
    for (const field of requestFieldShapes(op.input, { nested }))
      f.print("      ", fieldLiteral(field), ",");
    f.print("    ],");
    const paths = pathFields(op.httpBindings);
    if (paths.length > 0) {
      f.print("    paths: {");
      for (const p of paths) {
        const zero = p.zero === undefined ? "" : `, zero: ${JSON.stringify(p.zero)}`;
        f.print(
          "      ",
          objectKey(p.field, "quoted"),
          ": { names: ",
          JSON.stringify(p.names),
          ", json: ",
          JSON.stringify(p.json),
          ", kind: ",
          JSON.stringify(p.kind),
          zero,
          " },",
        );
      }
      f.print("    },");
    }
    f.print("  },");
  }
  f.print("};");
  f.print();
}

/**
 * A key of a generated object literal: as written, except `__proto__`, which in a literal would set the
 * object's prototype: it is written computed (`["__proto__"]`), an own property like any other.
 */
function objectKey(name: string, style: "bare" | "quoted" = "bare"): string {
  if (name === "__proto__") return '["__proto__"]';
  return style === "quoted" ? JSON.stringify(name) : name;
}

function fieldLiteral(field: RequestFieldShape): string {
  const repeated = field.repeated ? ", repeated: true" : "";
  const fields =
    field.fields === undefined ? "" : `, fields: [${field.fields.map(fieldLiteral).join(", ")}]`;
  return `{ name: ${JSON.stringify(field.name)}, json: ${JSON.stringify(field.json)}, kind: ${JSON.stringify(field.kind)}${repeated}${fields} }`;
}

/**
 * The path variables of an operation that are not top-level string fields: the proto and
 * JSON name of each step, the leaf's kind, and the value the path carries when ProtoJSON
 * leaves the field out (its zero or proto2 default), so the runtime never reflects.
 */
function pathFields(
  bindings: readonly HttpBinding[],
): { field: string; names: string[]; json: string[]; kind: string; zero: string | undefined }[] {
  const out = new Map<
    string,
    { field: string; names: string[]; json: string[]; kind: string; zero: string | undefined }
  >();
  for (const binding of bindings) {
    for (const v of binding.variables) {
      const leaf = v.path[v.path.length - 1]!;
      const kind = pathFieldKind(leaf);
      if (out.has(v.field) || (v.path.length === 1 && kind === "string")) continue;
      out.set(v.field, {
        field: v.field,
        names: v.path.map((f) => f.name),
        json: v.path.map((f) => f.jsonName),
        kind,
        zero: zeroText(leaf),
      });
    }
  }
  return [...out.values()];
}

function zeroText(field: DescField): string | undefined {
  if (field.fieldKind === "enum") {
    const number = field.getDefaultValue() ?? 0;
    return field.enum.values.find((v) => v.number === number)?.name ?? field.enum.values[0]?.name;
  }
  if (field.fieldKind !== "scalar") return undefined;
  const value = field.getDefaultValue();
  switch (field.scalar) {
    case ScalarType.STRING:
    case ScalarType.BYTES:
      return undefined;
    case ScalarType.BOOL:
      return String(value ?? false);
    default:
      return String(value ?? 0);
  }
}

function originNote(binding: HttpBinding): string {
  switch (binding.origin) {
    case "rule":
      return "";
    case "additional":
      return " (additional binding)";
    case "erratum":
      return " (the proto's template corrected, beside it)";
    case "spec-alias":
      return " (spec §11.3 alias of the GET binding)";
  }
}

/** Two bindings with the same method and the same pattern can never both be reached: reject them. */
function checkAmbiguity(
  file: string,
  service: string,
  routes: readonly { op: { name: string }; binding: HttpBinding }[],
): void {
  const seen = new Map<string, string>();
  for (const { op, binding } of routes) {
    const key = `${binding.method} ${binding.pattern.segments.join("/")}:${binding.pattern.verb ?? ""}`;
    const other = seen.get(key);
    if (other !== undefined) {
      throw generationError(
        { file, rpc: `${service}.${op.name}`, option: "google.api.http" },
        `${binding.method} "${binding.template}" matches exactly the same requests as a binding of ${other}`,
      );
    }
    seen.set(key, `${service}.${op.name} ("${binding.template}")`);
  }
}
