// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The binding-level comparison of two APIs (each one or more manifests, api-manifest.ts): what
 * changed for an agent author, each change marked breaking or not for servers (agent authors
 * implementing the handler interface or using the task runtime) and for clients (code
 * calling the agent), with the reason. The kinds, their groups and when each breaks which side are
 * one table, change-kinds.ts: a change names its kind and the facts its rules need, never a verdict.
 * Pure: manifests in, changes out, in a stable order
 * (groups in {@link GROUPS} order; within a group, services, operations and fields in proto
 * order of the new API then what was removed, types by full name).
 *
 * Pairing: services, messages, enums, errors and service parameters by name; operations by
 * name, then the rename heuristic ({@link pairRenamedOperations}); fields by number (same number,
 * other name = renamed; same name, other number = renumbered); enum values by name, then by
 * number (same number, other name = renamed); HTTP routes by method + template + body, the
 * rest by origin and position (a rule for a rule, the n-th additional binding for the n-th).
 */
import type {
  ApiManifest,
  ManifestEnum,
  ManifestError,
  ManifestField,
  ManifestHttpBinding,
  ManifestMessage,
  ManifestOperation,
  ManifestService,
  ManifestServiceParameter,
  TypeUsage,
} from "../manifest/api-manifest.js";
import {
  breakingOf,
  changeGroup,
  GROUPS,
  type Breaking,
  type ChangeFactsArg,
  type ChangeKind,
} from "./change-kinds.js";

export interface ApiChange {
  /** One of the table of change-kinds.ts, which also gives {@link breaking}. */
  readonly kind: ChangeKind;
  /** What changed: `lf.a2a.v1.A2AService.CancelTask`, `lf.a2a.v1.CancelTaskRequest.reason`, `errors.TaskNotFoundError`, … */
  readonly path: string;
  readonly description: string;
  readonly breaking: Breaking;
  readonly reason: string;
}

/** One side of a comparison: the manifests of the files with services, merged by name. */
export interface ApiView {
  readonly services: ReadonlyMap<string, ManifestService>;
  readonly messages: ReadonlyMap<string, ManifestMessage>;
  readonly enums: ReadonlyMap<string, ManifestEnum>;
  readonly errorProfile: string;
  readonly errors: readonly ManifestError[];
  readonly serviceParameters: readonly ManifestServiceParameter[];
  readonly bindings: readonly string[];
}

/** Merges the manifests of one API (a proto tree can have several files with services). */
export function apiView(manifests: readonly ApiManifest[]): ApiView {
  const services = new Map<string, ManifestService>();
  const messages = new Map<string, ManifestMessage>();
  const enums = new Map<string, ManifestEnum>();
  const first = manifests[0];
  for (const m of manifests) {
    for (const s of m.services) services.set(s.name, s);
    for (const t of m.messages) messages.set(t.name, mergeUsage(messages.get(t.name), t));
    for (const t of m.enums) enums.set(t.name, mergeUsage(enums.get(t.name), t));
  }
  return {
    services,
    messages,
    enums,
    errorProfile: first?.errors.profile ?? "",
    errors: first?.errors.entries ?? [],
    serviceParameters: first?.serviceParameters ?? [],
    bindings: first?.options.bindings ?? [],
  };
}

function mergeUsage<T extends { readonly usage: readonly TypeUsage[] }>(
  before: T | undefined,
  t: T,
): T {
  if (before === undefined) return t;
  const usage = (["request", "response"] as const).filter(
    (u) => before.usage.includes(u) || t.usage.includes(u),
  );
  return { ...t, usage };
}

/** The changes from `before` to `after`. */
export function compareApis(before: ApiView, after: ApiView): ApiChange[] {
  const changes: ApiChange[] = [];
  const add: Add = (kind, path, description, reason, ...facts) => {
    changes.push({ kind, path, description, breaking: breakingOf(kind, ...facts), reason });
  };
  compareBindings(before, after, add);
  compareServices(before, after, add);
  compareTypes(before, after, add);
  compareErrors(before, after, add);
  compareServiceParameters(before, after, add);
  // Stable grouping, keeping the order within each group.
  return GROUPS.flatMap((g) => changes.filter((c) => changeGroup(c.kind) === g));
}

/** Records a change; its verdict comes from the kind's rules (change-kinds.ts) and the facts they name. */
type Add = <K extends ChangeKind>(
  kind: K,
  path: string,
  description: string,
  reason: string,
  ...facts: ChangeFactsArg<K>
) => void;

