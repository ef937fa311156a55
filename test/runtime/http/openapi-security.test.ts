/**
 * openApiSecurity (runtime/src/http/openapi-security.ts): an Agent Card's security schemes and
 * requirements as OpenAPI's, table-driven over every scheme kind of a2a.proto.
 */
import type { JsonObject } from "@bufbuild/protobuf";
import { openApiSecurity } from "@protoc-gen-a2a/runtime/http";
import { describe, expect, it } from "vitest";

const flow = { tokenUrl: "https://auth.example.com/token", scopes: { read: "Read tasks" } };

describe("openApiSecurity", () => {
  it.each([
    [
      "HTTP bearer",
      { httpAuthSecurityScheme: { scheme: "Bearer", bearerFormat: "JWT", description: "d" } },
      { type: "http", scheme: "Bearer", bearerFormat: "JWT", description: "d" },
    ],
    [
      "API key (location → in)",
      { apiKeySecurityScheme: { location: "header", name: "X-API-Key" } },
      { type: "apiKey", name: "X-API-Key", in: "header" },
    ],
    [
      "OpenID Connect",
      {
        openIdConnectSecurityScheme: {
          openIdConnectUrl: "https://auth.example.com/.well-known/openid-configuration",
        },
      },
      {
        type: "openIdConnect",
        openIdConnectUrl: "https://auth.example.com/.well-known/openid-configuration",
      },
    ],
    ["mutual TLS", { mtlsSecurityScheme: {} }, { type: "mutualTLS" }],
    [
      "OAuth2 authorization code",
      {
        oauth2SecurityScheme: {
          flows: {
            authorizationCode: {
              authorizationUrl: "https://auth.example.com/authorize",
              ...flow,
              pkceRequired: true,
            },
          },
          oauth2MetadataUrl: "https://auth.example.com/meta",
        },
      },
      {
        type: "oauth2",
        flows: {
          authorizationCode: {
            scopes: { read: "Read tasks" },
            authorizationUrl: "https://auth.example.com/authorize",
            tokenUrl: flow.tokenUrl,
          },
        },
      },
    ],
    [
      "OAuth2 client credentials without scopes",
      { oauth2SecurityScheme: { flows: { clientCredentials: { tokenUrl: flow.tokenUrl } } } },
      { type: "oauth2", flows: { clientCredentials: { scopes: {}, tokenUrl: flow.tokenUrl } } },
    ],
    [
      "OAuth2 with only a device flow: not in OpenAPI 3.1",
      {
        oauth2SecurityScheme: {
          flows: {
            deviceCode: { deviceAuthorizationUrl: "https://auth.example.com/device", ...flow },
          },
        },
      },
      undefined,
    ],
  ])("%s", (_name, scheme, expected) => {
    const card: JsonObject = {
      securitySchemes: { s: scheme },
      securityRequirements: [{ schemes: { s: { list: ["read"] } } }],
    };
    const { securitySchemes, security } = openApiSecurity(card);
    expect(securitySchemes["s"]).toEqual(expected);
    expect(security).toEqual(expected === undefined ? [] : [{ s: ["read"] }]);
  });

  it("keeps the device flow and the metadata URL for OpenAPI 3.2", () => {
    const card: JsonObject = {
      securitySchemes: {
        s: {
          oauth2SecurityScheme: {
            flows: { deviceCode: { deviceAuthorizationUrl: "https://a/device", ...flow } },
            oauth2MetadataUrl: "https://a/meta",
          },
        },
      },
    };
    expect(openApiSecurity(card, "3.2.0").securitySchemes["s"]).toEqual({
      type: "oauth2",
      flows: {
        deviceAuthorization: {
          scopes: { read: "Read tasks" },
          deviceAuthorizationUrl: "https://a/device",
          tokenUrl: flow.tokenUrl,
        },
      },
      oauth2MetadataUrl: "https://a/meta",
    });
  });

  it("turns every requirement into an OpenAPI security requirement, and drops those naming an unknown scheme", () => {
    const card: JsonObject = {
      securitySchemes: {
        bearer: { httpAuthSecurityScheme: { scheme: "Bearer" } },
        key: { apiKeySecurityScheme: { location: "query", name: "k" } },
      },
      securityRequirements: [
        { schemes: { bearer: { list: [] } } },
        { schemes: { bearer: {}, key: { list: [] } } },
        { schemes: { nobody: { list: [] } } },
      ],
    };
    expect(openApiSecurity(card).security).toEqual([{ bearer: [] }, { bearer: [], key: [] }]);
    expect(openApiSecurity({})).toEqual({ securitySchemes: {}, security: [] });
  });
});
