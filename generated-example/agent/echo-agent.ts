/**
 * The example agent: one executor on the task runtime, served on all three bindings from
 * the generated code in generated-example/gen/, and the system under test of the ACTS
 * conformance suite and of the official A2A TCK (its behaviours, keyed on the messageId prefix
 * (TCK) or the first part's text (ACTS), are in ./behaviours.ts).
 * `npm run example` starts it on 127.0.0.1: HTTP on A2A_HTTP_PORT (default 41241: Agent Card at
 * /.well-known/agent-card.json, JSON-RPC at /a2a/jsonrpc, HTTP+JSON at /a2a/rest, and the gRPC
 * service's Connect routes, gRPC-web and the Connect protocol, at /a2a/connect; A2A over WebSocket,
 * the custom binding of generated-example/bindings/ws/, at ws://…/a2a/ws; the generated
 * OpenAPI and OpenRPC documents at /openapi.json and /openrpc.json, their `servers` the mounted
 * URLs, and the API reference page, Swagger UI on the OpenAPI document, at /docs, the card's
 * documentationUrl), gRPC (h2c, with server reflection for grpcurl and buf curl) on A2A_GRPC_PORT
 * (41242). Every HTTP endpoint answers CORS, so a web page on any origin can call it.
 *
 * Wiring: input must be text/plain (the card's defaultInputModes; anything else is
 * ContentTypeNotSupportedError before a task exists); client-chosen contextIds must name a
 * context the agent issued (`clientContextIds: "known"`); `Authorization: Bearer <token>`
 * authenticates on every binding (no header = anonymous, an unknown token = Unauthenticated;
 * the extended card needs a token allowed to see it); push configs are delivered by the
 * runtime's webhook sender.
 *
 * Profiles (`profile`, `A2A_PROFILE` for `npm run example`): "default"; "tck", the TCK's run
 * (`npm run tck`): push notifications may go to loopback and private addresses (the TCK's
 * webhook receiver listens on localhost) and HTTP+JSON answers `Content-Type: application/json`
 * (spec v1.0.0 §11.1, which the TCK pins; v1.0.1 prefers application/a2a+json). The TCK's v1.0.0
 * error table is a generator option (`errors=v1.0.0`), not a runtime one: scripts/tck.mjs runs
 * this agent on code generated with it.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { create, toJson, type JsonObject, type JsonValue } from "@bufbuild/protobuf";
import { AgentCardSchema, StreamResponseSchema, type AgentCard, type Part } from "../gen/a2a_pb.js";
import {
  ContentTypeNotSupportedError,
  PermissionDeniedError,
  UnauthenticatedError,
} from "../gen/a2a_a2a_errors.js";
import {
  createA2AServiceTaskHandler,
  type A2AServiceExecutor,
} from "../gen/a2a_a2a_task_handler.js";
import { createA2AServiceSqliteTaskStore } from "../gen/a2a_a2a_sqlite_task_store.js";
import { openA2AServicePostgresTaskStore } from "../gen/a2a_a2a_postgres_task_store.js";
import { createA2AServiceJsonRpcServer } from "../gen/a2a_a2a_jsonrpc_server.js";
import { createA2AServiceRestServer } from "../gen/a2a_a2a_rest_server.js";
import { A2AServiceResponseJsonWriters } from "../gen/a2a_a2a_json.js";
import { createA2AServiceGrpcRoutes, listenA2AServiceGrpc } from "../gen/a2a_a2a_grpc_server.js";
import {
  buildSupportedInterfaces,
  checkAgentCard,
  createA2AHttpServer,
  composeHandlers,
  serveAgentCard,
  openApiSecurity,
  serveApiDocument,
  serveApiReference,
  serveNode,
  withCors,
  type ApiDocument,
  type MountedInterfaces,
} from "@protoc-gen-a2a/runtime/http";
import { mountConnectRoutes } from "@protoc-gen-a2a/runtime/grpc";
import {
  DEFAULT_MAX_PENDING_WRITE_BYTES,
  WriteBudget,
  type AuthRequest,
  type CallContext,
  type Logger,
} from "@protoc-gen-a2a/runtime";
import { A2AServiceOperations, type A2AServiceHandler } from "../gen/a2a_a2a_handler.js";
import { createA2AServiceV03 } from "../gen/a2a_a2a_v03.js";
import {
  V03_PUSH_PAYLOAD,
  hybridAgentCard,
  routeRestVersions,
  serveAgentCardVersions,
  withV03Interfaces,
} from "@protoc-gen-a2a/runtime/v0_3";
import {
  createPushNotificationSender,
  InMemoryTaskStore,
  type PushDeliveryFailure,
} from "@protoc-gen-a2a/runtime/task";
import { runTurn } from "./behaviours.js";
import { attachWsServer } from "../bindings/ws/ws-server.js";
import { WS_PROTOCOL_BINDING } from "../bindings/ws/ws-operations.js";
import openapi from "../gen/a2a_a2a_openapi.json" with { type: "json" };
import openrpc from "../gen/a2a_a2a_openrpc.json" with { type: "json" };

/** Who a bearer token stands for. */
export interface ExamplePrincipal {
  readonly subject: string;
  /** May read the extended Agent Card. */
  readonly extendedCard: boolean;
  /** May send messages and use tasks and their push configs. Default true. */
  readonly tasks?: boolean;
}

