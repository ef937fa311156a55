/**
 * The request limits (issue #17, runtime/src/pipeline/limits.ts) on every binding, with real servers on 127.0.0.1:
 *   - JSON nesting depth (`maxJsonDepth`, default 64): a deeper body is refused before it is parsed,
 *     JSON-RPC -32600 (id null), HTTP+JSON 400 INVALID_REQUEST; a body at the limit passes; brackets
 *     inside strings do not count; a deep Struct sent over gRPC (binary) is INVALID_ARGUMENT naming the field;
 *   - parts per message (`maxPartsPerMessage`, default 1,000) and metadata size (`maxMetadataBytes`,
 *     default 64 KiB): InvalidParams naming the field (BadRequest field violation, ErrorInfo metadata
 *     `limit`), on JSON-RPC, HTTP+JSON, gRPC on grpc-js and gRPC on Connect (its lean unary path), the
 *     handler not called; a request at the limit is served;
 *   - the body size limit (`maxBodyBytes`): JSON-RPC -32600, HTTP+JSON 413 INVALID_REQUEST.
 */
import {
  connect as connectHttp2,
  type ClientHttp2Session,
  type IncomingHttpHeaders,
} from "node:http2";
import { create, fromBinary, toBinary, type JsonObject } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SendMessageRequestSchema } from "../../../generated-example/gen/a2a_pb.js";
import {
  BadRequestSchema,
  ErrorInfoSchema,
} from "../../../generated-example/gen/google/rpc/error_details_pb.js";
import { StatusSchema } from "../../../generated-example/gen/google/rpc/status_pb.js";
import { createA2AServiceJsonRpcServer } from "../../../generated-example/gen/a2a_a2a_jsonrpc_server.js";
import { createA2AServiceRestServer } from "../../../generated-example/gen/a2a_a2a_rest_server.js";
import {
  createA2AServiceGrpcRoutes,
  listenA2AServiceGrpc,
} from "../../../generated-example/gen/a2a_a2a_grpc_server.js";
import { listenGrpc, type GrpcEndpoint } from "@protoc-gen-a2a/runtime/grpc";
import {
  DEFAULT_MAX_JSON_DEPTH,
  DEFAULT_MAX_METADATA_BYTES,
  DEFAULT_MAX_PARTS_PER_MESSAGE,
  jsonDepthExceeds,
} from "@protoc-gen-a2a/runtime";
import { anyUnpack } from "@bufbuild/protobuf/wkt";
import { TestAgent } from "../../support/test-agent.js";
import { listen, type Listening } from "../../support/servers.js";
import { frame } from "../../support/grpc-frames.js";

const quiet = { error() {} };
const SMALL = {
  maxJsonDepth: 16,
  maxPartsPerMessage: 5,
  maxMetadataBytes: 256,
  maxBodyBytes: 64 * 1024,
};

const textParts = (n: number) => Array.from({ length: n }, (_, i) => ({ text: `p${i}` }));
const nested = (levels: number): JsonObject => {
  let v: JsonObject = { leaf: true };
  for (let i = 1; i < levels; i++) v = { n: v };
  return v;
};
const message = (extra: Record<string, unknown> = {}) => ({
  messageId: "m-1",
  role: "ROLE_USER",
  parts: [{ text: "hello" }],
  ...extra,
});
const base = (l: Listening) => l.url.replace(/\/$/, "");

