// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The bookkeeping of one conversation turn (one `execute()` call): what the emitter has
 * accepted so far (checked synchronously, so misuse fails at the call) and what has been
 * stored (updated inside the task's queue).
 */
import type { ActiveTurn, LiveTask } from "./live-tasks.js";
import type { TurnTicket } from "./cluster.js";
import type { MessageShape, PushConfigShape } from "./shapes.js";

/** How a turn answers. */
export type TurnMode = "idle" | "message" | "task";

/** What a turn starts from. */
export interface TurnInit {
  /** Unique turn number. */
  readonly id: number;
  /** The task's live slot. */
  readonly slot: LiveTask;
  /** Task id (fresh for a new task). */
  readonly taskId: string;
  /** Context id. */
  readonly contextId: string;
  /** The user message as stored. */
  readonly userMessage: MessageShape;
  /** The task this turn continues, if any: its state and artifact ids. */
  readonly existing:
    | { readonly state: number | undefined; readonly artifactIds: readonly string[] }
    | undefined;
  /** Push config to register when the new task is created. */
  readonly pushConfig: PushConfigShape | undefined;
  /** The controller of a signal the executor read before the turn was built (see fresh-turn.ts). */
  readonly abort?: AbortController | undefined;
}

/** One running turn. */
export class Turn implements ActiveTurn {
  /** Unique turn number. */
  readonly id: number;
  /** The task's live slot. */
  readonly slot: LiveTask;
  /** Task id. */
  readonly taskId: string;
  /** Context id. */
  readonly contextId: string;
  /** The user message as stored. */
  readonly userMessage: MessageShape;
  /** True when the turn may create a task (or reply) rather than continue one. */
  readonly isNew: boolean;
  /** Push config to register when the task is created. */
  readonly pushConfig: PushConfigShape | undefined;
  /** Made when the executor first reads its signal (most never do): an AbortController per turn costs. */
  #abort: AbortController | undefined;
  /** Accepted so far: nothing, a reply, or task events. */
  mode: TurnMode;
  /** Task state as accepted so far. */
  state: number | undefined;
  /** Set when `execute()` settled ("ended") or the task was canceled through CancelTask ("canceled"). */
  closed: "ended" | "canceled" | undefined;
  /** The task exists in the store (always true when continuing). */
  created: boolean;
  /** A stateless reply was delivered. */
  replied = false;
  #artifactIds: Set<string> | undefined;
  #finishedArtifacts: Set<string> | undefined;
  readonly #existingArtifactIds: readonly string[] | undefined;
  /** The turn's ticket with a shared store, once it created its task (released with the lock). */
  ticket: TurnTicket | undefined;
  /** Releases the task's turn lock (idempotent); set when the turn starts. */
  releaseLock: () => void = () => {};

  /** Starts the bookkeeping. */
  constructor(init: TurnInit) {
    this.id = init.id;
    this.slot = init.slot;
    this.taskId = init.taskId;
    this.contextId = init.contextId;
    this.userMessage = init.userMessage;
    this.pushConfig = init.pushConfig;
    this.isNew = init.existing === undefined;
    this.mode = this.isNew ? "idle" : "task";
    this.state = init.existing?.state;
    this.created = !this.isNew;
    this.#existingArtifactIds = init.existing?.artifactIds;
    this.#abort = init.abort;
  }

  /** Artifact ids the task has (or will have once queued events are stored); made on first use (a Message reply never needs it). */
  get artifactIds(): Set<string> {
    return (this.#artifactIds ??= new Set(this.#existingArtifactIds));
  }

  /** Artifact ids marked `lastChunk` during this turn (made on first use). */
  get finishedArtifacts(): Set<string> {
    return (this.#finishedArtifacts ??= new Set());
  }

  /** {@inheritDoc ActiveTurn.running} */
  get running(): boolean {
    return this.closed === undefined;
  }

  /** Aborted by CancelTask (created on first access; already aborted when the turn was canceled before). */
  get signal(): AbortSignal {
    let controller = this.#abort;
    if (controller === undefined) {
      controller = this.#abort = new AbortController();
      if (this.closed === "canceled") controller.abort(this.#cancelReason());
    }
    return controller.signal;
  }

  /** {@inheritDoc ActiveTurn.markCanceled} */
  markCanceled(): boolean {
    if (this.closed !== undefined) return false;
    this.closed = "canceled";
    this.#abort?.abort(this.#cancelReason());
    return true;
  }

  #cancelReason(): Error {
    return new Error(`task ${this.taskId} was canceled`);
  }
}
