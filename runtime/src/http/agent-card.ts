// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Agent Card discovery (A2A v1.0 §8): serving the public card at the well-known path
 * with the caching headers of §8.6, a path-prefix dispatcher so one server can carry
 * the card and the binding endpoints, and helpers to build and check
 * `supportedInterfaces` (§8.3) against what is actually mounted.
 *
 * The card is taken in ProtoJSON form, as `toJson(AgentCardSchema, card)` returns it (a JSON
 * object; anything else is a TypeError) — never `JSON.stringify` of the message object
 * (that would write bigint/enum/oneof shapes a client cannot read).
 */
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import type {
  UniversalBufferedResponse,
  UniversalHandler,
  UniversalRequest,
  UniversalResponse,
} from "./universal.js";
import { signAgentCard, type SignAgentCardOptions } from "../card-signature/index.js";
import {
  AGENT_CARD_WELL_KNOWN_PATH,
  CONNECT_PROTOCOL_BINDING,
  GRPC_WEB_PROTOCOL_BINDING,
  grpcHostPort,
  type A2ABindingName,
} from "../protocol/discovery.js";

// The well-known path, the binding names and the gRPC address forms are shared with the
// client side (agent-client.ts), which is emitted even without the HTTP bindings.
export { AGENT_CARD_WELL_KNOWN_PATH, grpcHostPort } from "../protocol/discovery.js";
export type { A2ABindingName } from "../protocol/discovery.js";

/** Options of {@link serveAgentCard}. */
export interface ServeAgentCardOptions {
  /** `Cache-Control: public, max-age=N` (§8.6.1). Default 300 seconds. */
  readonly maxAgeSeconds?: number | undefined;
  /**
   * CORS: `true` (default) answers with `Access-Control-Allow-Origin: *`; `{ origin }`
   * with that origin (and `Vary: Origin`); `false` sends no CORS headers.
   */
  readonly cors?: boolean | { readonly origin: string } | undefined;
  /** The path the card is served at. Default {@link AGENT_CARD_WELL_KNOWN_PATH}. */
  readonly path?: string | undefined;
  /**
   * When the card last changed (e.g. when the agent started): sent as `Last-Modified` (§8.6.1 MAY),
   * and an `If-Modified-Since` at or after it (with no `If-None-Match`) is answered 304. Default: no
   * `Last-Modified` (the ETag serves revalidation).
   */
  readonly lastModified?: Date | undefined;
  /**
   * Serve the card signed (A2A §8.4): `signAgentCard(card, sign)` adds a JWS signature over the
   * card's canonical form (needs the optional peer dependencies `jose` and `canonicalize`). Pass
   * `schema: AgentCardSchema` for the proto normalization the SDKs' verifiers apply.
   */
  readonly sign?: SignAgentCardOptions | undefined;
}

const ALLOWED_METHODS = "GET, HEAD, OPTIONS";

/**
 * Serves `card` (ProtoJSON) at `options.path`:
 *
 * - GET/HEAD → 200, `Content-Type: application/json`, `Cache-Control: public, max-age=N`,
 *   a strong `ETag` (SHA-256 of the body), CORS headers (`ETag` exposed). HEAD gets the
 *   same headers; the adapters/servers drop the body of a HEAD response (node:http does).
 * - `If-None-Match` matching the ETag (weak comparison, lists, `*`) → 304 without body; with
 *   `lastModified`, a `Last-Modified` header, and without `If-None-Match` an `If-Modified-Since`
 *   at or after it → 304 (RFC 9110 §13.1.3, §13.2.2).
 * - OPTIONS → 204 (CORS preflight: allowed methods/headers, max-age).
 * - other methods → 405 with `Allow`; other paths → 404 (so it composes, see {@link composeHandlers}).
 *
 * The body and the ETag are computed once, here — with `sign`, once the card is signed: the
 * signing starts here, the first request waits for it, and the ETag is that of the signed body. A
 * card that cannot be signed (bad key) is answered 500 (and never served unsigned).
 */
