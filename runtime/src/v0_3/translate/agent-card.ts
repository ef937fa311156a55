// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * `AgentCard` between 1.0 and 0.3 (JSON-RPC card as served at `/.well-known/agent-card.json`, and the 0.3 proto's
 * card of `GetAgentCard`), plus a hybrid card that carries both field sets.
 *
 * Differences and documented choices:
 * - Endpoints: 0.3 has `url` + `preferredTransport` + `additionalInterfaces[{url, transport}]` and a card-level
 *   `protocolVersion` ("0.3.0"); 1.0 has `supportedInterfaces[{url, protocolBinding, tenant?, protocolVersion}]`.
 *   To 0.3 the first 0.3 interface is the main one and `additionalInterfaces` lists them all, the main one included
 *   (the 0.3 spec's SHOULD). From 0.3 every interface becomes a `supportedInterfaces` entry with
 *   `protocolVersion` "0.3" (also for a card saying "0.2.x", whose wire is the same), duplicates of the main one removed.
 * - `supportsAuthenticatedExtendedCard` ⇄ `capabilities.extendedAgentCard`.
 * - 0.3 `capabilities.stateTransitionHistory` has no 1.0 field and is dropped; 1.0 `tenant` is dropped; the 0.3
 *   proto's card has no `iconUrl` (its JSON Schema has), so it is dropped on the 0.3 proto wire.
 * - Security schemes: 0.3 JSON-RPC uses the OpenAPI shape (`{type: "apiKey", in, name}` …); 1.0 and the 0.3 proto
 *   use the oneof shape (`{apiKeySecurityScheme: {location, name}}` …). 1.0's `deviceCode` OAuth flow and
 *   `pkceRequired` have no 0.3 field and are dropped.
 * - Security requirements: 0.3 JSON-RPC `security: [{name: [scopes]}]`, 0.3 proto `security: [{schemes: {name:
 *   {list}}}]`, 1.0 `securityRequirements: [{schemes: {name: {list}}}]` (also on skills).
 * - Required 0.3 fields missing in 1.0 are written empty (`""`, `[]`).
 */
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import {
  asObject,
  cloneJson,
  setKey,
  isObject,
  join,
  mapArray,
  optBool,
  optNonEmptyString,
  optObject,
  optString,
  optStringArray,
  optStruct,
  put,
  putNonEmpty,
  reqString,
  type Out,
} from "./json.js";
import { V03TranslationError } from "./translation-error.js";

/** A 0.3 interface: URL and transport (`JSONRPC`, `GRPC`, `HTTP+JSON`). */
export interface V03Interface {
  /** Endpoint URL. */
  readonly url: string;
  /** 0.3 transport name, e.g. `"JSONRPC"`. */
  readonly transport: string;
}

/** Options of {@link agentCardToV03} and {@link agentCardToV03Proto}. */
export interface AgentCardToV03Options {
  /**
   * The 0.3 interfaces, main one first. Default: the card's `supportedInterfaces` whose `protocolVersion` is 0.3
   * (`0.3` or `0.3.x`).
   */
  readonly interfaces?: readonly V03Interface[];
  /** The card-level 0.3 `protocolVersion`; default `"0.3.0"`. */
  readonly protocolVersion?: string;
}

const OAUTH_FLOWS = ["authorizationCode", "clientCredentials", "implicit", "password"] as const;
const OAUTH_FLOW_FIELDS = ["authorizationUrl", "tokenUrl", "refreshUrl"] as const;

/** Copies an OAuth flow (same field names in every shape; `pkceRequired` and unknown fields dropped). */
function oauthFlow(value: JsonValue, path: string, toV03Rpc: boolean): JsonObject {
  const flow = asObject(value, path);
  const out: Out = {};
  for (const f of OAUTH_FLOW_FIELDS) put(out, f, optNonEmptyString(flow, f, path));
  const scopes = optObject(flow, "scopes", path);
  if (scopes !== undefined || toV03Rpc)
    out["scopes"] = cloneJson(scopes ?? {}, join(path, "scopes"));
  return out;
}

/** Copies `OAuthFlows` (0.3 has no `deviceCode`: dropped). */
function oauthFlows(value: JsonObject, path: string, toV03Rpc: boolean): JsonObject {
  const out: Out = {};
  for (const f of OAUTH_FLOWS) {
    const flow = optObject(value, f, path);
    if (flow !== undefined) out[f] = oauthFlow(flow, join(path, f), toV03Rpc);
  }
  return out;
}

/** Oneof-shaped `SecurityScheme` (1.0 or 0.3 proto) → 0.3 JSON-RPC (OpenAPI) shape. */
function schemeToV03Rpc(value: JsonValue, path: string): JsonObject {
  const s = asObject(value, path);
  const out: Out = {};
  const api = optObject(s, "apiKeySecurityScheme", path);
  const http = optObject(s, "httpAuthSecurityScheme", path);
  const oauth = optObject(s, "oauth2SecurityScheme", path);
  const oidc = optObject(s, "openIdConnectSecurityScheme", path);
  const mtls = optObject(s, "mtlsSecurityScheme", path);
  const inner = api ?? http ?? oauth ?? oidc ?? mtls;
  if (
    inner === undefined ||
    [api, http, oauth, oidc, mtls].filter((x) => x !== undefined).length !== 1
  ) {
    throw new V03TranslationError(path, "must have exactly one security scheme member");
  }
  if (api !== undefined) {
    const p = join(path, "apiKeySecurityScheme");
    Object.assign(out, {
      type: "apiKey",
      in: optString(api, "location", p) ?? "",
      name: optString(api, "name", p) ?? "",
    });
  } else if (http !== undefined) {
    const p = join(path, "httpAuthSecurityScheme");
    Object.assign(out, { type: "http", scheme: optString(http, "scheme", p) ?? "" });
    put(out, "bearerFormat", optNonEmptyString(http, "bearerFormat", p));
  } else if (oauth !== undefined) {
    const p = join(path, "oauth2SecurityScheme");
    Object.assign(out, {
      type: "oauth2",
      flows: oauthFlows(optObject(oauth, "flows", p) ?? {}, join(p, "flows"), true),
    });
    put(out, "oauth2MetadataUrl", optNonEmptyString(oauth, "oauth2MetadataUrl", p));
  } else if (oidc !== undefined) {
    const p = join(path, "openIdConnectSecurityScheme");
    Object.assign(out, {
      type: "openIdConnect",
      openIdConnectUrl: optString(oidc, "openIdConnectUrl", p) ?? "",
    });
  } else {
    out["type"] = "mutualTLS";
  }
  put(out, "description", optNonEmptyString(inner, "description", path));
  return out;
}

/** 0.3 JSON-RPC (OpenAPI-shaped) `SecurityScheme` → oneof shape (1.0 and 0.3 proto). */
function schemeFromV03Rpc(value: JsonValue, path: string): JsonObject {
  const s = asObject(value, path);
  const inner: Out = {};
  put(inner, "description", optNonEmptyString(s, "description", path));
  switch (s["type"]) {
    case "apiKey":
      put(inner, "location", optNonEmptyString(s, "in", path));
      put(inner, "name", optNonEmptyString(s, "name", path));
      return { apiKeySecurityScheme: inner };
    case "http":
      put(inner, "scheme", optNonEmptyString(s, "scheme", path));
      put(inner, "bearerFormat", optNonEmptyString(s, "bearerFormat", path));
      return { httpAuthSecurityScheme: inner };
    case "oauth2":
      inner["flows"] = oauthFlows(optObject(s, "flows", path) ?? {}, join(path, "flows"), false);
      put(inner, "oauth2MetadataUrl", optNonEmptyString(s, "oauth2MetadataUrl", path));
      return { oauth2SecurityScheme: inner };
    case "openIdConnect":
      put(inner, "openIdConnectUrl", optNonEmptyString(s, "openIdConnectUrl", path));
      return { openIdConnectSecurityScheme: inner };
    case "mutualTLS":
      return { mtlsSecurityScheme: inner };
    default:
      throw new V03TranslationError(
        join(path, "type"),
        `must be apiKey, http, oauth2, openIdConnect or mutualTLS, got ${JSON.stringify(s["type"] ?? null)}`,
      );
  }
}

/** Oneof-shaped scheme copied between 1.0 and the 0.3 proto (drops `deviceCode` / `pkceRequired` toward 0.3). */
function schemeProto(value: JsonValue, path: string): JsonObject {
  const s = asObject(value, path);
  const out: Out = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === "oauth2SecurityScheme" && isObject(v)) {
      const p = join(path, k);
      const o: Out = { flows: oauthFlows(optObject(v, "flows", p) ?? {}, join(p, "flows"), false) };
      put(o, "description", optNonEmptyString(v, "description", p));
      put(o, "oauth2MetadataUrl", optNonEmptyString(v, "oauth2MetadataUrl", p));
      setKey(out, k, o);
    } else {
      setKey(out, k, cloneJson(v, join(path, k)));
    }
  }
  return out;
}

