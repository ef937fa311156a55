// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * API documents next to the Agent Card: the OpenAPI and OpenRPC documents protoc-gen-a2a
 * generates, served with the `servers` of where the bindings are actually mounted (the
 * generated document cannot know), and an API reference page for people, Swagger UI on
 * the OpenAPI document, from the installed `swagger-ui-dist` package (an optional peer
 * dependency: nothing is loaded from a CDN or any other origin).
 *
 * Both are {@link UniversalHandler}s, mounted with `composeHandlers` like the card.
 */
import type { JsonObject } from "@bufbuild/protobuf";
import type {
  UniversalBufferedResponse,
  UniversalHandler,
  UniversalRequest,
  UniversalResponse,
} from "./universal.js";
import { base64Url, ifNoneMatchHits, preflightResponse, sha256 } from "./agent-card.js";
import type { OpenApiSecurity } from "./openapi-security.js";
import { CONSOLE_LOGGER } from "../observe/logger.js";

/**
 * An API document: a JSON object, e.g. a generated `.json` file imported as a module (whose
 * inferred type is no `JsonObject`: optional members of mixed array elements read as `undefined`).
 */
export type ApiDocument = { readonly [key: string]: unknown };

/** Options of {@link serveApiDocument}. */
export interface ServeApiDocumentOptions {
  /**
   * Replaces the document's top-level `servers`: OpenAPI server objects (`{ url, description? }`)
   * or OpenRPC ones (`{ name, url }`), with the URLs the bindings are mounted at.
   */
  readonly servers: readonly JsonObject[];
  /**
   * An OpenAPI document's security, e.g. {@link openApiSecurity} of the Agent Card: merged into
   * `components.securitySchemes`, and `security` (when not empty) set at the top level, so that
   * readers (and Swagger UI's "Authorize") know how to authenticate.
   */
  readonly security?: OpenApiSecurity | undefined;
  /**
   * The path the document is served at; other paths get 404. Absent: every path that reaches
   * the handler (mount it at an exact path).
   */
  readonly path?: string | undefined;
  /** `Cache-Control: public, max-age=N`. Default 300 seconds. */
  readonly maxAgeSeconds?: number | undefined;
  /**
   * CORS: `true` (default) answers with `Access-Control-Allow-Origin: *`; `{ origin }` with that
   * origin (and `Vary: Origin`); `false` sends no CORS headers.
   */
  readonly cors?: boolean | { readonly origin: string } | undefined;
}

const ALLOWED_METHODS = "GET, HEAD, OPTIONS";
const JSON_TYPE = "application/json; charset=utf-8";

/**
 * Serves an API document (an OpenAPI or OpenRPC JSON object) with its `servers` replaced by
 * `options.servers`, the way the Agent Card is served:
 *
 * - GET/HEAD → 200, `Content-Type: application/json; charset=utf-8`, `Cache-Control: public,
 *   max-age=N`, a strong `ETag` (SHA-256 of the body), CORS headers (`ETag` exposed).
 * - `If-None-Match` matching the ETag → 304 without body.
 * - OPTIONS → 204 (CORS preflight: `If-None-Match` is not a safelisted header).
 * - other methods → 405 with `Allow`; a path other than `options.path` → 404.
 *
 * The body and the ETag are computed once, here; anything but a JSON object is a TypeError.
 */
