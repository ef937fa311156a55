// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Textual IP addresses as bytes, for the webhook policy (./webhook-policy.ts): the canonical forms
 * a URL's host or a DNS answer holds (dotted-decimal IPv4; IPv6 with `::`, an embedded dotted
 * IPv4 tail and an optional `%zone`). Anything else is not an address (undefined): the policy
 * then refuses it, so text an operating system might read otherwise fails closed.
 */

/** The 4 or 16 bytes of a textual IP address, or undefined. */
export function parseIp(text: string): number[] | undefined {
  return parseIpv4(text) ?? parseIpv6(text);
}

/**
 * The 4 bytes of a dotted-decimal IPv4 address (four decimal parts 0–255), or undefined. A part
 * with a leading zero ("010") is refused: `inet_aton` (and so `dns.lookup`) reads it as octal,
 * `inet_pton` refuses it, and reading it as decimal would judge another address than the one
 * connected to.
 */
export function parseIpv4(text: string): number[] | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  const out: number[] = [];
  for (const p of parts) {
    if (!/^(?:0|[1-9]\d{0,2})$/.test(p)) return undefined;
    const n = Number(p);
    if (n > 255) return undefined;
    out.push(n);
  }
  return out;
}

/** The 16 bytes of a textual IPv6 address (a `%zone` suffix ignored), or undefined. */
export function parseIpv6(input: string): number[] | undefined {
  let text = input;
  const zone = text.indexOf("%");
  if (zone >= 0) text = text.slice(0, zone);
  if (!text.includes(":")) return undefined;
  let tail: number[] = [];
  const lastColon = text.lastIndexOf(":");
  const lastPart = text.slice(lastColon + 1);
  if (lastPart.includes(".")) {
    const v4 = parseIpv4(lastPart);
    if (v4 === undefined) return undefined;
    tail = v4;
    text = text.slice(0, lastColon + 1);
    if (!text.endsWith("::")) text = text.slice(0, -1);
  }
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const head = hexGroups(halves[0] ?? "");
  const rest = halves.length === 2 ? hexGroups(halves[1] ?? "") : [];
  if (head === undefined || rest === undefined) return undefined;
  const fixed = head.length + rest.length + tail.length;
  if (halves.length === 1) {
    return fixed === 16 ? [...head, ...tail] : undefined;
  }
  if (fixed > 14) return undefined;
  return [...head, ...new Array<number>(16 - fixed).fill(0), ...rest, ...tail];
}

/** The bytes of colon-separated groups of 1–4 hex digits ("" is none), or undefined. */
function hexGroups(s: string): number[] | undefined {
  if (s === "") return [];
  const out: number[] = [];
  for (const g of s.split(":")) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined;
    const n = parseInt(g, 16);
    out.push(n >> 8, n & 0xff);
  }
  return out;
}

/** The host without the brackets of an IPv6 literal (`[::1]` → `::1`). */
export function stripBrackets(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}
