import type { DescEnum, DescFile, DescMessage } from "@bufbuild/protobuf";
import type { ServiceModel } from "./service-model.js";

/** The messages the task runtime creates (the keys of its `schemas` binding). */
export const taskRuntimeMessages = [
  "Task",
  "TaskStatus",
  "Message",
  "Artifact",
  "TaskStatusUpdateEvent",
  "TaskArtifactUpdateEvent",
  "StreamResponse",
  "SendMessageResponse",
  "ListTasksResponse",
  "TaskPushNotificationConfig",
  "ListTaskPushNotificationConfigsResponse",
  "AgentCard",
] as const;

/** The RPCs a service needs for the task runtime to implement it. */
const taskRuntimeRpcs = [
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
];

/** What the task-runtime binder of a service refers to. */
export interface TaskRuntimeModel {
  readonly messages: ReadonlyMap<(typeof taskRuntimeMessages)[number], DescMessage>;
  readonly taskState: DescEnum;
  readonly role: DescEnum;
}

/**
 * The task runtime applies to a service with all eleven A2A operations, in a file that
 * declares the A2A messages and enums it creates; for any other service, undefined.
 */
export function taskRuntimeModel(file: DescFile, service: Pick<ServiceModel, "operations">): TaskRuntimeModel | undefined {
  const names = new Set(service.operations.map((o) => o.name));
  if (!taskRuntimeRpcs.every((rpc) => names.has(rpc))) return undefined;
  const messages = new Map<(typeof taskRuntimeMessages)[number], DescMessage>();
  for (const name of taskRuntimeMessages) {
    const message = file.messages.find((m) => m.name === name);
    if (message === undefined) return undefined;
    messages.set(name, message);
  }
  const taskState = file.enums.find((e) => e.name === "TaskState");
  const role = file.enums.find((e) => e.name === "Role");
  if (taskState === undefined || role === undefined) return undefined;
  return { messages, taskState, role };
}
