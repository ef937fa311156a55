/**
 * Agent Card discovery (§8.2, §8.3, §8.6): the runtime's `serveAgentCard` composed with a
 * generated JSON-RPC server on one real node:http server (127.0.0.1), read by fetch and
 * by @a2a-js/sdk's ClientFactory; `buildSupportedInterfaces` / `checkAgentCard` tables.
 */
import { createHash } from "node:crypto";
import { create, fromJson, toJson, type JsonObject } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Role as SdkRole } from "@a2a-js/sdk";
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from "@a2a-js/sdk/client";
import { AgentCardSchema } from "../../../generated-example/gen/a2a_pb.js";
import { createA2AServiceJsonRpcServer } from "../../../generated-example/gen/a2a_a2a_jsonrpc_server.js";
import { serveNode } from "@protoc-gen-a2a/runtime/http";
import type { UniversalHandler, UniversalRequest } from "@protoc-gen-a2a/runtime/http";
import {
  CONNECT_PROTOCOL_BINDING,
  GRPC_WEB_PROTOCOL_BINDING,
} from "../../../runtime/src/protocol/discovery.js";

/** A custom binding's URI (the example agent's WebSocket binding, generated-example/bindings/ws/). */
const WS_URI = "https://protoc-gen-a2a.github.io/bindings/websocket/v1";
import {
  buildSupportedInterfaces,
  checkAgentCard,
  composeHandlers,
  grpcHostPort,
  ifNoneMatchHits,
  serveAgentCard,
  sha256,
  type MountedInterfaces,
} from "../../../runtime/src/http/agent-card.js";
import { TestAgent } from "../../support/test-agent.js";
import { listen, type Listening } from "../../support/servers.js";

const CARD_PATH = "/.well-known/agent-card.json";

function cardFor(base: string): JsonObject {
  const card = create(AgentCardSchema, {
    name: "Card test agent",
    description: "serves its card at the well-known path",
    version: "1.2.3",
    supportedInterfaces: buildSupportedInterfaces({ baseUrl: base, jsonRpcPath: "/a2a/jsonrpc" }),
    capabilities: { streaming: true },
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [{ id: "echo", name: "Echo", description: "Echoes", tags: ["echo"] }],
  });
  return toJson(AgentCardSchema, card) as JsonObject;
}

