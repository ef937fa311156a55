// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import {
  getOption,
  hasOption,
  type DescField,
  type DescMessage,
  type DescMethod,
} from "@bufbuild/protobuf";
import { http } from "../gen/google/api/annotations_pb.js";
import type { HttpRule } from "../gen/google/api/http_pb.js";
import type { PluginOptions } from "../options.js";
import {
  GenerationError,
  generationError,
  locationPrefix,
  type ErrorLocation,
} from "../generation-error.js";
import { notice } from "../notices.js";
import { HttpTemplateError, parseHttpTemplate } from "./http-template.js";
import { v03BindingErrata } from "./a2a-v0-3.js";
import type { CompiledPattern } from "../../../runtime/src/rest/route-matcher.js";

/** Where a binding comes from. */
export type HttpBindingOrigin =
  /** The `google.api.http` rule itself. */
  | "rule"
  /** One of its `additional_bindings` (in a2a.proto: the `/{tenant}/…` forms). */
  | "additional"
  /**
   * Added for the spec text: POST twins of SubscribeToTask (spec §5.3/§11.3.2 say POST, the proto says GET;
   * 0.3's TaskSubscription likewise).
   */
  | "spec-alias"
  /** Added where a proto's template is known to be wrong, beside it: A2A 0.3's `task/*` (model/a2a-v0-3.ts). */
  | "erratum";

/** A path variable resolved against the request message. */
export interface BoundVariable {
  /** Proto field path as written in the template ("task_id"). */
  readonly field: string;
  /** The fields along the path, outermost first. */
  readonly path: readonly DescField[];
}

/** One HTTP binding of an operation, with its template compiled at generation time. */
export interface HttpBinding {
  /** Upper-case HTTP method. */
  readonly method: string;
  readonly template: string;
  readonly pattern: CompiledPattern;
  /** `body` of the rule: "" (none), "*" (whole request minus path fields) or a top-level field name. */
  readonly body: string;
  readonly origin: HttpBindingOrigin;
  readonly variables: readonly BoundVariable[];
}

/** RPCs whose GET bindings also answer POST when `subscribe_post` is on. */
const postAliasedRpcs = new Set(["SubscribeToTask", "TaskSubscription"]);

/**
 * Reads, validates and compiles the google.api.http bindings of one method.
 *
 * A rule the HTTP+JSON binding cannot serve fails generation with one line, except:
 * - without `rest` in `bindings` no REST code is emitted, so such a rule is dropped with a
 *   notice (the other bindings do not depend on it);
 * - an HTTP method the binding cannot carry (a `custom` kind other than HEAD, HEAD on an RPC
 *   that answers a body) follows `unsupported_rpcs`, like an RPC no binding carries: `skip`
 *   (the default) drops that rule with a notice naming the kind and the RPC keeps JSON-RPC, gRPC
 *   and its other HTTP rules; `error` fails. A demanding user generating a large third-party
 *   API (googleapis) wants the rest of it generated and this rule reported, not silently routed
 *   to something Node's HTTP parser or `fetch` refuses at run time; CI can insist with `error`.
 */
