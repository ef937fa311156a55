// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Security review (#17) of the Agent Card and GetExtendedAgentCard (spec §3.1.11, §13.3) in the
 * example agent, whose extended card has one more skill, readable by tokens with `extendedCard`.
 * Proves, on every binding it serves (JSON-RPC, HTTP+JSON, gRPC, gRPC-web, Connect, WebSocket):
 * - the public card at /.well-known/agent-card.json holds nothing of the extended card's own
 *   content, and is the same bytes whoever asks (no token, a token allowed the extended card, a
 *   bad token), also when the agent requires authentication;
 * - GetExtendedAgentCard: no token → UnauthenticatedError (401 with WWW-Authenticate on the HTTP
 *   bindings, UNAUTHENTICATED on gRPC, -32098 on WebSocket), an unknown token (`constructor` and
 *   `__proto__` included) → the same, a token
 *   without the permission → PermissionDeniedError (403 / PERMISSION_DENIED / -32099), the allowed
 *   token → the extended card, the same on every binding;
 * - no byte of any refusal carries the extended card's own content;
 * - the task runtime refuses the card to a call without a principal before the author's card
 *   function runs (the function is the permission check, never the authentication check), and a
 *   card function that throws an unexpected Error is the generic InternalError, its message unsent.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { create, toJson } from "@bufbuild/protobuf";
import { createConnectTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import { createCallContext } from "@protoc-gen-a2a/runtime";
import { AgentCardSchema, type AgentCard } from "../../../generated-example/gen/a2a_pb.js";
import {
  InternalError,
  PermissionDeniedError,
  UnauthenticatedError,
} from "../../../generated-example/gen/a2a_a2a_errors.js";
import type { A2AServiceClient } from "../../../generated-example/gen/a2a_a2a_handler.js";
import { createA2AServiceTaskHandler } from "../../../generated-example/gen/a2a_a2a_task_handler.js";
import { A2AServiceJsonRpcClient } from "../../../generated-example/gen/a2a_a2a_jsonrpc_client.js";
import { A2AServiceRestClient } from "../../../generated-example/gen/a2a_a2a_rest_client.js";
import { A2AServiceGrpcClient } from "../../../generated-example/gen/a2a_a2a_grpc_client.js";
import {
  A2AServiceWsClient,
  connectWs,
  type WsSocketConnection,
} from "../../../generated-example/bindings/ws/ws-client.js";
import {
  startExampleAgent,
  type ExampleAgent,
} from "../../../generated-example/agent/echo-agent.js";
import { bearer, failureOf } from "../../support/security-operations.js";
import { WIRE_BINDINGS, rawAnswer, type WireBinding } from "../../support/security-wire.js";
import { spyHandler, startAllBindings } from "../../support/security-servers.js";

const TOKENS = {
  "admin-token": { subject: "admin", extendedCard: true },
  "user-token": { subject: "user", extendedCard: false },
};

interface Running {
  agent: ExampleAgent;
  ws: WsSocketConnection;
  clients: Record<WireBinding, A2AServiceClient>;
}

async function start(requireAuthentication: boolean): Promise<Running> {
  const agent = await startExampleAgent({ tokens: TOKENS, requireAuthentication });
  const e = agent.endpoints;
  const ws = connectWs(e.ws);
  const clients: Record<WireBinding, A2AServiceClient> = {
    JSONRPC: new A2AServiceJsonRpcClient({ url: e.jsonrpc }),
    "HTTP+JSON": new A2AServiceRestClient({ url: e.rest }),
    GRPC: new A2AServiceGrpcClient({ address: e.grpc }),
    "GRPC-WEB": new A2AServiceGrpcClient({
      address: e.connect,
      transport: createGrpcWebTransport({ baseUrl: e.connect, httpVersion: "1.1" }),
    }),
    CONNECT: new A2AServiceGrpcClient({
      address: e.connect,
      transport: createConnectTransport({ baseUrl: e.connect, httpVersion: "1.1" }),
    }),
    WS: new A2AServiceWsClient({ url: e.ws, connection: ws }),
  };
  return { agent, ws, clients };
}

/** The card's skills as JSON strings: what the extended card has and the public one lacks is its own content. */
const skillsOf = (card: AgentCard) =>
  (toJson(AgentCardSchema, card) as { skills: object[] }).skills.map((s) => JSON.stringify(s));

describe.each([false, true])(
  "the example agent (requireAuthentication: %s)",
  (requireAuthentication) => {
    let running: Running;
    let publicCard: string;
    let extendedCard: AgentCard;
    /** Strings of the extended card's own content: its extra skills, their names and descriptions. */
    let extendedOnly: string[];

    beforeAll(async () => {
      running = await start(requireAuthentication);
      publicCard = await (await fetch(running.agent.cardUrl)).text();
      extendedCard = await running.clients.JSONRPC.getExtendedAgentCard({}, bearer("admin-token"));
      const publicSkills = new Set(
        (JSON.parse(publicCard) as { skills: object[] }).skills.map((s) => JSON.stringify(s)),
      );
      const extra = skillsOf(extendedCard).filter((skill) => !publicSkills.has(skill));
      // Its name and description, and the whole skill (its id and tags alone, "extended", are words the refusals may use).
      extendedOnly = extra.flatMap((s) => {
        const skill = JSON.parse(s) as { name: string; description: string };
        return [s, skill.name, skill.description];
      });
    });
    afterAll(async () => {
      await running.ws.close();
      await running.agent.close();
    });

    it("the public card has none of the extended card's own content, and is the same bytes for every caller", async () => {
      expect(extendedOnly.length).toBeGreaterThan(0); // the example's extended card has its own skill
      for (const value of extendedOnly) expect(publicCard).not.toContain(value);
      for (const headers of [
        { authorization: "Bearer admin-token" },
        { authorization: "Bearer nope" },
        { authorization: "Basic YWRtaW46YWRtaW4=" },
      ]) {
        const response = await fetch(running.agent.cardUrl, { headers });
        expect(response.status).toBe(200);
        expect(await response.text()).toBe(publicCard);
      }
      const card = JSON.parse(publicCard) as {
        capabilities: { extendedAgentCard?: boolean };
        securityRequirements?: unknown;
      };
      expect(card.capabilities.extendedAgentCard).toBe(true);
      expect(card.securityRequirements !== undefined).toBe(requireAuthentication);
    });

    it.each(WIRE_BINDINGS)(
      "GetExtendedAgentCard over %s: no token / an unknown token → Unauthenticated, no permission → PermissionDenied, the allowed token → the extended card",
      async (binding) => {
        const client = running.clients[binding];
        expect(await failureOf(client.getExtendedAgentCard({}))).toBeInstanceOf(
          UnauthenticatedError,
        );
        // Unknown tokens, also the names every object has (the token table is looked up by own keys only).
        for (const token of ["nope", "constructor", "__proto__", "toString", "hasOwnProperty"]) {
          expect(
            await failureOf(client.getExtendedAgentCard({}, bearer(token))),
            token,
          ).toBeInstanceOf(UnauthenticatedError);
        }
        expect(
          await failureOf(
            client.getExtendedAgentCard({}, { headers: { authorization: "Bearer" } }),
          ),
        ).toBeInstanceOf(UnauthenticatedError);
        expect(
          await failureOf(client.getExtendedAgentCard({}, bearer("user-token"))),
        ).toBeInstanceOf(PermissionDeniedError);
        const card = await client.getExtendedAgentCard({}, bearer("admin-token"));
        expect(toJson(AgentCardSchema, card)).toEqual(toJson(AgentCardSchema, extendedCard));
      },
    );

    it.each(WIRE_BINDINGS)(
      "over %s, no byte of a refusal carries extended content; 401 has its challenge and gRPC its status",
      async (binding) => {
        const refusals: [string | undefined, string][] = [
          [undefined, "UNAUTHENTICATED"],
          ["nope", "UNAUTHENTICATED"],
          ["user-token", "PERMISSION_DENIED"],
        ];
        for (const [token, reason] of refusals) {
          const answer = await rawAnswer(
            binding,
            running.agent.endpoints,
            "GetExtendedAgentCard",
            {},
            token,
          );
          expect(answer, `${token}`).toContain(reason);
          for (const value of extendedOnly) expect(answer).not.toContain(value);
          if (binding === "JSONRPC" || binding === "HTTP+JSON") {
            expect(answer).toMatch(
              reason === "UNAUTHENTICATED"
                ? /^HTTP 401\n.*\nwww-authenticate: Bearer\n/
                : /^HTTP 403\n.*\nwww-authenticate: null\n/,
            );
          }
          if (binding === "GRPC")
            expect(answer).toMatch(
              reason === "UNAUTHENTICATED" ? /^grpc-status 16\n/ : /^grpc-status 7\n/,
            );
          if (binding === "WS")
            expect(answer).toMatch(
              reason === "UNAUTHENTICATED" ? /"code":-32098/ : /"code":-32099/,
            );
        }
      },
    );
  },
);

describe("the task runtime's GetExtendedAgentCard", () => {
  const card = create(AgentCardSchema, {
    name: "secret-card",
    skills: [{ id: "secret-skill", name: "Secret", description: "extended only", tags: [] }],
  });
  const executor = { execute: async () => undefined };

  it("refuses a call without a principal before the card function runs; the function decides for principals", async () => {
    const asked: unknown[] = [];
    const handler = createA2AServiceTaskHandler<{ may: boolean }>({
      executor,
      capabilities: { extendedAgentCard: true },
      extendedAgentCard: ({ principal }) => {
        asked.push(principal);
        if (principal?.may !== true) throw new PermissionDeniedError("not this one");
        return card;
      },
    });
    const call = (principal?: { may: boolean }) =>
      handler.getExtendedAgentCard(
        {} as never,
        createCallContext({
          operation: "GetExtendedAgentCard",
          binding: "JSONRPC",
          ...(principal === undefined ? {} : { principal }),
        }),
      );
    const refused = await failureOf(call());
    expect(refused).toBeInstanceOf(UnauthenticatedError);
    expect(refused.message).not.toContain("secret");
    expect(asked).toEqual([]);
    expect(await failureOf(call({ may: false }))).toBeInstanceOf(PermissionDeniedError);
    expect((await call({ may: true })).name).toBe("secret-card");
    expect(asked).toEqual([{ may: false }, { may: true }]);
  });

  it("a card function that throws an unexpected Error is InternalError on every binding, its message unsent and logged", async () => {
    const logged: unknown[] = [];
    const spy = spyHandler(
      createA2AServiceTaskHandler<{ user: string }>({
        executor,
        capabilities: { extendedAgentCard: true },
        extendedAgentCard: () => {
          throw new Error("vault unreachable: extended-secret-42");
        },
      }),
    );
    const servers = await startAllBindings(spy.handler, {
      authenticate: () => ({ user: "u" }),
      logger: { error: (_m, e) => logged.push(e) },
    });
    try {
      for (const [path, client] of Object.entries(servers.clients)) {
        const failure = await failureOf(client.getExtendedAgentCard({}));
        expect(failure, path).toBeInstanceOf(InternalError);
        expect(failure.message, path).not.toContain("extended-secret-42");
      }
      const raw = await fetch(`${servers.rest}/extendedAgentCard`, {
        headers: { "a2a-version": "1.0" },
      });
      expect(raw.status).toBe(500);
      expect(await raw.text()).not.toContain("extended-secret-42");
      expect(logged).toHaveLength(Object.keys(servers.clients).length + 1);
    } finally {
      await servers.close();
    }
  });
});
