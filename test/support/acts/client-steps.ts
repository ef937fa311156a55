/**
 * Client steps (§10): hand a client a canonical wire payload and let it parse it. The
 * payloads of the suite are JSON-RPC responses; each binding gets the same content in its
 * own framing from a throwaway local server:
 *
 * - JSON-RPC: the payload verbatim (only `id` is set to the request's id, as any server
 *   would; a bare result such as an Agent Card is wrapped in an envelope);
 * - HTTP+JSON: `result` as the 200 body, or the error as its §11.6 body and status;
 * - gRPC: `result` decoded leniently into the response message and sent by a generated
 *   gRPC server (binary protobuf), or the error as its gRPC status.
 *
 * `get_agent_card` is not a client call on any binding: its payload is read with the
 * AgentCard schema (protobuf-es, unknown fields ignored as §5.7 asks).
 */
import { fromJson, toJson, type JsonValue as PbJson } from "@bufbuild/protobuf";
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { AgentCardSchema } from "../../../generated-example/gen/a2a_pb.js";
import { RESPONSE_SCHEMAS } from "./canonical-json.js";
import { errorRegistry } from "../../../generated-example/gen/a2a_a2a_errors.js";
import { toHttpError } from "../../../generated-example/gen/a2a-runtime/a2a-error.js";
import { listenA2AServiceGrpc } from "../../../generated-example/gen/a2a_a2a_grpc_server.js";
import type { A2AServiceHandler } from "../../../generated-example/gen/a2a_a2a_handler.js";
import { listen } from "../servers.js";
import type { ActsClientFactory, Binding, JsonObject, JsonValue, OperationOutcome, UnaryOperation } from "./client.js";
import type { AbstractOperation } from "./operations.js";

/** The smallest valid request of each operation (the fake server ignores it). */
const REQUESTS: Readonly<Record<UnaryOperation, JsonObject>> = {
  send_message: { message: { messageId: "acts-parse", role: "ROLE_USER", parts: [{ text: "parse" }] } },
  get_task: { id: "acts-parse" },
  cancel_task: { id: "acts-parse" },
  list_tasks: {},
  get_extended_agent_card: {},
  create_push_config: { taskId: "acts-parse", url: "https://example.com/hook" },
  get_push_config: { taskId: "acts-parse", id: "acts-parse" },
  list_push_configs: { taskId: "acts-parse" },
  delete_push_config: { taskId: "acts-parse", id: "acts-parse" },
};

const isMap = (v: unknown): v is JsonObject => v !== null && typeof v === "object" && !Array.isArray(v);

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** A local agent that answers every call with the same canned content; `requests` counts what reached it. */
export interface FakeAgent {
  readonly endpoints: { cardUrl: string; jsonrpc: string; rest: string; grpc: string };
  readonly requests: number;
  close(): Promise<void>;
}

/** A fake agent answering every call of `binding` with `envelope`'s content (as the response of `operation`). */
export async function fakeAgent(binding: Binding, envelope: JsonObject, operation: UnaryOperation): Promise<FakeAgent> {
  let requests = 0;
  if (binding === "grpc") {
    const answer = () => {
      requests++;
      if (isMap(envelope["error"])) throw errorRegistry.fromJsonRpcError(envelope["error"]);
      return fromJson(RESPONSE_SCHEMAS[operation], (envelope["result"] ?? {}) as PbJson, { ignoreUnknownFields: true });
    };
    const handler = new Proxy({}, { get: () => async () => answer() }) as A2AServiceHandler;
    const endpoint = await listenA2AServiceGrpc(handler, { listen: { host: "127.0.0.1", port: 0 } });
    return { endpoints: { cardUrl: "", jsonrpc: "", rest: "", grpc: endpoint.address }, get requests() { return requests; }, close: () => endpoint.close() };
  }
  const server = await listen((req: IncomingMessage, res: ServerResponse) => {
    requests++;
    void readBody(req).then((text) => {
      if (binding === "jsonrpc") {
        let id: JsonValue = null;
        try {
          id = (JSON.parse(text) as { id?: JsonValue }).id ?? null;
        } catch {
          /* keep null */
        }
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ...envelope, id }));
        return;
      }
      if (isMap(envelope["error"])) {
        const error = toHttpError(errorRegistry.fromJsonRpcError(envelope["error"]));
        res.writeHead(error.status, { "content-type": "application/json" }).end(JSON.stringify(error.body));
        return;
      }
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(envelope["result"] ?? {}));
    });
  });
  return { endpoints: { cardUrl: `${server.url}/.well-known/agent-card.json`, jsonrpc: server.url, rest: server.url, grpc: "" }, get requests() { return requests; }, close: () => server.close() };
}

/** `RunnerConfig.parseWirePayload` for one client implementation on one binding. */
export function wirePayloadParser(factory: ActsClientFactory, binding: Binding) {
  return async (operation: AbstractOperation, payload: JsonValue, signal: AbortSignal): Promise<OperationOutcome> => {
    if (operation === "get_agent_card") {
      try {
        return { ok: true, body: toJson(AgentCardSchema, fromJson(AgentCardSchema, payload as PbJson, { ignoreUnknownFields: true })) as JsonValue };
      } catch (e) {
        return { ok: false, error: { type: "ParseError", message: e instanceof Error ? e.message : String(e) } };
      }
    }
    if (operation === "send_streaming_message" || operation === "subscribe_to_task") throw new Error(`client steps for ${operation} are not supported`);
    const envelope: JsonObject = isMap(payload) && payload["jsonrpc"] !== undefined ? payload : { jsonrpc: "2.0", id: randomUUID(), result: payload };
    const agent = await fakeAgent(binding, envelope, operation);
    const client = await factory(binding, agent.endpoints);
    try {
      return await client.call(operation, REQUESTS[operation], { headers: {}, signal });
    } finally {
      await client.close();
      await agent.close();
    }
  };
}
