// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The webhook URL policy (spec §13.2, SSRF guard), on by default: which URLs a push sender may
 * POST to. Only `http:`/`https:` URLs (`https:` alone with `requireHttps`) without `user:pass@`;
 * the host (`localhost` and `*.localhost`, an IP literal, or every address a host name resolves
 * to) must not be loopback, private, link-local (incl. cloud metadata 169.254.169.254),
 * unspecified, CGNAT, multicast, reserved, or an IPv4-mapped / NAT64 / 6to4 form of those; an
 * IPv6 address must be global unicast (2000::/3, outside its special ranges): {@link isBlockedAddress}.
 * `allowHosts` and `allowPrivateNetworks` relax it for tests and local setups.
 *
 * The URL is parsed by the WHATWG URL parser, as `fetch` parses it, so the host judged is the one
 * connected to: shorthand, decimal, hex and octal IPv4 (`127.1`, `2130706433`, `0x7f.0.0.1`,
 * `0177.0.0.1`), a trailing dot, percent-encoding, full-width digits and upper case all reach the
 * check in their canonical form.
 *
 * Pure apart from DNS: {@link screenWebhookUrl} and {@link checkResolvedAddresses} decide
 * synchronously; {@link checkWebhookUrl} joins them with a look-up. Host names are resolved with
 * `node:dns`, imported lazily (`import("node:dns")` inside the default resolver), so this module
 * loads on any runtime with `fetch`.
 */
import { parseIp, stripBrackets } from "./ip-address.js";

/** One address a host resolves to (`dns.promises.lookup(host, { all: true })` fits). */
export interface ResolvedAddress {
  /** Textual IPv4 or IPv6 address. */
  readonly address: string;
  /** 4 or 6 (informational). */
  readonly family?: number;
}

/** Resolves a host name to all its addresses. */
export type HostResolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/** The webhook URL policy (§13.2), shared by the sender and {@link checkWebhookUrl}. */
export interface WebhookUrlPolicy {
  /** Hosts (as in the URL, lowercase; IPv6 without brackets) exempt from the address check, e.g. `["127.0.0.1"]` in tests. */
  readonly allowHosts?: readonly string[];
  /** Skips the address check altogether (local development). Scheme and credential checks stay. Default false. */
  readonly allowPrivateNetworks?: boolean;
  /** Refuses `http:` URLs (§7.1: production MUST use encrypted communication). Default false. */
  readonly requireHttps?: boolean;
  /** Resolves host names. Default: `dns.promises.lookup(host, { all: true })` from a lazily imported `node:dns`. */
  readonly resolveHost?: HostResolver;
}

/** A webhook URL refused by the policy. */
export class WebhookUrlError extends Error {
  override readonly name = "WebhookUrlError";
  constructor(
    message: string,
    /** What is wrong with it. */
    readonly code:
      | "invalid-url"
      | "scheme"
      | "credentials"
      | "blocked-host"
      | "blocked-address"
      | "unresolvable",
  ) {
    super(message);
  }
}

/** What the synchronous rules of the policy make of a URL they do not refuse: {@link screenWebhookUrl}. */
export interface WebhookUrlScreen {
  /** The parsed URL. */
  readonly url: URL;
  /** The host name whose addresses decide ({@link checkResolvedAddresses}); undefined when the URL is accepted as it is. */
  readonly resolve: string | undefined;
}

/**
 * Checks a webhook URL against the policy: scheme, credentials, and (unless allowed) every
 * address of its host. Throws {@link WebhookUrlError}; resolves with the parsed URL. Call it
 * when a push config is created to refuse bad URLs early; the sender checks again before
 * delivering (addresses can change).
 */
export async function checkWebhookUrl(url: string, policy: WebhookUrlPolicy = {}): Promise<URL> {
  const screen = screenWebhookUrl(url, policy);
  if (screen.resolve === undefined) return screen.url;
  const host = screen.resolve;
  let addresses: readonly ResolvedAddress[];
  try {
    addresses = await (policy.resolveHost ?? defaultResolveHost)(host);
  } catch (e) {
    throw new WebhookUrlError(
      `Webhook host ${host} does not resolve: ${e instanceof Error ? e.message : String(e)}`,
      "unresolvable",
    );
  }
  checkResolvedAddresses(host, addresses);
  return screen.url;
}

/**
 * The rules of {@link checkWebhookUrl} that need no DNS, synchronously: throws {@link WebhookUrlError}
 * for a URL that is not absolute, of another scheme, with credentials or without a host, for
 * `localhost` / `*.localhost`, and for a blocked IP literal. Otherwise returns the parsed URL and,
 * unless the policy allows the host or it is an IP literal, the host name left to resolve.
 */
export function screenWebhookUrl(url: string, policy: WebhookUrlPolicy = {}): WebhookUrlScreen {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new WebhookUrlError(`Webhook URL is not an absolute URL`, "invalid-url");
  }
  if (
    parsed.protocol !== "https:" &&
    (parsed.protocol !== "http:" || policy.requireHttps === true)
  ) {
    throw new WebhookUrlError(`Webhook URL scheme ${parsed.protocol} is not allowed`, "scheme");
  }
  if (parsed.username !== "" || parsed.password !== "") {
    throw new WebhookUrlError("Webhook URL must not carry credentials (user:pass@)", "credentials");
  }
  const host = stripBrackets(parsed.hostname.toLowerCase());
  if (host === "") throw new WebhookUrlError("Webhook URL has no host", "invalid-url");
  const accepted = { url: parsed, resolve: undefined };
  if (policy.allowPrivateNetworks === true) return accepted;
  if ((policy.allowHosts ?? []).some((h) => stripBrackets(h.toLowerCase()) === host))
    return accepted;
  if (host === "localhost" || host.endsWith(".localhost") || host === "localhost.") {
    throw new WebhookUrlError(`Webhook host ${host} is not allowed`, "blocked-host");
  }
  if (parseIp(host) !== undefined) {
    if (isBlockedAddress(host))
      throw new WebhookUrlError(`Webhook address ${host} is not allowed`, "blocked-address");
    return accepted;
  }
  return { url: parsed, resolve: host };
}

