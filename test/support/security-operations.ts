// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * For the security tests: each of the eleven A2A operations as one call of a generated client
 * (streams read to their end), on a given task and push config id, and what a call's failure was.
 */
import type { CallOptions } from "@protoc-gen-a2a/runtime";
import { Role } from "../../generated-example/gen/a2a_pb.js";
import type { A2AServiceClient } from "../../generated-example/gen/a2a_a2a_handler.js";

/** The eleven operations of A2AService, by RPC name. */
export const OPERATION_NAMES = [
  "SendMessage",
  "SendStreamingMessage",
  "GetTask",
  "ListTasks",
  "CancelTask",
  "SubscribeToTask",
  "CreateTaskPushNotificationConfig",
  "GetTaskPushNotificationConfig",
  "ListTaskPushNotificationConfigs",
  "DeleteTaskPushNotificationConfig",
  "GetExtendedAgentCard",
] as const;
/** One of {@link OPERATION_NAMES}. */
export type OperationName = (typeof OPERATION_NAMES)[number];

/** What a call names: a task (and its context), a push config, a tenant. */
export interface Target {
  readonly taskId?: string;
  readonly contextId?: string;
  readonly configId?: string;
  readonly tenant?: string;
}

/** A user message init with one text part. */
export function userMessage(text: string, ids: { taskId?: string; contextId?: string } = {}) {
  return {
    messageId: crypto.randomUUID(),
    role: Role.USER,
    parts: [{ content: { case: "text" as const, value: text } }],
    ...ids,
  };
}

/** Reads a stream to its end. */
export async function drain<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const event of stream) out.push(event);
  return out;
}

const NO_TASK = "00000000-0000-4000-8000-000000000000";

/** Calls `operation` on `client` about `target` (defaults: a task id nobody has), streams read to the end. */
export function callOperation(
  client: A2AServiceClient,
  operation: OperationName,
  target: Target,
  options?: CallOptions,
): Promise<unknown> {
  const taskId = target.taskId ?? NO_TASK;
  const tenant = target.tenant ?? "";
  const configId = target.configId ?? "cfg-1";
  switch (operation) {
    case "SendMessage":
      return client.sendMessage(
        {
          tenant,
          message: userMessage("hello", {
            taskId: target.taskId ?? "",
            contextId: target.contextId ?? "",
          }),
        },
        options,
      );
    case "SendStreamingMessage":
      return drain(
        client.sendStreamingMessage(
          {
            tenant,
            message: userMessage("hello", {
              taskId: target.taskId ?? "",
              contextId: target.contextId ?? "",
            }),
          },
          options,
        ),
      );
    case "GetTask":
      return client.getTask({ tenant, id: taskId }, options);
    case "ListTasks":
      return client.listTasks({ tenant, contextId: target.contextId ?? "" }, options);
    case "CancelTask":
      return client.cancelTask({ tenant, id: taskId }, options);
    case "SubscribeToTask":
      return drain(client.subscribeToTask({ tenant, id: taskId }, options));
    case "CreateTaskPushNotificationConfig":
      return client.createTaskPushNotificationConfig(
        { tenant, taskId, url: "https://webhook.example.com/a2a" },
        options,
      );
    case "GetTaskPushNotificationConfig":
      return client.getTaskPushNotificationConfig({ tenant, taskId, id: configId }, options);
    case "ListTaskPushNotificationConfigs":
      return client.listTaskPushNotificationConfigs({ tenant, taskId }, options);
    case "DeleteTaskPushNotificationConfig":
      return client.deleteTaskPushNotificationConfig({ tenant, taskId, id: configId }, options);
    case "GetExtendedAgentCard":
      return client.getExtendedAgentCard({ tenant }, options);
  }
}

/** The rejection of `promise`; fails the test when it resolves. */
export async function failureOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected the call to fail, it succeeded");
}

/** `{ headers: { authorization: "Bearer <token>" } }`, or no options for `undefined`. */
export function bearer(token: string | undefined): CallOptions | undefined {
  return token === undefined ? undefined : { headers: { authorization: `Bearer ${token}` } };
}
