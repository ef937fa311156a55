import type { Message } from "@bufbuild/protobuf";
import { afterEach, describe, expect, it, vi } from "vitest";
import { A2AError } from "../../../runtime/src/errors/a2a-error.js";
import { markImmutable } from "../../../runtime/src/pipeline/binding-call.js";
import {
  createEventTextCache,
  openEventStream,
  type EventStreamFraming,
  type SharedEventEncoding,
} from "../../../runtime/src/http/event-stream.js";
import {
  SSE_KEEP_ALIVE,
  encodeEventStream,
  type EventStreamEncoding,
} from "../../../runtime/src/http/sse.js";
import type {
  UniversalResponse,
  UniversalStreamResponse,
} from "../../../runtime/src/http/universal.js";

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of iterable) out.push(x);
  return out;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

const numbers: EventStreamEncoding<number> = {
  encode: (n) => `data: ${n}\n\n`,
  encodeError: (e) => `event: error\ndata: ${e instanceof Error ? e.message : String(e)}\n\n`,
};

describe("encodeEventStream", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("hands out the step read beforehand first, then encodes each item as it comes", async () => {
    async function* source(): AsyncGenerator<number> {
      yield 1;
      yield 2;
      yield 3;
    }
    const it = source();
    const first = await it.next();
    expect(await collect(encodeEventStream(it, numbers, 0, undefined, first))).toEqual([
      "data: 1\n\n",
      "data: 2\n\n",
      "data: 3\n\n",
    ]);
  });

  it("is empty when the step read beforehand is the end", async () => {
    async function* source(): AsyncGenerator<number> {}
    const it = source();
    expect(await collect(encodeEventStream(it, numbers, 100, undefined, await it.next()))).toEqual(
      [],
    );
  });

  it("ends a failing source with its error chunk, and leaves no timer behind", async () => {
    vi.useFakeTimers();
    async function* source(): AsyncGenerator<number> {
      yield 1;
      await sleep(150);
      throw new Error("boom");
    }
    const done = collect(encodeEventStream(source(), numbers, 100));
    await vi.advanceTimersByTimeAsync(500);
    expect(await done).toEqual(["data: 1\n\n", SSE_KEEP_ALIVE, "event: error\ndata: boom\n\n"]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("ends with the error chunk when encoding throws, and returns the source", async () => {
    let finallyRan = false;
    async function* source(): AsyncGenerator<number> {
      try {
        yield 1;
        yield 2;
        yield 3;
      } finally {
        finallyRan = true;
      }
    }
    const encoding: EventStreamEncoding<number> = {
      ...numbers,
      encode: (n) => {
        if (n === 2) throw new Error("cannot encode 2");
        return numbers.encode(n);
      },
    };
    expect(await collect(encodeEventStream(source(), encoding, 0))).toEqual([
      "data: 1\n\n",
      "event: error\ndata: cannot encode 2\n\n",
    ]);
    await sleep(0);
    expect(finallyRan).toBe(true);
  });

  it("rejects the pending next() when the error chunk cannot be encoded either", async () => {
    const source: AsyncIterator<number> = { next: () => Promise.reject(new Error("boom")) };
    const encoding: EventStreamEncoding<number> = {
      ...numbers,
      encodeError: () => {
        throw new Error("no error chunk");
      },
    };
    const it = encodeEventStream(source, encoding, 0)[Symbol.asyncIterator]();
    await expect(it.next()).rejects.toThrow("no error chunk");
    expect(await it.next()).toEqual({ done: true, value: undefined });
  });

  it("sends keep-alives exactly one interval into each wait, with one timer reused", async () => {
    vi.useFakeTimers();
    const setTimeoutSpy = vi.spyOn(globalThis, "setTimeout");
    async function* source(): AsyncGenerator<number> {
      await sleep(250);
      yield 1;
      yield 2; // at once: no keep-alive before it
      await sleep(150);
      yield 3;
    }
    const seen: [number, string][] = [];
    const started = Date.now();
    const run = (async () => {
      for await (const chunk of encodeEventStream(source(), numbers, 100))
        seen.push([Date.now() - started, chunk]);
    })();
    await vi.advanceTimersByTimeAsync(1000);
    await run;
    expect(seen).toEqual([
      [100, SSE_KEEP_ALIVE],
      [200, SSE_KEEP_ALIVE],
      [250, "data: 1\n\n"],
      [250, "data: 2\n\n"],
      [350, SSE_KEEP_ALIVE],
      [400, "data: 3\n\n"],
    ]);
    // The source's own sleeps (2) and one keep-alive timer, not one per wait.
    expect(setTimeoutSpy.mock.calls.filter(([, ms]) => ms === 100)).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
    setTimeoutSpy.mockRestore();
  });

  it("return() during a pending step settles it at once, asks the source to stop and reports the source's clean-up error", async () => {
    const reported: unknown[] = [];
    let release!: () => void;
    const source: AsyncIterator<number> = {
      next: () => new Promise((resolve) => (release = () => resolve({ done: false, value: 1 }))),
      return: () => Promise.reject(new Error("clean-up failed")),
    };
    const it = encodeEventStream(source, { ...numbers, onReturnError: (e) => reported.push(e) }, 0)[
      Symbol.asyncIterator
    ]();
    const pending = it.next();
    expect(await it.return!()).toEqual({ done: true, value: undefined });
    expect(await pending).toEqual({ done: true, value: undefined });
    await sleep(0);
    expect(reported).toEqual([new Error("clean-up failed")]);
    release(); // a late step is dropped
    expect(await it.next()).toEqual({ done: true, value: undefined });
  });

  it("ends on abort and returns the source", async () => {
    let returned = false;
    const source: AsyncIterator<number> = {
      next: () => new Promise(() => {}),
      return: async () => {
        returned = true;
        return { done: true, value: undefined };
      },
    };
    const controller = new AbortController();
    const it = encodeEventStream(source, numbers, 0, controller.signal)[Symbol.asyncIterator]();
    const pending = it.next();
    controller.abort();
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(returned).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------
// openEventStream
// ---------------------------------------------------------------------------------------

/** A stand-in for a protobuf message (openEventStream only passes events on to the framing). */
const message = (text: string): Message & { text: string } =>
  ({ $typeName: "test.Event", text }) as Message & { text: string };

function framing(id: number, shared?: SharedEventEncoding): EventStreamFraming {
  return {
    encodeEvent: (m) => `data: ${JSON.stringify({ id, event: (m as { text?: string }).text })}\n\n`,
    encodeError: (err) => `data: ${JSON.stringify({ id, error: err.message })}\n\n`,
    respondError: (err) => ({ status: 500, headers: [], body: err.message }),
    toError: (e) =>
      e instanceof A2AError
        ? e
        : new A2AError(
            {
              name: "InternalError",
              code: -32603,
              grpcStatus: 13,
              httpStatus: 500,
              restStatus: "INTERNAL",
            } as never,
            String(e),
          ),
    logCleanupError: () => {},
    ...(shared !== undefined ? { shared } : {}),
  };
}

async function chunksOf(response: UniversalResponse): Promise<string[]> {
  expect("stream" in response).toBe(true);
  return collect((response as UniversalStreamResponse).stream);
}

describe("openEventStream", () => {
  it("answers an error before the first event as a plain response", async () => {
    const events: AsyncIterable<Message> = {
      [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new Error("no task")) }),
    };
    const response = await openEventStream(events, framing(1), [], 0, new AbortController().signal);
    expect(response).toMatchObject({ status: 500 });
    expect("stream" in response).toBe(false);
  });

  it("encodes the shared text of an immutable event once for every stream that gets the same object", async () => {
    const events = [message("a"), message("b"), message("c")].map(markImmutable);
    async function* feed(): AsyncGenerator<Message> {
      yield* events;
    }
    const texts: string[] = [];
    const cache = createEventTextCache();
    const shared = (id: number): SharedEventEncoding => ({
      cache,
      text: (m) => {
        const text = JSON.stringify((m as { text?: string }).text);
        texts.push(text);
        return text;
      },
      frame: (text) => `data: {"id":${id},"event":${text}}\n\n`,
    });
    const streams = await Promise.all(
      [1, 2, 3].map((id) =>
        openEventStream(feed(), framing(id, shared(id)), [], 0, new AbortController().signal),
      ),
    );
    const out = await Promise.all(streams.map(chunksOf));
    expect(out).toEqual(
      [1, 2, 3].map((id) => ["a", "b", "c"].map((t) => `data: {"id":${id},"event":"${t}"}\n\n`)),
    );
    expect(texts).toEqual(['"a"', '"b"', '"c"']); // once per event, not per stream
  });

  it("encodes an event not marked immutable for every stream, so a change between two streams' reads shows", async () => {
    const event = message("a");
    const cache = createEventTextCache();
    const texts: string[] = [];
    const shared: SharedEventEncoding = {
      cache,
      text: (m) => {
        const text = JSON.stringify((m as { text?: string }).text);
        texts.push(text);
        return text;
      },
      frame: (t) => `data: ${t}\n\n`,
    };
    async function* once(): AsyncGenerator<Message> {
      yield event;
    }
    const first = await chunksOf(
      await openEventStream(once(), framing(1, shared), [], 0, new AbortController().signal),
    );
    (event as { text?: string }).text = "changed"; // a handler that changes its object before the next stream reads it
    const second = await chunksOf(
      await openEventStream(once(), framing(2, shared), [], 0, new AbortController().signal),
    );
    expect([first, second]).toEqual([['data: "a"\n\n'], ['data: "changed"\n\n']]);
    expect(texts).toEqual(['"a"', '"changed"']);
  });

  it("gives the same output with and without the shared encoding", async () => {
    const events = [message("x"), message("y")];
    async function* feed(): AsyncGenerator<Message> {
      yield* events;
    }
    const shared: SharedEventEncoding = {
      cache: createEventTextCache(),
      text: (m) => JSON.stringify((m as { text?: string }).text),
      frame: (t) => `data: {"id":7,"event":${t}}\n\n`,
    };
    const plain = await chunksOf(
      await openEventStream(feed(), framing(7), [], 0, new AbortController().signal),
    );
    const cached = await chunksOf(
      await openEventStream(feed(), framing(7, shared), [], 0, new AbortController().signal),
    );
    expect(cached).toEqual(plain);
  });

  it("encodes afresh an object a stream gets again after it changed", async () => {
    const event = message("first");
    async function* feed(): AsyncGenerator<Message> {
      yield event;
      event.text = "second";
      yield event;
    }
    const shared: SharedEventEncoding = {
      cache: createEventTextCache(),
      text: (m) => JSON.stringify((m as { text?: string }).text),
      frame: (t) => `data: ${t}\n\n`,
    };
    expect(
      await chunksOf(
        await openEventStream(feed(), framing(1, shared), [], 0, new AbortController().signal),
      ),
    ).toEqual(['data: "first"\n\n', 'data: "second"\n\n']);
  });

  it("ends a stream whose handler fails after the first event with the framing's error chunk", async () => {
    async function* feed(): AsyncGenerator<Message> {
      yield message("a");
      throw new Error("lost");
    }
    const chunks = await chunksOf(
      await openEventStream(
        feed(),
        framing(4),
        [["x-extra", "1"]],
        0,
        new AbortController().signal,
      ),
    );
    expect(chunks).toEqual([
      'data: {"id":4,"event":"a"}\n\n',
      'data: {"id":4,"error":"Error: lost"}\n\n',
    ]);
  });
});
