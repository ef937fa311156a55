// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import {
  ScalarType,
  type DescEnum,
  type DescField,
  type DescFile,
  type DescMessage,
  type DescService,
} from "@bufbuild/protobuf";
import type { OperationModel } from "./operation-model.js";
import { A2A_OPERATIONS } from "../../../runtime/src/protocol/a2a-operations.js";
import { generationError } from "../generation-error.js";
import { notice } from "../notices.js";
import { isA2AV03Service } from "./a2a-v0-3.js";
import {
  contractEnums,
  contractMessageNames,
  contractMessages,
  contractRpcs,
  schemaMessages,
  type ContractEnumName,
  type ContractField,
  type ContractMessage,
  type ContractMessageName,
} from "./task-runtime-contract.js";

/** The messages the task runtime creates (the keys of its `schemas` binding). */
export const taskRuntimeMessages = schemaMessages;

/** The RPCs a service needs for the task runtime to implement it: the eleven of A2A (one list, shared with the equivalence kit). */
const taskRuntimeRpcs = A2A_OPERATIONS;

/** One of the eleven A2A operations. */
type TaskRuntimeRpc = (typeof taskRuntimeRpcs)[number];

/**
 * The optional operations of spec §3.3.4: the `AgentCapabilities` field each needs, and the
 * error it is refused with when the Agent Card does not declare it true. The task runtime's
 * server-side checks (runtime/src/task/handler.ts) answer the same way; the
 * generated agent client refuses the same calls locally, before any request (ACTS CLIENT-CAP-001).
 */
export const capabilityRequirements = [
  {
    capability: "streaming",
    rpcs: ["SendStreamingMessage", "SubscribeToTask"],
    error: "UnsupportedOperationError",
  },
  {
    capability: "push_notifications",
    rpcs: [
      "CreateTaskPushNotificationConfig",
      "GetTaskPushNotificationConfig",
      "ListTaskPushNotificationConfigs",
      "DeleteTaskPushNotificationConfig",
    ],
    error: "PushNotificationNotSupportedError",
  },
  {
    capability: "extended_agent_card",
    rpcs: ["GetExtendedAgentCard"],
    error: "UnsupportedOperationError",
  },
] as const satisfies readonly {
  capability: string;
  rpcs: readonly TaskRuntimeRpc[];
  error: string;
}[];

/** The RPC that returns the extended Agent Card, which replaces the public one of a connection (§3.1.11). */
const extendedCardRpc: TaskRuntimeRpc = "GetExtendedAgentCard";

/** An operation refused unless the Agent Card declares a capability. */
export interface CapabilityGateModel {
  readonly operation: OperationModel;
  /** The boolean field of `AgentCapabilities`. */
  readonly capability: DescField;
  /** The generated error class it is refused with. */
  readonly errorClass: string;
}

/** An enum the runtime reads by key, and the generated TypeScript names of those keys' values. */
export interface TaskRuntimeEnum {
  readonly desc: DescEnum;
  /** Runtime key ("REJECTED") → generated enum member (the value's `localName`, usually the same). */
  readonly members: ReadonlyMap<string, string>;
}

/** What the task-runtime binder of a service refers to. */
export interface TaskRuntimeModel {
  readonly messages: ReadonlyMap<(typeof taskRuntimeMessages)[number], DescMessage>;
  readonly taskState: TaskRuntimeEnum;
  readonly role: TaskRuntimeEnum;
  /** The optional operations and the capability each needs, in proto order of the operations. */
  readonly capabilityGates: readonly CapabilityGateModel[];
  /** GetExtendedAgentCard. */
  readonly extendedCardOperation: OperationModel;
  /** The service's other RPCs, in proto order: answered UnsupportedOperationError unless the author implements them. */
  readonly extraOperations: readonly OperationModel[];
}