function compareBindings(before: ApiView, after: ApiView, add: Add): void {
  for (const b of after.bindings) {
    if (!before.bindings.includes(b))
      add(
        "binding-added",
        `bindings.${b}`,
        `the ${bindingName(b)} binding is generated`,
        "a new binding: the others are unchanged",
      );
  }
  for (const b of before.bindings) {
    if (!after.bindings.includes(b))
      add(
        "binding-removed",
        `bindings.${b}`,
        `the ${bindingName(b)} binding is no longer generated`,
        `its server and client are no longer generated: agents serving it and clients calling it break`,
      );
  }
}

const bindingName = (b: string) =>
  ({ jsonrpc: "JSON-RPC", rest: "HTTP+JSON", grpc: "gRPC" })[b] ?? b;

// ---------------------------------------------------------------------------------------------
// Services, operations, routes

function compareServices(before: ApiView, after: ApiView, add: Add): void {
  for (const [name, s] of after.services) {
    const old = before.services.get(name);
    if (old === undefined) {
      add(
        "service-added",
        name,
        `service added, with ${s.operations.length} operation${s.operations.length === 1 ? "" : "s"}: ${s.operations.map((o) => o.name).join(", ")}`,
        "a new service: nothing serves or calls it yet",
      );
      continue;
    }
    compareService(old, s, add);
  }
  for (const [name, s] of before.services) {
    if (!after.services.has(name))
      add(
        "service-removed",
        name,
        `service removed, with its operations ${s.operations.map((o) => o.name).join(", ")}`,
        "calls to its operations are no longer answered (MethodNotFoundError, 404, UNIMPLEMENTED); its handlers are no longer called",
      );
  }
}

function compareService(old: ManifestService, now: ManifestService, add: Add): void {
  const handler = `${handlerName(now.name)}`;
  if (old.taskRuntime.applies && !now.taskRuntime.applies) {
    const refused = now.taskRuntime.error !== undefined;
    add(
      "task-runtime-changed",
      now.name,
      refused
        ? `generation stops: the task runtime refuses the service: ${now.taskRuntime.error}`
        : `the task runtime no longer applies: ${now.taskRuntime.reason ?? "?"}`,
      refused
        ? "buf generate fails until the proto fits the task runtime again (or the runtime is updated): nothing is generated for it"
        : `create${shortName(now.name)}TaskHandler, the agent client (connect${shortName(now.name)}) and the equivalence kit are generated for A2A-shaped services only: agents on the task runtime and clients using the agent client break`,
      { withdrawn: true },
    );
  } else if (!old.taskRuntime.applies && now.taskRuntime.applies) {
    const again = old.taskRuntime.error !== undefined;
    add(
      "task-runtime-changed",
      now.name,
      again
        ? "the task runtime accepts the service again: generation works"
        : "the task runtime applies now",
      `create${shortName(now.name)}TaskHandler, the agent client and the equivalence kit are generated${again ? "" : " besides the handler interface: nothing existing changes"}`,
      { withdrawn: false },
    );
  }
  const oldOps = new Map(old.operations.map((o) => [o.name, o]));
  const newOps = new Map(now.operations.map((o) => [o.name, o]));
  const removed = old.operations.filter((o) => !newOps.has(o.name));
  const added = now.operations.filter((o) => !oldOps.has(o.name));
  const renames = pairRenamedOperations(old.operations, now.operations, removed, added);
  const renamedFrom = new Map([...renames].map(([from, to]) => [to.name, from]));
  const bothRuntime = old.taskRuntime.applies && now.taskRuntime.applies;
  for (const op of now.operations) {
    const path = `${now.name}.${op.name}`;
    const before = oldOps.get(op.name);
    const from = renamedFrom.get(op.name);
    if (before !== undefined) {
      compareOperation(path, before, op, bothRuntime, add);
    } else if (from !== undefined) {
      add(
        "operation-renamed",
        path,
        `operation renamed from ${from.name}: JSON-RPC method ${from.jsonRpcMethod} → ${op.jsonRpcMethod}, gRPC path ${from.grpcPath} → ${op.grpcPath}${sameRoutes(from, op) ? " (HTTP routes unchanged)" : ""}`,
        `clients calling ${from.jsonRpcMethod} get MethodNotFoundError (gRPC: UNIMPLEMENTED); handlers must rename ${lower(from.name)} to ${lower(op.name)}`,
      );
      compareRoutes(path, from.http, op.http, add);
    } else {
      add(
        "operation-added",
        path,
        `operation added: ${signature(op)}; ${routesText(op)}`,
        addedOperationReason(handler, op, now),
      );
    }
  }
  for (const op of removed) {
    if (renames.has(op)) continue;
    add(
      "operation-removed",
      `${now.name}.${op.name}`,
      `operation removed: ${signature(op)}; ${routesText(op)}`,
      `clients calling it get MethodNotFoundError (JSON-RPC), 404 (HTTP+JSON), UNIMPLEMENTED (gRPC); the handler's ${lower(op.name)} is no longer called`,
    );
  }
}

