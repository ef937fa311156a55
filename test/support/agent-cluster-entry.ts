// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The example agent as the multi-instance tests run it in a process of its own (bundled by
 * ./agent-cluster.ts): `npm run example`'s environment (generated-example/agent/main.ts: A2A_TASK_DB,
 * A2A_INSTANCE_ID, A2A_HEARTBEAT_MS, A2A_LEASE_MS, A2A_HTTP_PORT, A2A_GRPC_PORT, A2A_PUBLIC_URL,
 * A2A_PUBLIC_GRPC_ADDRESS), plus A2A_TEST_AGENT_OPTIONS: JSON {@link ExampleAgentOptions} that main.ts
 * has no variable for (bearer tokens, requireAuthentication, capabilities, longRunningMs,
 * allowPrivateWebhooks, shutdownGraceMs), so that ACTS's agent profiles can run as clusters. It prints
 * main.ts's endpoints line, and stops on SIGTERM/SIGINT (exit 0) or when its parent goes away.
 */
import {
  type ExampleAgentOptions,
  startExampleAgent,
} from "../../generated-example/agent/echo-agent.js";

/** A variable of the environment, or undefined when it is unset or empty. */
function env(name: string): string | undefined {
  const value = process.env[name];
  return value === undefined || value === "" ? undefined : value;
}

/** The options main.ts derives from the environment, with the test's JSON options over them. */
function optionsFromEnv(): ExampleAgentOptions {
  const heartbeatMs = env("A2A_HEARTBEAT_MS");
  const leaseMs = env("A2A_LEASE_MS");
  const instanceId = env("A2A_INSTANCE_ID");
  const taskDatabase = env("A2A_TASK_DB");
  const publicUrl = env("A2A_PUBLIC_URL");
  const publicGrpcAddress = env("A2A_PUBLIC_GRPC_ADDRESS");
  const extra = JSON.parse(env("A2A_TEST_AGENT_OPTIONS") ?? "{}") as ExampleAgentOptions;
  return {
    httpPort: Number(env("A2A_HTTP_PORT") ?? 0),
    grpcPort: Number(env("A2A_GRPC_PORT") ?? 0),
    ...(taskDatabase !== undefined ? { taskDatabase } : {}),
    cluster: {
      ...(instanceId !== undefined ? { instanceId } : {}),
      ...(heartbeatMs !== undefined ? { heartbeatMs: Number(heartbeatMs) } : {}),
      ...(leaseMs !== undefined ? { leaseMs: Number(leaseMs) } : {}),
    },
    ...(publicUrl !== undefined ? { publicUrl } : {}),
    ...(publicGrpcAddress !== undefined ? { publicGrpcAddress } : {}),
    ...extra,
  };
}

const agent = await startExampleAgent(optionsFromEnv()).catch((e: unknown) => {
  console.error(`example agent: cannot start: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
const { endpoints } = agent;
// The line ./agent-cluster.ts (and test/support/crash-harness.ts) parse: main.ts's.
console.log(
  `example agent: card ${endpoints.cardUrl} · JSON-RPC ${endpoints.jsonrpc} · HTTP+JSON ${endpoints.rest} · gRPC ${endpoints.grpc} (h2c, reflection) · gRPC-web and Connect ${endpoints.connect} · WebSocket ${endpoints.ws}`,
);

let stopping = false;
/** Closes the agent (running turns get its shutdown grace) and exits: 0 when it closed cleanly. */
function stop(why: string): void {
  if (stopping) return;
  stopping = true;
  console.log(`${why}: stopping`);
  agent.close().then(
    () => process.exit(0),
    (e: unknown) => {
      console.error("example agent: error while stopping", e);
      process.exit(1);
    },
  );
}
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => stop(signal));
// A test worker that dies does not leave its agents behind.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) stop("parent process exited");
}, 500).unref();