export function serveApiDocument(
  document: ApiDocument,
  options: ServeApiDocumentOptions,
): UniversalHandler {
  if (document === null || typeof document !== "object" || Array.isArray(document))
    throw new TypeError("an API document is a JSON object");
  const served: Record<string, unknown> = { ...document, servers: [...options.servers] };
  if (options.security !== undefined) {
    const components = (
      typeof document["components"] === "object" && document["components"] !== null
        ? document["components"]
        : {}
    ) as Record<string, unknown>;
    const schemes = (
      typeof components["securitySchemes"] === "object" && components["securitySchemes"] !== null
        ? components["securitySchemes"]
        : {}
    ) as Record<string, unknown>;
    served["components"] = {
      ...components,
      securitySchemes: { ...schemes, ...options.security.securitySchemes },
    };
    if (options.security.security.length > 0) served["security"] = options.security.security;
  }
  const body = new TextEncoder().encode(JSON.stringify(served));
  const maxAge = Math.max(0, Math.floor(options.maxAgeSeconds ?? 300));
  const cors = options.cors ?? true;
  const corsHeaders: [string, string][] = [];
  if (cors === true) corsHeaders.push(["access-control-allow-origin", "*"]);
  else if (cors !== false)
    corsHeaders.push(["access-control-allow-origin", cors.origin], ["vary", "Origin"]);
  if (cors !== false) corsHeaders.push(["access-control-expose-headers", "ETag"]);
  const resource = cachedResource(
    body,
    JSON_TYPE,
    `public, max-age=${maxAge}`,
    `"${base64Url(sha256(body))}"`,
    corsHeaders,
  );
  const notAllowed: UniversalBufferedResponse = {
    status: 405,
    headers: [["allow", ALLOWED_METHODS], ["content-type", JSON_TYPE], ...corsHeaders],
    body: jsonError(405, "METHOD_NOT_ALLOWED", "method not allowed"),
  };
  return function apiDocumentHandler(request: UniversalRequest): Promise<UniversalResponse> {
    if (options.path !== undefined && request.path !== options.path)
      return Promise.resolve(NOT_FOUND);
    switch (request.method) {
      case "GET":
      case "HEAD":
        return Promise.resolve(resource(request));
      case "OPTIONS":
        return Promise.resolve(
          preflightResponse(request, ALLOWED_METHODS, corsHeaders, cors !== false),
        );
      default:
        return Promise.resolve(notAllowed);
    }
  };
}

/** Options of {@link serveApiReference}. */
export interface ServeApiReferenceOptions {
  /**
   * The OpenAPI document the page shows: a URL, or a path, resolved against the page's
   * directory (`<prefix>/`), e.g. "/openapi.json" or "../openapi.json".
   */
  readonly documentUrl: string;
  /** The page title. Default "API reference". */
  readonly title?: string | undefined;
  /** The path prefix of the page and its assets. Default "/docs". */
  readonly prefix?: string | undefined;
  /**
   * A directory holding the `swagger-ui-dist` files. Default: the installed package, found
   * from this module at the first request.
   */
  readonly assetsDirectory?: string | undefined;
  /** Where the one-time hint goes when Swagger UI is missing. Default `console`. */
  readonly logger?: { warn(message: string): void } | undefined;
}

/** The files served from swagger-ui-dist, and nothing else (no path from the request reaches the file system). */
const SWAGGER_UI_ASSETS: Readonly<Record<string, string>> = {
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui-bundle.js.map": "application/json; charset=utf-8",
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui.css.map": "application/json; charset=utf-8",
  "favicon-16x16.png": "image/png",
  "favicon-32x32.png": "image/png",
};
const INITIALIZER = "api-reference.js";
const ASSET_CACHE_CONTROL = "public, max-age=3600";
const PAGE_CACHE_CONTROL = "no-cache";
const HTML_TYPE = "text/html; charset=utf-8";
/**
 * Scripts and styles from the page's own origin only (Swagger UI sets inline styles); images
 * from there and data: URLs; calls ("Try it out") to the servers the document names.
 */
const PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src *; object-src 'none'; base-uri 'none'; frame-ancestors 'self'";

/**
 * Serves an API reference page for people under `options.prefix` (default "/docs"): Swagger UI
 * rendering the OpenAPI document at `options.documentUrl`, every operation listed with its
 * operationId, "Try it out" included, Swagger UI's online validator off.
 *
 * - `<prefix>`, `<prefix>/`, `<prefix>/index.html` → the page (asset links relative to it,
 *   so it works behind a path-rewriting proxy).
 * - `<prefix>/<asset>` → one of a fixed list of files of the installed `swagger-ui-dist`
 *   (the bundle, its CSS, the favicons, their source maps), read once and kept in memory,
 *   with `ETag`/304; the page's initializer script. Any other path → 404 (no traversal).
 * - other methods than GET/HEAD → 405 with `Allow`.
 *
 * `swagger-ui-dist` is located at the first request (its `absolute-path.js`, through
 * `node:` modules imported then: Node, Deno, Bun; a bundle for another platform keeps them
 * external); when it is missing, or the runtime has no such modules, the page says what to
 * install, logged once as well, and the assets are 404.
 */
