// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import type { GeneratedFile, Printable, Schema } from "@bufbuild/protoplugin";
import type { Binding, PluginOptions } from "../../options.js";
import type { DescFile } from "@bufbuild/protobuf";
import type { FileModel } from "../../model/service-model.js";
import { outputModule, type outputSuffix } from "../file-names.js";
import { runtimeImport } from "../runtime-package.js";
import { serviceSymbols } from "./handler-interface.js";
import { generateTsFile } from "../preamble.js";
import { hasRestBinding } from "../rest/route-table.js";

/** Per emitted binding: its `protocolBinding` name (§5), client class suffix and output file. */
const bindingClients: readonly {
  binding: Binding;
  name: string;
  flavor: string;
  file: keyof typeof outputSuffix;
}[] = [
  { binding: "jsonrpc", name: "JSONRPC", flavor: "JsonRpc", file: "jsonRpcClient" },
  { binding: "rest", name: "HTTP+JSON", flavor: "Rest", file: "restClient" },
  { binding: "grpc", name: "GRPC", flavor: "Grpc", file: "grpcClient" },
];

/**
 * Emits `<file>_a2a_agent_client.ts` for A2A-shaped services (the condition of the task
 * handler file): per service, `connect<Service>(cardUrl | card, options)`, which fetches the
 * Agent Card, selects an interface among the emitted bindings and returns the generated client
 * of that binding behind the capability gates. The logic is the runtime's (agent-client.ts);
 * this file holds what is proto-specific: the AgentCard schema, the operation table, the
 * client classes and the capability table.
 */
