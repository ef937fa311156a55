// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * What the equivalence kit needs of an A2A service: the generated tables, handed over by the
 * generated binder (`<file>_a2a_equivalence.ts`), so that this package never imports a
 * service's `_pb` files. Messages are built from the descriptors (`fromJson(op.input, …)`).
 */
import type { A2AErrorClass } from "../errors/a2a-error.js";
import type { OperationDescriptor } from "../protocol/operation.js";
import type { RequirementTable } from "../pipeline/required-fields.js";

/** The generated tables of one A2A-shaped service, as the binder passes them. */
export interface EquivalenceServiceSpec {
  /** Fully qualified service name, e.g. "lf.a2a.v1.A2AService" (shown in reports). */
  readonly service: string;
  /** The generated `<Service>Operations` table, keyed by handler method name (`sendMessage`). */
  readonly operations: Readonly<Record<string, OperationDescriptor>>;
  /** Every generated error class, keyed by class name (`TaskNotFoundError`). */
  readonly errors: Readonly<Record<string, A2AErrorClass>>;
  /**
   * The errors the reference agent raises on request, one "error mapping" scenario each: those
   * whose meaning is the same on every binding (the A2A errors of §5.4, the authentication and
   * authorization errors, and the validation and system errors of §3.3.2), not the JSON-RPC
   * envelope errors.
   */
  readonly raisableErrors: readonly string[];
  /** The generated `<Service>RequiredFields` table: REQUIRED fields and ranges of requests. */
  readonly requiredFields: RequirementTable;
}

export { A2A_OPERATIONS, type A2AOperationName } from "../protocol/a2a-operations.js";
import { A2A_OPERATIONS, type A2AOperationName } from "../protocol/a2a-operations.js";

/** The spec's operations by RPC name; throws when the service lacks one of the eleven. */
export function operationsByName(
  spec: EquivalenceServiceSpec,
): Readonly<Record<A2AOperationName, OperationDescriptor>> {
  const byName = new Map(Object.values(spec.operations).map((op) => [op.name, op]));
  const out = {} as Record<A2AOperationName, OperationDescriptor>;
  for (const name of A2A_OPERATIONS) {
    const op = byName.get(name);
    if (op === undefined)
      throw new Error(
        `${spec.service} has no ${name} operation: the equivalence kit needs the eleven A2A operations`,
      );
    out[name] = op;
  }
  return out;
}

/** The generated error class of that name; throws when the catalog has none. */
export function errorClass(spec: EquivalenceServiceSpec, name: string): A2AErrorClass {
  const cls = spec.errors[name];
  if (cls === undefined)
    throw new Error(`${spec.service} has no error class ${name} in its error catalog`);
  return cls;
}
