// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * OpenAPI 3.1 (or 3.2) of the HTTP+JSON binding, built from the compiled route table
 * (the same `HttpBinding`s the REST server and client are generated from):
 * - one path item per route, tenant forms (`additional_bindings`) and spec aliases included,
 *   `{field=*}` written `{field}`; operationId = the RPC name for its `google.api.http`
 *   rule, `<Rpc>_<n>` for its n-th further binding (`<Service>_<Rpc>` when two services of the
 *   file have the RPC name; a path and method two services bind is described once, with a notice);
 * - query parameters (§11.5) for routes without a body: every top-level field not in the
 *   path that a query can carry, by its camelCase name, typed;
 * - `A2A-Version` / `A2A-Extensions` as header parameters (and `A2A-Version` as the query
 *   parameter §3.6.1 allows);
 * - request and 200 bodies in both content types (`application/a2a+json`, `application/json`);
 * - for streaming routes `text/event-stream`: in 3.2 with `itemSchema` (each event's data);
 *   in 3.1, which has no way to say it, a string schema plus the same event schema in the
 *   `x-a2a-item-schema` extension of the media type;
 * - one error response per HTTP status the error catalog can produce, the §11.6 body,
 *   listing the errors and their ErrorInfo reasons;
 * - security schemes left empty: the agent fills them from its Agent Card.
 */
import type { Schema } from "@bufbuild/protoplugin";
import type { DescField } from "@bufbuild/protobuf";
import type { ErrorCatalogEntry } from "../../model/error-catalog.js";
import type { HttpBinding } from "../../model/http-binding.js";
import type { FileModel, OperationModel, ServiceModel } from "../../model/service-model.js";
import { requiredRule } from "../../model/required-fields.js";
import { fieldConstraint } from "../../model/field-constraints.js";
import { outputFile } from "../file-names.js";
import {
  acceptsEmpty,
  bindingDefNames,
  httpBodySchema,
  sharedBindingDefs,
} from "./binding-schemas.js";
import { generatedNotice } from "./generated-notice.js";
import { fileDefinitions } from "./json-schema.js";
import {
  commentText,
  componentRef,
  messageRef,
  scalarSchema,
  type JsonSchema,
} from "./message-schema.js";
import { writeJsonDocument } from "./print-json.js";
import type { PluginOptions } from "../../options.js";
import { notice } from "../../notices.js";
import { hasOwnJsonForm } from "../../model/json-form.js";
import { openApiPathOf } from "./openapi-path.js";

/** The OpenAPI versions the plugin writes. */
export type OpenApiVersion = "3.1" | "3.2";

const CONTENT_TYPES = ["application/a2a+json", "application/json"] as const;

/** Emits `<file>_a2a_openapi.json` for the services of a file that have HTTP bindings. */
export function emitOpenApi(
  schema: Schema<PluginOptions>,
  model: FileModel,
  parameter: string,
  version: OpenApiVersion,
): void {
  const services = model.services.filter((s) =>
    s.operations.some((op) => op.httpBindings.length > 0),
  );
  if (services.length === 0) return;
  writeJsonDocument(
    schema,
    model,
    outputFile(model.file, "openApi"),
    openApiDocument(model, services, parameter, version),
  );
}

export function openApiDocument(
  model: FileModel,
  services: readonly ServiceModel[],
  parameter: string,
  version: OpenApiVersion,
): JsonSchema {
  const { types, defs } = fileDefinitions(model, componentRef);
  const schemas: Record<string, JsonSchema> = {};
  for (const t of types) schemas[t.typeName] = defs[t.typeName]!;
  for (const [name, def] of Object.entries(sharedBindingDefs(model.errors, componentRef))) {
    if (!name.startsWith("jsonrpc.")) schemas[name] = def;
  }
  const paths: Record<string, Record<string, unknown>> = {};
  // Which service's operation each HTTP method + template is described for: two services of the file can bind the same one.
  const describedBy = new Map<string, { service: ServiceModel; rpc: string }>();
  for (const service of services) {
    for (const op of service.operations) {
      op.httpBindings.forEach((binding, index) => {
        const rpc = `${service.typeName}.${op.name}`;
        const route = `${binding.method} ${binding.template}`;
        const first = describedBy.get(route);
        if (first !== undefined && first.service !== service) {
          notice(
            { file: model.fileName, rpc },
            `${route} is also bound by rpc ${first.rpc} (another service of the file): each service's REST server serves its own operation at its own interface URL, but the file's OpenAPI document describes only rpc ${first.rpc} there`,
          );
          return;
        }
        describedBy.set(route, { service, rpc });
        const item = (paths[openApiPathOf(binding.pattern).path] ??= {});
        item[binding.method.toLowerCase()] = operationObject(
          model,
          service,
          op,
          binding,
          index,
          version,
        );
      });
    }
  }
  const parameters: Record<string, JsonSchema> = {};
  for (const p of model.serviceParameters) {
    parameters[headerParameterName(p.name)] = {
      name: p.name,
      in: "header",
      required: false,
      description: p.description,
      schema: { type: "string" },
      ...(p.example !== undefined ? { example: p.example } : {}),
    };
    if (p.query)
      parameters[`${headerParameterName(p.name)}Query`] = {
        name: p.name,
        in: "query",
        required: false,
        description: `${p.description} As a query parameter (§3.6.1), for clients that cannot set headers.`,
        schema: { type: "string" },
      };
  }
  const pkgVersion =
    /(?:^|\.)(v\d+[a-z0-9]*)$/.exec(model.file.proto.package)?.[1] ?? "unversioned";
  return {
    openapi: version === "3.2" ? "3.2.0" : "3.1.1",
    info: {
      title: `${services.map((s) => s.desc.name).join(", ")} over HTTP+JSON`,
      version: pkgVersion,
      description: [
        services
          .map((s) => commentText(s.desc))
          .filter((c) => c !== undefined)
          .join("\n\n"),
        `The HTTP+JSON binding of ${services.map((s) => s.typeName).join(", ")} (${model.fileName}). Paths are relative to the interface URL (the Agent Card's \`supportedInterfaces[].url\`); an agent serving this document puts that URL into \`servers\` and its security schemes into \`components.securitySchemes\`.`,
      ]
        .filter((s) => s !== "")
        .join("\n\n"),
    },
    servers: [
      {
        url: "/",
        description:
          "The agent's HTTP+JSON interface URL (replaced by the agent that serves this document).",
      },
    ],
    tags: services.map((s) => ({
      name: s.desc.name,
      description: commentText(s.desc) ?? s.typeName,
    })),
    paths,
    components: {
      schemas,
      parameters,
      responses: Object.fromEntries(
        errorsByStatus(model.errors).map(([status, entries]) => [
          errorResponseName(status),
          errorResponse(status, entries),
        ]),
      ),
      securitySchemes: {},
    },
    "x-generated": generatedNotice(model, parameter),
  };
}

/** The RPC name, or `<Service>_<Rpc>` when another service of the file has an RPC of that name (as its documented JSON-RPC method is qualified). */
function operationIdBase(service: ServiceModel, op: OperationModel): string {
  return op.jsonRpcMethod === op.name ? op.name : `${service.desc.name}_${op.name}`;
}

function headerParameterName(name: string): string {
  return name.replace(/-/g, "");
}

function operationObject(
  model: FileModel,
  service: ServiceModel,
  op: OperationModel,
  binding: HttpBinding,
  index: number,
  version: OpenApiVersion,
): JsonSchema {
  const description = commentText(op.desc);
  const summary = description?.split(/\n\s*\n|(?<=\.)\s/)[0]?.replace(/\n/g, " ");
  const parameters: unknown[] = [];
  for (const p of openApiPathOf(binding.pattern).parameters) {
    const v = binding.variables.find((x) => x.field === p.variable.field);
    const field = v?.path[v.path.length - 1];
    if (p.kind === "whole") {
      parameters.push({
        name: p.name,
        in: "path",
        required: true,
        description: (field === undefined ? undefined : commentText(field)) || undefined,
        schema: (field === undefined ? undefined : queryValueSchema(field)) ?? { type: "string" },
      });
      continue;
    }
    // A wildcard of a variable with a pattern of its own (openapi-path.ts): the request field is the whole form.
    const what =
      p.kind === "segments" ? "one or more path segments (may hold `/`)" : "one path segment";
    parameters.push({
      name: p.name,
      in: "path",
      required: true,
      description: `${what} of \`${p.variable.field}\`, which is \`${p.valueForm}\`.${field === undefined || commentText(field) === undefined ? "" : ` ${commentText(field)}`}`,
      schema: { type: "string" },
    });
  }
  // Without a body every other field is a query parameter; with `body: "field"` every field outside the path and that field (google.api.http).
  // A request whose ProtoJSON is not an object of its fields (Timestamp, Struct, …) has no query parameters: it is the body.
  if (binding.body !== "*" && !hasOwnJsonForm(op.input)) {
    const inPath = new Set(binding.variables.map((v) => v.path[0]!.name));
    for (const field of op.input.fields) {
      if (inPath.has(field.name) || field.name === binding.body) continue;
      const value = queryValueSchema(field);
      if (value === undefined) continue;
      const repeated = field.fieldKind === "list";
      parameters.push({
        name: field.jsonName,
        in: "query",
        required: requiredRule(field) !== undefined,
        ...(commentText(field) === undefined ? {} : { description: commentText(field) }),
        schema: repeated ? { type: "array", items: value } : value,
        ...(repeated ? { style: "form", explode: true } : {}),
      });
    }
  }
  for (const p of model.serviceParameters) {
    parameters.push({ $ref: `#/components/parameters/${headerParameterName(p.name)}` });
    if (p.query)
      parameters.push({ $ref: `#/components/parameters/${headerParameterName(p.name)}Query` });
  }
  const operation: Record<string, unknown> = {
    operationId:
      index === 0 ? operationIdBase(service, op) : `${operationIdBase(service, op)}_${index}`,
    tags: [service.desc.name],
  };
  if (summary !== undefined) operation["summary"] = summary;
  operation["description"] = [
    description,
    `${binding.method} ${binding.template}${binding.origin === "additional" ? " (an additional binding of the rule)" : binding.origin === "spec-alias" ? " (the spec text's verb, beside the proto's)" : binding.origin === "erratum" ? " (the proto's template corrected, beside it)" : ""}; gRPC ${op.grpcPath}, JSON-RPC ${op.jsonRpcMethod}.`,
  ]
    .filter((s) => s !== undefined)
    .join("\n\n");
  if (op.desc.deprecated) operation["deprecated"] = true;
  operation["parameters"] = parameters;
  if (binding.body !== "") {
    const pathFields = new Set(
      binding.variables.filter((v) => v.path.length === 1).map((v) => v.field),
    );
    const body = httpBodySchema(op, binding, componentRef);
    operation["requestBody"] = {
      required: !(binding.body === "*" ? acceptsEmpty(op.input, pathFields) : false),
      content: Object.fromEntries(CONTENT_TYPES.map((t) => [t, { schema: body }])),
    };
  }
  const responses: Record<string, unknown> = {};
  const output = messageRef(op.output, componentRef);
  if (op.kind === "server_streaming") {
    const description = `A text/event-stream (§11.7): each event's data is one ${op.output.typeName}, in order; the stream ends when the task reaches a terminal or interrupted state. An error before the first event is answered as a normal error response.`;
    responses["200"] = {
      description,
      content: {
        "text/event-stream":
          version === "3.2"
            ? {
                itemSchema: {
                  type: "object",
                  properties: {
                    data: {
                      type: "string",
                      contentMediaType: "application/json",
                      contentSchema: output,
                    },
                  },
                  required: ["data"],
                },
              }
            : {
                schema: {
                  type: "string",
                  description: `Server-sent events; the data of each is a JSON ${op.output.typeName}.`,
                },
                "x-a2a-item-schema": output,
              },
      },
    };
  } else if (binding.method === "HEAD") {
    // A HEAD answer has no body (model/http-binding.ts binds HEAD only to RPCs returning google.protobuf.Empty).
    responses["200"] = {
      description: "Success (a HEAD answer carries no body: the google.protobuf.Empty result).",
    };
  } else {
    responses["200"] = {
      description: `The ${op.output.typeName}.`,
      content: Object.fromEntries(CONTENT_TYPES.map((t) => [t, { schema: output }])),
    };
  }
  for (const [status] of errorsByStatus(model.errors))
    responses[String(status)] = { $ref: `#/components/responses/${errorResponseName(status)}` };
  operation["responses"] = responses;
  return operation;
}

/** The catalog's errors grouped by HTTP status, statuses ascending. */
function errorsByStatus(errors: readonly ErrorCatalogEntry[]): [number, ErrorCatalogEntry[]][] {
  const byStatus = new Map<number, ErrorCatalogEntry[]>();
  for (const e of errors) byStatus.set(e.httpStatus, [...(byStatus.get(e.httpStatus) ?? []), e]);
  return [...byStatus.entries()].sort((a, b) => a[0] - b[0]);
}

function errorResponseName(status: number): string {
  return `Error${status}`;
}

function errorResponse(status: number, entries: readonly ErrorCatalogEntry[]): JsonSchema {
  const list = entries
    .map((e) => `${e.name} (reason ${e.reason}, gRPC ${e.grpcStatus})`)
    .join("; ");
  const response: Record<string, unknown> = {
    description: `${entries[0]!.grpcStatus}: ${list}.`,
    content: Object.fromEntries(
      CONTENT_TYPES.map((t) => [
        t,
        { schema: { $ref: componentRef(bindingDefNames.httpErrorResponse) } },
      ]),
    ),
  };
  if (status === 401) {
    response["headers"] = {
      "WWW-Authenticate": {
        description: "The authentication challenge (RFC 9110 §11.6.1).",
        schema: { type: "string" },
      },
    };
  }
  return response;
}

/**
 * The schema of a field as a query or path parameter (§11.5): scalars, enums and the
 * string-form well-known types, singular or repeated; undefined for message fields,
 * which a query cannot carry.
 */
function queryValueSchema(field: DescField): JsonSchema | undefined {
  switch (field.fieldKind) {
    case "scalar":
      return scalarSchema(field.scalar, { range: fieldConstraint(field) });
    case "enum":
      return { $ref: componentRef(field.enum.typeName) };
    case "list":
      if (field.listKind === "scalar") return scalarSchema(field.scalar);
      if (field.listKind === "enum") return { $ref: componentRef(field.enum.typeName) };
      return stringWellKnown(field.message.typeName);
    case "message":
      return stringWellKnown(field.message.typeName);
    case "map":
      return undefined;
  }
}

function stringWellKnown(typeName: string): JsonSchema | undefined {
  if (typeName === "google.protobuf.Timestamp") return { type: "string", format: "date-time" };
  if (typeName === "google.protobuf.Duration")
    return { type: "string", pattern: "^-?[0-9]+(\\.[0-9]{1,9})?s$" };
  return undefined;
}
