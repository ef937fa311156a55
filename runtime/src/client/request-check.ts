// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * What every binding's client does with a request before sending it: the message is created
 * (with the client's tenant, call-options.ts) and checked against the REQUIRED table the plugin
 * generated (google.api.field_behavior REQUIRED, proto2 `required`, the exactly-one oneofs), so
 * that the same invalid request is refused alike on JSON-RPC, HTTP+JSON and gRPC: the generated
 * InvalidParamsError naming the field, before anything is sent. The ranges of that table (pageSize
 * 1–100) are left to the server.
 */
import type { DescMessage, Message, MessageInitShape, Registry } from "@bufbuild/protobuf";
import {
  BAD_REQUEST_TYPE,
  ERROR_DOMAIN,
  ERROR_INFO_TYPE,
  type A2AError,
  type ErrorRegistry,
  type FieldViolation,
} from "../errors/a2a-error.js";
import { requestMessage, type ClientOptions } from "./call-options.js";
import {
  findMissingFields,
  type FieldRule,
  type RequirementTable,
} from "../pipeline/required-fields.js";
import { mergeRegistries } from "../protojson/type-registry.js";

/**
 * What the generated clients hand their transport besides the error registry.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export interface ClientServiceTables {
  /** The service's REQUIRED table (`<Service>RequiredFields`): requests are checked against it before sending. */
  readonly requestFields?: RequirementTable | undefined;
  /** The generated type registry (Any, extensions in ProtoJSON), merged with the client's `registry` option. */
  readonly registry?: Registry | undefined;
}

/**
 * A transport's resolved request checks and registry, made once when the client is created.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export interface ClientRequestSettings {
  readonly presence: RequirementTable | undefined;
  readonly registry: Registry | undefined;
  readonly errors: ErrorRegistry;
}

/**
 * Resolves the tables of a client once: the presence rules of the REQUIRED table, the merged registry.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function clientRequestSettings(
  errors: ErrorRegistry,
  tables: ClientServiceTables | undefined,
  own: Registry | undefined,
): ClientRequestSettings {
  return {
    presence: presenceRules(tables?.requestFields),
    registry: mergeRegistries(tables?.registry, own),
    errors,
  };
}

/**
 * The request message of a call, created and checked; throws the InvalidParamsError the servers answer it with.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function checkedRequestMessage(
  settings: ClientRequestSettings,
  schema: DescMessage,
  init: MessageInitShape<DescMessage>,
  client: ClientOptions,
): Message {
  const message = requestMessage(schema, init, client);
  if (settings.presence === undefined) return message;
  const violations = findMissingFields(settings.presence, schema.typeName, message);
  if (violations.length > 0)
    throw invalidParamsError(
      settings.errors,
      violations.map((v) => v.description).join("; "),
      violations,
    );
  return message;
}

/**
 * The generated InvalidParamsError for a request a client refuses before sending, with the ErrorInfo
 * and, when there are any, the field violations (google.rpc.BadRequest) a server would send.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function invalidParamsError(
  errors: ErrorRegistry,
  description: string,
  violations: readonly FieldViolation[],
): A2AError {
  const details: object[] = [
    { "@type": ERROR_INFO_TYPE, reason: "INVALID_PARAMS", domain: ERROR_DOMAIN },
  ];
  if (violations.length > 0)
    details.push({ "@type": BAD_REQUEST_TYPE, fieldViolations: violations });
  return errors.fromHttpError(400, {
    error: {
      code: 400,
      status: "INVALID_ARGUMENT",
      message: `Invalid parameters: ${description}`,
      details,
    },
  });
}

/** A rule without its range (min, max). */
function withoutRange(rule: FieldRule): FieldRule {
  if (rule.min === undefined && rule.max === undefined) return rule;
  const copy: { -readonly [K in keyof FieldRule]: FieldRule[K] } = { ...rule };
  delete copy.min;
  delete copy.max;
  return copy;
}

/** The table without its ranges: what is set, not what it is set to. */
function presenceRules(table: RequirementTable | undefined): RequirementTable | undefined {
  if (table === undefined) return undefined;
  const out: Record<string, RequirementTable[string]> = {};
  for (const [typeName, rules] of Object.entries(table)) {
    out[typeName] = rules
      .filter((r) => r.check !== undefined || r.nested !== undefined)
      .map(withoutRange);
  }
  return out;
}
