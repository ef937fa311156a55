// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Generation-time parser and compiler for `google.api.http` path templates
 * (googleapis google/api/http.proto):
 *
 * ```
 * Template = "/" Segments [ Verb ] ;
 * Segments = Segment { "/" Segment } ;
 * Segment  = "*" | "**" | LITERAL | Variable ;
 * Variable = "{" FieldPath [ "=" Segments ] "}" ;
 * FieldPath = IDENT { "." IDENT } ;
 * Verb     = ":" LITERAL ;
 * ```
 *
 * - `{x}` is `{x=*}`; `*` is one segment, `**` zero or more; at most one `**`;
 *   variables do not nest; a field path appears at most once.
 * - `**` may be followed by further segments, as Google's own APIs write it
 *   (Firestore: `/v1/{parent=projects/*\/databases/*\/documents/*\/**}/{collection_id}`);
 *   http.proto's grammar only shows it last, but with one `**` per template the match
 *   stays unambiguous: the segments after it match the end of the path, `**` takes
 *   what lies between (see runtime/src/rest/route-matcher.ts).
 * - A literal that is a dot segment (`.`, `..`, also percent-encoded as `%2E`) is
 *   refused: URL normalization removes it, so no request could reach the route.
 * - IDENT is `[A-Za-z_][A-Za-z0-9_]*`; LITERAL is a non-empty run of RFC 3986 pchars
 *   (unreserved / pct-encoded / sub-delims / ":" / "@"). A segment that is exactly
 *   `*` or `**` is a wildcard, never a literal.
 * - Verb extraction follows grpc-gateway: after a closing `}` the verb starts at
 *   the first `:` (`/v1/{name}:bla:baa` → verb `bla:baa`); otherwise the last
 *   segment is split at its last `:` (`/a/b/c:d:e` → literal `c:d`, verb `e`).
 *   Colons in other segments are ordinary literal characters.
 * - The root template "/" (no segment) is accepted, as grpc-gateway and Envoy do.
 *
 * Every problem is reported as an {@link HttpTemplateError} naming the template,
 * the problem and its offset.
 */
import type {
  CompiledPattern,
  PatternSegment,
  PatternVariable,
} from "../../../runtime/src/rest/route-matcher.js";

export type { CompiledPattern, PatternSegment, PatternVariable };

/** An invalid path template: `invalid path template "<template>": <problem> at offset <n>`. */
export class HttpTemplateError extends Error {
  override readonly name = "HttpTemplateError";
  /** The template as written. */
  readonly template: string;
  /** What is wrong, without the template and offset. */
  readonly problem: string;
  /** UTF-16 offset in the template where the problem is. */
  readonly offset: number;

  constructor(template: string, problem: string, offset: number) {
    super(`invalid path template ${JSON.stringify(template)}: ${problem} at offset ${offset}`);
    this.template = template;
    this.problem = problem;
    this.offset = offset;
  }
}

/** A literal, `*` or `**` segment of a template (top level or inside a variable). */
export type TemplatePlainSegment =
  | { readonly kind: "literal"; readonly value: string; readonly offset: number }
  | { readonly kind: "wildcard"; readonly offset: number }
  | { readonly kind: "deep-wildcard"; readonly offset: number };

/** A `{field.path=segments}` variable. */
export interface TemplateVariable {
  readonly kind: "variable";
  /** Field path components, e.g. ["parent", "name"]. */
  readonly fieldPath: readonly string[];
  /** The captured segments; a single `*` for the short form `{x}`. */
  readonly segments: readonly TemplatePlainSegment[];
  /** Whether the segments were written (`{x=...}`) rather than implied (`{x}`). */
  readonly explicitSegments: boolean;
  /** Offset of the `{`. */
  readonly offset: number;
}

/** A top-level template segment. */
export type TemplateSegment = TemplatePlainSegment | TemplateVariable;

/** Parsed (not yet flattened) template. */
export interface TemplateAst {
  readonly template: string;
  readonly segments: readonly TemplateSegment[];
  /** Custom verb without the colon, or undefined. */
  readonly verb: string | undefined;
}

/** Parses and compiles a template; throws {@link HttpTemplateError} when it is invalid. */
export function parseHttpTemplate(template: string): CompiledPattern {
  return compileHttpTemplate(parseHttpTemplateAst(template));
}

