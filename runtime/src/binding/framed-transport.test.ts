// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The framed binding's Transport (framed-transport.ts) over a scripted connection: the call as
 * it goes out (wire name, ProtoJSON, service parameters), answers decoded, the activated
 * extensions as `A2A-Extensions`, error frames as the typed classes, frames of the wrong kind as
 * InvalidAgentResponseError, a lost connection as UNAVAILABLE, and the connection opened lazily.
 */
import { toJson, type JsonValue } from "@bufbuild/protobuf";
import { StructSchema } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import {
  A2AError,
  createErrorRegistry,
  isA2AError,
  type A2AErrorSpec,
} from "../errors/a2a-error.js";
import type { OperationDescriptor } from "../protocol/operation.js";
import type { FramedAnswer, FramedConnection, FramedOutboundCall } from "./framed-call.js";
import { FramedTransport, type FramedTransportHooks } from "./framed-transport.js";

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
const specs = [
  spec("TaskNotFoundError", "TASK_NOT_FOUND", -32001, 5),
  spec("InvalidAgentResponseError", "INVALID_AGENT_RESPONSE", -32006, 13),
];
const errors = createErrorRegistry(
  specs.map((s) => ({ spec: s, create: (m: string, o: object) => new A2AError(s, m, o) })),
);

const operation = (
  name: string,
  kind: "unary" | "server_streaming",
): OperationDescriptor<typeof StructSchema, typeof StructSchema> => ({
  name,
  localName: name.toLowerCase(),
  kind,
  input: StructSchema,
  output: StructSchema,
  grpcPath: `/test.v1.Test/${name}`,
});
const echo = operation("Echo", "unary");
const watch = operation("Watch", "server_streaming");
const request = { fields: { q: { kind: { case: "stringValue" as const, value: "x" } } } };

/** A connection answering every call with `answers` (then failing with `failure`, if given); it records the calls. */
function scripted(answers: FramedAnswer[], failure?: unknown) {
  const calls: FramedOutboundCall[] = [];
  let closed = 0;
  const connection: FramedConnection = {
    async *call(call) {
      calls.push(call);
      yield* answers;
      if (failure !== undefined) throw failure;
    },
    close: () => void closed++,
  };
  return { connection, calls, closed: () => closed };
}

const hooks = (
  connection: FramedConnection,
  extra: Partial<FramedTransportHooks> = {},
): FramedTransportHooks => ({
  operations: { Echo: { wire: "echo" } },
  errors,
  connect: () => connection,
  ...extra,
});

