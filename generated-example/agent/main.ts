/**
 * `npm run example`: starts the example agent until SIGINT/SIGTERM. A2A_PROFILE=tck starts its
 * TCK profile (loopback webhooks, REST `application/json`; see echo-agent.ts); A2A_CAPABILITIES
 * (e.g. "none", or "streaming,pushNotifications") the optional capabilities declared (default
 * all); A2A_HTTP_PORT and A2A_GRPC_PORT 0 pick free ports; A2A_PUBLIC_URL and A2A_PUBLIC_GRPC_ADDRESS the addresses
 * the card names (a proxy's in front of several instances).
 */
import { SqliteTaskStoreError } from "@protoc-gen-a2a/runtime/sqlite";
import { capabilitiesFromEnv, profileFromEnv, startExampleAgent } from "./echo-agent.js";

const profile = profileFromEnv(process.env["A2A_PROFILE"]);
const agent = await startExampleAgent({
  profile,
  capabilities: capabilitiesFromEnv(process.env["A2A_CAPABILITIES"]),
  httpPort: Number(process.env["A2A_HTTP_PORT"] ?? 41241),
  grpcPort: Number(process.env["A2A_GRPC_PORT"] ?? 41242),
  // A2A_TASK_DB=tasks.db keeps tasks and push configs across restarts (SQLite, one process per file);
  // A2A_TASK_DB=postgres://… in PostgreSQL, which several instances of this agent may share. Default: in memory.
  ...(process.env["A2A_TASK_DB"] ? { taskDatabase: process.env["A2A_TASK_DB"] } : {}),
  // With PostgreSQL: A2A_INSTANCE_ID names this instance (default random), A2A_HEARTBEAT_MS and A2A_LEASE_MS (default 1000
  // and 10000) say how soon the others notice that it died.
  cluster: {
    ...(process.env["A2A_INSTANCE_ID"] ? { instanceId: process.env["A2A_INSTANCE_ID"] } : {}),
    ...(process.env["A2A_HEARTBEAT_MS"]
      ? { heartbeatMs: Number(process.env["A2A_HEARTBEAT_MS"]) }
      : {}),
    ...(process.env["A2A_LEASE_MS"] ? { leaseMs: Number(process.env["A2A_LEASE_MS"]) } : {}),
  },
  // Behind a reverse proxy or load balancer: A2A_PUBLIC_URL (e.g. https://agent.example.com) is the base of the card's HTTP
  // interface URLs, A2A_PUBLIC_GRPC_ADDRESS (host:port) its gRPC address; default: this process's own addresses.
  ...(process.env["A2A_PUBLIC_URL"] ? { publicUrl: process.env["A2A_PUBLIC_URL"] } : {}),
  ...(process.env["A2A_PUBLIC_GRPC_ADDRESS"]
    ? { publicGrpcAddress: process.env["A2A_PUBLIC_GRPC_ADDRESS"] }
    : {}),
}).catch((e: unknown) => {
  // An unusable A2A_TASK_DB (not SQLite, damaged, locked, read-only, …): one line that names the file and says what to do.
  if (e instanceof SqliteTaskStoreError) {
    console.error(`example agent: cannot start: ${e.message}`);
    process.exit(1);
  }
  // A PostgreSQL that cannot be reached or used: one line (no stack).
  if (/^postgres(ql)?:\/\//i.test(process.env["A2A_TASK_DB"] ?? "") && e instanceof Error) {
    console.error(
      `example agent: cannot start: the PostgreSQL task database (A2A_TASK_DB) cannot be used: ${e.message}`,
    );
    process.exit(1);
  }
  throw e;
});
const { endpoints } = agent;
console.log(
  `example agent: card ${endpoints.cardUrl} · JSON-RPC ${endpoints.jsonrpc} · HTTP+JSON ${endpoints.rest} · gRPC ${endpoints.grpc} (h2c, reflection) · gRPC-web and Connect ${endpoints.connect} · WebSocket ${endpoints.ws}`,
);
if (profile !== "default") console.log(`example agent: profile ${profile}`);
console.log(
  `example agent: API reference ${endpoints.docs} · OpenAPI ${endpoints.openapi} · OpenRPC ${endpoints.openrpc}`,
);

let stopping = false;
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
// `npm run example` starts us under `sh -c`, which dies of npm's SIGTERM without passing it on:
// stop as well when the process that started us goes away.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) stop("parent process exited");
}, 500).unref();