export function emitAgentClientFile(
  schema: Schema<PluginOptions>,
  model: FileModel,
  v03?: DescFile,
): void {
  const services = model.services.filter((s) => s.taskRuntime !== undefined);
  if (services.length === 0) return;
  const f = generateTsFile(schema, model, "agentClient");
  const runtime = runtimeImport("client");
  const connectAgent = f.import("connectAgent", runtime);
  const AgentConnection = f.import("AgentConnection", runtime, true);
  const AgentClientSpec = f.import("AgentClientSpec", runtime, true);
  const AgentConnectOptions = f.import("AgentConnectOptions", runtime, true);
  const CapabilityGate = f.import("CapabilityGate", runtime, true);
  const emitted = bindingClients.filter((c) => schema.options.bindings.has(c.binding));
  f.print(
    f.jsDoc(
      "Thrown by the `connect…` functions: the card could not be fetched or read, or no interface fits (`reason`).",
    ),
  );
  f.print("export { ", f.import("AgentConnectError", runtime), " };");
  f.print();
  for (const service of services) {
    const runtimeModel = service.taskRuntime!;
    // A service without google.api.http rules has no REST client.
    const clients = emitted.filter((c) => c.binding !== "rest" || hasRestBinding(service));
    const base = service.desc.name;
    const names = serviceSymbols(service);
    const card = runtimeModel.messages.get("AgentCard")!;
    const cardSchema = f.importSchema(card);
    const cardType = f.importShape(card);
    const clientInterface = f.import(names.client, outputModule(model.file, "handler"), true);
    const operations = f.import(names.operations, outputModule(model.file, "handler"));
    const bindingType = `${base}Binding`;
    const gatesConst = `${base}CapabilityGates`;
    const optionsType = `Connect${base}Options`;
    const connectionType = `${base}Connection`;
    const specConst = `agentClientOf${base}`;

    f.print(
      f.jsDoc(
        `The protocol bindings \`connect${base}\` can use: those emitted in this output, in default preference order.`,
      ),
    );
    f.print(
      f.export("type", bindingType),
      " = ",
      clients.map((c) => JSON.stringify(c.name)).join(" | ") || "never",
      ";",
    );
    f.print();

    f.print(
      f.jsDoc(
        [
          `The optional operations of ${service.typeName} (spec §3.3.4): the \`AgentCapabilities\` field each`,
          `needs, and the error a \`connect${base}\` client refuses it with, locally and without a request,`,
          "when the Agent Card does not declare that field `true`.",
        ].join("\n"),
      ),
    );
    f.print(f.export("const", gatesConst), " = {");
    for (const gate of runtimeModel.capabilityGates) {
      const error = f.import(gate.errorClass, outputModule(model.file, "errors"));
      f.print(
        f.jsDoc(`${gate.operation.name} needs \`capabilities.${gate.capability.jsonName}\`.`, "  "),
      );
      f.print(
        "  ",
        gate.operation.localName,
        ": { capability: ",
        JSON.stringify(gate.capability.localName),
        ", error: ",
        error,
        " },",
      );
    }
    f.print("} as const satisfies Readonly<Record<string, ", CapabilityGate, ">>;");
    f.print();

    f.print(
      f.jsDoc(
        `Options of \`connect${base}\`: fetching the card, choosing the interface, capability gating, and the client's options.`,
      ),
    );
    f.print(
      f.export("interface", optionsType),
      " extends ",
      AgentConnectOptions,
      "<",
      bindingType,
      ", ",
      clientInterface,
      "> {",
    );
    const grpc = clients.find((c) => c.binding === "grpc");
    if (grpc !== undefined) {
      const GrpcClientOptions = f.import("GrpcClientOptions", runtimeImport("grpc"), true);
      f.print(
        f.jsDoc(
          `gRPC only: TLS (default: as the interface URL says, else TLS on port 443), a Connect transport or its options.`,
          "  ",
        ),
      );
      f.print(
        "  readonly grpc?: Pick<",
        GrpcClientOptions,
        ', "tls" | "transport" | "transportOptions">;',
      );
    }
    f.print("}");
    f.print();

    f.print(
      f.jsDoc(
        `A connection to an agent of ${service.typeName}: its card (the extended card once fetched), the selected interface and the gated client.`,
      ),
    );
    f.print(
      f.export("type", connectionType),
      " = ",
      AgentConnection,
      "<",
      cardType,
      ", ",
      clientInterface,
      ", ",
      bindingType,
      ">;",
    );
    f.print();

    f.print(
      f.jsDoc(
        `What the runtime's \`connectAgent\` needs of ${service.typeName}: card schema, operations, capability gates, one client factory per binding.`,
      ),
    );
    f.print(
      "const ",
      specConst,
      ": ",
      AgentClientSpec,
      "<",
      cardType,
      ", ",
      clientInterface,
      ", ",
      bindingType,
      ", ",
      optionsType,
      "> = {",
    );
    f.print("  cardSchema: ", cardSchema, ",");
    f.print("  operations: ", operations, ",");
    f.print("  gates: ", gatesConst, ",");
    f.print(
      "  extendedCardOperation: ",
      JSON.stringify(runtimeModel.extendedCardOperation.localName),
      ",",
    );
    f.print("  bindings: {");
    for (const c of clients) {
      const Client = f.import(`${base}${c.flavor}Client`, outputModule(model.file, c.file));
      const key = /^[A-Z_]+$/.test(c.name) ? c.name : JSON.stringify(c.name);
      if (c.binding === "grpc") {
        f.print(
          "    ",
          key,
          ": (target, client, options) => new ",
          Client,
          "({ ...client, ...options.grpc, address: target.address, tls: options.grpc?.tls ?? target.tls }),",
        );
      } else {
        f.print(
          "    ",
          key,
          ": (target, client) => new ",
          Client,
          "({ ...client, url: target.address }),",
        );
      }
    }
    f.print("  },");
    if (v03 !== undefined)
      printV03Bindings(f, model, v03, clients, base, clientInterface, operations);
    f.print("};");
    f.print();

    f.print(
      f.jsDoc(
        [
          `Connects to an agent of ${service.typeName} from its Agent Card (spec §8): \`source\` is the card URL`,
          "(an origin alone means `/.well-known/agent-card.json`) or a card at hand. The card is fetched",
          "(GET, `Accept: application/json`, `cardTimeoutMs`/`signal`/`fetch`) and decoded ignoring unknown",
          "fields; the interface is the first `supportedInterfaces` entry (§8.3.2) whose binding is in",
          `\`options.bindings\` (default ${clients.map((c) => c.name).join(", ")}) or, for a custom binding (§12), whose URI`,
          `is a key of \`options.transports\` (its client factory), and whose protocolVersion is 1.x${v03 === undefined ? "" : " (or 0.3, for an agent that offers\nonly 0.3, or when `options.protocolVersions` allows it: spec §3.6, a client never downgrades by itself)"}; entries of`,
          "other bindings are skipped. The client of that binding gets the caller's options (headers, extensions,",
          "timeouts) and the interface's tenant. Operations the card's capabilities do not declare are refused locally",
          `(see \`${gatesConst}\`; \`checkCapabilities: false\` turns that off), and a successful`,
          "GetExtendedAgentCard replaces `connection.card`.",
          "",
          "Throws `AgentConnectError` (reason card-fetch-failed, card-http-status, card-malformed or",
          "no-matching-interface); an abort of `options.signal` rejects with its reason.",
          "",
          `@generated from service ${service.typeName}`,
        ].join("\n"),
      ),
    );
    f.print(
      f.export("function", `connect${base}`),
      "(source: string | URL | ",
      cardType,
      ", options?: ",
      optionsType,
      "): Promise<",
      connectionType,
      "> {",
    );
    f.print("  return ", connectAgent, "(", specConst, ", source, options);");
    f.print("}");
    f.print();
  }
}

