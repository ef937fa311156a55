// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * One side of `protoc-gen-a2a diff`: manifests read from JSON files, or made from protos. A
 * proto (a .proto file or a folder of them) is compiled by buf in a temporary workspace with
 * the google/api protos this package ships (third_party/googleapis), `buf build -o image.binpb`;
 * each input file with services gets the plugin's model (buildFileModel) and from it the
 * manifest (api-manifest.ts; a proto the task runtime refuses is described with the refusal), exactly what the plugin would write beside the code.
 */
import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { createFileRegistry, fromBinary } from "@bufbuild/protobuf";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import { GenerationError } from "../generation-error.js";
import { setNoticeSink } from "../notices.js";
import type { PluginOptions } from "../options.js";
import { MANIFEST_VERSION, apiManifest, type ApiManifest } from "../manifest/api-manifest.js";
import { buildFileModel } from "../model/service-model.js";
import { protoRootOf } from "./proto-root.js";

/** A problem with an input: printed as one line, exit 2. */
export class InputError extends Error {
  override name = "InputError";
}

export interface LoadedApi {
  /** The path as given. */
  readonly source: string;
  readonly kind: "proto" | "manifest";
  readonly manifests: readonly ApiManifest[];
}

/**
 * Reads one side: a manifest (.json), a folder of manifests (`*_a2a_manifest.json`), a .proto file or a folder of protos.
 * `knownNames`: the proto file names the other side records, which tell a single .proto file's root (proto-root.ts).
 */
export function loadApi(
  source: string,
  options: PluginOptions,
  parameter: string,
  cwd = process.cwd(),
  knownNames: readonly string[] = [],
): LoadedApi {
  const path = resolve(cwd, source);
  if (!existsSync(path)) throw new InputError(`${source}: no such file or directory`);
  if (statSync(path).isDirectory()) {
    const protos = listFiles(path, (f) => f.endsWith(".proto"));
    if (protos.length > 0)
      return {
        source,
        kind: "proto",
        manifests: buildProtos(source, path, protos, protos, options, parameter),
      };
    const manifests = listFiles(path, (f) => f.endsWith("_a2a_manifest.json"));
    if (manifests.length > 0)
      return {
        source,
        kind: "manifest",
        manifests: manifests.map((m) => readManifest(join(source, m), join(path, m))),
      };
    throw new InputError(`${source}: no .proto files and no *_a2a_manifest.json in this folder`);
  }
  if (path.endsWith(".proto")) {
    // The file's proto root (where buf generate had it), so that it keeps its name and can import its neighbours; only the file itself is described.
    const root = protoRootOf(path, knownNames);
    return {
      source,
      kind: "proto",
      manifests: buildProtos(
        source,
        root,
        listFiles(root, (f) => f.endsWith(".proto")),
        [relative(root, path).split(sep).join("/")],
        options,
        parameter,
      ),
    };
  }
  return { source, kind: "manifest", manifests: [readManifest(source, path)] };
}

/** Relative paths (with /) of the files under `dir` that `keep` accepts, sorted; hidden folders and node_modules skipped. */
function listFiles(dir: string, keep: (name: string) => boolean): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
      const full = join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && keep(entry.name))
        out.push(relative(dir, full).split(sep).join("/"));
    }
  };
  walk(dir);
  return out.sort();
}

function readManifest(source: string, path: string): ApiManifest {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new InputError(
      `${source}: not a .proto file and not JSON (${e instanceof Error ? e.message : String(e)})`,
    );
  }
  const m = value as Partial<ApiManifest> | null;
  if (typeof m !== "object" || m === null || !("manifestVersion" in m))
    throw new InputError(
      `${source}: not an API manifest (no "manifestVersion"; protoc-gen-a2a writes them as <file>_a2a_manifest.json)`,
    );
  if (m.manifestVersion !== MANIFEST_VERSION)
    throw new InputError(
      `${source}: manifest version ${String(m.manifestVersion)}, this protoc-gen-a2a reads version ${MANIFEST_VERSION}`,
    );
  if (
    !Array.isArray(m.services) ||
    !Array.isArray(m.messages) ||
    !Array.isArray(m.enums) ||
    typeof m.errors !== "object" ||
    !Array.isArray(m.serviceParameters)
  )
    throw new InputError(
      `${source}: not an API manifest (services, messages, enums, errors or serviceParameters missing)`,
    );
  return m as ApiManifest;
}

