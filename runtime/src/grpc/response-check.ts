// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * A response message checked before Connect encodes it. Connect answers a message it cannot encode
 * with INTERNAL and the encoder's text ("cannot encode … to JSON: …", "serialize binary: …"): an
 * internal message sent to the client. A Value holding NaN, a Value with no kind, a Timestamp out of
 * range have no ProtoJSON form; a wrongly typed field has no binary one. So the A2A pipeline encodes
 * each response once itself, in the call's format, and a failure is answered as any handler failure:
 * the generic InternalError, the text only logged. The price is a second encoding of every response
 * on Connect's own paths (gRPC-web, the Connect protocol, streams; the lean path encodes once).
 */
import {
  create,
  isMessage,
  toBinary,
  toJson,
  type DescMessage,
  type Message,
} from "@bufbuild/protobuf";

/** The JSON codecs: the Connect protocol's `application/json` and `application/connect+json`, gRPC and gRPC-web with `+json`. */
const JSON_CODEC = /^application\/(?:(?:connect|grpc|grpc-web)\+)?json\s*(?:;|$)/i;

/** Whether a call with this request content type gets its responses in ProtoJSON (else protobuf binary). */
export function answersInJson(contentType: string | null): boolean {
  return contentType !== null && JSON_CODEC.test(contentType);
}

/** `response` as a message of `schema`; throws when it cannot be encoded in the call's format (`json`). */
export function encodableResponse(schema: DescMessage, response: Message, json: boolean): Message {
  const message = isMessage(response, schema) ? response : create(schema, response as never);
  if (json) toJson(schema, message);
  else toBinary(schema, message);
  return message;
}
