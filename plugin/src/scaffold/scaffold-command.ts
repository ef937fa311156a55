// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * `protoc-gen-a2a scaffold-binding --name <short> --uri <URI> [options]`: the starting point
 * of a custom binding (spec §12) in an agent project: `<name>-operations.ts` (the wire names
 * of the core operations), `<name>-server.ts` (the server's holes: framing, service parameters,
 * errors, wired to the runtime's `createFramedBindingServer`), `<name>-client.ts` (the client's
 * channel, framing and error holes, wired to the runtime's `FramedTransport` under the generated
 * typed client) and `BINDING.md` (everything §12 asks to document, pre-filled from the model).
 * The framed-binding core itself lives in `@protoc-gen-a2a/runtime/binding`, so that a runtime
 * update reaches every scaffolded binding. The files are
 * the author's once written: a rerun after the proto changed adds the new RPCs to the
 * operations table and BINDING.md and flags removed ones, and leaves everything else alone.
 *
 * It builds the same model as the plugin, from the proto (through `buf build`) or from a
 * descriptor image (`--image`, a FileDescriptorSet such as `buf build -o image.binpb` writes).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";
import { createFileRegistry, fromBinary, type DescFile } from "@bufbuild/protobuf";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import { parseOptions } from "../options.js";
import { buildFileModel } from "../model/service-model.js";
import { renderScaffold, scaffoldFiles } from "./render-scaffold.js";
import { checkChoice, scaffoldView } from "./scaffold-view.js";
import { updateBindingDoc, updateOperationsFile } from "./update-scaffold.js";

export const SCAFFOLD_USAGE = `usage: protoc-gen-a2a scaffold-binding --name <short-name> --uri <binding URI> [options]

  --name <short-name>     kebab-case, names the files: ws → ws-operations.ts, ws-server.ts, ws-client.ts
  --uri <URI>             the binding's protocolBinding URI (spec §5.8), e.g. https://example.com/a2a/ws/v1
  --out <dir>             where the scaffold goes (default src/<name>-binding)
  --gen <dir>             where buf generate writes protoc-gen-a2a's output (default src/gen)
  --proto <file>          the proto with the service (default proto/a2a.proto), built with buf
  --image <file>          a FileDescriptorSet (buf build -o image.binpb) instead of running buf
  --service <name>        the service, when the proto has several
  --errors <profile>      the error profile BINDING.md lists (default v1.0.1, as the plugin's errors=)
  --import-extension <e>  js (default, NodeNext), none, or ts: the extension of relative imports

Files that exist are updated, not rewritten: new RPCs are added to <name>-operations.ts and
BINDING.md, removed ones flagged; <name>-server.ts and <name>-client.ts are left alone.`;

export interface ScaffoldResult {
  readonly ok: boolean;
  readonly lines: string[];
}

function parseArgs(args: readonly string[]): Record<string, string> | string {
  const known = new Set([
    "name",
    "uri",
    "out",
    "gen",
    "proto",
    "image",
    "service",
    "errors",
    "import-extension",
  ]);
  const out: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (m === null || !known.has(m[1]!)) return `unknown argument ${arg}`;
    const value = m[2] ?? args[++i];
    if (value === undefined || value.startsWith("--")) return `--${m[1]} needs a value`;
    out[m[1]!] = value;
  }
  return out;
}