/**
 * The rename heuristic: an operation removed and one added in the same service are one renamed
 * operation when they have the same kind and request and response types, and either the same
 * HTTP routes (method, template, body) or the same position in the service. Each is paired
 * at most once, the removed ones in proto order, the same routes preferred.
 */
export function pairRenamedOperations(
  oldOps: readonly ManifestOperation[],
  newOps: readonly ManifestOperation[],
  removed: readonly ManifestOperation[],
  added: readonly ManifestOperation[],
): Map<ManifestOperation, ManifestOperation> {
  const pairs = new Map<ManifestOperation, ManifestOperation>();
  const taken = new Set<ManifestOperation>();
  for (const r of removed) {
    const candidates = added.filter(
      (a) =>
        !taken.has(a) && a.kind === r.kind && a.request === r.request && a.response === r.response,
    );
    const match =
      candidates.find((a) => a.http.length > 0 && sameRoutes(r, a)) ??
      candidates.find((a) => newOps.indexOf(a) === oldOps.indexOf(r));
    if (match !== undefined) {
      pairs.set(r, match);
      taken.add(match);
    }
  }
  return pairs;
}

const routeKey = (b: ManifestHttpBinding) => `${b.method} ${b.template} ${b.body}`;
const sameRoutes = (a: ManifestOperation, b: ManifestOperation) =>
  a.http.map(routeKey).join("\n") === b.http.map(routeKey).join("\n");

function compareOperation(
  path: string,
  old: ManifestOperation,
  now: ManifestOperation,
  bothRuntime: boolean,
  add: Add,
): void {
  if (old.kind !== now.kind) {
    add(
      "operation-kind-changed",
      path,
      `kind ${old.kind} → ${now.kind}`,
      "the handler's method returns another shape (a response or a stream) and clients read another answer (a JSON body or an SSE stream)",
    );
  }
  if (old.request !== now.request)
    add(
      "operation-request-changed",
      path,
      `request type ${old.request} → ${now.request}`,
      "the request message changed: handlers read, and clients send, another type",
    );
  if (old.response !== now.response)
    add(
      "operation-response-changed",
      path,
      `response type ${old.response} → ${now.response}`,
      "the response message changed: handlers return, and clients read, another type",
    );
  // The RPC name qualified (`Get` → `ShelfService.Get`, another service of the file now has a Get): the server still takes `Get`.
  if (old.jsonRpcMethod !== now.jsonRpcMethod && old.jsonRpcMethod === now.name)
    add(
      "route-jsonrpc-changed",
      path,
      `JSON-RPC method ${old.jsonRpcMethod} → ${now.jsonRpcMethod}`,
      `the server takes ${now.name} too (what the generated clients send)`,
      { withdrawn: false },
    );
  else if (old.jsonRpcMethod !== now.jsonRpcMethod)
    add(
      "route-jsonrpc-changed",
      path,
      `JSON-RPC method ${old.jsonRpcMethod} → ${now.jsonRpcMethod}`,
      `clients calling ${old.jsonRpcMethod} get MethodNotFoundError; the generated server follows`,
      {
        withdrawn: true,
      },
    );
  if (old.grpcPath !== now.grpcPath)
    add(
      "route-grpc-changed",
      path,
      `gRPC path ${old.grpcPath} → ${now.grpcPath}`,
      `clients calling ${old.grpcPath} get UNIMPLEMENTED; the generated server follows`,
    );
  compareRoutes(path, old.http, now.http, add);
  if (bothRuntime && old.taskRuntime !== now.taskRuntime) {
    if (now.taskRuntime === "unsupported")
      add(
        "operation-task-runtime-changed",
        path,
        "the task runtime no longer implements it: it answers UnsupportedOperationError",
        "agents on the task runtime stop serving it, and their clients get UnsupportedOperationError",
        { withdrawn: true },
      );
    else
      add(
        "operation-task-runtime-changed",
        path,
        "the task runtime implements it now",
        "calls answered with UnsupportedOperationError before are served",
        { withdrawn: false },
      );
  }
  if (old.deprecated !== now.deprecated) {
    add(
      "operation-deprecated",
      path,
      now.deprecated ? "deprecated" : "no longer deprecated",
      "a mark for readers: the operation works as before",
    );
  }
}