/** A profile of the example agent: "default", or "tck" (loopback webhooks, REST `application/json`). */
export type ExampleAgentProfile = "default" | "tck";

/** The profile `A2A_PROFILE` names ("" or absent: "default"); throws on anything else. */
export function profileFromEnv(value: string | undefined): ExampleAgentProfile {
  if (value === undefined || value === "" || value === "default") return "default";
  if (value === "tck") return "tck";
  throw new Error(`A2A_PROFILE must be "default" or "tck", got ${JSON.stringify(value)}`);
}

/** The optional capabilities of the card. */
const CAPABILITIES = ["streaming", "pushNotifications", "extendedAgentCard"] as const;

/**
 * The capabilities `A2A_CAPABILITIES` declares: a comma-separated list of streaming,
 * pushNotifications, extendedAgentCard ("none": none of them; absent or "": all); throws on an unknown name.
 */
export function capabilitiesFromEnv(
  value: string | undefined,
): Required<NonNullable<ExampleAgentOptions["capabilities"]>> {
  const on =
    value === undefined || value.trim() === ""
      ? [...CAPABILITIES]
      : value.trim() === "none"
        ? []
        : value.split(",").map((c) => c.trim());
  const unknown = on.filter((c) => !(CAPABILITIES as readonly string[]).includes(c));
  if (unknown.length > 0)
    throw new Error(
      `A2A_CAPABILITIES lists unknown capabilities ${unknown.join(", ")}; known: ${CAPABILITIES.join(", ")}, or none`,
    );
  return {
    streaming: on.includes("streaming"),
    pushNotifications: on.includes("pushNotifications"),
    extendedAgentCard: on.includes("extendedAgentCard"),
  };
}

