/**
 * CORS (runtime/src/http/cors.ts) as a table: preflights and actual responses for any origin,
 * for listed origins, and for origins not listed; then withCors around a real handler on
 * node:http, where fetch plays the browser's requests.
 */
import { describe, expect, it } from "vitest";
import {
  A2A_CORS_ALLOWED_HEADERS,
  A2A_CORS_EXPOSED_HEADERS,
  corsPolicy,
  withCors,
  type CorsOptions,
} from "../../../runtime/src/http/cors.js";
import type { UniversalHandler, UniversalRequest } from "../../../runtime/src/http/universal.js";
import { serveNode } from "../../../runtime/src/http/node-adapter.js";
import { listen } from "../../support/servers.js";

const headerOf = (headers: Record<string, string>) => (name: string) => headers[name.toLowerCase()];
const asMap = (list: readonly (readonly [string, string])[]) => Object.fromEntries(list);

describe("corsPolicy", () => {
  it.each<
    [
      string,
      CorsOptions | undefined,
      string,
      Record<string, string>,
      Record<string, string> | undefined,
    ]
  >([
    [
      "any origin: the preflight allows the A2A methods and headers",
      undefined,
      "OPTIONS",
      { origin: "https://app.example", "access-control-request-method": "POST" },
      {
        "access-control-allow-origin": "*",
        "access-control-allow-methods": "GET, POST, DELETE",
        "access-control-allow-headers": A2A_CORS_ALLOWED_HEADERS.join(", "),
        "access-control-max-age": "7200",
      },
    ],
    [
      "a listed origin is echoed, with Vary",
      {
        origins: ["https://app.example"],
        maxAgeSeconds: 60,
        allowHeaders: ["X-Trace", "Authorization"],
      },
      "OPTIONS",
      { origin: "https://app.example", "access-control-request-method": "DELETE" },
      {
        "access-control-allow-origin": "https://app.example",
        vary: "Origin",
        "access-control-allow-methods": "GET, POST, DELETE",
        "access-control-allow-headers": [...A2A_CORS_ALLOWED_HEADERS, "X-Trace"].join(", "),
        "access-control-max-age": "60",
      },
    ],
    [
      "an origin not listed gets no allow headers (the browser refuses)",
      { origins: ["https://app.example"] },
      "OPTIONS",
      { origin: "https://evil.example", "access-control-request-method": "POST" },
      { vary: "Origin" },
    ],
    [
      "OPTIONS without Access-Control-Request-Method is no preflight",
      undefined,
      "OPTIONS",
      { origin: "https://app.example" },
      undefined,
    ],
    [
      "a POST is no preflight",
      undefined,
      "POST",
      { origin: "https://app.example", "access-control-request-method": "POST" },
      undefined,
    ],
  ])("%s", (_, options, method, headers, expected) => {
    const answer = corsPolicy(options).preflight(method, headerOf(headers));
    if (expected === undefined) expect(answer).toBeUndefined();
    else
      expect({ status: answer?.status, headers: asMap(answer?.headers ?? []) }).toEqual({
        status: 204,
        headers: expected,
      });
  });

  it.each<[string, CorsOptions | undefined, string | undefined, Record<string, string>]>([
    [
      "any origin",
      undefined,
      "https://app.example",
      {
        "access-control-allow-origin": "*",
        "access-control-expose-headers": A2A_CORS_EXPOSED_HEADERS.join(", "),
      },
    ],
    [
      "no Origin header (not a browser): still *",
      undefined,
      undefined,
      {
        "access-control-allow-origin": "*",
        "access-control-expose-headers": A2A_CORS_EXPOSED_HEADERS.join(", "),
      },
    ],
    [
      "a listed origin, extra exposed headers",
      { origins: ["https://app.example"], exposeHeaders: ["X-Request-Id"] },
      "https://app.example",
      {
        "access-control-allow-origin": "https://app.example",
        vary: "Origin",
        "access-control-expose-headers": [...A2A_CORS_EXPOSED_HEADERS, "X-Request-Id"].join(", "),
      },
    ],
    [
      "an origin not listed",
      { origins: ["https://app.example"] },
      "https://evil.example",
      { vary: "Origin" },
    ],
  ])("actual response, %s", (_, options, origin, expected) => {
    expect(asMap(corsPolicy(options).responseHeaders(origin))).toEqual(expected);
  });
});

describe("withCors on node:http", () => {
  const seen: string[] = [];
  const inner: UniversalHandler = async (request: UniversalRequest) => {
    seen.push(`${request.method} ${request.path}`);
    return {
      status: 200,
      headers: [
        ["content-type", "application/json"],
        ...(request.path === "/own"
          ? ([["access-control-allow-origin", "https://own.example"]] as [string, string][])
          : []),
      ],
      body: "{}",
    };
  };

  it("answers the preflight itself, adds the headers to the rest, and leaves a handler's own CORS headers alone", async () => {
    const server = await listen(
      serveNode(withCors(inner, { origins: ["https://app.example"] })),
      "",
    );
    try {
      const preflight = await fetch(`${server.url}/rpc`, {
        method: "OPTIONS",
        headers: {
          Origin: "https://app.example",
          "Access-Control-Request-Method": "POST",
          "Access-Control-Request-Headers": "content-type, authorization, a2a-version",
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get("access-control-allow-origin")).toBe("https://app.example");
      expect(
        preflight.headers.get("access-control-allow-headers")?.toLowerCase().split(", "),
      ).toEqual(expect.arrayContaining(["content-type", "authorization", "a2a-version"]));
      expect(seen).toEqual([]);

      const post = await fetch(`${server.url}/rpc`, {
        method: "POST",
        headers: { Origin: "https://app.example" },
        body: "{}",
      });
      expect(post.status).toBe(200);
      expect(post.headers.get("access-control-allow-origin")).toBe("https://app.example");
      expect(post.headers.get("access-control-expose-headers")).toContain("A2A-Extensions");

      const own = await fetch(`${server.url}/own`, { headers: { Origin: "https://app.example" } });
      expect(own.headers.get("access-control-allow-origin")).toBe("https://own.example");

      const other = await fetch(`${server.url}/rpc`, {
        method: "POST",
        headers: { Origin: "https://evil.example" },
        body: "{}",
      });
      expect(other.status).toBe(200);
      expect(other.headers.get("access-control-allow-origin")).toBeNull();
      expect(seen).toEqual(["POST /rpc", "GET /own", "POST /rpc"]);
    } finally {
      await server.close();
    }
  });
});
