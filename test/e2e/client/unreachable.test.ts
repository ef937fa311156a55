/**
 * An agent that cannot be reached gives the same A2AError on every binding (what Connect's
 * gRPC client reports: gRPC status UNAVAILABLE, reason UNKNOWN, the socket's message), with
 * the original failure as `cause` on the HTTP bindings; the caller's own abort and timeout
 * stay what they were.
 */
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { A2AServiceGrpcClient } from "../../../generated-example/gen/a2a_a2a_grpc_client.js";
import { A2AServiceJsonRpcClient } from "../../../generated-example/gen/a2a_a2a_jsonrpc_client.js";
import { A2AServiceRestClient } from "../../../generated-example/gen/a2a_a2a_rest_client.js";
import { isA2AError } from "@protoc-gen-a2a/runtime";
import type { A2AServiceClient } from "../../../generated-example/gen/a2a_a2a_handler.js";
import { listen } from "../../support/servers.js";

/** A port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const CLIENTS: readonly [string, (port: number) => A2AServiceClient, boolean][] = [
  ["JSON-RPC", (port) => new A2AServiceJsonRpcClient({ url: `http://127.0.0.1:${port}/` }), true],
  ["HTTP+JSON", (port) => new A2AServiceRestClient({ url: `http://127.0.0.1:${port}` }), true],
  ["gRPC", (port) => new A2AServiceGrpcClient({ address: `127.0.0.1:${port}` }), false],
];

describe.each(CLIENTS)("%s client", (_, make, http) => {
  it("an unreachable agent: A2AError, gRPC status UNAVAILABLE, the socket's message", async () => {
    const client = make(await closedPort());
    const thrown = await client.getTask({ id: "t" }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isA2AError(thrown)).toBe(true);
    const err = thrown as { grpcCode: number; reason: string; message: string; cause?: unknown };
    expect(err.grpcCode).toBe(14);
    expect(err.reason).toBe("UNKNOWN");
    expect(err.message).toMatch(/ECONNREFUSED/);
    if (http) expect(err.cause).toBeInstanceOf(TypeError); // fetch's own failure, kept
  });

  it("a stream to an unreachable agent fails the same way", async () => {
    const client = make(await closedPort());
    const thrown = await (async () => {
      for await (const _event of client.subscribeToTask({ id: "t" })) break;
    })().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isA2AError(thrown)).toBe(true);
    expect((thrown as { grpcCode: number }).grpcCode).toBe(14);
  });

  it("the caller's abort is not turned into UNAVAILABLE", async () => {
    // A server that accepts and never answers, so only the abort can end the call.
    const silent = await listen(() => {});
    const port = Number(new URL(silent.url).port);
    try {
      const client = make(port);
      const controller = new AbortController();
      const pending = client.getTask({ id: "t" }, { signal: controller.signal }).then(
        () => undefined,
        (e: unknown) => e,
      );
      setTimeout(() => controller.abort(new Error("stop")), 50);
      const thrown = await pending;
      expect((thrown as { grpcCode?: number }).grpcCode).not.toBe(14);
    } finally {
      await silent.close();
    }
  });
});
