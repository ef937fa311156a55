// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * What the HTTP servers (JSON-RPC, HTTP+JSON) share in running a call once its operation is known:
 * the call context, the decoded request, and the dispatch with its unary or SSE answer.
 */
import type { JsonValue, Message } from "@bufbuild/protobuf";
import type { ServiceParameters, CallContext } from "../pipeline/call-context.js";
import {
  decodeRequest,
  dispatchCall,
  establishContext,
  type PipelineSettings,
  type ServiceDefinitionBase,
} from "../pipeline/server-pipeline.js";
import type { OperationDescriptor } from "../protocol/operation.js";
import type { EventStreamFraming } from "./event-stream.js";
import { queryParameter } from "./query.js";
import { answerEventStream } from "./server-answer.js";
import type { UniversalRequest, UniversalResponse } from "./universal.js";

/**
 * The call context of an HTTP request (establishContext): the caller authenticated, A2A-Version
 * negotiated (the `A2A-Version` query parameter winning over the header), the request as its signal.
 */
export function httpCallContext<Principal>(
  settings: PipelineSettings<Principal>,
  binding: "JSONRPC" | "HTTP+JSON",
  operation: OperationDescriptor,
  request: UniversalRequest,
  serviceParameters: ServiceParameters,
  tenant = "",
): Promise<CallContext<Principal>> {
  return establishContext(settings, {
    binding,
    operation: operation.name,
    serviceParameters,
    versionParameter: queryParameter(request.query, "A2A-Version"),
    tenant,
    signal: request,
  });
}

/** The request of `operation` read from its ProtoJSON, as `service` reads and checks it (decodeRequest). */
export function decodeServiceRequest<Principal>(
  settings: PipelineSettings<Principal>,
  service: ServiceDefinitionBase<Principal>,
  operation: OperationDescriptor,
  json: JsonValue,
): Message {
  return decodeRequest(
    service.errors,
    operation.input,
    json,
    service.requestFields,
    settings.limits,
    settings.registry,
    service.requestReaders,
  );
}

/**
 * How an HTTP server answers a call: its unary response, its failure, or the SSE framing of its
 * events. Only `stream()` builds the framing, so that a unary call allocates none of it.
 */
export interface HttpCallAnswers {
  /** The answer of a unary call's response (what it throws is answered as an error). */
  unary(response: Message): UniversalResponse;
  /** The answer of a call that fails before it has a result (what `dispatch` or its promise throws). */
  error(thrown: unknown): UniversalResponse;
  /** The framing of a stream call's events: called once, for a stream call only. */
  stream(): Omit<EventStreamFraming, "logCleanupError">;
}

/**
 * Dispatches a call to the handler (dispatchCall) and answers it: a unary call with its response,
 * a stream call with an SSE stream of its events (answerEventStream), a failure with its error.
 */
export async function answerHttpCall<Principal>(
  settings: PipelineSettings<Principal>,
  service: Pick<ServiceDefinitionBase<Principal>, "dispatch">,
  operation: OperationDescriptor,
  message: Message,
  context: CallContext<Principal>,
  keepAliveMs: number,
  answers: HttpCallAnswers,
): Promise<UniversalResponse> {
  let result: Promise<Message> | AsyncIterable<Message>;
  try {
    result = dispatchCall(settings, service, operation, message, context);
    if (operation.kind === "unary") return answers.unary(await (result as Promise<Message>));
  } catch (e) {
    return answers.error(e);
  }
  return answerEventStream(
    result as AsyncIterable<Message>,
    answers.stream(),
    settings,
    operation.name,
    context,
    keepAliveMs,
  );
}
