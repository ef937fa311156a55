/**
 * What the example agent does with a message: the ACTS SUT behaviour contract (ACTS
 * specification §11), keyed on the text of the first part of the message that starts a task.
 * A later message to the same task (it is INPUT_REQUIRED or AUTH_REQUIRED) goes to the
 * behaviour of the task's first message (its `resume`), or, when it has none, to `echo`.
 *
 * | prefix                          | emits                                                                   |
 * | ------------------------------- | ----------------------------------------------------------------------- |
 * | tck-message-response, hello     | a Message (role agent) echoing the text; no task                        |
 * | tck-complete-task               | WORKING → artifact "response" (text) → COMPLETED with a status message |
 * | tck-input-required              | INPUT_REQUIRED with a status message; the next message completes it     |
 * | tck-multi-turn                  | INPUT_REQUIRED (no status message) until a message "done" → COMPLETED   |
 * | tck-reject-task                 | REJECTED with a status message                                          |
 * | tck-task-failure, tck-fail-task | WORKING → FAILED with a status message                                  |
 * | tck-auth-required               | AUTH_REQUIRED with a status message; the next message completes it      |
 * | tck-artifact-text/-file/-file-url/-data | WORKING → one artifact of that kind → COMPLETED                 |
 * | tck-long-running                | WORKING → waits `longRunningMs` → artifact → COMPLETED (stops on cancel) |
 * | tck-cancel                      | WORKING until canceled                                                  |
 * | tck-stream-basic                | WORKING → artifact "Streamed content" → COMPLETED                       |
 * | tck-stream-chunked              | WORKING → the same artifact in 3 chunks (append, lastChunk) → COMPLETED |
 * | anything else                   | WORKING → artifact "echo" with the text → COMPLETED                     |
 */
import { fromJson } from "@bufbuild/protobuf";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import type { A2AServiceRequestContext, A2AServiceTaskEmitter } from "../gen/a2a_a2a_task_handler.js";
import { TaskState, type Message } from "../gen/a2a_pb.js";

/** What a behaviour runs with. */
export interface Turn {
  readonly request: A2AServiceRequestContext<unknown>;
  readonly emitter: A2AServiceTaskEmitter;
  /** The text of the first part of this turn's message. */
  readonly text: string;
  /** How long tck-long-running works, in ms. */
  readonly longRunningMs: number;
  /** Aborted when the agent shuts down. */
  readonly shutdown: AbortSignal;
}

/** One behaviour of the contract. */
export interface Behaviour {
  /** Starts a task (or answers with a Message). */
  start(turn: Turn): Promise<void>;
  /** A later message to the task; default: {@link echo}. */
  resume?(turn: Turn): Promise<void>;
}

const text = (value: string) => ({ content: { case: "text" as const, value } });

/** The text of the first part of a message ("" when it is not text). */
export function firstText(message: Message | undefined): string {
  const content = message?.parts[0]?.content;
  return content?.case === "text" ? content.value : "";
}

/** Resolves after `ms`, or false as soon as the task is canceled or the agent stops. */
function wait(ms: number, turn: Turn): Promise<boolean> {
  const signals = [turn.request.signal, turn.shutdown];
  if (signals.some((s) => s.aborted)) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (finished: boolean) => {
      clearTimeout(timer);
      for (const s of signals) s.removeEventListener("abort", stop);
      resolve(finished);
    };
    const stop = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    timer.unref?.();
    for (const s of signals) s.addEventListener("abort", stop, { once: true });
  });
}

/** After an interrupted wait: nothing more on cancel (the task is CANCELED already); FAILED on shutdown. */
async function interrupted(turn: Turn): Promise<void> {
  if (!turn.request.signal.aborted) await turn.emitter.fail({ parts: [text("The agent shut down before finishing the task.")] });
}

/** A completed task with one artifact. */
function artifactTask(artifact: Parameters<A2AServiceTaskEmitter["addArtifact"]>[0]): Behaviour {
  return {
    async start({ emitter }) {
      await emitter.working();
      await emitter.addArtifact(artifact, { lastChunk: true });
      await emitter.complete();
    },
  };
}

/** The default: WORKING → an artifact echoing the text → COMPLETED. */
export const echo: Behaviour = {
  async start({ emitter, text: value }) {
    await emitter.working();
    await emitter.addArtifact({ artifactId: "echo", name: "echo", parts: [text(value)] }, { lastChunk: true });
    await emitter.complete();
  },
};

const messageResponse: Behaviour = {
  async start({ emitter, text: value }) {
    await emitter.reply({ parts: [text(value)] });
  },
};

const failure: Behaviour = {
  async start({ emitter }) {
    await emitter.working();
    await emitter.fail({ parts: [text("The task failed, as tck-task-failure asks.")] });
  },
};

