// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * HTTP+JSON request mapping (spec §11.5, google.api.http transcoding): how a request
 * message is spread over path variables, query parameters and the JSON body, both
 * ways: the server assembles the ProtoJSON request from them, the client splits it.
 */
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import type { Route } from "../route-matcher.js";

/** How a top-level request field travels in a query string. */
export type QueryKind = "string" | "bytes" | "bool" | "int" | "int64" | "float" | "enum" | "timestamp" | "duration" | "message";

/** A top-level request field (precompiled by the plugin). */
export interface RestField {
  /** Proto name, "task_id". */
  readonly name: string;
  /** ProtoJSON name, "taskId". */
  readonly json: string;
  readonly kind: QueryKind;
  readonly repeated?: true;
}

/** The top-level fields of an operation's request. */
export interface RestRequestShape {
  readonly fields: readonly RestField[];
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
 * whole message, for `body: "field"` that field), the query (only for routes without
 * a body) and the path variables. A value given both in the path and elsewhere must
 * agree (a tenant in the body that differs from the path's is an error, not silently
 * overridden).
 */
export function assembleRequest(route: Route, shape: RestRequestShape, params: Readonly<Record<string, string>>, query: string, body: JsonValue | undefined): JsonObject {
  let json: JsonObject;
  if (route.body === "*") {
    json = body === undefined ? {} : asObject(body, "the request body");
  } else if (route.body !== "") {
    const field = fieldByName(shape, route.body);
    json = {};
    if (body !== undefined && field !== undefined) json[field.json] = body;
  } else {
    json = {};
  }
  readQuery(route, shape, params, query, json);
  for (const variable of route.pattern.variables) {
    const value = params[variable.field];
    if (value === undefined) continue;
    setPathField(shape, json, variable.field, value);
  }
  return json;
}

function readQuery(route: Route, shape: RestRequestShape, params: Readonly<Record<string, string>>, query: string, json: JsonObject): void {
  if (query === "") return;
  const seen = new Set<string>();
  for (const pair of query.split("&")) {
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    const rawKey = eq < 0 ? pair : pair.slice(0, eq);
    const key = decodeComponent(rawKey, "query parameter name");
    const rawValue = eq < 0 ? "" : pair.slice(eq + 1);
    if (SERVICE_QUERY_PARAMETERS.has(key.toLowerCase())) continue;
    if (route.body !== "") {
      throw new RestRequestError(`query parameter ${key} is not allowed: ${route.method} ${route.template} takes its fields in the JSON body`);
    }
    const field = shape.fields.find((f) => f.json === key || f.name === key);
    if (field === undefined) throw new RestRequestError(`unknown query parameter ${key}`);
    if (route.pattern.variables.some((v) => v.field === field.name)) {
      // The path has it; the same value again is harmless, a different one is a client error.
      const inPath = params[field.name];
      const given = decodeComponent(rawValue, `query parameter ${key}`);
      if (given === inPath) continue;
      throw new RestRequestError(`query parameter ${key} ${JSON.stringify(given)} disagrees with ${JSON.stringify(inPath ?? "")} in the path of ${route.template}`);
    }
    if (field.kind === "message") {
      throw new RestRequestError(`query parameter ${key}: ${field.json} is a message field; nested objects are not supported in queries, use POST (spec §11.5)`);
    }
    if (field.repeated === true) {
      // Only a literal "," separates list items; an encoded one (%2C) is data.
      const list = (json[field.json] as JsonValue[] | undefined) ?? [];
      for (const item of rawValue.split(",")) list.push(queryValue(field, key, decodeComponent(item, `query parameter ${key}`)));
      json[field.json] = list;
    } else {
      if (seen.has(field.name)) throw new RestRequestError(`query parameter ${key} is given more than once`);
      seen.add(field.name);
      json[field.json] = queryValue(field, key, decodeComponent(rawValue, `query parameter ${key}`));
    }
  }
}

/** Converts one query value to its ProtoJSON form; ProtoJSON decoding then checks ranges and enum names. */
function queryValue(field: RestField, key: string, value: string): JsonValue {
  switch (field.kind) {
    case "bool":
      if (value === "true") return true;
      if (value === "false") return false;
      throw new RestRequestError(`query parameter ${key} must be true or false, got ${JSON.stringify(value)}`);
    case "int":
      if (!/^-?\d{1,10}$/.test(value)) throw new RestRequestError(`query parameter ${key} must be an integer, got ${JSON.stringify(value)}`);
      return Number(value);
    case "int64":
      if (!/^-?\d{1,20}$/.test(value)) throw new RestRequestError(`query parameter ${key} must be an integer, got ${JSON.stringify(value)}`);
      return value;
    case "float":
      // ProtoJSON spells the non-finite values as strings; pass them on for the decoder.
      if (value === "NaN" || value === "Infinity" || value === "-Infinity") return value;
      if (value.trim() === "" || !Number.isFinite(Number(value))) throw new RestRequestError(`query parameter ${key} must be a number, got ${JSON.stringify(value)}`);
      return Number(value);
    case "enum":
      return /^\d+$/.test(value) ? Number(value) : value;
    default:
      return value;
  }
}