describe("jsonDepthExceeds", () => {
  const bs = "\\"; // one backslash
  const deep = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;
  it("counts { and [ outside strings", () => {
    expect(jsonDepthExceeds(deep(5), 4)).toBe(true);
    expect(jsonDepthExceeds(deep(4), 4)).toBe(false);
    expect(jsonDepthExceeds(`{"a":"${"[".repeat(50)}"}`, 4)).toBe(false);
    expect(jsonDepthExceeds(`[{},{},{},[],[],{"a":[1,2,{"b":{}}]}]`, 5)).toBe(false);
    expect(jsonDepthExceeds(`[{},{},{},[],[],{"a":[1,2,{"b":{"c":[]}}]}]`, 5)).toBe(true);
  });

  it("skips escaped quotes and sees escaped backslashes, in short and long strings, wherever the escape falls", () => {
    for (let k = 0; k < 120; k++) {
      const pad = "z".repeat(k);
      // "pad\"[[[…" : the quote is escaped, the brackets are inside the string.
      expect(jsonDepthExceeds(`{"a":"${pad}${bs}"${"[".repeat(30)}","b":1}`, 2)).toBe(false);
      // "pad\\" then brackets: the string ends after the escaped backslash.
      expect(jsonDepthExceeds(`{"a":"${pad}${bs}${bs}",${deep(30)}}`, 4)).toBe(true);
      // "pad\\\"[[[…" : an escaped backslash, then an escaped quote: still inside.
      expect(jsonDepthExceeds(`{"a":"${pad}${bs}${bs}${bs}"${"[".repeat(30)}","b":1}`, 2)).toBe(
        false,
      );
    }
  });
});

