/**
 * The runtime's tree shows a request's path (issue #31): runtime/src's top level holds only the root entry point,
 * every other file sits in the folder of its step or entry point, no file name repeats its folder's name, and
 * the folders README.md's "How it works" diagram names exist.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../support/plugin-runner.js";

const SRC = join(repoRoot, "runtime/src");

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path.slice(SRC.length + 1)];
  });
}

describe("runtime/src", () => {
  it("holds only the root entry point at its top; everything else is in a folder", () => {
    const top = readdirSync(SRC).filter((name) => !statSync(join(SRC, name)).isDirectory());
    expect(top).toEqual(["index.ts"]);
  });

  it("has no file whose name repeats its folder's name (task/task-store.ts reads task/store.ts)", () => {
    const repeated = filesUnder(SRC).filter((file) => {
      const parts = file.split("/");
      const folder = parts.at(-2);
      const name = parts.at(-1)!;
      return (
        folder !== undefined &&
        folder !== "gen" &&
        (name.startsWith(`${folder}-`) || name.startsWith(`${folder.replace(/_/g, "")}-`))
      );
    });
    expect(repeated).toEqual([]);
  });

  it("has every folder the README's request-path diagram names", () => {
    const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
    const section = readme.slice(
      readme.indexOf("## How it works"),
      readme.indexOf("## Developing protoc-gen-a2a"),
    );
    const diagram = section.slice(section.indexOf("a request, in @protoc-gen-a2a/runtime"));
    const folders = [
      ...new Set(
        [...diagram.matchAll(/(?<![\w./-])([a-z][a-z0-9_-]*)\/(?=[\s,)·]|$)/gm)].map((m) => m[1]!),
      ),
    ];
    expect(folders.length).toBeGreaterThan(10);
    const missing = folders.filter((folder) => {
      try {
        return !statSync(join(SRC, folder)).isDirectory();
      } catch {
        return true;
      }
    });
    expect(missing).toEqual([]);
  });
});
