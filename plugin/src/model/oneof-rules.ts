// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import type { DescOneof } from "@bufbuild/protobuf";

/**
 * Oneofs the A2A spec text requires exactly one member of (the proto cannot say it: a
 * proto3 oneof is "at most one"). Keyed by `Message.oneof`, package left out, like
 * field-constraints.ts. Validated on input with the REQUIRED fields, on every binding,
 * and written into the JSON Schemas as "exactly one of these keys"; every other oneof
 * is "at most one".
 */
const exactlyOne: Readonly<Record<string, string>> = {
  "Part.content":
    'spec §4.1.6 (rendered from a2a.proto): "A Part MUST contain exactly one of the following: text, raw, url, data"',
  "SendMessageResponse.payload": "spec §3.1.1: the response is a Task or a Message",
  "StreamResponse.payload":
    'spec §4.3.3: "a StreamResponse object containing exactly one of the following"',
  "SecurityScheme.scheme": "spec §4.5.1: a SecurityScheme is one of the five OpenAPI scheme types",
  "OAuthFlows.flow": "spec §4.5.7: OAuthFlows names the one OAuth 2.0 flow of the scheme",
};

/** Where the spec requires exactly one member of `oneof`, the rule's source; otherwise undefined (at most one). */
export function exactlyOneRule(oneof: DescOneof): string | undefined {
  return exactlyOne[`${oneof.parent.name}.${oneof.name}`];
}