function compareRoutes(
  path: string,
  old: readonly ManifestHttpBinding[],
  now: readonly ManifestHttpBinding[],
  add: Add,
): void {
  const oldKeys = new Set(old.map(routeKey));
  const newKeys = new Set(now.map(routeKey));
  const gone = old.filter((b) => !newKeys.has(routeKey(b)));
  const fresh = now.filter((b) => !oldKeys.has(routeKey(b)));
  const paired = new Set<ManifestHttpBinding>();
  for (const g of gone) {
    const sameOrigin = (list: readonly ManifestHttpBinding[], b: ManifestHttpBinding) =>
      list.filter((x) => x.origin === b.origin).indexOf(b);
    const match = fresh.find(
      (f) =>
        !paired.has(f) && f.origin === g.origin && sameOrigin(fresh, f) === sameOrigin(gone, g),
    );
    if (match !== undefined) {
      paired.add(match);
      add(
        "route-http-changed",
        path,
        `HTTP route changed (${originText(g.origin)}): ${routeText(g)} → ${routeText(match)}`,
        `clients built on ${g.method} ${g.template} get 404 or 405 (the message wire format is unchanged); the generated route table and server follow`,
      );
    } else {
      add(
        "route-http-removed",
        path,
        `HTTP route removed (${originText(g.origin)}): ${routeText(g)}`,
        `clients built on ${g.method} ${g.template} get 404 or 405; the generated route table and server follow`,
      );
    }
  }
  for (const f of fresh) {
    if (!paired.has(f))
      add(
        "route-http-added",
        path,
        `HTTP route added (${originText(f.origin)}): ${routeText(f)}`,
        "a new route: the generated server answers it, existing routes are unchanged",
      );
  }
}

const originText = (o: string) =>
  ({
    rule: "google.api.http rule",
    additional: "additional_bindings",
    "spec-alias": "spec alias",
    erratum: "corrected template",
  })[o] ?? o;
const routeText = (b: ManifestHttpBinding) =>
  `${b.method} ${b.template}${b.body === "" ? "" : ` (body ${b.body})`}`;
const signature = (op: ManifestOperation) => `${op.kind} ${op.request} → ${op.response}`;
const routesText = (op: ManifestOperation) =>
  `JSON-RPC ${op.jsonRpcMethod}, gRPC ${op.grpcPath}${op.http.length === 0 ? ", no HTTP+JSON route" : `, HTTP ${op.http.map(routeText).join(", ")}`}`;
const lower = (name: string) => name.charAt(0).toLowerCase() + name.slice(1);
const shortName = (typeName: string) => typeName.slice(typeName.lastIndexOf(".") + 1);
const handlerName = (typeName: string) => `${shortName(typeName)}Handler`;

function addedOperationReason(
  handler: string,
  op: ManifestOperation,
  service: ManifestService,
): string {
  const plain = `plain ${handler} implementations must add ${lower(op.name)} (a type error until they do)`;
  if (!service.taskRuntime.applies)
    return `${plain}; clients: a new operation, existing calls are unchanged`;
  const runtime =
    op.taskRuntime === "implemented"
      ? "the task runtime implements it"
      : `agents on the task runtime are unaffected: it answers UnsupportedOperationError until it implements ${op.name}`;
  return `${plain}; ${runtime}; clients: a new operation, existing calls are unchanged`;
}

// ---------------------------------------------------------------------------------------------
// Messages, fields, enums

