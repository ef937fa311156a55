// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The names an operation goes by in generated code and documents, decided once per service
 * (handler interface, operations tables, clients, dispatcher and documents all read them):
 * - the local name (handler and client method): protobuf-es's `DescMethod.localName`, escaped
 *   with protobuf-es's `$` suffix when it is a name no method may have here
 *   ({@link RESERVED_OPERATION_NAMES}), and made unique in its
 *   service (`Then` and `then` both lower to `then`);
 * - the documented JSON-RPC method: the RPC name, or `<Service>.<Rpc>` when another service
 *   of the same file has an RPC of that name (the method table accepts both).
 */
import type { DescMethod, DescService } from "@bufbuild/protobuf";

/**
 * Method names an operation's handler and client method must not have, besides protobuf-es's
 * (`constructor`, `toString`, `toJSON`, `valueOf`, already escaped in `DescMethod.localName`):
 * `then` (an object with a `then` method is a thenable: `await client` would call it and never
 * resolve), the members every object inherits from `Object.prototype`, and the members of the
 * generated clients (`transport`). Such an operation gets protobuf-es's escape, a `$` suffix.
 */
export const RESERVED_OPERATION_NAMES: ReadonlySet<string> = new Set([
  "then",
  "hasOwnProperty",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "toLocaleString",
  "transport",
]);

/** Local (method) names of a service's RPCs, by RPC name. */
export function operationLocalNames(methods: readonly DescMethod[]): Map<string, string> {
  const taken = new Set<string>();
  const names = new Map<string, string>();
  for (const method of methods) {
    const base = RESERVED_OPERATION_NAMES.has(method.localName)
      ? `${method.localName}$`
      : method.localName;
    let name = base;
    for (let i = 1; taken.has(name); i++) name = `${base}${base.endsWith("$") ? "" : "$"}${i}`;
    taken.add(name);
    names.set(method.name, name);
  }
  return names;
}

/** RPC names that more than one service of the file has. */
export function ambiguousRpcNames(services: readonly DescService[]): Set<string> {
  const seen = new Set<string>();
  const ambiguous = new Set<string>();
  for (const service of services) {
    for (const name of new Set(service.methods.map((m) => m.name))) {
      if (seen.has(name)) ambiguous.add(name);
      seen.add(name);
    }
  }
  return ambiguous;
}

/** The JSON-RPC method an operation is documented under: its RPC name, qualified by its service when the name is ambiguous in the file. */
export function documentedJsonRpcMethod(
  service: DescService,
  method: DescMethod,
  ambiguous: ReadonlySet<string>,
): string {
  return ambiguous.has(method.name) ? `${service.name}.${method.name}` : method.name;
}
