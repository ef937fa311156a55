// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Push notification delivery (spec §3.5, §4.3.3, §13.2): plug
 * `createPushNotificationSender(…).onTaskEvent` into `TaskHandlerOptions.onTaskEvent` and
 * every stored task event is POSTed, as one ProtoJSON `StreamResponse`, to each webhook
 * registered for the task.
 *
 * ```ts
 * const store = new InMemoryTaskStore();
 * const push = createPushNotificationSender({ store, schemas: { StreamResponse: StreamResponseSchema } });
 * const handler = createA2AServiceTaskHandler({ executor, store, capabilities: { pushNotifications: true }, onTaskEvent: push.onTaskEvent });
 * // on shutdown:
 * await push.close();
 * ```
 *
 * Delivery: `POST {url}` with `Content-Type: application/a2a+json`, `A2A-Version: 1.0` and
 * `Authorization: {scheme} {credentials}` when the config has `authentication`. Events of one
 * task reach one URL in order (one serial queue per (task, url)); different tasks and URLs
 * are delivered concurrently, under a global cap and a cap per receiving host (so that one slow
 * or hanging receiver cannot take every slot from the others). Each attempt has a timeout; network errors,
 * timeouts, 408, 429 and 5xx are retried a bounded number of times with exponential backoff
 * and jitter (`Retry-After` seconds or date honoured, capped); other statuses (including 3xx:
 * redirects are never followed) fail at once; 2xx is delivered. Failures after the last
 * attempt go to `onDeliveryError`.
 *
 * SSRF guard (§13.2), on by default: only `http:`/`https:` URLs without `user:pass@`; the host
 * (`localhost`, an IP literal, or every address it resolves to) must not be loopback, private,
 * link-local (incl. cloud metadata 169.254.169.254), unspecified, CGNAT, multicast, reserved,
 * or an IPv4-mapped / NAT64 / 6to4 form of those; an IPv6 address must be global unicast
 * (2000::/3, outside its special ranges): {@link isBlockedAddress}. `allowHosts` and
 * `allowPrivateNetworks` relax it for tests and local setups.
 *
 * Portability: host names are resolved with `node:dns`, imported lazily (`import("node:dns")`
 * inside the default resolver), so this module loads on any runtime with `fetch`; elsewhere
 * than Node (or Deno/Bun with node: support) pass `resolveHost`, or `allowPrivateNetworks: true`.
 *
 * Residual risk — DNS rebinding: the address check and `fetch` resolve the host separately, so a
 * hostile DNS server can answer a public address to the check and a private one to `fetch`. To
 * close it, pass a `fetch` whose connector pins or re-checks the address (e.g. undici's
 * `Agent({ connect: { lookup } })` with a lookup that refuses {@link isBlockedAddress} addresses),
 * or route webhooks through an egress proxy.
 *
 * Bounded: the events queued per (task, url) while a webhook is slow (each waits for the previous
 * one, up to its retries): past `maxQueuedPerWebhook` further events of that queue are not queued
 * but reported at once as `overflow`, so a task with a hanging webhook holds bounded memory.
 */
import { pushConfigVersionOf } from "./push-config-version.js";
import { WEBHOOK_URL_CHECK } from "./webhook-check.js";
import { toJson, type JsonValue, type JsonWriteOptions } from "@bufbuild/protobuf";
import type { GenMessage } from "@bufbuild/protobuf/codegenv2";
import type { JsonTextWriterTable } from "../json-write.js";
import type { PushConfigShape, StreamResponseShape } from "./shapes.js";
import type { TaskScope, TaskStore } from "./task-store.js";
import { CONSOLE_LOGGER, type Logger } from "../logger.js";
import type { A2ATracing, PushDeliveryOutcome } from "../tracing.js";

/** What the sender reads of a task event (a `TaskEventNotice` of the task runtime fits). */
export interface PushEventNotice {
  /** Scope of the task, to look its push configs up. */
  readonly scope: TaskScope;
  /** The task. */
  readonly taskId: string;
  /** Its context. */
  readonly contextId: string;
  /** The task state after the event. */
  readonly state: number;
  /** The event, sent as the body. */
  readonly event: StreamResponseShape;
}

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

