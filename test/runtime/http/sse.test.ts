import { afterEach, describe, expect, it, vi } from "vitest";
import {
  SSE_HEADERS,
  SSE_KEEP_ALIVE,
  SseParser,
  encodeSseEvent,
  parseSse,
  withKeepAlive,
  type SseEvent,
} from "../../../runtime/src/http/sse.js";
import { seededRandom } from "../../support/random.js";

const utf8 = new TextEncoder();

function ev(data: string, event = "message", id?: string): SseEvent {
  return { event, data, id };
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of iterable) out.push(x);
  return out;
}

async function* chunksOf(parts: readonly Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const p of parts) yield p;
}

function streamOf(parts: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < parts.length) controller.enqueue(parts[i++]!);
      else controller.close();
    },
  });
}

/** Resolves after `predicate` holds, polling; fails after `ms`. */
async function waitFor(predicate: () => boolean, ms = 2000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe("encodeSseEvent", () => {
  const cases: [
    name: string,
    data: string,
    options: { event?: string; id?: string } | undefined,
    expected: string,
  ][] = [
    ["single line", "hello", undefined, "data: hello\n\n"],
    ["empty data", "", undefined, "data: \n\n"],
    ["JSON", '{"a":"b\\nc"}', undefined, 'data: {"a":"b\\nc"}\n\n'],
    ["LF lines", "a\nb", undefined, "data: a\ndata: b\n\n"],
    ["CRLF and CR lines", "a\r\nb\rc", undefined, "data: a\ndata: b\ndata: c\n\n"],
    ["trailing newline", "a\n", undefined, "data: a\ndata: \n\n"],
    ["event and id", "x", { event: "update", id: "42" }, "event: update\nid: 42\ndata: x\n\n"],
    ["empty id resets", "x", { id: "" }, "id: \ndata: x\n\n"],
  ];
  it.each(cases)("%s", (_name, data, options, expected) => {
    expect(encodeSseEvent(data, options)).toBe(expected);
  });

  it.each([[{ event: "a\nb" }], [{ event: "a\rb" }], [{ id: "1\n2" }], [{ id: "1\0" }]])(
    "rejects field injection %j",
    (options) => {
      expect(() => encodeSseEvent("x", options)).toThrow(RangeError);
    },
  );

  it("round-trips through parseSse for random data", async () => {
    const rnd = seededRandom(7);
    const alphabet = ["a", "b", " ", ":", "\n", "\r", "\r\n", "é", "😀", "data: ", "{}"];
    const sent: string[] = [];
    let wire = "";
    for (let n = 0; n < 200; n++) {
      let data = "";
      const len = Math.floor(rnd() * 12);
      for (let i = 0; i < len; i++) data += alphabet[Math.floor(rnd() * alphabet.length)]!;
      sent.push(data);
      wire += encodeSseEvent(data, rnd() < 0.3 ? { event: "e" } : undefined);
    }
    const events = await collect(parseSse(chunksOf([utf8.encode(wire)])));
    expect(events.map((e) => e.data)).toEqual(sent.map((d) => d.replace(/\r\n|\r/g, "\n")));
  });
});

describe("SSE_HEADERS", () => {
  it("declares an uncached, unbuffered event stream", () => {
    expect(Object.fromEntries(SSE_HEADERS)).toEqual({
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      "x-accel-buffering": "no",
    });
  });
});

describe("parseSse", () => {
  const cases: [name: string, wire: string, expected: SseEvent[]][] = [
    ["one event", "data: hello\n\n", [ev("hello")]],
    ["two events", "data: a\n\ndata: b\n\n", [ev("a"), ev("b")]],
    ["multi-line data", "data: a\ndata: b\n\n", [ev("a\nb")]],
    ["no space after colon", "data:a\n\n", [ev("a")]],
    ["only one space removed", "data:  a \n\n", [ev(" a ")]],
    ["CRLF", "data: a\r\n\r\ndata: b\r\n\r\n", [ev("a"), ev("b")]],
    ["CR", "data: a\r\rdata: b\r\r", [ev("a"), ev("b")]],
    ["mixed line ends", "data: a\rdata: b\r\ndata: c\n\r\n", [ev("a\nb\nc")]],
    ["LF CR is two line ends", "data: a\n\r", [ev("a")]],
    ["comments ignored", ": keep-alive\n\n: x\ndata: y\n: z\n\n", [ev("y")]],
    ["event type", "event: status\ndata: x\n\ndata: y\n\n", [ev("x", "status"), ev("y")]],
    ["event type reset without dispatch", "event: status\n\ndata: y\n\n", [ev("y")]],
    ["empty event field means message", "event:\ndata: x\n\n", [ev("x")]],
    ["no data lines: not dispatched", "event: a\nid: 1\n\n\n\n", []],
    ["empty data dispatched", "data\n\ndata:\n\n", [ev(""), ev("")]],
    ["data line with empty value joins", "data: a\ndata\ndata: b\n\n", [ev("a\n\nb")]],
    [
      "id persists across events",
      "id: 7\ndata: a\n\ndata: b\n\n",
      [ev("a", "message", "7"), ev("b", "message", "7")],
    ],
    ["empty id resets", "id: 7\ndata: a\n\nid\ndata: b\n\n", [ev("a", "message", "7"), ev("b")]],
    [
      "id with NUL ignored",
      "id: 1\ndata: a\n\nid: 2\0\ndata: b\n\n",
      [ev("a", "message", "1"), ev("b", "message", "1")],
    ],
    ["unknown fields and retry ignored", "retry: 10\nfoo: bar\nDATA: no\ndata: x\n\n", [ev("x")]],
    ["colon in value kept", "data: a: b\n\n", [ev("a: b")]],
    ["leading BOM dropped", "\uFEFFdata: x\n\n", [ev("x")]],
    ["BOM after start is not dropped", "data: x\n\n\uFEFFdata: y\n\n", [ev("x")]],
    ["trailing event without blank line dropped", "data: x\n\ndata: y\n", [ev("x")]],
    ["trailing unterminated line dropped", "data: x\n\ndata: y", [ev("x")]],
    ["multi-byte UTF-8", "data: héllo 😀 世界\n\n", [ev("héllo 😀 世界")]],
    ["empty stream", "", []],
  ];

  it.each(cases)("%s", async (_name, wire, expected) => {
    expect(await collect(parseSse(chunksOf([utf8.encode(wire)])))).toEqual(expected);
    expect(await collect(parseSse(streamOf([utf8.encode(wire)])))).toEqual(expected);
  });

  it.each(cases)(
    "%s: same events for every split into two chunks and byte by byte",
    async (_name, wire, expected) => {
      const bytes = utf8.encode(wire);
      for (let k = 0; k <= bytes.length; k++) {
        const events = await collect(parseSse(chunksOf([bytes.subarray(0, k), bytes.subarray(k)])));
        expect(events, `split at byte ${k}`).toEqual(expected);
      }
      const single = Array.from(bytes, (b) => Uint8Array.of(b));
      expect(await collect(parseSse(streamOf(single)))).toEqual(expected);
    },
  );

  it("gives the same events for random chunkings of a long stream", async () => {
    const wire = cases.map(([, w]) => w).join("\n\n"); // blank lines between reset the trailing parts
    const bytes = utf8.encode(wire + "\n\n");
    const expected = await collect(parseSse(chunksOf([bytes])));
    expect(expected.length).toBeGreaterThan(20);
    const rnd = seededRandom(42);
    for (let round = 0; round < 100; round++) {
      const parts: Uint8Array[] = [];
      for (let i = 0; i < bytes.length; ) {
        const n = 1 + Math.floor(rnd() * 9);
        parts.push(bytes.subarray(i, i + n));
        i += n;
      }
      expect(await collect(parseSse(rnd() < 0.5 ? streamOf(parts) : chunksOf(parts)))).toEqual(
        expected,
      );
    }
  });

  it("yields events as their chunk arrives", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    async function* source(): AsyncGenerator<Uint8Array> {
      yield utf8.encode("data: first\n\n");
      await gate;
      yield utf8.encode("data: second\n\n");
    }
    const it = parseSse(source())[Symbol.asyncIterator]();
    expect((await it.next()).value).toEqual(ev("first"));
    const second = it.next();
    release();
    expect((await second).value).toEqual(ev("second"));
    expect((await it.next()).done).toBe(true);
  });

  it("cancels the reader when the consumer breaks out", async () => {
    const cancel = vi.fn();
    let pulls = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(utf8.encode(`data: ${pulls++}\n\n`));
      },
      cancel,
    });
    const seen: string[] = [];
    for await (const e of parseSse(body)) {
      seen.push(e.data);
      if (seen.length === 3) break;
    }
    expect(seen).toEqual(["0", "1", "2"]);
    expect(cancel).toHaveBeenCalledOnce();
    expect(body.locked).toBe(false);
  });

  it("returns an async-iterable source when the consumer breaks out", async () => {
    let finallyRan = false;
    async function* source(): AsyncGenerator<Uint8Array> {
      try {
        for (;;) yield utf8.encode("data: x\n\n");
      } finally {
        finallyRan = true;
      }
    }
    for await (const e of parseSse(source())) {
      expect(e.data).toBe("x");
      break;
    }
    expect(finallyRan).toBe(true);
  });

  it("does not cancel a body it read to the end", async () => {
    const cancel = vi.fn();
    let sent = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent) controller.close();
        else controller.enqueue(utf8.encode("data: x\n\n"));
        sent = true;
      },
      cancel,
    });
    expect(await collect(parseSse(body))).toEqual([ev("x")]);
    expect(cancel).not.toHaveBeenCalled();
  });

  it("rethrows a stream error", async () => {
    let pulled = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled) controller.error(new Error("boom"));
        else controller.enqueue(utf8.encode("data: x\n\n"));
        pulled = true;
      },
    });
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const e of parseSse(body)) seen.push(e.data);
      })(),
    ).rejects.toThrow("boom");
    expect(seen).toEqual(["x"]);
  });

  it("stops with the abort reason and cancels a pending stream read", async () => {
    const cancel = vi.fn();
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(utf8.encode("data: x\n\n"));
      },
      cancel,
    });
    const controller = new AbortController();
    const it = parseSse(body, controller.signal)[Symbol.asyncIterator]();
    expect((await it.next()).value).toEqual(ev("x"));
    const pending = it.next(); // waits for a chunk that never comes
    controller.abort(new Error("stop"));
    await expect(pending).rejects.toThrow("stop");
    expect(cancel).toHaveBeenCalledOnce();
  });

  it("stops with the abort reason while an async-iterable source is stuck", async () => {
    let finallyRan = false;
    let unblock!: () => void;
    let reachStuck!: () => void;
    const stuck = new Promise<void>((r) => (reachStuck = r));
    async function* source(): AsyncGenerator<Uint8Array> {
      try {
        yield utf8.encode("data: x\n\n");
        await new Promise<void>((r) => {
          unblock = r;
          reachStuck();
        });
        yield utf8.encode("data: y\n\n");
      } finally {
        finallyRan = true;
      }
    }
    const controller = new AbortController();
    const it = parseSse(source(), controller.signal)[Symbol.asyncIterator]();
    expect((await it.next()).value).toEqual(ev("x"));
    const pending = it.next();
    await stuck; // the pending next() has reached the source, which is now stuck
    controller.abort(new Error("stop"));
    await expect(pending).rejects.toThrow("stop");
    unblock(); // the generator acts on the queued return() at its next step
    await waitFor(() => finallyRan);
  });

  it("throws at once for an already aborted signal", async () => {
    const reason = new Error("already");
    await expect(collect(parseSse(streamOf([]), AbortSignal.abort(reason)))).rejects.toBe(reason);
  });

  it("SseParser can be fed text directly", () => {
    const parser = new SseParser();
    const out: SseEvent[] = [];
    parser.push("data: a\r", out);
    parser.push("\ndata: b\r", out);
    parser.push("\n\r\n", out);
    expect(out).toEqual([ev("a\nb")]);
  });
});

