// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Connecting to an agent from its Agent Card (A2A v1.0 §8.2, §8.3.2, §5.2): fetch the card,
 * decode it leniently, select the interface, build the generated client of its binding, and
 * refuse the optional operations the card does not declare (§3.3.4) locally, before any
 * request is sent (ACTS CLIENT-CAP-001). A successful GetExtendedAgentCard replaces the
 * connection's card (§3.1.11, ACTS CLIENT-AUTH-001).
 *
 * Binding-neutral: the generated `<file>_a2a_agent_client.ts` supplies the AgentCard schema,
 * the operation table, one client factory per emitted binding and the capability table.
 */
import { fromJson, type DescMessage, type JsonValue } from "@bufbuild/protobuf";
import type { A2AErrorOptions } from "../a2a-error.js";
import { callSignal, type CallOptions, type ClientOptions } from "../call-options.js";
import { AGENT_CARD_WELL_KNOWN_PATH, grpcAddressTls, grpcHostPort, type A2ABindingName } from "../discovery.js";
import type { OperationDescriptor } from "../operation.js";
import type { ResumableStreamClientOptions } from "../http/stream-resume.js";

/** Default timeout of the card request, when neither `cardTimeoutMs` nor `timeoutMs` is set. */
const DEFAULT_CARD_TIMEOUT_MS = 30_000;

/** Why {@link connectAgent} failed. */
export type AgentConnectErrorReason =
  /** The card request did not complete: network error, refused connection, timeout. */
  | "card-fetch-failed"
  /** The card URL answered with a non-2xx status (see `status`). */
  | "card-http-status"
  /** The body is not JSON, or not an AgentCard (wrong field types, no object). */
  | "card-malformed"
  /** No `supportedInterfaces` entry has a wanted binding, protocol version 1.x and a usable URL. */
  | "no-matching-interface";

/** Options of an {@link AgentConnectError}. */
export interface AgentConnectErrorOptions {
  /** The card URL, when the card was fetched. */
  readonly cardUrl?: string | undefined;
  /** The HTTP status of a `card-http-status` failure. */
  readonly status?: number | undefined;
  /** The underlying error (the fetch's TypeError, the JSON or ProtoJSON error). */
  readonly cause?: unknown | undefined;
}

/** Connecting to an agent from its card failed; `reason` says at which step. */
export class AgentConnectError extends Error {
  /** The step that failed. */
  readonly reason: AgentConnectErrorReason;
  /** The card URL, when the card was fetched. */
  readonly cardUrl: string | undefined;
  /** The HTTP status of a `card-http-status` failure. */
  readonly status: number | undefined;

  /** An error of `reason` with a message for people. */
  constructor(reason: AgentConnectErrorReason, message: string, options?: AgentConnectErrorOptions) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "AgentConnectError";
    this.reason = reason;
    this.cardUrl = options?.cardUrl;
    this.status = options?.status;
  }
}

/** The parts of an `AgentInterface` a connection reads (the generated message fits). */
export interface AgentInterfaceLike {
  /** The interface URL; for gRPC `host:port` or a URL (§8.5's sample). */
  readonly url: string;
  /** "JSONRPC", "HTTP+JSON", "GRPC", or a custom binding's URI. */
  readonly protocolBinding: string;
  /** "1.0". */
  readonly protocolVersion: string;
  /** The tenant to set in every request, "" for none. */
  readonly tenant: string;
}

/** The parts of an `AgentCard` a connection reads (the generated message fits). */
export interface AgentCardLike {
  /** The interfaces, in the agent's preference order (§8.3.1). */
  readonly supportedInterfaces: readonly AgentInterfaceLike[];
  /** `AgentCapabilities`; a capability is declared only when its field is `true`. */
  readonly capabilities?: object | undefined;
}