/**
 * The task runtime applies to an A2A-shaped service: one with all eleven A2A operations by name.
 * Such a service is checked against the runtime's contract (task-runtime-contract.ts), looking
 * the A2A messages and enums up by name in the service's package (its file and the files it
 * imports); any drift is a GenerationError naming the element, never a silent fallback. Its other
 * RPCs get a notice each (the task runtime answers them UnsupportedOperationError until the
 * author implements them). Any other service: undefined, no error (a notice when it looks like a
 * partial A2A service: SendMessage and some other A2A operations, not all).
 */
export function taskRuntimeModel(
  service: DescService,
  model: { readonly operations: readonly OperationModel[] },
): TaskRuntimeModel | undefined {
  const fileName = service.file.proto.name;
  const names = new Set(model.operations.map((o) => o.name));
  const missing = taskRuntimeRpcs.filter((rpc) => !names.has(rpc));
  if (missing.length > 0) {
    const present = taskRuntimeRpcs.length - missing.length;
    if (names.has("SendMessage") && present > 1 && !isA2AV03Service(service)) {
      notice(
        { file: fileName },
        `service ${service.typeName}: not A2A-shaped (no ${missing.join(", ")}): no task handler, agent client or equivalence kit is generated for it (they need all eleven A2A operations)`,
      );
    }
    return undefined;
  }
  const checker = new ContractChecker(service);
  const operation = (rpc: TaskRuntimeRpc) => model.operations.find((o) => o.name === rpc)!;
  for (const rpc of taskRuntimeRpcs) checker.checkRpc(operation(rpc));
  for (const name of contractMessageNames)
    checker.checkMessage(checker.message(name), contractMessages[name]);
  const taskState = checker.checkEnum("TaskState");
  const role = checker.checkEnum("Role");

  const messages = new Map<(typeof taskRuntimeMessages)[number], DescMessage>();
  for (const name of taskRuntimeMessages) messages.set(name, checker.message(name));
  const capabilities = checker.message("AgentCapabilities");
  const capabilityGates: CapabilityGateModel[] = [];
  for (const op of model.operations) {
    const requirement = capabilityRequirements.find((r) =>
      (r.rpcs as readonly string[]).includes(op.name),
    );
    if (requirement === undefined) continue;
    // Checked by the contract: a bool field.
    const capability = capabilities.fields.find((f) => f.name === requirement.capability)!;
    capabilityGates.push({ operation: op, capability, errorClass: requirement.error });
  }
  const extraOperations = model.operations.filter(
    (o) => !(taskRuntimeRpcs as readonly string[]).includes(o.name),
  );
  for (const op of extraOperations) {
    notice(
      { file: fileName, rpc: `${service.typeName}.${op.name}` },
      `not one of the eleven A2A operations: the task runtime answers it UnsupportedOperationError until create${service.name}TaskHandler({ operations: { ${op.localName} } }) implements it`,
    );
  }
  return {
    messages,
    taskState,
    role,
    capabilityGates,
    extendedCardOperation: operation(extendedCardRpc),
    extraOperations,
  };
}

const contractEnumNames = new Set<string>(Object.keys(contractEnums));

/** The 32-bit integer types (all `number` in TypeScript), for the contract's `int32`. */
const int32Types = new Set([
  ScalarType.INT32,
  ScalarType.SINT32,
  ScalarType.SFIXED32,
  ScalarType.UINT32,
  ScalarType.FIXED32,
]);

/** Checks one service against the contract; every method throws the first problem as a GenerationError. */
class ContractChecker {
  readonly #service: DescService;
  readonly #package: string;
  /** Top-level messages and enums of the package, in the service's file and the files it imports (transitively). */
  readonly #declared = new Map<string, DescMessage | DescEnum>();

