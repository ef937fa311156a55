/**
 * One operation as the runner performs it: the client under test sends it, through the
 * wire tap, with a fresh `acts-exchange` header; the recorded exchange is judged
 * (wire-judge.ts) and becomes the step's record. The assertion root is what the agent put
 * on the wire (the JSON-RPC `result`, the HTTP+JSON body, each SSE `data:` payload, or the
 * strictly decoded gRPC message), never the client's decoding of it.
 *
 * The client's own reading is checked as well: it must succeed exactly when the wire
 * carries a result, name the error the wire names, and decode the same message (compared
 * as canonical ProtoJSON). Every wire violation and every disagreement is a `problem`,
 * and a step with a problem fails whatever its expectations say.
 */
import { randomUUID } from "node:crypto";
import { fromJson, toJson, type DescMessage, type JsonValue as PbJson } from "@bufbuild/protobuf";
import { StreamResponseSchema } from "../../../generated-example/gen/a2a_pb.js";
import type { AssertionFailure } from "./assertions.js";
import type {
  ActsClient,
  ActsError,
  Binding,
  JsonObject,
  JsonValue,
  OperationOutcome,
  StreamOperation,
  StreamOutcome,
  UnaryOperation,
} from "./client.js";
import { specErrorByName } from "./spec-errors.js";
import {
  OPERATION_METHODS,
  judgeExchange,
  operationResponseSchema,
  type WireError,
  type WireOutcome,
  type WireViolation,
} from "./wire-judge.js";
import { EXCHANGE_HEADER, type WireExchange } from "./wire-tap.js";

/** Where the runner reads recorded exchanges (the wire tap, or a fake in unit tests). */
export interface WireSource {
  take(id: string, waitMs?: number): Promise<WireExchange[]>;
}

/** An error as the step saw it: on the wire (`onWire`), or refused by the client before sending. */
export interface StepError extends Partial<WireError> {
  readonly type: string;
  readonly message: string;
  readonly onWire: boolean;
}

/** What a step produced: the assertion root, status, and for streams the events. */
export interface StepRecord {
  readonly root: JsonValue | undefined;
  /** HTTP status for raw steps and get_agent_card; 200 for a successful operation; "error" for a failed one. */
  readonly status: number | "error";
  readonly error?: StepError;
  readonly events?: JsonValue[];
  readonly headers?: Readonly<Record<string, string>>;
  /** Wire violations and client disagreements: each fails the step. */
  readonly problems: readonly AssertionFailure[];
  /** For streams: the response reached its end (false when the runner closed it or it was cut). */
  readonly complete?: boolean;
  /** The exchange the record was judged from (absent when nothing reached the wire). */
  readonly exchange?: WireExchange;
}

export interface WireCallOptions {
  readonly headers: Readonly<Record<string, string>>;
  readonly signal: AbortSignal;
  /** Streams: called with each event as the client delivers it (to wait for "the first event"). */
  readonly onEvent?: (event: JsonValue) => void;
}

const isMap = (v: unknown): v is JsonObject =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/** The ACTS assertion root of an error: `{error: {type, code, message, details, data}}`. */
export function errorRoot(error: StepError): JsonObject {
  const code = error.jsonRpcCode ?? specErrorByName(error.type)?.jsonRpcCode;
  return {
    error: {
      type: error.type,
      ...(code !== undefined ? { code } : {}),
      message: error.message,
      ...(error.details !== undefined
        ? { details: [...error.details], data: [...error.details] }
        : {}),
    },
  };
}

export const asProblems = (violations: readonly WireViolation[]): AssertionFailure[] =>
  violations.map((x) => ({ path: x.path, message: `wire: ${x.message}` }));

/** `json` as protobuf-es prints it after reading it leniently: the shape both sides are compared in. */
function canonical(schema: DescMessage, json: JsonValue): string | undefined {
  try {
    return JSON.stringify(
      toJson(schema, fromJson(schema, json as PbJson, { ignoreUnknownFields: true })),
    );
  } catch {
    return undefined;
  }
}

