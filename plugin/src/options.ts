// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import type { ErrorProfile } from "./model/error-catalog.js";
import { errorProfiles } from "./model/error-catalog.js";

/** The options of protoc-gen-a2a, besides protoplugin's standard ones (`target`, `import_extension`, …). */
export interface PluginOptions {
  /** `errors=`: which version of the spec's §5.4 error table the generated error mappers follow. */
  readonly errorProfile: ErrorProfile;
  /** `subscribe_post=`: whether the route table also answers `POST …:subscribe` (the spec text's verb). */
  readonly subscribePost: boolean;
  /** `bindings=`: which bindings' servers and clients to emit. */
  readonly bindings: ReadonlySet<Binding>;
  /** `grpc_server=`: the stack behind the generated `listen<Service>Grpc`. */
  readonly grpcServer: "grpc-js" | "connect";
  /** `task_store=`: which persistent stores the binder gets factories of (SQLite, PostgreSQL, both, or none). */
  readonly taskStore: "memory" | "sqlite" | "postgres" | "sqlite+postgres";
  /** `json_schema=`: whether to emit the JSON Schema bundle and one schema per message and enum. */
  readonly jsonSchema: boolean;
  /** `openapi=`: the OpenAPI version of the HTTP+JSON document, or none. */
  readonly openApi: "3.1" | "3.2" | "none";
  /** `openrpc=`: whether to emit the OpenRPC document of the JSON-RPC binding. */
  readonly openRpc: boolean;
  /** `json_documents_max_bytes=`: the size over which a single-file JSON document (schema bundle, OpenAPI, OpenRPC) is left out with a notice; undefined: no limit. */
  readonly jsonDocumentsMaxBytes: number | undefined;
  /** `unsupported_rpcs=`: what a client- or bidi-streaming RPC does: skipped with a notice, or an error. */
  readonly unsupportedRpcs: "skip" | "error";
  /** `manifest=`: whether to emit the API manifest (`<file>_a2a_manifest.json`). */
  readonly manifest: boolean;
  /** `skip_http_rules=`: fully qualified RPC names ("pkg.Service.Rpc") whose google.api.http rules are left out. */
  readonly skipHttpRules: ReadonlySet<string>;
}

/** A binding the plugin can emit. */
export type Binding = "jsonrpc" | "rest" | "grpc";
const allBindings: readonly Binding[] = ["jsonrpc", "rest", "grpc"];

/** One option: its key, what it accepts, its default, what it means, and how it is read. */
export interface OptionSpec<K extends keyof PluginOptions = keyof PluginOptions> {
  readonly key: string;
  readonly field: K;
  /** The accepted values, as the README and error messages show them ("true|false", "v1.0.1|v1.0.0"). */
  readonly values: string;
  /** The default, as written in an option. */
  readonly default: string;
  /** What it means (Markdown, one paragraph): the README's table cell. */
  readonly meaning: string;
  /** Reads a value; throws with the message a user sees after `invalid option "key=value": `. */
  readonly parse: (value: string) => PluginOptions[K];
}

/** Booleans as protoplugin reads them: `true`/`1` (or no value) and `false`/`0`. */
function parseBoolean(key: string, value: string): boolean {
  if (value === "" || value === "true" || value === "1") return true;
  if (value === "false" || value === "0") return false;
  throw new Error(`${key} must be true or false (or 1, 0); got "${value}"`);
}