/** Maps the values of an optional object-valued map. */
function mapValues(
  obj: JsonObject,
  key: string,
  path: string,
  fn: (v: JsonValue, p: string) => JsonValue,
): JsonObject | undefined {
  const m = optObject(obj, key, path);
  if (m === undefined) return undefined;
  const out: Out = {};
  for (const [k, v] of Object.entries(m)) setKey(out, k, fn(v, `${join(path, key)}.${k}`));
  return out;
}

/** 1.0 / 0.3-proto `SecurityRequirement` `{schemes: {name: {list}}}` → 0.3 JSON-RPC `{name: [scopes]}`. */
function requirementToRpc(value: JsonValue, path: string): JsonObject {
  const out: Out = {};
  const schemes = optObject(asObject(value, path), "schemes", path) ?? {};
  for (const [name, list] of Object.entries(schemes)) {
    setKey(
      out,
      name,
      optStringArray(
        asObject(list, `${path}.schemes.${name}`),
        "list",
        `${path}.schemes.${name}`,
      ) ?? [],
    );
  }
  return out;
}

/** 0.3 JSON-RPC `{name: [scopes]}` → `{schemes: {name: {list}}}`. */
function requirementFromRpc(value: JsonValue, path: string): JsonObject {
  const schemes: Out = {};
  for (const [name, scopes] of Object.entries(asObject(value, path))) {
    const list = optStringArray({ list: scopes }, "list", `${path}.${name}`) ?? [];
    setKey(schemes, name, list.length > 0 ? { list } : {});
  }
  return { schemes };
}

