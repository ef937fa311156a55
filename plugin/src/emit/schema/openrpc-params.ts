// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The OpenRPC `params` of a request message: its top-level fields by name, or, for a message whose
 * ProtoJSON is not an object (model/json-form.ts), one by-position parameter holding its ProtoJSON
 * value (`params: [value]`). Struct and Any, objects without fields of their own, have the keys
 * their JSON mapping gives them: none listed for Struct, `@type` for Any.
 */
import type { DescMessage } from "@bufbuild/protobuf";
import { requiredRule } from "../../model/required-fields.js";
import { hasObjectJson } from "../../model/json-form.js";
import {
  commentText,
  componentRef,
  messageRef,
  messageSchema,
  type JsonSchema,
} from "./message-schema.js";

/** How JSON-RPC carries a request of this type: `by-name` (an object) or `by-position` (`[value]`). */
export function paramStructure(input: DescMessage): "by-name" | "by-position" {
  return hasObjectJson(input) ? "by-name" : "by-position";
}

/** The OpenRPC content descriptors of a request's params. */
export function openRpcParams(input: DescMessage): JsonSchema[] {
  if (!hasObjectJson(input)) {
    return [
      {
        name: "value",
        description: `The ${input.typeName} as its ProtoJSON value, the one element of params.`,
        required: true,
        schema: messageRef(input, componentRef),
      },
    ];
  }
  if (input.typeName === "google.protobuf.Struct") return [];
  if (input.typeName === "google.protobuf.Any") {
    return [
      {
        name: "@type",
        description: "The type URL of the packed message; its fields go beside it.",
        required: true,
        schema: { type: "string" },
      },
    ];
  }
  const properties = messageSchema(input, componentRef).properties as
    | Record<string, JsonSchema>
    | undefined;
  return input.fields.map((field) => ({
    name: field.jsonName,
    ...(commentText(field) === undefined ? {} : { description: commentText(field) }),
    required: requiredRule(field) !== undefined && field.oneof === undefined,
    schema: properties?.[field.jsonName] ?? {},
  }));
}
