/**
 * ACTS dot-paths (§5.2): `task.id`, `task.artifacts[0].parts[0].text`, `tasks[*]`,
 * `error.data[*]`. A `[*]` segment fans out over an array, so a path resolves to a list
 * of values; without wildcards the list has at most one value.
 */
import type { JsonValue } from "./client.js";

export type PathSegment =
  | { readonly key: string }
  | { readonly index: number }
  | { readonly wildcard: true };

/** Parses a dot-path; throws on malformed input (the runner reports it as a runner error). */
export function parsePath(path: string): PathSegment[] {
  const segments: PathSegment[] = [];
  const re = /([^.[\]]+)|\[(\*|\d+)\]|(\.)/gy;
  let expectKey = true;
  let last = 0;
  for (let m = re.exec(path); m !== null; m = re.exec(path)) {
    last = re.lastIndex;
    if (m[1] !== undefined) {
      if (!expectKey) throw new Error(`malformed path "${path}"`); // a key right after "]" (a[0]b)
      segments.push({ key: m[1] });
      expectKey = false;
    } else if (m[2] !== undefined) {
      if (expectKey && segments.length > 0) throw new Error(`malformed path "${path}"`); // "[n]" right after "." (a.[0])
      segments.push(m[2] === "*" ? { wildcard: true } : { index: Number(m[2]) });
      expectKey = false;
    } else if (expectKey) {
      throw new Error(`malformed path "${path}"`);
    } else {
      expectKey = true;
    }
  }
  if (last !== path.length || path === "" || expectKey) throw new Error(`malformed path "${path}"`);
  return segments;
}

/** Every value the path reaches (missing fields and out-of-range indexes reach nothing). */
export function resolvePath(root: JsonValue | undefined, path: string): JsonValue[] {
  let current: (JsonValue | undefined)[] = [root];
  for (const segment of parsePath(path)) {
    const next: JsonValue[] = [];
    for (const value of current) {
      if ("key" in segment) {
        if (
          value !== null &&
          typeof value === "object" &&
          !Array.isArray(value) &&
          Object.hasOwn(value, segment.key)
        )
          next.push(value[segment.key]!);
      } else if ("index" in segment) {
        if (Array.isArray(value) && segment.index < value.length) next.push(value[segment.index]!);
      } else if (Array.isArray(value)) {
        next.push(...value);
      }
    }
    current = next;
  }
  return current as JsonValue[];
}

/** The single value at a wildcard-free path, or undefined. */
export function valueAt(root: JsonValue | undefined, path: string): JsonValue | undefined {
  return resolvePath(root, path)[0];
}