/** Copies a `{schemes: {name: {list}}}` requirement (1.0 ⇄ 0.3 proto), dropping empty lists. */
function requirementProto(value: JsonValue, path: string): JsonObject {
  return requirementFromRpc(requirementToRpc(value, path), path);
}

type Shape = "v1" | "rpc" | "proto";

/** Writes a security-requirement list under the key of `to`, converted from `from`. */
function requirements(src: JsonObject, from: Shape, to: Shape, out: Out, path: string): void {
  const key = from === "v1" ? "securityRequirements" : "security";
  const outKey = to === "v1" ? "securityRequirements" : "security";
  const fn =
    from === "rpc"
      ? to === "rpc"
        ? (v: JsonValue, p: string) => cloneJson(v, p)
        : requirementFromRpc
      : to === "rpc"
        ? requirementToRpc
        : requirementProto;
  putNonEmpty(out, outKey, mapArray(src, key, path, fn));
}

/** `AgentExtension` (same in every shape); `required` always written toward 0.3 JSON-RPC. */
function extension(value: JsonValue, path: string, to: Shape): JsonObject {
  const ext = asObject(value, path);
  const out: Out = { uri: reqString(ext, "uri", path) };
  put(out, "description", optNonEmptyString(ext, "description", path));
  const required = optBool(ext, "required", path);
  if (required === true || (to === "rpc" && required !== undefined)) out["required"] = required;
  put(out, "params", optStruct(ext, "params", path));
  return out;
}

