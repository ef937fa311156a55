// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The gRPC binding of A2A (spec §10) on Connect for Node: the service implementation
 * Connect serves (gRPC over HTTP/2; gRPC-web and Connect come for free), adapted from the
 * generated handler interface. Service parameters come from metadata (`a2a-version`,
 * `a2a-extensions`); the version negotiation, extensions and authentication are the
 * HTTP bindings' own code, so the three bindings answer alike.
 */
import { ConnectError, type ConnectRouter, type HandlerContext } from "@connectrpc/connect";
import type { Message } from "@bufbuild/protobuf";
import { A2AError, toA2AError } from "../errors/a2a-error.js";
import { ServiceParameters, type CallContext } from "../pipeline/call-context.js";
import type { OperationDescriptor } from "../protocol/operation.js";
import { findMissingFields } from "../pipeline/required-fields.js";
import { formatExtensions } from "../pipeline/service-parameters.js";
import {
  checkRequestLimits,
  dispatchCall,
  establishContext,
  internalError,
  resolveServerOptions,
  type PipelineSettings,
} from "../pipeline/server-pipeline.js";
import type { GrpcServerOptions, GrpcServiceDefinition } from "../grpc-wire/service-definition.js";
import { toConnectError } from "./status.js";
import { registerLeanUnary } from "./lean-unary.js";
import { guardRequestMessages, type RequestRefusals } from "./request-guard.js";
import {
  compressedWithoutEncoding,
  jsonRequestError,
  undecodableRequest,
} from "../grpc-wire/request-errors.js";
import { answersInJson, encodableResponse } from "./response-check.js";
import { addReflectionFiles } from "./reflection-files.js";
import type { CallCancellation } from "../pipeline/call-abort.js";
import { ownEntry } from "../protojson/own-json.js";

