/**
 * The @a2a-js/sdk (1.3.0) side shared by the interop tests and the bench servers (bundled by esbuild):
 * ts-proto message builders (every field present), agent cards, a request handler, executors, and on
 * our side a listener serving a ProtoJSON agent card plus a fetch that records what goes over the wire.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { create, toJson } from "@bufbuild/protobuf";
import {
  A2A_PROTOCOL_VERSION,
  Role as SdkRole,
  TaskState as SdkTaskState,
  type AgentCard as SdkAgentCard,
  type Message as SdkMessage,
  type SendMessageRequest as SdkSendMessageRequest,
  type Task as SdkTask,
} from "@a2a-js/sdk";
import {
  AgentEvent,
  DefaultRequestHandler,
  InMemoryPushNotificationStore,
  InMemoryTaskStore,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from "@a2a-js/sdk/server";
import { AgentCardSchema, type AgentCard } from "../../generated-example/gen/a2a_pb.js";

// ---------------------------------------------------------------------------------------
// SDK-side message builders (ts-proto shapes: every field present)
// ---------------------------------------------------------------------------------------

export function sdkText(text: string) {
  return {
    content: { $case: "text" as const, value: text },
    metadata: undefined,
    filename: "",
    mediaType: "",
  };
}

export function sdkUserMessage(text: string, messageId = `sdk-${text}`): SdkMessage {
  return {
    messageId,
    contextId: "",
    taskId: "",
    role: SdkRole.ROLE_USER,
    parts: [sdkText(text)],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

export function sdkSend(text: string): SdkSendMessageRequest {
  return {
    tenant: "",
    message: sdkUserMessage(text),
    configuration: undefined,
    metadata: undefined,
  };
}

export function sdkFirstText(
  parts: readonly { content?: { $case: string; value: unknown } | undefined }[] | undefined,
): unknown {
  const content = parts?.[0]?.content;
  return content?.$case === "text" ? content.value : undefined;
}

export function isSdkMessage(result: SdkMessage | SdkTask): result is SdkMessage {
  return "messageId" in result;
}

/** A TaskStatus in `state`, stamped now. */
export const sdkStatus = (state: SdkTaskState) => ({
  state,
  message: undefined,
  timestamp: new Date().toISOString(),
});

/** The agent's reply: `text` in a Message of `contextId`. */
export function sdkAgentMessage(contextId: string, text: string, messageId: string) {
  return AgentEvent.message({
    messageId,
    contextId,
    taskId: "",
    role: SdkRole.ROLE_AGENT,
    parts: [sdkText(text)],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  });
}

/** Publishes the Task of `ctx` (history = the user message) in `state`. */
export function publishSdkTask(
  ctx: RequestContext,
  bus: ExecutionEventBus,
  state: SdkTaskState,
): void {
  bus.publish(
    AgentEvent.task({
      id: ctx.taskId,
      contextId: ctx.contextId,
      status: sdkStatus(state),
      artifacts: [],
      history: [ctx.userMessage],
      metadata: undefined,
    }),
  );
}

/** Runs the Task of `ctx` to COMPLETED: Task SUBMITTED, WORKING, one artifact "artifact text" (`artifactId`), COMPLETED. */
export function publishSdkCompletedTask(
  ctx: RequestContext,
  bus: ExecutionEventBus,
  artifactId: string,
): void {
  const { taskId, contextId } = ctx;
  publishSdkTask(ctx, bus, SdkTaskState.TASK_STATE_SUBMITTED);
  bus.publish(
    AgentEvent.statusUpdate({
      taskId,
      contextId,
      status: sdkStatus(SdkTaskState.TASK_STATE_WORKING),
      metadata: undefined,
    }),
  );
  bus.publish(
    AgentEvent.artifactUpdate({
      taskId,
      contextId,
      artifact: {
        artifactId,
        name: "echo",
        description: "",
        parts: [sdkText("artifact text")],
        metadata: undefined,
        extensions: [],
      },
      append: false,
      lastChunk: true,
      metadata: undefined,
    }),
  );
  bus.publish(
    AgentEvent.statusUpdate({
      taskId,
      contextId,
      status: sdkStatus(SdkTaskState.TASK_STATE_COMPLETED),
      metadata: undefined,
    }),
  );
}

/** Echoes text in a Message; "task" runs a Task to COMPLETED; "hold" leaves a Task WORKING. */
export class SdkEchoExecutor implements AgentExecutor {
  async execute(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const text = String(sdkFirstText(ctx.userMessage.parts) ?? "");
    if (text === "hold") return publishSdkTask(ctx, bus, SdkTaskState.TASK_STATE_WORKING);
    if (text === "task") return publishSdkCompletedTask(ctx, bus, "sdk-a-1");
    bus.publish(sdkAgentMessage(ctx.contextId, text, `sdk-reply-${ctx.userMessage.messageId}`));
  }
  cancelTask = async (): Promise<void> => {};
}

