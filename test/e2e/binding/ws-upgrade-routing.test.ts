/**
 * Issue #25 (point 4): a client that offers to upgrade to h2c (`curl --http2`, Java's HttpClient)
 * got 404 on every HTTP endpoint of the example agent, because the WebSocket binding's upgrade
 * listener answered every upgrade request that was not /a2a/ws. Now only a WebSocket upgrade to
 * the binding's path upgrades; every other request offering an upgrade is served as the plain
 * HTTP/1.1 request it also is (RFC 9110 §7.8), body included (Content-Length or chunked, split
 * over several writes), on a connection that stays usable (keep-alive, pipelining). The binding
 * stays correct next to other upgrade listeners and routes (`routeUpgrade`, `serveUpgradeAsHttp`
 * of @protoc-gen-a2a/runtime/http). Real servers on 127.0.0.1, real sockets, and curl (--http2).
 */
import { execFile } from "node:child_process";
import { createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { routeUpgrade, serveUpgradeAsHttp } from "@protoc-gen-a2a/runtime/http";
import {
  startExampleAgent,
  type ExampleAgent,
} from "../../../generated-example/agent/echo-agent.js";
import { attachWsServer } from "../../../generated-example/bindings/ws/ws-server.js";
import type { A2AServiceHandler } from "../../../generated-example/gen/a2a_a2a_handler.js";

/** The headers curl --http2 sends with a cleartext request. */
const H2C = {
  connection: "Upgrade, HTTP2-Settings",
  upgrade: "h2c",
  "http2-settings": "AAMAAABkAAQCAAAAAAIAAAAA",
};
const H2C_RAW =
  "Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\n";

interface Answer {
  readonly status: number;
  readonly headers: IncomingMessage["headers"];
  readonly body: string;
}
/** One request with node:http's client; `body` sent in the given pieces (chunked unless a content-length header is given). */
function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; pieces?: readonly string[] } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: options.method ?? "GET", headers: options.headers, agent: false },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("upgrade", () => reject(new Error("the server upgraded")));
    req.on("error", reject);
    const pieces = [...(options.pieces ?? [])];
    const next = () => {
      const piece = pieces.shift();
      if (piece === undefined) return req.end();
      req.write(piece);
      setTimeout(next, 20);
    };
    next();
  });
}

/**
 * Writes `pieces` on a new connection and reads until the server closes it: each piece 20 ms after
 * the previous one, or (`sequential`) once the previous piece's response has begun.
 */
function rawExchange(port: number, pieces: readonly string[], sequential = false): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(port, "127.0.0.1");
    let out = "";
    let written = 0;
    const rest = [...pieces];
    const next = () => {
      const piece = rest.shift();
      if (piece === undefined) return;
      socket.write(piece);
      written++;
      if (!sequential) setTimeout(next, 20);
    };
    socket.setEncoding("latin1");
    socket.on("data", (d: string) => {
      out += d;
      if (sequential && statusLines(out).length >= written) next();
    });
    socket.on("error", reject);
    socket.on("close", () => resolve(out));
    socket.on("connect", next);
  });
}
/** The statuses of the responses in a raw exchange (the bodies here hold no status line). */
const statusLines = (raw: string) =>
  [...raw.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));

const rpcBody = (method: string, params: unknown) =>
  JSON.stringify({ jsonrpc: "2.0", id: 1, method, params });
const messageParams = (text: string) => ({
  message: { messageId: crypto.randomUUID(), role: "ROLE_USER", parts: [{ text }] },
});

/** Opens a WebSocket and resolves once open, or rejects with the HTTP status it got instead. */
function openWs(url: string, headers?: Record<string, string>): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.once("open", () => resolve(socket));
    socket.once("unexpected-response", (_req, res: IncomingMessage) =>
      reject(new Error(`HTTP ${res.statusCode}`)),
    );
    socket.once("error", reject);
  });
}
/** One GetTask over a WebSocket: the answer frame. */
async function wsGetTask(socket: WebSocket, id: string): Promise<Record<string, unknown>> {
  const frame = new Promise<Record<string, unknown>>((resolve) =>
    socket.once("message", (data) => resolve(JSON.parse(String(data)) as Record<string, unknown>)),
  );
  socket.send(
    JSON.stringify({
      id: 1,
      method: "GetTask",
      params: { id },
      serviceParameters: { "A2A-Version": "1.0" },
    }),
  );
  return frame;
}

