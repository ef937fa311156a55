/**
 * @protoc-gen-a2a/runtime/express (runtime/src/frameworks/express.ts): the A2A handler as Express 5
 * middleware, mounted under /a2a and at the card's path, on a real server on 127.0.0.1, called with
 * the generated clients (test/support/framework-suite.ts); serveNode's write timeout through Express;
 * and a body that express.json() (or another reader) consumed before the middleware.
 */
import { createServer, type IncomingMessage } from "node:http";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { a2aExpress } from "@protoc-gen-a2a/runtime/express";
import { A2AServiceJsonRpcClient } from "../../../generated-example/gen/a2a_a2a_jsonrpc_client.js";
import { A2AServiceRestClient } from "../../../generated-example/gen/a2a_a2a_rest_client.js";
import {
  a2aMount,
  frameworkSuite,
  jsonRpcBody,
  listenServer,
  sendParams,
  stalledReaderIsCut,
  userMessage,
  type A2AMount,
  type FrameworkApp,
} from "../../support/framework-suite.js";

type Listening = Awaited<ReturnType<typeof listenServer>>;

async function start(
  setUp: (app: express.Express, mount: A2AMount) => void,
): Promise<{ app: FrameworkApp; server: Listening }> {
  const mount = a2aMount();
  const app = express();
  setUp(app, mount);
  const server = await listenServer(createServer(app));
  mount.setOrigin(server.origin);
  return {
    app: {
      origin: server.origin,
      fetch: globalThis.fetch,
      mount,
      ownRoute: { path: "/own", body: "own route" },
      close: server.close,
    },
    server,
  };
}

describe("Express: a2aExpress mounted under /a2a and at the card's path", () => {
  let started: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    started = await start((app, mount) => {
      app.get("/own", (_req, res) => {
        res.type("text/plain").send("own route");
      });
      app.use(
        ["/a2a", "/.well-known/agent-card.json"],
        a2aExpress(mount.handler, { stalledWriteTimeoutMs: 500 }),
      );
      app.get("/after", (_req, res) => {
        res.type("text/plain").send("after");
      });
      app.post("/own/json", express.json(), (req, res) => {
        res.json({ got: req.body });
      });
    });
  });
  afterAll(() => started.app.close());

  frameworkSuite(() => started.app);

  it("routes declared after the mount, and the app's own body parsing, keep working", async () => {
    const after = await fetch(`${started.app.origin}/after`);
    expect(await after.text()).toBe("after");
    const json = await fetch(`${started.app.origin}/own/json`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"a":1}',
    });
    expect(await json.json()).toEqual({ got: { a: 1 } });
    const elsewhere = await fetch(`${started.app.origin}/not-a2a`);
    expect(elsewhere.status).toBe(404); // Express's own 404 outside the mount
  });

  it("a client that reads nothing is cut after stalledWriteTimeoutMs (serveNode's slow-reader bound through Express)", async () => {
    await stalledReaderIsCut(started.app.origin, started.server.sockets, started.app.mount.big);
  });
});

describe("Express: a body parser mounted before a2aExpress", () => {
  let started: Awaited<ReturnType<typeof start>>;
  let verified: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    started = await start((app, mount) => {
      app.use(express.json({ type: ["application/json", "application/*+json"], limit: "1kb" }));
      app.use("/elsewhere", (req, _res, next) => {
        // a reader that keeps nothing
        req.on("data", () => {});
        req.on("end", () => next());
      });
      app.get("/own", (_req, res) => {
        res.type("text/plain").send("own route");
      });
      app.use(["/a2a", "/.well-known/agent-card.json", "/elsewhere"], a2aExpress(mount.handler));
    });
    verified = await start((app, mount) => {
      app.use(
        express.json({
          verify: (req, _res, buf) =>
            ((req as IncomingMessage & { rawBody?: Buffer }).rawBody = buf),
        }),
      );
      app.use("/a2a", a2aExpress(mount.handler));
    });
  });
  afterAll(async () => {
    await started.app.close();
    await verified.app.close();
  });

  it("JSON-RPC and HTTP+JSON calls work from the parsed body (re-serialized), streams included", async () => {
    const { origin } = started.app;
    for (const client of [
      new A2AServiceJsonRpcClient({ url: `${origin}/a2a/jsonrpc` }),
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
  });

  it("a body express.json() refused is answered by the A2A handler: malformed → -32700, over the parser's limit → -32600", async () => {
    const url = `${started.app.origin}/a2a/jsonrpc`;
    const headers = { "content-type": "application/json", "a2a-version": "1.0" };
    const malformed = await fetch(url, { method: "POST", headers, body: "{not json" });
    expect(malformed.status).toBe(200);
    expect(await malformed.json()).toMatchObject({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32700 },
    });
    const scalar = await fetch(url, { method: "POST", headers, body: "42" }); // body-parser's strict mode refuses it
    expect(await scalar.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 } });
    const large = await fetch(url, {
      method: "POST",
      headers,
      body: jsonRpcBody("SendMessage", sendParams("x".repeat(2048))),
    });
    expect(large.headers.get("content-type")).toMatch(/json/);
    expect(await large.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 } });
    const rest = await fetch(`${started.app.origin}/a2a/rest/message:send`, {
      method: "POST",
      headers: { "content-type": "application/a2a+json", "a2a-version": "1.0" },
      body: "{oops",
    });
    expect(rest.status).toBe(400);
    expect(await rest.json()).toMatchObject({ error: { code: 400, status: "INVALID_ARGUMENT" } });
  });

  it("a body read by something that kept no copy gets a 500 JSON error saying so, not a hang", async () => {
    const res = await fetch(`${started.app.origin}/elsewhere`, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: "hello",
    });
    expect(res.status).toBe(500);
    const body = (await res.json()) as { error: { status: string; message: string } };
    expect(body.error.status).toBe("INTERNAL");
    expect(body.error.message).toContain("mount a2aExpress before the body parser");
  });

  it("with a verify hook keeping req.rawBody, the exact bytes are replayed (a JSON-RPC id beyond 2^53 comes back as sent)", async () => {
    const id = "123456789012345678901234567890";
    const res = await fetch(`${verified.app.origin}/a2a/jsonrpc`, {
      method: "POST",
      headers: { "content-type": "application/json", "a2a-version": "1.0" },
      body: `{"jsonrpc":"2.0","id":${id},"method":"SendMessage","params":${JSON.stringify(sendParams("big id"))}}`,
    });
    const text = await res.text();
    expect(text).toContain(`"id":${id}`);
    expect(text).toContain('"big id"');
  });

  it("the app's own route still answers", async () => {
    expect(await (await fetch(`${started.app.origin}/own`)).text()).toBe("own route");
  });
});