export function serveAgentCard(card: JsonValue, options?: ServeAgentCardOptions): UniversalHandler {
  const cardObject = asCardObject(card);
  const path = options?.path ?? AGENT_CARD_WELL_KNOWN_PATH;
  const maxAge = Math.max(0, Math.floor(options?.maxAgeSeconds ?? 300));
  const cors = options?.cors ?? true;
  const corsHeaders: [string, string][] = [];
  if (cors === true) corsHeaders.push(["access-control-allow-origin", "*"]);
  else if (cors !== false)
    corsHeaders.push(["access-control-allow-origin", cors.origin], ["vary", "Origin"]);
  // HTTP dates have whole seconds: the comparison is on the header's own value.
  const lastModifiedS =
    options?.lastModified === undefined
      ? undefined
      : Math.floor(options.lastModified.getTime() / 1000);
  if (lastModifiedS !== undefined && !Number.isFinite(lastModifiedS))
    throw new TypeError("serveAgentCard: lastModified must be a valid Date");
  /** The 200 and 304 answers for the card `served`: the body and its ETag. */
  const prepare = (
    served: JsonObject,
  ): { etag: string; ok: UniversalBufferedResponse; notModified: UniversalBufferedResponse } => {
    const body = new TextEncoder().encode(JSON.stringify(served));
    const etag = `"${base64Url(sha256(body))}"`;
    const cacheHeaders: [string, string][] = [
      ["cache-control", `public, max-age=${maxAge}`],
      ["etag", etag],
      ...corsHeaders,
      ...(cors === false ? [] : [["access-control-expose-headers", "ETag"] as [string, string]]),
    ];
    if (lastModifiedS !== undefined)
      cacheHeaders.push(["last-modified", new Date(lastModifiedS * 1000).toUTCString()]);
    return {
      etag,
      ok: { status: 200, headers: [["content-type", "application/json"], ...cacheHeaders], body },
      notModified: { status: 304, headers: cacheHeaders, body: "" },
    };
  };
  // Signed: signed once, from now (a failure answers 500 to every request); unsigned: ready now.
  const sign = options?.sign;
  const ready = sign === undefined ? prepare(cardObject) : undefined;
  const signed = sign === undefined ? undefined : signAgentCard(cardObject, sign).then(prepare);
  signed?.catch(() => {});
  const notAllowed: UniversalBufferedResponse = {
    status: 405,
    headers: [["allow", ALLOWED_METHODS], ["content-type", "application/json"], ...corsHeaders],
    body: jsonError(405, "METHOD_NOT_ALLOWED", "method not allowed"),
  };
  const notFound: UniversalBufferedResponse = {
    status: 404,
    headers: [["content-type", "application/json"]],
    body: jsonError(404, "NOT_FOUND", "not found"),
  };
  const signingFailed: UniversalBufferedResponse = {
    status: 500,
    headers: [["content-type", "application/json"]],
    body: jsonError(500, "INTERNAL", "the agent card could not be signed"),
  };

  return async function agentCardHandler(request: UniversalRequest): Promise<UniversalResponse> {
    if (request.path !== path) return notFound;
    switch (request.method) {
      case "GET":
      case "HEAD": {
        let answers = ready;
        if (answers === undefined) {
          try {
            answers = await signed!;
          } catch {
            return signingFailed;
          }
        }
        const inm = request.header("if-none-match");
        if (inm !== undefined)
          return ifNoneMatchHits(inm, answers.etag) ? answers.notModified : answers.ok;
        return lastModifiedS !== undefined &&
          notModifiedSince(request.header("if-modified-since"), lastModifiedS)
          ? answers.notModified
          : answers.ok;
      }
      case "OPTIONS":
        return preflightResponse(request, ALLOWED_METHODS, corsHeaders, cors !== false);
      default:
        return notAllowed;
    }
  };
}

