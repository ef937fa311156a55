// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The {@link TaskEmitter} handed to `execute()`: checks each call against the turn's
 * bookkeeping synchronously (throwing ExecutorMisuseError, nothing stored), updates
 * the bookkeeping, and queues the change for the engine to store and stream.
 */
import { create, type JsonObject } from "@bufbuild/protobuf";
import { ExecutorMisuseError } from "./errors.js";
import type { ArtifactOptions, TaskEmitter, TaskEventInputOf } from "./executor.js";
import type { ArtifactInput, MessageInput, TaskFactory } from "./factory.js";
import type { ArtifactShape, MessageShape, TaskRuntimeSchemas } from "./shapes.js";
import { artifactBytes, messageBytes, nonFinitePath, valueBytes } from "./size.js";
import type { Turn } from "./turn.js";

/**
 * Refuses (synchronously, nothing stored) an emitted value with a NaN or ±Infinity in a Value or
 * Struct: no JSON binding could send it, so a stored task holding one could never be answered.
 */
export function checkEncodable(value: unknown, weight: number, what: string): void {
  if (!Number.isNaN(weight)) return;
  const at = nonFinitePath(value);
  throw new ExecutorMisuseError(
    "invalid-event",
    `${what} holds a number JSON cannot express (NaN or ±Infinity)${at === undefined || at === "" ? "" : ` at ${at}`}`,
  );
}

/** Where the emitter sends accepted changes; each returns once the change is stored and streamed. */
export interface TurnCommitter {
  /** Delivers a stateless reply. */
  commitReply(turn: Turn, message: MessageShape): Promise<void>;
  /** Creates the task if it does not exist yet. */
  commitCreate(turn: Turn): Promise<void>;
  /** Sets a status (creating the task first if needed). */
  commitStatus(
    turn: Turn,
    state: number,
    message: MessageShape | undefined,
    metadata: JsonObject | undefined,
  ): Promise<void>;
  /** Adds, replaces or extends an artifact (creating the task first if needed). */
  commitArtifact(
    turn: Turn,
    artifact: ArtifactShape,
    append: boolean,
    lastChunk: boolean,
    metadata: JsonObject | undefined,
  ): Promise<void>;
}

const noop = (): void => {};

/** Marks the promise handled (a caller that does not await it gets no unhandled rejection) and returns it. */
function handled(promise: Promise<void>): Promise<void> {
  promise.catch(noop);
  return promise;
}

/** The emitter of one turn. */
export class TurnEmitter implements TaskEmitter<TaskRuntimeSchemas> {
  readonly #turn: Turn;
  readonly #factory: TaskFactory;
  readonly #committer: TurnCommitter;

  /** Binds the emitter to its turn. */
  constructor(turn: Turn, factory: TaskFactory, committer: TurnCommitter) {
    this.#turn = turn;
    this.#factory = factory;
    this.#committer = committer;
  }

  /** {@inheritDoc TaskEmitter.taskId} */
  get taskId(): string {
    return this.#turn.taskId;
  }

  /** {@inheritDoc TaskEmitter.contextId} */
  get contextId(): string {
    return this.#turn.contextId;
  }

  /** {@inheritDoc TaskEmitter.state} */
  get state(): number | undefined {
    return this.#turn.state;
  }

  #guard(kind: "reply" | "task"): void {
    const turn = this.#turn;
    if (turn.closed === "canceled")
      throw new ExecutorMisuseError(
        "task-canceled",
        `task ${turn.taskId} was canceled; its executor may not emit anything more`,
      );
    if (turn.closed === "ended")
      throw new ExecutorMisuseError(
        "event-after-end",
        "the emitter was used after execute() settled",
      );
    if (kind === "reply") {
      if (turn.mode === "message")
        throw new ExecutorMisuseError(
          "second-message",
          "a turn answers with at most one stateless Message",
        );
      if (turn.mode === "task") {
        throw new ExecutorMisuseError(
          "message-for-task",
          turn.isNew
            ? "a stateless Message cannot follow task events"
            : `this message continues task ${turn.taskId}: answer with task events, not a stateless Message`,
        );
      }
    } else {
      if (turn.mode === "message")
        throw new ExecutorMisuseError(
          "event-after-message",
          "no task event may follow a stateless Message",
        );
      if (this.#factory.states.isTerminal(turn.state))
        throw new ExecutorMisuseError(
          "event-after-terminal",
          `task ${turn.taskId} is in a terminal state`,
        );
    }
  }

