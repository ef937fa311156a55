/**
 * Type-checks files the way a strict user project does (NodeNext, strict, noUncheckedIndexedAccess,
 * verbatimModuleSyntax), with the workspace's runtime from its sources; the diagnostics as
 * "file:line: message", relative to the repository.
 */
import { relative } from "node:path";
import { Project, ts } from "ts-morph";
import { repoRoot } from "./plugin-runner.js";

export function typeCheck(files: string[], extra: ts.CompilerOptions = {}): string[] {
  const project = new Project({
    compilerOptions: {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ["lib.es2023.d.ts"],
      types: ["node"],
      strict: true,
      noUncheckedIndexedAccess: true,
      noImplicitOverride: true,
      verbatimModuleSyntax: true,
      skipLibCheck: true,
      noEmit: true,
      // The workspace's runtime package, from its sources.
      customConditions: ["@protoc-gen-a2a/source"],
      ...extra,
    },
  });
  project.addSourceFilesAtPaths(files);
  return project.getPreEmitDiagnostics().map((d) => {
    const file = d.getSourceFile()?.getFilePath() ?? "?";
    return `${relative(repoRoot, file)}:${d.getLineNumber() ?? 0}: ${ts.flattenDiagnosticMessageText(d.getMessageText() as string | ts.DiagnosticMessageChain, "\n")}`;
  });
}