/** The interface a connection uses. */
export interface SelectedInterface<B extends string = A2ABindingName> {
  /** The URL as declared; for HTTP bindings resolved against the card URL when relative. */
  readonly url: string;
  /** The binding ("HTTP+JSON" also for a card that writes "REST"). */
  readonly protocolBinding: B;
  /** As declared, "1.0". */
  readonly protocolVersion: string;
  /** The tenant the client sets in every request (§8.3.2); "" for none. */
  readonly tenant: string;
  /** Its position in `supportedInterfaces`. */
  readonly index: number;
}

/** What a binding's client factory connects to. */
export interface InterfaceTarget<B extends string = A2ABindingName> extends SelectedInterface<B> {
  /** HTTP bindings: the absolute URL. gRPC: `host:port` (a URL form is reduced to it). */
  readonly address: string;
  /** gRPC: TLS as the URL scheme says (https/grpcs: true, http/grpc: false); undefined for `host:port`. */
  readonly tls: boolean | undefined;
}

/** An operation that needs an Agent Card capability, and the error it is refused with. */
export interface CapabilityGate {
  /** The `AgentCapabilities` field (as on the message, e.g. "pushNotifications") that must be `true`. */
  readonly capability: string;
  /** The generated error class thrown without it (UnsupportedOperationError, PushNotificationNotSupportedError). */
  readonly error: new (
    message?: string,
    options?: A2AErrorOptions,
  ) => Error;
}

/** A custom binding's URI (§5.8) where a binding name is expected: any string, the core names still suggested. */
export type CustomBindingUri = string & {};

/**
 * Builds the client of a custom binding's interface (spec §12): the generated typed client over
 * the binding's transport, e.g. `(target, options) => new A2AServiceWsClient({ ...options, url: target.address })`.
 * `target.address` is the interface URL, absolute (resolved against the card URL when relative);
 * `options` are the caller's client options with the interface's tenant.
 */
export type CustomTransportFactory<Client> = (target: InterfaceTarget<CustomBindingUri>, options: ConnectClientOptions) => Client;

/**
 * Options of {@link connectAgent}: how to fetch the card and choose the interface, plus the client's options
 * (`resumeStreams` is for the HTTP bindings' clients, JSONRPC and HTTP+JSON; the gRPC client does not resume).
 */
export interface AgentConnectOptions<B extends string = A2ABindingName, Client = unknown> extends ClientOptions, ResumableStreamClientOptions {
  /**
   * The bindings the client may use. Default: every binding of this output, JSONRPC, HTTP+JSON,
   * GRPC. Which one wins among the card's interfaces is decided by `prefer`.
   */
  readonly bindings?: readonly B[] | undefined;
  /**
   * Clients for custom bindings (§5.8, §12), by `protocolBinding` URI: an interface of such a
   * binding is usable, like one of `bindings`, and connected with its factory. Interfaces whose
   * binding is neither in `bindings` nor here are skipped (§8.3.2: the first *supported* entry).
   * With `prefer: "bindings"`, custom bindings come after `bindings`, in this object's order.
   */
  readonly transports?: Readonly<Record<string, CustomTransportFactory<Client>>> | undefined;
  /**
   * Whose order decides when several interfaces fit: `"card"` (default; §8.3.2: the first
   * supported entry of `supportedInterfaces`, the agent's preference) or `"bindings"` (the
   * order of `bindings`, then the card's).
   */
  readonly prefer?: "card" | "bindings" | undefined;
  /** The fetch used for the card and by the HTTP bindings' clients. Default `globalThis.fetch`. */
  readonly fetch?: typeof globalThis.fetch | undefined;
  /** Cancels fetching the card (the abort reason is thrown as is). */
  readonly signal?: AbortSignal | undefined;
  /** Timeout of the card request in ms. Default: `timeoutMs`, else 30 s. */
  readonly cardTimeoutMs?: number | undefined;
  /** Headers of the card request only (the client's `headers` are not sent to the card URL). */
  readonly cardHeaders?: Readonly<Record<string, string>> | undefined;
  /**
   * Refuse, locally and without a request, the operations whose capability the card does not
   * declare `true` (streaming, push notifications, extended card). Default true.
   */
  readonly checkCapabilities?: boolean | undefined;
}