/** Why a delivery ended unsuccessfully. */
export type PushFailureReason =
  /** The webhook URL was refused by the policy (not retried). */
  | "refused"
  /** The receiver answered a non-2xx status (after retries when retryable). */
  | "http-status"
  /** fetch failed (after retries). */
  | "network"
  /** Every attempt timed out. */
  | "timeout"
  /** The push configs of the task could not be listed. */
  | "store"
  /** The sender was closed before the delivery could finish. */
  | "closed"
  /** `maxQueuedPerWebhook` events of the task were already waiting for this webhook, or `maxQueuedBytes` of bodies for all: this one was dropped (not attempted). */
  | "overflow";

/** Reported by `onDeliveryError` once a delivery has failed for good. */
export interface PushDeliveryFailure {
  /** Why. */
  readonly reason: PushFailureReason;
  /** Scope of the task. */
  readonly scope: TaskScope;
  /** The task. */
  readonly taskId: string;
  /** The config ("" for `store` failures). */
  readonly configId: string;
  /** The webhook URL ("" for `store` failures). */
  readonly url: string;
  /** HTTP attempts made (0 when refused, closed before trying, or `store`). */
  readonly attempts: number;
  /** The last HTTP status, when the receiver answered. */
  readonly status?: number;
  /** The last error (refusal, network error, store error). */
  readonly error?: unknown;
  /** The event that was not delivered. */
  readonly event: StreamResponseShape;
}

/** Reported by `onDelivered` after a 2xx. */
export interface PushDeliverySuccess {
  /** The task. */
  readonly taskId: string;
  /** The config. */
  readonly configId: string;
  /** The webhook URL. */
  readonly url: string;
  /** The 2xx status. */
  readonly status: number;
  /** Attempts it took (1 = first try). */
  readonly attempts: number;
}

/** Options of {@link createPushNotificationSender}. */
export interface PushSenderOptions extends WebhookUrlPolicy {
  /** The task store the handler uses (push configs are read from it at each event). */
  readonly store: TaskStore;
  /** `{ StreamResponse: StreamResponseSchema }` (the generated schema; the binder's schemas object fits). */
  readonly schemas: { readonly StreamResponse: GenMessage<StreamResponseShape> };
  /** ProtoJSON options of the body (e.g. a registry). */
  readonly jsonOptions?: Partial<JsonWriteOptions> | undefined;
  /**
   * The generated ProtoJSON writers (`<Service>ResponseJsonWriters` of `<file>_a2a_json.ts`): an A2A 1.0
   * body is then written by the generated writer of StreamResponse, without reflection, as the servers
   * write their answers (REQUIRED fields present even at their zero value). Used when `jsonOptions` holds
   * no option but `registry`; reflection otherwise, and for a payload of another version.
   */
  readonly writers?: JsonTextWriterTable | undefined;
  /** The fetch to use. Default `globalThis.fetch`. Called with `redirect: "manual"`. */
  readonly fetch?: typeof globalThis.fetch | undefined;
  /** Timeout of one attempt, until the response headers arrive, in ms. Default 10 000. */
  readonly timeoutMs?: number | undefined;
  /** Retries after the first attempt. Default 3 (so at most 4 attempts). */
  readonly maxRetries?: number | undefined;
  /** Backoff before retry n (1-based) is about `baseDelayMs · 2^(n-1)`, jittered, at most `maxDelayMs`. Default 500. */
  readonly baseDelayMs?: number | undefined;
  /** Default 30 000. */
  readonly maxDelayMs?: number | undefined;
  /** Cap of a `Retry-After` delay, in ms. Default 60 000. */
  readonly maxRetryAfterMs?: number | undefined;
  /** Deliveries (HTTP attempts) in flight at once, over all tasks. Default 16. */
  readonly concurrency?: number | undefined;
  /**
   * Deliveries in flight at once to one receiving host (`host:port` of the URL), over all tasks: a
   * receiver that hangs holds at most this many of the `concurrency` slots. Default: half of
   * `concurrency` (rounded up; at least 2, at most `concurrency`): 8 of the default 16.
   */
  readonly concurrencyPerHost?: number | undefined;
  /**
   * Events of one task that may wait (queued or in delivery) for one webhook URL; a further event is
   * reported as `overflow` without being attempted. Default 100.
   */
  readonly maxQueuedPerWebhook?: number | undefined;
  /**
   * Bytes of notification bodies (the events' JSON) that may wait, queued or in delivery, over all
   * tasks and webhooks: a delivery that would pass it is reported as `overflow` without being
   * attempted. The count per webhook alone let large events (up to the task runtime's
   * `maxTaskBytes` each) to many slow webhooks hold any amount of memory. Default 64 MiB.
   */
  readonly maxQueuedBytes?: number | undefined;
  /** How long `close()` waits for in-flight and queued deliveries before aborting them, in ms. Default 10 000. */
  readonly closeTimeoutMs?: number | undefined;
  /** Also sends the config's `token` in this header (the spec defines no header for it). Default: not sent. */
  readonly tokenHeader?: string | undefined;
  /**
   * Webhook bodies for push configs registered in another protocol version (the task runtime marks them:
   * push-config-version.ts), by version: A2A 0.3's is `V03_PUSH_PAYLOAD` of `@protoc-gen-a2a/runtime/v0_3`.
   * Configs of the service's own version, or of a version without an entry, get the 1.0 body.
   */
  readonly payloads?: Readonly<Record<string, PushPayload>> | undefined;
  /** Called once a delivery has failed for good. Default: a warning to `logger`. Must not throw. */
  readonly onDeliveryError?: ((failure: PushDeliveryFailure) => void) | undefined;
  /** Where the default `onDeliveryError` reports. Default: `console`. */
  readonly logger?: Logger | undefined;
  /**
   * Traces every delivery (a CLIENT span per delivery, its attempts included, `traceparent` sent to the
   * webhook, linked to the span of the call that produced the event): `openTelemetryTracing()` of
   * `@protoc-gen-a2a/runtime/otel`. None by default.
   */
  readonly tracing?: A2ATracing | undefined;
  /** Called after each successful delivery. */
  readonly onDelivered?: ((success: PushDeliverySuccess) => void) | undefined;
  /** Waits `ms` between attempts (backoff, Retry-After); should resolve early when `signal` aborts (on close). Default: setTimeout. */
  readonly sleep?: ((ms: number, signal: AbortSignal) => Promise<void>) | undefined;
  /** Random number in [0, 1) for jitter. Default Math.random. */
  readonly random?: (() => number) | undefined;
  /** Epoch ms, to read a `Retry-After` date. Default Date.now. */
  readonly now?: (() => number) | undefined;
}

