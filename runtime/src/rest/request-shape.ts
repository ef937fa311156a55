// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * HTTP+JSON request mapping (spec §11.5, google.api.http transcoding): how a request
 * message is spread over path variables, query parameters and the JSON body, both
 * ways: the server assembles the ProtoJSON request from them, the client splits it.
 */
import { clipped, quoted } from "../client/input.js";
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import type { Route } from "./route-matcher.js";
import { ownEntry, ownJsonValue, setOwnJsonValue } from "../protojson/own-json.js";

/** How a top-level request field travels in a query string. */
export type QueryKind =
  | "string"
  | "bytes"
  | "bool"
  | "int"
  | "int64"
  | "float"
  | "enum"
  | "timestamp"
  | "duration"
  | "message";

/** A request field (precompiled by the plugin): top-level, or inside a message field that travels as dotted query keys. */
export interface RestField {
  /** Proto name, "task_id". */
  readonly name: string;
  /** ProtoJSON name, "taskId". */
  readonly json: string;
  readonly kind: QueryKind;
  readonly repeated?: true;
  /**
   * For a singular message field of a request that has a query: its own fields, so that its
   * scalars travel as dotted query keys (`page.size=3`, google.api.http). Absent: the field
   * cannot be sent in a query.
   */
  readonly fields?: readonly RestField[];
}

/**
 * A path variable's field, when it is not a top-level string field: the proto and ProtoJSON
 * name of each step ("book.name" → ["book", "name"]), the leaf's kind, and the value the path
 * carries when ProtoJSON leaves the field out at its zero value ("0", "false", the enum's zero name).
 */
export interface RestPathField {
  readonly names: readonly string[];
  readonly json: readonly string[];
  readonly kind: QueryKind;
  readonly zero?: string;
}

/** The fields of an operation's request. */
export interface RestRequestShape {
  /** The top-level fields. */
  readonly fields: readonly RestField[];
  /** Path variables (by field path, "book.name") that are not top-level string fields. */
  readonly paths?: Readonly<Record<string, RestPathField>>;
}

/** A request that cannot be assembled: the message names the parameter or field. */
export class RestRequestError extends Error {
  override name = "RestRequestError";
  /** The request field at fault (ProtoJSON name), when there is one: the field violation the client reports. */
  readonly field: string | undefined;

  constructor(message: string, field?: string) {
    super(message);
    this.field = field;
  }
}

/** Reserved query parameter names that are service parameters, not request fields (§3.6.1). */
const SERVICE_QUERY_PARAMETERS = new Set(["a2a-version"]);

/**
 * Assembles the ProtoJSON form of a request from the JSON body (for `body: "*"` the
 * whole message, for `body: "field"` that field), the query (for routes without a body
 * and, for `body: "field"`, the fields outside the body and the path) and the path
 * variables, each decoded per its field's type. A value given both in the path and
 * elsewhere must agree (a tenant in the body that differs from the path's is an error,
 * not silently overridden).
 */
export function assembleRequest(
  route: Route,
  shape: RestRequestShape,
  params: Readonly<Record<string, string>>,
  query: string,
  body: JsonValue | undefined,
): JsonObject {
  let json: JsonObject;
  if (route.body === "*") {
    json = body === undefined ? {} : asObject(body, "the request body");
  } else if (route.body !== "") {
    const field = fieldByName(shape, route.body);
    json = {};
    if (body !== undefined && field !== undefined) setOwnJsonValue(json, field.json, body);
  } else {
    json = {};
  }
  readQuery(route, shape, params, query, json);
  for (const variable of route.pattern.variables) {
    const value = ownEntry(params, variable.field);
    if (value === undefined) continue;
    setPathField(pathFieldOf(shape, variable.field), json, variable.field, value);
  }
  return json;
}

/** A query key resolved to a field: the fields along the way, outermost first. */
function resolveQueryKey(shape: RestRequestShape, key: string): RestField[] | undefined {
  const top = shape.fields.find((f) => f.json === key || f.name === key);
  if (top !== undefined) return [top];
  if (key.indexOf(".") < 0) return undefined;
  // Dotted keys name scalars of nested messages ("page.size"), by JSON or proto names.
  const steps: RestField[] = [];
  let fields: readonly RestField[] | undefined = shape.fields;
  for (const part of key.split(".")) {
    const field: RestField | undefined = fields?.find((f) => f.json === part || f.name === part);
    if (field === undefined) return undefined;
    steps.push(field);
    fields = field.repeated === true ? undefined : field.fields;
  }
  return steps;
}

