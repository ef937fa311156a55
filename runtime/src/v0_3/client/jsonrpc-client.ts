// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * A 1.0-typed client of an A2A 0.3 agent's JSON-RPC interface: the methods of the generated 1.0
 * `<Service>Client` (one per operation of the 1.0 operation table), speaking 0.3's JSON-RPC wire
 * (`message/send`, `tasks/get`, …, `kind` discriminators, kebab-case states, 0.3 error codes) over
 * `fetch`. Requests are translated 1.0 → 0.3 and results, events and errors 0.3 → 1.0 (the `…ToV03` /
 * `…FromV03` functions of the translation layer); a stream ends at the status update marked `final`
 * (or when the agent closes it). Sends `X-A2A-Extensions`, never `A2A-Version` (a 0.3 agent reads a
 * missing one as 0.3, spec §3.6). ListTasks has no 0.3 method: rejected locally with UnsupportedOperationError.
 */
import {
  create,
  fromJson,
  toJson,
  type JsonObject,
  type JsonValue,
  type MessageInitShape,
} from "@bufbuild/protobuf";
import type { A2AError, ErrorRegistry } from "../../errors/a2a-error.js";
import { callSignal, type CallOptions, type ClientOptions } from "../../client/call-options.js";
import { dataEvents, isEventStream, sendRequest } from "../../http/client-stream.js";
import { readText } from "../../http/stream-connection.js";
import {
  checkResponseEnvelope,
  parseResponseEnvelope,
  type ResponseEnvelopeErrors,
} from "../../jsonrpc/response-envelope.js";
import { StreamConnectionLost } from "../../http/stream-resume.js";
import type { OperationDescriptor } from "../../protocol/operation.js";
import { agentCardFromV03 } from "../translate/agent-card.js";
import { errorFromV03 } from "../translate/errors.js";
import { sendMessageResponseFromV03, streamResponseFromV03 } from "../translate/events.js";
import { taskPushConfigFromV03 } from "../translate/push-configs.js";
import {
  cancelTaskParamsToV03,
  deletePushConfigParamsToV03,
  getPushConfigParamsToV03,
  getTaskParamsToV03,
  listPushConfigsParamsToV03,
  listPushConfigsResponseFromV03,
  sendMessageParamsToV03,
  setPushConfigParamsToV03,
  subscribeParamsToV03,
} from "../translate/requests.js";
import { taskFromV03 } from "../translate/tasks.js";
import {
  V03_EXTENSIONS_HEADER,
  buildClient,
  extensionsOf,
  invalidAgentResponse,
  unsupportedOperation,
  untranslatableRequest,
  v1Error,
  v1Registry,
  type V1Errors,
} from "./common.js";

/** How a 1.0 operation is called on the 0.3 JSON-RPC wire. */
export interface V03JsonRpcMethod {
  /** The 0.3 method name, `message/send`. */
  readonly method: string;
  /** The 1.0 request (ProtoJSON) → the 0.3 `params`; undefined: no params. */
  readonly params: (request: JsonValue) => JsonValue | undefined;
  /** The 0.3 `result` → the 1.0 response (ProtoJSON). */
  readonly result: (result: JsonValue) => JsonValue;
}

/** The 1.0 operations (RPC names) → their 0.3 JSON-RPC methods. ListTasks has none. */
export const V03_JSONRPC_CLIENT_METHODS: Readonly<Record<string, V03JsonRpcMethod>> = Object.freeze(
  {
    SendMessage: {
      method: "message/send",
      params: (r) => sendMessageParamsToV03(r),
      result: (r) => sendMessageResponseFromV03(r),
    },
    SendStreamingMessage: {
      method: "message/stream",
      params: (r) => sendMessageParamsToV03(r),
      result: (r) => streamResponseFromV03(r),
    },
    GetTask: {
      method: "tasks/get",
      params: (r) => getTaskParamsToV03(r),
      result: (r) => taskFromV03(r),
    },
    CancelTask: {
      method: "tasks/cancel",
      params: (r) => cancelTaskParamsToV03(r),
      result: (r) => taskFromV03(r),
    },
    SubscribeToTask: {
      method: "tasks/resubscribe",
      params: (r) => subscribeParamsToV03(r),
      result: (r) => streamResponseFromV03(r),
    },
    CreateTaskPushNotificationConfig: {
      method: "tasks/pushNotificationConfig/set",
      params: (r) => setPushConfigParamsToV03(r),
      result: (r) => taskPushConfigFromV03(r),
    },
    GetTaskPushNotificationConfig: {
      method: "tasks/pushNotificationConfig/get",
      params: (r) => getPushConfigParamsToV03(r),
      result: (r) => taskPushConfigFromV03(r),
    },
    ListTaskPushNotificationConfigs: {
      method: "tasks/pushNotificationConfig/list",
      params: (r) => listPushConfigsParamsToV03(r),
      result: (r) => listPushConfigsResponseFromV03(r),
    },
    DeleteTaskPushNotificationConfig: {
      method: "tasks/pushNotificationConfig/delete",
      params: (r) => deletePushConfigParamsToV03(r),
      result: () => ({}),
    },
    GetExtendedAgentCard: {
      method: "agent/getAuthenticatedExtendedCard",
      params: () => undefined,
      result: (r) => agentCardFromV03(r),
    },
  },
);

