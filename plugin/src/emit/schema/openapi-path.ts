// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The OpenAPI path of a compiled `google.api.http` template. A variable that is one `*` segment
 * is one path parameter (`/tasks/{id}`). A variable with a pattern of its own
 * (`{name=tasks/*\/pushNotificationConfigs/*}`) cannot be one OpenAPI parameter: its value holds
 * `/`, which OpenAPI clients percent-encode, and two such templates would both read `/v1/{name}`
 * (one operation lost). Its literals are written into the path and each wildcard becomes a
 * parameter named after the literal before it, singular (`/v1/tasks/{task}/pushNotificationConfigs/{pushNotificationConfig}`),
 * as Google's own OpenAPI generator (gnostic) writes them.
 */
import type { CompiledPattern, PatternVariable } from "../../model/http-template.js";

/** One path parameter of an OpenAPI path. */
export interface OpenApiPathParameter {
  /** The parameter name in the path. */
  readonly name: string;
  /** The variable it is (all of it: "whole") or a wildcard segment of. */
  readonly variable: PatternVariable;
  readonly kind: "whole" | "segment" | "segments";
  /** The variable's value in the path's own terms, e.g. `tasks/{task}`, for the description. */
  readonly valueForm: string;
}

/** An OpenAPI path and its path parameters, in order. */
export interface OpenApiPath {
  readonly path: string;
  readonly parameters: readonly OpenApiPathParameter[];
}

/** The variable capturing pattern segment `i`, if any. */
function variableAt(pattern: CompiledPattern, i: number): PatternVariable | undefined {
  return pattern.variables.find(
    (v) => i >= v.start && (v.end < 0 ? i < pattern.segments.length : i < v.end),
  );
}

/** `tasks` → `task`, `policies` → `policy`, `indexes` → `index`; a word not ending in `s` as it is. */
function singular(literal: string): string {
  const word = literal.replace(/[^A-Za-z0-9_]/g, "_");
  if (word.length <= 3 || !word.endsWith("s") || word.endsWith("ss")) return word;
  if (word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (/(?:ss|x|ch|sh|us)es$/.test(word)) return word.slice(0, -2);
  return word.slice(0, -1);
}

/** The OpenAPI path of `pattern` (see the file comment). */
export function openApiPathOf(pattern: CompiledPattern): OpenApiPath {
  const parts: string[] = [];
  const parameters: OpenApiPathParameter[] = [];
  // Whole-variable names first: a derived name never takes one of them.
  const used = new Set(
    pattern.variables.filter((v) => isWholeWildcard(pattern, v)).map((v) => v.field),
  );
  const unique = (base: string): string => {
    let name = base;
    for (let n = 2; used.has(name); n++) name = `${base}_${n}`;
    used.add(name);
    return name;
  };
  let i = 0;
  while (i < pattern.segments.length) {
    const variable = variableAt(pattern, i);
    if (variable === undefined) {
      const segment = pattern.segments[i]!;
      parts.push(segment === "*" || segment === "**" ? `{${unique(`segment${i}`)}}` : segment);
      i++;
      continue;
    }
    const end = variable.end < 0 ? pattern.segments.length : variable.end;
    if (isWholeWildcard(pattern, variable)) {
      parts.push(`{${variable.field}}`);
      parameters.push({
        name: variable.field,
        variable,
        kind: "whole",
        valueForm: `{${variable.field}}`,
      });
      i = end;
      continue;
    }
    const own: { name: string; kind: "segment" | "segments" }[] = [];
    const rendered: string[] = [];
    for (let k = variable.start; k < end; k++) {
      const segment = pattern.segments[k]!;
      if (segment !== "*" && segment !== "**") {
        rendered.push(segment);
        continue;
      }
      const before = k > variable.start ? pattern.segments[k - 1] : undefined;
      const base =
        before !== undefined && before !== "*" && before !== "**"
          ? singular(before)
          : variable.field.replace(/\./g, "_");
      const name = unique(segment === "**" ? `${base}Path` : base);
      own.push({ name, kind: segment === "**" ? "segments" : "segment" });
      rendered.push(`{${name}}`);
    }
    parts.push(...rendered);
    const valueForm = rendered.join("/");
    for (const p of own) parameters.push({ ...p, variable, valueForm });
    i = end;
  }
  const verb = pattern.verb === undefined ? "" : `:${pattern.verb}`;
  return { path: `/${parts.join("/")}${verb}`, parameters };
}

/** A variable that is exactly one `*` segment (`{id}`, `{id=*}`). */
function isWholeWildcard(pattern: CompiledPattern, variable: PatternVariable): boolean {
  return variable.end === variable.start + 1 && pattern.segments[variable.start] === "*";
}
