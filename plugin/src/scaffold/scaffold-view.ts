// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import type { FileModel, ServiceModel } from "../model/service-model.js";
import { version } from "../version.js";

/** What a binding's scaffold is rendered from: names, paths and the model's operations, errors and service parameters. */
export interface ScaffoldView {
  readonly version: string;
  /** Short name, kebab-case ("ws", "long-poll"): file names. */
  readonly name: string;
  /** PascalCase of the short name ("Ws", "LongPoll"): type names. */
  readonly Name: string;
  /** camelCase ("ws", "longPoll"): values. */
  readonly camel: string;
  /** UPPER_SNAKE ("WS", "LONG_POLL"): constants. */
  readonly constName: string;
  /** The binding's protocolBinding URI. */
  readonly uri: string;
  /** Service name ("A2AService") and full name ("lf.a2a.v1.A2AService"). */
  readonly service: string;
  readonly serviceType: string;
  readonly protoFile: string;
  /** Import path of the generated files, relative to the scaffold's folder ("../gen"). */
  readonly gen: string;
  /** The proto's path without ".proto" ("a2a", "demo/v1/library"): generated file names start with it. */
  readonly base: string;
  /** Extension of relative imports (".js" for NodeNext, "" for none). */
  readonly ext: string;
  readonly errorProfile: string;
  readonly operations: readonly ScaffoldOperation[];
  readonly errors: readonly ScaffoldError[];
  readonly serviceParameters: readonly ScaffoldServiceParameter[];
  /** The streaming RPCs, for prose ("SendStreamingMessage, SubscribeToTask", or "none"). */
  readonly streamingOperations: string;
}

/** One RPC as the scaffold lists it. `native`: the author's cell of BINDING.md, "TODO" until filled. */
export interface ScaffoldOperation {
  readonly name: string;
  readonly kind: "unary" | "server streaming";
  readonly input: string;
  readonly output: string;
  readonly native: string;
}

export interface ScaffoldError {
  readonly name: string;
  readonly reason: string;
  readonly jsonRpcCode: number;
  readonly grpcStatus: string;
  readonly httpStatus: number;
  readonly native: string;
}

export interface ScaffoldServiceParameter {
  readonly name: string;
  readonly description: string;
  readonly native: string;
}

/** What the user chose on the command line. */
export interface ScaffoldChoice {
  readonly name: string;
  readonly uri: string;
  readonly gen: string;
  readonly ext: string;
}

const TODO = "TODO";

/** Checks the short name and the URI; returns the problem, or undefined. */
export function checkChoice(choice: Pick<ScaffoldChoice, "name" | "uri">): string | undefined {
  if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(choice.name))
    return `--name must be kebab-case letters and digits ("ws", "long-poll"); got "${choice.name}"`;
  let url: URL;
  try {
    url = new URL(choice.uri);
  } catch {
    return `--uri must be an absolute URI naming the binding (spec §5.8), e.g. https://example.com/a2a/bindings/${choice.name}/v1; got "${choice.uri}"`;
  }
  if (["JSONRPC", "GRPC", "HTTP+JSON"].includes(choice.uri) || url.protocol === "")
    return `--uri "${choice.uri}" is a standard binding's name`;
  return undefined;
}

/** The view of one service's scaffold. */
export function scaffoldView(
  model: FileModel,
  service: ServiceModel,
  choice: ScaffoldChoice,
): ScaffoldView {
  const words = choice.name.split("-");
  const Name = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join("");
  return {
    version,
    name: choice.name,
    Name,
    camel: Name[0]!.toLowerCase() + Name.slice(1),
    constName: words.map((w) => w.toUpperCase()).join("_"),
    uri: choice.uri,
    service: service.desc.name,
    serviceType: service.typeName,
    protoFile: model.fileName,
    gen: choice.gen,
    base: model.fileName.replace(/\.proto$/, ""),
    ext: choice.ext,
    errorProfile: model.options.errorProfile,
    operations: service.operations.map((op) => ({
      name: op.name,
      kind: op.kind === "server_streaming" ? "server streaming" : "unary",
      input: op.input.typeName,
      output: op.output.typeName,
      native: TODO,
    })),
    errors: model.errors.map((e) => ({
      name: e.name,
      reason: e.reason,
      jsonRpcCode: e.jsonRpcCode,
      grpcStatus: e.grpcStatus,
      httpStatus: e.httpStatus,
      native: TODO,
    })),
    serviceParameters: model.serviceParameters.map((p) => ({
      name: p.name,
      description: p.description.replace(/\|/g, "\\|"),
      native: TODO,
    })),
    streamingOperations:
      service.operations
        .filter((op) => op.kind === "server_streaming")
        .map((op) => op.name)
        .join(", ") || "none",
  };
}