/** Options of {@link createV03JsonRpcClient}, fixed for the client's lifetime. */
export interface V03JsonRpcClientOptions extends Omit<ClientOptions, "version" | "tenant"> {
  /** The 0.3 JSON-RPC endpoint (the card's `url` with `preferredTransport` JSONRPC, or a JSONRPC `additionalInterfaces` entry). */
  readonly url: string;
  /** The 1.0 operation table (the generated `<Service>Operations`, by handler localName): the client's methods. */
  readonly operations: Readonly<Record<string, OperationDescriptor>>;
  /** The 1.0 errors to throw: the generated `errorRegistry` (its classes) or `errorSpecs`. */
  readonly errors: V1Errors;
  /** The fetch to use; default `globalThis.fetch`. */
  readonly fetch?: typeof globalThis.fetch | undefined;
  /** Ignored (0.3 has no tenants); accepted so that the options of a 1.0 client fit. */
  readonly tenant?: string | undefined;
  /** Ignored: the 0.3 wire sends no `A2A-Version`. */
  readonly version?: string | undefined;
}

/**
 * A client of the 1.0 interface `Client` (the generated `<Service>Client`) over an A2A 0.3 agent's
 * JSON-RPC interface. Every method takes the 1.0 request and call options (`headers`, `extensions`,
 * `timeoutMs`, `signal`, `onHeaders`) and returns the 1.0 response or events; A2A errors are the 1.0
 * classes of `errors`.
 */
export function createV03JsonRpcClient<Client>(options: V03JsonRpcClientOptions): Client {
  const transport = new V03JsonRpcTransport(options);
  return buildClient<Client>(
    options.operations,
    (operation, request, call) => transport.unary(operation, request, call),
    (operation, request, call) => transport.stream(operation, request, call),
  );
}

/** The 0.3 JSON-RPC calls behind {@link createV03JsonRpcClient}. */
class V03JsonRpcTransport {
  readonly #options: V03JsonRpcClientOptions;
  readonly #fetch: typeof globalThis.fetch;
  readonly #errors: ErrorRegistry;
  #nextId = 1;

  constructor(options: V03JsonRpcClientOptions) {
    this.#options = options;
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.#errors = v1Registry(options.errors);
  }