/**
 * Whether an `If-None-Match` header value matches `etag` (RFC 9110 §13.1.2: `*`, or a
 * list of entity tags compared weakly, i.e. ignoring `W/`). Malformed members are skipped.
 */
export function ifNoneMatchHits(header: string, etag: string): boolean {
  const opaque = etag.startsWith("W/") ? etag.slice(2) : etag;
  const s = header.trim();
  if (s === "*") return true;
  let i = 0;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (c === 32 || c === 9 || c === 44 /* , */) {
      i++;
      continue;
    }
    let start = i;
    if (s.startsWith("W/", i)) start = i += 2;
    if (s.charCodeAt(i) !== 34 /* " */) {
      // not an entity tag: skip to the next comma
      const next = s.indexOf(",", i);
      if (next < 0) break;
      i = next + 1;
      continue;
    }
    const end = s.indexOf('"', i + 1);
    if (end < 0) break;
    if (s.slice(start, end + 1) === opaque) return true;
    i = end + 1;
  }
  return false;
}

/** One mount of {@link composeHandlers}. */
export interface PrefixedHandler {
  /** A path prefix ("/a2a/jsonrpc", "/.well-known/agent-card.json", "/" for everything). */
  readonly prefix: string;
  readonly handler: UniversalHandler;
}

/**
 * A path-prefix dispatcher: the longest prefix matching the request path (at a segment
 * boundary: "/a2a" matches "/a2a" and "/a2a/x", not "/a2ax") gets the request, path
 * unchanged (the REST server takes its own `basePath`). Nothing matching → 404 JSON.
 * A handler that rejects (against its contract) gets a 500 JSON.
 */
export function composeHandlers(...handlers: PrefixedHandler[]): UniversalHandler {
  const mounts = handlers
    .map((h) => ({
      prefix: h.prefix === "/" ? "" : h.prefix.replace(/\/+$/, ""),
      handler: h.handler,
    }))
    .sort((a, b) => b.prefix.length - a.prefix.length);
  const notFound: UniversalBufferedResponse = {
    status: 404,
    headers: [["content-type", "application/json"]],
    body: jsonError(404, "NOT_FOUND", "not found"),
  };
  return async function composedHandler(request: UniversalRequest): Promise<UniversalResponse> {
    const p = request.path;
    for (const m of mounts) {
      if (
        m.prefix === "" ||
        p === m.prefix ||
        (p.startsWith(m.prefix) && p.charCodeAt(m.prefix.length) === 47) /* / */
      ) {
        try {
          return await m.handler(request);
        } catch {
          return {
            status: 500,
            headers: [["content-type", "application/json"]],
            body: jsonError(500, "INTERNAL", "internal error"),
          };
        }
      }
    }
    return notFound;
  };
}

function jsonError(code: number, status: string, message: string): string {
  return JSON.stringify({ error: { code, status, message } });
}

// ---------------------------------------------------------------------------------------
// supportedInterfaces
// ---------------------------------------------------------------------------------------