/** Parses and validates a template into its AST; throws {@link HttpTemplateError} when it is invalid. */
export function parseHttpTemplateAst(template: string): TemplateAst {
  const ast = new Parser(template).parse();
  validate(ast);
  return ast;
}

/** Flattens a validated AST into the runtime form: segments, verb, variable ranges. */
export function compileHttpTemplate(ast: TemplateAst): CompiledPattern {
  const segments: PatternSegment[] = [];
  const variables: PatternVariable[] = [];
  const lastSegment = ast.segments[ast.segments.length - 1];
  for (const s of ast.segments) {
    if (s.kind !== "variable") {
      segments.push(plain(s));
      continue;
    }
    const start = segments.length;
    for (const inner of s.segments) segments.push(plain(inner));
    // A variable ending in a final "**" captures to the end of the path (-1); elsewhere its end is a pattern index.
    const toEnd = s === lastSegment && s.segments[s.segments.length - 1]?.kind === "deep-wildcard";
    variables.push({ field: s.fieldPath.join("."), start, end: toEnd ? -1 : segments.length });
  }
  return { segments, verb: ast.verb, variables };
}

function plain(s: TemplatePlainSegment): PatternSegment {
  switch (s.kind) {
    case "literal":
      return s.value;
    case "wildcard":
      return "*";
    case "deep-wildcard":
      return "**";
  }
}

/** `**` placement and variable uniqueness, checked after parsing. */
function validate(ast: TemplateAst): void {
  const fail = (problem: string, offset: number): never => {
    throw new HttpTemplateError(ast.template, problem, offset);
  };
  const flat: TemplatePlainSegment[] = ast.segments.flatMap((s) =>
    s.kind === "variable" ? s.segments : [s],
  );
  const deep = flat.filter((s) => s.kind === "deep-wildcard");
  if (deep.length > 1) fail('more than one "**" (at most one is allowed)', deep[1]!.offset);
  for (const s of flat) {
    if (s.kind === "literal" && isDotSegment(s.value)) {
      fail(
        `dot segment ${JSON.stringify(s.value)} (URL normalization removes it, so no request could reach this path)`,
        s.offset,
      );
    }
  }
  const seen: { path: string; offset: number }[] = [];
  for (const s of ast.segments) {
    if (s.kind !== "variable") continue;
    const path = s.fieldPath.join(".");
    for (const other of seen) {
      if (other.path === path) fail(`duplicate variable "${path}"`, s.offset);
      if (path.startsWith(other.path + ".") || other.path.startsWith(path + ".")) {
        fail(`variable "${path}" overlaps variable "${other.path}"`, s.offset);
      }
    }
    seen.push({ path, offset: s.offset });
  }
}

/** `.` and `..`, also percent-encoded (`%2E`, `.%2e`): the segments URL parsing removes (RFC 3986 §5.2.4, WHATWG URL). */
function isDotSegment(literal: string): boolean {
  const plainDots = literal.replace(/%2e/gi, ".");
  return plainDots === "." || plainDots === "..";
}