function readQuery(
  route: Route,
  shape: RestRequestShape,
  params: Readonly<Record<string, string>>,
  query: string,
  json: JsonObject,
): void {
  if (query === "") return;
  const seen = new Set<string>();
  for (const pair of query.split("&")) {
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    const rawKey = eq < 0 ? pair : pair.slice(0, eq);
    const key = decodeComponent(rawKey, "query parameter name");
    const rawValue = eq < 0 ? "" : pair.slice(eq + 1);
    if (SERVICE_QUERY_PARAMETERS.has(key.toLowerCase())) continue;
    if (route.body === "*") {
      throw new RestRequestError(
        `query parameter ${key} is not allowed: ${route.method} ${route.template} takes its fields in the JSON body`,
      );
    }
    const steps = resolveQueryKey(shape, key);
    if (steps === undefined) throw new RestRequestError(`unknown query parameter ${clipped(key)}`);
    const field = steps[steps.length - 1]!;
    const protoPath = steps.map((f) => f.name).join(".");
    if (route.body !== "" && steps[0]!.name === route.body) {
      throw new RestRequestError(
        `query parameter ${key} is not allowed: ${route.method} ${route.template} takes ${route.body} in the JSON body`,
      );
    }
    if (route.pattern.variables.some((v) => v.field === protoPath)) {
      // The path has it; the same value again is harmless, a different one is a client error.
      const inPath = ownEntry(params, protoPath);
      const given = decodeComponent(rawValue, `query parameter ${key}`);
      if (given === inPath) continue;
      throw new RestRequestError(
        `query parameter ${key} ${quoted(given)} disagrees with ${quoted(inPath ?? "")} in the path of ${route.template}`,
      );
    }
    if (field.kind === "message") {
      // `key=` (no value) sets a message field to its empty message (a oneof's empty member): what the client sends for one.
      if (rawValue === "" && field.repeated !== true) {
        descend(json, steps, key);
        continue;
      }
      throw new RestRequestError(
        `query parameter ${key}: ${steps.map((f) => f.json).join(".")} is a message field; nested objects are not supported in queries, use POST (spec §11.5)`,
      );
    }
    const target = descend(json, steps.slice(0, -1), key);
    const what = `query parameter ${key}`;
    if (field.repeated === true) {
      // Only a literal "," separates list items; an encoded one (%2C) is data.
      const existing = ownJsonValue(target, field.json);
      const list = Array.isArray(existing) ? existing : [];
      for (const item of rawValue.split(","))
        list.push(scalarValue(field.kind, what, decodeComponent(item, what)));
      setOwnJsonValue(target, field.json, list);
    } else {
      if (seen.has(protoPath))
        throw new RestRequestError(`query parameter ${clipped(key)} is given more than once`);
      seen.add(protoPath);
      setOwnJsonValue(
        target,
        field.json,
        scalarValue(field.kind, what, decodeComponent(rawValue, what)),
      );
    }
  }
}

/** The object at the end of the message steps (created on the way), by ProtoJSON names. */
function descend(
  json: JsonObject,
  steps: readonly { readonly name: string; readonly json: string }[],
  what: string,
): JsonObject {
  let target = json;
  for (const step of steps) {
    let next = ownJsonValue(target, step.json);
    if (
      next === undefined &&
      step.name !== step.json &&
      ownJsonValue(target, step.name) !== undefined
    ) {
      // Given under its proto name (ProtoJSON accepts both): keep one spelling only.
      next = ownJsonValue(target, step.name);
      delete target[step.name];
    }
    if (next === undefined || next === null) next = {};
    if (typeof next !== "object" || Array.isArray(next))
      throw new RestRequestError(`${what}: ${step.json} in the request must be a JSON object`);
    setOwnJsonValue(target, step.json, next);
    target = next;
  }
  return target;
}

/**
 * Converts one query or path value to its ProtoJSON form (proto3 JSON: "true"/"false",
 * decimal integers, enum names or numbers); ProtoJSON decoding then checks ranges and enum names.
 */
function scalarValue(kind: QueryKind, what: string, value: string): JsonValue {
  switch (kind) {
    case "bool":
      if (value === "true") return true;
      if (value === "false") return false;
      throw new RestRequestError(`${what} must be true or false, got ${quoted(value)}`);
    case "int":
      if (!/^-?\d{1,10}$/.test(value))
        throw new RestRequestError(`${what} must be an integer, got ${quoted(value)}`);
      return Number(value);
    case "int64":
      if (!/^-?\d{1,20}$/.test(value))
        throw new RestRequestError(`${what} must be an integer, got ${quoted(value)}`);
      return value;
    case "float":
      // ProtoJSON spells the non-finite values as strings; pass them on for the decoder.
      if (value === "NaN" || value === "Infinity" || value === "-Infinity") return value;
      if (value.trim() === "" || !Number.isFinite(Number(value)))
        throw new RestRequestError(`${what} must be a number, got ${quoted(value)}`);
      return Number(value);
    case "enum":
      return /^\d+$/.test(value) ? Number(value) : value;
    default:
      return value;
  }
}

