// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The client side of a framed connection (framed-connection.ts) over an in-memory channel: ids
 * assigned by the connection, answers routed to their calls, cancel frames for abandoned calls
 * only, a closing channel failing its calls and the next call opening a new one, an answer that
 * is none as InvalidAgentResponseError, and reading paused while answers pile up unread.
 */
import { describe, expect, it } from "vitest";
import {
  A2AError,
  createErrorRegistry,
  isA2AError,
  type A2AErrorSpec,
} from "../errors/a2a-error.js";
import type { FramedAnswer } from "./framed-call.js";
import {
  createFramedConnection,
  type FramedChannel,
  type FramedChannelEvents,
} from "./framed-connection.js";
import { jsonClientFrames } from "./json-call-frames.js";

const spec = (
  name: string,
  reason: string,
  jsonRpcCode: number,
  grpcCode: number,
): A2AErrorSpec => ({
  name,
  reason,
  jsonRpcCode,
  grpcCode,
  grpcStatus: "X",
  httpStatus: 400,
  message: name,
});
const errors = createErrorRegistry(
  [spec("InvalidAgentResponseError", "INVALID_AGENT_RESPONSE", -32006, 13)].map((s) => ({
    spec: s,
    create: (m: string, o: object) => new A2AError(s, m, o),
  })),
);

/** An in-memory channel: what the connection sent, and a way to answer. */
interface FakeChannel extends FramedChannel<string> {
  readonly sent: Record<string, unknown>[];
  readonly events: FramedChannelEvents<string>;
  readonly pauses: string[];
  answer(frame: unknown): void;
  end(reason: unknown): void;
}

function carrier() {
  const channels: FakeChannel[] = [];
  const open = (events: FramedChannelEvents<string>): FakeChannel => {
    let open = true;
    const channel: FakeChannel = {
      sent: [],
      events,
      pauses: [],
      send: (frame) => void channel.sent.push(JSON.parse(frame) as Record<string, unknown>),
      get writable() {
        return open;
      },
      close: async () => channel.end(new Error("closed by the client")),
      pause: () => void channel.pauses.push("pause"),
      resume: () => void channel.pauses.push("resume"),
      answer: (frame) => events.frame(typeof frame === "string" ? frame : JSON.stringify(frame)),
      end: (reason) => {
        open = false;
        events.closed(reason);
      },
    };
    channels.push(channel);
    return channel;
  };
  return { channels, open };
}

const outbound = {
  operation: "GetTask",
  request: { id: "t" },
  serviceParameters: { "a2a-version": "1.0" },
};
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Collects a call's frames; its failure, if any. */
async function collect(
  frames: AsyncIterable<FramedAnswer>,
): Promise<{ frames: FramedAnswer[]; failure?: unknown }> {
  const out: FramedAnswer[] = [];
  try {
    for await (const f of frames) out.push(f);
    return { frames: out };
  } catch (e) {
    return { frames: out, failure: e };
  }
}

