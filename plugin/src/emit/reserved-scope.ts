// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Keeps the names generated code uses without importing them (TypeScript's globals such as
 * `Promise` and `Record`, type parameters such as `Principal`, locals) clear of the proto's
 * types. protoplugin gives an import another name (`Promise$1`) when its name is taken in the
 * file, and a symbol "imported" from the file itself takes its name without an import
 * statement: so, when a message, enum or service the file may import is named like one of
 * {@link GENERATED_SCOPE_NAMES}, one comment line names those globals as such symbols, and
 * every import of the proto's type of that name gets an alias. Files of protos without such
 * names are unchanged.
 */
import type { DescFile } from "@bufbuild/protobuf";
import { nestedTypes } from "@bufbuild/protobuf/reflect";
import type { GeneratedFile } from "@bufbuild/protoplugin";
import type { FileModel } from "../model/service-model.js";
import { GENERATED_SCOPE_NAMES } from "./reserved-names.js";

const scopeNames: ReadonlySet<string> = new Set(GENERATED_SCOPE_NAMES);

/** The proto file and every file it imports, transitively. */
function filesInScope(file: DescFile, seen = new Set<DescFile>()): Set<DescFile> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const dependency of file.dependencies) filesInScope(dependency, seen);
  return seen;
}

/** The names under which the file would import types of the proto (protoplugin's: shape and schema names), which are also scope names. */
function clashingNames(f: GeneratedFile, file: DescFile): string[] {
  const clashes = new Set<string>();
  for (const scope of filesInScope(file)) {
    for (const desc of nestedTypes(scope)) {
      if (desc.kind === "extension") continue;
      const names =
        desc.kind === "service"
          ? [f.importSchema(desc).name]
          : [f.importShape(desc).name, f.importSchema(desc).name];
      for (const name of names) if (scopeNames.has(name)) clashes.add(name);
    }
  }
  return [...clashes].sort();
}

/** The clashing names of each file model (the same for all of its generated files). */
const clashesOfModel = new WeakMap<FileModel, readonly string[]>();

/** The module specifier protoplugin gives the generated file itself (its `importPath`, from the name `schema.generateFile` got). */
function ownImportPath(f: GeneratedFile): string {
  // protoplugin's files are GeneratedFileControllers, whose getFileInfo() the public GeneratedFile type leaves out.
  const name = (f as GeneratedFile & { getFileInfo?: () => { name: string } }).getFileInfo?.().name;
  if (name === undefined)
    throw new Error("protoc-gen-a2a: a generated file without protoplugin's getFileInfo()");
  const path = name.replace(/\.ts$/, ".js");
  return path.startsWith("./") || path.startsWith("../") ? path : `./${path}`;
}

/**
 * Prints, when the proto has types named like names the generated code uses unimported, the
 * line that keeps those names for their globals (the proto's types are then imported under
 * aliases). Prints nothing otherwise.
 */
export function reserveScopeNames(f: GeneratedFile, model: FileModel): void {
  let clashes = clashesOfModel.get(model);
  if (clashes === undefined) clashesOfModel.set(model, (clashes = clashingNames(f, model.file)));
  if (clashes.length === 0) return;
  const self = ownImportPath(f);
  const symbols = clashes.flatMap((name, i) => [i === 0 ? "" : ", ", f.import(name, self, true)]);
  f.print(
    "// Names of TypeScript's and of this file (the proto's types of these names are imported under aliases): ",
    ...symbols,
  );
}