/** The client options a binding's factory gets: the caller's, with the interface's tenant, the fetch and `resumeStreams`. */
export interface ConnectClientOptions extends ClientOptions, ResumableStreamClientOptions {
  /** The caller's fetch (HTTP bindings). */
  readonly fetch?: typeof globalThis.fetch | undefined;
}

/** What the generated agent client file hands {@link connectAgent}: the proto-specific pieces. */
export interface AgentClientSpec<Card extends AgentCardLike, Client, B extends string, O extends AgentConnectOptions<B>> {
  /** The generated `AgentCardSchema`; `$card` only carries the type of its messages. */
  readonly cardSchema: DescMessage & { readonly $card?: Card };
  /** The operation table (`<Service>Operations`): the methods of `Client`. */
  readonly operations: Readonly<Record<string, OperationDescriptor>>;
  /** One factory per emitted binding, in the default preference order. */
  readonly bindings: { readonly [K in B]: (target: InterfaceTarget<K>, client: ConnectClientOptions, options: O) => Client };
  /** Capability gates by operation `localName`. */
  readonly gates: Readonly<Record<string, CapabilityGate>>;
  /** `localName` of the operation returning the extended card, which replaces the connection's card. */
  readonly extendedCardOperation: string;
}

/**
 * A client connected to an agent through its card: `client` calls the selected interface,
 * refusing gated operations the (current) card does not declare.
 */
export class AgentConnection<Card extends AgentCardLike, Client, B extends string = A2ABindingName> {
  /** The interface `client` talks to (a custom binding's URI when connected through `transports`). */
  readonly interface: SelectedInterface<B | CustomBindingUri>;
  /** The client: the generated client of the binding, behind the capability gates. */
  readonly client: Client;
  /** Where the card was fetched from; undefined for a card passed in. */
  readonly cardUrl: string | undefined;
  #card: Card;

  /** Use {@link connectAgent}. */
  constructor(
    card: Card,
    selected: SelectedInterface<B | CustomBindingUri>,
    inner: Client,
    spec: Pick<AgentClientSpec<Card, Client, B, never>, "operations" | "gates" | "extendedCardOperation">,
    checkCapabilities: boolean,
    cardUrl: string | undefined,
  ) {
    this.#card = card;
    this.interface = selected;
    this.cardUrl = cardUrl;
    this.client = this.#gate(inner, spec, checkCapabilities);
  }

  /** The Agent Card: the public one, replaced by the extended card after a successful GetExtendedAgentCard. */
  get card(): Card {
    return this.#card;
  }

  /** Whether the current card declares the `AgentCapabilities` field `capability` ("streaming", …) true. */
  supports(capability: string): boolean {
    const capabilities = this.#card.capabilities as Readonly<Record<string, unknown>> | undefined;
    return capabilities?.[capability] === true;
  }

  #gate(inner: Client, spec: Pick<AgentClientSpec<Card, Client, B, never>, "operations" | "gates" | "extendedCardOperation">, check: boolean): Client {
    type Call = (request: unknown, options?: CallOptions) => unknown;
    const methods = inner as unknown as Readonly<Record<string, Call>>;
    const client: Record<string, Call> = {};
    for (const operation of Object.values(spec.operations)) {
      const name = operation.localName;
      const call = methods[name]!.bind(inner);
      const gate = check ? spec.gates[name] : undefined;
      const refuse = (): void => {
        if (gate !== undefined && !this.supports(gate.capability)) {
          throw new gate.error(`${operation.name} was not sent: the agent's card does not declare capabilities.${gate.capability}`);
        }
      };
      if (operation.kind === "unary") {
        const replacesCard = name === spec.extendedCardOperation;
        client[name] = async (request, options) => {
          refuse();
          const result = await (call(request, options) as Promise<unknown>);
          if (replacesCard) this.#card = result as Card;
          return result;
        };
      } else {
        client[name] = async function* (request, options) {
          refuse();
          yield* call(request, options) as AsyncIterable<unknown>;
        };
      }
    }
    return client as unknown as Client;
  }
}

