/**
 * What the example agent does with a message: ONE behaviour table that serves two conformance
 * suites' SUT contracts.
 *
 * - The official A2A TCK (a2aproject/a2a-tck, `scenarios/*.feature` and the SUTs it ships)
 *   selects a behaviour by the **messageId prefix** (`tck-complete-task-<8 hex>`), with unrelated
 *   text in the parts, and every message of a multi-turn task carries its own prefix: a follow-up
 *   `tck-input-required-…` keeps the task waiting, a follow-up `tck-complete-task-…` completes it.
 * - ACTS (its specification §11) selects a behaviour by the **text of the first part** of the
 *   message that starts a task; a later message to the task (INPUT_REQUIRED or AUTH_REQUIRED)
 *   goes to the behaviour of the task's first message (its `resume`), or, when it has none, to
 *   `echo`. ACTS messageIds are UUIDs, so they never select a behaviour.
 *
 * The messageId is looked at first, then the text. The prefix is the same in both contracts;
 * where the two suites assert different contents (the TCK's are exact: "Direct message
 * response", `output.txt`, `{"key":"value","count":42}`…), the row says both and the turn's
 * `contract` (which key selected it) picks one.
 *
 * | prefix                                | emits (ACTS contents · TCK contents where they differ)                              |
 * | ------------------------------------- | ------------------------------------------------------------------------------------ |
 * | tck-message-response, hello           | a Message (role agent), no task: the text echoed · "Direct message response"         |
 * | tck-complete-task                     | WORKING → artifact "response" → COMPLETED, status "Task completed." · "Hello from TCK" |
 * | tck-input-required                    | INPUT_REQUIRED with a status message; ACTS: the next message completes it            |
 * | tck-multi-turn                        | INPUT_REQUIRED (no status message) until a message "done" → COMPLETED                |
 * | tck-reject-task                       | REJECTED with a status message "I will not do that." · "rejected"                    |
 * | tck-task-failure, tck-fail-task       | WORKING → FAILED with a status message                                               |
 * | tck-auth-required                     | AUTH_REQUIRED with a status message; the next message completes it                   |
 * | tck-artifact-text                     | WORKING → text artifact "Generated text content" → COMPLETED                         |
 * | tck-artifact-file(-url)               | WORKING → inline file (URL) artifact, text/plain, `example.txt` · `output.txt` → COMPLETED |
 * | tck-artifact-data                     | WORKING → data artifact `{kind,items,nested}` · `{"key":"value","count":42}` → COMPLETED |
 * | tck-long-running                      | WORKING → waits `longRunningMs` → artifact → COMPLETED (stops on cancel)             |
 * | tck-cancel                            | WORKING until canceled                                                               |
 * | tck-stream-basic                      | WORKING → artifact "Streamed content" → COMPLETED                                    |
 * | tck-stream-chunked                    | WORKING → the same artifact in 3 chunks (append, lastChunk) → COMPLETED              |
 * | tck-stream-001, -003, -ordering-001   | WORKING → text artifact ("Stream hello from TCK", "Stream task lifecycle", "Ordered output") → COMPLETED |
 * | tck-stream-002                        | COMPLETED                                                                            |
 * | tck-stream-artifact-text/-file/-chunked | WORKING → "Streamed text content" / file `output.txt` / chunks "chunk-1 ", "chunk-2" → COMPLETED |
 * | test-resubscribe-message-id           | WORKING → waits 4 s (the TCK's 2× streaming timeout) → COMPLETED (stops on cancel)   |
 * | anything else                         | WORKING → artifact "echo" with the text (its first MiB) → COMPLETED                  |
 */
import { fromJson, type JsonValue } from "@bufbuild/protobuf";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import type {
  A2AServiceRequestContext,
  A2AServiceTaskEmitter,
} from "../gen/a2a_a2a_task_handler.js";
import { TaskState, type Message } from "../gen/a2a_pb.js";

/** Which suite's trigger selected the behaviour: the TCK's messageId prefix, or ACTS's first-part text. */
export type Contract = "tck" | "acts";

