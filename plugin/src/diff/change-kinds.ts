// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The change kinds `protoc-gen-a2a diff` reports, as one table: each kind's id (the `kind` of the
 * JSON output, a public contract: never rename one), its group (the text output's section), when
 * it breaks servers and clients, and what it means. compare.ts emits only kinds of this table
 * ({@link ChangeKind} is its keys) and takes the breaking verdict from it ({@link breakingOf}); the
 * table of docs/updating-the-proto.md is {@link changeKindsTable} (test/plugin/diff/change-kinds.test.ts
 * fails when it is stale).
 */

/** The text output's sections, in order; every change kind belongs to one. */
export const GROUPS = [
  "bindings",
  "services",
  "operations",
  "routes",
  "messages",
  "fields",
  "enums",
  "errors",
  "service parameters",
] as const;
export type ChangeGroup = (typeof GROUPS)[number];

/** What a change breaks: code on the agent's side (handlers, the task runtime), code calling the agent. */
export interface Breaking {
  readonly servers: boolean;
  readonly clients: boolean;
}

/**
 * A fact of one change that a breaking rule can depend on, with its wording in the docs
 * (`withdrawn` is worded by each kind that uses it).
 */
export const FACTS = {
  /** The message is used in requests (before or after the change). */
  request: "in requests",
  /** The message is used in responses (before or after the change). */
  response: "in responses",
  /** The field is REQUIRED. */
  required: "REQUIRED",
  /** The accepted range is narrower at one end at least. */
  narrowed: "narrowed",
  /** The accepted range is wider at one end at least. */
  widened: "widened",
  /** Something peers relied on is taken away rather than added (each kind says what: {@link ChangeKindSpec.withdrawn}). */
  withdrawn: "withdrawn",
} as const;
export type ChangeFact = keyof typeof FACTS;

/** When a change breaks one side: never (false), always (true), or when every listed fact of the change holds. */
export type BreakingRule = boolean | readonly ChangeFact[];

export interface ChangeKindSpec {
  readonly group: ChangeGroup;
  readonly servers: BreakingRule;
  readonly clients: BreakingRule;
  /** For a kind whose rules name `withdrawn`: what is taken away, as the docs say it ("if …"). */
  readonly withdrawn?: string;
  /** One line for the docs: what changed, and why it breaks what it breaks. */
  readonly description: string;
}

/** Every change kind, by group in {@link GROUPS} order. */
export const CHANGE_KINDS = {
  "binding-added": {
    group: "bindings",
    servers: false,
    clients: false,
    description: "a binding is generated now (`bindings=`); the others are unchanged",
  },
  "binding-removed": {
    group: "bindings",
    servers: true,
    clients: true,
    description: "a binding is no longer generated: agents serving it and clients calling it break",
  },

  "service-added": {
    group: "services",
    servers: false,
    clients: false,
    description: "a service is added: nothing serves or calls it yet",
  },
  "service-removed": {
    group: "services",
    servers: false,
    clients: true,
    description:
      "a service is removed: calls of its operations get MethodNotFound / 404 / UNIMPLEMENTED",
  },
  "task-runtime-changed": {
    group: "services",
    servers: ["withdrawn"],
    clients: ["withdrawn"],
    withdrawn: "it stops applying",
    description:
      "the task runtime applies to the service now, or no longer (or refuses the proto: generation stops): the task handler, the agent client and the equivalence kit come or go",
  },

  "operation-added": {
    group: "operations",
    servers: true,
    clients: false,
    description:
      "an operation is added: plain handler implementations gain a method (a type error until implemented); the task runtime answers UnsupportedOperationError until `operations` implements it",
  },
  "operation-removed": {
    group: "operations",
    servers: false,
    clients: true,
    description: "an operation is removed: its calls get MethodNotFound / 404 / UNIMPLEMENTED",
  },
  "operation-renamed": {
    group: "operations",
    servers: true,
    clients: true,
    description:
      "an operation is renamed (same kind and types, same routes or position): new JSON-RPC method and gRPC path, another handler method",
  },
  "operation-kind-changed": {
    group: "operations",
    servers: true,
    clients: true,
    description: "unary ↔ server streaming: the handler returns, and clients read, another shape",
  },
  "operation-request-changed": {
    group: "operations",
    servers: true,
    clients: true,
    description: "the request message is another type",
  },
  "operation-response-changed": {
    group: "operations",
    servers: true,
    clients: true,
    description: "the response message is another type",
  },
  "operation-task-runtime-changed": {
    group: "operations",
    servers: ["withdrawn"],
    clients: ["withdrawn"],
    withdrawn: "it stops implementing it",
    description:
      "the task runtime implements the operation now, or no longer (it answers UnsupportedOperationError then)",
  },
  "operation-deprecated": {
    group: "operations",
    servers: false,
    clients: false,
    description: "the operation is deprecated, or no longer: a mark for readers",
  },

  "route-jsonrpc-changed": {
    group: "routes",
    servers: false,
    clients: ["withdrawn"],
    withdrawn: "the old method is no longer taken",
    description:
      "the JSON-RPC method changed; the generated server follows (and still takes the RPC name when it was only qualified as `<Service>.<Rpc>`)",
  },
  "route-grpc-changed": {
    group: "routes",
    servers: false,
    clients: true,
    description:
      "the gRPC path changed: old clients get UNIMPLEMENTED; the generated server follows",
  },
  "route-http-added": {
    group: "routes",
    servers: false,
    clients: false,
    description: "an HTTP route is added: existing routes are unchanged",
  },
  "route-http-removed": {
    group: "routes",
    servers: false,
    clients: true,
    description: "an HTTP route is removed: clients built on it get 404 or 405",
  },
  "route-http-changed": {
    group: "routes",
    servers: false,
    clients: true,
    description:
      "an HTTP route changed (method, template or body; paired by origin and position): clients built on the old one get 404 or 405",
  },

  "message-added": {
    group: "messages",
    servers: false,
    clients: false,
    description: "a message is used now: reported through the fields and operations involved",
  },
  "message-removed": {
    group: "messages",
    servers: false,
    clients: false,
    description:
      "a message is no longer used by any operation: reported through the fields and operations involved",
  },
  "types-moved": {
    group: "messages",
    servers: false,
    clients: false,
    description: "messages or enums moved to another file: TypeScript imports change, nothing else",
  },

  "field-added": {
    group: "fields",
    servers: ["required", "response"],
    clients: ["required", "request"],
    description: "a field is added: optional ones are left out or ignored by old peers (§5.7)",
  },
  "field-removed": {
    group: "fields",
    servers: true,
    clients: true,
    description:
      "a field is removed: code using it no longer compiles and its value no longer travels",
  },
  "field-renamed": {
    group: "fields",
    servers: true,
    clients: true,
    description: "a field is renamed (same number): ProtoJSON goes by JSON name, code by name",
  },
  "field-number-changed": {
    group: "fields",
    servers: true,
    clients: true,
    description: "a field is renumbered (same name): gRPC goes by number",
  },
  "field-json-name-changed": {
    group: "fields",
    servers: true,
    clients: true,
    description: "a field's JSON name changed: JSON-RPC and HTTP+JSON go by JSON name",
  },
  "field-type-changed": {
    group: "fields",
    servers: true,
    clients: true,
    description: "a field's type or cardinality changed (other than singular ↔ proto3 `optional`)",
  },
  "field-presence-changed": {
    group: "fields",
    servers: false,
    clients: false,
    description: "singular ↔ proto3 `optional`: the same wire form",
  },
  "field-oneof-changed": {
    group: "fields",
    servers: true,
    clients: true,
    description: "a field moved into, out of or between oneofs: the TypeScript shape changes",
  },
  "field-required-added": {
    group: "fields",
    servers: ["response"],
    clients: ["request"],
    description:
      "a field became REQUIRED: old clients leaving it out get InvalidParamsError; handlers must set it",
  },
  "field-required-removed": {
    group: "fields",
    servers: ["request"],
    clients: ["response"],
    description: "a field is no longer REQUIRED: it may be missing from what the other side sends",
  },
  "field-required-changed": {
    group: "fields",
    servers: ["response"],
    clients: ["request"],
    description: "a field's REQUIRED check changed: validation checks it another way",
  },
  "field-behavior-changed": {
    group: "fields",
    servers: false,
    clients: false,
    description:
      "`google.api.field_behavior` values other than REQUIRED changed: documentation only",
  },
  "field-range-changed": {
    group: "fields",
    servers: ["request", "widened"],
    clients: ["request", "narrowed"],
    description: "a field's accepted range (from the spec) changed: values outside it are refused",
  },
  "field-deprecated": {
    group: "fields",
    servers: false,
    clients: false,
    description: "the field is deprecated, or no longer: a mark for readers",
  },
  "oneof-rule-added": {
    group: "fields",
    servers: ["response"],
    clients: ["request"],
    description:
      "a oneof now requires exactly one member: senders of none are refused; handlers must set one",
  },
  "oneof-rule-removed": {
    group: "fields",
    servers: ["request"],
    clients: ["response"],
    description: "a oneof no longer requires a member: readers may see none set",
  },

  "enum-added": {
    group: "enums",
    servers: false,
    clients: false,
    description: "an enum is used now: reported through the fields involved",
  },
  "enum-removed": {
    group: "enums",
    servers: false,
    clients: false,
    description: "an enum is no longer used by any operation: reported through the fields involved",
  },
  "enum-value-added": {
    group: "enums",
    servers: false,
    clients: false,
    description: "an enum value is added: lenient readers (ours included) ignore unknown values",
  },
  "enum-value-removed": {
    group: "enums",
    servers: true,
    clients: true,
    description:
      "an enum value is removed: old peers still send or expect it; code using it no longer compiles",
  },
  "enum-value-renamed": {
    group: "enums",
    servers: true,
    clients: true,
    description: "an enum value is renamed (same number): ProtoJSON sends names, gRPC numbers",
  },
  "enum-value-number-changed": {
    group: "enums",
    servers: true,
    clients: true,
    description: "an enum value is renumbered (same name): gRPC sends numbers",
  },

  "error-profile-changed": {
    group: "errors",
    servers: false,
    clients: false,
    description:
      "the error table's profile (`errors=`) changed: the entries that differ are listed one by one",
  },
  "error-added": {
    group: "errors",
    servers: false,
    clients: false,
    description: "an error is added: old clients see it as an unknown A2A error",
  },
  "error-removed": {
    group: "errors",
    servers: true,
    clients: true,
    description: "an error is removed: code throwing or catching it no longer compiles",
  },
  "error-jsonrpc-code-changed": {
    group: "errors",
    servers: false,
    clients: true,
    description: "an error's JSON-RPC code changed; the generated mappers follow",
  },
  "error-http-status-changed": {
    group: "errors",
    servers: false,
    clients: true,
    description: "an error's HTTP status changed; the generated mappers follow",
  },
  "error-grpc-status-changed": {
    group: "errors",
    servers: false,
    clients: true,
    description: "an error's gRPC status changed; the generated mappers follow",
  },
  "error-reason-changed": {
    group: "errors",
    servers: false,
    clients: true,
    description: "an error's `ErrorInfo` reason changed; the generated mappers follow",
  },

  "service-parameter-added": {
    group: "service parameters",
    servers: false,
    clients: false,
    description: "a service parameter is added: requests without it are read as before",
  },
  "service-parameter-removed": {
    group: "service parameters",
    servers: true,
    clients: true,
    description:
      "a service parameter is removed: handlers no longer receive it; clients sending it are not understood",
  },
  "service-parameter-changed": {
    group: "service parameters",
    servers: false,
    clients: ["withdrawn"],
    withdrawn: "the old key or the query string is no longer read",
    description:
      "a service parameter's gRPC metadata key changed, or whether it is also read from the query string",
  },
} as const satisfies Record<string, ChangeKindSpec>;

/** A change kind: only the ids of {@link CHANGE_KINDS} can be emitted. */
export type ChangeKind = keyof typeof CHANGE_KINDS;

/** The facts a kind's rules depend on (never for a kind that always or never breaks a side). */
type FactsOfKind<K extends ChangeKind> = Extract<
  (typeof CHANGE_KINDS)[K]["servers"] | (typeof CHANGE_KINDS)[K]["clients"],
  readonly ChangeFact[]
>[number];

/** The facts of one change of kind `K`, as its rules need them. */
export type ChangeFacts<K extends ChangeKind> = { readonly [F in FactsOfKind<K>]: boolean };

/** The facts argument of a change of kind `K`: none for a kind whose verdict is fixed, else every fact its rules name. */
export type ChangeFactsArg<K extends ChangeKind> = [FactsOfKind<K>] extends [never]
  ? []
  : [facts: ChangeFacts<K>];

const specOf = (kind: ChangeKind): ChangeKindSpec => CHANGE_KINDS[kind];

const holds = (rule: BreakingRule, facts: Partial<Record<ChangeFact, boolean>>): boolean =>
  typeof rule === "boolean" ? rule : rule.every((f) => facts[f] === true);

/** The verdict of a change: its kind's rules applied to the change's facts. */
export function breakingOf<K extends ChangeKind>(kind: K, ...facts: ChangeFactsArg<K>): Breaking {
  const spec = specOf(kind);
  const known: Partial<Record<ChangeFact, boolean>> = facts[0] ?? {};
  return { servers: holds(spec.servers, known), clients: holds(spec.clients, known) };
}

/** The group (text output section) of a kind. */
export const changeGroup = (kind: ChangeKind): ChangeGroup => specOf(kind).group;

/** The change kinds, in table order. */
export const changeKinds = (): ChangeKind[] => Object.keys(CHANGE_KINDS) as ChangeKind[];

function ruleText(rule: BreakingRule, spec: ChangeKindSpec): string {
  if (typeof rule === "boolean") return rule ? "yes" : "no";
  return `if ${rule.map((f) => (f === "withdrawn" ? (spec.withdrawn ?? FACTS.withdrawn) : FACTS[f])).join(" and ")}`;
}

/** The table of docs/updating-the-proto.md: one row per kind, under a row per group. */
export function changeKindsTable(): string {
  const rows = GROUPS.flatMap((group) => {
    const kinds = changeKinds().filter((k) => changeGroup(k) === group);
    const title = `${group.charAt(0).toUpperCase()}${group.slice(1)}`;
    return [
      `| **${title}** | | | |`,
      ...kinds.map((kind) => {
        const spec = specOf(kind);
        return `| \`${kind}\` | ${ruleText(spec.servers, spec)} | ${ruleText(spec.clients, spec)} | ${spec.description} |`;
      }),
    ];
  });
  return [
    "| kind | breaks servers | breaks clients | what changed |",
    "| --- | --- | --- | --- |",
    ...rows,
  ].join("\n");
}