function compareTypes(before: ApiView, after: ApiView, add: Add): void {
  const moves = new Map<string, string[]>();
  const moved = (from: string, to: string, name: string) => {
    const key = `${from}\n${to}`;
    moves.set(key, [...(moves.get(key) ?? []), name]);
  };
  const changedFields: (() => void)[] = [];
  for (const name of sortedUnion(before.messages, after.messages)) {
    const old = before.messages.get(name);
    const now = after.messages.get(name);
    if (old === undefined && now !== undefined) {
      add(
        "message-added",
        name,
        `message added (${usageText(now.usage)}): ${now.fields.map(fieldSummary).join(", ") || "no fields"}`,
        "a new message, used by the changes listed with it",
      );
    } else if (old !== undefined && now === undefined) {
      add(
        "message-removed",
        name,
        "message no longer used by any operation",
        "see the changes of the fields and operations that used it",
      );
    } else if (old !== undefined && now !== undefined) {
      if (old.file !== now.file) moved(old.file, now.file, name);
      changedFields.push(() => compareMessage(old, now, add));
    }
  }
  for (const name of sortedUnion(before.enums, after.enums)) {
    const old = before.enums.get(name);
    const now = after.enums.get(name);
    if (old === undefined && now !== undefined)
      add(
        "enum-added",
        name,
        `enum added: ${now.values.map((v) => `${v.name} = ${v.number}`).join(", ")}`,
        "a new enum, used by the changes listed with it",
      );
    else if (old !== undefined && now === undefined)
      add(
        "enum-removed",
        name,
        "enum no longer used by any operation",
        "see the changes of the fields that used it",
      );
    else if (old !== undefined && now !== undefined) {
      if (old.file !== now.file) moved(old.file, now.file, name);
      changedFields.push(() => compareEnum(old, now, add));
    }
  }
  for (const [key, names] of moves) {
    const [from, to] = key.split("\n") as [string, string];
    add(
      "types-moved",
      `${from} → ${to}`,
      `${countText(names, after)} moved from ${from} to ${to}: ${names.join(", ")}`,
      `the wire, the routes and the generated APIs (handler, clients, task runtime) are unchanged; at the source level only, TypeScript code importing them from ${pbModule(from)} imports them from ${pbModule(to)} now`,
    );
  }
  for (const f of changedFields) f();
}

/** "44 messages and 2 enums", "1 message". */
function countText(names: readonly string[], view: ApiView): string {
  const messages = names.filter((n) => view.messages.has(n)).length;
  const enums = names.length - messages;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  return [
    messages > 0 ? plural(messages, "message") : undefined,
    enums > 0 ? plural(enums, "enum") : undefined,
  ]
    .filter((s) => s !== undefined)
    .join(" and ");
}

const pbModule = (file: string) => `${file.replace(/\.proto$/, "")}_pb.js`;
const usageText = (usage: readonly TypeUsage[]) =>
  usage.length === 2
    ? "in requests and responses"
    : usage[0] === "request"
      ? "in requests"
      : "in responses";

function sortedUnion<V>(a: ReadonlyMap<string, V>, b: ReadonlyMap<string, V>): string[] {
  return [...new Set([...a.keys(), ...b.keys()])].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
}

function typeText(f: ManifestField): string {
  switch (f.cardinality) {
    case "repeated":
      return `repeated ${f.type}`;
    case "map":
      return `map<${f.keyType ?? "?"}, ${f.type}>`;
    case "optional":
      return `optional ${f.type}`;
    default:
      return f.type;
  }
}

const fieldSummary = (f: ManifestField) =>
  `${typeText(f)} ${f.name} = ${f.number}${f.required === undefined ? "" : " (REQUIRED)"}`;
/** A field as proto source, with its JSON name when that is not the proto name: "optional string icon_url = 14 (JSON iconUrl)". */
const fieldDecl = (f: ManifestField) =>
  `${typeText(f)} ${f.name} = ${f.number}${f.jsonName === f.name ? "" : ` (JSON ${f.jsonName})`}`;