/** What a behaviour runs with. */
export interface Turn {
  readonly request: A2AServiceRequestContext<unknown>;
  readonly emitter: A2AServiceTaskEmitter;
  /** The text of the first part of this turn's message. */
  readonly text: string;
  /** Which contract selected this behaviour (default contents: ACTS's). */
  readonly contract: Contract;
  /** How long tck-long-running works, in ms. */
  readonly longRunningMs: number;
  /** Aborted when the agent shuts down. */
  readonly shutdown: AbortSignal;
}

/** One behaviour of the contract. */
export interface Behaviour {
  /** Starts a task (or answers with a Message); under the TCK contract also a follow-up whose messageId names it. */
  start(turn: Turn): Promise<void>;
  /** A later message (ACTS contract: selected by the task's first message); default: {@link echo}. */
  resume?(turn: Turn): Promise<void>;
}

/** Contents that differ between the contracts: ACTS's, and the TCK's exact ones. */
interface ByContract<T> {
  readonly acts: T;
  readonly tck: T;
}
const pick = <T>(contents: ByContract<T>, turn: Turn): T => contents[turn.contract];

const text = (value: string) => ({ content: { case: "text" as const, value } });
const data = (value: JsonValue) => ({
  content: { case: "data" as const, value: fromJson(ValueSchema, value) },
  mediaType: "application/json",
});
type ArtifactInput = Parameters<A2AServiceTaskEmitter["addArtifact"]>[0];

/** The text of the first part of a message ("" when it is not text). */
export function firstText(message: Message | undefined): string {
  const content = message?.parts[0]?.content;
  return content?.case === "text" ? content.value : "";
}

/** What waits on each signal: one abort listener per signal, however many tasks wait on it. */
const waitersOf = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `stop` when `signal` aborts; returns the undo. Every waiting task shares the agent's one
 * shutdown signal: a listener each would pass Node's 10 (MaxListenersExceededWarning) with 11
 * waiting tasks, so the waiters of a signal hang off a single listener of it.
 */
function onAbort(signal: AbortSignal, stop: () => void): () => void {
  let waiters = waitersOf.get(signal);
  if (waiters === undefined) {
    const all = new Set<() => void>();
    waiters = all;
    waitersOf.set(signal, all);
    signal.addEventListener(
      "abort",
      () => {
        waitersOf.delete(signal);
        for (const waiter of all) waiter();
      },
      { once: true },
    );
  }
  const own = waiters;
  own.add(stop);
  return () => own.delete(stop);
}

/** Resolves after `ms`, or false as soon as the task is canceled or the agent stops. */
function wait(ms: number, turn: Turn): Promise<boolean> {
  const signals = [turn.request.signal, turn.shutdown];
  if (signals.some((s) => s.aborted)) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (finished: boolean) => {
      clearTimeout(timer);
      for (const undo of undos) undo();
      resolve(finished);
    };
    const timer = setTimeout(() => done(true), ms);
    timer.unref?.();
    const undos = signals.map((s) => onAbort(s, () => done(false)));
  });
}

/** After an interrupted wait: nothing more on cancel (the task is CANCELED already); FAILED on shutdown. */
async function interrupted(turn: Turn): Promise<void> {
  if (!turn.request.signal.aborted)
    await turn.emitter.fail({ parts: [text("The agent shut down before finishing the task.")] });
}

/** WORKING → the artifact (the same for both contracts, or each its own) → COMPLETED. */
function artifactTask(artifact: ArtifactInput | ByContract<ArtifactInput>): Behaviour {
  return {
    async start(turn) {
      await turn.emitter.working();
      await turn.emitter.addArtifact("acts" in artifact ? pick(artifact, turn) : artifact, {
        lastChunk: true,
      });
      await turn.emitter.complete();
    },
  };
}

/** WORKING → the artifact in chunks (append, the last one lastChunk) → COMPLETED. */
function chunkedTask(artifactId: string, chunks: readonly string[]): Behaviour {
  return {
    async start({ emitter }) {
      await emitter.working();
      for (const [i, chunk] of chunks.entries()) {
        await emitter.addArtifact(
          { artifactId, name: artifactId, parts: [text(chunk)] },
          { append: i > 0, lastChunk: i === chunks.length - 1 },
        );
      }
      await emitter.complete();
    },
  };
}