describe("withKeepAlive", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  function sleep(ms: number): Promise<void> {
    return new Promise((r) => setTimeout(r, ms));
  }

  it("returns the source unchanged when off", () => {
    const source = chunksOf([]);
    expect(withKeepAlive(source as unknown as AsyncIterable<string>, 0)).toBe(source);
  });

  it("sends keep-alives only while waiting, and leaves no timer behind", async () => {
    vi.useFakeTimers();
    let finallyRan = false;
    async function* source(): AsyncGenerator<string> {
      try {
        await sleep(250);
        yield "a";
        yield "b"; // immediately: no keep-alive before it
        await sleep(250);
        yield "c";
      } finally {
        finallyRan = true;
      }
    }
    const done = collect(withKeepAlive(source(), 100));
    await vi.advanceTimersByTimeAsync(1000);
    expect(await done).toEqual([
      SSE_KEEP_ALIVE,
      SSE_KEEP_ALIVE,
      "a",
      "b",
      SSE_KEEP_ALIVE,
      SSE_KEEP_ALIVE,
      "c",
    ]);
    expect(finallyRan).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("re-arms with a new timer where setTimeout gives numbers (Workers, browsers: no refresh())", async () => {
    vi.useFakeTimers();
    const fakeSetTimeout = globalThis.setTimeout;
    // The fake timer's id (its primitive value): clearTimeout takes it too.
    vi.stubGlobal("setTimeout", (fn: () => void, ms: number) => Number(fakeSetTimeout(fn, ms)));
    try {
      async function* source(): AsyncGenerator<string> {
        await sleep(250);
        yield "a";
        await sleep(250);
        yield "b";
      }
      const done = collect(withKeepAlive(source(), 100));
      await vi.advanceTimersByTimeAsync(1000);
      expect(await done).toEqual([
        SSE_KEEP_ALIVE,
        SSE_KEEP_ALIVE,
        "a",
        SSE_KEEP_ALIVE,
        SSE_KEEP_ALIVE,
        "b",
      ]);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("return() reaches the source's finally and clears the timer", async () => {
    vi.useFakeTimers();
    let finallyRan = false;
    async function* source(): AsyncGenerator<string> {
      try {
        for (let i = 0; ; i++) {
          await sleep(30);
          yield String(i);
        }
      } finally {
        finallyRan = true;
      }
    }
    const seen: string[] = [];
    const run = (async () => {
      for await (const chunk of withKeepAlive(source(), 100)) {
        seen.push(chunk);
        if (seen.length === 3) break;
      }
    })();
    await vi.advanceTimersByTimeAsync(200);
    await run;
    expect(seen).toEqual(["0", "1", "2"]);
    expect(finallyRan).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("return() right after a keep-alive settles at once and still returns the source", async () => {
    vi.useFakeTimers();
    let finallyRan = false;
    let unblock!: () => void;
    async function* source(): AsyncGenerator<string> {
      try {
        await new Promise<void>((r) => (unblock = r));
        yield "late";
      } finally {
        finallyRan = true;
      }
    }
    const it = withKeepAlive(source(), 50)[Symbol.asyncIterator]();
    const first = it.next();
    await vi.advanceTimersByTimeAsync(50);
    expect(await first).toEqual({ done: false, value: SSE_KEEP_ALIVE });
    const second = it.next(); // pending: the source is still blocked
    expect(await it.return!()).toEqual({ done: true, value: undefined });
    expect(await second).toEqual({ done: true, value: undefined });
    expect(vi.getTimerCount()).toBe(0);
    unblock(); // the generator runs its queued return() at the next yield
    await vi.advanceTimersByTimeAsync(0);
    expect(finallyRan).toBe(true);
    expect(await it.next()).toEqual({ done: true, value: undefined });
  });

  it("ends on abort, returns the source and clears the timer", async () => {
    vi.useFakeTimers();
    let finallyRan = false;
    async function* source(): AsyncGenerator<string> {
      try {
        yield "a";
        await sleep(10_000);
        yield "b";
      } finally {
        finallyRan = true;
      }
    }
    const controller = new AbortController();
    const it = withKeepAlive(source(), 100, controller.signal)[Symbol.asyncIterator]();
    expect(await it.next()).toEqual({ done: false, value: "a" });
    const pending = it.next();
    await vi.advanceTimersByTimeAsync(50);
    controller.abort();
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(vi.getTimerCount()).toBe(1); // only the source's own sleep
    await vi.advanceTimersByTimeAsync(10_000);
    expect(finallyRan).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("honours an already aborted signal", async () => {
    const out = await collect(
      withKeepAlive(chunksOf([]) as unknown as AsyncIterable<string>, 100, AbortSignal.abort()),
    );
    expect(out).toEqual([]);
  });

  it("ends on abort with keep-alives off", async () => {
    const controller = new AbortController();
    async function* source(): AsyncGenerator<string> {
      yield "a";
      controller.abort();
      yield "b";
    }
    expect(await collect(withKeepAlive(source(), 0, controller.signal))).toEqual(["a"]);
  });

  it("propagates a source error and clears the timer", async () => {
    vi.useFakeTimers();
    async function* source(): AsyncGenerator<string> {
      yield "a";
      await sleep(150);
      throw new Error("boom");
    }
    const seen: string[] = [];
    const run = (async () => {
      for await (const chunk of withKeepAlive(source(), 100)) seen.push(chunk);
    })();
    const settled = run.then(
      () => undefined,
      (e: unknown) => e,
    );
    await vi.advanceTimersByTimeAsync(500);
    expect(await settled).toEqual(new Error("boom"));
    expect(seen).toEqual(["a", SSE_KEEP_ALIVE]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("delivers a source error that arrives while a keep-alive is being handled", async () => {
    vi.useFakeTimers();
    let fail!: (e: Error) => void;
    async function* source(): AsyncGenerator<string> {
      await new Promise<void>((_, reject) => (fail = reject));
      yield "never";
    }
    const it = withKeepAlive(source(), 10)[Symbol.asyncIterator]();
    const first = it.next();
    await vi.advanceTimersByTimeAsync(10);
    expect(await first).toEqual({ done: false, value: SSE_KEEP_ALIVE });
    fail(new Error("late"));
    await vi.advanceTimersByTimeAsync(0);
    await expect(it.next()).rejects.toThrow("late");
    expect(await it.next()).toEqual({ done: true, value: undefined });
    expect(vi.getTimerCount()).toBe(0);
  });

  it("queues overlapping next() calls in order", async () => {
    async function* source(): AsyncGenerator<string> {
      yield "a";
      yield "b";
    }
    const it = withKeepAlive(source(), 1000)[Symbol.asyncIterator]();
    const [a, b, c] = await Promise.all([it.next(), it.next(), it.next()]);
    expect([a, b, c]).toEqual([
      { done: false, value: "a" },
      { done: false, value: "b" },
      { done: true, value: undefined },
    ]);
  });
});