describe("createFramedConnection", () => {
  it("opens one channel for concurrent calls, gives them ids 1, 2, routes each answer to its call", async () => {
    const { channels, open } = carrier();
    const connection = createFramedConnection({ open, frames: jsonClientFrames, errors });
    const a = collect(connection.call(outbound, undefined));
    const b = collect(
      connection.call({ ...outbound, operation: "SendStreamingMessage" }, undefined),
    );
    await tick();
    expect(channels).toHaveLength(1);
    const [channel] = channels;
    expect(channel!.sent).toEqual([
      {
        id: 1,
        method: "GetTask",
        params: { id: "t" },
        serviceParameters: { "a2a-version": "1.0" },
      },
      {
        id: 2,
        method: "SendStreamingMessage",
        params: { id: "t" },
        serviceParameters: { "a2a-version": "1.0" },
      },
    ]);
    channel!.answer({ id: 2, event: { n: 0 }, activatedExtensions: ["urn:x"] });
    channel!.answer({ id: 1, result: { ok: true } });
    channel!.answer({ id: null, error: {} }); // an unreadable frame of ours: nobody's
    channel!.answer({ id: 42, result: {} }); // no such call
    channel!.answer("not json");
    channel!.answer({ id: 2, end: true });
    expect(await a).toEqual({
      frames: [{ kind: "result", response: { ok: true }, activatedExtensions: undefined }],
    });
    expect(await b).toEqual({
      frames: [{ kind: "event", event: { n: 0 }, activatedExtensions: ["urn:x"] }, { kind: "end" }],
    });
    expect(connection.channel).toBe(channel);
    // Both ended with their last frame: no cancel frame.
    expect(channel!.sent).toHaveLength(2);
  });

  it("an abort, or a consumer that stops, sends the cancel frame; frames that come later are dropped", async () => {
    const { channels, open } = carrier();
    const connection = createFramedConnection({ open, frames: jsonClientFrames, errors });
    const abort = new AbortController();
    const aborted = collect(connection.call(outbound, abort.signal));
    await tick();
    abort.abort(new Error("stop"));
    expect((await aborted).failure).toEqual(new Error("stop"));
    const stream = connection.call(outbound, undefined)[Symbol.asyncIterator]();
    const first = stream.next();
    await tick();
    channels[0]!.answer({ id: 2, event: {} });
    await first;
    await stream.return?.(undefined);
    channels[0]!.answer({ id: 2, event: {} });
    expect(channels[0]!.sent.filter((f) => f["cancel"] === true)).toEqual([
      { id: 1, cancel: true },
      { id: 2, cancel: true },
    ]);
    // An abort before the call: nothing is sent.
    await expect(
      collect(connection.call(outbound, AbortSignal.abort(new Error("early")))),
    ).resolves.toMatchObject({ failure: new Error("early") });
    expect(channels[0]!.sent).toHaveLength(4);
  });

  it("a channel that closes fails its running calls with the reason; the next call opens a new one", async () => {
    const { channels, open } = carrier();
    const connection = createFramedConnection({ open, frames: jsonClientFrames, errors });
    const running = collect(connection.call(outbound, undefined));
    await tick();
    channels[0]!.answer({ id: 1, event: { n: 0 } });
    channels[0]!.end(new Error("lost"));
    expect(await running).toEqual({
      frames: [{ kind: "event", event: { n: 0 }, activatedExtensions: undefined }],
      failure: new Error("lost"),
    });
    expect(connection.channel).toBeUndefined();
    const next = collect(connection.call(outbound, undefined));
    await tick();
    expect(channels).toHaveLength(2);
    channels[1]!.answer({ id: 2, result: {} });
    expect((await next).frames).toHaveLength(1);
    // No cancel frame on a closed channel.
    expect(channels[0]!.sent).toHaveLength(1);
  });

  it("close closes the channel and fails its calls; an opening that fails is not kept", async () => {
    const { channels, open } = carrier();
    let fail = true;
    const connection = createFramedConnection({
      open: (events) => {
        if (fail) throw new Error("refused");
        return open(events);
      },
      frames: jsonClientFrames,
      errors,
    });
    await expect(collect(connection.call(outbound, undefined))).resolves.toMatchObject({
      failure: new Error("refused"),
    });
    fail = false;
    const running = collect(connection.call(outbound, undefined));
    await tick();
    await connection.close();
    expect((await running).failure).toEqual(new Error("closed by the client"));
    expect(channels).toHaveLength(1);
    await connection.close(); // nothing open: nothing to do
  });

  it("an answer frame that is none fails its call with InvalidAgentResponseError", async () => {
    const { channels, open } = carrier();
    const connection = createFramedConnection({ open, frames: jsonClientFrames, errors });
    const running = collect(connection.call(outbound, undefined));
    await tick();
    channels[0]!.answer({ id: 1, what: true });
    const { failure } = await running;
    expect(isA2AError(failure) && [failure.spec.name, failure.message]).toEqual([
      "InvalidAgentResponseError",
      "call 1: an answer frame with neither result, event, end nor error",
    ]);
  });

  it("pauses the channel at highWaterFrames answers unread, resumes at half", async () => {
    const { channels, open } = carrier();
    const connection = createFramedConnection({
      open,
      frames: jsonClientFrames,
      errors,
      highWaterFrames: 4,
    });
    const stream = connection.call(outbound, undefined)[Symbol.asyncIterator]();
    const first = stream.next();
    await tick();
    const channel = channels[0]!;
    for (let n = 0; n < 6; n++) channel.answer({ id: 1, event: { n } });
    await first; // one read, five unread
    expect(channel.pauses).toEqual(["pause"]);
    await stream.next();
    await stream.next(); // three unread: not yet
    expect(channel.pauses).toEqual(["pause"]);
    await stream.next(); // two unread: half of four
    expect(channel.pauses).toEqual(["pause", "resume"]);
    await stream.return?.(undefined);
  });
});
