// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import type { DescFile, DescMessage } from "@bufbuild/protobuf";
import type { GeneratedFile, Printable } from "@bufbuild/protoplugin";
import type { FileModel } from "../../model/service-model.js";

/** The name of the file-level registry in the handler file. */
export const TYPE_REGISTRY = "typeRegistry";

/**
 * Well-known types an Any commonly packs, in the registry whether or not the proto imports them
 * (an Operation's `metadata` holding a Timestamp): `@bufbuild/protobuf/wkt` has them anyway.
 */
const WELL_KNOWN_FILES = [
  "any",
  "duration",
  "empty",
  "field_mask",
  "struct",
  "timestamp",
  "wrappers",
];

/**
 * Emits `typeRegistry`: a protobuf-es registry of the proto file, of the files it imports
 * (transitively) whose messages its messages hold or whose extensions extend them, and of the
 * well-known types, built once when the module loads. The servers and clients of every binding hand
 * it to ProtoJSON, so that `google.protobuf.Any` and proto2 extensions are read and written. Files
 * imported only for their options (google/api/annotations.proto) are left out: their `_pb` files
 * are not needed.
 */
export function emitTypeRegistry(f: GeneratedFile, model: FileModel): void {
  const createRegistry = f.import("createRegistry", "@bufbuild/protobuf");
  const files = registryFiles(model.file);
  const names = new Set(files.map((file) => file.name));
  const entries: Printable[] = files.map((file) => f.importSchema(file));
  for (const name of WELL_KNOWN_FILES) {
    if (!names.has(`google/protobuf/${name}`))
      entries.push(f.import(`file_google_protobuf_${name}`, "@bufbuild/protobuf/wkt"));
  }
  f.print(
    f.jsDoc(
      [
        `The message, enum and extension types of ${model.file.name}.proto, of the files it imports that its`,
        "messages use or extend, and of the well-known types: what ProtoJSON needs to read and write",
        "`google.protobuf.Any` and extensions. Servers and clients use it, merged with their `registry`",
        "option (the agent's own types).",
      ].join("\n"),
    ),
  );
  f.print(f.export("const", TYPE_REGISTRY), " = ", createRegistry, "(");
  for (const entry of entries) f.print("  ", entry, ",");
  f.print(");");
}

/** The file, then the files it imports (transitively, depth-first, each once) that hold a message its messages reach or an extension of one. */
function registryFiles(root: DescFile): DescFile[] {
  const reached = new Set<string>();
  const reach = (message: DescMessage) => {
    if (reached.has(message.typeName)) return;
    reached.add(message.typeName);
    for (const field of message.fields) if (field.message !== undefined) reach(field.message);
    for (const nested of message.nestedMessages) reach(nested);
  };
  root.messages.forEach(reach);
  for (const service of root.services)
    for (const method of service.methods) [method.input, method.output].forEach(reach);
  const files: DescFile[] = [];
  const seen = new Set<string>();
  const visit = (file: DescFile) => {
    if (seen.has(file.name)) return;
    seen.add(file.name);
    files.push(file);
    for (const dep of file.dependencies) visit(dep);
  };
  visit(root);
  const used = (file: DescFile): boolean => {
    if (file === root) return true;
    const extensions = [
      ...file.extensions,
      ...allMessages(file).flatMap((m) => m.nestedExtensions),
    ];
    return (
      allMessages(file).some((m) => reached.has(m.typeName)) ||
      extensions.some((e) => reached.has(e.extendee.typeName))
    );
  };
  // Extensions of reached messages can reach more messages (their own types): once more over the files.
  for (const file of files)
    for (const e of file.extensions)
      if (reached.has(e.extendee.typeName) && e.message !== undefined) reach(e.message);
  return files.filter(used);
}

/** Every message of a file, nested ones included. */
function allMessages(file: DescFile): DescMessage[] {
  const out: DescMessage[] = [];
  const add = (message: DescMessage) => {
    out.push(message);
    message.nestedMessages.forEach(add);
  };
  file.messages.forEach(add);
  return out;
}