/** How a path variable's field is reached: precompiled when nested or not a string, else the top-level field. */
function pathFieldOf(shape: RestRequestShape, path: string): RestPathField {
  const precompiled = ownEntry(shape.paths, path);
  if (precompiled !== undefined) return precompiled;
  const field = fieldByName(shape, path);
  if (field !== undefined) return { names: [field.name], json: [field.json], kind: field.kind };
  const names = path.split(".");
  return { names, json: names, kind: "string" };
}

function setPathField(info: RestPathField, json: JsonObject, path: string, raw: string): void {
  const jsonPath = info.json.join(".");
  const value =
    info.kind === "string" ? raw : scalarValue(info.kind, `path variable ${jsonPath}`, raw);
  const steps = info.names.slice(0, -1).map((name, i) => ({ name, json: info.json[i]! }));
  const target = descend(json, steps, `path variable ${path}`);
  const name = info.names[info.names.length - 1]!;
  const key = info.json[info.json.length - 1]!;
  const existing = ownJsonValue(target, key) ?? ownJsonValue(target, name);
  if (
    existing !== undefined &&
    existing !== "" &&
    (info.kind === "string"
      ? existing !== value
      : existing === null || String(existing) !== String(value))
  ) {
    throw new RestRequestError(
      `${jsonPath} ${JSON.stringify(existing)} in the request disagrees with ${JSON.stringify(value)} in the path`,
    );
  }
  if (name !== key) delete target[name];
  setOwnJsonValue(target, key, value);
}

function fieldByName(shape: RestRequestShape, name: string): RestField | undefined {
  return shape.fields.find((f) => f.name === name);
}

function asObject(value: JsonValue, what: string): JsonObject {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new RestRequestError(`${what} must be a JSON object`);
  return value;
}

function decodeComponent(raw: string, what: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, " "));
  } catch {
    throw new RestRequestError(`${what} is not valid percent-encoding`);
  }
}

/** The value at a JSON path, or undefined. */
function jsonAt(json: JsonObject, path: readonly string[]): JsonValue | undefined {
  let value: JsonValue | undefined = json;
  for (const key of path) {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
    value = ownJsonValue(value, key);
  }
  return value;
}

/** A path variable's value as the path spells it, or undefined when it cannot be sent. */
function pathText(info: RestPathField, value: JsonValue | undefined): string | undefined {
  if (value === undefined || value === null) return info.zero;
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
    return String(value);
  return undefined;
}

/**
 * Client side: the path of a route for a request in ProtoJSON form. A one-segment variable
 * (`{id}`) is percent-encoded whole ("/" and ":" too, so an id can never be mistaken for a
 * custom verb); a multi-segment one (`{name=shelves/*\/books/*}`, `{name=operations/**}`)
 * must fit its template: its literals are sent as they are, each segment a wildcard takes
 * is encoded. Throws when a path field is empty or does not fit.
 */
export function expandPath(
  route: Route,
  shape: RestRequestShape,
  json: JsonObject,
  literals?: ReadonlySet<string>,
): string {
  const segments = route.pattern.segments;
  const vars = route.pattern.variables;
  const out: string[] = [];
  let i = 0;
  while (i < segments.length) {
    const variable = vars.find((v) => v.start === i);
    if (variable === undefined) {
      out.push(segments[i]!);
      i++;
      continue;
    }
    const info = pathFieldOf(shape, variable.field);
    const name = info.json.join(".");
    const value = pathText(info, jsonAt(json, info.json));
    if (value === undefined || value === "") {
      throw new RestRequestError(`${name} is required to build the path ${route.template}`, name);
    }
    const end = variable.end < 0 ? segments.length : variable.end;
    const template = segments.slice(variable.start, end);
    if (template.length === 1 && template[0] === "*") {
      if (value === "." || value === "..") throw dotSegment(name, value);
      out.push(encodeSegment(value, literals));
    } else {
      out.push(fitTemplate(template, value, name, route.template, literals));
    }
    i = end;
  }
  const path = "/" + out.join("/");
  return route.pattern.verb === undefined ? path : `${path}:${route.pattern.verb}`;
}

function dotSegment(name: string, value: string): RestRequestError {
  // URL parsing would remove a dot segment (even "%2E"), sending the request elsewhere.
  return new RestRequestError(
    `${name} ${JSON.stringify(value)} cannot be sent in a URL path`,
    name,
  );
}

/**
 * A multi-segment value against its variable's segment template: the encoded path segments, or a
 * RestRequestError. A "**" (at most one) takes the value's parts that the segments before and
 * after it leave (zero or more), so `{parent=a/*\/**\/b}` fits "a/x/b" and "a/x/y/z/b".
 */