/** What a server mounts, for {@link buildSupportedInterfaces} / {@link checkAgentCard}. */
export interface MountedInterfaces {
  /** Public origin (and optional path prefix) the HTTP bindings are reached at, e.g. "https://agent.example.com". */
  readonly baseUrl: string;
  /** JSON-RPC endpoint path under `baseUrl` ("" for `baseUrl` itself); absent = not mounted. */
  readonly jsonRpcPath?: string;
  /** HTTP+JSON base path under `baseUrl`; absent = not mounted. */
  readonly restPath?: string;
  /** gRPC address, `host:port` (a URL is accepted and reduced to `host:port`); absent = not mounted. */
  readonly grpcAddress?: string;
  /**
   * Path under `baseUrl` of the gRPC service's Connect routes (`mountConnectRoutes` of
   * `@protoc-gen-a2a/runtime/grpc`): listed as two custom bindings, gRPC-web and Connect
   * (`GRPC_WEB_PROTOCOL_BINDING`, `CONNECT_PROTOCOL_BINDING`), after the core ones; absent = not mounted.
   */
  readonly connectPath?: string;
  /**
   * Custom bindings of your own (spec §12.7), e.g. one made with `protoc-gen-a2a scaffold-binding`:
   * each its protocolBinding URI (§5.8) and its full endpoint URL (`wss://agent.example.com/a2a/ws`;
   * not joined to `baseUrl`). Listed after the core bindings and gRPC-web/Connect, in this order
   * (unless `order` names them), and checked by {@link checkAgentCard} like those. A binding
   * that is not a URI, names a core binding or comes twice is a TypeError.
   */
  readonly custom?: readonly CustomInterface[];
  /** `AgentInterface.tenant` of every entry; omitted when empty. */
  readonly tenant?: string;
  /** Default "1.0". */
  readonly protocolVersion?: string;
  /**
   * Other protocol versions the core bindings also serve at the same URLs, e.g. `["0.3"]` when A2A 0.3 is
   * served beside 1.0 (`@protoc-gen-a2a/runtime/v0_3`): {@link checkAgentCard} accepts interfaces that declare them.
   */
  readonly additionalVersions?: readonly string[];
  /**
   * Preference order (§8.3.1: first = preferred): core binding names, or URIs of the custom
   * bindings (gRPC-web, Connect, `custom`); mounted bindings missing here follow in the default order.
   */
  readonly order?: readonly (A2ABindingName | (string & {}))[];
}

/** A custom binding's interface, for {@link MountedInterfaces.custom}. */
export interface CustomInterface {
  /** The full endpoint URL, as the card declares it. */
  readonly url: string;
  /** The binding's URI (§5.8), e.g. `https://example.com/bindings/websocket/v1`. */
  readonly protocolBinding: string;
}

/** One `AgentInterface` in ProtoJSON form. */
export type AgentInterfaceJson = {
  url: string;
  /** A core binding's name, or a custom binding's URI (§5.8): gRPC-web, Connect, or one of `MountedInterfaces.custom`. */
  protocolBinding:
    | A2ABindingName
    | typeof GRPC_WEB_PROTOCOL_BINDING
    | typeof CONNECT_PROTOCOL_BINDING
    | (string & {});
  protocolVersion: string;
  tenant?: string;
};

const DEFAULT_ORDER: readonly A2ABindingName[] = ["JSONRPC", "HTTP+JSON", "GRPC"];
/** The custom bindings this runtime serves (checked like the core ones when a card declares them). */
const CUSTOM_BINDINGS = [GRPC_WEB_PROTOCOL_BINDING, CONNECT_PROTOCOL_BINDING] as const;
type KnownBinding = AgentInterfaceJson["protocolBinding"];

/** The URIs of `input.custom`, validated (a URI, not a core binding or the runtime's own, no duplicates). */
function customBindings(input: MountedInterfaces): string[] {
  const out: string[] = [];
  for (const [i, entry] of (input.custom ?? []).entries()) {
    const b = entry.protocolBinding;
    if (!/^[a-z][a-z0-9+.-]*:\S+$/i.test(b))
      throw new TypeError(
        `custom[${i}].protocolBinding ${JSON.stringify(b)} is not a URI (spec §5.8: custom bindings are identified by URI)`,
      );
    if (
      (DEFAULT_ORDER as readonly string[]).includes(b.toUpperCase()) ||
      (CUSTOM_BINDINGS as readonly string[]).includes(b) ||
      out.includes(b)
    ) {
      throw new TypeError(
        `custom[${i}].protocolBinding ${b} is a core binding, the runtime's gRPC-web/Connect binding (connectPath) or listed twice`,
      );
    }
    if (typeof entry.url !== "string" || entry.url === "")
      throw new TypeError(`custom[${i}].url is empty`);
    out.push(b);
  }
  return out;
}