/** The folder above this module holding `rel` (the plugin runs from source and from plugin/dist). */
function packageFile(rel: string): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, rel))) return join(dir, rel);
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

const GOOGLE_PROTOS = [
  "api/annotations.proto",
  "api/http.proto",
  "api/field_behavior.proto",
  "api/client.proto",
  "api/launch_stage.proto",
  "rpc/status.proto",
  "rpc/error_details.proto",
  "rpc/code.proto",
];

function buildProtos(
  source: string,
  root: string,
  all: readonly string[],
  described: readonly string[],
  options: PluginOptions,
  parameter: string,
): ApiManifest[] {
  const googleapis =
    packageFile("third_party/googleapis/google/api/annotations.proto") ??
    packageFile("node_modules/google-proto-files/google/api/annotations.proto");
  const ownGoogleApi = all.includes("google/api/annotations.proto");
  if (googleapis === undefined && !ownGoogleApi)
    throw new InputError(
      "protoc-gen-a2a diff: the google/api protos (third_party/googleapis) are not installed with protoc-gen-a2a",
    );
  const tmp = mkdtempSync(join(tmpdir(), "a2a-diff-"));
  try {
    for (const f of all) {
      mkdirSync(dirname(join(tmp, "input", f)), { recursive: true });
      cpSync(join(root, f), join(tmp, "input", f));
    }
    const modules = ["  - path: input"];
    if (googleapis !== undefined) {
      // What a2a.proto-like protos import (google.api.http, field_behavior, client; google.rpc's status types), unless the input has its own.
      const google = dirname(dirname(googleapis));
      const copied = GOOGLE_PROTOS.filter(
        (f) => existsSync(join(google, f)) && !all.includes(`google/${f}`),
      );
      for (const f of copied) {
        mkdirSync(dirname(join(tmp, "googleapis/google", f)), { recursive: true });
        cpSync(join(google, f), join(tmp, "googleapis/google", f));
      }
      if (copied.length > 0) modules.push("  - path: googleapis");
    }
    const bufYaml = ["version: v2", "modules:", ...modules, ""].join("\n");
    writeFileSync(join(tmp, "buf.yaml"), bufYaml);
    const bin = packageFile("node_modules/.bin/buf");
    const env = {
      ...process.env,
      PATH: [packageFile("node_modules/.bin") ?? "", process.env["PATH"] ?? ""]
        .filter((p) => p !== "")
        .join(delimiter),
    };
    try {
      // A single file: only it and what it imports are compiled (its neighbours may be unrelated, or broken).
      const paths = described === all ? [] : described.flatMap((f) => ["--path", `input/${f}`]);
      execFileSync(bin ?? "buf", ["build", "-o", "image.binpb", ...paths], {
        cwd: tmp,
        env,
        stdio: ["ignore", "ignore", "pipe"],
      });
    } catch (e) {
      const stderr = (e as { stderr?: Buffer }).stderr?.toString() ?? "";
      if ((e as { code?: string }).code === "ENOENT")
        throw new InputError("protoc-gen-a2a diff: buf not found (npm install -D @bufbuild/buf)");
      const lines = stderr
        .split("\n")
        .map((l) => l.trim())
        .filter((l) => l !== "");
      const first = (lines[0] ?? "buf build failed").replace(/^input\//, "");
      throw new InputError(
        `${source}: does not compile: ${first}${lines.length > 1 ? ` (and ${lines.length - 1} more)` : ""}`,
      );
    }
    const set = fromBinary(FileDescriptorSetSchema, readFileSync(join(tmp, "image.binpb")));
    const registry = createFileRegistry(set);
    const manifests: ApiManifest[] = [];
    for (const name of described) {
      const file = registry.getFile(name);
      if (file === undefined || file.services.length === 0) continue;
      // Generation notices (skipped RPCs, RPCs the task runtime leaves to the author) are for buf generate's output, not the diff's.
      const sink = setNoticeSink(() => {});
      try {
        // A proto the task runtime refuses is still described: the manifest records why.
        manifests.push(
          apiManifest(
            buildFileModel(file, options, parameter, { taskRuntimeDrift: "record" }),
            parameter,
          ),
        );
      } catch (e) {
        if (e instanceof GenerationError) throw new InputError(`${source}: ${e.message}`);
        throw e;
      } finally {
        setNoticeSink(sink);
      }
    }
    if (manifests.length === 0)
      throw new InputError(
        `${source}: no service in ${described.length === 1 ? described[0] : "these protos"}: nothing to compare`,
      );
    return manifests;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