export function serveApiReference(options: ServeApiReferenceOptions): UniversalHandler {
  const prefix = (options.prefix ?? "/docs").replace(/\/+$/, "");
  const title = options.title ?? "API reference";
  const logger: { warn?: ((message: string) => void) | undefined } =
    options.logger ?? CONSOLE_LOGGER;
  // The page is reached with and without the trailing slash: its links go through the last segment then.
  const lastSegment = prefix.slice(prefix.lastIndexOf("/") + 1);
  const noSlashBase = lastSegment === "" ? "./" : `${lastSegment}/`;
  const pages = {
    slash: cachedHtml(referencePage(title, "./")),
    noSlash: cachedHtml(referencePage(title, noSlashBase)),
  };
  const missing = {
    slash: missingAssetsPage(title, options.documentUrl, "./"),
    noSlash: missingAssetsPage(title, options.documentUrl, noSlashBase),
  };
  const initializer = cachedText(
    initializerScript(options.documentUrl),
    "text/javascript; charset=utf-8",
    PAGE_CACHE_CONTROL,
  );
  const notAllowed: UniversalBufferedResponse = {
    status: 405,
    headers: [
      ["allow", "GET, HEAD"],
      ["content-type", "text/plain; charset=utf-8"],
    ],
    body: "method not allowed",
  };
  let assets: Promise<AssetSource | undefined> | undefined;
  const files = new Map<
    string,
    Promise<((request: UniversalRequest) => UniversalBufferedResponse) | undefined>
  >();
  const source = () =>
    (assets ??= locateSwaggerUi(options.assetsDirectory).then((located) => {
      if (typeof located === "string") {
        logger.warn?.(
          `API reference at ${prefix || "/"}: ${located}. Install it to serve Swagger UI: npm install swagger-ui-dist`,
        );
        return undefined;
      }
      return located;
    }));
  const asset = (name: string) => {
    let file = files.get(name);
    if (file === undefined) {
      file = source().then(async (s) => {
        if (s === undefined) return undefined;
        const bytes = await s.read(name).catch(() => undefined);
        return bytes === undefined
          ? undefined
          : cachedResource(
              bytes,
              SWAGGER_UI_ASSETS[name]!,
              ASSET_CACHE_CONTROL,
              `"${s.digest(bytes)}"`,
              [],
            );
      });
      files.set(name, file);
    }
    return file;
  };

  return async function apiReferenceHandler(request: UniversalRequest): Promise<UniversalResponse> {
    const p = request.path;
    if (p !== prefix && !p.startsWith(`${prefix}/`)) return NOT_FOUND;
    const rest = p.slice(prefix.length);
    const page =
      rest === ""
        ? pages.noSlash
        : rest === "/" || rest === "/index.html"
          ? pages.slash
          : undefined;
    const name = rest.slice(1);
    const known =
      page !== undefined || name === INITIALIZER || Object.hasOwn(SWAGGER_UI_ASSETS, name);
    if (!known) return NOT_FOUND;
    if (request.method !== "GET" && request.method !== "HEAD") return notAllowed;
    if (page !== undefined)
      return (await source()) !== undefined
        ? page(request)
        : rest === ""
          ? missing.noSlash
          : missing.slash;
    if (name === INITIALIZER) return initializer(request);
    return (await asset(name))?.(request) ?? NOT_FOUND;
  };
}

// ---------------------------------------------------------------------------------------
// swagger-ui-dist on disk
// ---------------------------------------------------------------------------------------

interface AssetSource {
  read(name: string): Promise<Uint8Array>;
  digest(bytes: Uint8Array): string;
}

const importNode = () =>
  Promise.all([import("node:fs/promises"), import("node:path"), import("node:crypto")]);

/**
 * The folder of the installed swagger-ui-dist, from its own `absolute-path.js` (a CommonJS
 * module returning its `__dirname`). Imported by a computed specifier: the package has no types,
 * and this file must also compile into CommonJS output, where `import.meta` is not allowed.
 */
async function swaggerUiDirectory(): Promise<string> {
  const specifier = "swagger-ui-dist/absolute-path.js";
  const mod = (await import(specifier)) as { default?: () => string };
  if (typeof mod.default !== "function")
    throw new Error("swagger-ui-dist/absolute-path.js exports no function");
  return mod.default();
}

/** The installed swagger-ui-dist (or `directory`), or why not. Node modules are imported lazily: this file loads in any runtime. */
async function locateSwaggerUi(directory: string | undefined): Promise<AssetSource | string> {
  let node: Awaited<ReturnType<typeof importNode>>;
  try {
    node = await importNode();
  } catch {
    return "swagger-ui-dist cannot be read in this runtime (no node:fs)";
  }
  const [{ access, readFile }, { join }, { createHash }] = node;
  let root = directory;
  if (root === undefined) {
    try {
      root = await swaggerUiDirectory();
    } catch {
      return "the swagger-ui-dist package is not installed";
    }
  }
  const dir = root;
  // The page needs the bundle: a directory without it is as good as none.
  try {
    await access(join(dir, "swagger-ui-bundle.js"));
  } catch {
    return `no swagger-ui-bundle.js in ${dir}`;
  }
  return {
    read: async (name) => new Uint8Array(await readFile(join(dir, name))),
    digest: (bytes) => createHash("sha256").update(bytes).digest("base64url"),
  };
}