/** The `supportedInterfaces` entries (ProtoJSON) for what is mounted, in preference order. */
export function buildSupportedInterfaces(input: MountedInterfaces): AgentInterfaceJson[] {
  const version = input.protocolVersion ?? "1.0";
  const urls = mountedUrls(input);
  const order: KnownBinding[] = [];
  for (const b of [
    ...(input.order ?? []),
    ...DEFAULT_ORDER,
    ...CUSTOM_BINDINGS,
    ...customBindings(input),
  ])
    if (!order.includes(b)) order.push(b);
  const out: AgentInterfaceJson[] = [];
  for (const binding of order) {
    const url = urls.get(binding);
    if (url === undefined) continue;
    const entry: AgentInterfaceJson = { url, protocolBinding: binding, protocolVersion: version };
    if (input.tenant !== undefined && input.tenant !== "") entry.tenant = input.tenant;
    out.push(entry);
  }
  return out;
}

function mountedUrls(input: MountedInterfaces): Map<KnownBinding, string> {
  const base = input.baseUrl.replace(/\/+$/, "");
  const join = (path: string) =>
    path === "" || path === "/" ? base : base + (path.startsWith("/") ? path : `/${path}`);
  const urls = new Map<KnownBinding, string>();
  if (input.jsonRpcPath !== undefined) urls.set("JSONRPC", join(input.jsonRpcPath));
  if (input.restPath !== undefined) urls.set("HTTP+JSON", join(input.restPath));
  if (input.grpcAddress !== undefined)
    urls.set("GRPC", grpcHostPort(input.grpcAddress) ?? input.grpcAddress);
  if (input.connectPath !== undefined)
    for (const b of CUSTOM_BINDINGS) urls.set(b, join(input.connectPath));
  for (const entry of input.custom ?? []) urls.set(entry.protocolBinding, entry.url);
  return urls;
}

function normalizeHttpUrl(url: string): string {
  try {
    const u = new URL(url);
    u.hash = "";
    return u.href.replace(/\/+$/, "");
  } catch {
    return url.replace(/\/+$/, "");
  }
}

/** One finding of {@link checkAgentCard}. */
export interface AgentCardProblem {
  readonly kind:
    | "missing-field"
    | "not-mounted"
    | "not-declared"
    | "url-mismatch"
    | "tenant-mismatch"
    | "version-mismatch"
    | "grpc-address-form"
    | "malformed-interface";
  /** The card field or the protocol binding concerned. */
  readonly subject: string;
  readonly message: string;
}

/** The card as a JSON object; a TypeError for anything else (the ProtoJSON of an AgentCard is an object). */
function asCardObject(card: JsonValue): JsonObject {
  if (card === null || typeof card !== "object" || Array.isArray(card))
    throw new TypeError("an Agent Card is a JSON object: pass toJson(AgentCardSchema, card)");
  return card;
}

const REQUIRED_STRINGS = ["name", "description", "version"] as const;
const REQUIRED_ARRAYS = [
  "supportedInterfaces",
  "defaultInputModes",
  "defaultOutputModes",
  "skills",
] as const;

/**
 * Checks a ProtoJSON card against what the server mounts (for a startup check):
 * REQUIRED fields missing or empty (name, description, version, supportedInterfaces,
 * capabilities, defaultInputModes, defaultOutputModes, skills — an empty repeated field
 * is absent in ProtoJSON, so an empty `skills` is reported too), interfaces
 * declared but not mounted, mounted bindings not declared, URL/tenant/version mismatches,
 * and a gRPC interface declared as a URL instead of `host:port` (what clients and the TCK
 * dial; §8.5's sample shows a URL). Interfaces of
 * bindings other than the three core ones, the runtime's gRPC-web and Connect and the
 * `custom` ones of `mounted` are not checked. Empty list = all good.
 */