/** Options of {@link startExampleAgent}. */
export interface ExampleAgentOptions {
  /**
   * "tck": the official A2A TCK's run: `allowPrivateWebhooks` defaults to true and HTTP+JSON
   * responses are `application/json` (spec v1.0.0, which the TCK pins). Default "default".
   */
  readonly profile?: ExampleAgentProfile;
  /** HTTP port (card, JSON-RPC, HTTP+JSON); 0 or absent picks a free one. */
  readonly httpPort?: number;
  /** gRPC port; 0 or absent picks a free one. */
  readonly grpcPort?: number;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** How long tck-long-running works, in ms. Default 1500. */
  readonly longRunningMs?: number;
  /** The card's capabilities, each default true; false switches the feature off in the card and the handler. */
  readonly capabilities?: {
    readonly streaming?: boolean;
    readonly pushNotifications?: boolean;
    readonly extendedAgentCard?: boolean;
  };
  /** Bearer tokens → principal. Default: none (everyone is anonymous). */
  readonly tokens?: Readonly<Record<string, ExamplePrincipal>>;
  /**
   * Refuse anonymous callers (UnauthenticatedError on every operation) and say so in the card
   * (`securityRequirements`: the bearer scheme). The Agent Card itself stays public. Default false.
   */
  readonly requireAuthentication?: boolean;
  /** Let push notifications go to loopback and private addresses (local webhook receivers). Default false (true in the "tck" profile). */
  readonly allowPrivateWebhooks?: boolean;
  /**
   * Keep tasks and push configs in this SQLite file (":memory:" for a private in-memory database), or, for a
   * `postgres://…` URL, in that PostgreSQL database, which any number of instances of this agent may share
   * (each serves every call; see the README's "Running several instances"). Default: in memory, without SQLite.
   */
  readonly taskDatabase?: string;
  /** With a PostgreSQL `taskDatabase`: this instance's heartbeat and lease (ms). Defaults 1000 and 10000. */
  readonly cluster?: {
    readonly heartbeatMs?: number;
    readonly leaseMs?: number;
    readonly instanceId?: string;
  };
  /** With a PostgreSQL `taskDatabase`: how long `close()` lets running turns finish before failing them (ms). Default 5000. */
  readonly shutdownGraceMs?: number;
  /**
   * The base URL clients reach this agent's HTTP port at when that is not its own address (a reverse proxy or load
   * balancer in front of several instances, e.g. "https://agent.example.com"): the card's HTTP interfaces (JSON-RPC,
   * HTTP+JSON, Connect, WebSocket), its documentationUrl and the API documents' servers use it. Default: http://host:port.
   */
  readonly publicUrl?: string;
  /** Likewise for the card's gRPC interface (host:port of a gRPC proxy in front of the instances). Default: the gRPC server's own address. */
  readonly publicGrpcAddress?: string;
  /**
   * Serve A2A 0.3 beside 1.0 on every binding (default true): JSON-RPC `message/send`-style methods on the same
   * endpoint, the 0.3 HTTP+JSON routes (`/v1/…`) under the same base, gRPC's `a2a.v1.A2AService` beside
   * `lf.a2a.v1.A2AService`, each for requests that name no A2A-Version (spec §3.6: 0.3) or 0.3; the card lists a 0.3
   * interface per binding and carries 0.3's top-level fields. False: 1.0 only, a request without A2A-Version gets
   * VersionNotSupportedError.
   */
  readonly legacyV03?: boolean;
  /** The API documents served at /openapi.json and /openrpc.json (and shown at /docs). Default: the generated ones, generated-example/gen/a2a_a2a_open{api,rpc}.json. */
  readonly apiDocuments?: { readonly openapi: ApiDocument; readonly openrpc: ApiDocument };
  /** Called with every call's context (all bindings) before the handler runs: tests watch `context.signal` through it. */
  readonly onCall?: (operation: string, context: CallContext<ExamplePrincipal | undefined>) => void;
  /** Where the agent and its runtime pieces (servers, push sender, task runtime, stores) log. Default `console`. */
  readonly logger?: Logger;
}

/** `handler` with `onCall` told of every call first. */
function observed<P>(
  handler: A2AServiceHandler<P>,
  onCall: (operation: string, context: CallContext<P>) => void,
): A2AServiceHandler<P> {
  type Method = (request: unknown, context: CallContext<P>) => unknown;
  const methods = handler as unknown as Record<string, Method>;
  const out: Record<string, Method> = {};
  for (const op of Object.values(A2AServiceOperations)) {
    const method = methods[op.localName]!.bind(handler);
    out[op.localName] = (request, context) => {
      onCall(op.name, context);
      return method(request, context);
    };
  }
  return out as unknown as A2AServiceHandler<P>;
}

