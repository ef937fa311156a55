/**
 * A call whose client goes away mid-handler: the handler sees its signal abort and throws
 * the abort; the server must not log that as "handler failed" (nothing failed, nobody is
 * left to answer), while a real failure is still logged. JSON-RPC and HTTP+JSON, node adapter,
 * real sockets on 127.0.0.1.
 */
import { request as httpRequest } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { createA2AServiceJsonRpcServer } from "../../../generated-example/gen/a2a_a2a_jsonrpc_server.js";
import { createA2AServiceRestServer } from "../../../generated-example/gen/a2a_a2a_rest_server.js";
import type { A2AServiceHandler } from "../../../generated-example/gen/a2a_a2a_handler.js";
import { listen, type Listening } from "../../support/servers.js";

type Logged = [string, unknown][];

/** What the "abort" handler went through: `waiting` resolves once it waits for the abort, `settled` once it has thrown. */
function seenCall() {
  let enter!: () => void;
  let settle!: () => void;
  const waiting = new Promise<void>((r) => (enter = r));
  const settled = new Promise<void>((r) => (settle = r));
  return { aborted: false, waiting, settled, enter, settle };
}
type Seen = ReturnType<typeof seenCall>;

/** sendMessage waits for the abort and rethrows it ("abort"), or throws a plain error ("boom"). */
function handler(mode: "abort" | "boom", seen: Seen): A2AServiceHandler {
  return new Proxy({} as A2AServiceHandler, {
    get: () => async (_request: unknown, context: { signal: AbortSignal }) => {
      if (mode === "boom") throw new Error("boom");
      try {
        await new Promise<void>((resolve) => {
          context.signal.addEventListener("abort", () => resolve(), { once: true });
          seen.enter();
        });
        seen.aborted = true;
        throw context.signal.reason;
      } finally {
        seen.settle();
      }
    },
  });
}

const BINDINGS = [
  {
    name: "JSON-RPC",
    make: (h: A2AServiceHandler, logged: Logged) =>
      createA2AServiceJsonRpcServer(h, { logger: { error: (m, e) => logged.push([m, e]) } }).node,
    path: "/",
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "SendMessage",
      params: { message: { messageId: "m", role: "ROLE_USER", parts: [{ text: "x" }] } },
    }),
  },
  {
    name: "HTTP+JSON",
    make: (h: A2AServiceHandler, logged: Logged) =>
      createA2AServiceRestServer(h, { logger: { error: (m, e) => logged.push([m, e]) } }).node,
    path: "/message:send",
    body: JSON.stringify({
      message: { messageId: "m", role: "ROLE_USER", parts: [{ text: "x" }] },
    }),
  },
];

let server: Listening | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Sends the request and, if `hangUpWhen` is given, destroys the socket once it resolves (the request is out by then). */
function send(url: string, body: string, hangUpWhen?: Promise<void>): Promise<number | "hung up"> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: "POST", headers: { "content-type": "application/json", "a2a-version": "1.0" } },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", (e) => (hangUpWhen !== undefined ? resolve("hung up") : reject(e)));
    req.end(body);
    void hangUpWhen?.then(() => req.destroy());
  });
}

describe.each(BINDINGS)("$name", ({ make, path, body }) => {
  it("a client that hangs up mid-call: the handler sees the abort, nothing is logged", async () => {
    const logged: Logged = [];
    const seen = seenCall();
    server = await listen(make(handler("abort", seen), logged));
    const url = `${server.url.replace(/\/$/, "")}${path}`;
    expect(await send(url, body, seen.waiting)).toBe("hung up"); // hangs up while the handler runs
    await seen.settled; // the handler has thrown the abort's reason
    expect(seen.aborted).toBe(true);
    // A later request to the same server, answered before any handler runs (its body is no JSON):
    // the server has dealt with the abandoned call's throw (where it would log) before it.
    expect(await send(url, "{")).toBeGreaterThanOrEqual(200);
    expect(logged).toEqual([]);
  });

  it("a handler that really fails is still logged (and answered as InternalError)", async () => {
    const logged: Logged = [];
    server = await listen(make(handler("boom", seenCall()), logged));
    const status = await send(`${server.url.replace(/\/$/, "")}${path}`, body);
    expect(status).toBe(path === "/" ? 200 : 500);
    expect(logged.map(([m]) => m)).toEqual(["SendMessage: handler failed"]);
    expect((logged[0]![1] as Error).message).toBe("boom");
  });
});