/**
 * Connects to an agent: `source` is the card's URL (an origin alone means its well-known card,
 * `/.well-known/agent-card.json`) or a card already at hand. Fetches the card (GET, `Accept:
 * application/json`), decodes it with the AgentCard schema ignoring unknown fields (§5.7),
 * selects the interface (§8.3.2: the first `supportedInterfaces` entry with a wanted binding
 * and protocol version 1.x; "REST" is read as "HTTP+JSON"), and builds that binding's client
 * with the caller's options and the interface's tenant (the caller's `tenant` only when the
 * interface declares none).
 *
 * Throws {@link AgentConnectError} (never a bare fetch TypeError); an abort of `options.signal`
 * rejects with its reason.
 */
export async function connectAgent<Card extends AgentCardLike, Client, B extends string, O extends AgentConnectOptions<B>>(
  spec: AgentClientSpec<Card, Client, B, O>,
  source: string | URL | Card,
  options?: O,
): Promise<AgentConnection<Card, Client, B>> {
  const opts = (options ?? {}) as O;
  let card: Card;
  let cardUrl: string | undefined;
  if (typeof source === "string" || source instanceof URL) {
    cardUrl = agentCardUrl(source);
    card = await fetchAgentCard<Card>(spec.cardSchema, cardUrl, opts);
  } else {
    card = source;
  }
  const available = Object.keys(spec.bindings) as B[];
  const transports = (opts.transports ?? {}) as Readonly<Record<string, CustomTransportFactory<Client>>>;
  const custom = Object.keys(transports).filter((uri) => !(available as string[]).includes(uri));
  const wanted = (opts.bindings ?? available).filter((b) => available.includes(b));
  if (wanted.length === 0 && custom.length === 0) {
    throw new AgentConnectError("no-matching-interface", `none of the bindings ${JSON.stringify(opts.bindings)} is available in this client (it has ${available.join(", ")})`, { cardUrl });
  }
  const { target, skipped } = selectInterface<B | CustomBindingUri>(card, [...wanted, ...custom], { prefer: opts.prefer, cardUrl, custom });
  if (target === undefined) {
    const declared = card.supportedInterfaces.length === 0 ? "the card declares no supportedInterfaces (an A2A v0.3 card?)" : skipped.join("; ");
    throw new AgentConnectError("no-matching-interface", `no interface of the agent fits bindings ${[...wanted, ...custom].join(", ")} and protocol version 1.x: ${declared}`, { cardUrl });
  }
  const { bindings: _b, prefer: _p, signal: _s, cardTimeoutMs: _c, cardHeaders: _h, checkCapabilities: _g, transports: _t, ...rest } = opts;
  const clientOptions: ConnectClientOptions = { ...rest, tenant: target.tenant !== "" ? target.tenant : opts.tenant };
  let inner: Client;
  if (custom.includes(target.protocolBinding)) {
    inner = transports[target.protocolBinding]!(target, clientOptions);
  } else {
    const factory = spec.bindings[target.protocolBinding as B] as (target: InterfaceTarget<B>, client: ConnectClientOptions, options: O) => Client;
    inner = factory(target as InterfaceTarget<B>, clientOptions, opts);
  }
  const selected: SelectedInterface<B | CustomBindingUri> = {
    url: target.url,
    protocolBinding: target.protocolBinding,
    protocolVersion: target.protocolVersion,
    tenant: target.tenant,
    index: target.index,
  };
  return new AgentConnection<Card, Client, B>(card, selected, inner, spec, opts.checkCapabilities ?? true, cardUrl);
}

