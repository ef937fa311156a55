/**
 * The @a2a-js/sdk 1.3.0 executor the agent-path benchmarks (bench/agent, bench/grpc) compare the example
 * agent with: its two benchmarked behaviours, a Message echo, or WORKING → artifact "response" →
 * COMPLETED with the message "Task completed." (text starting with "tck-complete-task").
 */
import { randomUUID } from "node:crypto";
import { Role as SdkRole, TaskState as SdkTaskState } from "@a2a-js/sdk";
import {
  AgentEvent,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from "@a2a-js/sdk/server";
import { sdkAgentMessage, sdkFirstText, sdkStatus, sdkText } from "../../test/support/sdk-agent.js";

export class SdkAgentExecutor implements AgentExecutor {
  async execute(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const text = String(sdkFirstText(ctx.userMessage.parts) ?? "");
    const { taskId, contextId } = ctx;
    if (!text.startsWith("tck-complete-task")) {
      bus.publish(sdkAgentMessage(contextId, text, randomUUID()));
      return;
    }
    bus.publish(
      AgentEvent.task({
        id: taskId,
        contextId,
        status: sdkStatus(SdkTaskState.TASK_STATE_SUBMITTED),
        artifacts: [],
        history: [ctx.userMessage],
        metadata: undefined,
      }),
    );
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
          artifactId: "response",
          name: "response",
          description: "",
          parts: [sdkText(`Completed: ${text}`)],
          metadata: undefined,
          extensions: [],
        },
        append: false,
        lastChunk: true,
        metadata: undefined,
      }),
    );
    const done = {
      messageId: randomUUID(),
      contextId,
      taskId,
      role: SdkRole.ROLE_AGENT,
      parts: [sdkText("Task completed.")],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    };
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        status: { ...sdkStatus(SdkTaskState.TASK_STATE_COMPLETED), message: done },
        metadata: undefined,
      }),
    );
  }
  cancelTask = async (): Promise<void> => {};
}
