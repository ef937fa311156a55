// Written by protoc-gen-a2a scaffold-binding v0.1.0 for lf.a2a.v1.A2AService (a2a.proto); now yours.
// The wire names of the core operations of the https://protoc-gen-a2a.github.io/bindings/websocket/v1 binding, shared by its server
// (ws-server.ts) and its client (ws-client.ts). A rerun of `protoc-gen-a2a
// scaffold-binding` only adds the entries of RPCs the proto gained and comments out those it
// lost (marked A2A-SCAFFOLD); your edits stay.
import type { A2AServiceOperationName } from "../../gen/a2a_a2a_handler.js";

/** The protocolBinding URI of the binding (the Agent Card's `supportedInterfaces[].protocolBinding`, spec §5.8, §12.7). */
export const WS_PROTOCOL_BINDING = "https://protoc-gen-a2a.github.io/bindings/websocket/v1";

/** How one core operation travels on the binding's wire. */
export interface WsOperationWiring {
  /** The operation's name in a frame (default: the RPC name, as JSON-RPC has it). */
  readonly wire: string;
}

/**
 * A2A-SCAFFOLD(operations): one entry per RPC of lf.a2a.v1.A2AService. Change `wire` to name an
 * operation your way; both sides read this table.
 */
export const wsOperations = {
  /** @a2a-operation SendMessage: unary, lf.a2a.v1.SendMessageRequest → lf.a2a.v1.SendMessageResponse. */
  SendMessage: { wire: "SendMessage" },
  /** @a2a-operation SendStreamingMessage: server streaming, lf.a2a.v1.SendMessageRequest → lf.a2a.v1.StreamResponse. */
  SendStreamingMessage: { wire: "SendStreamingMessage" },
  /** @a2a-operation GetTask: unary, lf.a2a.v1.GetTaskRequest → lf.a2a.v1.Task. */
  GetTask: { wire: "GetTask" },
  /** @a2a-operation ListTasks: unary, lf.a2a.v1.ListTasksRequest → lf.a2a.v1.ListTasksResponse. */
  ListTasks: { wire: "ListTasks" },
  /** @a2a-operation CancelTask: unary, lf.a2a.v1.CancelTaskRequest → lf.a2a.v1.Task. */
  CancelTask: { wire: "CancelTask" },
  /** @a2a-operation SubscribeToTask: server streaming, lf.a2a.v1.SubscribeToTaskRequest → lf.a2a.v1.StreamResponse. */
  SubscribeToTask: { wire: "SubscribeToTask" },
  /** @a2a-operation CreateTaskPushNotificationConfig: unary, lf.a2a.v1.TaskPushNotificationConfig → lf.a2a.v1.TaskPushNotificationConfig. */
  CreateTaskPushNotificationConfig: { wire: "CreateTaskPushNotificationConfig" },
  /** @a2a-operation GetTaskPushNotificationConfig: unary, lf.a2a.v1.GetTaskPushNotificationConfigRequest → lf.a2a.v1.TaskPushNotificationConfig. */
  GetTaskPushNotificationConfig: { wire: "GetTaskPushNotificationConfig" },
  /** @a2a-operation ListTaskPushNotificationConfigs: unary, lf.a2a.v1.ListTaskPushNotificationConfigsRequest → lf.a2a.v1.ListTaskPushNotificationConfigsResponse. */
  ListTaskPushNotificationConfigs: { wire: "ListTaskPushNotificationConfigs" },
  /** @a2a-operation GetExtendedAgentCard: unary, lf.a2a.v1.GetExtendedAgentCardRequest → lf.a2a.v1.AgentCard. */
  GetExtendedAgentCard: { wire: "GetExtendedAgentCard" },
  /** @a2a-operation DeleteTaskPushNotificationConfig: unary, lf.a2a.v1.DeleteTaskPushNotificationConfigRequest → google.protobuf.Empty. */
  DeleteTaskPushNotificationConfig: { wire: "DeleteTaskPushNotificationConfig" },
} as const satisfies Record<A2AServiceOperationName, WsOperationWiring>;