describe("JSON-RPC and HTTP+JSON", () => {
  const agent = new TestAgent();
  let jsonrpc: Listening;
  let rest: Listening;
  let jsonrpcDefault: Listening;
  let restDefault: Listening;
  beforeAll(async () => {
    jsonrpc = await listen(createA2AServiceJsonRpcServer(agent, { logger: quiet, ...SMALL }).node);
    rest = await listen(createA2AServiceRestServer(agent, { logger: quiet, ...SMALL }).node);
    jsonrpcDefault = await listen(createA2AServiceJsonRpcServer(agent, { logger: quiet }).node);
    restDefault = await listen(createA2AServiceRestServer(agent, { logger: quiet }).node);
  });
  afterAll(async () => {
    await Promise.all([jsonrpc.close(), rest.close(), jsonrpcDefault.close(), restDefault.close()]);
  });

  const rpc = async (l: Listening, body: string) => {
    const res = await fetch(base(l), {
      method: "POST",
      headers: { "content-type": "application/json", "a2a-version": "1.0" },
      body,
    });
    return {
      status: res.status,
      body: (await res.json()) as {
        id: unknown;
        result?: unknown;
        error?: { code: number; message: string; data?: Record<string, unknown>[] };
      },
    };
  };
  const send = (l: Listening, params: unknown) =>
    rpc(l, JSON.stringify({ jsonrpc: "2.0", id: 7, method: "SendMessage", params }));
  const restSend = async (l: Listening, body: unknown) => {
    const res = await fetch(`${base(l)}/message:send`, {
      method: "POST",
      headers: { "content-type": "application/json", "a2a-version": "1.0" },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
    return {
      status: res.status,
      body: (await res.json()) as {
        error?: {
          code: number;
          status: string;
          message: string;
          details: Record<string, unknown>[];
        };
      },
    };
  };
  /** A body whose whole JSON nests `depth` levels: the envelope's 3 (2 for REST) and metadata for the rest. */
  const deepRpc = (depth: number) =>
    JSON.stringify({
      jsonrpc: "2.0",
      id: 7,
      method: "SendMessage",
      params: { message: message({ metadata: nested(depth - 3) }) },
    });
  const deepRest = (depth: number) =>
    JSON.stringify({ message: message({ metadata: nested(depth - 2) }) });

  it("JSON-RPC: a body deeper than maxJsonDepth is -32600 with id null, before parsing; at the limit it is served", async () => {
    const calls = agent.contexts.length;
    const over = await rpc(jsonrpc, deepRpc(SMALL.maxJsonDepth + 1));
    expect(over.status).toBe(200);
    expect(over.body.id).toBe(null);
    expect(over.body.error?.code).toBe(-32600);
    expect(over.body.error?.message).toContain("deeper than 16 levels");
    expect(agent.contexts.length).toBe(calls);
    const at = await rpc(jsonrpc, deepRpc(SMALL.maxJsonDepth));
    expect(at.body.error).toBeUndefined();
    expect(at.body.result).toBeDefined();
  });

  it(`JSON-RPC default (${DEFAULT_MAX_JSON_DEPTH}): 10,000 nested arrays are -32600, 64 levels are served`, async () => {
    const arrays = await rpc(
      jsonrpcDefault,
      `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"x":${"[".repeat(10_000)}${"]".repeat(10_000)}}}`,
    );
    expect(arrays.body.error?.code).toBe(-32600);
    expect((await rpc(jsonrpcDefault, deepRpc(DEFAULT_MAX_JSON_DEPTH + 1))).body.error?.code).toBe(
      -32600,
    );
    expect((await rpc(jsonrpcDefault, deepRpc(DEFAULT_MAX_JSON_DEPTH))).body.result).toBeDefined();
  });

  it("HTTP+JSON: a body deeper than maxJsonDepth is 400 INVALID_REQUEST (ErrorInfo), at the limit it is served", async () => {
    const over = await restSend(rest, deepRest(SMALL.maxJsonDepth + 1));
    expect(over.status).toBe(400);
    expect(over.body.error?.status).toBe("INVALID_ARGUMENT");
    expect(over.body.error?.details[0]?.["reason"]).toBe("INVALID_REQUEST");
    expect(over.body.error?.message).toContain("deeper than 16 levels");
    expect((await restSend(rest, deepRest(SMALL.maxJsonDepth))).status).toBe(200);
    expect((await restSend(restDefault, deepRest(DEFAULT_MAX_JSON_DEPTH + 1))).status).toBe(400);
    expect((await restSend(restDefault, deepRest(DEFAULT_MAX_JSON_DEPTH))).status).toBe(200);
  });

  it("JSON-RPC: more parts than maxPartsPerMessage is -32602 naming message.parts; at the limit it is served", async () => {
    const calls = agent.contexts.length;
    const over = await send(jsonrpc, { message: message({ parts: textParts(6) }) });
    expect(over.body.id).toBe(7);
    expect(over.body.error?.code).toBe(-32602);
    expect(over.body.error?.message).toContain("message.parts has 6 parts; at most 5");
    const info = over.body.error?.data?.find((d) => String(d["@type"]).endsWith("ErrorInfo"));
    expect(info?.["metadata"]).toEqual({ limit: "maxPartsPerMessage", maximum: "5" });
    const bad = over.body.error?.data?.find((d) => String(d["@type"]).endsWith("BadRequest")) as
      | { fieldViolations: { field: string }[] }
      | undefined;
    expect(bad?.fieldViolations[0]?.field).toBe("message.parts");
    expect(agent.contexts.length).toBe(calls);
    expect(
      (await send(jsonrpc, { message: message({ parts: textParts(5) }) })).body.result,
    ).toBeDefined();
  });

  it("JSON-RPC: metadata over maxMetadataBytes is -32602 naming the field (request, message and part metadata)", async () => {
    const big = { blob: "x".repeat(300) };
    const cases: [unknown, string][] = [
      [{ message: message(), metadata: big }, "metadata"],
      [{ message: message({ metadata: big }) }, "message.metadata"],
      [
        { message: message({ parts: [{ text: "a" }, { text: "b", metadata: big }] }) },
        "message.parts[1].metadata",
      ],
    ];
    for (const [params, field] of cases) {
      const answer = await send(jsonrpc, params);
      expect(answer.body.error?.code).toBe(-32602);
      expect(answer.body.error?.message).toContain(`${field} is larger than 256 bytes`);
    }
    expect(
      (await send(jsonrpc, { message: message({ metadata: { blob: "x".repeat(200) } }) })).body
        .result,
    ).toBeDefined();
  });

  it("HTTP+JSON: too many parts and too much metadata are 400 INVALID_PARAMS naming the field", async () => {
    const parts = await restSend(rest, { message: message({ parts: textParts(6) }) });
    expect(parts.status).toBe(400);
    expect(parts.body.error?.details[0]?.["reason"]).toBe("INVALID_PARAMS");
    expect(parts.body.error?.message).toContain("message.parts");
    const meta = await restSend(rest, { message: message(), metadata: { blob: "x".repeat(300) } });
    expect(meta.status).toBe(400);
    expect(meta.body.error?.message).toContain("metadata is larger than 256 bytes");
  });

  it(`defaults: ${DEFAULT_MAX_PARTS_PER_MESSAGE} parts and ${DEFAULT_MAX_METADATA_BYTES} bytes of metadata pass, one more part or 64 KiB more does not`, async () => {
    expect(
      (
        await send(jsonrpcDefault, {
          message: message({ parts: textParts(DEFAULT_MAX_PARTS_PER_MESSAGE) }),
        })
      ).body.result,
    ).toBeDefined();
    expect(
      (
        await send(jsonrpcDefault, {
          message: message({ parts: textParts(DEFAULT_MAX_PARTS_PER_MESSAGE + 1) }),
        })
      ).body.error?.code,
    ).toBe(-32602);
    expect(
      (
        await send(jsonrpcDefault, {
          message: message({ metadata: { b: "x".repeat(DEFAULT_MAX_METADATA_BYTES - 100) } }),
        })
      ).body.result,
    ).toBeDefined();
    expect(
      (
        await restSend(restDefault, {
          message: message({ metadata: { b: "x".repeat(DEFAULT_MAX_METADATA_BYTES) } }),
        })
      ).status,
    ).toBe(400);
  });

  it("the body size limit: JSON-RPC -32600, HTTP+JSON 413 INVALID_REQUEST", async () => {
    const huge = JSON.stringify({
      message: message({ metadata: { b: "x".repeat(SMALL.maxBodyBytes) } }),
    });
    const answer = await rpc(
      jsonrpc,
      `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":${huge}}`,
    );
    expect(answer.body.error?.code).toBe(-32600);
    expect(answer.body.error?.message).toContain("exceeds the limit");
    const restAnswer = await restSend(rest, huge);
    expect(restAnswer.status).toBe(413);
    expect(restAnswer.body.error?.details[0]?.["reason"]).toBe("INVALID_REQUEST");
  });
});

const SERVICE = "/lf.a2a.v1.A2AService";

interface Answer {
  readonly headers: IncomingHttpHeaders;
  readonly trailers: IncomingHttpHeaders;
}

function post(session: ClientHttp2Session, path: string, body: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = session.request({
      ":method": "POST",
      ":path": path,
      "content-type": "application/grpc",
      te: "trailers",
      "a2a-version": "1.0",
    });
    let headers: IncomingHttpHeaders = {};
    let trailers: IncomingHttpHeaders = {};
    req.on("response", (h) => (headers = h));
    req.on("trailers", (t) => (trailers = t));
    req.on("data", () => {});
    req.on("error", reject);
    req.on("close", () => resolve({ headers, trailers }));
    req.end(body);
  });
}

