// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Request-time matcher for the HTTP+JSON route table that protoc-gen-a2a
 * precompiles from `google.api.http` annotations.
 *
 * Everything expensive happens at generation time: templates are parsed,
 * compiled to {@link CompiledPattern}s and sorted into precedence order
 * (custom verb first, then literal before `*` before `**`, segment by segment).
 * At request time this module only splits the path once and compares strings.
 *
 * Matching rules, in short:
 * - the path is the raw request path; anything from `?` or `#` is ignored;
 *   it must start with `/`, and an empty segment (`//`, trailing `/`) matches nothing;
 * - literals compare against the raw (still percent-encoded) segment;
 * - a pattern with verb `V` needs the raw last segment to end in `:V` after a
 *   non-empty prefix; a pattern without a verb keeps colons as part of the segment;
 * - if a custom-verb route (of any method) matches the path, the request is a call of
 *   that custom method: routes without a verb are then no longer candidates, so
 *   `GET /tasks/x:cancel` is 405 (POST only), not GetTask with id `x:cancel`;
 *   a literal colon in an id must then be sent as `%3A`;
 * - routes are tried in table order and the first one with the request method wins;
 *   if only routes of other methods match, the result is 405 with their methods;
 * - `**` takes zero or more segments; segments after it (Firestore's
 *   `{parent=projects/*\/databases/*\/documents/*\/**}/{collection_id}`) match the end
 *   of the path: with at most one `**` per pattern there is exactly one way to split;
 * - captured segments are percent-decoded; malformed escapes and an encoded `/`
 *   inside a variable are a 400 (`bad-path`).
 *
 * Part of the runtime library, exported by `@protoc-gen-a2a/runtime/rest`: the generated route table
 * (`<file>_a2a_rest_routes.ts`) and the HTTP+JSON server and client use it. A leaf module that imports
 * nothing, so the plugin can share its pattern types when it compiles the templates
 * (plugin/src/model/http-template.ts, route-order.ts).
 */

/**
 * One path segment of a compiled pattern: a literal (exact raw match), "*" (one
 * non-empty segment) or "**" (zero or more segments; at most one per pattern, anywhere).
 * A literal can never be exactly "*" or "**", so the encoding is unambiguous.
 */
export type PatternSegment = string;

/** A path variable: the request field it fills and the segment range it captures. */
export interface PatternVariable {
  /** Proto field path, dot-separated as in the template, e.g. "task_id" or "parent.name". */
  readonly field: string;
  /** First captured segment index (inclusive). */
  readonly start: number;
  /**
   * End of the captured pattern segments, exclusive; -1 when the variable ends with the pattern's
   * final "**" (captures to the end). Indices count pattern segments: after a "**" the path index
   * is shifted by how many segments it took.
   */
  readonly end: number;
}

/** A `google.api.http` path template compiled at generation time. */
export interface CompiledPattern {
  /** Path segments after the leading "/"; empty for the root template "/". */
  readonly segments: readonly PatternSegment[];
  /** Custom verb without the colon, or undefined. */
  readonly verb: string | undefined;
  /** Path variables in template order. */
  readonly variables: readonly PatternVariable[];
}

/** One HTTP binding of an operation. */
export interface Route<Op extends string = string> {
  /** HTTP method, upper case: GET, POST, PUT, PATCH, DELETE or a custom kind. */
  readonly method: string;
  /** The template as written in the proto, for messages and docs. */
  readonly template: string;
  /** The precompiled template. */
  readonly pattern: CompiledPattern;
  /** Operation (RPC) name, e.g. "GetTask". */
  readonly operation: Op;
  /** google.api.http body: "" (no body), "*" or a field name. */
  readonly body: string;
}

/** A route table, routes already in precedence (match) order. */
export interface RouteTable<Op extends string = string> {
  /** Routes in match order: the first route that matches the method and path wins. */
  readonly routes: readonly Route<Op>[];
}

/** Outcome of {@link matchRoute}. */
export type RouteMatch<Op extends string = string> =
  /** A route matched; params are keyed by {@link PatternVariable.field}, percent-decoded. */
  | {
      readonly kind: "match";
      readonly route: Route<Op>;
      readonly params: Readonly<Record<string, string>>;
    }
  /** 404: no route matches the path under any method. */
  | { readonly kind: "not-found" }
  /** 405: the path matches only routes of other methods; `allow` lists them, sorted, unique. */
  | { readonly kind: "method-not-allowed"; readonly allow: readonly string[] }
  /** 400: the path is malformed (no leading "/", bad percent-encoding, "%2F" inside a multi-segment variable). */
  | { readonly kind: "bad-path"; readonly reason: string };

