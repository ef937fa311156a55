// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The gRPC service's Connect routes on an HTTP/1.1 (or HTTP/2) server, under a path prefix,
 * beside the JSON-RPC and HTTP+JSON bindings: gRPC-web and the Connect protocol, which browsers
 * can speak (plain gRPC needs HTTP/2 trailers and stays on the gRPC listener). With CORS by
 * default, so a page on another origin can call the agent. Advertise what it serves with
 * `GRPC_WEB_PROTOCOL_BINDING` and `CONNECT_PROTOCOL_BINDING` at `<origin><prefix>`.
 */
import { cors as connectCors } from "@connectrpc/connect";
import { DEFAULT_GRPC_READ_MAX_BYTES } from "../grpc-wire/limits.js";
import { clampDeadlineHeaders } from "../grpc-wire/timeout-header.js";
import { isGrpcJsonCodec, refuseGrpcJsonCodec } from "./json-codecs.js";
import { setRouterReadOptions } from "./request-guard.js";
import { connectNodeAdapter, type ConnectNodeAdapterOptions } from "@connectrpc/connect-node";
import { corsPolicy, type CorsOptions } from "../http/cors.js";
import {
  DEFAULT_STALLED_WRITE_TIMEOUT_MS,
  writeBudgetOf,
  type NodeRequestListener,
} from "../http/node-adapter.js";
import type { WriteBudget } from "../pipeline/write-budget.js";
import { destroyWhenStalled } from "./stalled-response.js";

/** Options of {@link mountConnectRoutes}. */
export interface ConnectHttpMountOptions {
  /** Where the routes live, e.g. "/a2a/connect": a call goes to `<prefix>/lf.a2a.v1.A2AService/SendMessage`. */
  readonly prefix: string;
  /** CORS (default: any origin, with Connect's and A2A's headers); `false` for none. */
  readonly cors?: CorsOptions | false | undefined;
  /** Connect adapter options: readMaxBytes (default 4 MiB here), maxTimeoutMs, interceptors, … */
  readonly adapter?:
    | Partial<Omit<ConnectNodeAdapterOptions, "routes" | "requestPathPrefix" | "fallback">>
    | undefined;
  /**
   * Serve gRPC-web with the JSON codec (`application/grpc-web+json`) as well: off by default, such
   * calls get 415 with INVALID_ARGUMENT (json-codecs.ts says why). The Connect protocol's JSON is served.
   */
  readonly jsonCodecs?: boolean | undefined;
  /**
   * How long (ms) one write of an answer may wait for a client that reads nothing (the response's
   * buffer full, no "drain") before the response is destroyed and the call aborted, as a client that
   * went away: the bound on what such a client holds (an answer of many MB, a stream). Connect itself
   * waits forever. Default 60 000, the HTTP bindings' `stalledWriteTimeoutMs` ({@link DEFAULT_STALLED_WRITE_TIMEOUT_MS});
   * 0 waits forever.
   */
  readonly stalledWriteTimeoutMs?: number | undefined;
  /**
   * Where what the answers hold for clients that do not read them is counted (write-budget.ts): over
   * the budget, the response that has waited longest is destroyed. Default: the budget of `fallback`
   * when serveNode returned it (its `writeBudget`, or its own of `maxPendingWriteBytes`), else none.
   */
  readonly writeBudget?: WriteBudget | undefined;
}

/**
 * A request listener serving `routes` (gRPC-web, Connect) under `options.prefix` and passing every
 * other request to `fallback` (the listener of the JSON-RPC/HTTP+JSON bindings and the card).
 */
export function mountConnectRoutes(
  routes: ConnectNodeAdapterOptions["routes"],
  fallback: NodeRequestListener,
  options: ConnectHttpMountOptions,
): NodeRequestListener {
  const prefix = options.prefix.replace(/\/+$/, "");
  if (!prefix.startsWith("/"))
    throw new TypeError(
      `mountConnectRoutes: prefix must start with "/", got ${JSON.stringify(options.prefix)}`,
    );
  const stalledWriteTimeoutMs = options.stalledWriteTimeoutMs ?? DEFAULT_STALLED_WRITE_TIMEOUT_MS;
  if (!Number.isFinite(stalledWriteTimeoutMs) || stalledWriteTimeoutMs < 0) {
    throw new RangeError(
      `stalledWriteTimeoutMs must be a non-negative number of milliseconds (0: off), got ${stalledWriteTimeoutMs}`,
    );
  }
  const budget = options.writeBudget ?? writeBudgetOf(fallback);
  const adapter = { readMaxBytes: DEFAULT_GRPC_READ_MAX_BYTES, ...options.adapter };
  const connect = connectNodeAdapter({
    ...adapter,
    routes: (router) => {
      // The A2A service's request check decodes as this adapter will (request-guard.ts).
      setRouterReadOptions(router, adapter);
      routes?.(router);
    },
    requestPathPrefix: prefix,
  });
  const cors =
    options.cors === false
      ? undefined
      : corsPolicy({
          ...options.cors,
          allowMethods: options.cors?.allowMethods ?? connectCors.allowedMethods,
          allowHeaders: [...connectCors.allowedHeaders, ...(options.cors?.allowHeaders ?? [])],
          exposeHeaders: [...connectCors.exposedHeaders, ...(options.cors?.exposeHeaders ?? [])],
        });
  return function connectMount(req, res) {
    const url = req.url ?? "/";
    if (!(url.startsWith(`${prefix}/`) || url === prefix)) return fallback(req, res);
    if (cors !== undefined) {
      const header = (name: string) => {
        const v = req.headers[name];
        return Array.isArray(v) ? v.join(", ") : v;
      };
      const preflight = cors.preflight(req.method ?? "", header);
      if (preflight !== undefined) {
        res.writeHead(preflight.status, Object.fromEntries(preflight.headers));
        res.end();
        return;
      }
      for (const [name, value] of cors.responseHeaders(header("origin")))
        res.setHeader(name, value);
    }
    if (options.jsonCodecs !== true && isGrpcJsonCodec(req.headers["content-type"]))
      return refuseGrpcJsonCodec(req, res);
    clampDeadlineHeaders(req.headers);
    // A client that stops reading does not hold the answer for good, nor more than the budget (stalled-response.ts).
    destroyWhenStalled(res, stalledWriteTimeoutMs, budget);
    connect(req, res);
  };
}
