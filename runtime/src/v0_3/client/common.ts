// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * What the 0.3 clients share: the 1.0 error classes to throw (from the generated `errorRegistry` or
 * `errorSpecs`), the generic construction of a 1.0 client object from its operation table, and the
 * `X-A2A-Extensions` header 0.3 agents read.
 */
import type { MessageInitShape } from "@bufbuild/protobuf";
import {
  A2AError,
  createErrorRegistry,
  isA2AError,
  type A2AErrorSpec,
  type ErrorRegistry,
} from "../../errors/a2a-error.js";
import type { CallOptions, ClientOptions } from "../../client/call-options.js";
import type { OperationDescriptor } from "../../protocol/operation.js";
import { formatExtensions } from "../../pipeline/service-parameters.js";
import { V03TranslationError } from "../translate/translation-error.js";

/** The 1.0 errors a 0.3 client throws: the generated `errorRegistry` (its classes), or the generated `errorSpecs`. */
export type V1Errors = ErrorRegistry | Readonly<Record<string, A2AErrorSpec>>;

/** The header A2A 0.3 names the extensions of a request in (1.0: `A2A-Extensions`). */
export const V03_EXTENSIONS_HEADER = "x-a2a-extensions";

/** The registry of `errors` (a registry as is; specs as plain A2AErrors of those specs). */
export function v1Registry(errors: V1Errors): ErrorRegistry {
  if (typeof (errors as ErrorRegistry).fromJsonRpcError === "function")
    return errors as ErrorRegistry;
  return createErrorRegistry(
    Object.values(errors as Readonly<Record<string, A2AErrorSpec>>).map((spec) => ({
      spec,
      create: (m: string, o: object) => new A2AError(spec, m, o),
    })),
  );
}

/** The 1.0 error named `name` (`TaskNotFoundError`), with `message` and the 0.3 error's details; a generic A2AError when unknown. */
export function v1Error(
  registry: ErrorRegistry,
  name: string,
  message: string,
  details?: unknown,
): A2AError {
  const spec =
    registry.specs.find((s) => s.name === name) ??
    registry.specs.find((s) => s.name === "InternalError");
  if (spec === undefined)
    return registry.fromJsonRpcError({ code: -32603, message, data: details });
  return registry.fromJsonRpcError({ code: spec.jsonRpcCode, message, data: details });
}

/**
 * An error a 0.3 client's call failed with, as the 1.0 error: an A2AError (of another registry, the 0.3 proto's)
 * becomes the 1.0 class of the same name, with its message, metadata, details and `cause`; anything else
 * (an abort, a TimeoutError) is returned as is.
 */
export function toV1Error(registry: ErrorRegistry, thrown: unknown): unknown {
  if (!isA2AError(thrown)) return thrown;
  if (thrown.spec.name === "A2AError" || registry.specs.every((s) => s.name !== thrown.spec.name))
    return thrown;
  if (registry.specs.some((s) => s === thrown.spec)) return thrown;
  const mapped = v1Error(registry, thrown.spec.name, thrown.message, thrown.wireDetails());
  if (thrown.cause !== undefined)
    Object.defineProperty(mapped, "cause", {
      value: thrown.cause,
      configurable: true,
      writable: true,
      enumerable: false,
    });
  return mapped;
}

/** A 0.3 answer that does not translate: 1.0's InvalidAgentResponseError. */
export function invalidAgentResponse(registry: ErrorRegistry, what: string, e: unknown): A2AError {
  const why = e instanceof Error ? e.message : String(e);
  return v1Error(
    registry,
    "InvalidAgentResponseError",
    `the A2A 0.3 agent's ${what} does not translate to A2A 1.0: ${why}`,
  );
}

/** A 1.0 request that 0.3 cannot express: 1.0's InvalidParamsError, raised before sending. */
export function untranslatableRequest(
  registry: ErrorRegistry,
  operation: string,
  e: unknown,
): unknown {
  if (!(e instanceof V03TranslationError)) return e;
  return v1Error(
    registry,
    "InvalidParamsError",
    `Invalid parameters: ${operation} cannot be sent to an A2A 0.3 agent: ${e.message}`,
  );
}

/** The operation has no A2A 0.3 equivalent (ListTasks): 1.0's UnsupportedOperationError, locally. */
export function unsupportedOperation(registry: ErrorRegistry, operation: string): A2AError {
  return v1Error(
    registry,
    "UnsupportedOperationError",
    `${operation} is not part of A2A 0.3: the agent's interface is a 0.3 one`,
  );
}

/** One method of a client built by {@link buildClient}. */
export type ClientMethod = (
  request: MessageInitShape<OperationDescriptor["input"]>,
  options?: CallOptions,
) => Promise<unknown> | AsyncIterable<unknown>;

/** A client object with one method per operation `localName` of `operations`. */
export function buildClient<Client>(
  operations: Readonly<Record<string, OperationDescriptor>>,
  unary: (
    operation: OperationDescriptor,
    request: MessageInitShape<OperationDescriptor["input"]>,
    options?: CallOptions,
  ) => Promise<unknown>,
  stream: (
    operation: OperationDescriptor,
    request: MessageInitShape<OperationDescriptor["input"]>,
    options?: CallOptions,
  ) => AsyncIterable<unknown>,
): Client {
  const client: Record<string, ClientMethod> = {};
  for (const operation of Object.values(operations)) {
    client[operation.localName] =
      operation.kind === "unary"
        ? (request, options) => unary(operation, request, options)
        : (request, options) => stream(operation, request, options);
  }
  return client as unknown as Client;
}

/** The extensions of a call (the client's and the call's), or undefined when none. */
export function extensionsOf(
  client: ClientOptions | undefined,
  call: CallOptions | undefined,
): string | undefined {
  const extensions = [...(client?.extensions ?? []), ...(call?.extensions ?? [])];
  return extensions.length === 0 ? undefined : formatExtensions(new Set(extensions));
}
