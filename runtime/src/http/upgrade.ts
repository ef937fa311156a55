// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * HTTP/1.1 `Upgrade` on a node:http server shared by several protocols. Once a server has one
 * `'upgrade'` listener, Node hands it every request that offers to upgrade (`Upgrade: h2c` from
 * `curl --http2`, Java's HttpClient, …), whatever its path; a listener that answers only its own
 * path leaves the others with an error or a hung connection. A server may ignore an `Upgrade` it
 * does not want and answer the request as it stands (RFC 9110 §7.8): {@link routeUpgrade} does
 * that for every upgrade request no route takes, and {@link serveUpgradeAsHttp} does it for
 * anyone with an `'upgrade'` listener of their own.
 *
 * How: on Node with `server.shouldUpgradeCallback` (22.21+, 24.9+) the requests no route takes
 * are never treated as upgrades (their handlers still see the ignored `Upgrade` header); on older
 * Node (20, 22.20-, 24.8-) the request is handed back to the server's HTTP parsing: its head is
 * written again without the upgrade offer (Upgrade, HTTP2-Settings and their Connection tokens)
 * and put back in front of the bytes already read, and the socket goes through node:http's
 * connection handling anew. Tested on Node 20.20, 22.23, 24.8 and 24.22. One difference remains:
 * on the newer Node, bytes that arrive in the same segment right behind a declined upgrade request
 * (a request pipelined after it) are not parsed by Node; clients do not pipeline behind an upgrade
 * offer: until its answer they cannot know which protocol the connection goes on in.
 */
import type { EventEmitter } from "node:events";
import type { IncomingMessage, Server as HttpServer } from "node:http";
import { Socket } from "node:net";
import type { Duplex } from "node:stream";
import { Server as TlsServer } from "node:tls";

/** One protocol served on the upgrade requests it {@link UpgradeRoute.matches | matches}. */
export interface UpgradeRoute {
  /** True for the upgrade requests this route takes (e.g. `Upgrade: websocket` on its path). Called for every upgrade request; must not throw. */
  matches(request: IncomingMessage): boolean;
  /** Takes over the socket of a request it matched (as an `'upgrade'` listener would). */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
}

/** The routes of one server and the one `'upgrade'` listener that serves them. */
interface UpgradeRoutes {
  readonly routes: UpgradeRoute[];
  readonly listener: (request: IncomingMessage, socket: Duplex, head: Buffer) => void;
  /** The server's own `shouldUpgradeCallback` (newer Node), put back when the last route goes. */
  readonly previousCallback: ShouldUpgrade | undefined;
}

type ShouldUpgrade = (this: HttpServer, request: IncomingMessage) => boolean;
/** `shouldUpgradeCallback` of Node 22.21+ / 24.9+ (absent from older typings). */
type WithShouldUpgrade = { shouldUpgradeCallback?: ShouldUpgrade };

const routesOf = new WeakMap<HttpServer, UpgradeRoutes>();

/**
 * Serves `route` on `server`'s upgrade requests it matches; every upgrade request that no route
 * matches is served as the ordinary HTTP/1.1 request it also is (its `Upgrade` ignored, RFC 9110
 * §7.8), body included. Any number of routes share one `'upgrade'` listener. When the server has
 * `'upgrade'` listeners of its own besides, the requests no route matches are left to them (they
 * may call {@link serveUpgradeAsHttp} for those they do not take). Returns a function that removes
 * the route (and, with the last one, the listener).
 */
export function routeUpgrade(server: HttpServer, route: UpgradeRoute): () => void {
  let entry = routesOf.get(server);
  if (entry === undefined) {
    const routes: UpgradeRoute[] = [];
    const others = () => server.listenerCount("upgrade") > 1;
    const listener = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      const match = routes.find((r) => r.matches(request));
      if (match !== undefined) return match.upgrade(request, socket, head);
      if (!others()) serveUpgradeAsHttp(server, request, socket, head);
    };
    const target = server as HttpServer & WithShouldUpgrade;
    const previousCallback =
      typeof target.shouldUpgradeCallback === "function" ? target.shouldUpgradeCallback : undefined;
    if (previousCallback !== undefined) {
      // Newer Node asks before treating a request as an upgrade: a request no route takes is then plain HTTP.
      target.shouldUpgradeCallback = function (
        this: HttpServer,
        request: IncomingMessage,
      ): boolean {
        return (
          routes.some((r) => r.matches(request)) ||
          (others() && previousCallback.call(this, request))
        );
      };
    }
    entry = { routes, listener, previousCallback };
    routesOf.set(server, entry);
    server.on("upgrade", listener);
  }
  const current = entry;
  current.routes.push(route);
  return () => {
    const at = current.routes.indexOf(route);
    if (at < 0) return;
    current.routes.splice(at, 1);
    if (current.routes.length > 0 || routesOf.get(server) !== current) return;
    routesOf.delete(server);
    server.off("upgrade", current.listener);
    if (current.previousCallback !== undefined)
      (server as HttpServer & WithShouldUpgrade).shouldUpgradeCallback = current.previousCallback;
  };
}