export function buildHttpBindings(
  where: ErrorLocation,
  method: DescMethod,
  options: PluginOptions,
): HttpBinding[] {
  if (!hasOption(method, http)) return [];
  const rule = getOption(method, http);
  const at = { ...where, option: "google.api.http" };
  if (options.skipHttpRules.has(`${method.parent.typeName}.${method.name}`)) {
    for (const r of [rule, ...rule.additionalBindings]) {
      notice(
        at,
        `HTTP rule ${ruleText(r)} skipped (skip_http_rules): no route, REST client method or OpenAPI operation; the RPC stays on JSON-RPC and gRPC`,
      );
    }
    return [];
  }
  const restEmitted = options.bindings.has("rest");
  /** Runs one rule's check: its binding, or undefined when the rule is dropped with a notice. */
  const keep = <T>(check: () => T): T | undefined => {
    try {
      return check();
    } catch (e) {
      if (!(e instanceof GenerationError)) throw e;
      if (e instanceof UnservableMethodError && options.unsupportedRpcs === "skip") {
        notice(
          at,
          `${e.problem}; this HTTP rule is skipped, the RPC stays on the other bindings (unsupported_rpcs=error fails instead)`,
        );
        return undefined;
      }
      if (restEmitted) throw e;
      const problem = e.message.startsWith(`${locationPrefix(at)}: `)
        ? e.message.slice(locationPrefix(at).length + 2)
        : e.message;
      notice(
        at,
        `HTTP rule ignored, bindings=${[...options.bindings].join("+")} emits no HTTP+JSON code: ${problem}`,
      );
      return undefined;
    }
  };
  const read: HttpBinding[] = [];
  const rules: [HttpRule, HttpBindingOrigin][] = [
    [rule, "rule"],
    ...rule.additionalBindings.map((a): [HttpRule, HttpBindingOrigin] => [a, "additional"]),
  ];
  for (const [r, origin] of rules) {
    const binding = keep(() => {
      if (origin === "additional" && r.additionalBindings.length > 0) {
        throw generationError(at, "additional_bindings must not contain additional_bindings");
      }
      return readRule(at, method, r, origin);
    });
    if (binding !== undefined) read.push(binding);
  }
  const bindings = read.filter(
    (b) => b.method !== "HEAD" || keep(() => checkHeadBinding(at, method, b, read)) !== undefined,
  );
  for (const erratum of v03BindingErrata(method)) {
    const wrong = bindings.find((b) => b.template === erratum.from);
    if (wrong !== undefined)
      bindings.push(
        readRule(
          at,
          method,
          {
            ...rule,
            pattern: { case: "post", value: erratum.to },
            additionalBindings: [],
          } as HttpRule,
          "erratum",
        ),
      );
  }
  if (options.subscribePost && postAliasedRpcs.has(method.name)) {
    for (const b of [...bindings]) {
      if (
        b.method === "GET" &&
        !bindings.some((o) => o.method === "POST" && o.template === b.template)
      ) {
        bindings.push({ ...b, method: "POST", body: "*", origin: "spec-alias" });
      }
    }
  }
  return bindings;
}

/** An HTTP method the HTTP+JSON binding cannot carry (see {@link buildHttpBindings}): skipped or fatal per `unsupported_rpcs`. */
class UnservableMethodError extends GenerationError {
  constructor(
    at: ErrorLocation,
    readonly problem: string,
  ) {
    super(generationError(at, problem).message);
  }
}

function readRule(
  at: ErrorLocation,
  rpc: DescMethod,
  rule: HttpRule,
  origin: HttpBindingOrigin,
): HttpBinding {
  const input = rpc.input;
  const { method, template } = ruleMethodAndTemplate(at, rule);
  if (method === "HEAD" && rule.body !== "") {
    throw new UnservableMethodError(
      at,
      `custom kind "HEAD" ("${template}") must not have a body (body: "${rule.body}"): a HEAD request has none`,
    );
  }
  let pattern: CompiledPattern;
  try {
    pattern = parseHttpTemplate(template);
  } catch (e) {
    if (e instanceof HttpTemplateError) throw generationError(at, e.message);
    throw e;
  }
  if (rule.responseBody !== "") {
    throw generationError(
      at,
      `response_body "${rule.responseBody}" is not supported: the HTTP+JSON binding answers with the whole response message; remove response_body, or leave the RPC's HTTP rules out with skip_http_rules=${rpc.parent.typeName}.${rpc.name} (it stays on JSON-RPC and gRPC)`,
    );
  }
  if (rule.body !== "" && (method === "GET" || method === "DELETE")) {
    throw generationError(
      at,
      `${method} "${template}" must not have a body (body: "${rule.body}")`,
    );
  }
  if (rule.body !== "" && rule.body !== "*") {
    const field = input.fields.find((f) => f.name === rule.body);
    if (field === undefined) {
      throw generationError(at, `body "${rule.body}" names no field of ${input.typeName}`);
    }
    if (field.fieldKind !== "message") {
      throw generationError(
        at,
        `body "${rule.body}" must be a singular message field of ${input.typeName}`,
      );
    }
  }
  const variables = pattern.variables.map(
    (v): BoundVariable => ({
      field: v.field,
      path: resolveFieldPath(at, input, template, v.field),
    }),
  );
  return { method, template, pattern, body: rule.body, origin, variables };
}

