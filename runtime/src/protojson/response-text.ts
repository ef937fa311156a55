// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The ProtoJSON text of a response message: the plugin's generated writer of its type when the
 * service has one (json-write.ts), else, and whenever that writer leaves the message to
 * reflection, `JSON.stringify(encodeMessage(…))`. Both give the same text; the writer builds no
 * object tree and no reflective state on the way.
 */
import type { DescMessage, Message, Registry } from "@bufbuild/protobuf";
import type { JsonTextWriterTable } from "./json-write.js";
import { encodeMessage } from "./proto-json.js";
import type { RequirementTable } from "../pipeline/required-fields.js";

/**
 * The ProtoJSON text of `message` (of `schema`), REQUIRED zero values filled from `responseFields`; throws what `encodeMessage` throws.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function encodeMessageText(
  schema: DescMessage,
  message: Message,
  responseFields: RequirementTable,
  registry: Registry | undefined,
  writers: JsonTextWriterTable | undefined,
): string {
  const write = writers?.[schema.typeName];
  if (write !== undefined) {
    try {
      return write(message, registry);
    } catch {
      // A bail, or an error the reflective path reports in its own words: it decides below.
    }
  }
  return JSON.stringify(encodeMessage(schema, message, responseFields, registry));
}
