// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Version negotiation and extension lists (spec §3.2.6, §3.6), shared by every binding.
 */

/** The version a request without `A2A-Version` (or with an empty one) speaks (spec §3.6.1, §3.6.2). */
export const IMPLICIT_VERSION = "0.3";

/**
 * Normalises a version to `Major.Minor`: patch numbers are ignored ("1.0.3" → "1.0"),
 * empty or missing means "0.3". Returns undefined for anything that is not a version.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function normalizeVersion(value: string | undefined): string | undefined {
  const v = value?.trim() ?? "";
  if (v === "") return IMPLICIT_VERSION;
  const m = /^(0|[1-9]\d{0,5})\.(0|[1-9]\d{0,5})(?:\.(?:0|[1-9]\d{0,5}))?$/.exec(v);
  return m ? `${m[1]}.${m[2]}` : undefined;
}

/** The outcome of version negotiation. */
export type VersionNegotiation =
  | { readonly ok: true; readonly version: string }
  | { readonly ok: false; readonly requested: string; readonly supported: readonly string[] };

/**
 * Compares the requested version with the versions the interface serves, on
 * Major.Minor only. `supported` holds `Major.Minor` strings.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function negotiateVersion(
  requested: string | undefined,
  supported: readonly string[],
): VersionNegotiation {
  const version = normalizeVersion(requested);
  if (version !== undefined && supported.includes(version)) return { ok: true, version };
  return { ok: false, requested: requested?.trim() ?? "", supported };
}

/**
 * Parses `A2A-Extensions`: comma-separated URIs, trimmed, empty items dropped,
 * duplicates removed, order kept. URIs are case-sensitive. Accepts the repeated
 * form too (several headers or metadata entries).
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function parseExtensions(value: string | readonly string[] | undefined): string[] {
  if (value === undefined) return [];
  const items = typeof value === "string" ? value.split(",") : value.flatMap((v) => v.split(","));
  const seen = new Set<string>();
  for (const item of items) {
    const uri = item.trim();
    if (uri !== "") seen.add(uri);
  }
  return [...seen];
}

/**
 * Formats a set of extension URIs for the `A2A-Extensions` response header.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function formatExtensions(uris: Iterable<string>): string {
  return [...uris].join(", ");
}
