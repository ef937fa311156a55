import http from "node:http";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { serveFetch } from "../../../runtime/src/http/fetch-adapter.js";
import { serveNode } from "../../../runtime/src/http/node-adapter.js";
import { SSE_HEADERS, encodeSseEvent, parseSse } from "../../../runtime/src/http/sse.js";
import type {
  UniversalHandler,
  UniversalRequest,
  UniversalResponse,
} from "../../../runtime/src/http/universal.js";

const BODY_LIMIT = 1024;
const BIG_CHUNK = "x".repeat(16 * 1024);
const BIG_COUNT = 4000; // 64 MiB if nothing pushed back

/** What the test handler observed; reset before each test. */
interface Observed {
  signal: AbortSignal | undefined;
  pulled: number;
  finallyRan: boolean;
  bodyOutcome: string | undefined;
  gate: Promise<void>;
  openGate: () => void;
  /** The node:http response of the last request (set by the "serveNode on node:http" server). */
  response: http.ServerResponse | undefined;
  /** /big: chunks pulled while `response` was waiting for "drain" (write() had returned false). */
  pulledWhileBlocked: number;
  /** read() calls a test made on a streamed body (counted by the test, before each call). */
  readsAsked: number;
  /** /events: `readsAsked` at each pull. */
  readsAtPull: number[];
}

function freshObserved(): Observed {
  let openGate!: () => void;
  const gate = new Promise<void>((r) => (openGate = r));
  return {
    signal: undefined,
    pulled: 0,
    finallyRan: false,
    bodyOutcome: undefined,
    gate,
    openGate,
    response: undefined,
    pulledWhileBlocked: 0,
    readsAsked: 0,
    readsAtPull: [],
  };
}

let seen = freshObserved();

function text(
  status: number,
  body: string,
  contentType = "text/plain; charset=utf-8",
): UniversalResponse {
  return { status, headers: [["content-type", contentType]], body };
}

/** A small UniversalHandler exercising every adapter feature. */
const handler: UniversalHandler = async (req: UniversalRequest) => {
  const params = new URLSearchParams(req.query);
  switch (req.path) {
    case "/echo": {
      const body = await req.readBody(BODY_LIMIT);
      if (body === "too-large") return text(413, "too-large");
      return { status: 200, headers: [["content-type", "application/octet-stream"]], body };
    }
    case "/upload": {
      seen.signal = req.signal;
      const observed = seen;
      try {
        const body = await req.readBody(1 << 20);
        observed.bodyOutcome = body === "too-large" ? body : `read ${body.byteLength}`;
      } catch {
        observed.bodyOutcome = "rejected";
      }
      return text(200, "ok");
    }
    case "/info":
      return text(
        200,
        JSON.stringify({
          method: req.method,
          path: req.path,
          query: req.query,
          multi: req.header("X-Multi") ?? null,
          missing: req.header("x-missing") ?? null,
          names: [...req.headers()].map(([n]) => n).filter((n) => n.startsWith("x-")),
        }),
        "application/json",
      );
    case "/set-cookie":
      return {
        status: 201,
        headers: [
          ["Set-Cookie", "a=1"],
          ["set-cookie", "b=2"],
        ],
        body: "",
      };
    case "/no-content":
      return { status: 204, headers: [], body: "" };
    case "/reject":
      throw new Error("handler bug");
    case "/events": {
      seen.signal = req.signal;
      const n = Number(params.get("n") ?? "3");
      const waitAfter = Number(params.get("gate") ?? "-1");
      const observed = seen;
      async function* events(): AsyncGenerator<string> {
        try {
          for (let i = 0; i < n; i++) {
            observed.pulled++;
            observed.readsAtPull.push(observed.readsAsked);
            yield encodeSseEvent(JSON.stringify({ i }), { id: String(i) });
            if (i === waitAfter) await observed.gate;
          }
        } finally {
          observed.finallyRan = true;
        }
      }
      return { status: 200, headers: SSE_HEADERS, stream: events() };
    }
    case "/forever": {
      seen.signal = req.signal;
      const observed = seen;
      async function* events(): AsyncGenerator<string> {
        try {
          for (let i = 0; ; i++) {
            observed.pulled++;
            yield encodeSseEvent(String(i));
            await new Promise((r) => setTimeout(r, 5));
          }
        } finally {
          observed.finallyRan = true;
        }
      }
      return { status: 200, headers: SSE_HEADERS, stream: events() };
    }
    case "/big": {
      seen.signal = req.signal;
      const observed = seen;
      async function* chunks(): AsyncGenerator<string> {
        try {
          for (let i = 0; i < BIG_COUNT; i++) {
            observed.pulled++;
            if (observed.response?.writableNeedDrain === true) observed.pulledWhileBlocked++;
            yield BIG_CHUNK;
          }
        } finally {
          observed.finallyRan = true;
        }
      }
      return { status: 200, headers: [["content-type", "text/plain"]], stream: chunks() };
    }
    case "/broken-stream": {
      async function* chunks(): AsyncGenerator<string> {
        yield "data: 1\n\n";
        await new Promise((r) => setTimeout(r, 10));
        throw new Error("stream bug");
      }
      return { status: 200, headers: SSE_HEADERS, stream: chunks() };
    }
    default:
      return text(404, `no route ${req.method} ${req.path}`);
  }
};

