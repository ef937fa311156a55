/**
 * @protoc-gen-a2a/runtime/fastify (runtime/src/frameworks/fastify.ts): the A2A handler as a Fastify 5
 * plugin, registered with the prefix /a2a and, without a prefix, at the card's path; on a real server
 * on 127.0.0.1, called with the generated clients (test/support/framework-suite.ts); the app's JSON
 * parser and hooks around it; serveNode's write timeout through Fastify.
 */
import Fastify, { type FastifyInstance } from "fastify";
import type { Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { a2aFastify } from "@protoc-gen-a2a/runtime/fastify";
import {
  a2aMount,
  frameworkSuite,
  jsonRpcBody,
  sendParams,
  stalledReaderIsCut,
  type FrameworkApp,
} from "../../support/framework-suite.js";

describe("Fastify: a2aFastify registered with the prefix /a2a, and at the card's path", () => {
  let fastify: FastifyInstance;
  let app: FrameworkApp;
  const sockets = new Set<Socket>();

  beforeAll(async () => {
    const mount = a2aMount();
    fastify = Fastify();
    fastify.server.on("connection", (s: Socket) => {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
    });
    fastify.addHook("onRequest", async (request, reply) => {
      if (request.headers["x-deny"] !== undefined)
        throw Object.assign(new Error("denied by the app"), { statusCode: 403 });
      reply.header("x-app-hook", "seen");
    });
    fastify.get("/own", async () => "own route");
    fastify.post("/own/json", async (request) => ({ got: request.body }));
    await fastify.register(a2aFastify(mount.handler, { stalledWriteTimeoutMs: 500 }), {
      prefix: "/a2a",
    });
    await fastify.register(a2aFastify(mount.handler, { routes: ["/.well-known/agent-card.json"] }));
    await fastify.listen({ port: 0, host: "127.0.0.1" });
    const address = fastify.server.address();
    const origin = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`;
    mount.setOrigin(origin);
    app = {
      origin,
      fetch: globalThis.fetch,
      mount,
      ownRoute: { path: "/own", body: "own route" },
      close: async () => {
        for (const s of sockets) s.destroy();
        await fastify.close();
      },
    };
  });
  afterAll(() => app.close());

  frameworkSuite(() => app);

  it("routes outside the plugin keep Fastify's JSON parser and 404", async () => {
    const json = await fetch(`${app.origin}/own/json`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"a":1}',
    });
    expect(await json.json()).toEqual({ got: { a: 1 } });
    const elsewhere = await fetch(`${app.origin}/not-a2a`);
    expect(elsewhere.status).toBe(404);
    expect(await elsewhere.json()).toMatchObject({ statusCode: 404 }); // Fastify's own
  });

  it("the A2A handler answers the content types Fastify would refuse, the prefix itself, and bodies over Fastify's bodyLimit", async () => {
    const url = `${app.origin}/a2a/jsonrpc`;
    const body = jsonRpcBody("SendMessage", sendParams("hi"));
    const malformedType = await fetch(url, {
      method: "POST",
      headers: { "content-type": "not a media type", "a2a-version": "1.0" },
      body,
    });
    expect(await malformedType.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32005 } });
    const otherType = await fetch(url, {
      method: "POST",
      headers: { "content-type": "text/plain", "a2a-version": "1.0" },
      body,
    });
    expect(await otherType.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32005 } });
    const prefix = await fetch(`${app.origin}/a2a`);
    expect(prefix.status).toBe(404);
    expect(await prefix.json()).toMatchObject({ error: { status: "NOT_FOUND" } });
    // Fastify's default bodyLimit is 1 MiB; the handler's own limit (64 KiB here) is what applies, spec-shaped.
    const big = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "a2a-version": "1.0" },
      body: jsonRpcBody("SendMessage", sendParams("x".repeat(2 << 20))),
    });
    expect(await big.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 } });
  });

  it("the app's hooks run: headers they set are sent with A2A answers (streams too), an error they throw is the app's", async () => {
    const card = await fetch(`${app.origin}/.well-known/agent-card.json`);
    expect(card.headers.get("x-app-hook")).toBe("seen");
    const stream = await fetch(`${app.origin}/a2a/jsonrpc`, {
      method: "POST",
      headers: { "content-type": "application/json", "a2a-version": "1.0" },
      body: jsonRpcBody("SendStreamingMessage", sendParams("stream me")),
    });
    expect(stream.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(stream.headers.get("x-app-hook")).toBe("seen");
    expect((await stream.text()).match(/^data:/gm)).toHaveLength(4);
    const denied = await fetch(`${app.origin}/a2a/jsonrpc`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-deny": "1" },
      body: "{}",
    });
    expect(denied.status).toBe(403);
    expect(await denied.json()).toMatchObject({ statusCode: 403, message: "denied by the app" });
    const deniedBadType = await fetch(`${app.origin}/a2a/jsonrpc`, {
      method: "POST",
      headers: { "content-type": "not a media type", "x-deny": "1" },
      body: "{}",
    });
    expect(deniedBadType.status).toBe(403);
  });

  it("a client that reads nothing is cut after stalledWriteTimeoutMs (serveNode's slow-reader bound through Fastify)", async () => {
    await stalledReaderIsCut(app.origin, sockets, app.mount.big);
  });
});