/** Headers that belong to the upgrade offer, dropped (with their Connection tokens) when it is ignored. */
const UPGRADE_OFFER = new Set(["upgrade", "http2-settings"]);

/**
 * Serves an upgrade request as the ordinary HTTP/1.1 request it also is, from an `'upgrade'`
 * listener (`head` as that listener got it): the server's `'request'` listeners answer it, body
 * included, and the connection goes on as any kept-alive one. Returns false, after answering a
 * 400 through the server's `'clientError'` listeners (or closing the socket when it has none),
 * when the socket cannot go back to HTTP parsing (it is not a node:net socket detached from its
 * parser, as a Node that streams upgrade bodies may hand over).
 */
export function serveUpgradeAsHttp(
  server: HttpServer,
  request: IncomingMessage,
  socket: Duplex,
  head: Buffer,
): boolean {
  if (!(socket instanceof Socket) || (socket as { parser?: unknown }).parser != null) {
    const error = Object.assign(new Error("an upgrade request that cannot be served as HTTP"), {
      code: "HPE_INVALID_UPGRADE",
    });
    if (!server.emit("clientError", error, socket)) socket.destroy();
    return false;
  }
  const bytes = Buffer.concat([requestHead(request), head]);
  whenNoResponsePending(socket, () => {
    if (socket.destroyed) return;
    // A pipelined earlier response may have left its keep-alive timeout on the socket: the
    // server's connection handling sets its own (`server.timeout`, 0 = none).
    socket.setTimeout(0);
    socket.unshift(bytes);
    const event = server instanceof TlsServer ? "secureConnection" : "connection";
    // node:http's own connection handler only, so that other 'connection' listeners do not see the socket twice.
    const own = server.listeners(event).find((l) => l.name === "connectionListener");
    if (own !== undefined) own.call(server, socket);
    else server.emit(event, socket);
  });
  return true;
}

/** The request line and headers of `request` again, without its upgrade offer (Upgrade, HTTP2-Settings and their Connection tokens). */
function requestHead(request: IncomingMessage): Buffer {
  const lines = [`${request.method} ${request.url} HTTP/${request.httpVersion}`];
  const raw = request.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    const lower = name.toLowerCase();
    if (UPGRADE_OFFER.has(lower)) continue;
    if (lower === "connection") {
      const kept = raw[i + 1]!.split(",")
        .map((token) => token.trim())
        .filter((token) => token !== "" && !UPGRADE_OFFER.has(token.toLowerCase()));
      if (kept.length > 0) lines.push(`${name}: ${kept.join(", ")}`);
      continue;
    }
    lines.push(`${name}: ${raw[i + 1]}`);
  }
  // latin1: header bytes as the parser read them (Node decodes them as latin1).
  return Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "latin1");
}

/**
 * Runs `then` once no earlier response of the connection is being written (a request pipelined
 * before the upgrade one): that response belongs to the parser Node gave up, whose queue would
 * otherwise hold the answers of the requests parsed anew.
 */
function whenNoResponsePending(socket: Socket, then: () => void): void {
  const pending = (socket as { _httpMessage?: EventEmitter | null })._httpMessage;
  if (pending == null) {
    then();
    return;
  }
  // After node:http's own 'finish' listener, which detaches that response from the socket.
  pending.once("finish", () => setImmediate(() => whenNoResponsePending(socket, then)));
}
