/** `npm run example`: starts the example agent until SIGINT/SIGTERM. */
import { startExampleAgent } from "./echo-agent.js";

const agent = await startExampleAgent(Number(process.env["A2A_HTTP_PORT"] ?? 41241), Number(process.env["A2A_GRPC_PORT"] ?? 41242));
console.log(`example agent: card ${agent.cardUrl} · JSON-RPC /a2a/jsonrpc · HTTP+JSON /a2a/rest · gRPC ${agent.grpcAddress} (h2c)`);
let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping`);
    void agent.close().then(() => process.exit(0));
  });
}