/** `AgentSkill` between shapes. */
function skill(value: JsonValue, path: string, from: Shape, to: Shape): JsonObject {
  const s = asObject(value, path);
  const out: Out = {
    id: reqString(s, "id", path),
    name: optString(s, "name", path) ?? "",
    description: optString(s, "description", path) ?? "",
  };
  const tags = optStringArray(s, "tags", path) ?? [];
  if (to === "rpc") out["tags"] = tags;
  else putNonEmpty(out, "tags", tags);
  if (to !== "rpc") {
    if (out["name"] === "") delete out["name"];
    if (out["description"] === "") delete out["description"];
  }
  putNonEmpty(out, "examples", optStringArray(s, "examples", path));
  putNonEmpty(out, "inputModes", optStringArray(s, "inputModes", path));
  putNonEmpty(out, "outputModes", optStringArray(s, "outputModes", path));
  requirements(s, from, to, out, path);
  return out;
}

/** The card fields with the same meaning in every shape. */
function commonCardFields(card: JsonObject, path: string, from: Shape, to: Shape, out: Out): void {
  const req = to === "rpc";
  out["name"] = optString(card, "name", path) ?? "";
  out["description"] = optString(card, "description", path) ?? "";
  out["version"] = optString(card, "version", path) ?? "";
  if (!req) for (const k of ["name", "description", "version"]) if (out[k] === "") delete out[k];
  const provider = optObject(card, "provider", path);
  if (provider !== undefined) {
    const p = join(path, "provider");
    out["provider"] = {
      url: optString(provider, "url", p) ?? "",
      organization: optString(provider, "organization", p) ?? "",
    };
  }
  put(out, "documentationUrl", optString(card, "documentationUrl", path));
  // The 0.3 proto's AgentCard has no icon_url (the 0.3 JSON Schema has `iconUrl`): dropped on that wire.
  if (to !== "proto") put(out, "iconUrl", optString(card, "iconUrl", path));
  const caps = optObject(card, "capabilities", path) ?? {};
  const cp = join(path, "capabilities");
  const capsOut: Out = {};
  // The 0.3 proto's capability flags have no presence: written only when true there.
  for (const flag of ["streaming", "pushNotifications"]) {
    const v = optBool(caps, flag, cp);
    if (v === true || (to !== "proto" && v !== undefined)) capsOut[flag] = v;
  }
  putNonEmpty(
    capsOut,
    "extensions",
    mapArray(caps, "extensions", cp, (e, p) => extension(e, p, to)),
  );
  if (from === "rpc" && to === "rpc")
    put(capsOut, "stateTransitionHistory", optBool(caps, "stateTransitionHistory", cp));
  out["capabilities"] = capsOut;
  const schemeFn =
    from === "rpc"
      ? to === "rpc"
        ? (v: JsonValue, p: string) => cloneJson(v, p)
        : schemeFromV03Rpc
      : to === "rpc"
        ? schemeToV03Rpc
        : schemeProto;
  const schemes = mapValues(card, "securitySchemes", path, schemeFn);
  if (schemes !== undefined && Object.keys(schemes).length > 0) out["securitySchemes"] = schemes;
  requirements(card, from, to, out, path);
  const inModes = optStringArray(card, "defaultInputModes", path) ?? [];
  const outModes = optStringArray(card, "defaultOutputModes", path) ?? [];
  const skills = mapArray(card, "skills", path, (s, p) => skill(s, p, from, to)) ?? [];
  if (req) Object.assign(out, { defaultInputModes: inModes, defaultOutputModes: outModes, skills });
  else {
    putNonEmpty(out, "defaultInputModes", inModes);
    putNonEmpty(out, "defaultOutputModes", outModes);
    putNonEmpty(out, "skills", skills);
  }
  putNonEmpty(
    out,
    "signatures",
    mapArray(card, "signatures", path, (sig, p) => {
      const s = asObject(sig, p);
      const o: Out = {
        protected: optString(s, "protected", p) ?? "",
        signature: optString(s, "signature", p) ?? "",
      };
      put(o, "header", optStruct(s, "header", p));
      return o;
    }),
  );
}

