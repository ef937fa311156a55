/**
 * A throwaway local agent that answers every call with one canned answer, in the framing of
 * one binding, written independently of the code under test (node:http / node:http2,
 * protobuf-es for binary, the spec table for error statuses):
 *
 * - JSON-RPC: the canned JSON-RPC response verbatim (only `id` is set to the request's id, as
 *   any server would);
 * - HTTP+JSON: `result` as the 200 body (`application/a2a+json`), or the error as its §11.6
 *   body `{"error": {code, status, message, details}}` with the §5.4 HTTP status;
 * - gRPC: `result` read leniently into the RPC's response message and sent as one
 *   length-prefixed binary message with `grpc-status: 0`, or the error as a trailers-only
 *   response with `grpc-status`, `grpc-message` and `grpc-status-details-bin` (a
 *   `google.rpc.Status` whose details are the error's `data`).
 *
 * A streaming RPC gets its answer as the one event of a stream (SSE on the HTTP bindings).
 * It records which RPC each request named, so client-side checks can tell what reached it.
 */
import {
  createServer as createH2Server,
  type IncomingHttpHeaders,
  type ServerHttp2Stream,
} from "node:http2";
import type { AddressInfo, Socket } from "node:net";
import { createRegistry, fromJson, toBinary, type JsonValue as PbJson } from "@bufbuild/protobuf";
import { StatusSchema } from "../../../generated-example/gen/google/rpc/status_pb.js";
import { file_google_rpc_error_details } from "../../../generated-example/gen/google/rpc/error_details_pb.js";
import { listen } from "../servers.js";
import type { Binding, JsonObject, JsonValue } from "./client.js";
import { GRPC_CODES, specErrorByJsonRpcCode } from "./spec-errors.js";
import { responseSchemaOf, restRouteOf } from "./wire-judge.js";

export interface FakeAgent {
  readonly endpoints: {
    readonly cardUrl: string;
    readonly jsonrpc: string;
    readonly rest: string;
    readonly grpc: string;
  };
  /** The RPC named by each request that reached it, in order ("?" when it named none). */
  readonly requests: readonly string[];
  close(): Promise<void>;
}

const isMap = (v: unknown): v is JsonObject =>
  v !== null && typeof v === "object" && !Array.isArray(v);
const ERROR_DETAIL_TYPES = createRegistry(file_google_rpc_error_details);

/** The HTTP+JSON / gRPC form of a JSON-RPC error object, by the spec table. */
function errorForms(error: JsonObject): {
  httpStatus: number;
  grpcCode: number;
  grpcStatus: string;
  message: string;
  details: JsonValue[];
} {
  const spec = specErrorByJsonRpcCode(
    typeof error["code"] === "number" ? error["code"] : undefined,
  );
  const grpcStatus = spec?.grpcStatus ?? "UNKNOWN";
  return {
    httpStatus: spec?.httpStatus ?? 500,
    grpcCode: GRPC_CODES[grpcStatus],
    grpcStatus,
    message: typeof error["message"] === "string" ? error["message"] : "",
    details: Array.isArray(error["data"])
      ? error["data"]
      : isMap(error["data"])
        ? [error["data"]]
        : [],
  };
}