/** Registers the A2A service on a Connect router. */
export function registerGrpcService<Principal>(
  router: ConnectRouter,
  definition: GrpcServiceDefinition<Principal>,
  options?: GrpcServerOptions<Principal>,
): void {
  const settings = resolveServerOptions(options, definition.errors, definition.registry);
  const challenge = options?.authChallenge ?? "Bearer";
  const refusals: RequestRefusals = {
    undecodable: (input, cause) =>
      toConnectError(
        undecodableRequest(definition.errors, input.typeName, cause),
        definition.statusDetails,
      ),
    compressed: (header) =>
      toConnectError(
        compressedWithoutEncoding(definition.errors, header),
        definition.statusDetails,
      ),
    json: (input, bytes) => {
      const refusal = jsonRequestError(
        definition.errors,
        settings.limits.maxJsonDepth,
        input,
        bytes,
      );
      return refusal === undefined ? undefined : toConnectError(refusal, definition.statusDetails);
    },
  };
  const impl: Record<string, unknown> = {};
  for (const method of definition.service.methods) {
    // Own entries only: an RPC may be named after an Object.prototype member (`toString`).
    const operation = ownEntry(definition.operations, method.name);
    if (operation === undefined) continue;
    // The pipeline of a call Connect hands in: its context, then the handler's answer.
    const prepareCall = (request: Message, ctx: HandlerContext) =>
      prepare(
        settings,
        definition,
        operation,
        request,
        new ServiceParameters(ctx.requestHeader),
        ctx.signal,
      );
    const dispatch = (request: Message, context: CallContext<Principal>) =>
      dispatchCall(settings, definition, operation, request, context);
    // Once the call is cancelled or past its deadline, Connect's own reason (CANCELED or
    // DEADLINE_EXCEEDED) is the answer, whatever the handler did since: not an internal error.
    const fail = (e: unknown, ctx: HandlerContext) =>
      ctx.signal.aborted && ctx.signal.reason instanceof ConnectError
        ? ctx.signal.reason
        : toConnectError(
            toA2AError(e, (cause) => internalError(settings, operation.name, cause)),
            definition.statusDetails,
            challenge,
          );
    if (operation.kind === "unary") {
      impl[method.localName] = async (request: Message, ctx: HandlerContext) => {
        try {
          const context = await prepareCall(request, ctx);
          // A call already cancelled or past its deadline starts no work nobody waits for.
          ctx.signal.throwIfAborted();
          const response = await untilAborted(
            dispatch(request, context) as Promise<Message>,
            ctx.signal,
          );
          // One Connect could not encode is the handler's failure, not Connect's text (response-check.ts).
          const encodable = encodableResponse(
            method.output,
            response,
            answersInJson(ctx.requestHeader.get("content-type")),
          );
          echoExtensions(context, ctx);
          return encodable;
        } catch (e) {
          throw fail(e, ctx);
        }
      };
      // The same pipeline for listenGrpc's lean path (plain gRPC on node:http2, see lean-unary.ts).
      registerLeanUnary(router, {
        method,
        refusals,
        encodeFailure: (cause) =>
          toConnectError(internalError(settings, operation.name, cause), definition.statusDetails),
        async call(request, cancellation, parameters) {
          try {
            const context = await prepare(
              settings,
              definition,
              operation,
              request,
              parameters,
              cancellation,
            );
            if (cancellation.reason !== undefined) throw cancellation.reason;
            const response = await cancellation.race(
              dispatch(request, context) as Promise<Message>,
            );
            return {
              response,
              extensions:
                context.activatedExtensions.size > 0
                  ? formatExtensions(context.activatedExtensions)
                  : undefined,
            };
          } catch (e) {
            throw (
              cancellation.reason ??
              toConnectError(
                toA2AError(e, (cause) => internalError(settings, operation.name, cause)),
                definition.statusDetails,
              )
            );
          }
        },
      });
    } else {
      impl[method.localName] = async function* (request: Message, ctx: HandlerContext) {
        let events: AsyncIterable<Message>;
        let context: CallContext<Principal>;
        try {
          context = await prepareCall(request, ctx);
          ctx.signal.throwIfAborted();
          events = dispatch(request, context) as AsyncIterable<Message>;
        } catch (e) {
          throw fail(e, ctx);
        }
        const iterator = events[Symbol.asyncIterator]();
        const json = answersInJson(ctx.requestHeader.get("content-type"));
        let done = false;
        // Cancelled by the client (or deadline, or a stalled stream reset): ask the handler to stop without waiting for it.
        const stop = () => {
          if (done) return;
          done = true;
          iterator
            .return?.()
            .catch((e: unknown) =>
              settings.logger.error(`${operation.name}: stream clean-up failed`, e),
            );
        };
        // While this generator waits at a `yield` for Connect to write an event, an abort does not reach it: a
        // stream reset under a write that never completes (a peer that stopped reading) leaves Connect waiting
        // for a "drain" that never comes, and this generator with it. The handler is stopped all the same.
        ctx.signal.addEventListener("abort", stop, { once: true });
        try {
          for (;;) {
            const next = await untilAborted(iterator.next(), ctx.signal);
            if (next.done === true) {
              done = true;
              // A handler that stopped because of the abort ends the call with the abort's status, not OK.
              ctx.signal.throwIfAborted();
              return;
            }
            const event = encodableResponse(method.output, next.value, json);
            echoExtensions(context, ctx);
            yield event;
          }
        } catch (e) {
          throw fail(e, ctx);
        } finally {
          ctx.signal.removeEventListener("abort", stop);
          stop();
        }
      };
    }
  }
  // The Connect protocol's JSON (and the JSON codecs, when allowed) reads and writes Any and extensions by the registry.
  router.service(
    definition.service,
    impl as never,
    settings.registry === undefined ? undefined : { jsonOptions: { registry: settings.registry } },
  );
  // Reflection serves the error details' files too, so that clients decode grpc-status-details-bin.
  addReflectionFiles(router, [
    definition.statusDetails.errorInfo,
    definition.statusDetails.badRequest,
  ]);
  // Request messages that do not decode (or are flagged compressed with no compression named) get the A2A answer (request-guard.ts).
  guardRequestMessages(router, definition.service, refusals);
}

/** Service parameters from metadata, auth, version, extensions, then REQUIRED fields and ranges, then the request limits. */
async function prepare<Principal>(
  settings: PipelineSettings<Principal>,
  definition: GrpcServiceDefinition<Principal>,
  operation: OperationDescriptor,
  request: Message,
  serviceParameters: ServiceParameters,
  signal: AbortSignal | CallCancellation,
): Promise<CallContext<Principal>> {
  const tenant = (request as { tenant?: unknown }).tenant;
  const context = await establishContext(settings, {
    binding: "GRPC",
    operation: operation.name,
    serviceParameters,
    tenant: typeof tenant === "string" ? tenant : "",
    signal,
  });
  const violations = findMissingFields(definition.requestFields, operation.input.typeName, request);
  if (violations.length > 0) {
    throw new A2AError(
      definition.errors.InvalidParamsError,
      `Invalid parameters: ${violations.map((v) => v.description).join("; ")}`,
      {
        fieldViolations: violations,
      },
    );
  }
  checkRequestLimits(definition.errors, settings.limits, operation.input, request);
  return context;
}

/**
 * Settles with the promise, or rejects with the signal's reason as soon as the call is
 * cancelled or its deadline passes: a handler that ignores its signal cannot hold the
 * call open (its late result is dropped).
 */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    // The late result is dropped; its rejection must not go unhandled (that ends the process).
    promise.catch(() => {});
    return Promise.reject(signal.reason as Error);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error as Error);
      },
    );
  });
}

function echoExtensions(context: CallContext<unknown>, ctx: HandlerContext): void {
  if (context.activatedExtensions.size > 0)
    ctx.responseHeader.set("a2a-extensions", formatExtensions(context.activatedExtensions));
}