describe("the example agent: Upgrade: h2c is plain HTTP/1.1 on every endpoint; WebSocket still upgrades", () => {
  let agent: ExampleAgent;
  let base: string;
  const connections: Socket[] = [];
  beforeAll(async () => {
    agent = await startExampleAgent();
    base = `http://127.0.0.1:${agent.httpPort}`;
  });
  afterAll(async () => {
    for (const c of connections) c.destroy();
    await agent.close();
  });

  it("GET the Agent Card with Upgrade: h2c: 200 and the card", async () => {
    const answer = await send(`${base}/.well-known/agent-card.json`, { headers: H2C });
    expect(answer.status).toBe(200);
    expect((JSON.parse(answer.body) as { name: string }).name).toBe("protoc-gen-a2a example agent");
  });

  it("POST JSON-RPC SendMessage with Upgrade: h2c, a Content-Length body split over writes: answered", async () => {
    const body = rpcBody("SendMessage", messageParams("hello over h2c"));
    const half = Math.floor(body.length / 2);
    const answer = await send(agent.endpoints.jsonrpc, {
      method: "POST",
      headers: {
        ...H2C,
        "content-type": "application/json",
        "a2a-version": "1.0",
        "content-length": String(Buffer.byteLength(body)),
      },
      pieces: [body.slice(0, half), body.slice(half)],
    });
    expect(answer.status).toBe(200);
    const result = (
      JSON.parse(answer.body) as { result?: { message?: { parts: { text: string }[] } } }
    ).result;
    expect(result?.message?.parts[0]?.text).toBe("hello over h2c");
  });

  it("POST JSON-RPC with Upgrade: h2c and a chunked body: answered", async () => {
    const body = rpcBody("SendMessage", messageParams("chunked over h2c"));
    const answer = await send(agent.endpoints.jsonrpc, {
      method: "POST",
      headers: { ...H2C, "content-type": "application/json", "a2a-version": "1.0" },
      pieces: [body.slice(0, 10), body.slice(10, 40), body.slice(40)],
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toContain("chunked over h2c");
  });

  it("HTTP+JSON message:send and a GET of the task with Upgrade: h2c: answered", async () => {
    const body = JSON.stringify(messageParams("tck-complete-task over h2c"));
    const sent = await send(`${agent.endpoints.rest}/message:send`, {
      method: "POST",
      headers: {
        ...H2C,
        "content-type": "application/json",
        "a2a-version": "1.0",
        "content-length": String(Buffer.byteLength(body)),
      },
      pieces: [body],
    });
    expect(sent.status).toBe(200);
    const taskId = (JSON.parse(sent.body) as { task: { id: string } }).task.id;
    const got = await send(`${agent.endpoints.rest}/tasks/${taskId}`, {
      headers: { ...H2C, "a2a-version": "1.0" },
    });
    expect(got.status).toBe(200);
    expect((JSON.parse(got.body) as { id: string }).id).toBe(taskId);
  });

  it("keep-alive and pipelining: a plain request, an h2c one and another plain one on one connection are all answered, in order", async () => {
    const card = "/.well-known/agent-card.json";
    const out = await rawExchange(agent.httpPort, [
      `GET ${card} HTTP/1.1\r\nHost: x\r\n\r\nGET ${card} HTTP/1.1\r\nHost: x\r\n${H2C_RAW}\r\n`,
      `GET /a2a/no-such-path HTTP/1.1\r\nHost: x\r\n${H2C_RAW}\r\n`,
      `GET ${card} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    ]);
    expect(statusLines(out)).toEqual([200, 200, 404, 200]);
    expect(out).not.toContain("101 Switching Protocols");
  });

  it("a WebSocket upgrade to another path is plain HTTP too (404), while /a2a/ws upgrades and answers", async () => {
    await expect(openWs(agent.endpoints.ws.replace("/a2a/ws", "/a2a/other"))).rejects.toThrow(
      "HTTP 404",
    );
    // h2c on the WebSocket path is no WebSocket upgrade: plain HTTP (nothing is served there over HTTP).
    expect((await send(`${base}/a2a/ws`, { headers: H2C })).status).toBe(404);
    const socket = await openWs(agent.endpoints.ws);
    try {
      const frame = await wsGetTask(socket, "no-such-task");
      expect((frame["error"] as { code: number }).code).toBe(-32001);
    } finally {
      socket.terminate();
    }
  });

  it("curl --http2: GET of the card and POST of JSON-RPC are answered over HTTP/1.1", async () => {
    const run = promisify(execFile);
    const card = await run("curl", [
      "-sS",
      "--http2",
      "-o",
      "-",
      "-w",
      "\n%{http_code} %{http_version}",
      `${base}/.well-known/agent-card.json`,
    ]);
    expect(card.stdout.trim().split("\n").at(-1)).toBe("200 1.1");
    const post = await run("curl", [
      "-sS",
      "--http2",
      "-H",
      "content-type: application/json",
      "-H",
      "a2a-version: 1.0",
      "-d",
      rpcBody("SendMessage", messageParams("hello from curl")),
      "-w",
      "\n%{http_code}",
      agent.endpoints.jsonrpc,
    ]);
    const lines = post.stdout.trim().split("\n");
    expect(lines.at(-1)).toBe("200");
    expect(lines.slice(0, -1).join("\n")).toContain("hello from curl");
  });
});

describe("next to other upgrade listeners and routes", () => {
  const handler = {
    getTask: async () => Promise.reject(new Error("unused")),
  } as unknown as A2AServiceHandler;
  let server: Server;
  let port: number;
  /** Each socket the server's 'connection' listeners saw. */
  const seen: Socket[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      let n = 0;
      req.on("data", (c: Buffer) => (n += c.length));
      // (Whether the handler still sees the ignored Upgrade header depends on the Node version: not asserted.)
      req.on("end", () =>
        res.writeHead(200, { "content-type": "text/plain" }).end(`${req.method} ${req.url} ${n}`),
      );
    });
    server.on("connection", (socket: Socket) => seen.push(socket));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const url = (path: string) => `http://127.0.0.1:${port}${path}`;

  it("two WebSocket bindings on one server (two paths) share one listener; h2c stays HTTP; closing one leaves the other; closing both leaves no listener", async () => {
    const a = attachWsServer(server, handler, { path: "/a", versionWhenMissing: "1.0" });
    const b = attachWsServer(server, handler, { path: "/b", versionWhenMissing: "1.0" });
    try {
      expect(server.listenerCount("upgrade")).toBe(1);
      for (const path of ["/a", "/b"]) (await openWs(`ws://127.0.0.1:${port}${path}`)).terminate();
      expect(
        (await send(url("/x"), { method: "POST", headers: H2C, pieces: ["abc", "de"] })).body,
      ).toBe("POST /x 5");
      await a.close();
      await expect(openWs(`ws://127.0.0.1:${port}/a`)).rejects.toThrow("HTTP 200");
      (await openWs(`ws://127.0.0.1:${port}/b`)).terminate();
    } finally {
      await a.close();
      await b.close();
    }
    expect(server.listenerCount("upgrade")).toBe(0);
    // Node's own handling with no upgrade listener: plain HTTP as well.
    expect((await send(url("/y"), { headers: H2C })).body).toBe("GET /y 0");
  });

  it("a routeUpgrade route of another protocol beside the binding: each gets its own upgrades, the rest is HTTP", async () => {
    const ws = attachWsServer(server, handler, { versionWhenMissing: "1.0" });
    const echo = routeUpgrade(server, {
      matches: (req) => req.headers.upgrade?.toLowerCase() === "echo/1",
      upgrade: (_req, socket, head) => {
        socket.write(
          "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: echo/1\r\n\r\n",
        );
        if (head.length > 0) socket.write(head);
        socket.pipe(socket);
      },
    });
    try {
      const reply = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, "127.0.0.1", () =>
          socket.write(
            "GET /anything HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: echo/1\r\n\r\nping",
          ),
        );
        let out = "";
        socket.setEncoding("latin1");
        socket.on("data", (d: string) => {
          out += d;
          if (out.endsWith("ping")) {
            socket.destroy();
            resolve(out);
          }
        });
        socket.on("error", reject);
      });
      expect(reply).toMatch(/^HTTP\/1\.1 101 .*ping$/s);
      (await openWs(`ws://127.0.0.1:${port}/a2a/ws`)).terminate();
      expect((await send(url("/z"), { headers: H2C })).body).toBe("GET /z 0");
    } finally {
      echo();
      await ws.close();
    }
  });

  it("with an 'upgrade' listener of its own, the server's other upgrades are left to it; serveUpgradeAsHttp serves those it does not take", async () => {
    const ws = attachWsServer(server, handler, { versionWhenMissing: "1.0" });
    const own = (req: IncomingMessage, socket: Socket, head: Buffer) => {
      if (req.url === "/mine")
        return socket.end(
          "HTTP/1.1 418 I'm a Teapot\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
        );
      // The binding's own upgrades are the binding's.
      if (req.url === "/a2a/ws") return;
      serveUpgradeAsHttp(server, req, socket, head);
    };
    server.on("upgrade", own);
    try {
      (await openWs(`ws://127.0.0.1:${port}/a2a/ws`)).terminate();
      expect((await send(url("/mine"), { headers: H2C })).status).toBe(418);
      expect(
        (
          await send(url("/other"), {
            method: "POST",
            headers: { ...H2C, "content-length": "3" },
            pieces: ["xyz"],
          })
        ).body,
      ).toBe("POST /other 3");
    } finally {
      server.off("upgrade", own);
      await ws.close();
    }
  });

  it("a socket served again as HTTP is not shown to the server's 'connection' listeners twice", async () => {
    const ws = attachWsServer(server, handler, { versionWhenMissing: "1.0" });
    try {
      seen.length = 0;
      // The second request once the first is answered (a client that offers an upgrade waits for the answer, RFC 9110 §7.8).
      const out = await rawExchange(
        port,
        [
          `GET /once HTTP/1.1\r\nHost: x\r\n${H2C_RAW}\r\n`,
          `GET /twice HTTP/1.1\r\nHost: x\r\n${H2C_RAW}Connection: close\r\n\r\n`,
        ],
        true,
      );
      expect(statusLines(out)).toEqual([200, 200]);
      expect(seen).toHaveLength(1);
    } finally {
      await ws.close();
    }
  });
});
