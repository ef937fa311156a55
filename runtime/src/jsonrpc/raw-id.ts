// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The exact text of a numeric JSON-RPC id (issue #25). A JSON-RPC server echoes the id it received,
 * but JSON.parse turns `123456789012345678901234567890` into 1.2345678901234568e+29 (and Node 20 has
 * no access to the source text of a parsed value). So when the parsed id is a number a JS number
 * may not echo as sent (not a safe integer), the request's text is scanned for it: a scan, not a
 * second parse — strings are skipped with indexOf, nested values by counting brackets — run only then.
 */

/** `"`, `[`, `]`, `{`, `}`: what matters while skipping a nested value. */
const CONTAINER_TOKENS = /["[\]{}]/g;

/**
 * The text of the number a JSON object text gives its top-level member "id" — the last one, as
 * JSON.parse keeps the last of duplicate names — or undefined (no such member, or not a number).
 * `text` must be JSON that JSON.parse accepted.
 */
export function rawNumericId(text: string): string | undefined {
  let i = skipSpace(text, 0);
  if (text.charCodeAt(i) !== 123 /* { */) return undefined;
  i = skipSpace(text, i + 1);
  if (text.charCodeAt(i) === 125 /* } */) return undefined;
  let found: string | undefined;
  for (;;) {
    const keyEnd = stringEnd(text, i);
    const key = text.slice(i, keyEnd);
    const isId =
      key === '"id"' || (key.length > 4 && key.includes("\\") && JSON.parse(key) === "id");
    i = skipSpace(text, skipSpace(text, keyEnd) + 1); // past ":"
    const valueEnd = valueEndAt(text, i);
    if (isId) found = isNumberStart(text.charCodeAt(i)) ? text.slice(i, valueEnd) : undefined;
    i = skipSpace(text, valueEnd);
    if (text.charCodeAt(i) !== 44 /* , */) return found;
    i = skipSpace(text, i + 1);
  }
}

/**
 * The JSON text to echo for a parsed id: its source text when it is a number that is not a safe
 * integer and the text holds it, else `JSON.stringify(id)`.
 */
export function idJson(id: string | number | null, text: string): string {
  if (typeof id === "number" && !Number.isSafeInteger(id)) {
    const raw = rawNumericId(text);
    if (raw !== undefined && Object.is(Number(raw), id)) return raw;
  }
  return JSON.stringify(id);
}

function isNumberStart(c: number): boolean {
  return c === 45 /* - */ || (c >= 48 && c <= 57);
}

function skipSpace(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 10 && c !== 13 && c !== 9) return i;
    i++;
  }
}

/** `text[i]` is `"`: the index after the closing quote. */
function stringEnd(text: string, i: number): number {
  let from = i + 1;
  for (;;) {
    const q = text.indexOf('"', from);
    if (q < 0) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(q - 1 - backslashes) === 92 /* \ */) backslashes++;
    if (backslashes % 2 === 0) return q + 1;
    from = q + 1;
  }
}

/** The index after the value that starts at `i`. */
function valueEndAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === 34 /* " */) return stringEnd(text, i);
  if (c === 123 /* { */ || c === 91 /* [ */) {
    let depth = 0;
    CONTAINER_TOKENS.lastIndex = i;
    for (;;) {
      const m = CONTAINER_TOKENS.exec(text);
      if (m === null) return text.length;
      const at = m.index;
      const t = text.charCodeAt(at);
      if (t === 34) CONTAINER_TOKENS.lastIndex = stringEnd(text, at);
      else if (t === 123 || t === 91) depth++;
      else if (--depth === 0) return at + 1;
    }
  }
  // A number or a literal: up to the next delimiter.
  let j = i;
  for (;;) {
    const d = text.charCodeAt(j);
    if (
      Number.isNaN(d) /* the end */ ||
      d === 44 ||
      d === 125 ||
      d === 93 ||
      d === 32 ||
      d === 10 ||
      d === 13 ||
      d === 9
    )
      return j;
    j++;
  }
}