  #agentMessage(input: MessageInput | undefined): MessageShape | undefined {
    return input === undefined
      ? undefined
      : this.#factory.agentMessage(input, this.#turn.taskId, this.#turn.contextId);
  }

  #enterTask(): void {
    this.#turn.mode = "task";
    this.#turn.state ??= this.#factory.states.numbers.SUBMITTED;
  }

  /** {@inheritDoc TaskEmitter.reply} */
  reply(message: MessageInput): Promise<void> {
    this.#guard("reply");
    const reply = this.#factory.agentMessage(message, "", this.#turn.contextId);
    checkEncodable(reply, messageBytes(reply), "the reply");
    this.#turn.mode = "message";
    return handled(this.#committer.commitReply(this.#turn, reply));
  }

  /** {@inheritDoc TaskEmitter.submit} */
  submit(): Promise<void> {
    this.#guard("task");
    this.#enterTask();
    return handled(this.#committer.commitCreate(this.#turn));
  }

  #status(state: number, input: MessageInput | undefined, metadata?: JsonObject): Promise<void> {
    this.#guard("task");
    const message = this.#agentMessage(input);
    if (message !== undefined) checkEncodable(message, messageBytes(message), "the status message");
    if (metadata !== undefined)
      checkEncodable(metadata, valueBytes(metadata), "the event metadata");
    this.#enterTask();
    this.#turn.state = state;
    return handled(this.#committer.commitStatus(this.#turn, state, message, metadata));
  }

  /** {@inheritDoc TaskEmitter.working} */
  working(message?: MessageInput): Promise<void> {
    return this.#status(this.#factory.states.numbers.WORKING, message);
  }

  /** {@inheritDoc TaskEmitter.complete} */
  complete(message?: MessageInput): Promise<void> {
    return this.#status(this.#factory.states.numbers.COMPLETED, message);
  }

  /** {@inheritDoc TaskEmitter.fail} */
  fail(message?: MessageInput): Promise<void> {
    return this.#status(this.#factory.states.numbers.FAILED, message);
  }

  /** {@inheritDoc TaskEmitter.reject} */
  reject(message?: MessageInput): Promise<void> {
    return this.#status(this.#factory.states.numbers.REJECTED, message);
  }

  /** {@inheritDoc TaskEmitter.cancel} */
  cancel(message?: MessageInput): Promise<void> {
    return this.#status(this.#factory.states.numbers.CANCELED, message);
  }

  /** {@inheritDoc TaskEmitter.requireInput} */
  requireInput(message: MessageInput): Promise<void> {
    return this.#status(this.#factory.states.numbers.INPUT_REQUIRED, message);
  }

  /** {@inheritDoc TaskEmitter.requireAuth} */
  requireAuth(message: MessageInput): Promise<void> {
    return this.#status(this.#factory.states.numbers.AUTH_REQUIRED, message);
  }

  /** {@inheritDoc TaskEmitter.addArtifact} */
  addArtifact(input: ArtifactInput, options?: ArtifactOptions): Promise<void> {
    this.#guard("task");
    const turn = this.#turn;
    const append = options?.append === true;
    const lastChunk = options?.lastChunk === true;
    const artifact = this.#factory.artifact(input, append);
    checkEncodable(artifact, artifactBytes(artifact), `artifact "${artifact.artifactId}"`);
    if (options?.metadata !== undefined)
      checkEncodable(options.metadata, valueBytes(options.metadata), "the event metadata");
    const id = artifact.artifactId;
    if (append && !turn.artifactIds.has(id))
      throw new ExecutorMisuseError(
        "invalid-event",
        `append to artifact "${id}", which the task does not have`,
      );
    if (append && turn.finishedArtifacts.has(id))
      throw new ExecutorMisuseError(
        "invalid-event",
        `append to artifact "${id}" after its lastChunk`,
      );
    this.#enterTask();
    turn.artifactIds.add(id);
    if (lastChunk) turn.finishedArtifacts.add(id);
    else if (!append) turn.finishedArtifacts.delete(id);
    return handled(
      this.#committer.commitArtifact(turn, artifact, append, lastChunk, options?.metadata),
    );
  }

  /** {@inheritDoc TaskEmitter.publish} */
  publish(event: TaskEventInputOf<TaskRuntimeSchemas>): Promise<void> {
    this.#guard("task");
    const { schemas, states } = this.#factory;
    const turn = this.#turn;
    const checkIds = (taskId: string, contextId: string): void => {
      if (
        (taskId !== "" && taskId !== turn.taskId) ||
        (contextId !== "" && contextId !== turn.contextId)
      ) {
        throw new ExecutorMisuseError(
          "wrong-task",
          `event for task "${taskId}" (context "${contextId}") emitted for task "${turn.taskId}" (context "${turn.contextId}")`,
        );
      }
    };
    if (event.case === "statusUpdate") {
      const update = create(schemas.TaskStatusUpdateEvent, event.value);
      checkIds(update.taskId, update.contextId);
      const status = update.status;
      if (status === undefined || !states.isKnown(status.state))
        throw new ExecutorMisuseError(
          "invalid-event",
          "a status update needs a status with a known state",
        );
      return this.#status(status.state, status.message, update.metadata);
    }
    const update = create(schemas.TaskArtifactUpdateEvent, event.value);
    checkIds(update.taskId, update.contextId);
    if (update.artifact === undefined)
      throw new ExecutorMisuseError("invalid-event", "an artifact update needs an artifact");
    const options: ArtifactOptions =
      update.metadata === undefined
        ? { append: update.append, lastChunk: update.lastChunk }
        : { append: update.append, lastChunk: update.lastChunk, metadata: update.metadata };
    return this.addArtifact(update.artifact, options);
  }
}