async function readAll(stream: AsyncIterable<Buffer | string>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

const STREAMING = new Set(["SendStreamingMessage", "SubscribeToTask"]);

/**
 * A fake agent answering each call on `binding` with `answerFor(rpc)` (a JSON-RPC response
 * object: `{result}` or `{error}`, for the RPC the request names); `rpc` names the response
 * message for a request that names none.
 */
export async function fakeAgent(
  binding: Binding,
  answerFor: JsonObject | ((rpc: string) => JsonObject),
  rpc: string,
): Promise<FakeAgent> {
  const answers = typeof answerFor === "function" ? answerFor : () => answerFor;
  const requests: string[] = [];
  if (binding === "grpc") {
    const server = createH2Server();
    const sockets = new Set<Socket>();
    server.on("connection", (s: Socket) => {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
    });
    server.on("stream", (stream: ServerHttp2Stream, headers: IncomingHttpHeaders) => {
      const method =
        String(headers[":path"] ?? "")
          .split("/")
          .pop() ?? "?";
      requests.push(method);
      const answer = answers(method);
      void readAll(stream).then(() => {
        if (stream.closed) return;
        try {
          respond();
        } catch (e) {
          if (!stream.headersSent)
            stream.respond(
              {
                ":status": 200,
                "content-type": "application/grpc+proto",
                "grpc-status": "13",
                "grpc-message": encodeURIComponent(
                  `fake agent: ${e instanceof Error ? e.message : String(e)}`,
                ),
              },
              { endStream: true },
            );
        }
      });
      const respond = () => {
        if (isMap(answer["error"])) {
          const forms = errorForms(answer["error"]);
          // Only details that are Any messages of known types have a binary form; others (the suite has some) are dropped.
          const details = forms.details.filter((d) => {
            try {
              fromJson(StatusSchema, { details: [d] } as PbJson, { registry: ERROR_DETAIL_TYPES });
              return true;
            } catch {
              return false;
            }
          });
          const status = toBinary(
            StatusSchema,
            fromJson(
              StatusSchema,
              { code: forms.grpcCode, message: forms.message, details } as PbJson,
              { registry: ERROR_DETAIL_TYPES },
            ),
          );
          stream.respond(
            {
              ":status": 200,
              "content-type": "application/grpc+proto",
              "grpc-status": String(forms.grpcCode),
              "grpc-message": encodeURIComponent(forms.message),
              "grpc-status-details-bin": Buffer.from(status).toString("base64"),
            },
            { endStream: true },
          );
          return;
        }
        const schema = responseSchemaOf(method) ?? responseSchemaOf(rpc)!;
        const bytes = toBinary(
          schema,
          fromJson(schema, (answer["result"] ?? {}) as PbJson, { ignoreUnknownFields: true }),
        );
        const frame = Buffer.alloc(5 + bytes.length);
        frame.writeUInt32BE(bytes.length, 1);
        frame.set(bytes, 5);
        stream.respond(
          { ":status": 200, "content-type": "application/grpc+proto" },
          { waitForTrailers: true },
        );
        stream.on("wantTrailers", () => stream.sendTrailers({ "grpc-status": "0" }));
        stream.end(frame);
      };
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    return {
      endpoints: { cardUrl: "", jsonrpc: "", rest: "", grpc: address },
      requests,
      close: () =>
        new Promise<void>((resolve) => {
          for (const s of sockets) s.destroy();
          server.close(() => resolve());
        }),
    };
  }
  const server = await listen((req, res) => {
    void readAll(req).then((bytes) => {
      const text = bytes.toString("utf8");
      if (binding === "jsonrpc") {
        let id: JsonValue = null;
        let method = "?";
        try {
          const body = JSON.parse(text) as JsonObject;
          id = body["id"] ?? null;
          if (typeof body["method"] === "string") method = body["method"];
        } catch {
          /* keep null */
        }
        requests.push(method);
        const envelope = JSON.stringify({ ...answers(method), id });
        if (STREAMING.has(method))
          res.writeHead(200, { "content-type": "text/event-stream" }).end(`data: ${envelope}\n\n`);
        else res.writeHead(200, { "content-type": "application/json" }).end(envelope);
        return;
      }
      const method =
        restRouteOf(req.method ?? "GET", new URL(req.url ?? "/", "http://x").pathname) ?? "?";
      requests.push(method);
      const answer = answers(method);
      if (STREAMING.has(method) && !isMap(answer["error"])) {
        res
          .writeHead(200, { "content-type": "text/event-stream" })
          .end(`data: ${JSON.stringify(answer["result"] ?? {})}\n\n`);
        return;
      }
      if (isMap(answer["error"])) {
        const forms = errorForms(answer["error"]);
        const body = {
          error: {
            code: forms.httpStatus,
            status: forms.grpcStatus,
            message: forms.message,
            details: forms.details,
          },
        };
        res
          .writeHead(forms.httpStatus, { "content-type": "application/a2a+json" })
          .end(JSON.stringify(body));
        return;
      }
      res
        .writeHead(200, { "content-type": "application/a2a+json" })
        .end(JSON.stringify(answer["result"] ?? {}));
    });
  });
  const base = server.url.replace(/\/$/, "");
  return {
    endpoints: {
      cardUrl: `${base}/.well-known/agent-card.json`,
      jsonrpc: base,
      rest: base,
      grpc: "",
    },
    requests,
    close: () => server.close(),
  };
}