/** Every option of the plugin, in the order the README lists them: the parser, its messages and the README table come from here. */
export const OPTIONS: readonly OptionSpec[] = [
  {
    key: "errors",
    field: "errorProfile",
    values: errorProfiles.join("|"),
    default: "v1.0.1",
    meaning:
      "which §5.4 error table the mappers follow: v1.0.1 maps every error to a `google.rpc.Code`-consistent HTTP status; v1.0.0 had TaskNotCancelable 409, ContentTypeNotSupported 415, InvalidAgentResponse 502 and UNIMPLEMENTED for three gRPC codes",
    parse: (value) => {
      if (!(errorProfiles as readonly string[]).includes(value))
        throw new Error(`errors must be one of ${errorProfiles.join(", ")}; got "${value}"`);
      return value as ErrorProfile;
    },
  },
  {
    key: "subscribe_post",
    field: "subscribePost",
    values: "true|false",
    default: "true",
    meaning:
      "a2a.proto binds SubscribeToTask to `GET …:subscribe`, the spec text (§5.3, §11.3.2) to `POST`; by default the route table answers both, `false` keeps the proto's verb only",
    parse: (value) => parseBoolean("subscribe_post", value),
  },
  {
    key: "bindings",
    field: "bindings",
    values: "jsonrpc+rest+grpc",
    default: "jsonrpc+rest+grpc",
    meaning:
      "which bindings' servers and clients to emit (any +-separated subset); without `grpc` nothing imports `@connectrpc/*`, `@grpc/grpc-js` or the runtime's gRPC entry points",
    parse: (value) => {
      const list = value
        .split(/[+|]/)
        .map((b) => b.trim())
        .filter((b) => b !== "");
      const unknown = list.filter((b) => !(allBindings as readonly string[]).includes(b));
      if (list.length === 0 || unknown.length > 0)
        throw new Error(
          `bindings must be a +-separated list of ${allBindings.join(", ")}; got "${value}"`,
        );
      return new Set(list as Binding[]);
    },
  },
  {
    key: "task_store",
    field: "taskStore",
    values: "memory|sqlite|postgres|sqlite+postgres",
    default: "memory",
    meaning:
      '`sqlite` adds the task runtime\'s SQLite store (`@protoc-gen-a2a/runtime/sqlite`, on better-sqlite3 12, WAL; tasks and push configs survive a restart; the saves of one event-loop turn are one transaction, and no event reaches a client before its commit; `synchronous: "FULL"` makes that survive power loss too) and `create<Service>SqliteTaskStore(path, options)` in its own file, `<file>_a2a_sqlite_task_store.ts`; `postgres` adds the PostgreSQL store that several agent instances share (`@protoc-gen-a2a/runtime/postgres`, on `pg`: any instance serves any call, streams and cancel cross instances, push notifications from a durable outbox) and `open<Service>PostgresTaskStore(connectionString, options)` in `<file>_a2a_postgres_task_store.ts` (the task handler imports neither: a bundle for Workers or a browser links no store); `sqlite+postgres` both; generated-example/gen is generated with `sqlite+postgres`',
    parse: (value) => {
      if (
        value !== "memory" &&
        value !== "sqlite" &&
        value !== "postgres" &&
        value !== "sqlite+postgres"
      ) {
        throw new Error(
          `task_store must be memory, sqlite, postgres or sqlite+postgres; got "${value}"`,
        );
      }
      return value;
    },
  },
  {
    key: "grpc_server",
    field: "grpcServer",
    values: "grpc-js|connect",
    default: "grpc-js",
    meaning:
      "the server stack of `listen<Service>Grpc`: @grpc/grpc-js, or Connect on node:http2 (adds gRPC-web and the Connect protocol; plain gRPC unary calls take a lean node:http2 path, which `bench/grpc.mjs` measures ahead of grpc-js on the task path; streams go through Connect's own pipeline). The Connect routes (`create<Service>GrpcRoutes`) are emitted either way; the client is Connect's gRPC transport",
    parse: (value) => {
      if (value !== "grpc-js" && value !== "connect")
        throw new Error(`grpc_server must be grpc-js or connect; got "${value}"`);
      return value;
    },
  },
  {
    key: "json_schema",
    field: "jsonSchema",
    values: "true|false",
    default: "true",
    meaning:
      "`<file>_a2a_schema.json`, a JSON Schema 2020-12 bundle (every message and enum the operations use, the JSON-RPC envelopes, SSE events and error bodies of each operation, under `$defs`), and `<file>_a2a_schema/<type>.schema.json`, one schema per message and enum; see [JSON Schemas](#json-schemas-openapi-and-openrpc)",
    parse: (value) => parseBoolean("json_schema", value),
  },
  {
    key: "openapi",
    field: "openApi",
    values: "3.1|3.2|none",
    default: "3.1",
    meaning:
      "`<file>_a2a_openapi.json`, the OpenAPI document of the HTTP+JSON binding (with `rest` in `bindings`); `3.2` describes SSE with `itemSchema`, `3.1` with the `x-a2a-item-schema` extension",
    parse: (value) => {
      if (value !== "3.1" && value !== "3.2" && value !== "none")
        throw new Error(`openapi must be 3.1, 3.2 or none; got "${value}"`);
      return value;
    },
  },
  {
    key: "openrpc",
    field: "openRpc",
    values: "true|false",
    default: "true",
    meaning:
      "`<file>_a2a_openrpc.json`, the OpenRPC 1.3 document of the JSON-RPC binding (with `jsonrpc` in `bindings`)",
    parse: (value) => parseBoolean("openrpc", value),
  },
  {
    key: "json_documents_max_bytes",
    field: "jsonDocumentsMaxBytes",
    values: "<bytes>|none",
    default: "4194304",
    meaning:
      "the largest `<file>_a2a_schema.json`, `<file>_a2a_openapi.json` and `<file>_a2a_openrpc.json` written (bytes; a `k`/`M` suffix counts KiB/MiB): a larger one (a very large API: Google's compute.proto makes 6, 9 and 12 MB) is left out with a notice on stderr naming it and its size, and the one-schema-per-type folder `<file>_a2a_schema/` (always written with `json_schema`) is what to use instead; `none` writes them whatever their size. The A2A documents are far below the default (4 MiB)",
    parse: (value) => {
      if (value === "none") return undefined;
      const m = /^([0-9]+)([kM]?)$/.exec(value);
      if (m === null || Number(m[1]) === 0)
        throw new Error(
          `json_documents_max_bytes must be a positive number of bytes (with an optional k or M suffix) or none; got "${value}"`,
        );
      return Number(m[1]) * (m[2] === "k" ? 1024 : m[2] === "M" ? 1024 * 1024 : 1);
    },
  },
  {
    key: "unsupported_rpcs",
    field: "unsupportedRpcs",
    values: "skip|error",
    default: "skip",
    meaning:
      "what a client-streaming or bidi-streaming RPC (which no A2A binding carries) does: `skip` leaves it out of the handler, servers and clients with a notice on stderr naming it (a gRPC call of it gets UNIMPLEMENTED), and the rest of the service is generated; `error` fails generation as before",
    parse: (value) => {
      if (value !== "skip" && value !== "error")
        throw new Error(`unsupported_rpcs must be skip or error; got "${value}"`);
      return value;
    },
  },
  {
    key: "manifest",
    field: "manifest",
    values: "true|false",
    default: "true",
    meaning:
      "`<file>_a2a_manifest.json`, the API manifest (`manifestVersion` 1): per service its operations (kind, request and response types, JSON-RPC method, gRPC path, HTTP bindings, whether the task runtime implements them), the messages and enums they use (field numbers, JSON names, types, `field_behavior`, what validation treats as REQUIRED), the error table of the selected profile and the service parameters, with the provenance; what `protoc-gen-a2a diff` compares (see [Updating to a new a2a.proto](#updating-to-a-new-a2aproto))",
    parse: (value) => parseBoolean("manifest", value),
  },
  {
    key: "skip_http_rules",
    field: "skipHttpRules",
    values: "pkg.Service.Rpc;…",
    default: "",
    meaning:
      "RPCs (fully qualified, `;`-separated, e.g. `google.firestore.v1.Firestore.ListDocuments;pkg.Svc.Rpc`) whose `google.api.http` rules (with their `additional_bindings`) are left out: no route, no REST client method, no OpenAPI operation, a notice per skipped rule; the RPC stays on JSON-RPC and gRPC. For rules that overlap another RPC's routes (Firestore's ListDocuments `…/documents/*/**}/{collection_id}` takes the GETs of GetDocument `…/documents/*/**}`) or that the HTTP+JSON binding cannot serve; a name no RPC of the run has gets a notice",
    parse: parseRpcNames,
  },
];