/** A webhook body of another protocol version: see {@link PushSenderOptions.payloads}. */
export interface PushPayload {
  /** The event (1.0 ProtoJSON `StreamResponse`) → the body's JSON. */
  encode(event: JsonValue): JsonValue;
  /** Its Content-Type. */
  readonly contentType: string;
  /** The header the config's token goes in (A2A 0.3: X-A2A-Notification-Token); default `tokenHeader`. */
  readonly tokenHeader?: string | undefined;
  /** The A2A-Version header to send; none when undefined (0.3 had no such header). */
  readonly version?: string | undefined;
}

/** The sender: pass `onTaskEvent` to the task handler; `close()` on shutdown. */
export interface PushNotificationSender {
  /**
   * The `TaskHandlerOptions.onTaskEvent` hook. Never throws; returns at once. It carries
   * {@link checkUrl} (under `WEBHOOK_URL_CHECK`), which the task handler applies to every
   * push config it is asked to create unless its `checkPushUrl` option says otherwise.
   */
  readonly onTaskEvent: ((notice: PushEventNotice) => void) & { readonly [WEBHOOK_URL_CHECK]: (url: string) => Promise<void> };
  /**
   * Checks a webhook URL against this sender's policy, as a push config is created: rejects with
   * {@link WebhookUrlError} for a URL it would never deliver to (not absolute, a scheme other than
   * http(s), credentials, a blocked host or address, a host resolving to a blocked address). A host
   * that does not resolve now is accepted: delivery checks again (DNS can be down for a while).
   */
  checkUrl(url: string): Promise<void>;
  /**
   * Stops accepting events and waits (at most `closeTimeoutMs`) for queued and in-flight
   * deliveries; then aborts what is left (reported as `closed`). Resolves true when everything
   * finished in time.
   */
  close(): Promise<boolean>;
  /** Deliveries queued or in flight (and event look-ups pending). */
  readonly pending: number;
  /**
   * One delivery attempt of `event` to `config`'s webhook, with this sender's policy, headers,
   * timeout and caps, and no retry, queue or report: for a durable outbox that schedules retries
   * itself (the PostgreSQL store's). `eventId` goes in the `A2A-Event-Id` header, so that a receiver
   * can recognize an event delivered again after a crash. Never rejects.
   */
  attemptOnce(config: PushConfigShape, event: StreamResponseShape, eventId?: string): Promise<PushAttemptResult>;
}

