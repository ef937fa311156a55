/**
 * The generated JSON Schema bundle (generated-example/gen/a2a_a2a_schema.json), compiled once by
 * Ajv in 2020-12 mode with `strict: true` (unknown keywords, ambiguous types, `required` naming
 * no property are compile errors) and ajv-formats for `date-time`. `validate(def, payload)`
 * checks a payload against `#/$defs/<def>` and returns the violations, empty when valid.
 */
import { readFileSync } from "node:fs";
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";

// ajv-formats is CommonJS with `exports.default`: under NodeNext the import is the module object.
const formatsPlugin = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as (ajv: unknown) => unknown;

/** Adds ajv-formats (`date-time`, …) to an Ajv instance of any draft. */
export function addFormats<A>(ajv: A): A {
  formatsPlugin(ajv);
  return ajv;
}

export const BUNDLE_PATH = new URL(
  "../../generated-example/gen/a2a_a2a_schema.json",
  import.meta.url,
);
export const SERVICE = "lf.a2a.v1.A2AService";

export interface SchemaBundle {
  readonly $defs: Record<string, unknown>;
}

export function newAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  return ajv;
}

let compiled: { bundle: SchemaBundle; validators: Map<string, ValidateFunction> } | undefined;

function load() {
  if (compiled !== undefined) return compiled;
  const bundle = JSON.parse(readFileSync(BUNDLE_PATH, "utf8")) as SchemaBundle;
  const ajv = newAjv();
  ajv.addSchema(bundle, "bundle");
  const validators = new Map<string, ValidateFunction>();
  for (const name of Object.keys(bundle.$defs)) {
    const v = ajv.getSchema(`bundle#/$defs/${name}`);
    if (v === undefined) throw new Error(`no schema for ${name}`);
    validators.set(name, v);
  }
  compiled = { bundle, validators };
  return compiled;
}

/** The names of every definition in the bundle. */
export function definitionNames(): string[] {
  return [...load().validators.keys()];
}

/** Violations of `payload` against `#/$defs/<def>` ("path: message"), empty when valid. */
export function validate(def: string, payload: unknown): string[] {
  const v = load().validators.get(def);
  if (v === undefined) throw new Error(`the schema bundle has no definition ${def}`);
  if (v(payload)) return [];
  return (v.errors ?? []).map(
    (e: ErrorObject) =>
      `${e.instancePath || "(root)"}: ${e.message ?? e.keyword}${e.params && Object.keys(e.params).length > 0 ? ` ${JSON.stringify(e.params)}` : ""}`,
  );
}

/** The definition name of a per-operation wire payload. */
export function operationDef(
  rpc: string,
  kind:
    | "JsonRpcRequest"
    | "JsonRpcResponse"
    | "JsonRpcStreamEvent"
    | "HttpRequestBody"
    | "HttpResponse"
    | "HttpStreamEvent",
): string {
  return `${SERVICE}.${rpc}.${kind}`;
}