export function checkAgentCard(json: JsonValue, mounted: MountedInterfaces): AgentCardProblem[] {
  const card = asCardObject(json);
  const problems: AgentCardProblem[] = [];
  const field = (camel: string, snake: string): JsonValue | undefined => card[camel] ?? card[snake];
  for (const name of REQUIRED_STRINGS) {
    const v = card[name];
    if (typeof v !== "string" || v === "")
      problems.push({
        kind: "missing-field",
        subject: name,
        message: `REQUIRED field "${name}" is missing or empty`,
      });
  }
  for (const name of REQUIRED_ARRAYS) {
    const v = field(name, snakeCase(name));
    if (!Array.isArray(v) || v.length === 0)
      problems.push({
        kind: "missing-field",
        subject: name,
        message: `REQUIRED field "${name}" is missing or empty`,
      });
  }
  const caps = card["capabilities"];
  if (caps === undefined || caps === null || typeof caps !== "object" || Array.isArray(caps)) {
    problems.push({
      kind: "missing-field",
      subject: "capabilities",
      message: `REQUIRED field "capabilities" is missing`,
    });
  }

  const expected = new Map(buildSupportedInterfaces(mounted).map((e) => [e.protocolBinding, e]));
  const declaredList = field("supportedInterfaces", "supported_interfaces");
  const declared = new Set<string>();
  for (const [i, item] of (Array.isArray(declaredList) ? declaredList : []).entries()) {
    if (item === null || typeof item !== "object" || Array.isArray(item)) {
      problems.push({
        kind: "malformed-interface",
        subject: `supportedInterfaces[${i}]`,
        message: `supportedInterfaces[${i}] is not an object`,
      });
      continue;
    }
    const binding = item["protocolBinding"] ?? item["protocol_binding"];
    const url = item["url"];
    if (typeof binding !== "string" || binding === "" || typeof url !== "string" || url === "") {
      problems.push({
        kind: "malformed-interface",
        subject: `supportedInterfaces[${i}]`,
        message: `supportedInterfaces[${i}] lacks url or protocolBinding`,
      });
      continue;
    }
    if (
      !(DEFAULT_ORDER as readonly string[]).includes(binding) &&
      !(CUSTOM_BINDINGS as readonly string[]).includes(binding) &&
      !expected.has(binding)
    )
      continue;
    const b = binding as KnownBinding;
    declared.add(b);
    const want = expected.get(b);
    if (want === undefined) {
      problems.push({
        kind: "not-mounted",
        subject: b,
        message: `${b} interface ${url} is declared but not mounted`,
      });
      continue;
    }
    if (b === "GRPC") {
      const hp = grpcHostPort(url);
      if (hp === undefined || hp !== grpcHostPort(want.url))
        problems.push({
          kind: "url-mismatch",
          subject: b,
          message: `GRPC interface declares ${url}, mounted at ${want.url}`,
        });
      else if (hp !== url)
        problems.push({
          kind: "grpc-address-form",
          subject: b,
          message: `GRPC interface url ${url} should be written as "${hp}" (host:port)`,
        });
    } else if (normalizeHttpUrl(url) !== normalizeHttpUrl(want.url)) {
      problems.push({
        kind: "url-mismatch",
        subject: b,
        message: `${b} interface declares ${url}, mounted at ${want.url}`,
      });
    }
    const tenant = item["tenant"] ?? "";
    if (tenant !== (want.tenant ?? ""))
      problems.push({
        kind: "tenant-mismatch",
        subject: b,
        message: `${b} interface declares tenant ${JSON.stringify(tenant)}, mounted with ${JSON.stringify(want.tenant ?? "")}`,
      });
    const version = item["protocolVersion"] ?? item["protocol_version"] ?? "";
    if (
      version !== want.protocolVersion &&
      !(typeof version === "string" && (mounted.additionalVersions ?? []).includes(version))
    )
      problems.push({
        kind: "version-mismatch",
        subject: b,
        message: `${b} interface declares protocolVersion ${JSON.stringify(version)}, server speaks ${want.protocolVersion}`,
      });
  }
  for (const [b, want] of expected) {
    if (!declared.has(b))
      problems.push({
        kind: "not-declared",
        subject: b,
        message: `${b} is mounted at ${want.url} but not declared in supportedInterfaces`,
      });
  }
  return problems;
}

