// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Task states and roles as the generated enums number them, and the lifecycle
 * predicates of spec §3 and §4.1.3: terminal = COMPLETED, FAILED, CANCELED,
 * REJECTED; interrupted = INPUT_REQUIRED, AUTH_REQUIRED.
 */

/** The `TaskState` enum values the runtime needs; the generated `TaskState` enum object fits. */
export interface TaskStateNumbers {
  /** `TASK_STATE_SUBMITTED`. */
  readonly SUBMITTED: number;
  /** `TASK_STATE_WORKING`. */
  readonly WORKING: number;
  /** `TASK_STATE_COMPLETED` (terminal). */
  readonly COMPLETED: number;
  /** `TASK_STATE_FAILED` (terminal). */
  readonly FAILED: number;
  /** `TASK_STATE_CANCELED` (terminal). */
  readonly CANCELED: number;
  /** `TASK_STATE_INPUT_REQUIRED` (interrupted). */
  readonly INPUT_REQUIRED: number;
  /** `TASK_STATE_REJECTED` (terminal). */
  readonly REJECTED: number;
  /** `TASK_STATE_AUTH_REQUIRED` (interrupted). */
  readonly AUTH_REQUIRED: number;
}

/** The `Role` enum values the runtime needs; the generated `Role` enum object fits. */
export interface RoleNumbers {
  /** `ROLE_USER`. */
  readonly USER: number;
  /** `ROLE_AGENT`. */
  readonly AGENT: number;
}

/** Lifecycle predicates over one numbering of the states. */
export class TaskStates {
  readonly #terminal: ReadonlySet<number>;
  readonly #interrupted: ReadonlySet<number>;
  readonly #known: ReadonlySet<number>;

  /** The enum numbers. */
  readonly numbers: TaskStateNumbers;

  /** Builds the predicates for the given enum numbers. */
  constructor(numbers: TaskStateNumbers) {
    this.numbers = numbers;
    this.#terminal = new Set([
      numbers.COMPLETED,
      numbers.FAILED,
      numbers.CANCELED,
      numbers.REJECTED,
    ]);
    this.#interrupted = new Set([numbers.INPUT_REQUIRED, numbers.AUTH_REQUIRED]);
    this.#known = new Set([
      numbers.SUBMITTED,
      numbers.WORKING,
      ...this.#terminal,
      ...this.#interrupted,
    ]);
  }

  /** COMPLETED, FAILED, CANCELED or REJECTED: the task accepts no more messages or updates. */
  isTerminal(state: number | undefined): boolean {
    return state !== undefined && this.#terminal.has(state);
  }

  /** INPUT_REQUIRED or AUTH_REQUIRED: the task waits for the client. */
  isInterrupted(state: number | undefined): boolean {
    return state !== undefined && this.#interrupted.has(state);
  }

  /** A state a task can be in (not UNSPECIFIED, not an unknown number). */
  isKnown(state: number): boolean {
    return this.#known.has(state);
  }
}