/** WORKING → waits `ms(turn)` (stops on cancel) → the artifact, if any → COMPLETED. */
function delayedTask(
  ms: (turn: Turn) => number,
  working?: string,
  artifact?: ArtifactInput,
): Behaviour {
  return {
    async start(turn) {
      await turn.emitter.working(working === undefined ? undefined : { parts: [text(working)] });
      if (!(await wait(ms(turn), turn))) return interrupted(turn);
      if (artifact !== undefined) await turn.emitter.addArtifact(artifact, { lastChunk: true });
      await turn.emitter.complete();
    },
  };
}

/**
 * The longest text the default behaviour echoes whole, in UTF-16 code units: a task holds its messages
 * and artifacts within `maxTaskBytes` (16 MiB), so a message near the request limit (10 MiB) is echoed
 * cut (the task completes) instead of making the task too large (the runtime would refuse the artifact
 * and fail the task).
 */
export const ECHO_MAX_CHARS = 1024 * 1024;

/** `value`, or its first {@link ECHO_MAX_CHARS} code units (never half a surrogate pair) and how much was left out. */
export function echoed(value: string): string {
  if (value.length <= ECHO_MAX_CHARS) return value;
  let cut = ECHO_MAX_CHARS;
  const last = value.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut--; // a high surrogate: keep the pair together, out
  return `${value.slice(0, cut)}... (${value.length - cut} more characters not echoed)`; // ASCII: the answer stays a one-byte string
}

/** The default: WORKING → an artifact echoing the text (cut beyond {@link ECHO_MAX_CHARS}) → COMPLETED. */
export const echo: Behaviour = {
  async start({ emitter, text: value }) {
    await emitter.working();
    await emitter.addArtifact(
      { artifactId: "echo", name: "echo", parts: [text(echoed(value))] },
      { lastChunk: true },
    );
    await emitter.complete();
  },
};

const messageResponse: Behaviour = {
  async start(turn) {
    await turn.emitter.reply({
      parts: [text(pick({ acts: turn.text, tck: "Direct message response" }, turn))],
    });
  },
};

const failure: Behaviour = {
  async start({ emitter }) {
    await emitter.working();
    await emitter.fail({ parts: [text("The task failed, as tck-task-failure asks.")] });
  },
};

/** INPUT_REQUIRED without a status message. */
const awaitInput = (emitter: A2AServiceTaskEmitter) =>
  emitter.publish({ case: "statusUpdate", value: { status: { state: TaskState.INPUT_REQUIRED } } });

/** The file the tck-artifact-file behaviours return (inline, or by URL). */
const file = (name: string, url?: string): ArtifactInput => ({
  artifactId: url === undefined ? "file" : "file-url",
  name: url === undefined ? "file" : "file-url",
  parts: [
    {
      content:
        url === undefined
          ? { case: "raw", value: new TextEncoder().encode("Generated file content\n") }
          : { case: "url", value: url },
      filename: name,
      mediaType: "text/plain",
    },
  ],
});
const textArtifact = (artifactId: string, value: string): ArtifactInput => ({
  artifactId,
  name: artifactId,
  parts: [text(value)],
});

/**
 * Behaviours by prefix, most specific first (tck-artifact-file-url before tck-artifact-file,
 * tck-stream-artifact-… before nothing shorter that matches).
 */