function snakeCase(s: string): string {
  return s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

// ---------------------------------------------------------------------------------------
// SHA-256 (FIPS 180-4), synchronous, so the ETag is ready before the first request in
// any runtime without node:crypto or an awaited crypto.subtle.
// ---------------------------------------------------------------------------------------

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** SHA-256 digest of `data`. */
export function sha256(data: Uint8Array): Uint8Array {
  const bitLen = data.length * 8;
  const padded = new Uint8Array(((data.length + 9 + 63) >> 6) << 6);
  padded.set(data);
  padded[data.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bitLen / 0x100000000));
  view.setUint32(padded.length - 4, bitLen >>> 0);
  const h = new Uint32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  const w = new Uint32Array(64);
  for (let off = 0; off < padded.length; off += 64) {
    for (let t = 0; t < 16; t++) w[t] = view.getUint32(off + t * 4);
    for (let t = 16; t < 64; t++) {
      const a = w[t - 15]!;
      const b = w[t - 2]!;
      const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
      const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
      w[t] = (w[t - 16]! + s0 + w[t - 7]! + s1) | 0;
    }
    let a = h[0]!,
      b = h[1]!,
      c = h[2]!,
      d = h[3]!,
      e = h[4]!,
      f = h[5]!,
      g = h[6]!,
      hh = h[7]!;
    for (let t = 0; t < 64; t++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const ch = (e & f) ^ (~e & g);
      const t1 = (hh + S1 + ch + K[t]! + w[t]!) | 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (S0 + maj) | 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h[0] = h[0]! + a;
    h[1] = h[1]! + b;
    h[2] = h[2]! + c;
    h[3] = h[3]! + d;
    h[4] = h[4]! + e;
    h[5] = h[5]! + f;
    h[6] = h[6]! + g;
    h[7] = h[7]! + hh;
  }
  const out = new Uint8Array(32);
  const ov = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) ov.setUint32(i * 4, h[i]!);
  return out;
}

const B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** `bytes` in base64url without padding (RFC 4648 §5), as the ETags write a digest. */
export function base64Url(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = i + 2 < bytes.length ? 4 : i + 1 < bytes.length ? 3 : 2;
    for (let j = 0; j < chars; j++) out += B64URL[(n >> (18 - 6 * j)) & 63];
  }
  return out;
}

/**
 * The 204 answer to an OPTIONS request of a read-only resource (card, API documents): `Allow`,
 * and with CORS on the preflight's allowed methods, max age and the requested headers.
 */
export function preflightResponse(
  request: UniversalRequest,
  allowed: string,
  corsHeaders: readonly [string, string][],
  cors: boolean,
): UniversalBufferedResponse {
  const headers: [string, string][] = [["allow", allowed], ...corsHeaders];
  if (cors) {
    headers.push(["access-control-allow-methods", allowed], ["access-control-max-age", "86400"]);
    const requested = request.header("access-control-request-headers");
    if (requested !== undefined && requested.trim() !== "")
      headers.push(["access-control-allow-headers", requested]);
  }
  return { status: 204, headers, body: "" };
}

/** An `If-Modified-Since` that is a valid HTTP date at or after `lastModifiedS` (an invalid date is ignored, RFC 9110 §13.1.3). */
function notModifiedSince(header: string | undefined, lastModifiedS: number): boolean {
  if (header === undefined) return false;
  const since = Date.parse(header);
  return Number.isFinite(since) && Math.floor(since / 1000) >= lastModifiedS;
}
