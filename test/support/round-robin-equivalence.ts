// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The binding-equivalence kit (`@protoc-gen-a2a/runtime/testing`) through the round-robin front
 * (./round-robin.ts). The kit cannot target a running agent: a binding under test is a factory
 * that serves the kit's own reference agent (an in-process handler whose behaviour its scenarios
 * depend on) and returns a client. So these candidates serve that handler, over each generated
 * binding, on three listeners behind a front, and call through the front: where they agree with
 * the direct bindings on every scenario (errors, headers, streams, trailers, cancellation), the
 * front is transparent, and what a test sees through it is the agents' doing.
 */
import { listenHttp } from "@protoc-gen-a2a/runtime/testing";
import { A2AServiceGrpcClient } from "../../generated-example/gen/a2a_a2a_grpc_client.js";
import { listenA2AServiceGrpc } from "../../generated-example/gen/a2a_a2a_grpc_server.js";
import type { A2AServiceBindingFactory } from "../../generated-example/gen/a2a_a2a_equivalence.js";
import { A2AServiceJsonRpcClient } from "../../generated-example/gen/a2a_a2a_jsonrpc_client.js";
import { createA2AServiceJsonRpcServer } from "../../generated-example/gen/a2a_a2a_jsonrpc_server.js";
import { A2AServiceRestClient } from "../../generated-example/gen/a2a_a2a_rest_client.js";
import { createA2AServiceRestServer } from "../../generated-example/gen/a2a_a2a_rest_server.js";
import { startRoundRobinFront } from "./round-robin.js";

/** Listeners per binding behind the front (one handler: the kit's reference agent keeps its state in memory). */
const LISTENERS = 3;

/** An HTTP binding's node listener served on {@link LISTENERS} ports behind a front; the front's URL. */
async function httpBehindFront(
  listener: Parameters<typeof listenHttp>[0],
): Promise<{ url: string; close(): Promise<void> }> {
  const servers = await Promise.all(Array.from({ length: LISTENERS }, () => listenHttp(listener)));
  const front = await startRoundRobinFront(
    servers.map((s, i) => ({ id: `l${i}`, httpOrigin: s.url, grpcAddress: "" })),
  );
  return {
    url: front.url,
    close: async () => {
      await front.close();
      await Promise.all(servers.map((s) => s.close()));
    },
  };
}

/** The generated bindings, each served behind a round-robin front over several listeners, with clients of the front. */
export const bindingsBehindFront = {
  JSONRPC: async (handler, serverOptions) => {
    const { url, close } = await httpBehindFront(
      createA2AServiceJsonRpcServer(handler, serverOptions).node,
    );
    return {
      client: new A2AServiceJsonRpcClient({ url }),
      clientWith: (options) => new A2AServiceJsonRpcClient({ ...options, url }),
      close,
    };
  },
  "HTTP+JSON": async (handler, serverOptions) => {
    const { url, close } = await httpBehindFront(
      createA2AServiceRestServer(handler, serverOptions).node,
    );
    return {
      client: new A2AServiceRestClient({ url }),
      clientWith: (options) => new A2AServiceRestClient({ ...options, url }),
      close,
    };
  },
  GRPC: async (handler, serverOptions) => {
    const endpoints = await Promise.all(
      Array.from({ length: LISTENERS }, () =>
        listenA2AServiceGrpc(handler, { ...serverOptions, listen: { host: "127.0.0.1", port: 0 } }),
      ),
    );
    const front = await startRoundRobinFront(
      endpoints.map((e, i) => ({
        id: `l${i}`,
        httpOrigin: "http://127.0.0.1:1",
        grpcAddress: e.address,
      })),
    );
    const address = front.grpcAddress;
    return {
      client: new A2AServiceGrpcClient({ address }),
      clientWith: (options) => new A2AServiceGrpcClient({ ...options, address }),
      close: async () => {
        await front.close();
        await Promise.all(endpoints.map((e) => e.close()));
      },
    };
  },
} as const satisfies Readonly<Record<string, A2AServiceBindingFactory>>;