// ---------------------------------------------------------------------------------------
// Pages and responses
// ---------------------------------------------------------------------------------------

/** The Swagger UI page; `base` leads from the page's URL to `<prefix>/` ("./", or "docs/" at "/docs"). */
function referencePage(title: string, base: string): string {
  const t = escapeHtml(title);
  const b = escapeHtml(base);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${t}</title>
<link rel="stylesheet" href="${b}swagger-ui.css">
<link rel="icon" type="image/png" href="${b}favicon-32x32.png" sizes="32x32">
<link rel="icon" type="image/png" href="${b}favicon-16x16.png" sizes="16x16">
<style>body { margin: 0; }</style>
</head>
<body>
<noscript>This page runs Swagger UI: it needs JavaScript.</noscript>
<div id="swagger-ui"></div>
<script src="${b}swagger-ui-bundle.js"></script>
<script src="${b}${INITIALIZER}"></script>
</body>
</html>
`;
}

/** The Swagger UI configuration, as a script of its own (the page has no inline script). */
function initializerScript(documentUrl: string): string {
  return `"use strict";
(function () {
  var base = document.currentScript ? document.currentScript.src : location.href;
  window.ui = SwaggerUIBundle({
    url: new URL(${JSON.stringify(documentUrl)}, base).href,
    dom_id: "#swagger-ui",
    deepLinking: true,
    displayOperationId: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
  });
})();
`;
}

/** The page when Swagger UI is missing; `base` as in {@link referencePage}, so a relative `documentUrl` resolves against `<prefix>/` too. */
function missingAssetsPage(
  title: string,
  documentUrl: string,
  base: string,
): UniversalBufferedResponse {
  const body = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><base href="${escapeHtml(base)}"><title>${escapeHtml(title)}</title></head>
<body>
<h1>${escapeHtml(title)}</h1>
<p>This page shows the API with Swagger UI, which is not installed on this server.
Install the <code>swagger-ui-dist</code> package next to <code>@protoc-gen-a2a/runtime</code>
(<code>npm install swagger-ui-dist</code>) and restart.</p>
<p>The API document itself: <a href="${escapeHtml(documentUrl)}">${escapeHtml(documentUrl)}</a>.</p>
</body>
</html>
`;
  return {
    status: 200,
    headers: [
      ["content-type", HTML_TYPE],
      ["cache-control", "no-store"],
    ],
    body,
  };
}

function cachedHtml(html: string): (request: UniversalRequest) => UniversalBufferedResponse {
  return cachedText(html, HTML_TYPE, PAGE_CACHE_CONTROL, [["content-security-policy", PAGE_CSP]]);
}

function cachedText(
  text: string,
  contentType: string,
  cacheControl: string,
  extra: [string, string][] = [],
): (request: UniversalRequest) => UniversalBufferedResponse {
  const body = new TextEncoder().encode(text);
  return cachedResource(body, contentType, cacheControl, `"${base64Url(sha256(body))}"`, extra);
}

/** GET/HEAD of a fixed body: 200, or 304 when `If-None-Match` matches its ETag. */
function cachedResource(
  body: Uint8Array,
  contentType: string,
  cacheControl: string,
  etag: string,
  extra: [string, string][],
): (request: UniversalRequest) => UniversalBufferedResponse {
  const cacheHeaders: [string, string][] = [
    ["cache-control", cacheControl],
    ["etag", etag],
    ...extra,
  ];
  const ok: UniversalBufferedResponse = {
    status: 200,
    headers: [
      ["content-type", contentType],
      ["x-content-type-options", "nosniff"],
      ...cacheHeaders,
    ],
    body,
  };
  const notModified: UniversalBufferedResponse = { status: 304, headers: cacheHeaders, body: "" };
  return (request) => {
    const inm = request.header("if-none-match");
    return inm !== undefined && ifNoneMatchHits(inm, etag) ? notModified : ok;
  };
}

const NOT_FOUND: UniversalBufferedResponse = {
  status: 404,
  headers: [["content-type", JSON_TYPE]],
  body: jsonError(404, "NOT_FOUND", "not found"),
};

function jsonError(code: number, status: string, message: string): string {
  return JSON.stringify({ error: { code, status, message } });
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
