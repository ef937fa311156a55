// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import { getOption, hasOption, type DescField, type DescMessage, type DescMethod } from "@bufbuild/protobuf";
import { http } from "../gen/google/api/annotations_pb.js";
import type { HttpRule } from "../gen/google/api/http_pb.js";
import type { PluginOptions } from "../options.js";
import { generationError, type ErrorLocation } from "../generation-error.js";
import { HttpTemplateError, parseHttpTemplate } from "./http-template.js";
import { v03BindingErrata } from "./a2a-v0-3.js";
import type { CompiledPattern } from "../../../runtime/src/route-matcher.js";

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

/** Reads, validates and compiles the google.api.http bindings of one method. */
export function buildHttpBindings(where: ErrorLocation, method: DescMethod, options: PluginOptions): HttpBinding[] {
  if (!hasOption(method, http)) return [];
  const rule = getOption(method, http);
  const at = { ...where, option: "google.api.http" };
  const bindings = [readRule(at, method.input, rule, "rule")];
  for (const additional of rule.additionalBindings) {
    if (additional.additionalBindings.length > 0) {
      throw generationError(at, "additional_bindings must not contain additional_bindings");
    }
    bindings.push(readRule(at, method.input, additional, "additional"));
  }
  for (const erratum of v03BindingErrata(method)) {
    const wrong = bindings.find((b) => b.template === erratum.from);
    if (wrong !== undefined) bindings.push(readRule(at, method.input, { ...rule, pattern: { case: "post", value: erratum.to }, additionalBindings: [] } as HttpRule, "erratum"));
  }
  if (options.subscribePost && postAliasedRpcs.has(method.name)) {
    for (const b of [...bindings]) {
      if (b.method === "GET" && !bindings.some((o) => o.method === "POST" && o.template === b.template)) {
        bindings.push({ ...b, method: "POST", body: "*", origin: "spec-alias" });
      }
    }
  }
  return bindings;
}

function readRule(at: ErrorLocation, input: DescMessage, rule: HttpRule, origin: HttpBindingOrigin): HttpBinding {
  const { method, template } = ruleMethodAndTemplate(at, rule);
  let pattern: CompiledPattern;
  try {
    pattern = parseHttpTemplate(template);
  } catch (e) {
    if (e instanceof HttpTemplateError) throw generationError(at, e.message);
    throw e;
  }
  if (rule.responseBody !== "") {
    throw generationError(at, `response_body "${rule.responseBody}" is not supported: A2A responses are whole messages`);
  }
  if (rule.body !== "" && (method === "GET" || method === "DELETE")) {
    throw generationError(at, `${method} "${template}" must not have a body (body: "${rule.body}")`);
  }
  if (rule.body !== "" && rule.body !== "*") {
    const field = input.fields.find((f) => f.name === rule.body);
    if (field === undefined) {
      throw generationError(at, `body "${rule.body}" names no field of ${input.typeName}`);
    }
    if (field.fieldKind !== "message") {
      throw generationError(at, `body "${rule.body}" must be a singular message field of ${input.typeName}`);
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

function ruleMethodAndTemplate(at: ErrorLocation, rule: HttpRule): { method: string; template: string } {
  const p = rule.pattern;
  switch (p.case) {
    case "get":
    case "put":
    case "post":
    case "delete":
    case "patch":
      return { method: p.case.toUpperCase(), template: p.value };
    case "custom":
      if (!/^[A-Za-z]+$/.test(p.value.kind)) {
        throw generationError(at, `custom pattern kind "${p.value.kind}" is not an HTTP method name`);
      }
      return { method: p.value.kind.toUpperCase(), template: p.value.path };
    case undefined:
      throw generationError(at, "the rule has no pattern (get, put, post, delete, patch or custom)");
  }
}

/** Resolves "a.b.c" through the request message: every step a singular field, the last a scalar or enum. */
function resolveFieldPath(at: ErrorLocation, input: DescMessage, template: string, fieldPath: string): DescField[] {
  const path: DescField[] = [];
  let message: DescMessage | undefined = input;
  const names = fieldPath.split(".");
  for (const [i, name] of names.entries()) {
    const field: DescField | undefined = message?.fields.find((f) => f.name === name);
    if (message === undefined || field === undefined) {
      throw generationError(at, `path variable {${fieldPath}} in "${template}" names no field: ${message?.typeName ?? "?"} has no field "${name}"`);
    }
    path.push(field);
    const last = i === names.length - 1;
    if (last) {
      if (field.fieldKind !== "scalar" && field.fieldKind !== "enum") {
        throw generationError(at, `path variable {${fieldPath}} in "${template}" must be a singular scalar or enum field, not a ${field.fieldKind} field`);
      }
    } else {
      if (field.fieldKind !== "message") {
        throw generationError(at, `path variable {${fieldPath}} in "${template}": "${name}" is not a singular message field`);
      }
      message = field.message;
    }
  }
  return path;
}
