/**
 * @protoc-gen-a2a/runtime/hono (runtime/src/frameworks/hono.ts): the A2A handler as a Hono handler,
 * on /a2a/* and at the card's path (and in a sub-app mounted with app.route), served by
 * @hono/node-server on 127.0.0.1 and called with the generated clients
 * (test/support/framework-suite.ts); Hono's middleware around it; a body middleware read first.
 */
import type { Server } from "node:http";
import { createAdaptorServer } from "@hono/node-server";
import { Hono } from "hono";
import { cors } from "hono/cors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { a2aHono } from "@protoc-gen-a2a/runtime/hono";
import { A2AServiceJsonRpcClient } from "../../../generated-example/gen/a2a_a2a_jsonrpc_client.js";
import { A2AServiceRestClient } from "../../../generated-example/gen/a2a_a2a_rest_client.js";
import {
  a2aMount,
  frameworkSuite,
  jsonRpcBody,
  listenServer,
  sendParams,
  userMessage,
  type A2AMount,
  type FrameworkApp,
} from "../../support/framework-suite.js";

async function start(setUp: (app: Hono, mount: A2AMount) => void): Promise<FrameworkApp> {
  const mount = a2aMount();
  const app = new Hono();
  setUp(app, mount);
  const server = await listenServer(createAdaptorServer({ fetch: app.fetch }) as Server);
  mount.setOrigin(server.origin);
  return {
    origin: server.origin,
    fetch: globalThis.fetch,
    mount,
    ownRoute: { path: "/own", body: "own route" },
    close: server.close,
  };
}

describe("Hono on @hono/node-server: a2aHono on /a2a/* and at the card's path", () => {
  let app: FrameworkApp;
  beforeAll(async () => {
    app = await start((hono, mount) => {
      hono.use("/a2a/*", cors({ origin: "https://app.example.com" }));
      hono.get("/own", (c) => c.text("own route"));
      hono.all("/a2a/*", a2aHono(mount.handler));
      hono.all("/.well-known/agent-card.json", a2aHono(mount.handler));
    });
  });
  afterAll(() => app.close());

  frameworkSuite(() => app);

  it("Hono's middleware sees the answers: cors() headers on buffered and streamed A2A answers", async () => {
    const headers = {
      "content-type": "application/json",
      "a2a-version": "1.0",
      origin: "https://app.example.com",
    };
    const unary = await fetch(`${app.origin}/a2a/jsonrpc`, {
      method: "POST",
      headers,
      body: jsonRpcBody("SendMessage", sendParams("hi")),
    });
    expect(unary.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
    expect(await unary.json()).toMatchObject({ jsonrpc: "2.0", result: {} });
    const stream = await fetch(`${app.origin}/a2a/jsonrpc`, {
      method: "POST",
      headers,
      body: jsonRpcBody("SendStreamingMessage", sendParams("stream me")),
    });
    expect(stream.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(stream.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
    expect((await stream.text()).match(/^data:/gm)).toHaveLength(4);
  });

  it("paths outside the A2A routes keep Hono's 404", async () => {
    const res = await fetch(`${app.origin}/not-a2a`);
    expect(res.status).toBe(404);
    expect(await res.text()).toBe("404 Not Found");
  });
});

describe("Hono: a2aHono in a sub-app (app.route), after middleware that read the body", () => {
  let app: FrameworkApp;
  beforeAll(async () => {
    app = await start((hono, mount) => {
      const a2a = new Hono();
      // A validator-like middleware: reads the JSON body before the A2A handler.
      a2a.use("/jsonrpc", async (c, next) => {
        if (c.req.method === "POST" && c.req.header("x-peek") !== undefined) {
          const body = (await c.req.json()) as { method?: unknown };
          c.header("x-peeked-method", String(body.method));
        }
        await next();
      });
      a2a.use("/rest/*", async (c, next) => {
        if (c.req.method === "POST") await c.req.text();
        await next();
      });
      a2a.all("*", a2aHono(mount.handler));
      hono.route("/a2a", a2a);
      hono.all("/.well-known/agent-card.json", a2aHono(mount.handler));
      hono.get("/own", (c) => c.text("own route"));
    });
  });
  afterAll(() => app.close());

  it("JSON-RPC and HTTP+JSON calls work from the body Hono cached, streams included", async () => {
    const { origin } = app;
    for (const client of [
      new A2AServiceJsonRpcClient({ url: `${origin}/a2a/jsonrpc`, headers: { "x-peek": "1" } }),
      new A2AServiceRestClient({ url: `${origin}/a2a/rest` }),
    ]) {
      const sent = await client.sendMessage(userMessage("hello"));
      expect(
        sent.payload.case === "message" ? sent.payload.value.parts[0]?.content : undefined,
      ).toEqual({ case: "text", value: "hello" });
      expect((await client.getTask({ id: "t-9" })).id).toBe("t-9");
      const cases: string[] = [];
      for await (const event of client.sendStreamingMessage(userMessage("stream me")))
        cases.push(event.payload.case ?? "none");
      expect(cases).toEqual(["task", "statusUpdate", "artifactUpdate", "statusUpdate"]);
    }
    const peeked = await fetch(`${origin}/a2a/jsonrpc`, {
      method: "POST",
      headers: { "content-type": "application/json", "a2a-version": "1.0", "x-peek": "1" },
      body: jsonRpcBody("SendMessage", sendParams("hi")),
    });
    expect(peeked.headers.get("x-peeked-method")).toBe("SendMessage");
    expect(await peeked.json()).toMatchObject({ jsonrpc: "2.0", result: {} });
  });

  it("the app's own route still answers", async () => {
    expect(await (await fetch(`${app.origin}/own`)).text()).toBe("own route");
  });
});
