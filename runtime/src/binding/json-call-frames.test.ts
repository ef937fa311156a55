// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * JSON call frames (json-call-frames.ts): calls read as the example WebSocket and stdio bindings
 * wrote them, refusals with their JSON-RPC codes, and every frame written byte for byte as before.
 */
import { describe, expect, it } from "vitest";
import { isA2AError, type A2AErrorSpec } from "../errors/a2a-error.js";
import {
  decodeJsonAnswerFrame,
  decodeJsonCallFrame,
  encodeJsonCallFrame,
  encodeJsonCancelFrame,
  JSON_CANCEL_FRAME_MAX_CHARS,
  jsonCancelFrameId,
  jsonReplySink,
  peekJsonCallId,
  type JsonAnswerFrame,
} from "./json-call-frames.js";

const spec = (name: string, reason: string, jsonRpcCode: number): A2AErrorSpec => ({
  name,
  reason,
  jsonRpcCode,
  grpcCode: 3,
  grpcStatus: "INVALID_ARGUMENT",
  httpStatus: 400,
  message: name,
});
const errors = {
  JsonParseError: spec("JsonParseError", "JSON_PARSE", -32700),
  InvalidRequestError: spec("InvalidRequestError", "INVALID_REQUEST", -32600),
};

/** The JSON-RPC code and message a frame is refused with. */
function refusal(frame: unknown, unit?: string): { code: number; message: string } {
  try {
    decodeJsonCallFrame(frame, errors, unit === undefined ? {} : { unit });
  } catch (e) {
    if (isA2AError(e)) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error("not refused");
}

describe("decodeJsonCallFrame", () => {
  it("reads a call: id, method, params, serviceParameters, the tenant from the request", () => {
    const frame = JSON.stringify({
      id: 7,
      method: "GetTask",
      params: { id: "t", tenant: "acme" },
      serviceParameters: { "A2A-Version": "1.0" },
    });
    expect(decodeJsonCallFrame(frame, errors)).toEqual({
      id: 7,
      operation: "GetTask",
      request: { id: "t", tenant: "acme" },
      serviceParameters: { "A2A-Version": "1.0" },
      tenant: "acme",
    });
    expect(decodeJsonCallFrame('{"id":"a","method":"GetExtendedAgentCard"}', errors)).toEqual({
      id: "a",
      operation: "GetExtendedAgentCard",
      request: {},
      serviceParameters: {},
      tenant: undefined,
    });
    // params that are no object go to the pipeline as they are (InvalidParamsError there).
    expect(
      decodeJsonCallFrame('{"id":1,"method":"GetTask","params":["x"]}', errors).request,
    ).toEqual(["x"]);
  });

  it("refuses what is no call: -32700 for no JSON, -32600 for the rest, in the carrier's words", () => {
    expect(refusal("not json")).toMatchObject({
      code: -32700,
      message: expect.stringMatching(/^Invalid JSON frame: /),
    });
    expect(refusal("not json", "line")).toMatchObject({
      code: -32700,
      message: expect.stringMatching(/^Invalid JSON line: /),
    });
    expect(refusal("[1]")).toEqual({
      code: -32600,
      message: "a frame is a JSON object: {id, method, params, serviceParameters?}",
    });
    expect(refusal('{"method":"GetTask"}', "line")).toEqual({
      code: -32600,
      message: 'the line has no "id" (a number or a string)',
    });
    expect(refusal('{"id":null,"method":"GetTask"}').code).toBe(-32600);
    expect(refusal('{"id":1e999,"method":"GetTask"}').code).toBe(-32600);
    expect(refusal('{"id":1,"method":""}')).toEqual({
      code: -32600,
      message: 'the frame has no "method" (the operation\'s wire name)',
    });
    expect(refusal('{"id":1,"method":"GetTask","serviceParameters":{"A2A-Version":1}}').code).toBe(
      -32600,
    );
    expect(refusal('{"id":1,"method":"GetTask","serviceParameters":null}').code).toBe(-32600);
    expect(refusal(new Uint8Array([123, 125])).code).toBe(-32600);
  });
});

describe("peekJsonCallId and jsonCancelFrameId", () => {
  it("peeks the id of any JSON object with one, null otherwise", () => {
    expect(peekJsonCallId('{"id":3,"method":"GetTask","serviceParameters":{"x":1}}')).toBe(3);
    expect(peekJsonCallId('{"id":"c"}')).toBe("c");
    expect(peekJsonCallId('{"id":true}')).toBeNull();
    expect(peekJsonCallId("not json")).toBeNull();
    expect(peekJsonCallId(new Uint8Array(2))).toBeNull();
  });

  it("reads cancel frames, short ones only", () => {
    expect(jsonCancelFrameId('{"id":4,"cancel":true}')).toBe(4);
    expect(jsonCancelFrameId('{"id":"s","cancel":true}')).toBe("s");
    expect(jsonCancelFrameId('{"id":4,"cancel":false}')).toBeUndefined();
    expect(jsonCancelFrameId('{"id":4,"method":"GetTask"}')).toBeUndefined();
    expect(
      jsonCancelFrameId(
        `{"id":4,"cancel":true,"pad":"${"x".repeat(JSON_CANCEL_FRAME_MAX_CHARS)}"}`,
      ),
    ).toBeUndefined();
    expect(jsonCancelFrameId("cancel")).toBeUndefined();
  });
});

describe("the frames written", () => {
  it("answers: result, event, end, error, activatedExtensions only when there are some", async () => {
    const written: string[] = [];
    const sink = jsonReplySink((frame: JsonAnswerFrame) => {
      written.push(JSON.stringify(frame));
    });
    const error = { code: -32001, message: "Task not found", data: [] };
    await sink.result(1, { task: {} }, []);
    await sink.result("u", {}, ["urn:x"]);
    await sink.event(2, { message: {} }, ["urn:x", "urn:y"]);
    await sink.event(2, { message: {} }, []);
    await sink.end(2);
    await sink.error(3, error);
    await sink.error(null, error);
    expect(written).toEqual([
      '{"id":1,"result":{"task":{}}}',
      '{"id":"u","result":{},"activatedExtensions":["urn:x"]}',
      '{"id":2,"event":{"message":{}},"activatedExtensions":["urn:x","urn:y"]}',
      '{"id":2,"event":{"message":{}}}',
      '{"id":2,"end":true}',
      '{"id":3,"error":{"code":-32001,"message":"Task not found","data":[]}}',
      '{"id":null,"error":{"code":-32001,"message":"Task not found","data":[]}}',
    ]);
  });

  it("calls and cancels, serviceParameters only when there are some", () => {
    expect(
      encodeJsonCallFrame(1, {
        operation: "GetTask",
        request: { id: "t" },
        serviceParameters: { "a2a-version": "1.0" },
      }),
    ).toBe(
      '{"id":1,"method":"GetTask","params":{"id":"t"},"serviceParameters":{"a2a-version":"1.0"}}',
    );
    expect(
      encodeJsonCallFrame(2, {
        operation: "GetExtendedAgentCard",
        request: {},
        serviceParameters: {},
      }),
    ).toBe('{"id":2,"method":"GetExtendedAgentCard","params":{}}');
    expect(encodeJsonCancelFrame(2)).toBe('{"id":2,"cancel":true}');
  });
});

describe("decodeJsonAnswerFrame", () => {
  it("reads each answer kind; drops frames without a call id; flags an answer that is none", () => {
    expect(
      decodeJsonAnswerFrame('{"id":1,"result":{"a":1},"activatedExtensions":["urn:x",2]}'),
    ).toEqual({
      id: 1,
      answer: { kind: "result", response: { a: 1 }, activatedExtensions: ["urn:x"] },
    });
    expect(decodeJsonAnswerFrame('{"id":1,"event":{}}')).toEqual({
      id: 1,
      answer: { kind: "event", event: {}, activatedExtensions: undefined },
    });
    expect(decodeJsonAnswerFrame('{"id":1,"end":true}')).toEqual({
      id: 1,
      answer: { kind: "end" },
    });
    expect(decodeJsonAnswerFrame('{"id":1,"error":{"code":-32001}}')).toEqual({
      id: 1,
      answer: { kind: "error", error: { code: -32001 } },
    });
    expect(decodeJsonAnswerFrame('{"id":1,"what":true}')).toEqual({
      id: 1,
      invalid: "an answer frame with neither result, event, end nor error",
    });
    expect(decodeJsonAnswerFrame('{"id":null,"error":{}}')).toBeUndefined();
    expect(decodeJsonAnswerFrame("null")).toBeUndefined();
    expect(decodeJsonAnswerFrame("not json")).toBeUndefined();
  });
});