  constructor(service: DescService) {
    this.#service = service;
    this.#package = service.file.proto.package;
    const seen = new Set<DescFile>();
    const visit = (file: DescFile) => {
      if (seen.has(file)) return;
      seen.add(file);
      if (file.proto.package === this.#package) {
        for (const desc of [...file.messages, ...file.enums])
          if (!this.#declared.has(desc.name)) this.#declared.set(desc.name, desc);
      }
      for (const dependency of file.dependencies) visit(dependency);
    };
    visit(service.file);
  }

  #qualified(name: string): string {
    return this.#package === "" ? name : `${this.#package}.${name}`;
  }

  /** The contract message of that name in the package. */
  message(name: ContractMessageName): DescMessage {
    const desc = this.#declared.get(name);
    if (desc?.kind !== "message") {
      const found = desc === undefined ? "" : `, found an enum of that name`;
      throw generationError(
        { file: this.#service.file.proto.name },
        `message ${this.#qualified(name)}: the task runtime needs this message (renamed or removed?)${found}`,
      );
    }
    return desc;
  }

  #enum(name: ContractEnumName): DescEnum {
    const desc = this.#declared.get(name);
    if (desc?.kind !== "enum") {
      const found = desc === undefined ? "" : `, found a message of that name`;
      throw generationError(
        { file: this.#service.file.proto.name },
        `enum ${this.#qualified(name)}: the task runtime needs this enum (renamed or removed?)${found}`,
      );
    }
    return desc;
  }

  checkRpc(op: OperationModel): void {
    const contract = contractRpcs[op.name as TaskRuntimeRpc];
    const where = {
      file: this.#service.file.proto.name,
      rpc: `${this.#service.typeName}.${op.name}`,
    };
    if (op.kind !== contract.kind) {
      throw generationError(
        where,
        `the task runtime implements it as a ${kindName(contract.kind)} RPC, found ${kindName(op.kind)}`,
      );
    }
    const output =
      contract.output === "google.protobuf.Empty" ? undefined : this.message(contract.output);
    const outputName = output?.typeName ?? contract.output;
    if (op.output.typeName !== outputName || (output !== undefined && op.output !== output)) {
      throw generationError(
        where,
        `the task runtime needs it to return ${outputName}, found ${op.output.typeName}`,
      );
    }
    if ("exactInput" in contract) {
      const input = this.message(contract.input as ContractMessageName);
      if (op.input !== input)
        throw generationError(
          where,
          `the task runtime needs its request to be ${input.typeName} (it stores the request as one), found ${op.input.typeName}`,
        );
      return; // Checked as a contract message.
    }
    this.checkMessage(op.input, contractMessages[contract.input]);
  }

  checkMessage(desc: DescMessage, contract: ContractMessage): void {
    const where = { file: desc.file.proto.name };
    const problem = (text: string) =>
      generationError(where, `message ${desc.typeName}: the task runtime needs ${text}`);
    for (const want of contract.fields) {
      const field = desc.fields.find((x) => x.name === want.name);
      if (field === undefined) {
        if (want.ifPresent === true) continue;
        throw problem(`field ${this.#display(want)} (renamed or removed?)`);
      }
      if (field.oneof !== undefined)
        throw problem(
          `field ${this.#display(want)} outside any oneof, found it in oneof ${field.oneof.name}`,
        );
      const mismatch = this.#mismatch(field, want);
      if (mismatch !== undefined) throw problem(`field ${this.#display(want)}, found ${mismatch}`);
    }
    for (const want of contract.oneofs ?? []) {
      const oneof = desc.oneofs.find((o) => o.name === want.name);
      const members = want.members.map((m) => `${this.#display(m)};`).join(" ");
      if (oneof === undefined)
        throw problem(`oneof ${want.name} { ${members} } (renamed or removed?)`);
      for (const member of want.members) {
        const field = oneof.fields.find((x) => x.name === member.name);
        if (field === undefined)
          throw problem(
            `field ${this.#display(member)} in oneof ${want.name} (renamed or removed?)`,
          );
        const mismatch = this.#mismatch(field, member);
        if (mismatch !== undefined)
          throw problem(`field ${this.#display(member)} in oneof ${want.name}, found ${mismatch}`);
      }
      if (want.closed) {
        const extra = oneof.fields.find((x) => !want.members.some((m) => m.name === x.name));
        if (extra !== undefined)
          throw problem(
            `oneof ${want.name} to have exactly the members ${want.members.map((m) => m.name).join(", ")} (it handles no other), found also ${this.#actual(extra)}`,
          );
      }
    }
  }

  checkEnum(name: ContractEnumName): TaskRuntimeEnum {
    const desc = this.#enum(name);
    const members = new Map<string, string>();
    for (const want of contractEnums[name]) {
      const value = desc.values.find((v) => v.name === want.name);
      if (value === undefined)
        throw generationError(
          { file: desc.file.proto.name },
          `enum ${desc.typeName}: the task runtime needs value ${want.name} = ${want.number} (renamed or removed?)`,
        );
      members.set(want.key, value.localName);
    }
    return { desc, members };
  }

  /** How the field differs from the contract's, as "int64 context_id = 2"; undefined when it fits. */
  #mismatch(field: DescField, want: ContractField): string | undefined {
    const repeated = want.label === "repeated";
    const fits = (() => {
      if (repeated !== (field.fieldKind === "list")) return false;
      if (field.fieldKind === "map") return false;
      const kind = field.fieldKind === "list" ? field.listKind : field.fieldKind;
      const type = want.type;
      if (type === "string" || type === "bool" || type === "int32") {
        if (kind !== "scalar") return false;
        const scalar = field.scalar!;
        if (
          type === "string"
            ? scalar !== ScalarType.STRING
            : type === "bool"
              ? scalar !== ScalarType.BOOL
              : !int32Types.has(scalar)
        )
          return false;
      } else if (contractEnumNames.has(type)) {
        if (kind !== "enum" || field.enum !== this.#enum(type as ContractEnumName)) return false;
      } else if (type.startsWith("google.protobuf.")) {
        if (kind !== "message" || field.message?.typeName !== type) return false;
      } else {
        if (kind !== "message" || field.message !== this.message(type as ContractMessageName))
          return false;
      }
      // A scalar or enum the runtime reads as a plain value must not be `optional` (protobuf-es: `x?: T`).
      if (
        want.label === undefined &&
        (kind === "scalar" || kind === "enum") &&
        field.proto.proto3Optional
      )
        return false;
      return true;
    })();
    return fits ? undefined : this.#actual(field);
  }

  /** A contract field as proto source: "repeated Part parts = 5". */
  #display(field: ContractField): string {
    return `${field.label === undefined ? "" : `${field.label} `}${field.type} ${field.name} = ${field.number}`;
  }