/** `skip_http_rules`: `;`-separated fully qualified RPC names (a leading "." is dropped). */
function parseRpcNames(value: string): ReadonlySet<string> {
  const names = value
    .split(";")
    .map((n) => n.trim().replace(/^\./, ""))
    .filter((n) => n !== "");
  const bad = names.filter((n) => !/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+$/.test(n));
  if (bad.length > 0)
    throw new Error(
      `skip_http_rules must be a ;-separated list of fully qualified RPC names (pkg.Service.Rpc); got "${bad[0]}"`,
    );
  return new Set(names);
}

/** protoplugin's own options that apply to this plugin's output, for the README table. */
export const STANDARD_OPTIONS: readonly {
  readonly option: string;
  readonly default: string;
  readonly meaning: string;
}[] = [
  {
    option: "`target=ts`",
    default: "`ts`",
    meaning: "protoplugin's standard option; only `ts` is supported (the default here)",
  },
  {
    option: "`import_extension=js` \\| `none` \\| `ts`",
    default: "`none`",
    meaning:
      "protoplugin's standard option: the extension of relative imports between generated files (NodeNext projects need `js`); others (`.mjs`) are refused with the reason: the generated files are `.ts`, compiled to `.js`",
  },
  {
    option: "`rewrite_imports=…`, `ts_nocheck=true`, `keep_empty_files=true`",
    default: "",
    meaning:
      "protoplugin's standard options, as for protoc-gen-es (`rewrite_imports` applies to the imports of generated files, not to `@protoc-gen-a2a/runtime`)",
  },
];

