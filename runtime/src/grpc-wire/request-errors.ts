// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * What a gRPC (or gRPC-web, Connect) client is told when its request message cannot be read: the
 * A2A InvalidRequestError (INVALID_ARGUMENT, ErrorInfo INVALID_REQUEST), on every path of both stacks,
 * with a message that says what is wrong with the request and nothing about the server (the
 * decoder's own text stays out of it); a JSON message as the HTTP+JSON binding answers its body.
 *
 * grpc-go and grpc-java answer INTERNAL to an undecodable request, and to a compressed flag without
 * `grpc-encoding`; here both are the client's bad input, like an incomplete envelope (which Connect
 * answers INVALID_ARGUMENT): INTERNAL would tell the client that the server failed (A2A maps it to
 * InternalError, HTTP 500). Free of Connect and grpc-js: both stacks use it.
 */
import type { DescMessage } from "@bufbuild/protobuf";
import { A2AError } from "../errors/a2a-error.js";
import { jsonDepthExceeds } from "../pipeline/limits.js";
import { decodeMessage, JsonDecodeError } from "../protojson/proto-json.js";
import type { PipelineErrorSpecs } from "../pipeline/server-pipeline.js";

/** protobuf-es's error when a message nests deeper than the decoder's recursion limit. */
const TOO_DEEP = /maximum recursion depth of (\d+)/;

/** The A2A error for a request message that does not decode as `typeName` (`cause`: the decoder's error, only looked at). */
export function undecodableRequest(
  errors: PipelineErrorSpecs,
  typeName: string,
  cause: unknown,
): A2AError {
  const deep = TOO_DEEP.exec(cause instanceof Error ? cause.message : "");
  const message =
    deep === null
      ? `the request message is not a valid ${typeName} in protobuf binary`
      : `the request message nests deeper than ${deep[1]} message levels (a Struct or Value spends two per JSON level)`;
  return new A2AError(errors.InvalidRequestError, message);
}

/**
 * The A2A error for a message whose compressed flag is set while the call names no compression
 * (`header`: `grpc-encoding`, or `connect-content-encoding`). gRPC over HTTP/2: "If the
 * Message-Encoding header is omitted then the Compressed-Flag must be 0".
 */
export function compressedWithoutEncoding(errors: PipelineErrorSpecs, header: string): A2AError {
  return new A2AError(
    errors.InvalidRequestError,
    `the message is flagged compressed, but the call has no ${header} naming a compression`,
  );
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The A2A error for a ProtoJSON request message (the Connect protocol's JSON, `+json` codecs), or
 * undefined when it decodes: judged as the HTTP+JSON binding judges a body (rest/server.ts): not
 * UTF-8 or not JSON is JsonParseError, deeper than `maxJsonDepth` is InvalidRequestError (before it
 * is parsed), a value that does not fit the message is InvalidParamsError naming the field.
 */
export function jsonRequestError(
  errors: PipelineErrorSpecs,
  maxJsonDepth: number,
  input: DescMessage,
  bytes: Uint8Array,
): A2AError | undefined {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return new A2AError(errors.JsonParseError, "Invalid JSON payload: the body is not valid UTF-8");
  }
  if (jsonDepthExceeds(text, maxJsonDepth))
    return new A2AError(
      errors.InvalidRequestError,
      `the request body nests deeper than ${maxJsonDepth} levels (maxJsonDepth)`,
    );
  let json: Parameters<typeof decodeMessage>[1];
  try {
    json = JSON.parse(text) as typeof json;
  } catch (e) {
    return new A2AError(
      errors.JsonParseError,
      `Invalid JSON payload: ${e instanceof SyntaxError ? e.message : "the body is not valid JSON"}`,
    );
  }
  try {
    decodeMessage(input, json);
  } catch (e) {
    if (e instanceof JsonDecodeError)
      return new A2AError(errors.InvalidParamsError, `Invalid parameters: ${e.message}`);
    throw e;
  }
  return undefined;
}
