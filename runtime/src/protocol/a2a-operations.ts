// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0

/**
 * The eleven core operations of A2A v1.0 (spec §3.1), by RPC name: what makes a service
 * A2A-shaped for the plugin (task runtime, agent client) and what the equivalence kit calls.
 */
export const A2A_OPERATIONS = [
  "SendMessage",
  "SendStreamingMessage",
  "GetTask",
  "ListTasks",
  "CancelTask",
  "SubscribeToTask",
  "CreateTaskPushNotificationConfig",
  "GetTaskPushNotificationConfig",
  "ListTaskPushNotificationConfigs",
  "GetExtendedAgentCard",
  "DeleteTaskPushNotificationConfig",
] as const;

/** The RPC name of one of the eleven A2A operations. */
export type A2AOperationName = (typeof A2A_OPERATIONS)[number];