function compareMessage(old: ManifestMessage, now: ManifestMessage, add: Add): void {
  const request = now.usage.includes("request") || old.usage.includes("request");
  const response = now.usage.includes("response") || old.usage.includes("response");
  const byNumber = new Map(now.fields.map((f) => [f.number, f]));
  const byName = new Map(now.fields.map((f) => [f.name, f]));
  const matched = new Set<ManifestField>();
  const removed: ManifestField[] = [];
  for (const f of old.fields) {
    const sameNumber = byNumber.get(f.number);
    const sameName = byName.get(f.name);
    if (sameNumber !== undefined) {
      matched.add(sameNumber);
      compareField(now, f, sameNumber, { request, response }, add);
    } else if (sameName !== undefined && !old.fields.some((o) => o.number === sameName.number)) {
      matched.add(sameName);
      add(
        "field-number-changed",
        `${now.name}.${f.name}`,
        `field number ${f.number} → ${sameName.number}`,
        "gRPC (binary protobuf) carries fields by number: old peers read it as an unknown field; JSON-RPC and HTTP+JSON (by name) are unchanged",
      );
      compareField(now, f, sameName, { request, response }, add, { skipName: true });
    } else {
      removed.push(f);
    }
  }
  for (const f of now.fields) {
    if (matched.has(f)) continue;
    const path = `${now.name}.${f.name}`;
    if (f.required !== undefined) {
      add(
        "field-added",
        path,
        `REQUIRED field added: ${fieldDecl(f)}`,
        [
          request
            ? "old clients do not send it and get InvalidParamsError (HTTP 400, INVALID_ARGUMENT)"
            : undefined,
          response ? "handlers must set it in what they return" : undefined,
        ]
          .filter((s) => s !== undefined)
          .join("; "),
        { required: true, request, response },
      );
    } else {
      add(
        "field-added",
        path,
        `field added: ${fieldDecl(f)}`,
        "a new optional field: old peers leave it out or ignore it (§5.7)",
        { required: false, request, response },
      );
    }
  }
  for (const f of removed) {
    const reserved = isReserved(now, f);
    add(
      "field-removed",
      `${now.name}.${f.name}`,
      `field removed: ${fieldDecl(f)}${f.required === undefined ? "" : ", REQUIRED"}${reserved ? ", its number reserved" : ""}`,
      `code setting or reading ${f.jsonName} no longer compiles and the value no longer travels${reserved ? "" : `; number ${f.number} is not reserved, a later field could reuse it`}`,
    );
  }
  for (const o of now.oneofs ?? []) {
    const before = old.oneofs?.find((x) => x.name === o.name);
    if (before === undefined || before.exactlyOne === o.exactlyOne) continue;
    const path = `${now.name}.${o.name}`;
    if (o.exactlyOne !== undefined)
      add(
        "oneof-rule-added",
        path,
        `oneof ${o.name} now requires exactly one of ${o.fields.join(", ")}`,
        "clients sending none get InvalidParamsError; handlers must set one",
        { request, response },
      );
    else
      add(
        "oneof-rule-removed",
        path,
        `oneof ${o.name} no longer requires one of ${o.fields.join(", ")}`,
        "handlers may receive none set; clients may read none set",
        { request, response },
      );
  }
}

function isReserved(m: ManifestMessage, f: ManifestField): boolean {
  return (m.reserved?.numbers ?? []).some((r) => {
    const [lo, hi] = r.split("-").map(Number) as [number, number | undefined];
    return f.number >= lo && f.number <= (hi ?? lo);
  });
}