const HEX = /^[0-9A-Fa-f]$/;
/** RFC 3986 pchar minus pct-encoded (handled separately). */
const PCHAR = /^[A-Za-z0-9\-._~!$&'()*+,;=:@]$/;
const IDENT_START = /^[A-Za-z_]$/;
const IDENT_PART = /^[A-Za-z0-9_]$/;

function quote(c: string): string {
  return JSON.stringify(c);
}

class Parser {
  private pos = 0;

  constructor(private readonly t: string) {}

  private fail(problem: string, offset: number = this.pos): never {
    throw new HttpTemplateError(this.t, problem, offset);
  }

  parse(): TemplateAst {
    const t = this.t;
    if (t.length === 0) this.fail("template is empty", 0);
    if (t[0] !== "/") this.fail('template must start with "/"', 0);
    const segments: TemplateSegment[] = [];
    if (t === "/") return { template: t, segments, verb: undefined };
    let verb: string | undefined;
    this.pos = 1;
    for (;;) {
      const c = t[this.pos];
      if (c === undefined || c === "/") this.fail("empty segment");
      if (c === "{") {
        segments.push(this.variable());
        const next = t[this.pos];
        if (next === undefined) break;
        if (next === "/") {
          this.pos++;
          continue;
        }
        if (next === ":") {
          // A variable is the last segment: the verb starts at the first colon.
          verb = this.verb(this.pos, t.length);
          break;
        }
        if (next === "}") this.fail('unmatched "}"');
        this.fail(`unexpected ${quote(next)} after variable (expected "/", ":" or the end)`);
      }
      const start = this.pos;
      let end = t.indexOf("/", start);
      if (end < 0) end = t.length;
      let segEnd = end;
      if (end === t.length) {
        // Last segment: split at its last colon.
        const colon = t.lastIndexOf(":", end - 1);
        if (colon >= start) {
          if (colon === start) this.fail("empty segment before the verb", start);
          segEnd = colon;
        }
      }
      segments.push(this.plain(start, segEnd, "top"));
      if (segEnd < end) {
        verb = this.verb(segEnd, end);
        break;
      }
      if (end === t.length) break;
      this.pos = end + 1;
    }
    return { template: t, segments, verb };
  }

  /** Verb from the colon at `colon` to `end` (exclusive). */
  private verb(colon: number, end: number): string {
    if (colon + 1 >= end) this.fail("empty verb after the colon", colon);
    this.checkPchars(colon + 1, end, "verb");
    return this.t.slice(colon + 1, end);
  }

  /** A literal, `*` or `**` spanning [start, end). */
  private plain(start: number, end: number, where: "top" | "variable"): TemplatePlainSegment {
    const raw = this.t.slice(start, end);
    if (raw === "*") return { kind: "wildcard", offset: start };
    if (raw === "**") return { kind: "deep-wildcard", offset: start };
    this.checkPchars(start, end, where === "top" ? "literal" : "literal inside variable");
    return { kind: "literal", value: raw, offset: start };
  }

  private checkPchars(start: number, end: number, what: string): void {
    const t = this.t;
    for (let i = start; i < end; i++) {
      const c = t[i]!;
      if (c === "%") {
        if (i + 2 < end && HEX.test(t[i + 1]!) && HEX.test(t[i + 2]!)) {
          i += 2;
          continue;
        }
        this.fail(`invalid percent-encoding in ${what} (expected "%" and two hex digits)`, i);
      }
      if (PCHAR.test(c)) continue;
      if (c === "{") this.fail(`unexpected "{" in ${what} (a variable must be a whole segment)`, i);
      if (c === "}") this.fail(`unexpected "}" in ${what} (unmatched "}")`, i);
      this.fail(`invalid character ${quote(c)} in ${what}`, i);
    }
  }

  /** `{` FieldPath [ `=` Segments ] `}`, starting at `{`; leaves pos after `}`. */
  private variable(): TemplateVariable {
    const t = this.t;
    const open = this.pos;
    this.pos++;
    const fieldPath: string[] = [];
    for (;;) {
      const start = this.pos;
      const c = t[start];
      if (c === undefined) this.fail("unterminated variable", open);
      if (c === "{") this.fail("variable inside variable (variables cannot nest)");
      if (!IDENT_START.test(c)) {
        if (c === "}" || c === "=" || c === ".") this.fail("expected a field name");
        this.fail(`invalid field name: unexpected ${quote(c)}`);
      }
      this.pos++;
      while (this.pos < t.length && IDENT_PART.test(t[this.pos]!)) this.pos++;
      fieldPath.push(t.slice(start, this.pos));
      const next = t[this.pos];
      if (next === undefined) this.fail("unterminated variable", open);
      if (next === ".") {
        this.pos++;
        continue;
      }
      if (next === "}" || next === "=") break;
      if (next === "{") this.fail("variable inside variable (variables cannot nest)");
      this.fail(`invalid field name: unexpected ${quote(next)}`);
    }
    if (t[this.pos] === "}") {
      this.pos++;
      return {
        kind: "variable",
        fieldPath,
        segments: [{ kind: "wildcard", offset: open }],
        explicitSegments: false,
        offset: open,
      };
    }
    this.pos++; // "="
    const segments: TemplatePlainSegment[] = [];
    for (;;) {
      const start = this.pos;
      let end = start;
      while (end < t.length && t[end] !== "/" && t[end] !== "}" && t[end] !== "{") end++;
      const stop = t[end];
      if (stop === "{") this.fail("variable inside variable (variables cannot nest)", end);
      if (stop === undefined) this.fail("unterminated variable", open);
      if (end === start) this.fail("empty segment", start);
      segments.push(this.plain(start, end, "variable"));
      this.pos = end + 1;
      if (stop === "}") break;
    }
    return { kind: "variable", fieldPath, segments, explicitSegments: true, offset: open };
  }
}