/** The outcome of {@link PushNotificationSender.attemptOnce}. */
export type PushAttemptResult =
  /** The receiver answered 2xx. */
  | { readonly kind: "delivered"; readonly status: number }
  /** Worth trying again later (network error, timeout, 408, 429, 5xx; `Retry-After` when given). */
  | { readonly kind: "retry"; readonly reason: "http-status" | "network" | "timeout"; readonly status?: number; readonly error?: unknown; readonly retryAfterMs?: number }
  /** Never worth trying again (refused URL, another status); `closed`: the sender is closed. */
  | { readonly kind: "fail"; readonly reason: "refused" | "http-status" | "closed"; readonly status?: number; readonly error?: unknown };

/** A webhook URL refused by the policy. */
export class WebhookUrlError extends Error {
  override readonly name = "WebhookUrlError";
  constructor(
    message: string,
    /** What is wrong with it. */
    readonly code: "invalid-url" | "scheme" | "credentials" | "blocked-host" | "blocked-address" | "unresolvable",
  ) {
    super(message);
  }
}

const A2A_JSON = "application/a2a+json";
const PROTOCOL_VERSION = "1.0";

/**
 * Checks a webhook URL against the policy: scheme, credentials, and (unless allowed) every
 * address of its host. Throws {@link WebhookUrlError}; resolves with the parsed URL. Call it
 * when a push config is created to refuse bad URLs early; the sender checks again before
 * delivering (addresses can change).
 */
export async function checkWebhookUrl(url: string, policy: WebhookUrlPolicy = {}): Promise<URL> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new WebhookUrlError(`Webhook URL is not an absolute URL`, "invalid-url");
  }
  if (parsed.protocol !== "https:" && (parsed.protocol !== "http:" || policy.requireHttps === true)) {
    throw new WebhookUrlError(`Webhook URL scheme ${parsed.protocol} is not allowed`, "scheme");
  }
  if (parsed.username !== "" || parsed.password !== "") {
    throw new WebhookUrlError("Webhook URL must not carry credentials (user:pass@)", "credentials");
  }
  const host = hostOf(parsed);
  if (host === "") throw new WebhookUrlError("Webhook URL has no host", "invalid-url");
  if (policy.allowPrivateNetworks === true) return parsed;
  if ((policy.allowHosts ?? []).some((h) => stripBrackets(h.toLowerCase()) === host)) return parsed;
  if (host === "localhost" || host.endsWith(".localhost") || host === "localhost.") {
    throw new WebhookUrlError(`Webhook host ${host} is not allowed`, "blocked-host");
  }
  if (parseIp(host) !== undefined) {
    if (isBlockedAddress(host)) throw new WebhookUrlError(`Webhook address ${host} is not allowed`, "blocked-address");
    return parsed;
  }
  let addresses: readonly ResolvedAddress[];
  try {
    addresses = await (policy.resolveHost ?? defaultResolveHost)(host);
  } catch (e) {
    throw new WebhookUrlError(`Webhook host ${host} does not resolve: ${e instanceof Error ? e.message : String(e)}`, "unresolvable");
  }
  if (addresses.length === 0) throw new WebhookUrlError(`Webhook host ${host} does not resolve`, "unresolvable");
  for (const { address } of addresses) {
    if (isBlockedAddress(address)) throw new WebhookUrlError(`Webhook host ${host} resolves to ${address}, which is not allowed`, "blocked-address");
  }
  return parsed;
}

/**
 * True when a textual IP address must not receive webhooks: IPv4 loopback, private, link-local,
 * unspecified, CGNAT, multicast, reserved/benchmark ranges; IPv6 forms embedding an IPv4 address
 * (IPv4-mapped ::ffff:0:0/96, NAT64 64:ff9b::/96, 6to4 2002::/16) judged by that address; and
 * every other IPv6 address outside global unicast 2000::/3 (loopback, unspecified, IPv4-compatible,
 * unique local, link-local, multicast, the local-use NAT64 prefix 64:ff9b:1::/48, discard-only
 * 100::/64, …) or in its special ranges (IETF protocol assignments 2001::/23 incl. Teredo,
 * documentation 2001:db8::/32 and 3fff::/20). Text that is not an IP address counts as blocked.
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
  if (bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zeros(4, 12)) return bytes.slice(12);
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

/** The 4 or 16 bytes of a textual IP address, or undefined. */
function parseIp(text: string): number[] | undefined {
  return parseIpv4(text) ?? parseIpv6(text);
}

function parseIpv4(text: string): number[] | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  const out: number[] = [];
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return undefined;
    const n = Number(p);
    if (n > 255) return undefined;
    out.push(n);
  }
  return out;
}

