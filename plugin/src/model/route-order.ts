// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Generation-time precedence order of compiled routes. The runtime matcher
 * (runtime/src/rest/route-matcher.ts) walks the table in this order and the
 * first route that matches wins, so this order *is* the routing precedence:
 *
 * 1. A pattern with a custom verb comes before one without
 *    (`/tasks/{id}:subscribe` before `/tasks/{id}`).
 * 2. Then segment by segment, left to right: literal before `*` before `**`
 *    (more specific first; the leftmost difference decides, so `/tasks/{id}`
 *    comes before `/{tenant}/tasks`).
 * 3. Then, when one pattern is a prefix of the other, the longer one first —
 *    except that `P` comes before `P/**`: the two both match the path `P`
 *    (`**` may capture nothing) and the exact pattern is the more specific one.
 *    (For any other pair of lengths no path matches both, so the order there
 *    only makes the table deterministic.) Equivalently: compare segment by
 *    segment as in rule 2, where the end of a pattern ranks after literal and
 *    `*` but before `**`.
 * 4. Then the original (proto declaration) order: the sort is stable.
 *
 * The method plays no part: the matcher skips routes of other methods itself.
 */
import type { CompiledPattern, PatternSegment } from "../../../runtime/src/rest/route-matcher.js";

/** Literal 0, "*" 1, end of pattern 1.5 (see rule 3), "**" 2. */
function rank(s: PatternSegment | undefined): number {
  return s === undefined ? 1.5 : s === "*" ? 1 : s === "**" ? 2 : 0;
}

/** Orders two patterns by precedence: negative when `a` must be tried before `b`, 0 when they tie. */
export function comparePatterns(a: CompiledPattern, b: CompiledPattern): number {
  const av = a.verb !== undefined;
  const bv = b.verb !== undefined;
  if (av !== bv) return av ? -1 : 1;
  const n = Math.max(a.segments.length, b.segments.length);
  for (let i = 0; i < n; i++) {
    const d = rank(a.segments[i]) - rank(b.segments[i]);
    if (d !== 0) return d;
  }
  return 0;
}

/** Returns a new array of the routes in precedence order (see the module doc); stable. */
export function sortRoutes<T extends { readonly pattern: CompiledPattern }>(
  routes: readonly T[],
): T[] {
  return routes
    .map((route, index) => ({ route, index }))
    .sort((x, y) => comparePatterns(x.route.pattern, y.route.pattern) || x.index - y.index)
    .map((x) => x.route);
}