// ---------------------------------------------------------------------------------------
// SDK server: card and request handler
// ---------------------------------------------------------------------------------------

export const SDK_ECHO_SKILL = {
  id: "echo",
  name: "Echo",
  description: "echo",
  tags: ["echo"],
  examples: [],
  inputModes: [],
  outputModes: [],
  securityRequirements: [],
};

export interface SdkCardOptions {
  readonly name: string;
  readonly description: string;
  readonly url: string;
  readonly protocolBinding: "JSONRPC" | "HTTP+JSON" | "GRPC";
  /** Declares push notifications and the extended card (default false). */
  readonly full?: boolean;
  readonly skills?: SdkAgentCard["skills"];
}

/** An SDK agent card with one interface, streaming, text in and out. */
export function sdkAgentCard({
  name,
  description,
  url,
  protocolBinding,
  full = false,
  skills = [],
}: SdkCardOptions): SdkAgentCard {
  return {
    name,
    description,
    supportedInterfaces: [
      { url, protocolBinding, tenant: "", protocolVersion: A2A_PROTOCOL_VERSION },
    ],
    provider: undefined,
    version: "1.0.0",
    capabilities: {
      streaming: true,
      pushNotifications: full,
      extensions: [],
      extendedAgentCard: full,
    },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills,
    signatures: [],
  };
}

/**
 * The SDK's DefaultRequestHandler over an InMemoryTaskStore; with `extendedName`, also in-memory push configs and
 * an extended card (`card` renamed).
 */
export function sdkRequestHandler(
  card: SdkAgentCard,
  executor: AgentExecutor,
  extendedName?: string,
): DefaultRequestHandler {
  if (extendedName === undefined)
    return new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
  const extended: SdkAgentCard = { ...card, name: extendedName };
  return new DefaultRequestHandler(
    card,
    new InMemoryTaskStore(),
    executor,
    undefined,
    new InMemoryPushNotificationStore(),
    undefined,
    async () => extended,
  );
}

// ---------------------------------------------------------------------------------------
// our side: the public card, and wire recording
// ---------------------------------------------------------------------------------------

export const AGENT_CARD_PATH = "/.well-known/agent-card.json";

/** Our public card for a gRPC server at `address` (host:port): one GRPC 1.0 interface, streaming, an echo skill. */
export function ourGrpcAgentCard(name: string, description: string, address: string): AgentCard {
  return create(AgentCardSchema, {
    name,
    description,
    version: "1.0.0",
    supportedInterfaces: [{ url: address, protocolBinding: "GRPC", protocolVersion: "1.0" }],
    capabilities: { streaming: true },
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [{ id: "echo", name: "Echo", description: "Echoes", tags: ["echo"] }],
  });
}

/**
 * A listener answering GET /.well-known/agent-card.json with `card()` in ProtoJSON (once it is defined), and
 * anything else with `next` (404 without).
 */
export function agentCardListener(
  card: () => AgentCard | undefined,
  next?: (req: IncomingMessage, res: ServerResponse) => void,
) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const current = card();
    if (req.method === "GET" && req.url === AGENT_CARD_PATH && current !== undefined) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(toJson(AgentCardSchema, current)));
    } else if (next !== undefined) {
      next(req, res);
    } else {
      res.writeHead(404).end();
    }
  };
}

export interface Exchange<Body = string | undefined> {
  readonly method: string;
  readonly url: string;
  readonly requestHeaders: Record<string, string>;
  readonly requestBody: Body;
  status?: number;
  responseType?: string | null;
  responseText?: string;
}

/** A fetch that records what goes over the wire (response bodies only for non-SSE answers); `body` reads a string request body. */
export function recordingFetch<Body = string | undefined>(
  log: Exchange<Body>[],
  body: (raw: string | undefined) => Body = (raw) => raw as Body,
): typeof fetch {
  return async (input, init) => {
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((v, k) => {
      headers[k] = v;
    });
    const exchange: Exchange<Body> = {
      method: init?.method ?? "GET",
      url: String(input),
      requestHeaders: headers,
      requestBody: body(typeof init?.body === "string" ? init.body : undefined),
    };
    log.push(exchange);
    const response = await fetch(input, init);
    exchange.status = response.status;
    exchange.responseType = response.headers.get("content-type");
    if (!exchange.responseType?.startsWith("text/event-stream"))
      exchange.responseText = await response.clone().text();
    return response;
  };
}
