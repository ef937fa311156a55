/**
 * The API document and API reference handlers (runtime/src/http/api-docs.ts) at the handler
 * level: caching (ETag/304), HEAD, 405, CORS, `servers` replaced; the Swagger UI page and its
 * fixed list of assets from the installed swagger-ui-dist (bytes, types, read once), path
 * traversal refused (also on a real socket, where nothing normalises the path), and the page
 * that says what to install when swagger-ui-dist is missing.
 */
import { copyFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  composeHandlers,
  serveApiDocument,
  serveApiReference,
  serveNode,
  type UniversalBufferedResponse,
  type UniversalHandler,
  type UniversalRequest,
} from "@protoc-gen-a2a/runtime/http";
import { listen } from "../../support/servers.js";

const SWAGGER_UI_DIR = dirname(
  createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"),
);

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
async function call(
  handler: UniversalHandler,
  method: string,
  path: string,
  headers: Record<string, string> = {},
) {
  const r = (await handler(req(method, path, headers))) as UniversalBufferedResponse;
  const body = typeof r.body === "string" ? r.body : new TextDecoder().decode(r.body);
  return {
    status: r.status,
    headers: new Map(r.headers),
    body,
    bytes: typeof r.body === "string" ? new TextEncoder().encode(r.body) : r.body,
  };
}

const openapi = {
  openapi: "3.1.0",
  info: { title: "t", version: "1" },
  servers: [{ url: "/" }],
  paths: {
    "/tasks/{id}": { get: { operationId: "GetTask", responses: { "200": { description: "OK" } } } },
  },
};