/** A running example agent. */
export interface ExampleAgent {
  readonly cardUrl: string;
  readonly httpPort: number;
  /** host:port of the gRPC server. */
  readonly grpcAddress: string;
  /**
   * The card, the JSON-RPC endpoint, the HTTP+JSON base, the gRPC address, the base URL of gRPC-web and Connect, the OpenAPI
   * (HTTP+JSON) and OpenRPC (JSON-RPC) documents, the API reference page (the card's documentationUrl), and
   * the WebSocket binding's URL (a custom binding, generated-example/bindings/ws/).
   */
  readonly endpoints: {
    readonly cardUrl: string;
    readonly jsonrpc: string;
    readonly rest: string;
    readonly grpc: string;
    readonly connect: string;
    readonly openapi: string;
    readonly openrpc: string;
    readonly docs: string;
    readonly ws: string;
  };
  close(): Promise<void>;
}

/** The generated API documents (protoc-gen-a2a's OpenAPI and OpenRPC emitters). */
const generatedApiDocuments: { readonly openapi: ApiDocument; readonly openrpc: ApiDocument } = {
  openapi,
  openrpc,
};

/** The media types the agent accepts (the card's defaultInputModes). */
const INPUT_MODES = ["text/plain"];

/** A part's media type: its own, else what its kind implies. */
function mediaTypeOf(part: Part): string {
  if (part.mediaType !== "") return part.mediaType.split(";")[0]!.trim().toLowerCase();
  return part.content.case === "text"
    ? "text/plain"
    : part.content.case === "data"
      ? "application/json"
      : "application/octet-stream";
}

/** The media type of the first part the agent does not accept, if any (a loop: no array built per message). */
function refusedMediaType(parts: readonly Part[]): string | undefined {
  for (const part of parts) {
    const type = mediaTypeOf(part);
    if (!INPUT_MODES.includes(type)) return type;
  }
  return undefined;
}

/** The agent's logic: dispatches each turn to its behaviour. */
export function createExampleExecutor(options: {
  longRunningMs: number;
  shutdown: AbortSignal;
}): A2AServiceExecutor<ExamplePrincipal | undefined> {
  return {
    async execute(request, emitter) {
      const refused = refusedMediaType(request.message.parts);
      if (refused !== undefined) {
        // Thrown before anything is emitted: the caller gets the error and no task is created.
        if (request.isNewTask)
          throw new ContentTypeNotSupportedError(
            `This agent accepts ${INPUT_MODES.join(", ")} only, not ${refused}`,
            { metadata: { mediaType: refused } },
          );
        // The task exists already: keep it open and ask again.
        await emitter.requireInput({
          parts: [
            {
              content: {
                case: "text",
                value: `Please answer in ${INPUT_MODES.join(", ")}; ${refused} is not accepted.`,
              },
            },
          ],
        });
        return;
      }
      return runTurn({
        request,
        emitter,
        longRunningMs: options.longRunningMs,
        shutdown: options.shutdown,
      });
    },
  };
}