function firstDifference(a: JsonValue | undefined, b: JsonValue | undefined, path = ""): string {
  if (JSON.stringify(a) === JSON.stringify(b)) return "";
  if (isMap(a) && isMap(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const d = firstDifference(a[key], b[key], path === "" ? key : `${path}.${key}`);
      if (d !== "") return d;
    }
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    for (let i = 0; i < a.length; i++) {
      const d = firstDifference(a[i], b[i], `${path}[${i}]`);
      if (d !== "") return d;
    }
  }
  const show = (x: JsonValue | undefined) =>
    x === undefined ? "(missing)" : JSON.stringify(x).slice(0, 80);
  return `${path === "" ? "(root)" : path}: wire ${show(a)}, client ${show(b)}`;
}

function sameMessage(
  schema: DescMessage,
  wire: JsonValue,
  client: JsonValue,
  path: string,
): AssertionFailure[] {
  const w = canonical(schema, wire);
  const c = canonical(schema, client);
  if (w === undefined || c === undefined || w === c) return [];
  return [
    {
      path,
      message: `client: decoded the response differently from the wire (${firstDifference(JSON.parse(w) as JsonValue, JSON.parse(c) as JsonValue)})`,
    },
  ];
}

function sameError(wire: WireError, client: ActsError): AssertionFailure[] {
  return client.type === wire.type
    ? []
    : [
        {
          path: "error",
          message: `client: read the error as ${client.type} ("${client.message}"), the wire says ${wire.type}`,
        },
      ];
}

const stepError = (error: WireError): StepError => ({ ...error, onWire: true });

/** A record for a call nothing of which reached the wire. */
function offWire(client: OperationOutcome | StreamOutcome): StepRecord {
  const error = "ok" in client ? (client.ok ? undefined : client.error) : client.error;
  if (error === undefined) {
    return {
      root: undefined,
      status: "error",
      error: {
        type: "NotOnTheWire",
        message: "the client answered without a request reaching the agent",
        onWire: false,
      },
      problems: [{ path: "", message: "client: answered without any request reaching the agent" }],
    };
  }
  const record: StepError = { type: error.type, message: error.message, onWire: false };
  // A request a typed client cannot express is the client's limit, reported as the step's error; any other local refusal hides the agent's answer.
  const problems: AssertionFailure[] =
    error.type === "ClientUnsupported"
      ? []
      : [
          {
            path: "",
            message: `client: refused locally with ${error.type} ("${error.message}"); nothing reached the agent`,
          },
        ];
  return { root: errorRoot(record), status: "error", error: record, problems };
}

/** Performs operations through one client and judges each on the wire. */
export class WireCaller {
  /** `judge` false: records carry no problems (see RunnerConfig.judgeWire). */
  constructor(
    readonly binding: Binding,
    readonly client: ActsClient,
    readonly wire: WireSource,
    readonly judge = true,
  ) {}

  async call(
    operation: UnaryOperation,
    request: JsonObject,
    options: WireCallOptions,
  ): Promise<StepRecord> {
    const record = await this.#call(operation, request, options);
    return this.judge ? record : { ...record, problems: [] };
  }

  async stream(
    operation: StreamOperation,
    request: JsonObject,
    options: WireCallOptions,
  ): Promise<StepRecord> {
    const record = await this.#stream(operation, request, options);
    return this.judge ? record : { ...record, problems: [] };
  }