  async unary(
    operation: OperationDescriptor,
    request: MessageInitShape<OperationDescriptor["input"]>,
    options?: CallOptions,
  ): Promise<unknown> {
    const { method, params, signal, cleanup } = this.#start(operation, request, options);
    try {
      const { response, id } = await this.#post(
        method,
        params,
        options,
        signal,
        "application/json",
      );
      const text = await response.text();
      return this.#decode(operation, method, this.#result(response.status, text, id));
    } finally {
      cleanup();
    }
  }

  async *stream(
    operation: OperationDescriptor,
    request: MessageInitShape<OperationDescriptor["input"]>,
    options?: CallOptions,
  ): AsyncGenerator<unknown> {
    const { method, params, signal, cleanup } = this.#start(operation, request, options);
    // Breaking out of the loop (or the final event) aborts the request: the connection is closed.
    const stop = new AbortController();
    const onAbort = () => stop.abort(signal?.reason);
    if (signal?.aborted === true) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const { response, id } = await this.#post(
        method,
        params,
        options,
        stop.signal,
        "text/event-stream",
      );
      if (!isEventStream(response)) {
        // An error before the first event comes as a plain JSON-RPC response (as may a one-event answer).
        const text = await this.#readText(response, signal);
        yield this.#decode(operation, method, this.#result(response.status, text, id));
        return;
      }
      try {
        for await (const event of dataEvents(response, stop.signal)) {
          let envelope: unknown;
          try {
            envelope = JSON.parse(event.data);
          } catch {
            throw this.#protocolError(`a stream event is not JSON: ${event.data.slice(0, 100)}`);
          }
          const result = this.#checkEnvelope(envelope, id, 200);
          yield this.#decode(operation, method, result);
          if (isFinal(result)) return;
        }
      } catch (e) {
        throw e instanceof StreamConnectionLost ? e.cause : e;
      }
    } finally {
      signal?.removeEventListener("abort", onAbort);
      stop.abort();
      cleanup();
    }
  }

  /**
   * What a call starts with: the 0.3 method and params of its request (refused or untranslatable:
   * thrown before anything is sent), and the call's signal with its timeout (`cleanup` ends it).
   */
  #start(
    operation: OperationDescriptor,
    request: MessageInitShape<OperationDescriptor["input"]>,
    options: CallOptions | undefined,
  ): CallStart {
    const method = this.#method(operation);
    const params = this.#params(operation, method, request);
    const timeoutMs = options?.timeoutMs ?? this.#options.timeoutMs;
    return { method, params, ...callSignal(options?.signal, timeoutMs) };
  }

  /** The 0.3 method of `operation`; ListTasks (and any operation 0.3 does not have) is refused locally. */
  #method(operation: OperationDescriptor): V03JsonRpcMethod {
    const method = V03_JSONRPC_CLIENT_METHODS[operation.name];
    if (method === undefined) throw unsupportedOperation(this.#errors, operation.name);
    return method;
  }

  /** The 0.3 params of a 1.0 request. */
  #params(
    operation: OperationDescriptor,
    method: V03JsonRpcMethod,
    init: MessageInitShape<OperationDescriptor["input"]>,
  ): JsonValue | undefined {
    try {
      return method.params(toJson(operation.input, create(operation.input, init)));
    } catch (e) {
      throw untranslatableRequest(this.#errors, operation.name, e);
    }
  }

  /** POSTs a request of `method` (with the next id) to the endpoint. */
  async #post(
    { method }: V03JsonRpcMethod,
    params: JsonValue | undefined,
    options: CallOptions | undefined,
    signal: AbortSignal | undefined,
    accept: string,
  ): Promise<{ response: Response; id: number }> {
    const id = this.#nextId++;
    const body = JSON.stringify(
      params === undefined
        ? { jsonrpc: "2.0", id, method }
        : { jsonrpc: "2.0", id, method, params },
    );
    const headers: Record<string, string> = {
      ...this.#options.headers,
      ...options?.headers,
      "content-type": "application/json",
      accept,
    };
    const extensions = extensionsOf(this.#options, options);
    if (extensions !== undefined) headers[V03_EXTENSIONS_HEADER] = extensions;
    const url = this.#options.url;
    const request = {
      fetch: this.#fetch,
      url,
      method: "POST",
      headers,
      body,
      errors: this.#errors,
    };
    const response = await sendRequest(request, signal);
    options?.onHeaders?.(response.headers);
    return { response, id };
  }

  async #readText(response: Response, signal: AbortSignal | undefined): Promise<string> {
    try {
      return await readText(response, signal);
    } catch (e) {
      throw e instanceof StreamConnectionLost ? e.cause : e;
    }
  }

  /** The `result` of a JSON-RPC response body; its `error` as the 1.0 error. */
  #result(status: number, text: string, id: number): JsonValue {
    return parseResponseEnvelope(text, id, status, this.#envelopeErrors)["result"] as JsonValue;
  }

  #checkEnvelope(json: unknown, id: number, status: number): JsonValue {
    return checkResponseEnvelope(json, id, status, this.#envelopeErrors)["result"] as JsonValue;
  }

  /** What the response envelopes' errors are built with. */
  get #envelopeErrors(): ResponseEnvelopeErrors {
    return {
      errors: this.#errors,
      rpcError: (error) => this.#error(error),
      protocolError: (message) => this.#protocolError(message),
    };
  }

  /** A 0.3 JSON-RPC error object as the 1.0 error (0.3 codes → 1.0 names: errorFromV03). */
  #error(error: unknown): A2AError {
    let v1: { name: string; message: string; data?: JsonValue };
    try {
      v1 = errorFromV03(error as JsonValue);
    } catch {
      return this.#errors.fromJsonRpcError(error);
    }
    return v1Error(this.#errors, v1.name, v1.message, v1.data);
  }

  /** A 0.3 result → the 1.0 response message. */
  #decode(operation: OperationDescriptor, method: V03JsonRpcMethod, result: JsonValue): unknown {
    let json: JsonValue;
    try {
      // A 0.3 delete answers `null`.
      json =
        result === null && operation.output.typeName === "google.protobuf.Empty"
          ? {}
          : method.result(result);
    } catch (e) {
      throw invalidAgentResponse(this.#errors, `${method.method} result`, e);
    }
    try {
      return fromJson(operation.output, json, { ignoreUnknownFields: true });
    } catch (e) {
      throw this.#protocolError(
        `the translated result is not a valid ${operation.output.typeName}: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
  }

  #protocolError(message: string): A2AError {
    return v1Error(this.#errors, "InvalidAgentResponseError", message);
  }
}

/** A call's 0.3 method and params, and its signal (the caller's, with the timeout: `cleanup` ends it). */
interface CallStart {
  readonly method: V03JsonRpcMethod;
  readonly params: JsonValue | undefined;
  readonly signal: AbortSignal | undefined;
  readonly cleanup: () => void;
}

/** Whether a 0.3 stream event is the last of its stream: a status update with `final: true`. */
function isFinal(result: JsonValue): boolean {
  const event = result as JsonObject | null;
  return (
    typeof event === "object" &&
    event !== null &&
    !Array.isArray(event) &&
    event["kind"] === "status-update" &&
    event["final"] === true
  );
}