export const defaultOptions: PluginOptions = Object.fromEntries(
  OPTIONS.map((o) => [o.field, o.parse(o.default)]),
) as unknown as PluginOptions;

/**
 * Parses the plugin's own options. Unknown keys and bad values throw: protoplugin
 * turns the throw into `invalid option "key=value": reason` and exits 1.
 */
export function parseOptions(raw: readonly { key: string; value: string }[]): PluginOptions {
  const options: Record<string, unknown> = { ...defaultOptions };
  for (const { key, value } of raw) {
    const spec = OPTIONS.find((o) => o.key === key);
    if (spec === undefined)
      throw new Error(
        `unknown option "${key}"; protoc-gen-a2a accepts ${OPTIONS.map((o) => `${o.key}=${o.values}`).join(", ")}`,
      );
    options[spec.field] = spec.parse(value);
  }
  return options as unknown as PluginOptions;
}

/** The README's table of options, rendered from {@link OPTIONS} and {@link STANDARD_OPTIONS}. */
export function optionsTable(): string {
  const rows = OPTIONS.map((o) => {
    const [first, ...rest] = o.values.split("|");
    const option = [`\`${o.key}=${first}\``, ...rest.map((v) => `\`${v}\``)].join(" \\| ");
    const fallback =
      o.key === "bindings" ? "all three" : o.default === "" ? "none" : `\`${o.default}\``;
    return `| ${option} | ${fallback} | ${o.meaning} |`;
  });
  const standard = STANDARD_OPTIONS.map((s) => `| ${s.option} | ${s.default} | ${s.meaning} |`);
  return ["| option | default | meaning |", "| --- | --- | --- |", ...rows, ...standard].join("\n");
}