/** INPUT_REQUIRED without a status message. */
const awaitInput = (emitter: A2AServiceTaskEmitter) => emitter.publish({ case: "statusUpdate", value: { status: { state: TaskState.INPUT_REQUIRED } } });

/**
 * Behaviours by prefix, most specific first (tck-artifact-file-url before tck-artifact-file).
 */
export const behaviours: readonly (readonly [prefix: string, behaviour: Behaviour])[] = [
  ["tck-message-response", messageResponse],
  ["hello", messageResponse],
  [
    "tck-complete-task",
    {
      async start({ emitter, text: value }) {
        await emitter.working();
        await emitter.addArtifact({ artifactId: "response", name: "response", parts: [text(`Completed: ${value}`)] }, { lastChunk: true });
        await emitter.complete({ parts: [text("Task completed.")] });
      },
    },
  ],
  [
    "tck-input-required",
    {
      async start({ emitter }) {
        await emitter.requireInput({ parts: [text("What else should I know?")] });
      },
    },
  ],
  [
    "tck-multi-turn",
    {
      // No status message while waiting: status messages go to the task history, and the
      // history of a conversation should read user turn after user turn (ACTS CORE-HIST-005).
      async start({ emitter }) {
        await awaitInput(emitter);
      },
      async resume({ emitter, text: value, request }) {
        if (value.trim().toLowerCase() !== "done") {
          await awaitInput(emitter);
          return;
        }
        const turns = request.task?.history.filter((m) => m.role === request.message.role).length ?? 1;
        await emitter.complete({ parts: [text(`Conversation complete after ${turns} messages.`)] });
      },
    },
  ],
  [
    "tck-reject-task",
    {
      async start({ emitter }) {
        await emitter.reject({ parts: [text("I will not do that.")] });
      },
    },
  ],
  ["tck-task-failure", failure],
  ["tck-fail-task", failure],
  [
    "tck-auth-required",
    {
      async start({ emitter }) {
        await emitter.requireAuth({ parts: [text("Authorization required: send the credentials in the next message.")] });
      },
    },
  ],
  ["tck-artifact-text", artifactTask({ artifactId: "text", name: "text", parts: [text("Generated text content")] })],
  [
    "tck-artifact-file-url",
    artifactTask({
      artifactId: "file-url",
      name: "file-url",
      parts: [{ content: { case: "url", value: "https://example.com/files/example.txt" }, filename: "example.txt", mediaType: "text/plain" }],
    }),
  ],
  [
    "tck-artifact-file",
    artifactTask({
      artifactId: "file",
      name: "file",
      parts: [{ content: { case: "raw", value: new TextEncoder().encode("Generated file content\n") }, filename: "example.txt", mediaType: "text/plain" }],
    }),
  ],
  [
    "tck-artifact-data",
    artifactTask({
      artifactId: "data",
      name: "data",
      parts: [{ content: { case: "data", value: fromJson(ValueSchema, { kind: "example", items: [1, 2, 3], nested: { ok: true } }) }, mediaType: "application/json" }],
    }),
  ],
  [
    "tck-long-running",
    {
      async start(turn) {
        await turn.emitter.working({ parts: [text("Working on it…")] });
        if (!(await wait(turn.longRunningMs, turn))) return interrupted(turn);
        await turn.emitter.addArtifact({ artifactId: "result", name: "result", parts: [text("Long-running work finished")] }, { lastChunk: true });
        await turn.emitter.complete();
      },
    },
  ],
  [
    "tck-cancel",
    {
      async start(turn) {
        await turn.emitter.working();
        // Stays WORKING until CancelTask (then the runtime has set CANCELED); a safety cap ends it.
        if (!(await wait(10 * 60_000, turn))) return interrupted(turn);
        await turn.emitter.fail({ parts: [text("Nobody canceled this task within 10 minutes.")] });
      },
    },
  ],
  [
    "tck-stream-basic",
    {
      async start({ emitter }) {
        await emitter.working();
        await emitter.addArtifact({ artifactId: "stream", name: "stream", parts: [text("Streamed content")] }, { lastChunk: true });
        await emitter.complete();
      },
    },
  ],
  [
    "tck-stream-chunked",
    {
      async start({ emitter }) {
        await emitter.working();
        const chunks = ["Streamed ", "chunked ", "content"];
        for (const [i, chunk] of chunks.entries()) {
          await emitter.addArtifact({ artifactId: "stream", name: "stream", parts: [text(chunk)] }, { append: i > 0, lastChunk: i === chunks.length - 1 });
        }
        await emitter.complete();
      },
    },
  ],
];

/** The behaviour whose prefix the text starts with, or undefined. */
export function behaviourOf(value: string): Behaviour | undefined {
  return behaviours.find(([prefix]) => value.startsWith(prefix))?.[1];
}
