// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Media types (RFC 9110 §8.3.1): parsing of `Content-Type` and the JSON check the
 * bindings apply to request bodies.
 *
 * Part of the runtime library, exported by `@protoc-gen-a2a/runtime/http`; the JSON-RPC and HTTP+JSON
 * servers and the push receiver check request bodies with it. A leaf module: it imports nothing.
 */

/** A parsed media type: `type/subtype` lower-cased, parameter names lower-cased, values as sent (quotes removed). */
export interface MediaType {
  /** `type/subtype`, lower-case, e.g. "application/json". */
  readonly type: string;
  /** Parameters by lower-case name (null-prototype object); values unquoted, case kept. */
  readonly params: Record<string, string>;
}

// RFC 9110 tchar: "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA
const TCHAR = /* @__PURE__ */ (() => {
  const table = new Uint8Array(128);
  for (const c of "!#$%&'*+-.^_`|~") table[c.charCodeAt(0)] = 1;
  for (let c = 48; c <= 57; c++) table[c] = 1;
  for (let c = 65; c <= 90; c++) table[c] = 1;
  for (let c = 97; c <= 122; c++) table[c] = 1;
  return table;
})();

function isTchar(c: number): boolean {
  return c < 128 && TCHAR[c] === 1;
}

function isOws(c: number): boolean {
  return c === 32 || c === 9;
}

/** Index of the first non-token char at or after `i`. */
function tokenEnd(s: string, i: number): number {
  while (i < s.length && isTchar(s.charCodeAt(i))) i++;
  return i;
}

function skipOws(s: string, i: number): number {
  while (i < s.length && isOws(s.charCodeAt(i))) i++;
  return i;
}

/**
 * Parses a media type such as `Application/JSON; charset="UTF-8"` (RFC 9110 §8.3.1):
 * `type "/" subtype *( OWS ";" OWS [ name "=" ( token / quoted-string ) ] )`.
 *
 * Type, subtype and parameter names are case-insensitive and returned lower-case;
 * parameter values keep their case (quoted-string escapes resolved). Empty
 * parameters (`;;`) are allowed as the grammar allows them. Returns undefined for
 * a missing or malformed header, and for a parameter given twice (ambiguous,
 * e.g. two charsets).
 */
export function parseMediaType(header: string | undefined): MediaType | undefined {
  if (header === undefined) return undefined;
  const s = header;
  let i = skipOws(s, 0);
  const typeStart = i;
  i = tokenEnd(s, i);
  if (i === typeStart || s.charCodeAt(i) !== 47 /* / */) return undefined;
  const subStart = ++i;
  i = tokenEnd(s, i);
  if (i === subStart) return undefined;
  const type = s.slice(typeStart, i).toLowerCase();
  const params: Record<string, string> = Object.create(null) as Record<string, string>;
  for (;;) {
    i = skipOws(s, i);
    if (i >= s.length) return { type, params };
    if (s.charCodeAt(i) !== 59 /* ; */) return undefined;
    i = skipOws(s, i + 1);
    if (i >= s.length) return { type, params };
    if (s.charCodeAt(i) === 59) continue; // empty parameter
    const nameStart = i;
    i = tokenEnd(s, i);
    if (i === nameStart || s.charCodeAt(i) !== 61 /* = */) return undefined;
    const name = s.slice(nameStart, i).toLowerCase();
    i++;
    let value: string;
    if (s.charCodeAt(i) === 34 /* " */) {
      value = "";
      let run = ++i;
      for (;;) {
        if (i >= s.length) return undefined; // unterminated
        const c = s.charCodeAt(i);
        if (c === 34) break;
        if (c === 92 /* \ */) {
          const next = s.charCodeAt(i + 1);
          // quoted-pair = "\" ( HTAB / SP / VCHAR / obs-text )
          if (!(next === 9 || (next >= 32 && next !== 127 && next <= 255))) return undefined;
          value += s.slice(run, i);
          run = i + 1; // keep the escaped char
          i += 2;
          continue;
        }
        // qdtext = HTAB / SP / %x21 / %x23-5B / %x5D-7E / obs-text
        if (!(c === 9 || (c >= 32 && c !== 127 && c <= 255))) return undefined;
        i++;
      }
      value += s.slice(run, i);
      i++;
    } else {
      const valueStart = i;
      i = tokenEnd(s, i);
      if (i === valueStart) return undefined;
      value = s.slice(valueStart, i);
    }
    if (name in params) return undefined;
    params[name] = value;
  }
}

/**
 * True when `header` is one of the `accepted` media types (compared
 * case-insensitively, e.g. `["application/json", "application/a2a+json"]`) and
 * its charset, if any, is UTF-8. Other parameters are ignored. A missing or
 * malformed header is false.
 */
export function isJsonMediaType(header: string | undefined, accepted: readonly string[]): boolean {
  if (header === undefined) return false;
  // Fast path: the exact spelling the clients send.
  for (const a of accepted) if (a === header) return true;
  const media = parseMediaType(header);
  if (media === undefined) return false;
  let match = false;
  for (const a of accepted) {
    if (a.length === media.type.length && a.toLowerCase() === media.type) {
      match = true;
      break;
    }
  }
  if (!match) return false;
  const charset = media.params["charset"];
  return charset === undefined || charset.toLowerCase() === "utf-8";
}