/** The descriptors: from an image, or `buf build` of the proto (buf from the project's node_modules, else PATH). */
function loadFiles(cwd: string, args: Record<string, string>): DescFile[] {
  let bytes: Uint8Array;
  if (args["image"] !== undefined) {
    bytes = readFileSync(resolve(cwd, args["image"]));
  } else {
    const proto = args["proto"] ?? "proto/a2a.proto";
    const localBuf = join(cwd, "node_modules", ".bin", "buf");
    const buf = existsSync(localBuf) ? localBuf : "buf";
    const dir = mkdtempSync(join(tmpdir(), "a2a-scaffold-"));
    try {
      const image = join(dir, "image.binpb");
      execFileSync(buf, ["build", "--path", proto, "-o", image], {
        cwd,
        stdio: ["ignore", "ignore", "pipe"],
      });
      bytes = readFileSync(image);
    } catch (e) {
      const stderr = (e as { stderr?: Buffer }).stderr?.toString().trim();
      throw new Error(
        `buf build --path ${proto} failed${stderr ? `: ${stderr}` : ""} (run it in the project folder, or give --image)`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const registry = createFileRegistry(fromBinary(FileDescriptorSetSchema, bytes));
  return [...registry.files];
}

/** A posix relative import path from `from` to `to` ("../gen", "./gen"). */
function importPath(from: string, to: string): string {
  const rel = relative(from, to).split(sep).join("/");
  return rel.startsWith(".") ? rel : `./${rel}`;
}

export async function runScaffold(
  args: readonly string[],
  cwd = process.cwd(),
): Promise<ScaffoldResult> {
  if (args.includes("--help") || args.includes("-h")) return { ok: true, lines: [SCAFFOLD_USAGE] };
  const parsed = parseArgs(args);
  if (typeof parsed === "string")
    return { ok: false, lines: [`protoc-gen-a2a scaffold-binding: ${parsed}`, "", SCAFFOLD_USAGE] };
  const name = parsed["name"];
  const uri = parsed["uri"];
  if (name === undefined || uri === undefined)
    return {
      ok: false,
      lines: ["protoc-gen-a2a scaffold-binding: --name and --uri are required", "", SCAFFOLD_USAGE],
    };
  const problem = checkChoice({ name, uri });
  if (problem !== undefined)
    return { ok: false, lines: [`protoc-gen-a2a scaffold-binding: ${problem}`] };
  const ext = { js: ".js", none: "", ts: ".ts" }[parsed["import-extension"] ?? "js"];
  if (ext === undefined)
    return {
      ok: false,
      lines: ["protoc-gen-a2a scaffold-binding: --import-extension must be js, none or ts"],
    };

  let options: ReturnType<typeof parseOptions>;
  let files: DescFile[];
  try {
    options = parseOptions(
      parsed["errors"] === undefined ? [] : [{ key: "errors", value: parsed["errors"] }],
    );
    files = loadFiles(cwd, parsed);
  } catch (e) {
    return {
      ok: false,
      lines: [`protoc-gen-a2a scaffold-binding: ${e instanceof Error ? e.message : String(e)}`],
    };
  }
  const candidates = files.flatMap((file) => file.services.map((service) => ({ file, service })));
  const wanted = parsed["service"];
  const matching = candidates.filter(
    ({ service }) => wanted === undefined || service.name === wanted || service.typeName === wanted,
  );
  const proto = parsed["proto"];
  const inProto =
    proto === undefined
      ? matching
      : matching.filter(({ file }) => proto.endsWith(file.proto.name) || matching.length === 1);
  if (inProto.length !== 1) {
    const names = candidates.map(({ service }) => service.typeName).join(", ") || "none";
    return {
      ok: false,
      lines: [
        `protoc-gen-a2a scaffold-binding: ${inProto.length === 0 ? "no" : "more than one"} service to scaffold (services: ${names}); name one with --service`,
      ],
    };
  }
  const { file, service } = inProto[0]!;
  let model: ReturnType<typeof buildFileModel>;
  try {
    model = buildFileModel(file, options);
  } catch (e) {
    return {
      ok: false,
      lines: [`protoc-gen-a2a scaffold-binding: ${e instanceof Error ? e.message : String(e)}`],
    };
  }
  const serviceModel = model.services.find((s) => s.typeName === service.typeName)!;
  const outDir = resolve(cwd, parsed["out"] ?? join("src", `${name}-binding`));
  const genDir = resolve(cwd, parsed["gen"] ?? join("src", "gen"));
  const view = scaffoldView(model, serviceModel, {
    name,
    uri,
    gen: importPath(outDir, genDir),
    ext,
  });

  const lines: string[] = [];
  const shown = (p: string) => relative(cwd, p) || ".";
  for (const { path, template } of scaffoldFiles(view)) {
    const target = join(outDir, path);
    const fresh = renderScaffold(template, view);
    if (!existsSync(target)) {
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, fresh);
      lines.push(`wrote   ${shown(target)}`);
      continue;
    }
    const current = readFileSync(target, "utf8");
    let update: { text: string; changes: readonly string[] } | undefined;
    try {
      if (template === "operations.ts.hbs") update = await updateOperationsFile(current, view);
      else if (template === "BINDING.md.hbs") update = updateBindingDoc(current, fresh);
    } catch (e) {
      return {
        ok: false,
        lines: [
          ...lines,
          `protoc-gen-a2a scaffold-binding: ${shown(target)}: ${e instanceof Error ? e.message : String(e)}`,
        ],
      };
    }
    if (update === undefined || update.changes.length === 0) {
      lines.push(
        `kept    ${shown(target)}${update === undefined ? " (yours; not touched on a rerun)" : " (up to date)"}`,
      );
      continue;
    }
    writeFileSync(target, update.text);
    lines.push(`updated ${shown(target)}: ${update.changes.join("; ")}`);
  }
  lines.push(
    "",
    "next: fill the places marked A2A-SCAFFOLD (framing, service parameters, errors, streaming, auth) and the TODOs of BINDING.md,",
    `then prove the binding with the binding-equivalence test kit (README: "Custom bindings").`,
  );
  return { ok: true, lines };
}