/** The card URL of `source`: as given, or the well-known card of a bare origin (§8.2). */
export function agentCardUrl(source: string | URL): string {
  let url: URL;
  try {
    url = new URL(source);
  } catch (e) {
    throw new AgentConnectError("card-fetch-failed", `the card URL ${JSON.stringify(String(source))} is not an absolute URL`, { cause: e });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new AgentConnectError("card-fetch-failed", `the card URL ${url.href} is not http(s)`);
  }
  if (url.pathname === "/" && url.search === "") url.pathname = AGENT_CARD_WELL_KNOWN_PATH;
  return url.href;
}

/** Options of {@link fetchAgentCard}. */
export type FetchAgentCardOptions = Pick<AgentConnectOptions<string>, "fetch" | "signal" | "cardTimeoutMs" | "timeoutMs" | "cardHeaders">;

/**
 * Fetches and decodes an Agent Card (GET `url`, `Accept: application/json`), ignoring unknown
 * fields (§5.7). Failures are {@link AgentConnectError}s; an abort of `options.signal` rejects
 * with its reason.
 */
export async function fetchAgentCard<Card>(schema: DescMessage, url: string, options?: FetchAgentCardOptions): Promise<Card> {
  const doFetch = options?.fetch ?? globalThis.fetch.bind(globalThis);
  const timeoutMs = options?.cardTimeoutMs ?? options?.timeoutMs ?? DEFAULT_CARD_TIMEOUT_MS;
  const { signal, cleanup } = callSignal(options?.signal, timeoutMs);
  let text: string;
  let status: number;
  try {
    const response = await doFetch(url, { method: "GET", headers: { ...options?.cardHeaders, accept: "application/json" }, signal: signal ?? null });
    status = response.status;
    text = await response.text();
  } catch (e) {
    if (options?.signal?.aborted === true) throw options.signal.reason;
    const why = signal?.aborted === true ? `timed out after ${timeoutMs} ms` : e instanceof Error ? e.message : String(e);
    throw new AgentConnectError("card-fetch-failed", `fetching the agent card ${url} failed: ${why}`, { cardUrl: url, cause: e });
  } finally {
    cleanup();
  }
  if (status < 200 || status > 299) {
    throw new AgentConnectError("card-http-status", `fetching the agent card ${url} answered HTTP ${status}`, { cardUrl: url, status });
  }
  let json: JsonValue;
  try {
    json = JSON.parse(text) as JsonValue;
  } catch (e) {
    throw new AgentConnectError("card-malformed", `the agent card at ${url} is not JSON`, { cardUrl: url, cause: e });
  }
  if (json === null || typeof json !== "object" || Array.isArray(json)) {
    throw new AgentConnectError("card-malformed", `the agent card at ${url} is not a JSON object`, { cardUrl: url });
  }
  try {
    return fromJson(schema, json, { ignoreUnknownFields: true }) as Card;
  } catch (e) {
    throw new AgentConnectError("card-malformed", `the agent card at ${url} is not a valid ${schema.typeName}: ${e instanceof Error ? e.message : String(e)}`, { cardUrl: url, cause: e });
  }
}

/** Binding names some cards write for a core binding (ACTS cards say "REST"). */
const BINDING_ALIASES: Readonly<Record<string, string>> = { REST: "HTTP+JSON", "HTTP+JSON": "HTTP+JSON", JSONRPC: "JSONRPC", GRPC: "GRPC" };

/** Options of {@link selectInterface}. */
export interface SelectInterfaceOptions {
  /** See {@link AgentConnectOptions.prefer}. Default "card". */
  readonly prefer?: "card" | "bindings" | undefined;
  /** The card's URL, against which relative HTTP interface URLs resolve. */
  readonly cardUrl?: string | undefined;
  /**
   * Which of `bindings` are custom bindings' URIs: their URL may have any scheme (`wss:`, …;
   * relative ones resolve against the card URL), and `tls` says whether the scheme is a secure one.
   */
  readonly custom?: readonly string[] | undefined;
}