describe("serveApiDocument", () => {
  const servers = [{ url: "http://agent.example/a2a/rest", description: "HTTP+JSON" }];
  const handler = serveApiDocument(openapi, { servers, path: "/openapi.json" });

  it("GET: the document with its servers replaced, JSON, cacheable, CORS for any origin", async () => {
    const r = await call(handler, "GET", "/openapi.json");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(r.headers.get("cache-control")).toBe("public, max-age=300");
    expect(r.headers.get("etag")).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    expect(r.headers.get("access-control-expose-headers")).toBe("ETag");
    expect(JSON.parse(r.body)).toEqual({ ...openapi, servers });
    // The input is not changed.
    expect(openapi.servers).toEqual([{ url: "/" }]);
  });

  it("adds servers to a document without any; an OpenRPC server object passes as it is", async () => {
    const openrpc = {
      openrpc: "1.3.2",
      info: { title: "t", version: "1" },
      methods: [{ name: "GetTask", params: [], result: { name: "r", schema: {} } }],
    };
    const r = await call(
      serveApiDocument(openrpc, {
        servers: [{ name: "JSON-RPC", url: "http://agent.example/rpc" }],
      }),
      "GET",
      "/anything",
    );
    expect(JSON.parse(r.body)).toEqual({
      ...openrpc,
      servers: [{ name: "JSON-RPC", url: "http://agent.example/rpc" }],
    });
  });

  it("If-None-Match with the ETag (also weak, in a list, or *) → 304 without body; another tag → 200", async () => {
    const etag = (await call(handler, "GET", "/openapi.json")).headers.get("etag")!;
    for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const r = await call(handler, "GET", "/openapi.json", { "if-none-match": inm });
      expect(r.status, inm).toBe(304);
      expect(r.body).toBe("");
      expect(r.headers.get("etag")).toBe(etag);
    }
    expect(
      (await call(handler, "GET", "/openapi.json", { "if-none-match": '"other"' })).status,
    ).toBe(200);
  });

  it("HEAD gets the GET headers; the ETag follows the servers", async () => {
    const get = await call(handler, "GET", "/openapi.json");
    const head = await call(handler, "HEAD", "/openapi.json");
    expect(head.status).toBe(200);
    expect(head.headers).toEqual(get.headers);
    const other = await call(
      serveApiDocument(openapi, { servers: [{ url: "http://elsewhere/" }], path: "/openapi.json" }),
      "GET",
      "/openapi.json",
    );
    expect(other.headers.get("etag")).not.toBe(get.headers.get("etag"));
  });

  it("other methods → 405 with Allow; OPTIONS → 204 preflight; other paths → 404", async () => {
    for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
      const r = await call(handler, method, "/openapi.json");
      expect(r.status, method).toBe(405);
      expect(r.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    }
    const pre = await call(handler, "OPTIONS", "/openapi.json", {
      origin: "https://ui.example",
      "access-control-request-method": "GET",
      "access-control-request-headers": "if-none-match",
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-methods")).toBe("GET, HEAD, OPTIONS");
    expect(pre.headers.get("access-control-allow-headers")).toBe("if-none-match");
    expect((await call(handler, "GET", "/openapi.json/x")).status).toBe(404);
    expect((await call(handler, "GET", "/openapi")).status).toBe(404);
  });

  it("cors: { origin } names it with Vary; cors: false sends none; maxAgeSeconds", async () => {
    const named = await call(
      serveApiDocument(openapi, {
        servers,
        cors: { origin: "https://ui.example" },
        maxAgeSeconds: 60,
      }),
      "GET",
      "/",
    );
    expect(named.headers.get("access-control-allow-origin")).toBe("https://ui.example");
    expect(named.headers.get("vary")).toBe("Origin");
    expect(named.headers.get("cache-control")).toBe("public, max-age=60");
    const none = await call(serveApiDocument(openapi, { servers, cors: false }), "GET", "/");
    expect([...none.headers.keys()].filter((k) => k.startsWith("access-control-"))).toEqual([]);
  });

  it("anything but a JSON object is a TypeError", () => {
    for (const bad of [null, [], "x", 1])
      expect(() => serveApiDocument(bad as never, { servers })).toThrow(TypeError);
  });
});

describe("serveApiReference", () => {
  const warnings: string[] = [];
  const handler = serveApiReference({
    documentUrl: "/openapi.json",
    title: "Agent <API>",
    logger: { warn: (m) => warnings.push(m) },
  });

  it("the page at /docs, /docs/ and /docs/index.html: Swagger UI from relative links, no inline script, a CSP of its own origin", async () => {
    for (const [path, base] of [
      ["/docs", "docs/"],
      ["/docs/", "./"],
      ["/docs/index.html", "./"],
    ] as const) {
      const r = await call(handler, "GET", path);
      expect(r.status, path).toBe(200);
      expect(r.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(r.headers.get("content-security-policy")).toContain("script-src 'self'");
      expect(r.body).toContain("<title>Agent &#60;API&#62;</title>");
      const srcs = [...r.body.matchAll(/(?:src|href)="([^"]*)"/g)].map((m) => m[1]);
      expect(srcs, path).toEqual([
        `${base}swagger-ui.css`,
        `${base}favicon-32x32.png`,
        `${base}favicon-16x16.png`,
        `${base}swagger-ui-bundle.js`,
        `${base}api-reference.js`,
      ]);
      expect(r.body).not.toMatch(/<script>/);
      expect(r.body).not.toMatch(/https?:\/\//);
    }
    expect(warnings).toEqual([]);
  });

  it("the initializer points Swagger UI at documentUrl, with the online validator off", async () => {
    const r = await call(handler, "GET", "/docs/api-reference.js");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(r.body).toContain('new URL("/openapi.json", base)');
    expect(r.body).toContain("validatorUrl: null");
  });

  it.each([
    ["swagger-ui-bundle.js", "text/javascript; charset=utf-8"],
    ["swagger-ui.css", "text/css; charset=utf-8"],
    ["favicon-32x32.png", "image/png"],
    ["favicon-16x16.png", "image/png"],
  ])("%s: the installed swagger-ui-dist file, %s, with ETag/304", async (name, type) => {
    const r = await call(handler, "GET", `/docs/${name}`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe(type);
    expect(Buffer.from(r.bytes).equals(await readFile(join(SWAGGER_UI_DIR, name)))).toBe(true);
    const etag = r.headers.get("etag")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    const again = await call(handler, "GET", `/docs/${name}`, { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(again.body).toBe("");
    const head = await call(handler, "HEAD", `/docs/${name}`);
    expect(head.headers).toEqual(r.headers);
  });

  it("unknown assets, traversal attempts and other prefixes → 404; other methods → 405", async () => {
    for (const path of [
      "/docs/package.json",
      "/docs/index.js",
      "/docs/swagger-ui.js",
      "/docs/../package.json",
      // Files that exist next to / above swagger-ui-dist's directory:
      "/docs/../swagger-ui-dist/package.json",
      "/docs/../../package.json",
      "/docs/%2e%2e/x",
      "/docs/%2e%2e/package.json",
      "/docs/%2e%2e%2fpackage.json",
      "/docs/..%2fpackage.json",
      "/docs/swagger-ui.css/../../package.json",
      "/docs//swagger-ui.css",
      "/docs/./swagger-ui.css",
      "/docs/SWAGGER-UI.CSS",
      "/docs/swagger-ui.css%00",
      "/docs/constructor",
      "/docs/__proto__",
      "/docsx",
      "/swagger-ui.css",
    ]) {
      const r = await call(handler, "GET", path);
      expect(r.status, path).toBe(404);
      expect(r.body, path).not.toContain("swagger-ui-dist");
    }
    const post = await call(handler, "POST", "/docs/swagger-ui.css");
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
    expect((await call(handler, "DELETE", "/docs")).status).toBe(405);
  });

  it("another prefix, the root included", async () => {
    const api = serveApiReference({ documentUrl: "../openapi.json", prefix: "/a2a/reference/" });
    const page = await call(api, "GET", "/a2a/reference");
    expect(page.status).toBe(200);
    expect(page.body).toContain('src="reference/swagger-ui-bundle.js"');
    expect((await call(api, "GET", "/a2a/reference/swagger-ui.css")).status).toBe(200);
    expect((await call(api, "GET", "/docs")).status).toBe(404);
    const root = serveApiReference({ documentUrl: "openapi.json", prefix: "/" });
    expect((await call(root, "GET", "/")).body).toContain('src="./swagger-ui-bundle.js"');
    expect((await call(root, "GET", "/swagger-ui.css")).status).toBe(200);
  });

  it("reads each asset once and keeps it in memory", async () => {
    const dir = await mkdtemp(join(tmpdir(), "api-docs-"));
    try {
      await copyFile(
        join(SWAGGER_UI_DIR, "swagger-ui-bundle.js"),
        join(dir, "swagger-ui-bundle.js"),
      );
      await writeFile(join(dir, "swagger-ui.css"), "body { color: red }");
      const h = serveApiReference({ documentUrl: "/openapi.json", assetsDirectory: dir });
      expect((await call(h, "GET", "/docs/swagger-ui.css")).body).toBe("body { color: red }");
      await writeFile(join(dir, "swagger-ui.css"), "body { color: blue }");
      await rm(join(dir, "swagger-ui-bundle.js"));
      expect((await call(h, "GET", "/docs/swagger-ui.css")).body).toBe("body { color: red }");
      // Never read before the file went away: 404, not an error.
      expect((await call(h, "GET", "/docs/swagger-ui-bundle.js")).status).toBe(404);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("without swagger-ui-dist: the page says what to install (no stack trace), logged once; assets are 404", async () => {
    const dir = await mkdtemp(join(tmpdir(), "api-docs-empty-"));
    try {
      const logged: string[] = [];
      const h = serveApiReference({
        documentUrl: "/openapi.json",
        assetsDirectory: dir,
        logger: { warn: (m) => logged.push(m) },
      });
      for (let i = 0; i < 3; i++) {
        const page = await call(h, "GET", "/docs");
        expect(page.status).toBe(200);
        expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
        expect(page.headers.get("cache-control")).toBe("no-store");
        expect(page.body).toContain("npm install swagger-ui-dist");
        expect(page.body).toContain('<a href="/openapi.json">');
        expect(page.body).not.toMatch(/\bat .*:\d+:\d+|Error:/);
      }
      // The document link resolves against /docs/ from either form of the page's URL.
      expect((await call(h, "GET", "/docs")).body).toContain('<base href="docs/">');
      expect((await call(h, "GET", "/docs/")).body).toContain('<base href="./">');
      expect((await call(h, "GET", "/docs/swagger-ui-bundle.js")).status).toBe(404);
      expect((await call(h, "GET", "/docs/swagger-ui.css")).status).toBe(404);
      expect(logged).toHaveLength(1);
      expect(logged[0]).toContain("npm install swagger-ui-dist");
      expect(logged[0]).toContain(dir);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("on a socket (serveNode + composeHandlers): raw traversal paths reach the handler unnormalised", () => {
  let server: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    server = await listen(
      serveNode(
        composeHandlers(
          {
            prefix: "/openapi.json",
            handler: serveApiDocument(openapi, {
              servers: [{ url: "http://x/" }],
              path: "/openapi.json",
            }),
          },
          { prefix: "/docs", handler: serveApiReference({ documentUrl: "/openapi.json" }) },
        ),
      ),
    );
  });
  afterAll(() => server.close());

  /** A request with the path as written (fetch would resolve the dot segments first). */
  const raw = (method: string, path: string) =>
    new Promise<{ status: number; type: string | undefined; body: string }>((resolve, reject) => {
      const r = httpRequest({ host: "127.0.0.1", port: server.port, method, path }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (body += c));
        res.on("end", () =>
          resolve({ status: res.statusCode!, type: res.headers["content-type"], body }),
        );
      });
      r.on("error", reject);
      r.end();
    });

  it("serves the page, an asset and the document; refuses traversal", async () => {
    expect((await raw("GET", "/docs")).status).toBe(200);
    expect(await raw("GET", "/docs/swagger-ui.css")).toMatchObject({
      status: 200,
      type: "text/css; charset=utf-8",
    });
    expect(JSON.parse((await raw("GET", "/openapi.json")).body).servers).toEqual([
      { url: "http://x/" },
    ]);
    const head = await raw("HEAD", "/openapi.json");
    expect(head).toMatchObject({ status: 200, body: "" });
    for (const path of [
      "/docs/../package.json",
      "/docs/../swagger-ui-dist/package.json",
      "/docs/../../package.json",
      "/docs/%2e%2e/x",
      "/docs/%2e%2e/%2e%2e/package.json",
      "/docs/..%5cpackage.json",
    ]) {
      const r = await raw("GET", path);
      expect(r.status, path).toBe(404);
      expect(r.body, path).not.toContain('"name"');
    }
  });
});