function parseIpv6(input: string): number[] | undefined {
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
  const groups = (s: string): number[] | undefined => {
    if (s === "") return [];
    const out: number[] = [];
    for (const g of s.split(":")) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined;
      const n = parseInt(g, 16);
      out.push(n >> 8, n & 0xff);
    }
    return out;
  };
  const head = groups(halves[0] ?? "");
  const rest = halves.length === 2 ? groups(halves[1] ?? "") : [];
  if (head === undefined || rest === undefined) return undefined;
  const fixed = head.length + rest.length + tail.length;
  if (halves.length === 1) {
    return fixed === 16 ? [...head, ...tail] : undefined;
  }
  if (fixed > 14) return undefined;
  return [...head, ...new Array<number>(16 - fixed).fill(0), ...rest, ...tail];
}

function stripBrackets(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}

function hostOf(url: URL): string {
  return stripBrackets(url.hostname.toLowerCase());
}

/** `dns.promises.lookup(host, { all: true })`, with `node:dns` imported on first use (keeps this module loadable outside Node). */
const defaultResolveHost: HostResolver = async (hostname) => {
  const specifier: string = "node:dns";
  const dns = (await import(/* @vite-ignore */ specifier)) as {
    promises: { lookup(hostname: string, options: { all: true; verbatim?: boolean }): Promise<ResolvedAddress[]> };
  };
  return dns.promises.lookup(hostname, { all: true, verbatim: true });
};

const defaultSleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done);
  });