function fitTemplate(
  template: readonly string[],
  value: string,
  name: string,
  routeTemplate: string,
  literals: ReadonlySet<string> | undefined,
): string {
  const parts = value.split("/");
  const deep = template.indexOf("**");
  const after = deep < 0 ? 0 : template.length - deep - 1;
  const out: string[] = [];
  let fits = deep < 0 ? parts.length === template.length : parts.length >= template.length - 1;
  for (let p = 0; p < parts.length && fits; p++) {
    const part = parts[p]!;
    // The template segment this part fits: before "**" by position, after it from the end, else "**" itself.
    const t =
      deep < 0 || p < deep
        ? p
        : p >= parts.length - after
          ? template.length - (parts.length - p)
          : deep;
    const segment = template[t]!;
    if (segment === "*" || segment === "**") {
      if (part === "") fits = false;
      else if (part === "." || part === "..") throw dotSegment(name, value);
      else out.push(encodeSegment(part, literals));
    } else if (part === literalText(segment)) out.push(segment);
    else fits = false;
  }
  if (!fits)
    throw new RestRequestError(
      `${name} ${JSON.stringify(value)} does not match ${template.join("/")} in the path ${routeTemplate}`,
      name,
    );
  return out.join("/");
}

/** A template literal as a value spells it (literals may hold percent-escapes). */
function literalText(segment: string): string {
  if (segment.indexOf("%") < 0) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Client side: the query string (without "?") for the fields of `json` that neither the path
 * nor the body carries; singular message fields with precompiled fields travel as dotted
 * keys (`page.size=3`).
 */
export function buildQuery(route: Route, shape: RestRequestShape, json: JsonObject): string {
  const parts: string[] = [];
  const bound = new Set(route.pattern.variables.map((v) => v.field));
  const visit = (
    fields: readonly RestField[],
    object: JsonObject,
    jsonPrefix: string,
    protoPrefix: string,
  ): void => {
    for (const field of fields) {
      const protoPath = protoPrefix + field.name;
      if (bound.has(protoPath)) continue;
      if (protoPrefix === "" && route.body !== "" && field.name === route.body) continue;
      const value = ownJsonValue(object, field.json);
      if (value === undefined || value === null) continue;
      const key = jsonPrefix + field.json;
      if (field.kind === "message" || (typeof value === "object" && !Array.isArray(value))) {
        if (
          field.fields !== undefined &&
          field.repeated !== true &&
          typeof value === "object" &&
          !Array.isArray(value)
        ) {
          const before = parts.length;
          visit(field.fields, value, `${key}.`, `${protoPath}.`);
          // A set message none of whose fields is (a oneof's empty member) still travels: `key=` sets it, empty.
          if (parts.length === before) parts.push(`${encodeURIComponent(key)}=`);
          continue;
        }
        throw new RestRequestError(
          `${key} cannot be sent in a query string: ${route.method} ${route.template} takes ${route.body === "" ? "no body" : `only ${route.body} in its body`}`,
          key,
        );
      }
      const values = Array.isArray(value) ? value : [value];
      for (const v of values)
        parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(v))}`);
    }
  };
  visit(shape.fields, json, "", "");
  return parts.join("&");
}

/** Client side: the JSON body of a `body: "*"` route: the request minus its path-bound fields. */
export function bodyWithoutPathFields(
  route: Route,
  shape: RestRequestShape,
  json: JsonObject,
): JsonObject {
  if (route.pattern.variables.length === 0) return json;
  const out: JsonObject = { ...json };
  for (const v of route.pattern.variables) {
    const path = pathFieldOf(shape, v.field).json;
    let target = out;
    for (const key of path.slice(0, -1)) {
      const next = ownJsonValue(target, key);
      if (typeof next !== "object" || next === null || Array.isArray(next)) {
        target = {};
        break;
      }
      const copy: JsonObject = { ...next };
      setOwnJsonValue(target, key, copy);
      target = copy;
    }
    delete target[path[path.length - 1]!];
  }
  return out;
}

/**
 * Percent-encodes a path value. A value spelled like a literal segment of the route
 * table ("tasks") gets its first character encoded ("%74asks"): the matcher compares
 * literals with the raw segment and decodes variables, so the value cannot be taken
 * for the literal and reach another operation. Only for what a wildcard takes: the
 * literals of a variable's own template are sent as they are.
 */
function encodeSegment(value: string, literals?: ReadonlySet<string>): string {
  const encoded = encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  if (literals === undefined || !literals.has(encoded)) return encoded;
  return `%${encoded.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}${encoded.slice(1)}`;
}

/** The literal segments of a route table (verbs stripped), for expandPath. */
export function routeLiterals(routes: readonly Route[]): ReadonlySet<string> {
  const out = new Set<string>();
  for (const route of routes)
    for (const s of route.pattern.segments) if (s !== "*" && s !== "**") out.add(s);
  return out;
}