export const behaviours: readonly (readonly [prefix: string, behaviour: Behaviour])[] = [
  ["tck-message-response", messageResponse],
  ["hello", messageResponse],
  [
    "tck-complete-task",
    {
      async start(turn) {
        await turn.emitter.working();
        await turn.emitter.addArtifact(textArtifact("response", `Completed: ${turn.text}`), {
          lastChunk: true,
        });
        await turn.emitter.complete({
          parts: [text(pick({ acts: "Task completed.", tck: "Hello from TCK" }, turn))],
        });
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
        const turns =
          request.task?.history.filter((m) => m.role === request.message.role).length ?? 1;
        await emitter.complete({ parts: [text(`Conversation complete after ${turns} messages.`)] });
      },
    },
  ],
  [
    "tck-reject-task",
    {
      async start(turn) {
        await turn.emitter.reject({
          parts: [text(pick({ acts: "I will not do that.", tck: "rejected" }, turn))],
        });
      },
    },
  ],
  ["tck-task-failure", failure],
  ["tck-fail-task", failure],
  [
    "tck-auth-required",
    {
      async start({ emitter }) {
        await emitter.requireAuth({
          parts: [text("Authorization required: send the credentials in the next message.")],
        });
      },
    },
  ],
  ["tck-artifact-text", artifactTask(textArtifact("text", "Generated text content"))],
  [
    "tck-artifact-file-url",
    artifactTask({
      acts: file("example.txt", "https://example.com/files/example.txt"),
      tck: file("output.txt", "https://example.com/output.txt"),
    }),
  ],
  ["tck-artifact-file", artifactTask({ acts: file("example.txt"), tck: file("output.txt") })],
  [
    "tck-artifact-data",
    artifactTask({
      acts: {
        artifactId: "data",
        name: "data",
        parts: [data({ kind: "example", items: [1, 2, 3], nested: { ok: true } })],
      },
      tck: { artifactId: "data", name: "data", parts: [data({ key: "value", count: 42 })] },
    }),
  ],
  [
    "tck-long-running",
    delayedTask(
      (turn) => turn.longRunningMs,
      "Working on it…",
      textArtifact("result", "Long-running work finished"),
    ),
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
  ["tck-stream-basic", artifactTask(textArtifact("stream", "Streamed content"))],
  ["tck-stream-chunked", chunkedTask("stream", ["Streamed ", "chunked ", "content"])],
  // The TCK's streaming scenarios (scenarios/streaming.feature).
  ["tck-stream-001", artifactTask(textArtifact("stream", "Stream hello from TCK"))],
  [
    "tck-stream-002",
    {
      async start({ emitter }) {
        await emitter.complete();
      },
    },
  ],
  ["tck-stream-003", artifactTask(textArtifact("stream", "Stream task lifecycle"))],
  ["tck-stream-ordering-001", artifactTask(textArtifact("stream", "Ordered output"))],
  ["tck-stream-artifact-text", artifactTask(textArtifact("stream", "Streamed text content"))],
  ["tck-stream-artifact-file", artifactTask(file("output.txt"))],
  ["tck-stream-artifact-chunked", chunkedTask("stream", ["chunk-1 ", "chunk-2"])],
  ["test-resubscribe-message-id", delayedTask(() => 4_000)],
];

/** The behaviour whose prefix `value` starts with, or undefined. */
export function behaviourOf(value: string): Behaviour | undefined {
  return behaviours.find(([prefix]) => value.startsWith(prefix))?.[1];
}

/** A behaviour and the contract that selected it. */
export interface Selection {
  readonly behaviour: Behaviour;
  readonly contract: Contract;
}

/** The behaviour a message names: by its messageId prefix (TCK), else by its first part's text (ACTS). */
export function selectBehaviour(message: Message | undefined): Selection | undefined {
  const byId = behaviourOf(message?.messageId ?? "");
  if (byId !== undefined) return { behaviour: byId, contract: "tck" };
  const byText = behaviourOf(firstText(message));
  return byText !== undefined ? { behaviour: byText, contract: "acts" } : undefined;
}

/**
 * Runs one turn. A new task: the behaviour its message selects, else {@link echo}. A follow-up:
 * the behaviour its own messageId names (TCK), else the `resume` of the behaviour the task's
 * first message selected (ACTS), else {@link echo}.
 */
export function runTurn(turn: Omit<Turn, "text" | "contract">): Promise<void> {
  const { request } = turn;
  const own = selectBehaviour(request.message);
  if (request.isNewTask)
    return (own?.behaviour ?? echo).start(turnWith(turn, own?.contract ?? "acts"));
  if (own?.contract === "tck") return own.behaviour.start(turnWith(turn, "tck"));
  const first = selectBehaviour(request.task?.history[0]);
  return first?.behaviour.resume !== undefined
    ? first.behaviour.resume(turnWith(turn, first.contract))
    : echo.start(turnWith(turn, "acts"));
}

/**
 * The Turn a behaviour runs with. Its fields named one by one rather than `{ ...turn }` (no closure, no
 * spread: the spread alone cost 5–8% of a Message reply in the in-process benchmark).
 */
function turnWith(turn: Omit<Turn, "text" | "contract">, contract: Contract): Turn {
  return {
    request: turn.request,
    emitter: turn.emitter,
    text: firstText(turn.request.message),
    contract,
    longRunningMs: turn.longRunningMs,
    shutdown: turn.shutdown,
  };
}
