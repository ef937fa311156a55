// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Agent Card discovery basics shared by the serving side (http/agent-card.ts) and the
 * connecting side (agent-client.ts): the well-known path (§8.2), the names of the core
 * protocol bindings (§5) and the two forms of a gRPC interface address (`host:port`, which clients dial, and the URL of §8.5's sample).
 *
 * Self-contained: imports nothing (the client entry point uses it too).
 */

/** The well-known path of the public Agent Card (§8.2). */
export const AGENT_CARD_WELL_KNOWN_PATH = "/.well-known/agent-card.json";

/** The protocol bindings of the A2A core (§5): the values of `AgentInterface.protocolBinding`. */
export type A2ABindingName = "JSONRPC" | "HTTP+JSON" | "GRPC";

/**
 * `host:port` of a gRPC address given as `host:port` or as a URL; the port
 * defaults to 443 for https/grpcs, 80 for http/grpc. `undefined` when unparseable.
 */
export function grpcHostPort(address: string): string | undefined {
  const a = address.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(a)) {
    try {
      const u = new URL(a);
      const scheme = u.protocol.slice(0, -1).toLowerCase();
      const port = u.port !== "" ? u.port : scheme === "http" || scheme === "grpc" ? "80" : "443";
      return u.hostname === "" ? undefined : `${u.hostname}:${port}`;
    } catch {
      return undefined;
    }
  }
  const m = /^(\[[0-9a-f:.]+\]|[^\s:/[\]]+):(\d{1,5})$/i.exec(a);
  return m === null ? undefined : `${m[1]!.toLowerCase()}:${m[2]}`;
}

/**
 * Whether a URL-form gRPC address asks for TLS: `true` for https/grpcs, `false` for
 * http/grpc, `undefined` for `host:port` (the client then decides: TLS on port 443).
 */
export function grpcAddressTls(address: string): boolean | undefined {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(address.trim())?.[1]?.toLowerCase();
  if (scheme === undefined) return undefined;
  return scheme === "https" || scheme === "grpcs";
}

/**
 * `AgentInterface.protocolBinding` of the A2A gRPC service carried by gRPC-web (a custom binding,
 * identified by a URI as §5.8 asks: the protocol's own specification). Same service, messages and
 * status mapping as `GRPC`; works over HTTP/1.1, hence from browsers.
 */
export const GRPC_WEB_PROTOCOL_BINDING =
  "https://github.com/grpc/grpc/blob/master/doc/PROTOCOL-WEB.md";

/**
 * `AgentInterface.protocolBinding` of the A2A gRPC service carried by the Connect protocol (a custom
 * binding, identified by its protocol specification's URI, §5.8): unary calls as plain POSTs of
 * ProtoJSON or binary, streams enveloped; errors are Connect's JSON with the gRPC status details.
 */
export const CONNECT_PROTOCOL_BINDING = "https://connectrpc.com/docs/protocol/";
