// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * OpenRPC 1.3 of the JSON-RPC 2.0 binding (spec §9): one method per operation (name =
 * RPC name, `<Service>.<Rpc>` when two services of the file have the RPC name), by-name params = the request message's top-level fields, the result schema,
 * the JSON-RPC errors of the selected error profile (with their ErrorInfo `data`), and
 * for streaming methods the `x-a2a-streaming` extension: the answer is a text/event-stream
 * whose events each carry one JSON-RPC response (OpenRPC has no streaming of its own).
 * Schemas are the JSON Schema bundle's definitions under `components.schemas`.
 */
import type { Schema } from "@bufbuild/protoplugin";
import { ERROR_DOMAIN } from "../../model/error-catalog.js";
import type { FileModel } from "../../model/service-model.js";
import { exactlyOneRule } from "../../model/oneof-rules.js";
import { outputFile } from "../file-names.js";
import { operationDefName } from "./binding-schemas.js";
import { generatedNotice } from "./generated-notice.js";
import { fileDefinitions } from "./json-schema.js";
import { commentText, componentRef, messageRef, type JsonSchema } from "./message-schema.js";
import { writeJsonDocument } from "./print-json.js";
import type { PluginOptions } from "../../options.js";
import { openRpcParams, paramStructure } from "./openrpc-params.js";
import { withErrorLocation } from "../../generation-error.js";

const ERROR_INFO_TYPE = "type.googleapis.com/google.rpc.ErrorInfo";

/** Emits `<file>_a2a_openrpc.json`. */
export function emitOpenRpc(
  schema: Schema<PluginOptions>,
  model: FileModel,
  parameter: string,
): void {
  writeJsonDocument(
    schema,
    model,
    outputFile(model.file, "openRpc"),
    openRpcDocument(model, parameter),
  );
}

export function openRpcDocument(model: FileModel, parameter: string): JsonSchema {
  const { defs } = fileDefinitions(model, componentRef);
  const errors: Record<string, JsonSchema> = {};
  for (const e of model.errors) {
    errors[e.name] = {
      code: e.jsonRpcCode,
      message: e.message,
      data: [{ "@type": ERROR_INFO_TYPE, reason: e.reason, domain: ERROR_DOMAIN }],
    };
  }
  const methods = model.services.flatMap((service) =>
    service.operations.map((op) =>
      withErrorLocation({ file: model.fileName, rpc: `${service.typeName}.${op.name}` }, () => {
        const description = commentText(op.desc);
        const summary = description?.split(/\n\s*\n|(?<=\.)\s/)[0]?.replace(/\n/g, " ");
        const params = openRpcParams(op.input);
        const oneofs = op.input.oneofs
          .filter((o) => exactlyOneRule(o) !== undefined)
          .map((o) => o.fields.map((f) => f.jsonName).join(", "));
        const streaming = op.kind === "server_streaming";
        const method: Record<string, unknown> = {
          name: op.jsonRpcMethod,
          ...(summary === undefined ? {} : { summary }),
          description: [
            description,
            `params: ${paramStructure(op.input) === "by-position" ? `[a ${op.input.typeName}], its ProtoJSON value by position` : `a ${op.input.typeName}`}${oneofs.length > 0 ? ` (exactly one of ${oneofs.join("; ")})` : ""}. gRPC ${op.grpcPath}${op.httpBindings[0] === undefined ? "" : `, HTTP+JSON ${op.httpBindings[0].method} ${op.httpBindings[0].template}`}.`,
            op.jsonRpcMethod === op.name
              ? undefined
              : `Another service of ${model.fileName} has an RPC named ${op.name}: this one is documented as ${op.jsonRpcMethod}, which ${service.desc.name}'s endpoint accepts beside ${op.name} (what its generated clients send).`,
            streaming
              ? `Streaming (§9.4.2): the answer is a text/event-stream; each event's data is a JSON-RPC response whose result is one ${op.output.typeName} (the result below), or an error response that ends the stream.`
              : undefined,
          ]
            .filter((s) => s !== undefined)
            .join("\n\n"),
          tags: [{ name: service.desc.name }],
          paramStructure: paramStructure(op.input),
          params,
          result: {
            name: streaming ? "event" : "result",
            ...(streaming ? { description: "The result of each SSE event." } : {}),
            schema: messageRef(op.output, componentRef),
          },
          errors: model.errors.map((e) => ({ $ref: `#/components/errors/${e.name}` })),
        };
        if (op.desc.deprecated) method["deprecated"] = true;
        if (streaming)
          method["x-a2a-streaming"] = {
            mediaType: "text/event-stream",
            event: { $ref: componentRef(operationDefName(service, op, "JsonRpcStreamEvent")) },
          };
        return method;
      }),
    ),
  );
  const pkgVersion =
    /(?:^|\.)(v\d+[a-z0-9]*)$/.exec(model.file.proto.package)?.[1] ?? "unversioned";
  return {
    openrpc: "1.3.2",
    info: {
      title: `${model.services.map((s) => s.desc.name).join(", ")} over JSON-RPC 2.0`,
      version: pkgVersion,
      description: `The JSON-RPC 2.0 binding of ${model.services.map((s) => s.typeName).join(", ")} (${model.fileName}): one request per HTTP POST to the interface URL (the Agent Card's \`supportedInterfaces[].url\`), service parameters (A2A-Version, A2A-Extensions) as HTTP headers. An agent serving this document puts that URL into \`servers\`.`,
    },
    methods,
    components: { schemas: defs, errors },
    "x-generated": generatedNotice(model, parameter),
  };
}
