// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The reserved-name table: every name generated code relies on that a proto could also
 * define. test/generated-names.test.ts extracts, with the TypeScript checker, the globals and
 * unexported names the generated files use and the names they import, and asserts this table
 * covers them; test/fixtures/corpus/names/ has a message and an RPC named after every entry,
 * generated and type-checked under strict.
 */

/**
 * TypeScript's lib and Node's globals the generated code refers to (`Promise<…>`,
 * `Record<…>`, `new Error(…)`). A proto type of one of these names is imported under an
 * alias (reserved-scope.ts).
 */
export const GENERATED_CODE_GLOBALS = ["AsyncIterable", "Error", "Object", "Omit", "Partial", "Pick", "Promise", "Readonly", "Record", "Request", "Response", "String", "URL"] as const;

/**
 * Names generated code declares without exporting them: type parameters (`Principal`),
 * parameters and locals. A proto type of one of these names is imported under an alias too,
 * so that no parameter or type parameter shadows it.
 */
export const GENERATED_CODE_LOCALS = [
  "Principal",
  "cause",
  "client",
  "connectionString",
  "context",
  "handler",
  "message",
  "method",
  "operation",
  "options",
  "path",
  "request",
  "router",
  "serverOptions",
  "source",
  "target",
  "thrown",
  "transport",
  "universal",
  "v03",
] as const;

/** {@link GENERATED_CODE_GLOBALS} and {@link GENERATED_CODE_LOCALS}: what reserved-scope.ts keeps for the generated code. */
export const GENERATED_SCOPE_NAMES: readonly string[] = [...GENERATED_CODE_GLOBALS, ...GENERATED_CODE_LOCALS];

/**
 * Names generated code imports from `@protoc-gen-a2a/runtime`, `@bufbuild/protobuf`,
 * `@connectrpc/connect` and `@grpc/grpc-js`. protoplugin already gives such an import an alias
 * when a proto type of the same name is imported into the same file; they are listed so that
 * the names fixture covers them. (protoc-gen-es's file descriptors, `file_google_protobuf_any`
 * and the like, are protoc-gen-es's names for files, not listed.)
 */
export const GENERATED_CODE_IMPORTS = [
  "A2AError",
  "A2AErrorOptions",
  "A2AErrorSpec",
  "AgentClientSpec",
  "AgentConnectError",
  "AgentConnectOptions",
  "AgentConnection",
  "AgentExecutor",
  "BindingEquivalenceOptions",
  "BindingFactory",
  "CallContext",
  "CallOptions",
  "CapabilityGate",
  "ConnectRouter",
  "Empty",
  "EmptySchema",
  "EquivalenceReport",
  "EquivalenceServiceSpec",
  "ErrorRegistry",
  "GrpcClientOptions",
  "GrpcEndpoint",
  "GrpcJsEndpoint",
  "GrpcJsListenOptions",
  "GrpcJsServiceDefinition",
  "GrpcJsServiceEntry",
  "GrpcListenOptions",
  "GrpcServerOptions",
  "GrpcServiceDefinition",
  "GrpcTransport",
  "JsonObject",
  "JsonRpcClientOptions",
  "JsonRpcServerOptions",
  "JsonRpcTransport",
  "JsonRpcWire",
  "Message",
  "MessageInitShape",
  "NodeRequestListener",
  "OperationDescriptor",
  "PostgresTaskStore",
  "PostgresTaskStoreOptions",
  "RequestContext",
  "RequirementTable",
  "RestClientOptions",
  "RestRequestShape",
  "RestServerOptions",
  "RestTransport",
  "RouteTable",
  "SqliteTaskStore",
  "SqliteTaskStoreOptions",
  "TaskEmitter",
  "TaskHandlerIntrospection",
  "TaskHandlerOptions",
  "TaskRuntimeBinding",
  "Transport",
  "UniversalHandler",
  "checkRuntimeVersion",
  "connectAgent",
  "createErrorRegistry",
  "createJsonRpcHandler",
  "createRegistry",
  "createRestHandler",
  "createTaskHandler",
  "createV03Handler",
  "createV03JsonRpcClient",
  "createV03ProtoClient",
  "grpcJsService",
  "listenGrpc",
  "listenGrpcJs",
  "listenHttp",
  "registerGrpcService",
  "runBindingEquivalence",
  "serveFetch",
  "serveNode",
  "toA2AError",
  "v03JsonRpcWire",
  "v03ProtoClientOptions",
  "v03RestErrorBody",
] as const;
