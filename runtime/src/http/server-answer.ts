// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * What the HTTP servers (JSON-RPC, HTTP+JSON) share in writing their answers: the ProtoJSON text of
 * a response or event, the event text caches, what a call threw as an A2A error, and the SSE answer
 * of a stream call.
 */
import type { DescMessage, Message, Registry } from "@bufbuild/protobuf";
import { toA2AError, type A2AError } from "../errors/a2a-error.js";
import type { CallContext } from "../pipeline/call-context.js";
import type { RequirementTable } from "../pipeline/required-fields.js";
import {
  internalError,
  withActivatedExtensions,
  type PipelineSettings,
} from "../pipeline/server-pipeline.js";
import type { JsonTextWriterTable } from "../protojson/json-write.js";
import { encodeMessageText } from "../protojson/response-text.js";
import {
  createEventTextCache,
  openEventStream,
  type EventStreamFraming,
  type EventTextCache,
} from "./event-stream.js";
import type { UniversalResponse } from "./universal.js";

/** The event text caches of a server, one per output type, each made on first use. */
export function eventTextCaches(): (output: object) => EventTextCache {
  const eventTexts = new Map<object, EventTextCache>();
  return (output) => {
    let cache = eventTexts.get(output);
    if (cache === undefined) eventTexts.set(output, (cache = createEventTextCache()));
    return cache;
  };
}

/** How a service writes its responses: their REQUIRED fields and generated ProtoJSON writers. */
export interface ResponseWriting {
  /** REQUIRED fields of responses (always emitted). */
  readonly responseFields: RequirementTable;
  /** The generated ProtoJSON writers of the response types; reflection without them. */
  readonly responseWriters?: JsonTextWriterTable | undefined;
}

/** The ProtoJSON text of `output` messages, as `service` writes them (encodeMessageText). */
export function responseText(
  service: ResponseWriting,
  registry: Registry | undefined,
  output: DescMessage,
): (message: Message) => string {
  return (message) =>
    encodeMessageText(output, message, service.responseFields, registry, service.responseWriters);
}

/**
 * What a call of `operation` threw, as an A2A error: anything else is an internal error
 * (internalError, with the request's signal, read only then).
 */
export function callError<Principal>(
  settings: PipelineSettings<Principal>,
  operation: string,
  request: { readonly signal: AbortSignal },
): (thrown: unknown) => A2AError {
  return (thrown) =>
    toA2AError(thrown, (cause) => internalError(settings, operation, cause, request.signal));
}

/**
 * The SSE answer of a stream call of `operation` (openEventStream), with the call's activated
 * extensions and signal; a failed clean-up is logged.
 */
export function answerEventStream<Principal>(
  events: AsyncIterable<Message>,
  framing: Omit<EventStreamFraming, "logCleanupError">,
  settings: PipelineSettings<Principal>,
  operation: string,
  context: CallContext<Principal>,
  keepAliveMs: number,
): Promise<UniversalResponse> {
  return openEventStream(
    events,
    {
      ...framing,
      logCleanupError: (e) => settings.logger.error(`${operation}: stream clean-up failed`, e),
    },
    withActivatedExtensions([], context),
    keepAliveMs,
    context.signal,
  );
}
