// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/** Reading the output message of a call from the ProtoJSON an agent answered with (the JSON bindings' clients). */
import { fromJson, type JsonValue, type MessageShape, type Registry } from "@bufbuild/protobuf";
import type { OperationDescriptor } from "../protocol/operation.js";

/**
 * The output message of `operation` from `json` (unknown fields ignored; Any and extensions by
 * `registry`). JSON that is not one throws what `invalid` makes of the reason (the binding's
 * InvalidAgentResponseError); `what` names the JSON in it ("result", "response").
 */
export function responseMessage<I extends OperationDescriptor>(
  operation: I,
  json: JsonValue,
  registry: Registry | undefined,
  what: string,
  invalid: (message: string) => unknown,
): MessageShape<I["output"]> {
  try {
    return fromJson(operation.output, json, {
      ignoreUnknownFields: true,
      registry,
    }) as MessageShape<I["output"]>;
  } catch (e) {
    throw invalid(
      `the ${what} is not a valid ${operation.output.typeName}: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
}