/** The 0.3 interfaces of a 1.0 card: explicit ones, else `supportedInterfaces` at protocolVersion 0.3. */
function v03Interfaces(
  card: JsonObject,
  path: string,
  explicit: readonly V03Interface[] | undefined,
): V03Interface[] {
  let list: V03Interface[];
  if (explicit !== undefined) list = explicit.map((i) => ({ url: i.url, transport: i.transport }));
  else {
    list = [];
    mapArray(card, "supportedInterfaces", path, (v, p) => {
      const i = asObject(v, p);
      const version = optString(i, "protocolVersion", p) ?? "";
      if (/^0\.3(\.|$)/.test(version))
        list.push({ url: reqString(i, "url", p), transport: reqString(i, "protocolBinding", p) });
      return null;
    });
  }
  if (list.length === 0)
    throw new V03TranslationError(
      join(path, "supportedInterfaces"),
      "has no interface at protocolVersion 0.3",
    );
  return list;
}

/** Writes the 0.3 endpoint fields. */
function endpointFields(
  card: JsonObject,
  path: string,
  options: AgentCardToV03Options | undefined,
  out: Out,
): void {
  const list = v03Interfaces(card, path, options?.interfaces);
  const main = list[0] as V03Interface;
  out["protocolVersion"] = options?.protocolVersion ?? "0.3.0";
  out["url"] = main.url;
  out["preferredTransport"] = main.transport;
  out["additionalInterfaces"] = list.map((i) => ({ url: i.url, transport: i.transport }));
  const caps = optObject(card, "capabilities", path);
  const ext =
    caps === undefined ? undefined : optBool(caps, "extendedAgentCard", join(path, "capabilities"));
  put(out, "supportsAuthenticatedExtendedCard", ext);
}

/** Common body of the two outbound directions. */
function cardToV03(
  value: JsonValue,
  path: string,
  options: AgentCardToV03Options | undefined,
  to: "rpc" | "proto",
): JsonObject {
  const card = asObject(value, path);
  const out: Out = {};
  endpointFields(card, path, options, out);
  // The 0.3 proto's supportsAuthenticatedExtendedCard has no presence: written only when true there.
  if (to === "proto" && out["supportsAuthenticatedExtendedCard"] === false)
    delete out["supportsAuthenticatedExtendedCard"];
  commonCardFields(card, path, "v1", to, out);
  return out;
}

/**
 * 1.0 `AgentCard` → 0.3 JSON-RPC `AgentCard` (valid against the 0.3 JSON Schema).
 * @throws V03TranslationError when no 0.3 interface is given or declared, or a field is malformed.
 */
export function agentCardToV03(
  value: JsonValue,
  options?: AgentCardToV03Options,
  path = "agentCard",
): JsonObject {
  return cardToV03(value, path, options, "rpc");
}

/**
 * A hybrid card for one agent serving both versions: the 1.0 card with the 0.3 JSON-RPC fields added
 * (`protocolVersion`, `url`, `preferredTransport`, `additionalInterfaces`, `supportsAuthenticatedExtendedCard`,
 * `security`, `skills[].security`, `capabilities.stateTransitionHistory` absent). Where both versions use the same
 * key with different shapes (`securitySchemes` entries) the entry carries both: the 0.3 OpenAPI fields (`type`,
 * `in`, …) next to the 1.0 oneof member, which 1.0 readers that ignore unknown fields (§5.7) and 0.3 readers both
 * understand. The result validates against the 0.3 JSON Schema.
 * @throws V03TranslationError like {@link agentCardToV03}.
 */