function compareField(
  message: ManifestMessage,
  old: ManifestField,
  now: ManifestField,
  side: { request: boolean; response: boolean },
  add: Add,
  options: { skipName?: boolean } = {},
): void {
  const path = `${message.name}.${now.name}`;
  const { request, response } = side;
  if (!options.skipName && old.name !== now.name) {
    add(
      "field-renamed",
      path,
      `field ${old.number} renamed: ${old.name} → ${now.name} (JSON ${old.jsonName} → ${now.jsonName})`,
      old.jsonName === now.jsonName
        ? "the JSON name is unchanged, but TypeScript code using the field's name no longer compiles"
        : "JSON-RPC and HTTP+JSON (ProtoJSON) carry fields by JSON name: old peers' values are ignored; gRPC (by number) is unchanged; TypeScript code using the old name no longer compiles",
    );
  } else if (old.jsonName !== now.jsonName) {
    add(
      "field-json-name-changed",
      path,
      `JSON name ${old.jsonName} → ${now.jsonName}`,
      "JSON-RPC and HTTP+JSON carry fields by JSON name: old peers' values are ignored",
    );
  }
  const optionalOnly = (a: string, b: string) =>
    (a === "singular" && b === "optional") || (a === "optional" && b === "singular");
  if (
    old.type !== now.type ||
    old.keyType !== now.keyType ||
    (old.cardinality !== now.cardinality && !optionalOnly(old.cardinality, now.cardinality))
  ) {
    add(
      "field-type-changed",
      path,
      `type ${typeText(old)} → ${typeText(now)}`,
      "old peers send and read the other type: on the wire and in code",
    );
  } else if (old.cardinality !== now.cardinality) {
    add(
      "field-presence-changed",
      path,
      `presence ${typeText(old)} → ${typeText(now)}`,
      "the wire form is the same (an unset optional and a zero value are both left out); TypeScript code sees the field as possibly undefined, or no longer",
    );
  }
  if (old.oneof !== now.oneof) {
    add(
      "field-oneof-changed",
      path,
      old.oneof === undefined
        ? `now in oneof ${now.oneof}`
        : now.oneof === undefined
          ? `no longer in oneof ${old.oneof}`
          : `oneof ${old.oneof} → ${now.oneof}`,
      "the JSON and binary forms are unchanged, but the TypeScript shape is not (a oneof member lives in a { case, value } union) and at most one member of a oneof may be set",
    );
  }
  if (old.required === undefined && now.required !== undefined) {
    add(
      "field-required-added",
      path,
      `became REQUIRED (${now.required})`,
      [
        request
          ? "old clients that leave it out get InvalidParamsError (HTTP 400, INVALID_ARGUMENT)"
          : undefined,
        response ? "handlers must set it in what they return" : undefined,
        request && !response ? "handlers gain a guarantee" : undefined,
      ]
        .filter((s) => s !== undefined)
        .join("; "),
      { request, response },
    );
  } else if (old.required !== undefined && now.required === undefined) {
    add(
      "field-required-removed",
      path,
      "no longer REQUIRED",
      [
        request
          ? "handlers may now receive requests without it: the generated validation no longer refuses them"
          : undefined,
        response ? "clients may now read responses without it" : undefined,
        request && !response ? "clients may leave it out" : undefined,
      ]
        .filter((s) => s !== undefined)
        .join("; "),
      { request, response },
    );
  } else if (old.required !== now.required) {
    add(
      "field-required-changed",
      path,
      `REQUIRED check ${old.required} → ${now.required}`,
      "validation checks it another way",
      { request, response },
    );
  }
  const behavior = (f: ManifestField) =>
    (f.fieldBehavior ?? []).filter((b) => b !== "REQUIRED").join(", ");
  if (behavior(old) !== behavior(now)) {
    add(
      "field-behavior-changed",
      path,
      `google.api.field_behavior ${behavior(old) || "(none)"} → ${behavior(now) || "(none)"}`,
      "documentation only: validation reads REQUIRED alone",
    );
  }
  const range = (f: ManifestField) =>
    f.range === undefined ? "any" : `${f.range.min ?? "…"}–${f.range.max ?? "…"}`;
  if (range(old) !== range(now)) {
    const narrower =
      (now.range?.min ?? -Infinity) > (old.range?.min ?? -Infinity) ||
      (now.range?.max ?? Infinity) < (old.range?.max ?? Infinity);
    const wider =
      (now.range?.min ?? -Infinity) < (old.range?.min ?? -Infinity) ||
      (now.range?.max ?? Infinity) > (old.range?.max ?? Infinity);
    add(
      "field-range-changed",
      path,
      `accepted range ${range(old)} → ${range(now)}`,
      request
        ? "values outside the range are refused with InvalidParamsError"
        : "the range applies to requests only",
      {
        request,
        widened: wider,
        narrowed: narrower,
      },
    );
  }
  if (old.deprecated !== now.deprecated)
    add(
      "field-deprecated",
      path,
      now.deprecated ? "deprecated" : "no longer deprecated",
      "a mark for readers: the field works as before",
    );
}

function compareEnum(old: ManifestEnum, now: ManifestEnum, add: Add): void {
  const newByName = new Map(now.values.map((v) => [v.name, v]));
  const oldNames = new Set(old.values.map((v) => v.name));
  const matched = new Set<string>();
  for (const v of old.values) {
    const path = `${now.name}.${v.name}`;
    const same = newByName.get(v.name);
    if (same !== undefined) {
      matched.add(same.name);
      if (same.number !== v.number)
        add(
          "enum-value-number-changed",
          path,
          `number ${v.number} → ${same.number}`,
          "gRPC (binary protobuf) carries enum values by number; JSON-RPC and HTTP+JSON (by name) are unchanged",
        );
      continue;
    }
    const renamed = now.values.find(
      (n) => n.number === v.number && !oldNames.has(n.name) && !matched.has(n.name),
    );
    if (renamed !== undefined) {
      matched.add(renamed.name);
      add(
        "enum-value-renamed",
        path,
        `value ${v.number} renamed: ${v.name} → ${renamed.name}`,
        `JSON-RPC and HTTP+JSON (ProtoJSON) carry enum values by name: old peers send and expect ${v.name}; gRPC (by number) is unchanged; TypeScript code using the old name no longer compiles`,
      );
    } else {
      add(
        "enum-value-removed",
        path,
        `value removed: ${v.name} = ${v.number}`,
        "old peers still send or expect it; code using it no longer compiles",
      );
    }
  }
  for (const v of now.values) {
    if (!matched.has(v.name))
      add(
        "enum-value-added",
        `${now.name}.${v.name}`,
        `value added: ${v.name} = ${v.number}`,
        "old peers may receive a value they do not know (lenient ProtoJSON readers, ours included, ignore it)",
      );
  }
}

