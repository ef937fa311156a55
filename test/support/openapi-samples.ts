/**
 * Generic helpers for API description documents (OpenAPI, OpenRPC), knowing nothing of A2A:
 * JSON-pointer `$ref` resolution, a walk over every `$ref` of a document, and a generator of a
 * minimal valid instance of a JSON Schema (the `required` properties only, `minProperties`, the first branch of
 * `anyOf`/`oneOf`, the first `enum` value, `const`, `minItems`, `minLength`, `minimum`,
 * `format: date-time`, and for a `pattern` the first of a few candidate strings it matches).
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type SchemaObject = Record<string, unknown>;

/** Resolves a local reference (`#/a/b~1c`) against `root`; undefined when it does not resolve. */
export function resolvePointer(root: unknown, ref: string): unknown {
  if (!ref.startsWith("#")) return undefined;
  const fragment = decodeURIComponent(ref.slice(1));
  if (fragment === "") return root;
  if (!fragment.startsWith("/")) return undefined;
  let node: unknown = root;
  for (const raw of fragment.slice(1).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** Every `$ref` of a document with the JSON pointer of the object holding it. */
export function collectRefs(doc: unknown): { at: string; ref: string }[] {
  const out: { at: string; ref: string }[] = [];
  const walk = (node: unknown, at: string) => {
    if (Array.isArray(node)) {
      for (const [i, v] of node.entries()) walk(v, `${at}/${i}`);
    } else if (node !== null && typeof node === "object") {
      for (const [k, v] of Object.entries(node)) {
        if (k === "$ref" && typeof v === "string") out.push({ at, ref: v });
        else walk(v, `${at}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`);
      }
    }
  };
  walk(doc, "#");
  return out;
}

/** Strings tried, in order, for a string schema with a `pattern`. */
const PATTERN_CANDIDATES = [
  "t-1",
  "AAAA",
  "",
  "a",
  "1",
  "0",
  "2024-01-01T00:00:00Z",
  "1s",
  "1.0",
  "https://example.com/",
];

const DATE_TIME = "2024-01-01T00:00:00Z";

/** The options of `sampleOf`. */
export interface SampleOptions {
  /** The value for a plain string (no format, pattern or enum); default "t-1". */
  readonly string?: string;
}

/**
 * A minimal valid instance of `schema`, `$ref`s resolved against `root`. Throws when the
 * schema asks for something it cannot produce (say so rather than send a wrong sample).
 */
export function sampleOf(
  schema: unknown,
  root: unknown,
  options: SampleOptions = {},
  depth = 0,
): Json {
  if (depth > 64) throw new Error("schema recursion too deep for a minimal sample");
  if (schema === true || schema === undefined) return null;
  if (schema === false) throw new Error("no instance of the false schema");
  if (schema === null || typeof schema !== "object")
    throw new Error(`not a schema: ${JSON.stringify(schema)}`);
  const s = flatten(schema as SchemaObject, root);
  if ("const" in s) return s["const"] as Json;
  if (Array.isArray(s["enum"])) {
    if (s["enum"].length === 0) throw new Error("empty enum");
    return s["enum"][0] as Json;
  }
  const type = Array.isArray(s["type"])
    ? ((s["type"] as string[]).find((t) => t !== "null") ?? "null")
    : (s["type"] as string | undefined);
  switch (type ?? inferType(s)) {
    case "object": {
      const out: Record<string, Json> = {};
      const properties = (s["properties"] ?? {}) as Record<string, unknown>;
      for (const name of (s["required"] ?? []) as string[])
        out[name] = sampleOf(
          properties[name] ?? s["additionalProperties"] ?? true,
          root,
          options,
          depth + 1,
        );
      // minProperties: optional properties first, then made-up keys for additionalProperties.
      const minProperties = typeof s["minProperties"] === "number" ? s["minProperties"] : 0;
      const optional = Object.keys(properties).filter((k) => !(k in out));
      for (let i = 0; Object.keys(out).length < minProperties; i++) {
        const key = optional.shift();
        if (key !== undefined) out[key] = sampleOf(properties[key], root, options, depth + 1);
        else if (s["additionalProperties"] === false)
          throw new Error(`cannot reach minProperties ${minProperties}`);
        else out[`k${i}`] = sampleOf(s["additionalProperties"] ?? true, root, options, depth + 1);
      }
      return out;
    }
    case "array": {
      const n = typeof s["minItems"] === "number" ? s["minItems"] : 0;
      return Array.from({ length: n }, () =>
        sampleOf(s["items"] ?? true, root, options, depth + 1),
      );
    }
    case "string":
      return stringSample(s, options);
    case "integer":
    case "number": {
      const min =
        typeof s["minimum"] === "number"
          ? s["minimum"]
          : typeof s["exclusiveMinimum"] === "number"
            ? s["exclusiveMinimum"] + 1
            : undefined;
      const max = typeof s["maximum"] === "number" ? s["maximum"] : undefined;
      return min ?? (max !== undefined && max < 0 ? max : 0);
    }
    case "boolean":
      return false;
    case "null":
      return null;
    default:
      // No type: any JSON value.
      return null;
  }
}

function stringSample(s: SchemaObject, options: SampleOptions): string {
  const minLength = typeof s["minLength"] === "number" ? s["minLength"] : 0;
  const pad = (v: string) => (v.length >= minLength ? v : v + "x".repeat(minLength - v.length));
  if (s["format"] === "date-time") return DATE_TIME;
  if (typeof s["pattern"] === "string") {
    const re = new RegExp(s["pattern"], "u");
    const hit = [options.string ?? "t-1", ...PATTERN_CANDIDATES].find(
      (c) => c.length >= minLength && re.test(c),
    );
    if (hit === undefined) throw new Error(`no sample string matches the pattern ${s["pattern"]}`);
    return hit;
  }
  return pad(options.string ?? "t-1");
}

function inferType(s: SchemaObject): string | undefined {
  if ("properties" in s || "required" in s) return "object";
  if ("items" in s) return "array";
  return undefined;
}

/**
 * The schema with `$ref` resolved, `allOf` merged and the first branch of `anyOf`/`oneOf`
 * merged in (`required` united, `properties` merged, a branch's `true` property schema
 * leaving the parent's in place), until none of them is left at the top.
 */
function flatten(schema: SchemaObject, root: unknown, depth = 0): SchemaObject {
  if (depth > 64) throw new Error("$ref chain too deep");
  let s: SchemaObject = { ...schema };
  if (typeof s["$ref"] === "string") {
    const ref = s["$ref"];
    const target = resolvePointer(root, ref);
    if (target === null || typeof target !== "object")
      throw new Error(`$ref ${ref} does not resolve`);
    delete s["$ref"];
    s = merge(flatten(target as SchemaObject, root, depth + 1), s);
  }
  if (Array.isArray(s["allOf"])) {
    const parts = s["allOf"] as SchemaObject[];
    delete s["allOf"];
    for (const p of parts) s = merge(s, flatten(p, root, depth + 1));
  }
  for (const key of ["anyOf", "oneOf"] as const) {
    if (Array.isArray(s[key])) {
      const first = (s[key] as SchemaObject[])[0];
      delete s[key];
      if (first === undefined) throw new Error(`empty ${key}`);
      s = merge(s, flatten(first, root, depth + 1));
    }
  }
  if (
    typeof s["$ref"] === "string" ||
    Array.isArray(s["allOf"]) ||
    Array.isArray(s["anyOf"]) ||
    Array.isArray(s["oneOf"])
  )
    return flatten(s, root, depth + 1);
  return s;
}

function merge(a: SchemaObject, b: SchemaObject): SchemaObject {
  const out: SchemaObject = { ...a, ...b };
  if (a["required"] !== undefined || b["required"] !== undefined)
    out["required"] = [
      ...new Set([...((a["required"] ?? []) as string[]), ...((b["required"] ?? []) as string[])]),
    ];
  if (a["properties"] !== undefined || b["properties"] !== undefined) {
    const props: Record<string, unknown> = {
      ...((a["properties"] ?? {}) as Record<string, unknown>),
    };
    for (const [k, v] of Object.entries((b["properties"] ?? {}) as Record<string, unknown>))
      if (v !== true || props[k] === undefined) props[k] = v;
    out["properties"] = props;
  }
  if (a["type"] !== undefined && b["type"] === undefined) out["type"] = a["type"];
  return out;
}

/** A JSON pointer's escaping of one key (RFC 6901). */
export const escapePointer = (key: string): string => key.replace(/~/g, "~0").replace(/\//g, "~1");

/** Pointers to every `components.schemas` entry of a document and to each of its properties' schemas. */
export function componentSchemaPointers(doc: { readonly components?: unknown }): string[] {
  const schemas = ((doc.components as { schemas?: Record<string, unknown> } | undefined)?.schemas ??
    {}) as Record<string, { properties?: Record<string, unknown> }>;
  const pointers: string[] = [];
  for (const [name, schema] of Object.entries(schemas)) {
    pointers.push(`#/components/schemas/${escapePointer(name)}`);
    for (const prop of Object.keys(schema.properties ?? {}))
      pointers.push(
        `#/components/schemas/${escapePointer(name)}/properties/${escapePointer(prop)}`,
      );
  }
  return pointers;
}

type Obj = Record<string, unknown>;

/** The object at `pointer` in `doc`, following Reference Objects (`$ref`) from there. */
export function derefAt(doc: unknown, pointer: string): { value: Obj; pointer: string } {
  let p = pointer;
  for (let i = 0; i < 16; i++) {
    const value = resolvePointer(doc, p);
    if (value === null || typeof value !== "object")
      throw new Error(`${p} does not resolve to an object`);
    const ref = (value as Obj)["$ref"];
    if (typeof ref !== "string") return { value: value as Obj, pointer: p };
    p = ref;
  }
  throw new Error(`$ref chain too long at ${pointer}`);
}

/** What {@link pointerChecker} needs of an Ajv instance (draft-07 or 2020-12). */
interface AjvLike {
  getKeyword(keyword: string): unknown;
  addKeyword(keyword: string): unknown;
  addSchema(schema: object, key: string): unknown;
  compile(schema: object): {
    (value: unknown): boolean;
    errors?:
      | { instancePath: string; message?: string; keyword: string; params: unknown }[]
      | null
      | undefined;
  };
}

/**
 * Adds the whole document to `ajv` under `baseUri` (its own top-level members declared as
 * keywords, since they are none) and returns a check of values against the schema at a pointer
 * in it: the violations, empty when valid.
 */
export function pointerChecker(
  ajv: AjvLike,
  doc: Obj,
  baseUri: string,
): (pointer: string, value: unknown) => string[] {
  for (const key of Object.keys(doc)) if (ajv.getKeyword(key) === false) ajv.addKeyword(key);
  ajv.addSchema(doc, baseUri);
  return (pointer, value) => {
    const fragment = pointer.slice(1).split("/").map(encodeURIComponent).join("/");
    const validate = ajv.compile({ $ref: `${baseUri}#${fragment}` });
    if (validate(value)) return [];
    return (validate.errors ?? []).map(
      (e) => `${e.instancePath || "(root)"}: ${e.message ?? e.keyword} ${JSON.stringify(e.params)}`,
    );
  };
}

/**
 * A minimal instance of every component schema and of each of its properties' schemas (see
 * {@link sampleOf}), checked against that schema: how many were checked, and the violations.
 */
export function componentSampleViolations(
  doc: Obj,
  check: (pointer: string, value: unknown) => string[],
): { checked: number; violations: string[] } {
  const pointers = componentSchemaPointers(doc);
  const violations: string[] = [];
  for (const pointer of pointers) {
    const instance = sampleOf(resolvePointer(doc, pointer), doc);
    for (const v of check(pointer, instance))
      violations.push(`${pointer}: ${JSON.stringify(instance)}: ${v}`);
  }
  return { checked: pointers.length, violations };
}

/** The `$ref`s of a document that are not local or do not resolve to an object ("at: ref"), and how many there are in all. */
export function brokenRefs(doc: unknown): { total: number; broken: string[] } {
  const refs = collectRefs(doc);
  const broken = refs.filter(({ ref }) => {
    const target = resolvePointer(doc, ref);
    return !ref.startsWith("#/") || target === null || typeof target !== "object";
  });
  return { total: refs.length, broken: broken.map((b) => `${b.at}: ${b.ref}`) };
}