/** A counting semaphore, FIFO. */
class Slots {
  #free: number;
  readonly #waiters: (() => void)[] = [];
  constructor(size: number) {
    this.#free = size;
  }
  async acquire(): Promise<() => void> {
    if (this.#free > 0) this.#free--;
    else await new Promise<void>((resolve) => this.#waiters.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiters.shift();
      if (next !== undefined) next();
      else this.#free++;
    };
  }
}

type AttemptOutcome =
  | { kind: "delivered"; status: number }
  | { kind: "retry"; reason: "http-status" | "network" | "timeout"; status?: number; error?: unknown; retryAfterMs?: number }
  /** The sender was closed while the attempt waited for a slot: no request was made. */
  | { kind: "closed" }
  | { kind: "fail"; status: number };

/**
 * Creates a push notification sender over `options.store`. See the module comment for the
 * delivery rules and the SSRF guard.
 */
export function createPushNotificationSender(options: PushSenderOptions): PushNotificationSender {
  const fetchFn = options.fetch ?? globalThis.fetch.bind(globalThis);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxRetries = Math.max(0, Math.floor(options.maxRetries ?? 3));
  const baseDelayMs = options.baseDelayMs ?? 500;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
  const closeTimeoutMs = options.closeTimeoutMs ?? 10_000;
  const sleep = options.sleep ?? defaultSleep;
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  const logger = options.logger ?? CONSOLE_LOGGER;
  const tracing = options.tracing;
  const onDeliveryError =
    options.onDeliveryError ??
    ((f: PushDeliveryFailure) =>
      logger.warn?.(`push notification for task ${f.taskId} to ${redact(f.url)} failed (${f.reason}${f.status === undefined ? "" : ` ${f.status}`}, ${f.attempts} attempt(s))`, f.error ?? ""));
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 16));
  const slots = new Slots(concurrency);
  const perHost = Math.max(1, Math.floor(options.concurrencyPerHost ?? Math.max(Math.min(concurrency, 2), Math.ceil(concurrency / 2))));
  const maxQueued = Math.max(1, Math.floor(options.maxQueuedPerWebhook ?? 100));
  const maxQueuedBytes = options.maxQueuedBytes ?? 64 * 1024 * 1024;
  if (!(maxQueuedBytes >= 1)) throw new RangeError(`maxQueuedBytes must be at least 1, got ${maxQueuedBytes}`);
  /** Bytes of the bodies of the deliveries queued or in flight (one body counted once per delivery). */
  let queuedBytes = 0;
  /** The slots of each receiving host with deliveries waiting or in flight (removed once it has none). */
  const hostSlots = new Map<string, { readonly slots: Slots; users: number }>();
  /** Events queued or in delivery per (task, url) queue key. */
  const queued = new Map<string, number>();
  const lifetime = new AbortController();
  /** Tail of each serial queue, keyed by task (config look-up) or (task, url) (deliveries). */
  const tails = new Map<string, Promise<void>>();
  let pending = 0;
  let closed = false;
  let idleWaiters: (() => void)[] = [];

  const report = (failure: PushDeliveryFailure): PushDeliveryOutcome => {
    try {
      onDeliveryError(failure);
    } catch {
      // A broken reporter must not break delivery.
    }
    return { delivered: false, reason: failure.reason, status: failure.status, attempts: failure.attempts };
  };

  /** Runs `job` after the previous job of `key`, counting it as pending. */
  const enqueue = (key: string, job: () => Promise<void>): void => {
    pending++;
    const previous = tails.get(key) ?? Promise.resolve();
    const next = previous
      .then(job)
      .catch(() => {})
      .finally(() => {
        if (tails.get(key) === next) tails.delete(key);
        if (--pending === 0) {
          const waiters = idleWaiters;
          idleWaiters = [];
          for (const w of waiters) w();
        }
      });
    tails.set(key, next);
  };

  /** A slot of the host of `url` (its own cap), then a global one; the function releases both. */
  const acquire = async (url: string): Promise<() => void> => {
    const host = hostKeyOf(url);
    let entry = hostSlots.get(host);
    if (entry === undefined) hostSlots.set(host, (entry = { slots: new Slots(perHost), users: 0 }));
    entry.users++;
    const releaseHost = await entry.slots.acquire();
    const releaseGlobal = await slots.acquire();
    const held = entry;
    return () => {
      releaseGlobal();
      releaseHost();
      if (--held.users === 0 && hostSlots.get(host) === held) hostSlots.delete(host);
    };
  };

  const attempt = async (url: string, headers: Record<string, string>, body: string): Promise<AttemptOutcome> => {
    const release = await acquire(url);
    // Closed while this attempt waited for a slot: no request (an abort listener added now would never fire).
    if (lifetime.signal.aborted) {
      release();
      return { kind: "closed" };
    }
    const controller = new AbortController();
    const onClose = (): void => controller.abort();
    lifetime.signal.addEventListener("abort", onClose);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    try {
      const response = await fetchFn(url, { method: "POST", headers, body, redirect: "manual", signal: controller.signal });
      clearTimeout(timer);
      // The body is not needed: release the connection.
      response.body?.cancel().catch(() => {});
      const status = response.status;
      if (status >= 200 && status < 300) return { kind: "delivered", status };
      if (status === 408 || status === 429 || status >= 500) {
        const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"), now());
        return { kind: "retry", reason: "http-status", status, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
      }
      return { kind: "fail", status };
    } catch (error) {
      return { kind: "retry", reason: timedOut ? "timeout" : "network", error };
    } finally {
      clearTimeout(timer);
      lifetime.signal.removeEventListener("abort", onClose);
      release();
    }
  };

  /** The request headers of a delivery to `config`, or the error that refuses it. */
  const payloadOf = (config: PushConfigShape): PushPayload | undefined => {
    if (options.payloads === undefined) return undefined;
    const version = pushConfigVersionOf(config);
    return version === undefined ? undefined : options.payloads[version];
  };
  const jsonOptions = options.jsonOptions;
  const writeEvent = Object.keys(jsonOptions ?? {}).every((k) => k === "registry") ? options.writers?.[options.schemas.StreamResponse.typeName] : undefined;
  const bodyOf = (event: StreamResponseShape, payload: PushPayload | undefined): string => {
    if (payload === undefined && writeEvent !== undefined) {
      try {
        return writeEvent(event, jsonOptions?.registry);
      } catch {
        // A bail, or an error reflection reports in its own words: it decides below.
      }
    }
    const json = toJson(options.schemas.StreamResponse, event, jsonOptions);
    return JSON.stringify(payload === undefined ? json : payload.encode(json));
  };
  const headersOf = (config: PushConfigShape, eventId: string | undefined): Record<string, string> | WebhookUrlError => {
    const payload = payloadOf(config);
    const headers: Record<string, string> =
      payload === undefined
        ? { "Content-Type": A2A_JSON, Accept: "application/json", "A2A-Version": PROTOCOL_VERSION }
        : { "Content-Type": payload.contentType, Accept: "application/json", ...(payload.version === undefined ? {} : { "A2A-Version": payload.version }) };
    const auth = (config as PushConfigShape & { authentication?: { scheme: string; credentials: string } }).authentication;
    if (auth !== undefined && (auth.scheme !== "" || auth.credentials !== "")) {
      headers["Authorization"] = auth.scheme === "" ? auth.credentials : `${auth.scheme} ${auth.credentials}`;
    }
    const token = (config as PushConfigShape & { token?: string }).token;
    const tokenHeader = payload?.tokenHeader ?? options.tokenHeader;
    if (tokenHeader !== undefined && token !== undefined && token !== "") headers[tokenHeader] = token;
    if (eventId !== undefined) headers["A2A-Event-Id"] = eventId;
    if (Object.values(headers).some((v) => /[\r\n\0]/.test(v))) return new WebhookUrlError("Push config authentication contains control characters", "invalid-url");
    return headers;
  };

  const attemptOnce = async (config: PushConfigShape, event: StreamResponseShape, eventId?: string): Promise<PushAttemptResult> => {
    if (closed || lifetime.signal.aborted) return { kind: "fail", reason: "closed" };
    try {
      await checkWebhookUrl(config.url, options);
    } catch (error) {
      return { kind: "fail", reason: "refused", error };
    }
    const headers = headersOf(config, eventId);
    if (headers instanceof WebhookUrlError) return { kind: "fail", reason: "refused", error: headers };
    let body: string;
    try {
      body = bodyOf(event, payloadOf(config));
    } catch (error) {
      return { kind: "fail", reason: "refused", error };
    }
    pending++;
    try {
      const outcome = await attempt(config.url, headers, body);
      if (outcome.kind === "closed") return { kind: "fail", reason: "closed" };
      if (outcome.kind === "fail") return { kind: "fail", reason: "http-status", status: outcome.status };
      return outcome;
    } finally {
      if (--pending === 0) {
        const waiters = idleWaiters;
        idleWaiters = [];
        for (const w of waiters) w();
      }
    }
  };

  /** One delivery of an event to a config's webhook (its attempts), in a span when traced. */
  const deliver = (notice: PushEventNotice, config: PushConfigShape, body: string, origin: unknown): Promise<PushDeliveryOutcome> => {
    if (tracing === undefined) return deliverUntraced(notice, config, body, undefined);
    return tracing.push({ taskId: notice.taskId, contextId: notice.contextId, url: config.url, origin }, (traceHeaders) => deliverUntraced(notice, config, body, traceHeaders));
  };

  const deliverUntraced = async (notice: PushEventNotice, config: PushConfigShape, body: string, traceHeaders: Readonly<Record<string, string>> | undefined): Promise<PushDeliveryOutcome> => {
    const base = { scope: notice.scope, taskId: notice.taskId, configId: config.id, url: config.url, event: notice.event };
    if (lifetime.signal.aborted) return report({ ...base, reason: "closed", attempts: 0 });
    try {
      await checkWebhookUrl(config.url, options);
    } catch (error) {
      return report({ ...base, reason: "refused", attempts: 0, error });
    }
    const own = headersOf(config, undefined);
    if (own instanceof WebhookUrlError) return report({ ...base, reason: "refused", attempts: 0, error: own });
    const headers = traceHeaders === undefined ? own : { ...own, ...traceHeaders };
    let last: AttemptOutcome | undefined;
    for (let n = 1; n <= maxRetries + 1; n++) {
      if (lifetime.signal.aborted) {
        return report({ ...base, reason: "closed", attempts: n - 1, ...statusAndError(last) });
      }
      const outcome = await attempt(config.url, headers, body);
      if (outcome.kind === "closed") return report({ ...base, reason: "closed", attempts: n - 1, ...statusAndError(last) });
      last = outcome;
      if (last.kind === "delivered") {
        options.onDelivered?.({ taskId: notice.taskId, configId: config.id, url: config.url, status: last.status, attempts: n });
        return { delivered: true, status: last.status, attempts: n };
      }
      if (last.kind === "fail") return report({ ...base, reason: "http-status", attempts: n, status: last.status });
      if (n === maxRetries + 1) break;
      if (lifetime.signal.aborted) return report({ ...base, reason: "closed", attempts: n, ...statusAndError(last) });
      const backoff = Math.min(maxDelayMs, baseDelayMs * 2 ** (n - 1));
      const jittered = backoff / 2 + random() * (backoff / 2);
      const delay = last.retryAfterMs !== undefined ? Math.min(maxRetryAfterMs, Math.max(last.retryAfterMs, 0)) : jittered;
      await sleep(delay, lifetime.signal);
    }
    if (last !== undefined && last.kind === "retry") {
      return report({ ...base, reason: lifetime.signal.aborted && last.reason !== "http-status" ? "closed" : last.reason, attempts: maxRetries + 1, ...statusAndError(last) });
    }
    return { delivered: false, attempts: maxRetries + 1 };
  };

  const checkUrl = async (url: string): Promise<void> => {
    try {
      await checkWebhookUrl(url, options);
    } catch (e) {
      if (!(e instanceof WebhookUrlError && e.code === "unresolvable")) throw e;
    }
  };

  const deliverEvent = (notice: PushEventNotice): void => {
    if (closed) return;
    // The span of the call that produced the event (active now), for the deliveries' link.
    const origin = tracing?.origin();
    const taskKey = JSON.stringify([notice.scope.tenant, notice.scope.owner, notice.taskId]);
    // One queue per task for the config look-up keeps the per-(task, url) queues in event order.
    enqueue(taskKey, async () => {
      let configs: PushConfigShape[];
      try {
        configs = await listAllConfigs(options.store, notice.scope, notice.taskId);
      } catch (error) {
        report({ reason: "store", scope: notice.scope, taskId: notice.taskId, configId: "", url: "", attempts: 0, error, event: notice.event });
        return;
      }
      // Most tasks have no push config: the event is only serialized (and copied) for those that do.
      if (configs.length === 0) return;
      // One body per protocol version the configs were registered in (almost always one).
      const bodies = new Map<PushPayload | undefined, string>();
      for (const config of configs) {
        const payload = payloadOf(config);
        let body = bodies.get(payload);
        if (body === undefined) {
          try {
            body = bodyOf(notice.event, payload);
          } catch (error) {
            report({ reason: "store", scope: notice.scope, taskId: notice.taskId, configId: config.id, url: config.url, attempts: 0, error, event: notice.event });
            continue;
          }
          bodies.set(payload, body);
        }
        const key = JSON.stringify([notice.scope.tenant, notice.scope.owner, notice.taskId, config.url]);
        const waiting = queued.get(key) ?? 0;
        // One body is always let through (an idle sender delivers any event); beyond, within the byte budget.
        if (waiting >= maxQueued || (queuedBytes > 0 && queuedBytes + body.length > maxQueuedBytes)) {
          report({ reason: "overflow", scope: notice.scope, taskId: notice.taskId, configId: config.id, url: config.url, attempts: 0, event: notice.event });
          continue;
        }
        queued.set(key, waiting + 1);
        queuedBytes += body.length;
        enqueue(key, async () => {
          try {
            await deliver(notice, config, body, origin);
          } finally {
            queuedBytes -= body.length;
            const left = (queued.get(key) ?? 1) - 1;
            if (left === 0) queued.delete(key);
            else queued.set(key, left);
          }
        });
      }
    });
  };

  const close = async (): Promise<boolean> => {
    closed = true;
    if (pending === 0) return true;
    const idle = new Promise<boolean>((resolve) => idleWaiters.push(() => resolve(true)));
    const bound = new AbortController();
    const timedOut = defaultSleep(closeTimeoutMs, bound.signal).then(() => false);
    const drained = await Promise.race([idle, timedOut]);
    bound.abort();
    if (drained) return true;
    lifetime.abort();
    if (pending > 0) await idle;
    return false;
  };

  const onTaskEvent = Object.assign(deliverEvent, { [WEBHOOK_URL_CHECK]: checkUrl });
  return {
    onTaskEvent,
    checkUrl,
    close,
    attemptOnce,
    get pending() {
      return pending;
    },
  };
}

