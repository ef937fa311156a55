// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The shared pipeline for a custom binding's server (spec §12): everything between "a call
 * arrived on my transport" and "here is what to write back", the same steps, order and errors
 * as the JSON-RPC, HTTP+JSON and gRPC servers. A binding only frames: it reads the operation,
 * the service parameters and the request from its wire, calls {@link BindingDispatcher.call},
 * and writes the result, the stream's events or the error in its native form.
 *
 * Pipeline: operation known (MethodNotFound) → authenticate → A2A-Version → required
 * extensions → decode the ProtoJSON request (or take a message) and validate REQUIRED fields,
 * ranges and exactly-one oneofs (InvalidParams) → tenant (the binding's, else the request's `tenant`
 * field) → handler → ProtoJSON result (REQUIRED fields
 * emitted at their zero value). Every failure is an `A2AError` of the generated catalog; a
 * handler's own throw becomes InternalError, logged, never leaked.
 */
import type { JsonValue, Message, Registry } from "@bufbuild/protobuf";
import { A2AError, toA2AError } from "../errors/a2a-error.js";
import {
  ServiceParameters,
  type CallContext,
  type ProtocolBinding,
} from "../pipeline/call-context.js";
import type { OperationDescriptor } from "../protocol/operation.js";
import { encodeMessage } from "../protojson/proto-json.js";
import { findMissingFields, type RequirementTable } from "../pipeline/required-fields.js";
import {
  decodeRequest,
  dispatchCall,
  establishContext,
  internalError,
  resolveServerOptions,
  type PipelineErrorSpecs,
  type ServerOptions,
  type ServiceDefinitionBase,
} from "../pipeline/server-pipeline.js";
import { withTenant } from "../pipeline/call-abort.js";

/** What the generated code gives a custom binding: the operations and the tables the standard servers use. */
export interface BindingServiceDefinition<Principal> extends ServiceDefinitionBase<Principal> {
  /** RPC name → operation (the generated `<Service>Operations` by name, or `<Service>JsonRpcMethods`). */
  readonly operations: Readonly<Record<string, OperationDescriptor>>;
  /** REQUIRED fields of responses (always emitted). */
  readonly responseFields: RequirementTable;
}

/** One call as a custom binding read it off its wire. */
export interface BindingCall {
  /** The RPC name ("SendMessage"); a name the service does not have is MethodNotFoundError. */
  readonly operation: string;
  /** The request: its ProtoJSON form (decoded and validated here), or a decoded message (validated here). */
  readonly request: JsonValue | Message;
  /** Service parameters (§3.2.6) as the binding carries them: header-like pairs, case-insensitive names. */
  readonly serviceParameters?:
    | Iterable<readonly [string, string]>
    | Readonly<Record<string, string>>
    | undefined;
  /**
   * The tenant the binding's addressing names, if it has any (§3.2.7). Default: the request's own
   * `tenant` field (as on JSON-RPC and gRPC), else "". A request whose `tenant` field names another
   * tenant is InvalidParamsError (as on HTTP+JSON, where the path's tenant and the body's must agree).
   */
  readonly tenant?: string | undefined;
  /** Aborted when the caller goes away or cancels: passed to the handler, which stops its work. */
  readonly signal?: AbortSignal | undefined;
}

/** What to write back for one call. */
export type BindingResult =
  /** A unary answer: the ProtoJSON response, and the extensions the handler activated (send them back as A2A-Extensions). */
  | {
      readonly kind: "unary";
      readonly response: JsonValue;
      readonly activatedExtensions: readonly string[];
    }
  /**
   * A stream: write each event in order, then end the stream. When the iteration throws, the
   * error is an `A2AError`: write it as the stream's last frame.
   */
  | {
      readonly kind: "stream";
      readonly events: AsyncIterable<JsonValue>;
      readonly context: CallContext<unknown>;
    };

/** The server side of a custom binding, bound to a service and a handler. */
export interface BindingDispatcher {
  /** The protocolBinding URI of the binding (the Agent Card's `supportedInterfaces[].protocolBinding`). */
  readonly binding: ProtocolBinding;
  /**
   * Runs one call through the pipeline. Rejects with an `A2AError` (never anything else) for
   * every failure before the first event; a stream's later failure is thrown by its iteration.
   */
  call(call: BindingCall): Promise<BindingResult>;
}

const isMessage = (v: unknown): v is Message =>
  typeof v === "object" &&
  v !== null &&
  typeof (v as { $typeName?: unknown }).$typeName === "string";

function parameters(input: BindingCall["serviceParameters"]): ServiceParameters {
  if (input === undefined) return new ServiceParameters([]);
  const pairs =
    Symbol.iterator in Object(input)
      ? [...(input as Iterable<readonly [string, string]>)]
      : Object.entries(input as Record<string, string>);
  return new ServiceParameters(pairs);
}

