// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The JSON body of a request to the HTTP bindings (JSON-RPC and HTTP+JSON), read the one way both
 * servers read it: at most `maxBytes` bytes, UTF-8, nested no deeper than `maxDepth` (a scan of the
 * text before parsing, so that no decoder recurses through it: limits.ts), then `JSON.parse`.
 * A refusal comes back as a kind with the message both servers answer with; each server picks the
 * error it answers with (`JSON_BODY_ERRORS`) and the headers.
 */
import type { JsonValue } from "@bufbuild/protobuf";
import { jsonDepthExceeds } from "../pipeline/limits.js";
import type { UniversalRequest } from "./universal.js";

/** Why a body was refused. */
export type JsonBodyProblem =
  | "unreadable"
  | "too-large"
  | "unsupported-type"
  | "not-utf8"
  | "too-deep"
  | "not-json";

/** A body read: its text and its JSON (undefined only for an empty body with `allowEmpty`). */
export interface JsonBodyRead {
  readonly ok: true;
  readonly text: string;
  readonly value: JsonValue | undefined;
}

/** A body refused: why, and the message of the answer. */
export interface JsonBodyRefusal {
  readonly ok: false;
  readonly kind: JsonBodyProblem;
  readonly message: string;
}

/** What `readJsonBody` found. */
export type JsonBodyResult = JsonBodyRead | JsonBodyRefusal;

/** How a body is read. */
export interface JsonBodyOptions {
  /** The most bytes read; more is "too-large" (the rest is not buffered). */
  readonly maxBytes: number;
  /** The deepest nesting of arrays and objects accepted (`maxJsonDepth`); deeper is "too-deep". */
  readonly maxDepth: number;
  /** An empty body is `{ ok: true, text: "", value: undefined }` rather than "not-json" (a REST body is optional). */
  readonly allowEmpty?: boolean | undefined;
  /**
   * Why the request's Content-Type is refused, when it is: a non-empty body then fails with kind
   * "unsupported-type" and this message, before it is decoded (REST judges the type of a body it has).
   */
  readonly refusedType?: string | undefined;
}

/** The A2A error each problem is answered with, on both bindings (REST answers "too-large" with HTTP 413). */
export const JSON_BODY_ERRORS: Readonly<
  Record<JsonBodyProblem, "InvalidRequestError" | "JsonParseError" | "ContentTypeNotSupportedError">
> = {
  unreadable: "InvalidRequestError",
  "too-large": "InvalidRequestError",
  "unsupported-type": "ContentTypeNotSupportedError",
  "not-utf8": "JsonParseError",
  "too-deep": "InvalidRequestError",
  "not-json": "JsonParseError",
};

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
const EMPTY: JsonBodyRead = { ok: true, text: "", value: undefined };

const refused = (kind: JsonBodyProblem, message: string): JsonBodyRefusal => ({
  ok: false,
  kind,
  message,
});

/** Reads, decodes and parses the JSON body of `request` (see the file's comment); never throws. */
export async function readJsonBody(
  request: Pick<UniversalRequest, "readBody">,
  options: JsonBodyOptions,
): Promise<JsonBodyResult> {
  let bytes: Uint8Array | "too-large";
  try {
    bytes = await request.readBody(options.maxBytes);
  } catch {
    return refused("unreadable", "the request body could not be read");
  }
  if (bytes === "too-large")
    return refused("too-large", `the request body exceeds the limit of ${options.maxBytes} bytes`);
  if (bytes.length === 0 && options.allowEmpty === true) return EMPTY;
  if (options.refusedType !== undefined) return refused("unsupported-type", options.refusedType);
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return refused("not-utf8", "Invalid JSON payload: the body is not valid UTF-8");
  }
  if (jsonDepthExceeds(text, options.maxDepth)) {
    return refused(
      "too-deep",
      `the request body nests deeper than ${options.maxDepth} levels (maxJsonDepth)`,
    );
  }
  try {
    return { ok: true, text, value: JSON.parse(text) as JsonValue };
  } catch (e) {
    return refused(
      "not-json",
      `Invalid JSON payload: ${e instanceof SyntaxError ? e.message : "the body is not valid JSON"}`,
    );
  }
}