/** All push configs of the task, over every page. */
async function listAllConfigs(store: TaskStore, scope: TaskScope, taskId: string): Promise<PushConfigShape[]> {
  const out: PushConfigShape[] = [];
  let pageToken = "";
  for (let pages = 0; pages < 10_000; pages++) {
    const page = await store.listPushConfigs(scope, taskId, { pageSize: 0, pageToken });
    out.push(...page.configs);
    if (page.nextPageToken === "" || page.nextPageToken === pageToken) break;
    pageToken = page.nextPageToken;
  }
  return out;
}

/** A `Retry-After` value (delta-seconds or HTTP-date) in ms from now, or undefined. */
function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

function statusAndError(outcome: AttemptOutcome | undefined): { status?: number; error?: unknown } {
  if (outcome === undefined || outcome.kind === "delivered" || outcome.kind === "closed") return {};
  if (outcome.kind === "fail") return { status: outcome.status };
  return { ...(outcome.status === undefined ? {} : { status: outcome.status }), ...(outcome.error === undefined ? {} : { error: outcome.error }) };
}

/** `host:port` of a URL (the key of the per-host cap); the whole text when it does not parse. */
function hostKeyOf(url: string): string {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return url;
  }
}

/** The URL without query, fragment or credentials, for logs. */
function redact(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return "<invalid url>";
  }
}
