// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The proto root of a single .proto file given to `protoc-gen-a2a diff`: the folder its name is
 * relative to (`names/v1/library.proto` under it), so that the file gets the name buf gave it
 * when the code and the manifest were generated, and its messages are not reported as moved.
 * In order:
 * 1. a file name the other side records (its manifest's `file`) that the path ends with;
 * 2. the module of a `buf.yaml` above the file that holds it (v2 `modules: - path: …`; a
 *    `buf.yaml` without modules is a module itself);
 * 3. the folders that spell the file's package (buf's PACKAGE_DIRECTORY_MATCH layout:
 *    `package acme.library.v1;` in `…/acme/library/v1/`);
 * 4. the file's own folder.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

/** Whether `path` is inside `dir` (or is it). */
function isInside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith("..") && !rel.startsWith(sep) && !/^[A-Za-z]:/.test(rel));
}

/** The module folders a buf.yaml declares (v2 `modules:` paths), or [] when it has none (v1, or v2 with one module at its root). */
function bufModulePaths(text: string): string[] {
  const paths: string[] = [];
  let inModules = false;
  for (const line of text.split(/\r?\n/)) {
    if (/^modules:\s*$/.test(line)) {
      inModules = true;
      continue;
    }
    if (inModules && /^\S/.test(line)) inModules = false;
    const path = inModules ? /^\s*-\s*path:\s*["']?([^"'\s#]+)["']?/.exec(line)?.[1] : undefined;
    if (path !== undefined) paths.push(path);
  }
  return paths;
}

/** The module root of the nearest buf.yaml above `file` whose modules hold it. */
function bufModuleRoot(file: string): string | undefined {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const config = join(dir, "buf.yaml");
    if (existsSync(config)) {
      const modules = bufModulePaths(readFileSync(config, "utf8"));
      if (modules.length === 0) return dir;
      const holding = modules.map((m) => resolve(dir, m)).find((m) => isInside(file, m));
      if (holding !== undefined) return holding;
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** The folder above the directories that spell the file's package, when they do. */
function packageRoot(file: string): string | undefined {
  const pkg = /^\s*package\s+([\w.]+)\s*;/m.exec(readFileSync(file, "utf8"))?.[1];
  if (pkg === undefined) return undefined;
  const segments = pkg.split(".");
  const dirs = dirname(file).split(sep);
  // The whole package, as buf's layout has it (a part of it, `v1/` of `acme.lib.v1`, says nothing of the root).
  if (
    dirs.length <= segments.length ||
    dirs.slice(-segments.length).join("/") !== segments.join("/")
  )
    return undefined;
  return dirs.slice(0, -segments.length).join(sep) || sep;
}

/** The proto root of a single .proto file (an absolute path); `knownNames` are the proto file names the other side of the diff records. */
export function protoRootOf(file: string, knownNames: readonly string[] = []): string {
  const normalized = file.split(sep).join("/");
  const known = knownNames
    .filter((name) => normalized.endsWith(`/${name}`))
    .sort((a, b) => b.length - a.length)[0];
  if (known !== undefined)
    return (
      normalized
        .slice(0, -known.length - 1)
        .split("/")
        .join(sep) || sep
    );
  return bufModuleRoot(file) ?? packageRoot(file) ?? dirname(file);
}
