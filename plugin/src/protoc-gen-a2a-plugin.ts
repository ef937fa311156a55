// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import { createEcmaScriptPlugin, type Plugin, type Schema } from "@bufbuild/protoplugin";
import type { CodeGeneratorRequest } from "@bufbuild/protobuf/wkt";
import { parseOptions, type PluginOptions } from "./options.js";
import { version } from "./version.js";
import { checkImportExtension } from "./import-extension.js";
import { buildFileModel, type FileModel } from "./model/service-model.js";
import { withErrorLocation } from "./generation-error.js";
import { emitHandlerFile } from "./emit/common/handler-interface.js";
import { emitErrorsFile } from "./emit/common/errors.js";
import { emitTaskHandlerFile } from "./emit/common/task-handler.js";
import { emitAgentClientFile } from "./emit/common/agent-client.js";
import { emitEquivalenceKitFile } from "./emit/common/equivalence-kit.js";
import { emitJsonRpcMethodTable } from "./emit/jsonrpc/method-table.js";
import { emitJsonRpcServer } from "./emit/jsonrpc/server.js";
import { emitJsonRpcClient } from "./emit/jsonrpc/client.js";
import { emitRouteTable, restServices } from "./emit/rest/route-table.js";
import { emitRestServer } from "./emit/rest/server.js";
import { emitRestClient } from "./emit/rest/client.js";
import { emitGrpcServer } from "./emit/grpc/server.js";
import { emitGrpcClient } from "./emit/grpc/client.js";
import { emitJsonSchemas } from "./emit/schema/json-schema.js";
import { emitOpenApi } from "./emit/schema/openapi.js";
import { emitOpenRpc } from "./emit/schema/openrpc.js";
import { emitManifest } from "./emit/manifest/manifest.js";
import { isA2AV03Service, v03CompanionOf } from "./model/a2a-v0-3.js";
import { emitV03CompatFile } from "./emit/common/v03-compat.js";
import { emitJsonWriters } from "./emit/common/json-writers.js";
import { notice } from "./notices.js";

const name = "protoc-gen-a2a";

const inner = createEcmaScriptPlugin<PluginOptions>({
  name,
  version: `v${version}`,
  parseOptions,
  generateTs,
  transpile() {
    throw new Error(
      `${name} emits TypeScript only: run it with target=ts (the default when no target is given)`,
    );
  },
});

/**
 * protoc-gen-a2a: generates, for every proto file with a service, the handler
 * interface, error mappers, JSON-RPC method table and HTTP+JSON route table of the
 * A2A bindings, over the runtime library `@protoc-gen-a2a/runtime`.
 *
 * Unlike protoplugin's default (`js+dts`), the default target is `ts`.
 */
export const protocGenA2a: Plugin = {
  name: inner.name,
  version: inner.version,
  run(request: CodeGeneratorRequest) {
    checkImportExtension(request.parameter);
    if (!/(^|,)\s*target=/.test(request.parameter)) {
      request.parameter = request.parameter === "" ? "target=ts" : `${request.parameter},target=ts`;
    }
    return inner.run(request);
  },
};

function generateTs(schema: Schema<PluginOptions>): void {
  const models = schema.files
    .filter((file) => file.services.length > 0)
    .map((file) => buildFileModel(file, schema.options, schema.proto.parameter));
  noticeUnknownSkippedRpcs(schema);
  if (models.length === 0) return;
  // A2A 0.3's proto in the same run: the 1.0 files get its clients and servers joined to theirs.
  const v03 = v03CompanionOf(schema.files);
  for (const model of models) {
    // Whatever fails names the proto file (the emitters that go per RPC name it too).
    withErrorLocation({ file: model.fileName }, () => emitFile(schema, model, v03));
  }
}

/** Emits every output file of one proto file. */
function emitFile(
  schema: Schema<PluginOptions>,
  model: FileModel,
  v03: ReturnType<typeof v03CompanionOf>,
): void {
  const bindings = schema.options.bindings;
  emitHandlerFile(schema, model);
  emitErrorsFile(schema, model);
  emitTaskHandlerFile(schema, model);
  const withV03 = v03 !== undefined && model.file !== v03 ? v03 : undefined;
  emitAgentClientFile(schema, model, withV03);
  if (withV03 !== undefined) emitV03CompatFile(schema, model, withV03);
  emitEquivalenceKitFile(schema, model);
  // A2A 0.3's JSON-RPC wire is not its proto's: the runtime serves it (model/a2a-v0-3.ts).
  const jsonRpc = bindings.has("jsonrpc") && !model.services.every((s) => isA2AV03Service(s.desc));
  const rest = bindings.has("rest") && restServices(model).length > 0;
  // The servers of both HTTP bindings write responses with the generated ProtoJSON writers.
  if (jsonRpc || rest) emitJsonWriters(schema, model);
  if (jsonRpc) {
    emitJsonRpcMethodTable(schema, model);
    emitJsonRpcServer(schema, model);
    emitJsonRpcClient(schema, model);
  }
  // Only files with a google.api.http rule get REST files (route table, server, client).
  if (rest) {
    emitRouteTable(schema, model);
    emitRestServer(schema, model);
    emitRestClient(schema, model);
  }
  if (bindings.has("grpc")) {
    emitGrpcServer(schema, model);
    emitGrpcClient(schema, model);
  }
  const parameter = schema.proto.parameter;
  if (schema.options.jsonSchema) emitJsonSchemas(schema, model, parameter);
  if (bindings.has("rest") && schema.options.openApi !== "none")
    emitOpenApi(schema, model, parameter, schema.options.openApi);
  if (jsonRpc && schema.options.openRpc) emitOpenRpc(schema, model, parameter);
  if (schema.options.manifest) emitManifest(schema, model, parameter);
}

/** A `skip_http_rules` name that no RPC of this run has: a typo, or an RPC another plugin run (buf's per-directory strategy) generates. */
function noticeUnknownSkippedRpcs(schema: Schema<PluginOptions>): void {
  const known = new Set(
    schema.files.flatMap((file) =>
      file.services.flatMap((service) =>
        service.methods.map((m) => `${service.typeName}.${m.name}`),
      ),
    ),
  );
  for (const name of schema.options.skipHttpRules) {
    if (known.has(name)) continue;
    notice(
      { file: "plugin options", option: "skip_http_rules" },
      `no RPC of the files of this run is named ${name} (buf runs a plugin once per directory unless \`strategy: all\`)`,
    );
  }
}