/** Polls until `predicate` holds; fails after `ms`. */
async function waitFor(predicate: () => boolean, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 5));
  }
}

const decoder = new TextDecoder();

async function listen(server: http.Server | http2.Http2Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

describe("serveNode on node:http", () => {
  let server: http.Server;
  let base: string;
  let mounted: http.Server;
  let mountedBase: string;

  beforeAll(async () => {
    const listener = serveNode(handler);
    server = http.createServer((req, res) => {
      seen.response = res;
      listener(req, res);
    });
    base = `http://127.0.0.1:${await listen(server)}`;
    mounted = http.createServer(serveNode(handler, { basePath: "/a2a/" }));
    mountedBase = `http://127.0.0.1:${await listen(mounted)}`;
  });
  afterEach(() => {
    seen.openGate();
    seen = freshObserved();
  });
  afterAll(async () => {
    for (const s of [server, mounted]) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
  });

  it("echoes a body", async () => {
    const body = "é".repeat(400); // 800 bytes, under the limit
    const res = await fetch(`${base}/echo`, {
      method: "POST",
      body,
      signal: AbortSignal.timeout(5000),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-length")).toBe("800");
    expect(await res.text()).toBe(body);
  });

  it("echoes a body sent in many chunks", async () => {
    const parts = Array.from({ length: 10 }, (_, i) => String(i).repeat(100));
    const stream = new ReadableStream<Uint8Array>({
      async pull(c) {
        const p = parts.shift();
        if (p === undefined) c.close();
        else c.enqueue(new TextEncoder().encode(p));
        await new Promise((r) => setTimeout(r, 1));
      },
    });
    const res = await fetch(`${base}/echo`, {
      method: "POST",
      body: stream,
      duplex: "half",
      signal: AbortSignal.timeout(5000),
    } as RequestInit);
    expect(await res.text()).toBe(
      Array.from({ length: 10 }, (_, i) => String(i).repeat(100)).join(""),
    );
  });

  it("answers too-large past the limit and keeps serving", async () => {
    const res = await fetch(`${base}/echo`, {
      method: "POST",
      body: "x".repeat(100 * 1024),
      signal: AbortSignal.timeout(5000),
    });
    expect(res.status).toBe(413);
    expect(await res.text()).toBe("too-large");
    // chunked (no content-length): the limit trips while reading
    const chunked = await new Promise<{ status: number | undefined; body: string }>(
      (resolve, reject) => {
        const req = http.request(`${base}/echo`, { method: "POST" }, (r) => {
          let b = "";
          r.setEncoding("utf8");
          r.on("data", (c: string) => (b += c));
          r.on("end", () => resolve({ status: r.statusCode, body: b }));
        });
        req.on("error", reject);
        req.write("y".repeat(800));
        req.end("y".repeat(800));
      },
    );
    expect(chunked).toEqual({ status: 413, body: "too-large" });
    const after = await fetch(`${base}/info`, { signal: AbortSignal.timeout(5000) });
    expect(after.status).toBe(200);
  });

  it("cuts off an endless upload once the 413 is out, without hanging", async () => {
    let upload!: http.ClientRequest;
    const outcome = await new Promise<string>((resolve) => {
      const req = (upload = http.request(`${base}/echo`, { method: "POST" }, (r) => {
        r.resume();
        r.on("end", () => resolve(`status ${r.statusCode}`));
        r.on("error", () => resolve(`status ${r.statusCode}, then reset`));
      }));
      req.on("error", (e) => resolve(`error ${e.message}`));
      const chunk = "z".repeat(64 * 1024);
      const pump = (): void => {
        while (!req.destroyed && req.write(chunk));
        if (!req.destroyed) req.once("drain", pump);
      };
      pump();
    });
    // Either the client saw the 413 or the reset came first; it must not hang.
    expect(outcome).toMatch(/status 413|error/);
    // The server closed the connection instead of draining forever.
    await waitFor(() => upload.destroyed);
    expect((await fetch(`${base}/info`, { signal: AbortSignal.timeout(5000) })).status).toBe(200);
  });

  it("rejects readBody and aborts the signal when the client breaks off an upload", async () => {
    const seenHere = seen;
    const req = http.request(`${base}/upload`, { method: "POST" });
    req.on("error", () => undefined);
    req.write("partial body");
    await waitFor(() => seenHere.signal !== undefined);
    req.destroy();
    await waitFor(() => seenHere.bodyOutcome !== undefined);
    expect(seenHere.bodyOutcome).toBe("rejected");
    expect(seenHere.signal?.aborted).toBe(true);
  });

  it("exposes method, path, query and headers", async () => {
    const body = await new Promise<string>((resolve, reject) => {
      const req = http.request(
        `${base}/info/a%2Fb?x=1&y=%20`,
        { method: "PATCH", headers: { "x-multi": ["a", "b"], "X-Other": "o" } },
        (r) => {
          let b = "";
          r.setEncoding("utf8");
          r.on("data", (c: string) => (b += c));
          r.on("end", () => resolve(b));
        },
      );
      req.on("error", reject);
      req.end();
    });
    // "/info/a%2Fb" is not a route: the 404 text shows what the handler saw
    expect(body).toBe("no route PATCH /info/a%2Fb");
    const info = await new Promise<Record<string, unknown>>((resolve, reject) => {
      const req = http.request(
        `${base}/info?x=1&y=%20`,
        { method: "GET", headers: { "x-multi": ["a", "b"], "X-Other": "o" } },
        (r) => {
          let b = "";
          r.setEncoding("utf8");
          r.on("data", (c: string) => (b += c));
          r.on("end", () => resolve(JSON.parse(b) as Record<string, unknown>));
        },
      );
      req.on("error", reject);
      req.end();
    });
    expect(info).toEqual({
      method: "GET",
      path: "/info",
      query: "x=1&y=%20",
      multi: "a, b",
      missing: null,
      names: ["x-multi", "x-other"],
    });
  });

  it("writes repeated response headers and null-body statuses", async () => {
    const res = await fetch(`${base}/set-cookie`, { signal: AbortSignal.timeout(5000) });
    expect(res.status).toBe(201);
    expect(res.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    const empty = await fetch(`${base}/no-content`, { signal: AbortSignal.timeout(5000) });
    expect(empty.status).toBe(204);
    expect(empty.headers.get("content-length")).toBeNull();
  });

  it("answers a rejecting handler with a plain 500", async () => {
    const res = await fetch(`${base}/reject`, { signal: AbortSignal.timeout(5000) });
    expect(res.status).toBe(500);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await res.text()).toBe("internal error");
  });

  it("streams events incrementally", async () => {
    const res = await fetch(`${base}/events?n=3&gate=0`, { signal: AbortSignal.timeout(5000) });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const it = parseSse(res.body!)[Symbol.asyncIterator]();
    // The first event arrives while the generator is still held at the gate.
    expect((await it.next()).value).toEqual({ event: "message", data: '{"i":0}', id: "0" });
    expect(seen.pulled).toBe(1);
    seen.openGate();
    const rest: string[] = [];
    for (let r = await it.next(); !r.done; r = await it.next()) rest.push(r.value.data);
    expect(rest).toEqual(['{"i":1}', '{"i":2}']);
    await waitFor(() => seen.finallyRan);
    expect(seen.signal?.aborted).toBe(false);
  });

  it("aborts the signal and returns the generator when the client goes away", async () => {
    const client = new AbortController();
    const res = await fetch(`${base}/forever`, { signal: client.signal });
    const seenHere = seen;
    const got: string[] = [];
    for await (const e of parseSse(res.body!)) {
      got.push(e.data);
      if (got.length === 3) break; // cancels the body
    }
    client.abort();
    await waitFor(() => seenHere.finallyRan && seenHere.signal?.aborted === true);
    expect(got).toEqual(["0", "1", "2"]);
  });

  it("applies back-pressure to a slow reader", async () => {
    const client = new AbortController();
    const res = await fetch(`${base}/big`, { signal: client.signal });
    const reader = res.body!.getReader();
    await reader.read();
    const seenHere = seen;
    // The client reads no more: once the socket buffers are full write() returns false and the listener waits for "drain".
    await waitFor(() => seenHere.response?.writableNeedDrain === true);
    client.abort();
    await reader.cancel().catch(() => undefined);
    await waitFor(() => seenHere.finallyRan && seenHere.signal?.aborted === true);
    // The generator is done: every pull it will ever see has happened, all while the client read one chunk.
    // Socket buffers hold a few MiB; the generator must not run through all 64 MiB.
    expect(seenHere.pulled).toBeLessThan(BIG_COUNT / 2);
    expect(seenHere.pulledWhileBlocked).toBe(0); // stalled while the socket is full, not creeping on
  });

  it("reads a whole large stream", async () => {
    const res = await fetch(`${base}/big`, { signal: AbortSignal.timeout(20_000) });
    let bytes = 0;
    for await (const chunk of res.body!) bytes += (chunk as Uint8Array).byteLength;
    expect(bytes).toBe(BIG_CHUNK.length * BIG_COUNT);
  });

  it("cuts the response off when the stream throws", async () => {
    const res = await fetch(`${base}/broken-stream`, { signal: AbortSignal.timeout(5000) });
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
    expect((await fetch(`${base}/info`, { signal: AbortSignal.timeout(5000) })).status).toBe(200);
  });

  it.each([
    ["/a2a/info?q=1", 200, "/info"],
    ["/a2a", 404, "no route GET /"],
    ["/a2a/", 404, "no route GET /"],
    ["/a2ax/info", 404, "not found"],
    ["/info", 404, "not found"],
    ["/", 404, "not found"],
  ])("basePath: %s → %i", async (path, status, expected) => {
    const res = await fetch(`${mountedBase}${path}`, { signal: AbortSignal.timeout(5000) });
    expect(res.status).toBe(status);
    const body = await res.text();
    if (status === 200) expect((JSON.parse(body) as { path: string }).path).toBe(expected);
    else expect(body).toBe(expected);
  });
});

describe("serveNode on node:http2 (h2c)", () => {
  let server: http2.Http2Server;
  let session: http2.ClientHttp2Session;
  let port: number;

  beforeAll(async () => {
    server = http2.createServer(serveNode(handler));
    port = await listen(server);
    session = http2.connect(`http://127.0.0.1:${port}`);
    session.on("error", () => undefined);
  });
  afterEach(() => {
    seen.openGate();
    seen = freshObserved();
  });
  afterAll(async () => {
    session.close();
    await new Promise((r) => server.close(r));
  });

  function request(
    path: string,
    method = "GET",
    body?: string,
  ): Promise<{ status: number; headers: http2.IncomingHttpHeaders; body: string }> {
    return new Promise((resolve, reject) => {
      const stream = session.request({ ":path": path, ":method": method });
      stream.setEncoding("utf8");
      let status = 0;
      let headers: http2.IncomingHttpHeaders = {};
      let b = "";
      stream.on("response", (h) => {
        headers = h;
        status = Number(h[":status"]);
      });
      stream.on("data", (c: string) => (b += c));
      stream.on("end", () => resolve({ status, headers, body: b }));
      stream.on("error", reject);
      stream.end(body);
    });
  }

  it("echoes a body", async () => {
    const res = await request("/echo", "POST", "hello h2");
    expect(res.status).toBe(200);
    expect(res.headers["content-length"]).toBe("8");
    expect(res.body).toBe("hello h2");
  });

  it("answers too-large", async () => {
    const res = await request("/echo", "POST", "x".repeat(50_000));
    expect(res).toMatchObject({ status: 413, body: "too-large" });
    expect((await request("/info")).status).toBe(200);
  });

  it("hides pseudo-headers", async () => {
    const res = await request("/info?a=b", "GET");
    expect(JSON.parse(res.body)).toMatchObject({
      method: "GET",
      path: "/info",
      query: "a=b",
      names: [],
    });
  });

  it("streams events", async () => {
    const res = await request("/events?n=4");
    expect(res.headers["content-type"]).toBe("text/event-stream");
    const events = [];
    for await (const e of parseSse(
      (async function* () {
        yield new TextEncoder().encode(res.body);
      })(),
    ))
      events.push(e.id);
    expect(events).toEqual(["0", "1", "2", "3"]);
    await waitFor(() => seen.finallyRan);
  });

  it("aborts the signal and returns the generator when the client resets the stream", async () => {
    const seenHere = seen;
    const stream = session.request({ ":path": "/forever" });
    await new Promise<void>((resolve) => {
      let n = 0;
      stream.on("data", () => {
        if (++n === 2) resolve();
      });
    });
    stream.close(http2.constants.NGHTTP2_CANCEL);
    await waitFor(() => seenHere.finallyRan && seenHere.signal?.aborted === true);
    expect((await request("/info")).status).toBe(200);
  });

  it("answers a rejecting handler with a plain 500", async () => {
    expect(await request("/reject")).toMatchObject({ status: 500, body: "internal error" });
  });

  it("rejects readBody and aborts the signal when the client drops an upload", async () => {
    const seenHere = seen;
    // (Http2Stream.close() would send END_STREAM before RST_STREAM: a complete body. Drop the connection instead.)
    const own = http2.connect(`http://127.0.0.1:${port}`);
    own.on("error", () => undefined);
    const stream = own.request({ ":path": "/upload", ":method": "POST" });
    stream.on("error", () => undefined);
    stream.write("partial body");
    await waitFor(() => seenHere.signal !== undefined);
    own.destroy();
    await waitFor(() => seenHere.bodyOutcome !== undefined);
    expect(seenHere.bodyOutcome).toBe("rejected");
    expect(seenHere.signal?.aborted).toBe(true);
  });
});

describe("serveFetch", () => {
  const serve = serveFetch(handler);

  afterEach(() => {
    seen.openGate();
    seen = freshObserved();
  });

  it("echoes a body", async () => {
    const res = await serve(new Request("http://host/echo", { method: "POST", body: "héllo" }));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("héllo");
  });

  it("echoes an empty body", async () => {
    const res = await serve(new Request("http://host/echo", { method: "POST" }));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
  });

  it("stops reading and cancels the body past the limit", async () => {
    const cancel = vi.fn();
    let pulls = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        pulls++;
        c.enqueue(new Uint8Array(300));
      },
      cancel,
    });
    const res = await serve(
      new Request("http://host/echo", { method: "POST", body, duplex: "half" } as RequestInit),
    );
    expect(res.status).toBe(413);
    expect(await res.text()).toBe("too-large");
    await waitFor(() => cancel.mock.calls.length === 1);
    expect(pulls).toBeLessThan(10);
  });

  it("rejects up front on a declared content-length over the limit", async () => {
    const cancel = vi.fn();
    const pull = vi.fn();
    const body = new ReadableStream<Uint8Array>({ pull, cancel }, { highWaterMark: 0 });
    const res = await serve(
      new Request("http://host/echo", {
        method: "POST",
        body,
        duplex: "half",
        headers: { "content-length": "5000" },
      } as RequestInit),
    );
    expect(res.status).toBe(413);
    expect(pull).not.toHaveBeenCalled();
    await waitFor(() => cancel.mock.calls.length === 1);
  });

  it("exposes method, path, query and headers", async () => {
    const headers = new Headers({ "X-Other": "o" });
    headers.append("x-multi", "a");
    headers.append("x-multi", "b");
    const res = await serve(
      new Request("http://host:8080/info?x=1&y=%20#frag", { method: "purge", headers }),
    );
    expect(await res.json()).toEqual({
      method: "PURGE",
      path: "/info",
      query: "x=1&y=%20",
      multi: "a, b",
      missing: null,
      names: ["x-multi", "x-other"],
    });
    const raw = await serve(new Request("http://host/info/a%2Fb:cancel"));
    expect(await raw.text()).toBe("no route GET /info/a%2Fb:cancel");
  });

  it("writes repeated headers and null-body statuses", async () => {
    const res = await serve(new Request("http://host/set-cookie"));
    expect(res.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    const empty = await serve(new Request("http://host/no-content"));
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
  });

  it("answers a rejecting handler with a plain 500", async () => {
    const res = await serve(new Request("http://host/reject"));
    expect(res.status).toBe(500);
    expect(await res.text()).toBe("internal error");
  });

  it("pulls the stream on demand only", async () => {
    const res = await serve(new Request("http://host/events?n=5"));
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const reader = res.body!.getReader();
    const read = () => {
      seen.readsAsked++;
      return reader.read();
    };
    expect(seen.pulled).toBe(0); // nothing read yet, nothing generated
    const first = await read();
    expect(decoder.decode(first.value)).toBe('id: 0\ndata: {"i":0}\n\n');
    expect(seen.pulled).toBe(1);
    const all = [decoder.decode(first.value)];
    for (let r = await read(); !r.done; r = await read()) all.push(decoder.decode(r.value));
    expect(all).toHaveLength(5);
    expect(seen.finallyRan).toBe(true);
    // The stream is over: the generator was pulled exactly once per read(), each time from within that read
    // (none before the first, no read-ahead after any).
    expect(seen.readsAtPull).toEqual([1, 2, 3, 4, 5]);
    expect(seen.signal?.aborted).toBe(false);
  });

  it("aborts the signal and returns the generator when the stream is cancelled", async () => {
    const res = await serve(new Request("http://host/events?n=10&gate=1"));
    const seenHere = seen;
    const reader = res.body!.getReader();
    await reader.read();
    await reader.read(); // the generator now waits at the gate
    await reader.cancel("client gone");
    expect(seenHere.signal?.aborted).toBe(true);
    expect(seenHere.signal?.reason).toBe("client gone");
    seenHere.openGate(); // the generator reaches its next yield and runs the queued return()
    await waitFor(() => seenHere.finallyRan);
    expect(seenHere.pulled).toBe(2);
  });

  it("aborts the signal with the request's signal", async () => {
    const client = new AbortController();
    const res = await serve(new Request("http://host/forever", { signal: client.signal }));
    const seenHere = seen;
    const reader = res.body!.getReader();
    await reader.read();
    client.abort(new Error("bye"));
    expect(seenHere.signal?.aborted).toBe(true);
    await reader.cancel();
    await waitFor(() => seenHere.finallyRan);
  });

  it("errors the body when the stream throws", async () => {
    const res = await serve(new Request("http://host/broken-stream"));
    await expect(res.text()).rejects.toThrow("stream bug");
  });

  it.each([
    ["http://h/a2a/info?q=1", 200, "/info"],
    ["http://h/a2a", 404, "no route GET /"],
    ["http://h/a2ax/info", 404, "not found"],
    ["http://h/info", 404, "not found"],
  ])("basePath: %s → %i", async (url, status, expected) => {
    const res = await serveFetch(handler, { basePath: "a2a" })(new Request(url));
    expect(res.status).toBe(status);
    const body = await res.text();
    if (status === 200) expect((JSON.parse(body) as { path: string }).path).toBe(expected);
    else expect(body).toBe(expected);
  });
});
