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
import type { A2AErrorOptions } from "../errors/a2a-error.js";
import { callSignal, type CallOptions, type ClientOptions } from "./call-options.js";
import {
  AGENT_CARD_WELL_KNOWN_PATH,
  grpcAddressTls,
  grpcHostPort,
  type A2ABindingName,
} from "../protocol/discovery.js";
import type { OperationDescriptor } from "../protocol/operation.js";
import { verifyCardForConnection, type VerifyAgentCardOptions } from "../card-signature/index.js";
import type { ResumableStreamClientOptions } from "../http/stream-resume.js";
import { InterfaceFailover, type FailoverCandidate, type FailoverOptions } from "./failover.js";
import type { InterfaceHealthState } from "./interface-health.js";
import { agentCardFromV03 } from "../v0_3/translate/agent-card.js";

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
  | "no-matching-interface"
  /** `verifyCard` is set and the card's signatures do not verify (§8.4.3); `cause` is the AgentCardSignatureError. */
  | "card-signature";

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
  constructor(
    reason: AgentConnectErrorReason,
    message: string,
    options?: AgentConnectErrorOptions,
  ) {
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
export type CustomTransportFactory<Client> = (
  target: InterfaceTarget<CustomBindingUri>,
  options: ConnectClientOptions,
) => Client;

/**
 * Options of {@link connectAgent}: how to fetch the card and choose the interface, plus the client's options
 * (`resumeStreams` is for the HTTP bindings' clients, JSONRPC and HTTP+JSON; the gRPC client does not resume).
 */
export interface AgentConnectOptions<B extends string = A2ABindingName, Client = unknown>
  extends ClientOptions,
    ResumableStreamClientOptions {
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
   * Verify the card's JWS signatures (A2A §8.4) before any interface is used: the fetched card (as
   * received, with the AgentCard schema's normalization) and a card passed in. A card without a
   * signature that verifies with these keys is refused: AgentConnectError "card-signature", its
   * `cause` the AgentCardSignatureError (`reason`: unsigned, bad-signature, unknown-key, …). Needs
   * the optional peer dependencies `jose` and `canonicalize`.
   */
  readonly verifyCard?: VerifyAgentCardOptions | undefined;
  /**
   * Refuse, locally and without a request, the operations whose capability the card does not
   * declare `true` (streaming, push notifications, extended card). Default true.
   */
  readonly checkCapabilities?: boolean | undefined;
  /**
   * Failover across the card's interfaces (A2A §5.2; see failover.ts). On by default: every usable
   * interface (see {@link selectInterfaces}) is a candidate, in order; a call goes to the first healthy
   * one and, after a failure that is safe to retry (nothing reached the agent, or an idempotent
   * operation met a transport failure), to the next; a failed interface is avoided for a backoff
   * (1 s, doubling, at most 30 s), then tried again. A stream cut after events continues with
   * SubscribeToTask on the next interface. A2A errors are answers, never failed over. `false`: the
   * first usable interface only, as without failover.
   */
  readonly failover?: false | FailoverOptions | undefined;
  /**
   * The A2A protocol versions the connection may use, in order of preference: "1.0" stands for every 1.x
   * interface, "0.3" for 0.3 (0.3.x) ones, which need the generated `v03Bindings`. Default: the 1.x interfaces,
   * and the 0.3 ones only when the card has no usable 1.x interface (a 0.3-only agent). `["1.0"]`: never 0.3
   * (spec §3.6: a client that needs newer features MUST NOT downgrade automatically; a 0.3-only agent fails with
   * AgentConnectError "no-matching-interface"). `["1.0", "0.3"]`: both, 1.x first; failover may then move between
   * them. `connection.interface.protocolVersion` says which was chosen.
   */
  readonly protocolVersions?: readonly string[] | undefined;
}

/** The client options a binding's factory gets: the caller's, with the interface's tenant, the fetch and `resumeStreams`. */
export interface ConnectClientOptions extends ClientOptions, ResumableStreamClientOptions {
  /** The caller's fetch (HTTP bindings). */
  readonly fetch?: typeof globalThis.fetch | undefined;
}

/** What the generated agent client file hands {@link connectAgent}: the proto-specific pieces. */
export interface AgentClientSpec<
  Card extends AgentCardLike,
  Client,
  B extends string,
  O extends AgentConnectOptions<B>,
> {
  /** The generated `AgentCardSchema`; `$card` only carries the type of its messages. */
  readonly cardSchema: DescMessage & { readonly $card?: Card };
  /** The operation table (`<Service>Operations`): the methods of `Client`. */
  readonly operations: Readonly<Record<string, OperationDescriptor>>;
  /** One factory per emitted binding, in the default preference order. */
  readonly bindings: {
    readonly [K in B]: (
      target: InterfaceTarget<K>,
      client: ConnectClientOptions,
      options: O,
    ) => Client;
  };
  /** Capability gates by operation `localName`. */
  readonly gates: Readonly<Record<string, CapabilityGate>>;
  /** `localName` of the operation returning the extended card, which replaces the connection's card. */
  readonly extendedCardOperation: string;
  /**
   * Clients of A2A 0.3 interfaces, by binding: the same 1.0 `Client` over the 0.3 wire (`createV03JsonRpcClient`,
   * `createV03ProtoClient` of `@protoc-gen-a2a/runtime/v0_3/client`). Without one, a binding's 0.3 interfaces are
   * not usable (see {@link AgentConnectOptions.protocolVersions}).
   */
  readonly v03Bindings?:
    | {
        readonly [K in B]?: (
          target: InterfaceTarget<K>,
          client: ConnectClientOptions,
          options: O,
        ) => Client;
      }
    | undefined;
}

/**
 * A client connected to an agent through its card: `client` calls the selected interface,
 * refusing gated operations the (current) card does not declare.
 */
export class AgentConnection<
  Card extends AgentCardLike,
  Client,
  B extends string = A2ABindingName,
> {
  /**
   * The client: the generated client of the binding, behind the capability gates; with failover
   * (the default), a client over every candidate interface that fails over between them.
   */
  readonly client: Client;
  /** Where the card was fetched from; undefined for a card passed in. */
  readonly cardUrl: string | undefined;
  #card: Card;
  readonly #selected: SelectedInterface<B | CustomBindingUri>;
  readonly #failover: InterfaceFailover<Client> | undefined;

  /** Use {@link connectAgent}. */
  constructor(
    card: Card,
    selected: SelectedInterface<B | CustomBindingUri>,
    inner: Client,
    spec: Pick<
      AgentClientSpec<Card, Client, B, never>,
      "operations" | "gates" | "extendedCardOperation"
    >,
    checkCapabilities: boolean,
    cardUrl: string | undefined,
    failover?: InterfaceFailover<Client>,
  ) {
    this.#card = card;
    this.#selected = selected;
    this.#failover = failover;
    this.cardUrl = cardUrl;
    this.client = this.#gate(failover?.client ?? inner, spec, checkCapabilities);
  }

  /**
   * The interface `client` talks to (a custom binding's URI when connected through `transports`).
   * With failover: the interface the next call goes to first, i.e. the first candidate (card order)
   * that is not backing off after a failure; it changes as interfaces fail and recover. Without:
   * the interface selected at connect time.
   */
  get interface(): SelectedInterface<B | CustomBindingUri> {
    return (
      (this.#failover?.activeInterface() as SelectedInterface<B | CustomBindingUri> | undefined) ??
      this.#selected
    );
  }

  /** The candidate interfaces, in the order they are tried (one, the selected interface, without failover). */
  get interfaces(): readonly SelectedInterface<B | CustomBindingUri>[] {
    return (
      (this.#failover?.interfaces as
        | readonly SelectedInterface<B | CustomBindingUri>[]
        | undefined) ?? [this.#selected]
    );
  }

  /** The health of each of {@link interfaces} now (all healthy without failover). */
  interfaceHealth(): InterfaceHealthState[] {
    return this.#failover?.health() ?? [{ candidate: 0, available: true, failures: 0, retryAt: 0 }];
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

  #gate(
    inner: Client,
    spec: Pick<
      AgentClientSpec<Card, Client, B, never>,
      "operations" | "gates" | "extendedCardOperation"
    >,
    check: boolean,
  ): Client {
    type Call = (request: unknown, options?: CallOptions) => unknown;
    const methods = inner as unknown as Readonly<Record<string, Call>>;
    const client: Record<string, Call> = {};
    for (const operation of Object.values(spec.operations)) {
      const name = operation.localName;
      const call = methods[name]!.bind(inner);
      const gate = check ? spec.gates[name] : undefined;
      const refuse = (): void => {
        if (gate !== undefined && !this.supports(gate.capability)) {
          throw new gate.error(
            `${operation.name} was not sent: the agent's card does not declare capabilities.${gate.capability}`,
          );
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
 * interface declares none). With `failover` (the default), the other usable interfaces are
 * candidates too ({@link selectInterfaces}, in the same order): their clients are built at first
 * use, and `connection.client` moves a call to the next one when its interface fails in a way that
 * is safe to retry (failover.ts). The card's interfaces are not probed at connect time: when the
 * first is down, the first call fails over.
 *
 * Throws {@link AgentConnectError} (never a bare fetch TypeError); an abort of `options.signal`
 * rejects with its reason.
 */
export async function connectAgent<
  Card extends AgentCardLike,
  Client,
  B extends string,
  O extends AgentConnectOptions<B>,
>(
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
    if (opts.verifyCard !== undefined)
      await verifyCardForConnection(
        card,
        spec.cardSchema,
        opts.verifyCard,
        (m, cause) => new AgentConnectError("card-signature", `the agent card ${m}`, { cause }),
      );
  }
  const available = Object.keys(spec.bindings) as B[];
  const transports = (opts.transports ?? {}) as Readonly<
    Record<string, CustomTransportFactory<Client>>
  >;
  const custom = Object.keys(transports).filter((uri) => !(available as string[]).includes(uri));
  const wanted = (opts.bindings ?? available).filter((b) => available.includes(b));
  if (wanted.length === 0 && custom.length === 0) {
    throw new AgentConnectError(
      "no-matching-interface",
      `none of the bindings ${JSON.stringify(opts.bindings)} is available in this client (it has ${available.join(", ")})`,
      { cardUrl },
    );
  }
  const v03Bindings = Object.keys(spec.v03Bindings ?? {}).filter((b) =>
    (wanted as string[]).includes(b),
  );
  const protocolVersions = opts.protocolVersions;
  const { targets, skipped } = selectInterfaces<B | CustomBindingUri>(
    card,
    [...wanted, ...custom],
    { prefer: opts.prefer, cardUrl, custom, protocolVersions, v03Bindings },
  );
  const target = targets[0];
  if (target === undefined) {
    const declared =
      card.supportedInterfaces.length === 0
        ? "the card declares no supportedInterfaces (an A2A v0.3 card?)"
        : skipped.join("; ");
    const only03 =
      card.supportedInterfaces.length > 0 &&
      card.supportedInterfaces.every((i) => protocolFamily(i.protocolVersion) === "0.3");
    if (
      only03 &&
      protocolVersions !== undefined &&
      !protocolVersions.some((v) => protocolFamily(v) === "0.3")
    ) {
      throw new AgentConnectError(
        "no-matching-interface",
        `the agent only offers A2A 0.3 interfaces, and protocolVersions ${JSON.stringify(protocolVersions)} does not allow 0.3 (spec §3.6: a client does not downgrade automatically; add "0.3" to protocolVersions to use them): ${declared}`,
        { cardUrl },
      );
    }
    if (only03 && v03Bindings.length === 0) {
      throw new AgentConnectError(
        "no-matching-interface",
        `the agent only offers A2A 0.3 interfaces (an A2A 0.3 card has no supportedInterfaces: they are read from its url and additionalInterfaces), and this client has no A2A 0.3 client for bindings ${wanted.join(", ")} (AgentClientSpec.v03Bindings): ${declared}`,
        { cardUrl },
      );
    }
    const versions =
      protocolVersions === undefined
        ? "protocol version 1.x (or 0.3 for a 0.3-only agent)"
        : `protocolVersions ${JSON.stringify(protocolVersions)}`;
    throw new AgentConnectError(
      "no-matching-interface",
      `no interface of the agent fits bindings ${[...wanted, ...custom].join(", ")} and ${versions}: ${declared}`,
      { cardUrl },
    );
  }
  const {
    bindings: _b,
    prefer: _p,
    signal: _s,
    cardTimeoutMs: _c,
    cardHeaders: _h,
    checkCapabilities: _g,
    transports: _t,
    failover: _f,
    protocolVersions: _v,
    ...rest
  } = opts;
  /** The client of one interface, with its tenant (the caller's only when it declares none). */
  const connect = (target: InterfaceTarget<B | CustomBindingUri>): Client => {
    const clientOptions: ConnectClientOptions = {
      ...rest,
      tenant: target.tenant !== "" ? target.tenant : opts.tenant,
    };
    if (custom.includes(target.protocolBinding))
      return transports[target.protocolBinding]!(target, clientOptions);
    if (protocolFamily(target.protocolVersion) === "0.3") {
      const v03 = spec.v03Bindings?.[target.protocolBinding as B] as
        | ((target: InterfaceTarget<B>, client: ConnectClientOptions, options: O) => Client)
        | undefined;
      if (v03 === undefined)
        throw new AgentConnectError(
          "no-matching-interface",
          `no A2A 0.3 client for ${target.protocolBinding}`,
          { cardUrl },
        );
      return v03(target as InterfaceTarget<B>, clientOptions, opts);
    }
    const factory = spec.bindings[target.protocolBinding as B] as (
      target: InterfaceTarget<B>,
      client: ConnectClientOptions,
      options: O,
    ) => Client;
    return factory(target as InterfaceTarget<B>, clientOptions, opts);
  };
  const selectedOf = (
    target: InterfaceTarget<B | CustomBindingUri>,
  ): SelectedInterface<B | CustomBindingUri> => ({
    url: target.url,
    protocolBinding: target.protocolBinding,
    protocolVersion: target.protocolVersion,
    tenant: target.tenant,
    index: target.index,
  });
  // The first interface's client is built now (a factory's error is the caller's at connect time), the others at their first use.
  const inner = connect(target);
  let failover: InterfaceFailover<Client> | undefined;
  if (opts.failover !== false) {
    const candidates: FailoverCandidate<Client>[] = targets.map((t, n) => ({
      interface: selectedOf(t),
      connect: n === 0 ? () => inner : () => connect(t),
    }));
    failover = new InterfaceFailover<Client>(candidates, spec.operations, opts.failover);
  }
  return new AgentConnection<Card, Client, B>(
    card,
    selectedOf(target),
    inner,
    spec,
    opts.checkCapabilities ?? true,
    cardUrl,
    failover,
  );
}

/** The card URL of `source`: as given, or the well-known card of a bare origin (§8.2). */
export function agentCardUrl(source: string | URL): string {
  let url: URL;
  try {
    url = new URL(source);
  } catch (e) {
    throw new AgentConnectError(
      "card-fetch-failed",
      `the card URL ${JSON.stringify(String(source))} is not an absolute URL`,
      { cause: e },
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new AgentConnectError("card-fetch-failed", `the card URL ${url.href} is not http(s)`);
  }
  if (url.pathname === "/" && url.search === "") url.pathname = AGENT_CARD_WELL_KNOWN_PATH;
  return url.href;
}

/** Options of {@link fetchAgentCard}. */
export type FetchAgentCardOptions = Pick<
  AgentConnectOptions<string>,
  "fetch" | "signal" | "cardTimeoutMs" | "timeoutMs" | "cardHeaders" | "verifyCard"
>;

/**
 * Fetches and decodes an Agent Card (GET `url`, `Accept: application/json`), ignoring unknown
 * fields (§5.7). Failures are {@link AgentConnectError}s; an abort of `options.signal` rejects
 * with its reason.
 */
export async function fetchAgentCard<Card>(
  schema: DescMessage,
  url: string,
  options?: FetchAgentCardOptions,
): Promise<Card> {
  const doFetch = options?.fetch ?? globalThis.fetch.bind(globalThis);
  const timeoutMs = options?.cardTimeoutMs ?? options?.timeoutMs ?? DEFAULT_CARD_TIMEOUT_MS;
  const { signal, cleanup } = callSignal(options?.signal, timeoutMs);
  let text: string;
  let status: number;
  try {
    const response = await doFetch(url, {
      method: "GET",
      headers: { "a2a-version": "1.0", ...options?.cardHeaders, accept: "application/json" },
      signal: signal ?? null,
    });
    status = response.status;
    text = await response.text();
  } catch (e) {
    if (options?.signal?.aborted === true) throw options.signal.reason;
    const why =
      signal?.aborted === true
        ? `timed out after ${timeoutMs} ms`
        : e instanceof Error
          ? e.message
          : String(e);
    throw new AgentConnectError(
      "card-fetch-failed",
      `fetching the agent card ${url} failed: ${why}`,
      { cardUrl: url, cause: e },
    );
  } finally {
    cleanup();
  }
  if (status < 200 || status > 299) {
    throw new AgentConnectError(
      "card-http-status",
      `fetching the agent card ${url} answered HTTP ${status}`,
      { cardUrl: url, status },
    );
  }
  let json: JsonValue;
  try {
    json = JSON.parse(text) as JsonValue;
  } catch (e) {
    throw new AgentConnectError("card-malformed", `the agent card at ${url} is not JSON`, {
      cardUrl: url,
      cause: e,
    });
  }
  if (json === null || typeof json !== "object" || Array.isArray(json)) {
    throw new AgentConnectError("card-malformed", `the agent card at ${url} is not a JSON object`, {
      cardUrl: url,
    });
  }
  if (options?.verifyCard !== undefined) {
    await verifyCardForConnection(
      json,
      schema,
      options.verifyCard,
      (m, cause) =>
        new AgentConnectError("card-signature", `the agent card at ${url} ${m}`, {
          cardUrl: url,
          cause,
        }),
    );
  }
  if (isV03OnlyCard(json)) {
    // An A2A 0.3 agent's card: its url / preferredTransport / additionalInterfaces become supportedInterfaces at protocolVersion "0.3".
    try {
      json = agentCardFromV03(json);
    } catch (e) {
      throw new AgentConnectError(
        "card-malformed",
        `the agent card at ${url} (an A2A 0.3 card) is not valid: ${e instanceof Error ? e.message : String(e)}`,
        { cardUrl: url, cause: e },
      );
    }
  }
  try {
    return fromJson(schema, json, { ignoreUnknownFields: true }) as Card;
  } catch (e) {
    throw new AgentConnectError(
      "card-malformed",
      `the agent card at ${url} is not a valid ${schema.typeName}: ${e instanceof Error ? e.message : String(e)}`,
      { cardUrl: url, cause: e },
    );
  }
}

/**
 * Whether a card's JSON is an A2A 0.3 card only: no (or an empty) `supportedInterfaces`, and 0.3's endpoint
 * fields (`url`, `additionalInterfaces`). A hybrid card (both field sets) is read as the 1.0 card it also is.
 */
function isV03OnlyCard(json: { readonly [key: string]: JsonValue }): boolean {
  const interfaces = json["supportedInterfaces"];
  if (Array.isArray(interfaces) && interfaces.length > 0) return false;
  return typeof json["url"] === "string" || Array.isArray(json["additionalInterfaces"]);
}

/** Binding names some cards write for a core binding (ACTS cards say "REST"). */
const BINDING_ALIASES: Readonly<Record<string, string>> = {
  REST: "HTTP+JSON",
  "HTTP+JSON": "HTTP+JSON",
  JSONRPC: "JSONRPC",
  GRPC: "GRPC",
};

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
  /** See {@link AgentConnectOptions.protocolVersions}; the version filter is {@link filterProtocolVersions}. */
  readonly protocolVersions?: readonly string[] | undefined;
  /** Which of `bindings` have an A2A 0.3 client (the spec's `v03Bindings`): their 0.3 interfaces are usable. Default none. */
  readonly v03Bindings?: readonly string[] | undefined;
}

/**
 * The interface to use among `card.supportedInterfaces` (§8.3.2): the first of
 * {@link selectInterfaces}' candidates. `skipped` says why the other entries were not usable.
 */
export function selectInterface<B extends string>(
  card: AgentCardLike,
  bindings: readonly B[],
  options?: SelectInterfaceOptions,
): { target: InterfaceTarget<B> | undefined; skipped: string[] } {
  const { targets, skipped } = selectInterfaces(card, bindings, options);
  return { target: targets[0], skipped };
}

/**
 * The usable interfaces among `card.supportedInterfaces`, in the order a client tries them (the
 * candidates of failover; the first is the one §8.3.2 selects): entries whose binding is in
 * `bindings`, whose `protocolVersion` is 1.x (or 0.3, for the `v03Bindings`) and whose URL is usable
 * (absolute http(s) for the HTTP bindings, `host:port` or a URL for gRPC); in the card's order, or in the
 * order of `bindings` with `prefer: "bindings"`; then filtered and grouped by protocol version
 * ({@link filterProtocolVersions}: by default 1.x only, 0.3 only when no 1.x interface is usable).
 * `skipped` says why the other entries were not taken. The one place that decides which interfaces a
 * connection may use.
 */
export function selectInterfaces<B extends string>(
  card: AgentCardLike,
  bindings: readonly B[],
  options?: SelectInterfaceOptions,
): { targets: InterfaceTarget<B>[]; skipped: string[] } {
  const skipped: string[] = [];
  const candidates: InterfaceTarget<B>[] = [];
  for (const [index, entry] of card.supportedInterfaces.entries()) {
    const label = `supportedInterfaces[${index}] (${entry.protocolBinding} ${JSON.stringify(entry.url)})`;
    const name =
      BINDING_ALIASES[entry.protocolBinding.trim().toUpperCase()] ?? entry.protocolBinding;
    const binding = bindings.find((b) => b === name);
    if (binding === undefined) {
      const core = Object.hasOwn(BINDING_ALIASES, entry.protocolBinding.trim().toUpperCase());
      skipped.push(
        core
          ? `${label}: binding not wanted`
          : `${label}: a binding this client does not know (give a transport for ${JSON.stringify(entry.protocolBinding)} to use it)`,
      );
      continue;
    }
    const family = protocolFamily(entry.protocolVersion);
    if (family !== "1" && family !== "0.3") {
      skipped.push(
        `${label}: protocolVersion ${JSON.stringify(entry.protocolVersion)} is not 1.x (or 0.3)`,
      );
      continue;
    }
    if (
      family === "0.3" &&
      (options?.custom?.includes(binding) === true ||
        options?.v03Bindings?.includes(binding) !== true)
    ) {
      skipped.push(
        `${label}: protocolVersion ${JSON.stringify(entry.protocolVersion)}: this client has no A2A 0.3 client for ${binding}`,
      );
      continue;
    }
    let address: string | undefined;
    let url = entry.url;
    let tls: boolean | undefined;
    if (options?.custom?.includes(binding) === true) {
      address = anyUrl(entry.url, options.cardUrl);
      if (address !== undefined) url = address;
      tls =
        address === undefined
          ? undefined
          : /^(wss|https|grpcs):/i.test(address)
            ? true
            : /^(ws|http|grpc):/i.test(address)
              ? false
              : undefined;
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
    candidates.push({
      url,
      protocolBinding: binding,
      protocolVersion: entry.protocolVersion,
      tenant: entry.tenant,
      index,
      address,
      tls,
    });
  }
  if (options?.prefer === "bindings")
    candidates.sort(
      (a, b) =>
        bindings.indexOf(a.protocolBinding) - bindings.indexOf(b.protocolBinding) ||
        a.index - b.index,
    );
  const versions = filterProtocolVersions(candidates, options?.protocolVersions);
  return { targets: versions.targets, skipped: [...skipped, ...versions.skipped] };
}

/**
 * The protocol version policy of connections (see {@link AgentConnectOptions.protocolVersions}): of the
 * usable `candidates` (in the order they would be tried), those whose version `protocolVersions` allows,
 * grouped by the entry of `protocolVersions` they match (in its order), each group in the candidates'
 * order. Default (undefined): the 1.x candidates; the 0.3 ones only when there is no 1.x candidate.
 * "1.0" matches every 1.x version, "0.3" every 0.3.x. {@link selectInterfaces} applies it, so failover's
 * candidates only span versions the caller allowed. `skipped` says which candidates it left out.
 */
export function filterProtocolVersions<
  T extends Pick<
    SelectedInterface<string>,
    "protocolVersion" | "protocolBinding" | "url" | "index"
  >,
>(
  candidates: readonly T[],
  protocolVersions: readonly string[] | undefined,
): { targets: T[]; skipped: string[] } {
  const families = candidates.map((c) => protocolFamily(c.protocolVersion));
  const allowed =
    protocolVersions === undefined
      ? [families.includes("1") ? "1" : "0.3"]
      : [
          ...new Set(
            protocolVersions.map(protocolFamily).filter((f): f is string => f !== undefined),
          ),
        ];
  const targets: T[] = [];
  const skipped: string[] = [];
  for (const family of allowed)
    targets.push(...candidates.filter((_, n) => families[n] === family));
  for (const [n, c] of candidates.entries()) {
    if (families[n] !== undefined && allowed.includes(families[n])) continue;
    const why =
      protocolVersions === undefined
        ? "A2A 0.3 is used only when the card has no usable 1.x interface (protocolVersions)"
        : `not allowed by protocolVersions ${JSON.stringify(protocolVersions)}`;
    skipped.push(
      `supportedInterfaces[${c.index}] (${c.protocolBinding} ${JSON.stringify(c.url)}): protocolVersion ${JSON.stringify(c.protocolVersion)} ${why}`,
    );
  }
  return { targets, skipped };
}

/** The version family of an A2A protocol version: the major version from 1 on ("1.0", "1.2" → "1"), major.minor below ("0.3.0" → "0.3"). */
function protocolFamily(version: string): string | undefined {
  const m = /^\s*(\d+)(?:\.(\d+))?(?:\.\d+)?\s*$/.exec(version);
  if (m === null) return undefined;
  const major = Number(m[1]);
  return major >= 1 ? String(major) : `${major}.${Number(m[2] ?? 0)}`;
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