/**
 * The A2A 0.3 clients of a connection (`v03Bindings`): with the 0.3 proto in the same run, an interface at
 * protocolVersion 0.3 is served by the 0.3 JSON-RPC wire (the runtime's) or the 0.3 proto's generated REST and
 * gRPC clients, each behind the 1.0 client interface (translated by `@protoc-gen-a2a/runtime/v0_3/client`).
 */
function printV03Bindings(
  f: GeneratedFile,
  model: FileModel,
  v03: DescFile,
  clients: readonly {
    binding: Binding;
    name: string;
    flavor: string;
    file: keyof typeof outputSuffix;
  }[],
  base: string,
  clientInterface: Printable,
  operations: Printable,
): void {
  const v03Client = runtimeImport("v0_3/client");
  const errorRegistry = f.import("errorRegistry", outputModule(model.file, "errors"));
  f.print("  v03Bindings: {");
  for (const c of clients) {
    const key = /^[A-Z_]+$/.test(c.name) ? c.name : JSON.stringify(c.name);
    if (c.binding === "jsonrpc") {
      const create = f.import("createV03JsonRpcClient", v03Client);
      f.print(
        "    ",
        key,
        ": (target, client) => ",
        create,
        "<",
        clientInterface,
        ">({ ...client, url: target.address, operations: ",
        operations,
        ", errors: ",
        errorRegistry,
        " }),",
      );
      continue;
    }
    const create = f.import("createV03ProtoClient", v03Client);
    const options = f.import("v03ProtoClientOptions", v03Client);
    const Client = f.import(`${base}${c.flavor}Client`, outputModule(v03, c.file));
    const v03Operations = f.import(`${base}Operations`, outputModule(v03, "handler"));
    const inner =
      c.binding === "grpc"
        ? [
            "new ",
            Client,
            "(",
            options,
            "({ ...client, ...options.grpc, address: target.address, tls: options.grpc?.tls ?? target.tls }))",
          ]
        : ["new ", Client, "(", options, "({ ...client, url: target.address }))"];
    f.print("    ", key, ": (target, client", c.binding === "grpc" ? ", options" : "", ") =>");
    f.print("      ", create, "<", clientInterface, ">(", ...inner, ", {");
    f.print("        operations: ", operations, ",");
    f.print("        v03Operations: ", v03Operations, ",");
    f.print("        errors: ", errorRegistry, ",");
    f.print("        extensions: client.extensions,");
    f.print("      }),");
  }
  f.print("  },");
}