const notFound = { kind: "not-found" } as const;

/**
 * Finds the route for a request.
 *
 * @param table - Routes in precedence order (as generated).
 * @param method - Upper-case HTTP method, compared exactly.
 * @param path - Raw request path, still percent-encoded; a query string or fragment is ignored.
 * @returns The matched route and its decoded path params, or why nothing matched.
 */
export function matchRoute<Op extends string>(
  table: RouteTable<Op>,
  method: string,
  path: string,
): RouteMatch<Op> {
  let stop = path.indexOf("?");
  const hash = path.indexOf("#");
  if (stop < 0 || (hash >= 0 && hash < stop)) stop = hash;
  if (stop < 0) stop = path.length;
  if (stop === 0 || path.charCodeAt(0) !== 47 /* "/" */) {
    return { kind: "bad-path", reason: 'path must start with "/"' };
  }
  const segs = stop === 1 ? [] : path.slice(1, stop).split("/");
  for (let i = 0; i < segs.length; i++) if (segs[i] === "") return notFound;

  let verbClaimed = false;
  let allow: string[] | undefined;
  for (const route of table.routes) {
    const pattern = route.pattern;
    if (verbClaimed && pattern.verb === undefined) continue;
    const last = fit(pattern, segs);
    if (last === null) continue;
    if (pattern.verb !== undefined) verbClaimed = true;
    if (route.method === method) return capture(route, segs, last);
    (allow ??= []).push(route.method);
  }
  if (allow === undefined) return notFound;
  return { kind: "method-not-allowed", allow: [...new Set(allow)].sort() };
}

/** Structural match; returns the last segment with the verb stripped, or null when the pattern does not fit. */
function fit(pattern: CompiledPattern, segs: readonly string[]): string | null {
  const n = segs.length;
  let last = n > 0 ? segs[n - 1]! : "";
  const verb = pattern.verb;
  if (verb !== undefined) {
    const cut = last.length - verb.length - 1;
    if (cut <= 0 || last.charCodeAt(cut) !== 58 /* ":" */ || !last.endsWith(verb)) return null;
    last = last.slice(0, cut);
  }
  const ps = pattern.segments;
  const m = ps.length;
  const deep = ps.indexOf("**");
  if (deep < 0 ? n !== m : n < m - 1) return null;
  // Segments after "**" match the end of the path: pattern index i is path index i + shift.
  const shift = n - m;
  for (let i = 0; i < m; i++) {
    if (i === deep) continue;
    const p = ps[i]!;
    const at = deep >= 0 && i > deep ? i + shift : i;
    if (p !== "*" && p !== (at === n - 1 ? last : segs[at])) return null;
  }
  return last;
}

/** Builds the match result, percent-decoding every captured segment. */
function capture<Op extends string>(
  route: Route<Op>,
  segs: readonly string[],
  last: string,
): RouteMatch<Op> {
  const params: Record<string, string> = Object.create(null) as Record<string, string>;
  const n = segs.length;
  const ps = route.pattern.segments;
  const deep = ps.indexOf("**");
  const shift = n - ps.length;
  for (const v of route.pattern.variables) {
    const patternEnd = v.end < 0 ? ps.length : v.end;
    // Pattern indices after "**" are path indices shifted by what "**" took.
    const start = deep >= 0 && v.start > deep ? v.start + shift : v.start;
    const end = deep >= 0 && patternEnd > deep ? patternEnd + shift : patternEnd;
    // A one-segment variable holds an opaque value: "%2F" decodes to "/" (a tenant "org/team").
    // In a multi-segment value "/" separates segments, so an encoded one would be ambiguous.
    const multi = patternEnd - v.start > 1 || (deep >= v.start && deep < patternEnd);
    let value = "";
    for (let i = start; i < end; i++) {
      let seg = i === n - 1 ? last : segs[i]!;
      if (seg.indexOf("%") >= 0) {
        try {
          seg = decodeURIComponent(seg);
        } catch {
          return {
            kind: "bad-path",
            reason: `malformed percent-encoding in path variable "${v.field}"`,
          };
        }
        if (multi && seg.indexOf("/") >= 0) {
          return {
            kind: "bad-path",
            reason: `multi-segment path variable "${v.field}" must not contain an encoded "/"`,
          };
        }
      }
      value = i === start ? seg : value + "/" + seg;
    }
    params[v.field] = value;
  }
  return { kind: "match", route, params };
}