describe("serveAgentCard + composeHandlers on node:http", () => {
  let server: Listening;
  let base: string;
  let card: JsonObject;
  const handlerRef: { current?: UniversalHandler } = {};

  beforeAll(async () => {
    server = await listen((req, res) => serveNode(handlerRef.current!)(req, res));
    base = `http://127.0.0.1:${server.port}`;
    card = cardFor(base);
    const jsonrpc = createA2AServiceJsonRpcServer(new TestAgent(), {
      keepAliveMs: 0,
      logger: { error: () => {} },
    });
    handlerRef.current = composeHandlers(
      { prefix: CARD_PATH, handler: serveAgentCard(card, { maxAgeSeconds: 120 }) },
      { prefix: "/a2a/jsonrpc", handler: jsonrpc.handler },
    );
  });
  afterAll(() => server?.close());

  it("GET → 200 ProtoJSON card with content-type, cache headers, strong ETag and CORS", async () => {
    const res = await fetch(base + CARD_PATH);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("cache-control")).toBe("public, max-age=120");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-expose-headers")).toBe("ETag");
    const text = await res.text();
    expect(JSON.parse(text)).toEqual(card);
    expect(text).toContain('"supportedInterfaces"');
    expect(text).toContain('"protocolBinding":"JSONRPC"');
    const expected = `"${createHash("sha256").update(text).digest("base64url")}"`;
    expect(res.headers.get("etag")).toBe(expected);
    expect(res.headers.get("content-length")).toBe(String(Buffer.byteLength(text)));
  });

  it("the card round-trips through fromJson(AgentCardSchema)", async () => {
    const parsed = fromJson(
      AgentCardSchema,
      (await (await fetch(base + CARD_PATH)).json()) as JsonObject,
    );
    expect(parsed.name).toBe("Card test agent");
    expect(parsed.supportedInterfaces[0]).toMatchObject({
      url: `${base}/a2a/jsonrpc`,
      protocolBinding: "JSONRPC",
      protocolVersion: "1.0",
    });
    expect(parsed.capabilities?.streaming).toBe(true);
    expect(parsed.skills[0]?.id).toBe("echo");
  });

  it("If-None-Match: matching tag (strong, weak, in a list, *) → 304 without body; other tags → 200", async () => {
    const etag = (await fetch(base + CARD_PATH)).headers.get("etag")!;
    for (const inm of [etag, `W/${etag}`, `"nope", ${etag}`, "*"]) {
      const res = await fetch(base + CARD_PATH, { headers: { "if-none-match": inm } });
      expect(res.status, inm).toBe(304);
      expect(res.headers.get("etag")).toBe(etag);
      expect(res.headers.get("cache-control")).toBe("public, max-age=120");
      expect(await res.text()).toBe("");
    }
    const miss = await fetch(base + CARD_PATH, { headers: { "if-none-match": '"other", W/"x"' } });
    expect(miss.status).toBe(200);
  });

  it("HEAD → 200 with the GET headers and no body", async () => {
    const res = await fetch(base + CARD_PATH, { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(Number(res.headers.get("content-length"))).toBeGreaterThan(100);
    expect(await res.text()).toBe("");
  });

  it("OPTIONS preflight → 204 with CORS allow headers", async () => {
    const res = await fetch(base + CARD_PATH, {
      method: "OPTIONS",
      headers: {
        origin: "https://ui.example",
        "access-control-request-method": "GET",
        "access-control-request-headers": "if-none-match",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-methods")).toBe("GET, HEAD, OPTIONS");
    expect(res.headers.get("access-control-allow-headers")).toBe("if-none-match");
    expect(res.headers.get("access-control-max-age")).toBe("86400");
  });

  it("other methods → 405 with Allow; unknown paths → 404 JSON", async () => {
    const post = await fetch(base + CARD_PATH, { method: "POST", body: "{}" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    const missing = await fetch(`${base}/nowhere`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toBe("application/json");
    expect(await missing.json()).toMatchObject({ error: { code: 404 } });
    // segment boundary: the card prefix does not swallow a longer name
    expect((await fetch(`${base}${CARD_PATH}x`)).status).toBe(404);
  });

  it("@a2a-js/sdk ClientFactory.createFromUrl resolves our card and sends a message over JSON-RPC", async () => {
    const factory = new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [new JsonRpcTransportFactory({ fetchImpl: fetch })],
        cardResolver: new DefaultAgentCardResolver({ fetchImpl: fetch }),
      }),
    );
    const client = await factory.createFromUrl(base);
    expect(client.transport.protocolName).toBe("JSONRPC");
    const result = await client.sendMessage({
      tenant: "",
      message: {
        messageId: "m-1",
        contextId: "",
        taskId: "",
        role: SdkRole.ROLE_USER,
        parts: [
          {
            content: { $case: "text", value: "hello" },
            metadata: undefined,
            filename: "",
            mediaType: "",
          },
        ],
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      },
      configuration: undefined,
      metadata: undefined,
    });
    if (!("messageId" in result))
      throw new Error(`expected a Message, got ${JSON.stringify(result)}`);
    expect(result.messageId).toBe("reply-hello");
    expect(result.role).toBe(SdkRole.ROLE_AGENT);
  });
});

// ---------------------------------------------------------------------------------------
// Handler-level behaviour (no socket)
// ---------------------------------------------------------------------------------------

function req(method: string, path: string, headers: Record<string, string> = {}): UniversalRequest {
  const h = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    method,
    path,
    query: "",
    header: (n) => h.get(n.toLowerCase()),
    headers: () => h.entries(),
    readBody: async () => new Uint8Array(),
    signal: new AbortController().signal,
  };
}

describe("serveAgentCard options", () => {
  const card = { name: "x" };

  it("cors: { origin } → that origin + Vary; cors: false → no CORS headers", async () => {
    const named = await serveAgentCard(card, { cors: { origin: "https://ui.example" } })(
      req("GET", CARD_PATH),
    );
    expect(new Map(named.headers).get("access-control-allow-origin")).toBe("https://ui.example");
    expect(new Map(named.headers).get("vary")).toBe("Origin");
    const none = await serveAgentCard(card, { cors: false })(req("GET", CARD_PATH));
    expect(none.headers.some(([k]) => k.startsWith("access-control-"))).toBe(false);
  });

  it("custom path and default max-age 300", async () => {
    const h = serveAgentCard(card, { path: "/card.json" });
    expect((await h(req("GET", CARD_PATH))).status).toBe(404);
    const ok = await h(req("GET", "/card.json"));
    expect(ok.status).toBe(200);
    expect(new Map(ok.headers).get("cache-control")).toBe("public, max-age=300");
  });

  it("composeHandlers: longest prefix wins, path unchanged, rejecting handler → 500", async () => {
    const seen: string[] = [];
    const tag =
      (name: string): UniversalHandler =>
      async (r) => {
        seen.push(`${name}:${r.path}`);
        return { status: 200, headers: [], body: name };
      };
    const boom: UniversalHandler = () => Promise.reject(new Error("boom"));
    const h = composeHandlers(
      { prefix: "/", handler: tag("root") },
      { prefix: "/a2a", handler: tag("a2a") },
      { prefix: "/a2a/rest/", handler: tag("rest") },
      { prefix: "/boom", handler: boom },
    );
    await h(req("GET", "/a2a/rest/tasks/1"));
    await h(req("GET", "/a2a/restx"));
    await h(req("GET", "/a2a"));
    await h(req("GET", "/other"));
    expect(seen).toEqual(["rest:/a2a/rest/tasks/1", "a2a:/a2a/restx", "a2a:/a2a", "root:/other"]);
    expect((await h(req("GET", "/boom/x"))).status).toBe(500);
    expect((await composeHandlers()(req("GET", "/"))).status).toBe(404);
  });
});

describe("helpers", () => {
  it.each([
    ["", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"],
    ["abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"],
    ["x".repeat(55), undefined],
    ["x".repeat(56), undefined],
    ["é".repeat(1000), undefined],
  ])("sha256(%#) matches node:crypto", (input, known) => {
    const bytes = new TextEncoder().encode(input);
    const hex = Buffer.from(sha256(bytes)).toString("hex");
    expect(hex).toBe(createHash("sha256").update(bytes).digest("hex"));
    if (known !== undefined) expect(hex).toBe(known);
  });

  it.each([
    ['"a"', '"a"', true],
    ['W/"a"', '"a"', true],
    ['"b", "a"', '"a"', true],
    ['"b",W/"a"', '"a"', true],
    ["*", '"a"', true],
    ['"a,b", "c"', '"a,b"', true],
    ['"b"', '"a"', false],
    ['"a', '"a"', false],
    ["a", '"a"', false],
    ["", '"a"', false],
  ])("ifNoneMatchHits(%j, %j) = %s", (header, etag, hit) => {
    expect(ifNoneMatchHits(header, etag)).toBe(hit);
  });

  it.each([
    ["grpc.example.com:443", "grpc.example.com:443"],
    ["https://grpc.example.com/a2a", "grpc.example.com:443"],
    ["http://127.0.0.1:50051", "127.0.0.1:50051"],
    ["grpc://h", "h:80"],
    ["[::1]:8443", "[::1]:8443"],
    ["no-port", undefined],
  ])("grpcHostPort(%j) = %j", (input, out) => {
    expect(grpcHostPort(input)).toBe(out);
  });
});

describe("buildSupportedInterfaces", () => {
  it.each<[string, MountedInterfaces, unknown[]]>([
    [
      "JSON-RPC only",
      { baseUrl: "https://a.example/", jsonRpcPath: "/a2a/jsonrpc" },
      [
        {
          url: "https://a.example/a2a/jsonrpc",
          protocolBinding: "JSONRPC",
          protocolVersion: "1.0",
        },
      ],
    ],
    [
      "all three, default order, gRPC as host:port (K1)",
      {
        baseUrl: "https://a.example",
        jsonRpcPath: "/rpc",
        restPath: "/v1",
        grpcAddress: "https://grpc.a.example",
      },
      [
        { url: "https://a.example/rpc", protocolBinding: "JSONRPC", protocolVersion: "1.0" },
        { url: "https://a.example/v1", protocolBinding: "HTTP+JSON", protocolVersion: "1.0" },
        { url: "grpc.a.example:443", protocolBinding: "GRPC", protocolVersion: "1.0" },
      ],
    ],
    [
      "explicit order (partial), tenant, version",
      {
        baseUrl: "http://h:8080",
        jsonRpcPath: "",
        restPath: "rest",
        grpcAddress: "h:9090",
        tenant: "acme",
        protocolVersion: "1.0.1",
        order: ["GRPC"],
      },
      [
        { url: "h:9090", protocolBinding: "GRPC", protocolVersion: "1.0.1", tenant: "acme" },
        {
          url: "http://h:8080",
          protocolBinding: "JSONRPC",
          protocolVersion: "1.0.1",
          tenant: "acme",
        },
        {
          url: "http://h:8080/rest",
          protocolBinding: "HTTP+JSON",
          protocolVersion: "1.0.1",
          tenant: "acme",
        },
      ],
    ],
    [
      "the Connect routes: gRPC-web and Connect, after the core bindings, whatever the order",
      {
        baseUrl: "http://h:8080/",
        connectPath: "/a2a/connect",
        jsonRpcPath: "/rpc",
        order: ["GRPC"],
      },
      [
        { url: "http://h:8080/rpc", protocolBinding: "JSONRPC", protocolVersion: "1.0" },
        {
          url: "http://h:8080/a2a/connect",
          protocolBinding: GRPC_WEB_PROTOCOL_BINDING,
          protocolVersion: "1.0",
        },
        {
          url: "http://h:8080/a2a/connect",
          protocolBinding: CONNECT_PROTOCOL_BINDING,
          protocolVersion: "1.0",
        },
      ],
    ],
    [
      "custom bindings (§12.7): their own full URLs, after the core ones and gRPC-web/Connect, in the given order, with the tenant and version",
      {
        baseUrl: "http://h:8080",
        jsonRpcPath: "/rpc",
        connectPath: "/c",
        tenant: "acme",
        custom: [
          { url: "wss://h/a2a/ws", protocolBinding: WS_URI },
          { url: "mqtt://broker/a2a", protocolBinding: "urn:example:a2a:mqtt" },
        ],
      },
      [
        {
          url: "http://h:8080/rpc",
          protocolBinding: "JSONRPC",
          protocolVersion: "1.0",
          tenant: "acme",
        },
        {
          url: "http://h:8080/c",
          protocolBinding: GRPC_WEB_PROTOCOL_BINDING,
          protocolVersion: "1.0",
          tenant: "acme",
        },
        {
          url: "http://h:8080/c",
          protocolBinding: CONNECT_PROTOCOL_BINDING,
          protocolVersion: "1.0",
          tenant: "acme",
        },
        { url: "wss://h/a2a/ws", protocolBinding: WS_URI, protocolVersion: "1.0", tenant: "acme" },
        {
          url: "mqtt://broker/a2a",
          protocolBinding: "urn:example:a2a:mqtt",
          protocolVersion: "1.0",
          tenant: "acme",
        },
      ],
    ],
    [
      "a custom binding first through order",
      {
        baseUrl: "http://h",
        jsonRpcPath: "/rpc",
        custom: [{ url: "ws://h/ws", protocolBinding: WS_URI }],
        order: [WS_URI],
      },
      [
        { url: "ws://h/ws", protocolBinding: WS_URI, protocolVersion: "1.0" },
        { url: "http://h/rpc", protocolBinding: "JSONRPC", protocolVersion: "1.0" },
      ],
    ],
    ["nothing mounted", { baseUrl: "http://h" }, []],
  ])("%s", (_, input, expected) => {
    expect(buildSupportedInterfaces(input)).toEqual(expected);
    // the result is valid ProtoJSON for AgentInterface
    for (const e of buildSupportedInterfaces(input))
      expect(() => fromJson(AgentCardSchema, { supportedInterfaces: [e] })).not.toThrow();
  });

  it.each<[string, MountedInterfaces["custom"]]>([
    ["not a URI", [{ url: "ws://h/ws", protocolBinding: "websocket" }]],
    ["a core binding's name", [{ url: "ws://h/ws", protocolBinding: "JSONRPC" }]],
    [
      "the runtime's Connect binding",
      [{ url: "http://h/c", protocolBinding: CONNECT_PROTOCOL_BINDING }],
    ],
    [
      "listed twice",
      [
        { url: "ws://h/ws", protocolBinding: WS_URI },
        { url: "ws://h/ws2", protocolBinding: WS_URI },
      ],
    ],
    ["no URL", [{ url: "", protocolBinding: WS_URI }]],
  ])("a custom binding that is %s is a TypeError", (_, custom) => {
    expect(() => buildSupportedInterfaces({ baseUrl: "http://h", custom })).toThrow(TypeError);
  });
});

describe("checkAgentCard", () => {
  const mounted: MountedInterfaces = {
    baseUrl: "https://a.example",
    jsonRpcPath: "/rpc",
    restPath: "/v1",
    grpcAddress: "grpc.a.example:443",
  };
  const good: JsonObject = {
    name: "n",
    description: "d",
    version: "1",
    supportedInterfaces: buildSupportedInterfaces(mounted),
    capabilities: {},
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [{ id: "s", name: "s", description: "s", tags: ["t"] }],
  };
  const ifaces = (...list: JsonObject[]) => ({ ...good, supportedInterfaces: list });
  const rpc = { url: "https://a.example/rpc", protocolBinding: "JSONRPC", protocolVersion: "1.0" };
  const rest = {
    url: "https://a.example/v1/",
    protocolBinding: "HTTP+JSON",
    protocolVersion: "1.0",
  };
  const grpc = { url: "grpc.a.example:443", protocolBinding: "GRPC", protocolVersion: "1.0" };
  const withConnect: MountedInterfaces = { ...mounted, connectPath: "/connect" };
  const web = {
    url: "https://a.example/connect",
    protocolBinding: GRPC_WEB_PROTOCOL_BINDING,
    protocolVersion: "1.0",
  };
  const connect = {
    url: "https://a.example/connect/",
    protocolBinding: CONNECT_PROTOCOL_BINDING,
    protocolVersion: "1.0",
  };
  const withWs: MountedInterfaces = {
    ...mounted,
    custom: [{ url: "wss://a.example/a2a/ws", protocolBinding: WS_URI }],
  };
  const ws = { url: "wss://a.example/a2a/ws", protocolBinding: WS_URI, protocolVersion: "1.0" };

  it.each<[string, JsonObject, MountedInterfaces, [string, string][]]>([
    ["a consistent card", good, mounted, []],
    [
      "a card built with toJson(AgentCardSchema)",
      toJson(AgentCardSchema, fromJson(AgentCardSchema, good)) as JsonObject,
      mounted,
      [],
    ],
    [
      "trailing slash / custom binding ignored",
      ifaces(rpc, rest, grpc, {
        url: "https://x",
        protocolBinding: "urn:custom",
        protocolVersion: "1.0",
      }),
      mounted,
      [],
    ],
    [
      "missing REQUIRED fields",
      { supportedInterfaces: good["supportedInterfaces"]!, name: "" },
      mounted,
      [
        ["missing-field", "name"],
        ["missing-field", "description"],
        ["missing-field", "version"],
        ["missing-field", "defaultInputModes"],
        ["missing-field", "defaultOutputModes"],
        ["missing-field", "skills"],
        ["missing-field", "capabilities"],
      ],
    ],
    [
      "declared but not mounted",
      good,
      { baseUrl: "https://a.example", jsonRpcPath: "/rpc", restPath: "/v1" },
      [["not-mounted", "GRPC"]],
    ],
    ["mounted but not declared", ifaces(rpc, grpc), mounted, [["not-declared", "HTTP+JSON"]]],
    [
      "URL mismatch",
      ifaces({ ...rpc, url: "https://a.example/other" }, rest, grpc),
      mounted,
      [["url-mismatch", "JSONRPC"]],
    ],
    [
      "gRPC as URL form (K1)",
      ifaces(rpc, rest, { ...grpc, url: "https://grpc.a.example" }),
      mounted,
      [["grpc-address-form", "GRPC"]],
    ],
    [
      "gRPC wrong port",
      ifaces(rpc, rest, { ...grpc, url: "grpc.a.example:8443" }),
      mounted,
      [["url-mismatch", "GRPC"]],
    ],
    [
      "tenant and version mismatch",
      ifaces({ ...rpc, tenant: "t1", protocolVersion: "0.3" }, rest, grpc),
      mounted,
      [
        ["tenant-mismatch", "JSONRPC"],
        ["version-mismatch", "JSONRPC"],
      ],
    ],
    [
      "malformed interface",
      ifaces(rpc, rest, grpc, { url: "" }),
      mounted,
      [["malformed-interface", "supportedInterfaces[3]"]],
    ],
    [
      "gRPC-web and Connect, mounted and declared",
      ifaces(rpc, rest, grpc, web, connect),
      withConnect,
      [],
    ],
    [
      "gRPC-web declared, the Connect routes not mounted",
      ifaces(rpc, rest, grpc, web),
      mounted,
      [["not-mounted", GRPC_WEB_PROTOCOL_BINDING]],
    ],
    [
      "the Connect routes mounted, Connect not declared",
      ifaces(rpc, rest, grpc, web),
      withConnect,
      [["not-declared", CONNECT_PROTOCOL_BINDING]],
    ],
    [
      "gRPC-web at another path",
      ifaces(rpc, rest, grpc, { ...web, url: "https://a.example/web" }, connect),
      withConnect,
      [["url-mismatch", GRPC_WEB_PROTOCOL_BINDING]],
    ],
    [
      "a custom binding, mounted and declared (first, too)",
      ifaces(ws, rpc, rest, grpc),
      withWs,
      [],
    ],
    ["a custom binding mounted, not declared", good, withWs, [["not-declared", WS_URI]]],
    [
      "a custom binding declared, not mounted: not ours, so not checked",
      ifaces(rpc, rest, grpc, ws),
      mounted,
      [],
    ],
    [
      "a custom binding at another URL",
      ifaces(rpc, rest, grpc, { ...ws, url: "wss://a.example/other" }),
      withWs,
      [["url-mismatch", WS_URI]],
    ],
    [
      "a custom binding with another version and tenant",
      ifaces(rpc, rest, grpc, { ...ws, protocolVersion: "0.3", tenant: "t" }),
      withWs,
      [
        ["tenant-mismatch", WS_URI],
        ["version-mismatch", WS_URI],
      ],
    ],
    [
      "no supportedInterfaces at all",
      { ...good, supportedInterfaces: [] },
      mounted,
      [
        ["missing-field", "supportedInterfaces"],
        ["not-declared", "JSONRPC"],
        ["not-declared", "HTTP+JSON"],
        ["not-declared", "GRPC"],
      ],
    ],
  ])("%s", (_, card, m, expected) => {
    const problems = checkAgentCard(card, m);
    expect(problems.map((p) => [p.kind, p.subject])).toEqual(expected);
    for (const p of problems) expect(p.message).not.toBe("");
  });
});

describe("serveAgentCard: lastModified (§8.6.1 MAY Last-Modified)", () => {
  const lastModified = new Date("2026-12-01T10:20:30.456Z");
  const handler = serveAgentCard({ name: "card" }, { lastModified });
  const get = (headers: Record<string, string> = {}): UniversalRequest => ({
    method: "GET",
    path: CARD_PATH,
    query: "",
    header: (name) => headers[name.toLowerCase()],
    headers: () => Object.entries(headers),
    readBody: async () => new Uint8Array(),
    signal: new AbortController().signal,
  });
  const header = (r: Awaited<ReturnType<UniversalHandler>>, name: string) =>
    r.headers.find(([n]) => n === name)?.[1];

  it("sends Last-Modified (whole seconds) on 200 and 304; If-Modified-Since at or after it → 304, before it or invalid → 200", async () => {
    const ok = await handler(get());
    expect(ok.status).toBe(200);
    expect(header(ok, "last-modified")).toBe("Tue, 01 Dec 2026 10:20:30 GMT");
    for (const [since, status] of [
      ["Tue, 01 Dec 2026 10:20:30 GMT", 304],
      ["Wed, 02 Dec 2026 00:00:00 GMT", 304],
      ["Tue, 01 Dec 2026 10:20:29 GMT", 200],
      ["not a date", 200],
    ] as const) {
      const r = await handler(get({ "if-modified-since": since }));
      expect(r.status, since).toBe(status);
      expect(header(r, "last-modified")).toBe("Tue, 01 Dec 2026 10:20:30 GMT");
    }
  });

  it("If-None-Match wins over If-Modified-Since (RFC 9110 §13.2.2)", async () => {
    const r = await handler(
      get({ "if-none-match": '"other"', "if-modified-since": "Wed, 02 Dec 2026 00:00:00 GMT" }),
    );
    expect(r.status).toBe(200);
  });

  it("without lastModified: no Last-Modified, If-Modified-Since ignored", async () => {
    const plain = serveAgentCard({ name: "card" });
    const r = await plain(get({ "if-modified-since": "Wed, 02 Dec 2099 00:00:00 GMT" }));
    expect(r.status).toBe(200);
    expect(header(r, "last-modified")).toBeUndefined();
  });
});