/** The Agent Card (public, or extended: one more skill), listing the interfaces mounted. */
function agentCard(
  capabilities: Required<NonNullable<ExampleAgentOptions["capabilities"]>>,
  extended: boolean,
  requireAuthentication: boolean,
  mounted: MountedInterfaces,
  documentationUrl: string,
  legacyV03: boolean,
): AgentCard {
  const interfaces = buildSupportedInterfaces(mounted);
  return create(AgentCardSchema, {
    supportedInterfaces: legacyV03 ? withV03Interfaces(interfaces) : interfaces,
    name: "protoc-gen-a2a example agent",
    description:
      "The conformance SUT of ACTS and the A2A TCK: behaves by the messageId prefix or the first message part's prefix (tck-…); echoes anything else. Built on the generated task runtime.",
    version: "0.1.0",
    documentationUrl,
    capabilities,
    securitySchemes: {
      bearer: {
        scheme: {
          case: "httpAuthSecurityScheme",
          value: {
            scheme: "Bearer",
            description: requireAuthentication
              ? "Required for every operation"
              : "Optional; required for the extended Agent Card",
          },
        },
      },
    },
    ...(requireAuthentication
      ? { securityRequirements: [{ schemes: { bearer: { list: [] } } }] }
      : {}),
    defaultInputModes: INPUT_MODES,
    defaultOutputModes: ["text/plain", "application/json", "application/octet-stream"],
    skills: [
      { id: "echo", name: "Echo", description: "Echoes the text it gets", tags: ["echo"] },
      {
        id: "acts",
        name: "ACTS and TCK behaviours",
        description:
          "The ACTS and A2A TCK SUT behaviour contracts (messageId or text prefixes tck-…)",
        tags: ["conformance"],
      },
      ...(extended
        ? [
            {
              id: "extended",
              name: "Extended skill",
              description: "Listed on the extended card only",
              tags: ["extended"],
            },
          ]
        : []),
    ],
  });
}

