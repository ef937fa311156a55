/**
 * The page of the browser test (test/e2e/browser/clients.test.ts), bundled by esbuild for the browser: a web
 * app on another origin calling the example agent on every binding a browser can speak. JSON-RPC
 * and HTTP+JSON through the generated clients (fetch + SSE), gRPC-web and Connect through
 * connect-web's transports on the generated service descriptor, and both again through the generated
 * gRPC client on those transports (the A2A error classes; nothing of Node bundled). Results come back as JSON.
 */
import { createClient, ConnectError } from "@connectrpc/connect";
import { createConnectTransport, createGrpcWebTransport } from "@connectrpc/connect-web";
import { A2AService, Role } from "../../generated-example/gen/a2a_pb.js";
import { A2AServiceJsonRpcClient } from "../../generated-example/gen/a2a_a2a_jsonrpc_client.js";
import { A2AServiceRestClient } from "../../generated-example/gen/a2a_a2a_rest_client.js";
import { A2AServiceGrpcClient } from "../../generated-example/gen/a2a_a2a_grpc_client.js";
import type { A2AServiceClient } from "../../generated-example/gen/a2a_a2a_handler.js";

export interface Endpoints {
  readonly cardUrl: string;
}

/** What one binding did, as the test checks it. */
export interface BindingReport {
  readonly binding: string;
  readonly url: string;
  /** `payload.case` of SendMessage "hello". */
  readonly reply: string | undefined;
  /** `payload.case` of each event of SendStreamingMessage "tck-stream-basic". */
  readonly stream: string[];
  /** The error of GetTask on a task that does not exist, and of a call with an unknown bearer token. */
  readonly missingTask: string;
  readonly badToken: string;
}

const message = (text: string) => ({
  message: {
    messageId: crypto.randomUUID(),
    role: Role.USER,
    parts: [{ content: { case: "text" as const, value: text } }],
  },
});
const MISSING = { id: "00000000-0000-0000-0000-000000000000" };
const BAD_TOKEN = { headers: { authorization: "Bearer nope" } };

function describeError(e: unknown): string {
  if (e instanceof ConnectError) return `ConnectError ${e.code}`;
  return e instanceof Error ? e.name : String(e);
}

async function settle(call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
    return "no error";
  } catch (e) {
    return describeError(e);
  }
}

async function ours(
  binding: string,
  url: string,
  client: A2AServiceClient,
): Promise<BindingReport> {
  const reply = (await client.sendMessage(message("hello"))).payload.case;
  const stream: string[] = [];
  for await (const event of client.sendStreamingMessage(message("tck-stream-basic")))
    stream.push(event.payload.case ?? "none");
  return {
    binding,
    url,
    reply,
    stream,
    missingTask: await settle(() => client.getTask(MISSING)),
    badToken: await settle(() => client.sendMessage(message("hello"), BAD_TOKEN)),
  };
}

async function connectWeb(
  binding: string,
  url: string,
  transport: ReturnType<typeof createGrpcWebTransport>,
): Promise<BindingReport> {
  const client = createClient(A2AService, transport);
  const headers = { "A2A-Version": "1.0" };
  const reply = (await client.sendMessage(message("hello"), { headers })).payload.case;
  const stream: string[] = [];
  for await (const event of client.sendStreamingMessage(message("tck-stream-basic"), { headers }))
    stream.push(event.payload.case ?? "none");
  return {
    binding,
    url,
    reply,
    stream,
    missingTask: await settle(() => client.getTask(MISSING, { headers })),
    badToken: await settle(() =>
      client.sendMessage(message("hello"), { headers: { ...headers, ...BAD_TOKEN.headers } }),
    ),
  };
}

/** Reads the card, then calls every 1.0 interface it lists that a browser can use (the 0.3 ones have their own tests). */
async function callEveryBinding(endpoints: Endpoints): Promise<BindingReport[]> {
  const card = (await (await fetch(endpoints.cardUrl)).json()) as {
    supportedInterfaces: { url: string; protocolBinding: string; protocolVersion: string }[];
  };
  const reports: BindingReport[] = [];
  for (const { url, protocolBinding } of card.supportedInterfaces.filter((i) =>
    i.protocolVersion.startsWith("1."),
  )) {
    if (protocolBinding === "JSONRPC")
      reports.push(await ours(protocolBinding, url, new A2AServiceJsonRpcClient({ url })));
    else if (protocolBinding === "HTTP+JSON")
      reports.push(await ours(protocolBinding, url, new A2AServiceRestClient({ url })));
    else if (protocolBinding.includes("PROTOCOL-WEB")) {
      reports.push(await connectWeb("GRPC-WEB", url, createGrpcWebTransport({ baseUrl: url })));
      reports.push(
        await ours(
          "GRPC-WEB (generated client)",
          url,
          new A2AServiceGrpcClient({
            address: url,
            transport: createGrpcWebTransport({ baseUrl: url }),
          }),
        ),
      );
    } else if (protocolBinding.includes("connectrpc.com")) {
      reports.push(await connectWeb("CONNECT", url, createConnectTransport({ baseUrl: url })));
      reports.push(
        await ours(
          "CONNECT (generated client)",
          url,
          new A2AServiceGrpcClient({
            address: url,
            transport: createConnectTransport({ baseUrl: url }),
          }),
        ),
      );
    }
  }
  return reports;
}

(globalThis as { callEveryBinding?: typeof callEveryBinding }).callEveryBinding = callEveryBinding;