/** grpc-status, grpc-message and the decoded details of an answer (trailers, or a trailers-only response). */
function status(a: Answer): {
  code: string;
  message: string;
  reason: string | undefined;
  field: string | undefined;
  metadata: Record<string, string> | undefined;
} {
  const h = a.trailers["grpc-status"] === undefined ? a.headers : a.trailers;
  const bin = h["grpc-status-details-bin"];
  let reason: string | undefined;
  let field: string | undefined;
  let metadata: Record<string, string> | undefined;
  if (typeof bin === "string") {
    const s = fromBinary(StatusSchema, Buffer.from(bin, "base64"));
    for (const detail of s.details) {
      const info = anyUnpack(detail, ErrorInfoSchema);
      if (info !== undefined) {
        reason = info.reason;
        metadata = info.metadata;
      }
      const bad = anyUnpack(detail, BadRequestSchema);
      if (bad !== undefined) field = bad.fieldViolations[0]?.field;
    }
  }
  return {
    code: String(h["grpc-status"]),
    message: decodeURIComponent(String(h["grpc-message"] ?? "")),
    reason,
    field,
    metadata,
  };
}

const sendMessage = (init: Record<string, unknown>) =>
  frame(
    toBinary(
      SendMessageRequestSchema,
      create(SendMessageRequestSchema, {
        message: {
          messageId: "m-1",
          role: 1,
          parts: [{ content: { case: "text", value: "hi" } }],
          ...init,
        },
      } as never),
    ),
  );