/**
 * Refuses `host` (throws {@link WebhookUrlError}) unless it resolved to at least one address and
 * none of them is blocked ({@link isBlockedAddress}): one private address among public ones is
 * enough, as the connection may use any of them.
 */
export function checkResolvedAddresses(host: string, addresses: readonly ResolvedAddress[]): void {
  if (addresses.length === 0)
    throw new WebhookUrlError(`Webhook host ${host} does not resolve`, "unresolvable");
  for (const { address } of addresses) {
    if (isBlockedAddress(address))
      throw new WebhookUrlError(
        `Webhook host ${host} resolves to ${address}, which is not allowed`,
        "blocked-address",
      );
  }
}

/**
 * True when a textual IP address must not receive webhooks: IPv4 loopback, private, link-local,
 * unspecified, CGNAT, multicast, reserved/benchmark ranges; IPv6 forms embedding an IPv4 address
 * (IPv4-mapped ::ffff:0:0/96, NAT64 64:ff9b::/96, 6to4 2002::/16) judged by that address; and
 * every other IPv6 address outside global unicast 2000::/3 (loopback, unspecified, IPv4-compatible,
 * unique local, link-local, multicast, the local-use NAT64 prefix 64:ff9b:1::/48, discard-only
 * 100::/64, …) or in its special ranges (IETF protocol assignments 2001::/23 incl. Teredo,
 * documentation 2001:db8::/32 and 3fff::/20). Text that is not an IP address in canonical form
 * (dotted-decimal without leading zeros, or IPv6, optionally in brackets) counts as blocked.
 */
export function isBlockedAddress(address: string): boolean {
  const bytes = parseIp(stripBrackets(address));
  if (bytes === undefined) return true;
  if (bytes.length === 4) return blockedV4(bytes);
  const embedded = embeddedIpv4(bytes);
  if (embedded !== undefined) return blockedV4(embedded);
  const [b0 = 0, b1 = 0, b2 = 0, b3 = 0] = bytes;
  // Only 2000::/3 is global unicast (IANA): everything else is local, special or unassigned. This
  // includes 64:ff9b:1::/48 (RFC 8215), whose embedded IPv4 sits where its operator's prefix
  // length puts it, so it cannot be judged by it: IANA lists it as not globally reachable.
  if ((b0 & 0xe0) !== 0x20) return true;
  if (b0 === 0x20 && b1 === 0x01 && (b2 & 0xfe) === 0x00) return true; // 2001::/23 IETF protocol assignments (Teredo, benchmarking, ORCHID)
  if (b0 === 0x20 && b1 === 0x01 && b2 === 0x0d && b3 === 0xb8) return true; // 2001:db8::/32 documentation
  if (b0 === 0x3f && b1 === 0xff && (b2 & 0xf0) === 0x00) return true; // 3fff::/20 documentation (RFC 9637)
  return false;
}

/** The IPv4 address an IPv6 address stands for, in the forms that reach it: IPv4-mapped, NAT64 well-known prefix (RFC 6052), 6to4. */
function embeddedIpv4(bytes: readonly number[]): number[] | undefined {
  const zeros = (from: number, to: number): boolean => bytes.slice(from, to).every((b) => b === 0);
  // ::ffff:0:0/96 IPv4-mapped: the socket API connects to the IPv4 address itself.
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return bytes.slice(12);
  // 64:ff9b::/96 NAT64 well-known prefix: a NAT64 gateway connects to the IPv4 address.
  if (
    bytes[0] === 0x00 &&
    bytes[1] === 0x64 &&
    bytes[2] === 0xff &&
    bytes[3] === 0x9b &&
    zeros(4, 12)
  )
    return bytes.slice(12);
  // 2002::/16 6to4 embeds an IPv4 address in bits 16–48.
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return bytes.slice(2, 6);
  return undefined;
}

function blockedV4(b: readonly number[]): boolean {
  const [a = 0, c = 0, d = 0] = b;
  return (
    a === 0 || // 0.0.0.0/8 "this network", incl. unspecified
    a === 10 || // 10/8 private
    a === 127 || // loopback
    (a === 100 && (c & 0xc0) === 64) || // 100.64/10 CGNAT
    (a === 169 && c === 254) || // link-local, incl. 169.254.169.254 metadata
    (a === 172 && (c & 0xf0) === 16) || // 172.16/12 private
    (a === 192 && c === 168) || // 192.168/16 private
    (a === 192 && c === 0 && d === 0) || // 192.0.0/24 IETF protocol assignments
    (a === 198 && (c & 0xfe) === 18) || // 198.18/15 benchmarking
    a >= 224 // multicast 224/4, reserved 240/4, broadcast
  );
}

/** `dns.promises.lookup(host, { all: true })`, with `node:dns` imported on first use (keeps this module loadable outside Node). */
const defaultResolveHost: HostResolver = async (hostname) => {
  const specifier: string = "node:dns";
  const dns = (await import(/* @vite-ignore */ specifier)) as {
    promises: {
      lookup(
        hostname: string,
        options: { all: true; verbatim?: boolean },
      ): Promise<ResolvedAddress[]>;
    };
  };
  return dns.promises.lookup(hostname, { all: true, verbatim: true });
};