/** Starts the example agent. */
export async function startExampleAgent(options: ExampleAgentOptions = {}): Promise<ExampleAgent> {
  const host = options.host ?? "127.0.0.1";
  const logger: Logger = options.logger ?? console;
  const capabilities = {
    streaming: true,
    pushNotifications: true,
    extendedAgentCard: true,
    ...options.capabilities,
  };
  const tokens = options.tokens ?? {};
  const requireAuthentication = options.requireAuthentication === true;
  const tckProfile = options.profile === "tck";
  const shutdown = new AbortController();
  // The card is built once, at start: it last changed now (its Last-Modified).
  const startedAt = new Date();
  let extendedCard: AgentCard | undefined;
  // On disk as in memory, the store is bounded: every minute, finished tasks beyond the newest 10,000, and a caller's
  // oldest finished tasks past 768 MiB, are deleted (the store itself refuses a caller's growth past 1 GiB, maxBytesPerOwner).
  const postgresUrl =
    options.taskDatabase !== undefined && /^postgres(ql)?:\/\//i.test(options.taskDatabase)
      ? options.taskDatabase
      : undefined;
  // Several instances share a PostgreSQL database: any of them serves any call (streams, cancel and turns cross
  // instances; a dead instance's running tasks are failed by the others once its lease expires).
  const postgres =
    postgresUrl !== undefined
      ? await openA2AServicePostgresTaskStore(postgresUrl, {
          ...options.cluster,
          logger,
          onError: (e, context) =>
            logger.warn?.(
              `example agent: task store: ${context}: ${e instanceof Error ? e.message : String(e)}`,
            ),
        })
      : undefined;
  const sqlite =
    options.taskDatabase !== undefined && postgres === undefined
      ? createA2AServiceSqliteTaskStore(options.taskDatabase, {
          logger,
          autoPurge: { intervalMs: 60_000, maxTasks: 10_000, maxBytesPerOwner: 768 * 1024 * 1024 },
        })
      : undefined;
  // This process is the only user of its database: a task still SUBMITTED or WORKING in it was cut off by
  // the end of the previous process (kill -9, a crash) and nothing will finish it. It is marked FAILED.
  const interrupted = (await sqlite?.failInterruptedTasks()) ?? 0;
  if (interrupted > 0)
    logger.warn?.(
      `example agent: ${interrupted} task(s) cut off when the previous process ended are now FAILED`,
    );
  const store = postgres ?? sqlite ?? new InMemoryTaskStore();
  // Failed deliveries are reported once per (task, webhook) and kept short (ACTS registers
  // unreachable https://example.com/… webhooks; this must not flood the log).
  const reported = new Set<string>();
  const onDeliveryError = (f: PushDeliveryFailure): void => {
    const key = `${f.taskId} ${f.url}`;
    if (reported.has(key) || reported.size > 1_000) return;
    reported.add(key);
    const why =
      f.status !== undefined
        ? `HTTP ${f.status}`
        : f.error instanceof Error
          ? f.error.message
          : f.reason;
    logger.warn?.(
      `example agent: push notification for task ${f.taskId} not delivered (${f.reason}: ${why}); further failures for this webhook are not logged`,
    );
  };
  const push = createPushNotificationSender({
    store,
    schemas: { StreamResponse: StreamResponseSchema },
    writers: A2AServiceResponseJsonWriters,
    allowPrivateNetworks: options.allowPrivateWebhooks ?? tckProfile,
    // Webhooks registered by 0.3 clients go out as 0.3 events.
    ...(options.legacyV03 !== false ? { payloads: { "0.3": V03_PUSH_PAYLOAD } } : {}),
    timeoutMs: 5_000,
    maxRetries: 1,
    closeTimeoutMs: 1_000,
    onDeliveryError,
    logger,
  });
  // With PostgreSQL, push notifications go through the store's outbox: queued with each event in its transaction,
  // delivered once by whichever instance claims them, retried across restarts.
  if (postgres !== undefined && capabilities.pushNotifications)
    postgres.deliverPushNotifications(push, { maxAttempts: 2, onDeliveryError, logger });
  const taskHandler = createA2AServiceTaskHandler<ExamplePrincipal | undefined>({
    executor: createExampleExecutor({
      longRunningMs: options.longRunningMs ?? 1500,
      shutdown: shutdown.signal,
    }),
    store,
    capabilities,
    clientContextIds: "known",
    logger,
    // Each token's subject has its own tasks; anonymous callers share theirs.
    ownerOf: (principal) => principal?.subject ?? "",
    extendedAgentCard: ({ principal }) => {
      if (principal?.extendedCard !== true)
        throw new PermissionDeniedError("This token may not read the extended agent card");
      if (extendedCard === undefined)
        throw new Error("the extended card is not ready: the agent is still starting");
      return extendedCard;
    },
    ...(capabilities.pushNotifications
      ? postgres !== undefined
        ? { checkPushUrl: (url: string) => push.checkUrl(url) }
        : { onTaskEvent: push.onTaskEvent }
      : {}),
  });
  const handler =
    options.onCall !== undefined ? observed(taskHandler, options.onCall) : taskHandler;
  const authenticate = ({
    serviceParameters,
    operation,
  }: AuthRequest): ExamplePrincipal | undefined => {
    const header = serviceParameters.get("authorization")?.trim();
    if (header === undefined || header === "") {
      if (requireAuthentication)
        throw new UnauthenticatedError("This agent requires a bearer token");
      return undefined;
    }
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    const principal =
      match === null ? undefined : Object.hasOwn(tokens, match[1]!) ? tokens[match[1]!] : undefined;
    if (principal === undefined)
      throw new UnauthenticatedError("Unknown or malformed bearer token");
    // Fails closed: a binding that does not name the operation before authentication gets no task right either.
    if (principal.tasks === false && operation !== "GetExtendedAgentCard")
      throw new PermissionDeniedError("This token may not use messages or tasks");
    return principal;
  };
  // No versionWhenMissing: a request without A2A-Version is a 0.3 request (spec §3.6: "Agents MUST interpret empty value
  // as 0.3 version"): with legacyV03 the 0.3 wires take it when it is 0.3-shaped (a 0.3 method, a /v1/ route, the
  // a2a.v1 gRPC service); a 1.0-shaped request without the header gets VersionNotSupportedError. Clients send A2A-Version: 1.0.
  const serverOptions = { authenticate, logger };
  const legacyV03 = options.legacyV03 !== false;
  // A2A 0.3 on every binding, served by the same handler (gen/a2a_a2a_v03.ts): the 0.3 proto's generated gRPC and
  // HTTP+JSON servers over a translating handler, and the 0.3 JSON-RPC wire on the 1.0 JSON-RPC server.
  let publicCard: JsonObject | undefined;
  const v03 = legacyV03
    ? createA2AServiceV03(handler, { publicCard: () => publicCard })
    : undefined;
  // One bound on what the agent holds for peers that do not read, shared by every listener: HTTP (JSON-RPC, HTTP+JSON,
  // card, Connect), gRPC and WebSocket. Over 64 MiB, the answer that has waited longest for its peer is dropped.
  const writeBudget = new WriteBudget(DEFAULT_MAX_PENDING_WRITE_BYTES);
  const grpc = await listenA2AServiceGrpc(handler, {
    ...serverOptions,
    listen: {
      host,
      port: options.grpcPort ?? 0,
      reflection: true,
      writeBudget,
      services: v03 === undefined ? [] : [v03.grpcJsService(serverOptions)],
    },
  });
  // Header size, slowloris and keep-alive limits, JSON error bodies for what node:http refuses itself (server-limits.ts).
  const http: Server = createA2AHttpServer();
  await new Promise<void>((resolve) => http.listen(options.httpPort ?? 0, host, resolve));
  const port = (http.address() as AddressInfo).port;
  const ownUrl = `http://${host}:${port}`;
  // What the card and the API documents name: this address, or the proxy's in front of it (publicUrl).
  const publicUrl = options.publicUrl?.replace(/\/+$/, "") ?? ownUrl;
  const wsPath = "/a2a/ws";
  const wsUrl = `${publicUrl.replace(/^http/i, "ws")}${wsPath}`;
  const mounted = {
    baseUrl: publicUrl,
    jsonRpcPath: "/a2a/jsonrpc",
    restPath: "/a2a/rest",
    grpcAddress: options.publicGrpcAddress ?? grpc.address,
    connectPath: "/a2a/connect",
    // A custom binding (spec §12.7): listed by its URI, after the core bindings and gRPC-web/Connect.
    custom: [{ url: wsUrl, protocolBinding: WS_PROTOCOL_BINDING }],
    ...(legacyV03 ? { additionalVersions: ["0.3"] } : {}),
  } satisfies MountedInterfaces;
  const docs = { openapi: "/openapi.json", openrpc: "/openrpc.json", page: "/docs" };
  const docsUrl = `${mounted.baseUrl}${docs.page}`;
  // Both cards list every interface (supportedInterfaces is REQUIRED on the extended card too).
  const card1 = toJson(
    AgentCardSchema,
    agentCard(capabilities, false, requireAuthentication, mounted, docsUrl, legacyV03),
  ) as JsonObject;
  const problems = checkAgentCard(card1, mounted);
  if (problems.length > 0)
    throw new Error(
      `agent card does not match what is mounted: ${problems.map((p) => p.message).join("; ")}`,
    );
  const card = card1;
  publicCard = card1;
  // With 0.3: requests that name no A2A-Version (0.3 clients, spec §3.6) get the card with 0.3's top-level fields
  // (url, preferredTransport, additionalInterfaces, protocolVersion, …) added, so that 0.3 clients find the agent;
  // 1.x requests get the 1.0 card (Vary: A2A-Version).
  const serveCard = (json: JsonValue) => serveAgentCard(json, { lastModified: startedAt });
  const cardHandler = legacyV03
    ? serveAgentCardVersions({ current: card1, v03: hybridAgentCard(card1) }, serveCard)
    : serveCard(card1);
  extendedCard = agentCard(capabilities, true, requireAuthentication, mounted, docsUrl, legacyV03);
  const jsonrpc = createA2AServiceJsonRpcServer(handler, {
    ...serverOptions,
    ...(v03 !== undefined ? { wires: [v03.jsonRpcWire] } : {}),
  });
  const rest = createA2AServiceRestServer(handler, {
    ...serverOptions,
    basePath: "/a2a/rest",
    ...(tckProfile ? { responseContentType: "application/json" as const } : {}),
  });
  const restV03 = v03?.restServer({ ...serverOptions, basePath: "/a2a/rest" });
  const restHandler =
    restV03 === undefined
      ? rest.handler
      : routeRestVersions({ current: rest.handler, v03: restV03.handler, basePath: "/a2a/rest" });
  // The generated documents know the operations, not where they are mounted: their servers are set here.
  const apiDocuments = options.apiDocuments ?? generatedApiDocuments;
  const bindings = serveNode(
    composeHandlers(
      { prefix: "/.well-known/agent-card.json", handler: cardHandler },
      { prefix: "/a2a/jsonrpc", handler: withCors(jsonrpc.handler) },
      { prefix: "/a2a/rest", handler: withCors(restHandler) },
      {
        prefix: docs.openapi,
        handler: serveApiDocument(apiDocuments.openapi, {
          path: docs.openapi,
          servers: [{ url: `${mounted.baseUrl}${mounted.restPath}`, description: "HTTP+JSON" }],
          // The card's bearer scheme, so that Swagger UI's "Authorize" sends the token.
          security: openApiSecurity(card as JsonObject, String(apiDocuments.openapi["openapi"])),
        }),
      },
      {
        prefix: docs.openrpc,
        handler: serveApiDocument(apiDocuments.openrpc, {
          path: docs.openrpc,
          servers: [{ name: "JSON-RPC", url: `${mounted.baseUrl}${mounted.jsonRpcPath}` }],
        }),
      },
      {
        prefix: docs.page,
        handler: serveApiReference({
          prefix: docs.page,
          documentUrl: `..${docs.openapi}`,
          title: "protoc-gen-a2a example agent: HTTP+JSON API",
        }),
      },
    ),
    { writeBudget },
  );
  // gRPC-web and Connect on the same port (browsers cannot speak plain gRPC); everything else goes to the other bindings.
  const connectRoutes = createA2AServiceGrpcRoutes(handler, serverOptions);
  const connectRoutesV03 = v03?.grpcRoutes(serverOptions);
  http.on(
    "request",
    mountConnectRoutes(
      (router) => {
        connectRoutes(router);
        connectRoutesV03?.(router);
      },
      bindings,
      { prefix: mounted.connectPath },
    ),
  );
  // A2A over WebSocket on the same port: WebSocket upgrades to /a2a/ws; any other upgrade offer (Upgrade: h2c) is plain HTTP.
  const ws = attachWsServer(http, handler, { ...serverOptions, path: wsPath, writeBudget });
  const cardUrl = `${ownUrl}/.well-known/agent-card.json`;
  return {
    cardUrl,
    httpPort: port,
    grpcAddress: grpc.address,
    endpoints: {
      cardUrl,
      jsonrpc: `${ownUrl}/a2a/jsonrpc`,
      rest: `${ownUrl}/a2a/rest`,
      grpc: grpc.address,
      connect: `${ownUrl}${mounted.connectPath}`,
      openapi: `${ownUrl}${docs.openapi}`,
      openrpc: `${ownUrl}${docs.openrpc}`,
      docs: `${ownUrl}${docs.page}`,
      ws: `ws://${host}:${port}${wsPath}`,
    },
    close: async () => {
      shutdown.abort();
      await ws.close();
      http.closeAllConnections();
      await Promise.all([
        new Promise<void>((resolve) => http.close(() => resolve())),
        grpc.close(),
        push.close(),
      ]);
      sqlite?.close();
      // Turns still running get the grace period, then their tasks are failed (with an event every stream gets).
      await postgres?.close(options.shutdownGraceMs ?? 5_000);
    },
  };
}