  /** A proto field as proto source: "optional int64 context_id = 2". */
  #actual(field: DescField): string {
    const typeOf = (desc: DescMessage | DescEnum) =>
      desc.typeName === this.#qualified(desc.name) ? desc.name : desc.typeName;
    const scalar = (s: ScalarType) => ScalarType[s].toLowerCase();
    let type: string;
    switch (field.fieldKind) {
      case "scalar":
        type = `${field.proto.proto3Optional ? "optional " : ""}${scalar(field.scalar)}`;
        break;
      case "enum":
        type = `${field.proto.proto3Optional ? "optional " : ""}${typeOf(field.enum)}`;
        break;
      case "message":
        type = typeOf(field.message);
        break;
      case "list":
        type = `repeated ${field.listKind === "scalar" ? scalar(field.scalar) : typeOf(field.listKind === "enum" ? field.enum : field.message)}`;
        break;
      case "map":
        type = `map<${scalar(field.mapKey)}, ${field.mapKind === "scalar" ? scalar(field.scalar) : typeOf(field.mapKind === "enum" ? field.enum : field.message)}>`;
        break;
    }
    return `${type} ${field.name} = ${field.number}`;
  }
}

function kindName(kind: "unary" | "server_streaming"): string {
  return kind === "unary" ? "unary" : "server-streaming";
}