/**
 * The interface to use among `card.supportedInterfaces` (§8.3.2): entries whose binding is in
 * `bindings`, whose `protocolVersion` has major version 1 and whose URL is usable (absolute
 * http(s) for the HTTP bindings, `host:port` or a URL for gRPC); the first of them in the card's
 * order, or in the order of `bindings` with `prefer: "bindings"`. `skipped` says why the others
 * were not taken.
 */
export function selectInterface<B extends string>(card: AgentCardLike, bindings: readonly B[], options?: SelectInterfaceOptions): { target: InterfaceTarget<B> | undefined; skipped: string[] } {
  const skipped: string[] = [];
  const candidates: InterfaceTarget<B>[] = [];
  for (const [index, entry] of card.supportedInterfaces.entries()) {
    const label = `supportedInterfaces[${index}] (${entry.protocolBinding} ${JSON.stringify(entry.url)})`;
    const name = BINDING_ALIASES[entry.protocolBinding.trim().toUpperCase()] ?? entry.protocolBinding;
    const binding = bindings.find((b) => b === name);
    if (binding === undefined) {
      const core = Object.hasOwn(BINDING_ALIASES, entry.protocolBinding.trim().toUpperCase());
      skipped.push(core ? `${label}: binding not wanted` : `${label}: a binding this client does not know (give a transport for ${JSON.stringify(entry.protocolBinding)} to use it)`);
      continue;
    }
    if (majorVersion(entry.protocolVersion) !== 1) {
      skipped.push(`${label}: protocolVersion ${JSON.stringify(entry.protocolVersion)} is not 1.x`);
      continue;
    }
    let address: string | undefined;
    let url = entry.url;
    let tls: boolean | undefined;
    if (options?.custom?.includes(binding) === true) {
      address = anyUrl(entry.url, options.cardUrl);
      if (address !== undefined) url = address;
      tls = address === undefined ? undefined : /^(wss|https|grpcs):/i.test(address) ? true : /^(ws|http|grpc):/i.test(address) ? false : undefined;
    } else if (binding === "GRPC") {
      address = grpcHostPort(entry.url);
      tls = grpcAddressTls(entry.url);
    } else {
      address = httpUrl(entry.url, options?.cardUrl);
      if (address !== undefined) url = address;
    }
    if (address === undefined) {
      skipped.push(`${label}: unusable url`);
      continue;
    }
    candidates.push({ url, protocolBinding: binding, protocolVersion: entry.protocolVersion, tenant: entry.tenant, index, address, tls });
  }
  if (options?.prefer === "bindings") candidates.sort((a, b) => bindings.indexOf(a.protocolBinding) - bindings.indexOf(b.protocolBinding) || a.index - b.index);
  return { target: candidates[0], skipped };
}

/** The major version of "1.0" (1), or undefined when not Major[.Minor[.Patch]]. */
function majorVersion(version: string): number | undefined {
  const m = /^\s*(\d+)(?:\.\d+){0,2}\s*$/.exec(version);
  return m === null ? undefined : Number(m[1]);
}

/** An absolute URL of any scheme (a custom binding's): as declared when absolute, else resolved against the card URL. */
function anyUrl(declared: string, base: string | undefined): string | undefined {
  try {
    new URL(declared);
    return declared.trim();
  } catch {
    if (base === undefined) return undefined;
    try {
      return new URL(declared, base).href;
    } catch {
      return undefined;
    }
  }
}

/** An absolute http(s) URL: as declared when absolute, else resolved against the card URL. */
function httpUrl(declared: string, base: string | undefined): string | undefined {
  let url: URL;
  let absolute = true;
  try {
    url = new URL(declared);
  } catch {
    if (base === undefined) return undefined;
    absolute = false;
    try {
      url = new URL(declared, base);
    } catch {
      return undefined;
    }
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  return absolute ? declared.trim() : url.href;
}
