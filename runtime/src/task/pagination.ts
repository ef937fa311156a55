// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Opaque cursor tokens for keyset pagination (ListTasks §3.1.4, ListTaskPushNotificationConfigs).
 *
 * A token carries the sort key of the last item of a page and a fingerprint of the query
 * that produced it, base64url-encoded. Decoding checks both: a token that was not issued
 * by this code, or that is replayed with other filters, is an {@link InvalidPageTokenError}
 * (answered with InvalidParams). Tokens are opaque, not secret: scoping is enforced by the
 * store's query, never by the token. No Node-only API is used, so this runs anywhere.
 */
import type { JsonValue } from "@bufbuild/protobuf";
import { InvalidPageTokenError } from "./errors.js";

const VERSION = 1;

/** A short, stable fingerprint of any JSON-able query (FNV-1a, 32 bits, hex). */
export function queryFingerprint(query: JsonValue): string {
  const text = JSON.stringify(query);
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

/** Encodes the position after which the next page starts, bound to the query's fingerprint. */
export function encodePageToken(fingerprint: string, position: JsonValue): string {
  const bytes = new TextEncoder().encode(
    JSON.stringify({ v: VERSION, q: fingerprint, p: position }),
  );
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Decodes a token issued by {@link encodePageToken} for the same fingerprint; throws InvalidPageTokenError otherwise. */
export function decodePageToken(token: string, fingerprint: string): JsonValue {
  const invalid = (): InvalidPageTokenError =>
    new InvalidPageTokenError("pageToken is not a token this server issued for this query");
  if (!/^[A-Za-z0-9_-]+$/.test(token)) throw invalid();
  let parsed: unknown;
  try {
    const binary = atob(token.replace(/-/g, "+").replace(/_/g, "/"));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw invalid();
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw invalid();
  const record = parsed as Record<string, JsonValue>;
  if (record["v"] !== VERSION || record["q"] !== fingerprint || !("p" in record)) throw invalid();
  return record["p"] as JsonValue;
}

/** Where a ListTasks page starts: after the task of this status time (ns since the epoch) and save sequence. */
export interface TaskPagePosition {
  readonly time: bigint;
  readonly seq: number;
}

/** The token of the ListTasks page after `position`, bound to the query's fingerprint (`{ t, s }`). */
export function taskPageToken(fingerprint: string, position: TaskPagePosition): string {
  return encodePageToken(fingerprint, { t: position.time.toString(), s: position.seq });
}

/**
 * The position a ListTasks page token holds (`{ t: status time in ns, s: save sequence }`, from
 * {@link taskPageToken}); InvalidPageTokenError for anything else.
 */
export function readTaskPosition(position: unknown): TaskPagePosition {
  if (typeof position === "object" && position !== null && !Array.isArray(position)) {
    const { t, s } = position as Record<string, unknown>;
    if (
      typeof t === "string" &&
      /^-?\d{1,30}$/.test(t) &&
      typeof s === "number" &&
      Number.isSafeInteger(s)
    )
      return { time: BigInt(t), seq: s };
  }
  throw new InvalidPageTokenError("pageToken is malformed");
}

/**
 * The position after which a page of a task's push configs starts: 0 for the first page,
 * else the sequence number in the token (bound to that task). Both stores use it.
 */
export function pushConfigCursor(taskId: string, pageToken: string): number {
  if (pageToken === "") return 0;
  const position = decodePageToken(pageToken, pushConfigFingerprint(taskId));
  if (typeof position !== "number" || !Number.isSafeInteger(position))
    throw new InvalidPageTokenError("pageToken is malformed");
  return position;
}

/** The token of the page of a task's push configs after sequence number `seq` (bound to that task). */
export function pushConfigPageToken(taskId: string, seq: number): string {
  return encodePageToken(pushConfigFingerprint(taskId), seq);
}

function pushConfigFingerprint(taskId: string): string {
  return queryFingerprint(["push", taskId]);
}
