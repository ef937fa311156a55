/**
 * Client steps (§10): hand a client a canonical wire payload and let it parse it. The
 * payloads of the suite are JSON-RPC responses; each binding gets the same content in its
 * own framing from a throwaway local agent written independently of the code under test
 * (fake-agent.ts): the payload verbatim on JSON-RPC, its §11.6 / binary forms on HTTP+JSON
 * and gRPC.
 *
 * `get_agent_card` is not a client call on any binding: its payload is read with the
 * AgentCard schema (protobuf-es, unknown fields ignored as §5.7 asks).
 */
import { fromJson, toJson, type JsonValue as PbJson } from "@bufbuild/protobuf";
import { randomUUID } from "node:crypto";
import { AgentCardSchema } from "../../../generated-example/gen/a2a_pb.js";
import type {
  ActsClientFactory,
  Binding,
  JsonObject,
  JsonValue,
  OperationOutcome,
  UnaryOperation,
} from "./client.js";
import { fakeAgent } from "./fake-agent.js";
import type { AbstractOperation } from "./operations.js";
import { OPERATION_METHODS } from "./wire-judge.js";

/** The smallest valid request of each operation (the fake agent ignores it). */
export const MINIMAL_REQUESTS: Readonly<Record<UnaryOperation, JsonObject>> = {
  send_message: {
    message: { messageId: "acts-parse", role: "ROLE_USER", parts: [{ text: "parse" }] },
  },
  get_task: { id: "acts-parse" },
  cancel_task: { id: "acts-parse" },
  list_tasks: {},
  get_extended_agent_card: {},
  create_push_config: { taskId: "acts-parse", url: "https://example.com/hook" },
  get_push_config: { taskId: "acts-parse", id: "acts-parse" },
  list_push_configs: { taskId: "acts-parse" },
  delete_push_config: { taskId: "acts-parse", id: "acts-parse" },
};

const isMap = (v: unknown): v is JsonObject =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/** `RunnerConfig.parseWirePayload` for one client implementation on one binding. */
export function wirePayloadParser(factory: ActsClientFactory, binding: Binding) {
  return async (
    operation: AbstractOperation,
    payload: JsonValue,
    signal: AbortSignal,
  ): Promise<OperationOutcome> => {
    if (operation === "get_agent_card") {
      try {
        return {
          ok: true,
          body: toJson(
            AgentCardSchema,
            fromJson(AgentCardSchema, payload as PbJson, { ignoreUnknownFields: true }),
          ) as JsonValue,
        };
      } catch (e) {
        return {
          ok: false,
          error: { type: "ParseError", message: e instanceof Error ? e.message : String(e) },
        };
      }
    }
    if (operation === "send_streaming_message" || operation === "subscribe_to_task")
      throw new Error(`client steps for ${operation} are not supported`);
    const envelope: JsonObject =
      isMap(payload) && payload["jsonrpc"] !== undefined
        ? payload
        : { jsonrpc: "2.0", id: randomUUID(), result: payload };
    const agent = await fakeAgent(binding, envelope, OPERATION_METHODS[operation]);
    const client = await factory(binding, agent.endpoints);
    try {
      return await client.call(operation, MINIMAL_REQUESTS[operation], { headers: {}, signal });
    } finally {
      await client.close();
      await agent.close();
    }
  };
}