/**
 * The context scoped to the call's tenant: the binding's, else the request's `tenant` field (so that a
 * binding that does not pass one still scopes the call as JSON-RPC and gRPC do, never to the default
 * tenant); a request naming another tenant than the binding's is InvalidParamsError.
 */
function scopedToTenant<Principal>(
  errors: PipelineErrorSpecs,
  context: CallContext<Principal>,
  request: Message,
): CallContext<Principal> {
  const field = (request as { tenant?: unknown }).tenant;
  if (typeof field !== "string" || field === "" || field === context.tenant) return context;
  if (context.tenant !== "") {
    throw new A2AError(
      errors.InvalidParamsError,
      "Invalid parameters: the request's tenant differs from the tenant the binding addressed",
      {
        fieldViolations: [
          { field: "tenant", description: "Must be empty or the tenant the binding addressed" },
        ],
      },
    );
  }
  return withTenant(context, field);
}

/**
 * A decoded request's ProtoJSON, to be validated as a wire's: its REQUIRED fields are checked first, so that
 * a proto2 `required` field left unset (which ProtoJSON cannot write) is InvalidParamsError naming it.
 */
function messageJson(
  errors: PipelineErrorSpecs,
  requestFields: RequirementTable,
  op: OperationDescriptor,
  request: Message,
  registry: Registry | undefined,
): JsonValue {
  const violations = findMissingFields(requestFields, op.input.typeName, request);
  if (violations.length > 0) {
    throw new A2AError(
      errors.InvalidParamsError,
      `Invalid parameters: ${violations.map((v) => v.description).join("; ")}`,
      { fieldViolations: violations },
    );
  }
  return encodeMessage(op.input, request, {}, registry);
}

/**
 * Creates the dispatcher of a custom binding. `binding` is its protocolBinding URI; the
 * options are the standard servers' (`supportedVersions`, `versionWhenMissing`,
 * `requiredExtensions`, `authenticate`, `logger`), so that every binding of an agent answers alike.
 */
export function createBindingDispatcher<Principal>(
  service: BindingServiceDefinition<Principal>,
  binding: ProtocolBinding,
  options?: ServerOptions<Principal>,
): BindingDispatcher {
  const settings = resolveServerOptions(options, service.errors, service.registry);
  const operations = new Map(Object.entries(service.operations));
  const errors = service.errors;
  const encode = (op: OperationDescriptor, m: Message) =>
    encodeMessage(op.output, m, service.responseFields, settings.registry);

  async function call(input: BindingCall): Promise<BindingResult> {
    const op = operations.get(input.operation);
    if (op === undefined)
      throw new A2AError(
        errors.MethodNotFoundError,
        `Method not found: ${input.operation.slice(0, 100)}`,
      );
    const signal = input.signal ?? new AbortController().signal;
    const established = await establishContext(settings, {
      binding,
      operation: op.name,
      serviceParameters: parameters(input.serviceParameters),
      tenant: input.tenant ?? "",
      signal,
    });
    const json = isMessage(input.request)
      ? messageJson(errors, service.requestFields, op, input.request, settings.registry)
      : input.request;
    const request = decodeRequest(
      errors,
      op.input,
      json,
      service.requestFields,
      settings.limits,
      settings.registry,
      service.requestReaders,
    );
    const context = scopedToTenant(errors, established, request);
    if (op.kind === "unary") {
      let response: Message;
      try {
        response = await (dispatchCall(
          settings,
          service,
          op,
          request,
          context,
        ) as Promise<Message>);
      } catch (e) {
        throw toA2AErrorOrInternal(e);
      }
      return {
        kind: "unary",
        response: encode(op, response),
        activatedExtensions: [...context.activatedExtensions],
      };
    }
    const iterable = dispatchCall(
      settings,
      service,
      op,
      request,
      context,
    ) as AsyncIterable<Message>;
    const iterator = iterable[Symbol.asyncIterator]();
    // The first event is awaited here, so that an error before it is a rejection of call(), answered like a unary error.
    let first: IteratorResult<Message>;
    try {
      first = await iterator.next();
    } catch (e) {
      throw toA2AErrorOrInternal(e);
    }
    async function* events(): AsyncGenerator<JsonValue> {
      try {
        let next = first;
        while (next.done !== true) {
          yield encode(op!, next.value);
          next = await iterator.next();
        }
      } catch (e) {
        throw toA2AErrorOrInternal(e);
      } finally {
        await iterator.return?.();
      }
    }
    return { kind: "stream", events: events(), context: context as CallContext<unknown> };

    function toA2AErrorOrInternal(e: unknown): A2AError {
      return toA2AError(e, (cause) => internalError(settings, op!.name, cause, signal));
    }
  }

  return {
    binding,
    call: async (input) => {
      try {
        return await call(input);
      } catch (e) {
        throw toA2AError(e, (cause) =>
          internalError(settings, input.operation, cause, input.signal),
        );
      }
    },
  };
}
