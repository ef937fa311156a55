// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The security of an Agent Card in OpenAPI terms. A2A's `SecurityScheme` is modelled on
 * OpenAPI's (spec §4.5), so an agent can fill the `components.securitySchemes` and `security`
 * its generated OpenAPI document leaves empty from the card it already publishes.
 */
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";

/** `components.securitySchemes` and the top-level `security` of an OpenAPI document. */
export interface OpenApiSecurity {
  readonly securitySchemes: JsonObject;
  readonly security: JsonObject[];
}

const isObject = (v: JsonValue | undefined): v is JsonObject =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Copies the listed members that are set (non-empty strings, objects, true), renaming them by `names` (card name → OpenAPI name). */
function pick(from: JsonObject, names: Readonly<Record<string, string>>): JsonObject {
  const out: JsonObject = {};
  for (const [cardName, openApiName] of Object.entries(names)) {
    const v = from[cardName];
    if (v === undefined || v === "" || v === null || v === false) continue;
    out[openApiName] = v;
  }
  return out;
}

const FLOW_FIELDS = {
  authorizationUrl: "authorizationUrl",
  tokenUrl: "tokenUrl",
  refreshUrl: "refreshUrl",
  scopes: "scopes",
} as const;

/** OAuth flows (a card's `OAuthFlows` holds one) as OpenAPI's `flows` object; the device flow only in OpenAPI 3.2. */
function oauthFlows(flows: JsonObject, openApi32: boolean): JsonObject {
  const out: JsonObject = {};
  for (const name of ["authorizationCode", "clientCredentials", "implicit", "password"]) {
    const flow = flows[name];
    if (isObject(flow)) out[name] = { scopes: {}, ...pick(flow, FLOW_FIELDS) };
  }
  const device = flows["deviceCode"];
  if (openApi32 && isObject(device))
    out["deviceAuthorization"] = {
      scopes: {},
      ...pick(device, { deviceAuthorizationUrl: "deviceAuthorizationUrl", ...FLOW_FIELDS }),
    };
  return out;
}

/** One card `SecurityScheme` (ProtoJSON) as an OpenAPI security scheme object; undefined when OpenAPI cannot say it. */
function securityScheme(scheme: JsonObject, openApi32: boolean): JsonObject | undefined {
  const apiKey = scheme["apiKeySecurityScheme"];
  if (isObject(apiKey))
    return {
      type: "apiKey",
      ...pick(apiKey, { name: "name", location: "in", description: "description" }),
    };
  const http = scheme["httpAuthSecurityScheme"];
  if (isObject(http))
    return {
      type: "http",
      ...pick(http, { scheme: "scheme", bearerFormat: "bearerFormat", description: "description" }),
    };
  const oauth2 = scheme["oauth2SecurityScheme"];
  if (isObject(oauth2)) {
    const flows = isObject(oauth2["flows"]) ? oauthFlows(oauth2["flows"], openApi32) : {};
    if (Object.keys(flows).length === 0) return undefined;
    return {
      type: "oauth2",
      flows,
      ...pick(
        oauth2,
        openApi32
          ? { oauth2MetadataUrl: "oauth2MetadataUrl", description: "description" }
          : { description: "description" },
      ),
    };
  }
  const oidc = scheme["openIdConnectSecurityScheme"];
  if (isObject(oidc))
    return {
      type: "openIdConnect",
      ...pick(oidc, { openIdConnectUrl: "openIdConnectUrl", description: "description" }),
    };
  const mtls = scheme["mtlsSecurityScheme"];
  if (isObject(mtls)) return { type: "mutualTLS", ...pick(mtls, { description: "description" }) };
  return undefined;
}

/**
 * The card's `securitySchemes` and `securityRequirements` (its ProtoJSON form, as served at
 * /.well-known/agent-card.json) as OpenAPI `components.securitySchemes` and `security`.
 * `openApiVersion` ("3.1.1", "3.2.0") decides whether the 3.2-only device flow and
 * `oauth2MetadataUrl` are kept. Schemes OpenAPI cannot express (an OAuth2 scheme with only a
 * device flow, for 3.1) are left out, and so are requirements naming them.
 */
export function openApiSecurity(card: JsonObject, openApiVersion = "3.1.1"): OpenApiSecurity {
  const openApi32 = openApiVersion.startsWith("3.2");
  const securitySchemes: JsonObject = {};
  const schemes = card["securitySchemes"];
  if (isObject(schemes)) {
    for (const [name, scheme] of Object.entries(schemes)) {
      const converted = isObject(scheme) ? securityScheme(scheme, openApi32) : undefined;
      if (converted !== undefined) securitySchemes[name] = converted;
    }
  }
  const security: JsonObject[] = [];
  const requirements = card["securityRequirements"];
  if (Array.isArray(requirements)) {
    for (const requirement of requirements) {
      if (!isObject(requirement) || !isObject(requirement["schemes"])) continue;
      const entry: JsonObject = {};
      let usable = true;
      for (const [name, scopes] of Object.entries(requirement["schemes"])) {
        if (!(name in securitySchemes)) usable = false;
        entry[name] = isObject(scopes) && Array.isArray(scopes["list"]) ? scopes["list"] : [];
      }
      if (usable && Object.keys(entry).length > 0) security.push(entry);
    }
  }
  return { securitySchemes, security };
}