function setPathField(shape: RestRequestShape, json: JsonObject, path: string, value: string): void {
  const names = path.split(".");
  if (names.length > 1) {
    // Nested path variables ({parent.name}): descend by proto names, which ProtoJSON accepts.
    let target: JsonObject = json;
    for (const name of names.slice(0, -1)) {
      const next = target[name];
      target = (target[name] = typeof next === "object" && next !== null && !Array.isArray(next) ? next : {}) as JsonObject;
    }
    target[names[names.length - 1]!] = value;
    return;
  }
  const field = fieldByName(shape, path);
  const key = field?.json ?? path;
  const existing = json[key] ?? (field !== undefined ? json[field.name] : undefined);
  if (existing !== undefined && existing !== "" && existing !== value) {
    throw new RestRequestError(`${key} ${JSON.stringify(existing)} in the request disagrees with ${JSON.stringify(value)} in the path`);
  }
  if (field !== undefined && field.name !== key) delete json[field.name];
  json[key] = value;
}

function fieldByName(shape: RestRequestShape, name: string): RestField | undefined {
  return shape.fields.find((f) => f.name === name);
}

function asObject(value: JsonValue, what: string): JsonObject {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new RestRequestError(`${what} must be a JSON object`);
  return value;
}

function decodeComponent(raw: string, what: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, " "));
  } catch {
    throw new RestRequestError(`${what} is not valid percent-encoding`);
  }
}

/**
 * Client side: the path of a route for a request in ProtoJSON form, each variable
 * percent-encoded (a one-segment variable encodes "/" and ":" too, so an id can never
 * be mistaken for a custom verb). Throws when a path field is empty.
 */
export function expandPath(route: Route, shape: RestRequestShape, json: JsonObject, literals?: ReadonlySet<string>): string {
  const segments = route.pattern.segments.slice();
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
    const field = fieldByName(shape, variable.field);
    const value = json[field?.json ?? variable.field];
    if (typeof value !== "string" || value === "") {
      throw new RestRequestError(`${field?.json ?? variable.field} is required to build the path ${route.template}`, field?.json ?? variable.field);
    }
    const end = variable.end < 0 ? segments.length : variable.end;
    const single = end - variable.start === 1 && segments[variable.start] === "*";
    const parts = single ? [value] : value.split("/");
    if (parts.some((p) => p === "." || p === "..")) {
      // URL parsing would remove a dot segment (even "%2E"), sending the request elsewhere.
      throw new RestRequestError(`${field?.json ?? variable.field} ${JSON.stringify(value)} cannot be sent in a URL path`, field?.json ?? variable.field);
    }
    out.push(parts.map((p) => encodeSegment(p, literals)).join("/"));
    i = end;
  }
  const path = "/" + out.join("/");
  return route.pattern.verb === undefined ? path : `${path}:${route.pattern.verb}`;
}

/** Client side: the query string (without "?") for the fields of `json` not bound by the path. */
export function buildQuery(route: Route, shape: RestRequestShape, json: JsonObject): string {
  const parts: string[] = [];
  for (const field of shape.fields) {
    if (route.pattern.variables.some((v) => v.field === field.name)) continue;
    const value = json[field.json];
    if (value === undefined || value === null) continue;
    if (field.kind === "message" || (typeof value === "object" && !Array.isArray(value))) {
      throw new RestRequestError(`${field.json} cannot be sent in a query string: ${route.method} ${route.template} takes no body`, field.json);
    }
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) parts.push(`${encodeURIComponent(field.json)}=${encodeURIComponent(String(v))}`);
  }
  return parts.join("&");
}

/** Client side: the JSON body of a `body: "*"` route: the request minus its path-bound fields. */
export function bodyWithoutPathFields(route: Route, shape: RestRequestShape, json: JsonObject): JsonObject {
  if (route.pattern.variables.length === 0) return json;
  const out: JsonObject = { ...json };
  for (const v of route.pattern.variables) delete out[fieldByName(shape, v.field)?.json ?? v.field];
  return out;
}

/**
 * Percent-encodes a path value. A value spelled like a literal segment of the route
 * table ("tasks") gets its first character encoded ("%74asks"): the matcher compares
 * literals with the raw segment and decodes variables, so the value cannot be taken
 * for the literal and reach another operation.
 */
function encodeSegment(value: string, literals?: ReadonlySet<string>): string {
  const encoded = encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  if (literals === undefined || !literals.has(encoded)) return encoded;
  return `%${encoded.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}${encoded.slice(1)}`;
}

/** The literal segments of a route table (verbs stripped), for expandPath. */
export function routeLiterals(routes: readonly Route[]): ReadonlySet<string> {
  const out = new Set<string>();
  for (const route of routes) for (const s of route.pattern.segments) if (s !== "*" && s !== "**") out.add(s);
  return out;
}
