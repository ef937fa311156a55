// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The JSON body reader both HTTP servers share (runtime/src/http/json-body.ts): every outcome, with the
 * message the servers answer with, and the A2A error each refusal maps to.
 */
import { describe, expect, it } from "vitest";
import {
  JSON_BODY_ERRORS,
  readJsonBody,
  type JsonBodyOptions,
  type JsonBodyResult,
} from "../../../runtime/src/http/json-body.js";

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

/** A request whose body is `body`, read within the limit as UniversalRequest.readBody does, or whose read fails. */
function requestOf(body: Uint8Array | Error) {
  return {
    readBody: async (limit: number): Promise<Uint8Array | "too-large"> => {
      if (body instanceof Error) throw body;
      return body.length > limit ? "too-large" : body;
    },
  };
}

const limits: JsonBodyOptions = { maxBytes: 64, maxDepth: 3 };

interface Case {
  readonly name: string;
  readonly body: Uint8Array | Error;
  readonly options?: Partial<JsonBodyOptions>;
  readonly expected: JsonBodyResult;
}

const cases: readonly Case[] = [
  {
    name: "an object",
    body: encode('{"a":[1,{"b":true}]}'),
    expected: { ok: true, text: '{"a":[1,{"b":true}]}', value: { a: [1, { b: true }] } },
  },
  { name: "a scalar", body: encode(' "x" '), expected: { ok: true, text: ' "x" ', value: "x" } },
  {
    name: "a body with a byte-order mark (dropped)",
    body: new Uint8Array([0xef, 0xbb, 0xbf, ...encode("[]")]),
    expected: { ok: true, text: "[]", value: [] },
  },
  {
    name: "a body of exactly maxBytes",
    body: encode(`"${"x".repeat(62)}"`),
    expected: { ok: true, text: `"${"x".repeat(62)}"`, value: "x".repeat(62) },
  },
  {
    name: "nesting of exactly maxDepth",
    body: encode("[[[1]]]"),
    expected: { ok: true, text: "[[[1]]]", value: [[[1]]] },
  },
  {
    name: "a body that cannot be read",
    body: new Error("client went away"),
    expected: { ok: false, kind: "unreadable", message: "the request body could not be read" },
  },
  {
    name: "a body over maxBytes",
    body: encode(`"${"x".repeat(63)}"`),
    expected: {
      ok: false,
      kind: "too-large",
      message: "the request body exceeds the limit of 64 bytes",
    },
  },
  {
    name: "a body that is not UTF-8",
    body: new Uint8Array([0x22, 0xff, 0x22]),
    expected: {
      ok: false,
      kind: "not-utf8",
      message: "Invalid JSON payload: the body is not valid UTF-8",
    },
  },
  {
    name: "nesting deeper than maxDepth",
    body: encode("[[[[1]]]]"),
    expected: {
      ok: false,
      kind: "too-deep",
      message: "the request body nests deeper than 3 levels (maxJsonDepth)",
    },
  },
  {
    name: "a body that is not JSON",
    body: encode("{nope"),
    expected: {
      ok: false,
      kind: "not-json",
      message: `Invalid JSON payload: ${syntaxError("{nope")}`,
    },
  },
  {
    name: "an empty body",
    body: new Uint8Array(0),
    expected: { ok: false, kind: "not-json", message: `Invalid JSON payload: ${syntaxError("")}` },
  },
  {
    name: "an empty body, allowed",
    body: new Uint8Array(0),
    options: { allowEmpty: true },
    expected: { ok: true, text: "", value: undefined },
  },
  {
    name: "an empty body, allowed, of a refused type",
    body: new Uint8Array(0),
    options: { allowEmpty: true, refusedType: "wrong type" },
    expected: { ok: true, text: "", value: undefined },
  },
  {
    name: "a body of a refused type (before it is decoded)",
    body: new Uint8Array([0xff]),
    options: { allowEmpty: true, refusedType: "wrong type" },
    expected: { ok: false, kind: "unsupported-type", message: "wrong type" },
  },
  {
    name: "a body over maxBytes of a refused type (the size first)",
    body: encode("x".repeat(65)),
    options: { refusedType: "wrong type" },
    expected: {
      ok: false,
      kind: "too-large",
      message: "the request body exceeds the limit of 64 bytes",
    },
  },
];

/** JSON.parse's own message for `text` (it differs between Node versions). */
function syntaxError(text: string): string {
  try {
    JSON.parse(text);
  } catch (e) {
    return (e as SyntaxError).message;
  }
  throw new Error(`${text} parses`);
}

describe("readJsonBody", () => {
  it.each(cases)("reads $name", async ({ body, options, expected }) => {
    expect(await readJsonBody(requestOf(body), { ...limits, ...options })).toEqual(expected);
  });

  it("asks for no more than maxBytes", async () => {
    const asked: number[] = [];
    const readBody = async (limit: number) => {
      asked.push(limit);
      return encode("{}");
    };
    await readJsonBody({ readBody }, limits);
    expect(asked).toEqual([64]);
  });

  it("maps each refusal to the A2A error both servers answer with", () => {
    expect(JSON_BODY_ERRORS).toEqual({
      unreadable: "InvalidRequestError",
      "too-large": "InvalidRequestError",
      "unsupported-type": "ContentTypeNotSupportedError",
      "not-utf8": "JsonParseError",
      "too-deep": "InvalidRequestError",
      "not-json": "JsonParseError",
    });
  });
});
