// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Client values repeated in error messages and ErrorInfo metadata, bounded: an answer must not grow
 * with what a client sends (a 14 KB `A2A-Version` header came back in a 28 KB error body, issue #17).
 */

/** Most characters of a client's value that an error repeats. */
export const ECHO_LIMIT = 100;

/** `value` as an error repeats it: itself when short, else its first {@link ECHO_LIMIT} characters, "…" and its length. */
export function clipped(value: string): string {
  return value.length <= ECHO_LIMIT
    ? value
    : `${value.slice(0, ECHO_LIMIT)}… (${value.length} characters)`;
}

/** `value` JSON-quoted as an error repeats it (see {@link clipped}). */
export function quoted(value: string): string {
  return value.length <= ECHO_LIMIT
    ? JSON.stringify(value)
    : `${JSON.stringify(value.slice(0, ECHO_LIMIT))}… (${value.length} characters)`;
}