  async #call(
    operation: UnaryOperation,
    request: JsonObject,
    options: WireCallOptions,
  ): Promise<StepRecord> {
    const id = randomUUID();
    const outcome = await this.client.call(operation, request, {
      headers: { ...options.headers, [EXCHANGE_HEADER]: id },
      signal: options.signal,
    });
    const exchange = (await this.wire.take(id)).at(-1);
    if (exchange === undefined) return offWire(outcome);
    const judged = judgeExchange(this.binding, OPERATION_METHODS[operation], exchange, false);
    const problems = asProblems(judged.violations);
    const schema = operationResponseSchema(operation);
    if (judged.kind === "result") {
      if (!outcome.ok)
        problems.push({
          path: "",
          message: `client: reported ${outcome.error.type} ("${outcome.error.message}") for a successful response`,
        });
      else problems.push(...sameMessage(schema, judged.root, outcome.body, ""));
      return { root: judged.root, status: 200, problems, exchange };
    }
    if (judged.kind === "error") {
      if (outcome.ok)
        problems.push({
          path: "",
          message: `client: reported success for an error response (${judged.error.type})`,
        });
      else problems.push(...sameError(judged.error, outcome.error));
      const error = stepError(judged.error);
      return { root: errorRoot(error), status: "error", error, problems, exchange };
    }
    return noAnswer(judged, problems, exchange);
  }

  async #stream(
    operation: StreamOperation,
    request: JsonObject,
    options: WireCallOptions,
  ): Promise<StepRecord> {
    const id = randomUUID();
    const outcome = await this.client.stream(operation, request, {
      headers: { ...options.headers, [EXCHANGE_HEADER]: id },
      signal: options.signal,
      ...(options.onEvent !== undefined ? { onEvent: options.onEvent } : {}),
    });
    // A stream the runner closed settles as soon as the tap sees the client go.
    const exchange = (await this.wire.take(id)).at(-1);
    if (exchange === undefined) return offWire(outcome);
    const judged = judgeExchange(this.binding, OPERATION_METHODS[operation], exchange, true);
    const problems = asProblems(judged.violations);
    if (judged.kind === "error") {
      if (outcome.error === undefined)
        problems.push({
          path: "",
          message: `client: reported a clean stream for an error response (${judged.error.type})`,
        });
      else problems.push(...sameError(judged.error, outcome.error));
      const error = stepError(judged.error);
      return {
        root: errorRoot(error),
        status: "error",
        error,
        events: [],
        problems,
        exchange,
        complete: true,
      };
    }
    if (judged.kind !== "stream") return noAnswer(judged, problems, exchange);
    const aborted = options.signal.aborted;
    // The client may stop reading before the tap stops recording (the runner closed the stream): compare what both have.
    const shared = Math.min(judged.events.length, outcome.events.length);
    if (!aborted && judged.events.length !== outcome.events.length)
      problems.push({
        path: "events",
        message: `client: delivered ${outcome.events.length} event(s), the wire carried ${judged.events.length}`,
      });
    for (let i = 0; i < shared; i++)
      problems.push(
        ...sameMessage(StreamResponseSchema, judged.events[i]!, outcome.events[i]!, `events[${i}]`),
      );
    if (judged.error !== undefined) {
      if (outcome.error === undefined)
        problems.push({
          path: "",
          message: `client: reported a clean end for a stream that ended with ${judged.error.type}`,
        });
      else problems.push(...sameError(judged.error, outcome.error));
      const error = stepError(judged.error);
      return {
        root: errorRoot(error),
        status: "error",
        error,
        events: judged.events,
        problems,
        exchange,
        complete: judged.complete,
      };
    }
    if (outcome.error !== undefined && !aborted)
      problems.push({
        path: "",
        message: `client: reported ${outcome.error.type} ("${outcome.error.message}") for a stream that ended cleanly`,
      });
    return {
      root: { events: judged.events },
      status: 200,
      events: judged.events,
      problems,
      exchange,
      complete: judged.complete,
    };
  }
}

function noAnswer(
  judged: WireOutcome,
  problems: AssertionFailure[],
  exchange: WireExchange,
): StepRecord {
  if (problems.length === 0)
    problems.push({
      path: "",
      message: "wire: the response carries neither a result nor an error",
    });
  return {
    root: undefined,
    status: "error",
    error: { type: "NoAnswer", message: `no usable response (${judged.kind})`, onWire: true },
    problems,
    exchange,
  };
}