// ---------------------------------------------------------------------------------------------
// Errors, service parameters

function compareErrors(before: ApiView, after: ApiView, add: Add): void {
  if (before.errorProfile !== after.errorProfile) {
    add(
      "error-profile-changed",
      "errors",
      `error table profile ${before.errorProfile} → ${after.errorProfile}`,
      "the entries that differ are listed one by one",
    );
  }
  const oldByName = new Map(before.errors.map((e) => [e.name, e]));
  for (const e of after.errors) {
    const path = `errors.${e.name}`;
    const old = oldByName.get(e.name);
    if (old === undefined) {
      add(
        "error-added",
        path,
        `error added: JSON-RPC ${e.jsonRpcCode}, HTTP ${e.httpStatus}, gRPC ${e.grpcStatus}, reason ${e.reason}`,
        "a new error class; old clients see it by its code and reason as an unknown A2A error",
      );
      continue;
    }
    const follow = "; the generated error mappers follow";
    if (old.jsonRpcCode !== e.jsonRpcCode)
      add(
        "error-jsonrpc-code-changed",
        path,
        `JSON-RPC code ${old.jsonRpcCode} → ${e.jsonRpcCode}`,
        `clients that recognise the error by its JSON-RPC code see another code${follow}`,
      );
    if (old.httpStatus !== e.httpStatus)
      add(
        "error-http-status-changed",
        path,
        `HTTP status ${old.httpStatus} → ${e.httpStatus}`,
        `HTTP+JSON clients that branch on the status see another one${follow}`,
      );
    if (old.grpcStatus !== e.grpcStatus)
      add(
        "error-grpc-status-changed",
        path,
        `gRPC status ${old.grpcStatus} → ${e.grpcStatus}`,
        `gRPC clients that branch on the status code see another one${follow}`,
      );
    if (old.reason !== e.reason)
      add(
        "error-reason-changed",
        path,
        `ErrorInfo reason ${old.reason} → ${e.reason}`,
        `clients that recognise the error by its ErrorInfo reason no longer do${follow}`,
      );
  }
  const newNames = new Set(after.errors.map((e) => e.name));
  for (const e of before.errors) {
    if (!newNames.has(e.name))
      add(
        "error-removed",
        `errors.${e.name}`,
        `error removed: JSON-RPC ${e.jsonRpcCode}, reason ${e.reason}`,
        `code throwing or catching ${e.name} no longer compiles; clients no longer receive it`,
      );
  }
}

function compareServiceParameters(before: ApiView, after: ApiView, add: Add): void {
  const oldByName = new Map(before.serviceParameters.map((p) => [p.name.toLowerCase(), p]));
  for (const p of after.serviceParameters) {
    const path = `serviceParameters.${p.name}`;
    const old = oldByName.get(p.name.toLowerCase());
    if (old === undefined) {
      add(
        "service-parameter-added",
        path,
        `service parameter added (gRPC metadata ${p.grpcKey}${p.query ? ", also a query parameter" : ""})`,
        "a new parameter: requests without it are read as before",
      );
      continue;
    }
    if (old.grpcKey !== p.grpcKey)
      add(
        "service-parameter-changed",
        path,
        `gRPC metadata key ${old.grpcKey} → ${p.grpcKey}`,
        "gRPC clients sending the old key are not understood",
        { withdrawn: true },
      );
    if (old.query !== p.query)
      add(
        "service-parameter-changed",
        path,
        p.query ? "now also read from the query string" : "no longer read from the query string",
        p.query
          ? "an extra way to send it"
          : "HTTP clients sending it as a query parameter are not understood",
        { withdrawn: !p.query },
      );
  }
  const newNames = new Set(after.serviceParameters.map((p) => p.name.toLowerCase()));
  for (const p of before.serviceParameters) {
    if (!newNames.has(p.name.toLowerCase()))
      add(
        "service-parameter-removed",
        `serviceParameters.${p.name}`,
        "service parameter removed",
        "clients sending it are not understood; handlers no longer receive it in their call context",
      );
  }
}