function ruleMethodAndTemplate(
  at: ErrorLocation,
  rule: HttpRule,
): { method: string; template: string } {
  const p = rule.pattern;
  switch (p.case) {
    case "get":
    case "put":
    case "post":
    case "delete":
    case "patch":
      return { method: p.case.toUpperCase(), template: p.value };
    case "custom": {
      const kind = p.value.kind;
      if (!/^[A-Za-z]+$/.test(kind)) {
        throw new UnservableMethodError(
          at,
          `custom kind "${kind}" ("${p.value.path}") is not an HTTP method name`,
        );
      }
      const method = kind.toUpperCase();
      if (!CUSTOM_METHODS.has(method)) {
        throw new UnservableMethodError(
          at,
          `custom kind "${kind}" ("${p.value.path}") is not supported: the HTTP+JSON binding serves GET, PUT, POST, DELETE, PATCH and HEAD (Node's HTTP parser, fetch and OpenAPI refuse or cannot describe other methods)`,
        );
      }
      return { method, template: p.value.path };
    }
    case undefined:
      throw generationError(
        at,
        "the rule has no pattern (get, put, post, delete, patch or custom)",
      );
  }
}

/** Resolves "a.b.c" through the request message: every step a singular field, the last a scalar or enum. */
function resolveFieldPath(
  at: ErrorLocation,
  input: DescMessage,
  template: string,
  fieldPath: string,
): DescField[] {
  const path: DescField[] = [];
  let message: DescMessage | undefined = input;
  const names = fieldPath.split(".");
  for (const [i, name] of names.entries()) {
    const field: DescField | undefined = message?.fields.find((f) => f.name === name);
    if (message === undefined || field === undefined) {
      throw generationError(
        at,
        `path variable {${fieldPath}} in "${template}" names no field: ${message?.typeName ?? "?"} has no field "${name}"`,
      );
    }
    path.push(field);
    const last = i === names.length - 1;
    if (last) {
      if (field.fieldKind !== "scalar" && field.fieldKind !== "enum") {
        throw generationError(
          at,
          `path variable {${fieldPath}} in "${template}" must be a singular scalar or enum field, not a ${field.fieldKind} field`,
        );
      }
    } else {
      if (field.fieldKind !== "message") {
        throw generationError(
          at,
          `path variable {${fieldPath}} in "${template}": "${name}" is not a singular message field`,
        );
      }
      message = field.message;
    }
  }
  return path;
}

/** A rule as its author wrote it, for notices: `GET "/v1/{name=…}"`, `custom FOO "/x"`. */
function ruleText(rule: HttpRule): string {
  const p = rule.pattern;
  if (p.case === undefined) return "(no pattern)";
  if (p.case === "custom") return `custom ${p.value.kind} "${p.value.path}"`;
  return `${p.case.toUpperCase()} "${p.value}"`;
}

/** `custom` kinds the HTTP+JSON binding carries: the standard five spelled as custom, and HEAD (see {@link checkHeadRule}). */
const CUSTOM_METHODS: ReadonlySet<string> = new Set([
  "GET",
  "PUT",
  "POST",
  "DELETE",
  "PATCH",
  "HEAD",
]);

/**
 * HEAD answers carry no body (RFC 9110 §9.3.2), so a HEAD binding needs a unary RPC that either
 * returns google.protobuf.Empty (the generated client calls it with HEAD: the status is the answer)
 * or also has a GET binding of the same template (HEAD is then that GET without its body, for
 * curl, caches and link checkers; the generated client calls the GET). Either way it works end
 * to end: route table, server, client, OpenAPI `head` (a 200 without content).
 */
function checkHeadBinding(
  at: ErrorLocation,
  rpc: DescMethod,
  head: HttpBinding,
  siblings: readonly HttpBinding[],
): HttpBinding {
  if (rpc.methodKind !== "unary") {
    throw new UnservableMethodError(
      at,
      `custom kind "HEAD" ("${head.template}") needs a unary RPC: a HEAD answer carries no body, so no event of the stream could reach the client`,
    );
  }
  if (
    rpc.output.typeName === "google.protobuf.Empty" ||
    siblings.some((b) => b.method === "GET" && b.template === head.template)
  )
    return head;
  throw new UnservableMethodError(
    at,
    `custom kind "HEAD" ("${head.template}") needs an RPC returning google.protobuf.Empty or a GET binding of the same path: a HEAD answer carries no body, so ${rpc.output.typeName} could not reach the client`,
  );
}