describe("FramedTransport", () => {
  it("sends the call by its wire name with the ProtoJSON request and the service parameters; decodes the result; reports activated extensions", async () => {
    const { connection, calls } = scripted([
      { kind: "result", response: { a: 1 }, activatedExtensions: ["urn:x", "urn:y"] },
    ]);
    const seen: string[] = [];
    const transport = new FramedTransport(hooks(connection), {
      connection,
      headers: { authorization: "Bearer t" },
      extensions: ["urn:x"],
    });
    const response = await transport.unary(echo, request, {
      onHeaders: (h) => seen.push(h.get("a2a-extensions") ?? ""),
    });
    expect(toJson(StructSchema, response)).toEqual({ a: 1 });
    expect(seen).toEqual(["urn:x, urn:y"]);
    expect(calls).toEqual([
      {
        operation: "echo",
        request: { q: "x" },
        serviceParameters: {
          authorization: "Bearer t",
          "a2a-version": "1.0",
          "a2a-extensions": "urn:x",
        },
      },
    ]);
    // An RPC the table lacks goes by its RPC name.
    const stream = scripted([{ kind: "end" }]);
    for await (const _ of new FramedTransport(hooks(stream.connection), {}).stream(watch, {}));
    expect(stream.calls[0]?.operation).toBe("Watch");
  });

  it("streams events until the end frame", async () => {
    const { connection } = scripted([
      { kind: "event", event: { n: 0 }, activatedExtensions: ["urn:x"] },
      { kind: "event", event: { n: 1 } },
      { kind: "end" },
    ]);
    const headers: string[] = [];
    const events: JsonValue[] = [];
    for await (const e of new FramedTransport(hooks(connection), {}).stream(
      watch,
      {},
      { onHeaders: (h) => headers.push(h.get("a2a-extensions") ?? "") },
    ))
      events.push(toJson(StructSchema, e));
    expect(events).toEqual([{ n: 0 }, { n: 1 }]);
    expect(headers).toEqual(["urn:x"]);
  });

  it("an error frame is the typed error (decodeError, else the JSON-RPC error object)", async () => {
    const error = {
      code: -32001,
      message: "Task not found: t",
      data: [
        {
          "@type": "type.googleapis.com/google.rpc.ErrorInfo",
          reason: "TASK_NOT_FOUND",
          domain: "a2a-protocol.org",
        },
      ],
    };
    const { connection } = scripted([{ kind: "error", error }]);
    const failure = await new FramedTransport(hooks(connection), {})
      .unary(echo, {})
      .catch((e: unknown) => e);
    expect(isA2AError(failure) && [failure.spec.name, failure.message]).toEqual([
      "TaskNotFoundError",
      "Task not found: t",
    ]);
    const custom = new FramedTransport(
      hooks(connection, {
        decodeError: (e) => new A2AError(specs[0]!, `mine: ${(e as { message: string }).message}`),
      }),
      {},
    );
    await expect(custom.unary(echo, {})).rejects.toThrow("mine: Task not found: t");
  });

  it("frames of the wrong kind, a missing answer or end, and a response that does not decode are InvalidAgentResponseError", async () => {
    const cases: [FramedAnswer[], typeof echo, RegExp][] = [
      [[{ kind: "end" }], echo, /a unary call was answered with a end frame/],
      [[], echo, /the connection ended before the answer/],
      [[{ kind: "result", response: {} }], watch, /a stream was answered with a result frame/],
      [[{ kind: "event", event: {} }], watch, /the stream ended without its end frame/],
      [[{ kind: "result", response: [1] }], echo, /the response does not decode/],
    ];
    for (const [answers, operation, message] of cases) {
      const transport = new FramedTransport(hooks(scripted(answers).connection), {});
      const failure =
        operation.kind === "unary"
          ? await transport.unary(operation, {}).catch((e: unknown) => e)
          : await (async () => {
              for await (const _ of transport.stream(operation, {}));
            })().catch((e: unknown) => e);
      expect(isA2AError(failure) && failure.spec.name, String(message)).toBe(
        "InvalidAgentResponseError",
      );
      expect((failure as Error).message).toMatch(message);
    }
  });

  it("a lost connection is UNAVAILABLE (gRPC code 14); an abort is the abort's reason", async () => {
    const { connection } = scripted([], new Error("the socket closed"));
    const failure = await new FramedTransport(hooks(connection), {})
      .unary(echo, {})
      .catch((e: unknown) => e);
    expect(isA2AError(failure) && [failure.grpcCode, failure.message]).toEqual([
      14,
      "the socket closed",
    ]);
    const reason = new Error("stop");
    const abort = new AbortController();
    abort.abort(reason);
    const aborted = scripted([], reason);
    await expect(
      new FramedTransport(hooks(aborted.connection), {}).unary(echo, {}, { signal: abort.signal }),
    ).rejects.toBe(reason);
  });

  it("opens its connection with connect(url) at the first call, and closes it", async () => {
    const { connection, closed } = scripted([{ kind: "result", response: {} }]);
    const urls: string[] = [];
    const transport = new FramedTransport(
      hooks(connection, {
        connect: (url) => {
          urls.push(url);
          return connection;
        },
      }),
      { url: "test://agent" },
    );
    expect(urls).toEqual([]);
    await transport.unary(echo, {});
    await transport.unary(echo, {});
    expect(urls).toEqual(["test://agent"]);
    await transport.close();
    expect(closed()).toBe(1);
  });
});