export function hybridAgentCard(
  value: JsonValue,
  options?: AgentCardToV03Options,
  path = "agentCard",
): JsonObject {
  const card = asObject(value, path);
  const v03 = agentCardToV03(card, options, path);
  const out: Out = { ...(cloneJson(card, path) as JsonObject), ...v03 };
  const v1Schemes = optObject(card, "securitySchemes", path);
  const v03Schemes = v03["securitySchemes"];
  if (v1Schemes !== undefined && isObject(v03Schemes)) {
    const merged: Out = {};
    for (const [k, v] of Object.entries(v1Schemes))
      setKey(merged, k, { ...(cloneJson(v, k) as JsonObject), ...(v03Schemes[k] as JsonObject) });
    out["securitySchemes"] = merged;
  }
  out["capabilities"] = {
    ...(cloneJson(optObject(card, "capabilities", path) ?? {}, path) as JsonObject),
    ...(v03["capabilities"] as JsonObject),
  };
  const v1Skills = optArray(card, "skills", path) ?? [];
  out["skills"] = (v03["skills"] as JsonObject[]).map((s, i) => ({
    ...(cloneJson(v1Skills[i] ?? {}, path) as JsonObject),
    ...s,
  }));
  return out;
}

/** Reads an optional array (local alias). */
function optArray(obj: JsonObject, key: string, path: string): JsonValue[] | undefined {
  return mapArray(obj, key, path, (v) => v);
}

/** The 1.0 `supportedInterfaces` of a 0.3 card (JSON-RPC or proto: same endpoint fields). */
function supportedInterfacesFromV03(card: JsonObject, path: string): JsonObject[] {
  // Always "0.3": the 0.3 compat layer serves 0.2.x cards too (their wire is the same), and 1.0 clients look for
  // "0.3" interfaces.
  const version = "0.3";
  const url = optNonEmptyString(card, "url", path);
  const out: JsonObject[] = [];
  const seen = new Set<string>();
  const add = (u: string, t: string) => {
    const key = `${t} ${u}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ url: u, protocolBinding: t, protocolVersion: version });
  };
  if (url !== undefined) add(url, optNonEmptyString(card, "preferredTransport", path) ?? "JSONRPC");
  mapArray(card, "additionalInterfaces", path, (v, p) => {
    const i = asObject(v, p);
    add(reqString(i, "url", p), reqString(i, "transport", p));
    return null;
  });
  if (out.length === 0) throw new V03TranslationError(join(path, "url"), "is required");
  return out;
}

/** Common body of the two inbound directions. */
function cardFromV03(value: JsonValue, path: string, from: Shape): JsonObject {
  const card = asObject(value, path);
  const out: Out = {};
  commonCardFields(card, path, from, "v1", out);
  out["supportedInterfaces"] = supportedInterfacesFromV03(card, path);
  const ext = optBool(card, "supportsAuthenticatedExtendedCard", path);
  if (ext !== undefined) (out["capabilities"] as Out)["extendedAgentCard"] = ext;
  return out;
}

/**
 * 0.3 JSON-RPC `AgentCard` → 1.0 `AgentCard`, for a 1.0 client reading a 0.3-only agent's card: its `url` /
 * `preferredTransport` (default JSONRPC) and `additionalInterfaces` become `supportedInterfaces` entries at
 * `protocolVersion` "0.3".
 * @throws V03TranslationError when the card has no `url` or interface, or a field is malformed.
 */
export function agentCardFromV03(value: JsonValue, path = "agentCard"): JsonObject {
  return cardFromV03(value, path, "rpc");
}

/** 0.3 ProtoJSON `AgentCard` (`GetAgentCard` of the 0.3 gRPC / HTTP+JSON wire) → 1.0 `AgentCard`. */
export function agentCardFromV03Proto(value: JsonValue, path = "agentCard"): JsonObject {
  return cardFromV03(value, path, "proto");
}

/**
 * 1.0 `AgentCard` → 0.3 ProtoJSON `AgentCard` (oneof-shaped security schemes, `security: [{schemes}]`).
 * @throws V03TranslationError like {@link agentCardToV03}.
 */
export function agentCardToV03Proto(
  value: JsonValue,
  options?: AgentCardToV03Options,
  path = "agentCard",
): JsonObject {
  return cardToV03(value, path, options, "proto");
}