const grpcParts = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ content: { case: "text", value: `p${i}` } }));

const stacks: [string, (agent: TestAgent) => Promise<GrpcEndpoint>][] = [
  ["grpc-js", (agent) => listenA2AServiceGrpc(agent, { logger: quiet, ...SMALL })],
  [
    "Connect",
    (agent) => listenGrpc(createA2AServiceGrpcRoutes(agent, { logger: quiet, ...SMALL })),
  ],
];

for (const [name, start] of stacks) {
  describe(`gRPC on ${name}`, () => {
    const agent = new TestAgent();
    let endpoint: GrpcEndpoint;
    let session: ClientHttp2Session;
    beforeAll(async () => {
      endpoint = await start(agent);
      session = connectHttp2(`http://${endpoint.address}`);
    });
    afterAll(async () => {
      session.close();
      await endpoint.close();
    });

    it("more parts than maxPartsPerMessage: INVALID_ARGUMENT, INVALID_PARAMS naming message.parts, handler not called", async () => {
      const calls = agent.contexts.length;
      const over = status(
        await post(session, `${SERVICE}/SendMessage`, sendMessage({ parts: grpcParts(6) })),
      );
      expect(over).toMatchObject({
        code: "3",
        reason: "INVALID_PARAMS",
        field: "message.parts",
        metadata: { limit: "maxPartsPerMessage", maximum: "5" },
      });
      expect(agent.contexts.length).toBe(calls);
      expect(
        status(await post(session, `${SERVICE}/SendMessage`, sendMessage({ parts: grpcParts(5) })))
          .code,
      ).toBe("0");
    });

    it("metadata over maxMetadataBytes, and a Struct deeper than maxJsonDepth: INVALID_ARGUMENT naming the field", async () => {
      const big = status(
        await post(
          session,
          `${SERVICE}/SendMessage`,
          sendMessage({ metadata: { blob: "x".repeat(300) } }),
        ),
      );
      expect(big).toMatchObject({
        code: "3",
        reason: "INVALID_PARAMS",
        field: "message.metadata",
        metadata: { limit: "maxMetadataBytes" },
      });
      const deep = status(
        await post(
          session,
          `${SERVICE}/SendMessage`,
          sendMessage({ metadata: nested(SMALL.maxJsonDepth + 1) }),
        ),
      );
      expect(deep).toMatchObject({
        code: "3",
        reason: "INVALID_PARAMS",
        field: "message.metadata",
        metadata: { limit: "maxJsonDepth" },
      });
      expect(
        status(
          await post(
            session,
            `${SERVICE}/SendMessage`,
            sendMessage({ metadata: nested(SMALL.maxJsonDepth) }),
          ),
        ).code,
      ).toBe("0");
    });

    it("a streaming call over a limit fails the same way", async () => {
      const over = status(
        await post(
          session,
          `${SERVICE}/SendStreamingMessage`,
          sendMessage({ parts: grpcParts(6) }),
        ),
      );
      expect(over).toMatchObject({ code: "3", reason: "INVALID_PARAMS", field: "message.parts" });
    });
  });
}
