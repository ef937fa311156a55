// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The {@link TaskEmitter} of a new turn ({@link FreshTurn}): a stateless reply is checked and handed
 * to the caller directly; the first task event (status, artifact, submit, publish) promotes the turn
 * to a real one and every call from then on goes to that turn's {@link TurnEmitter}. The checks and
 * errors are those of TurnEmitter: an executor cannot tell the two apart.
 */
import { checkEncodable } from "./emitter.js";
import { ExecutorMisuseError } from "./errors.js";
import type { ArtifactOptions, TaskEmitter, TaskEventInputOf } from "./executor.js";
import type { ArtifactInput, MessageInput, TaskFactory } from "./factory.js";
import type { FreshTurn } from "./fresh-turn.js";
import type { TaskRuntimeSchemas } from "./shapes.js";
import { messageEventBytes, valueBytes } from "./size.js";

const resolved: Promise<void> = Promise.resolve();

/** The emitter of a new turn; `promote` builds the real turn and returns its emitter (once). */
export class FreshTurnEmitter implements TaskEmitter<TaskRuntimeSchemas> {
  readonly #fresh: FreshTurn<unknown>;
  readonly #factory: TaskFactory;
  readonly #promote: () => TaskEmitter<TaskRuntimeSchemas>;
  /** The real turn's emitter, once promoted. */
  #real: TaskEmitter<TaskRuntimeSchemas> | undefined;

  /** Binds the emitter to its fresh turn. */
  constructor(
    fresh: FreshTurn<unknown>,
    factory: TaskFactory,
    promote: () => TaskEmitter<TaskRuntimeSchemas>,
  ) {
    this.#fresh = fresh;
    this.#factory = factory;
    this.#promote = promote;
  }

  /** {@inheritDoc TaskEmitter.taskId} */
  get taskId(): string {
    return this.#fresh.taskId;
  }

  /** {@inheritDoc TaskEmitter.contextId} */
  get contextId(): string {
    return this.#fresh.contextId;
  }

  /** {@inheritDoc TaskEmitter.state} */
  get state(): number | undefined {
    return this.#real?.state;
  }

  /** The real emitter: the promoted turn's, made now by the first task event (refused after a reply or the end, as TurnEmitter does). */
  #task(): TaskEmitter<TaskRuntimeSchemas> {
    if (this.#real !== undefined) return this.#real;
    const fresh = this.#fresh;
    refuseAfterEnd(fresh);
    if (fresh.replied)
      throw new ExecutorMisuseError(
        "event-after-message",
        "no task event may follow a stateless Message",
      );
    this.#real = this.#promote();
    return this.#real;
  }

  /** {@inheritDoc TaskEmitter.reply} */
  reply(message: MessageInput): Promise<void> {
    if (this.#real !== undefined) return this.#real.reply(message);
    const fresh = this.#fresh;
    refuseAfterEnd(fresh);
    if (fresh.replied)
      throw new ExecutorMisuseError(
        "second-message",
        "a turn answers with at most one stateless Message",
      );
    const reply = this.#factory.agentMessage(message, "", fresh.contextId);
    // Weighed, not cached on the reply: a reply is never stored, so no one weighs it again.
    const bytes = valueBytes(reply);
    checkEncodable(reply, bytes, "the reply");
    fresh.deliverReply(this.#factory.messageEvent(reply), messageEventBytes(bytes));
    return resolved;
  }

  /** {@inheritDoc TaskEmitter.submit} */
  submit(): Promise<void> {
    return this.#task().submit();
  }

  /** {@inheritDoc TaskEmitter.working} */
  working(message?: MessageInput): Promise<void> {
    return this.#task().working(message);
  }

  /** {@inheritDoc TaskEmitter.complete} */
  complete(message?: MessageInput): Promise<void> {
    return this.#task().complete(message);
  }

  /** {@inheritDoc TaskEmitter.fail} */
  fail(message?: MessageInput): Promise<void> {
    return this.#task().fail(message);
  }

  /** {@inheritDoc TaskEmitter.reject} */
  reject(message?: MessageInput): Promise<void> {
    return this.#task().reject(message);
  }

  /** {@inheritDoc TaskEmitter.cancel} */
  cancel(message?: MessageInput): Promise<void> {
    return this.#task().cancel(message);
  }

  /** {@inheritDoc TaskEmitter.requireInput} */
  requireInput(message: MessageInput): Promise<void> {
    return this.#task().requireInput(message);
  }

  /** {@inheritDoc TaskEmitter.requireAuth} */
  requireAuth(message: MessageInput): Promise<void> {
    return this.#task().requireAuth(message);
  }

  /** {@inheritDoc TaskEmitter.addArtifact} */
  addArtifact(input: ArtifactInput, options?: ArtifactOptions): Promise<void> {
    return this.#task().addArtifact(input, options);
  }

  /** {@inheritDoc TaskEmitter.publish} */
  publish(event: TaskEventInputOf<TaskRuntimeSchemas>): Promise<void> {
    return this.#task().publish(event);
  }
}

/** Refuses an event once `execute()` settled (as TurnEmitter does). */
function refuseAfterEnd(fresh: { readonly ended: boolean }): void {
  if (fresh.ended)
    throw new ExecutorMisuseError(
      "event-after-end",
      "the emitter was used after execute() settled",
    );
}
