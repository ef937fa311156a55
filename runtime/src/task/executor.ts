// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The agent author's side of the task runtime: implement {@link AgentExecutor} and the
 * runtime implements all eleven A2A operations around it.
 *
 * One `execute()` call handles one incoming message (one conversation turn). It either
 * answers with ONE stateless Message (`emitter.reply`) or drives a Task through its
 * lifecycle (`working`, `addArtifact`, `complete`, `requireInput`, …). Its returned
 * promise is the lifetime of the turn: when it settles the emitter closes.
 */
import type { JsonObject, MessageInitShape } from "@bufbuild/protobuf";
import type { CallContext, ServiceParameters } from "../pipeline/call-context.js";
import type { Of, SendMessageRequestShape, TaskRuntimeSchemas } from "./shapes.js";

/**
 * The call context as the runtime hands it on: `CallContext` of `call-context.ts`, with
 * the service parameters seen through their methods (so that copies of the runtime in
 * different folders still agree on the type).
 */
export type TaskCallContext<Principal> = Omit<CallContext<Principal>, "serviceParameters"> & {
  /** All service parameters of the request (headers or metadata). */
  readonly serviceParameters: Pick<ServiceParameters, "get" | "has" | "entries">;
};

/** A message an executor emits: plain text (one text part), a Message, or its init object. Ids are filled in. */
export type MessageInputOf<S extends TaskRuntimeSchemas> = string | MessageInitShape<S["Message"]>;

/** An artifact an executor emits: an Artifact or its init object. An empty `artifactId` is generated. */
export type ArtifactInputOf<S extends TaskRuntimeSchemas> = MessageInitShape<S["Artifact"]>;

/** Options of {@link TaskEmitter.addArtifact}. */
export interface ArtifactOptions {
  /** Append the parts to the artifact of the same id emitted earlier (streaming chunks). Default false. */
  readonly append?: boolean | undefined;
  /** This is the last chunk of the artifact; appending to it afterwards is an error. Default false. */
  readonly lastChunk?: boolean | undefined;
  /** `TaskArtifactUpdateEvent.metadata`. */
  readonly metadata?: JsonObject | undefined;
}

/** A low-level task event for {@link TaskEmitter.publish}; its taskId and contextId must be the emitter's. */
export type TaskEventInputOf<S extends TaskRuntimeSchemas> =
  | { readonly case: "statusUpdate"; readonly value: MessageInitShape<S["TaskStatusUpdateEvent"]> }
  | {
      readonly case: "artifactUpdate";
      readonly value: MessageInitShape<S["TaskArtifactUpdateEvent"]>;
    };

/**
 * Publishes the outcome of one turn. Every method validates synchronously and throws
 * `ExecutorMisuseError` (nothing is stored) when the event breaks the protocol:
 *
 * - `reply` twice, or after any task event, or on a turn that continues a task;
 * - any task event after `reply`;
 * - any event once the task is terminal (COMPLETED, FAILED, CANCELED, REJECTED), or
 *   once the task was canceled through CancelTask;
 * - any call after `execute()` settled;
 * - a message or event naming another task or context, a message or artifact without
 *   parts, an `append` to an artifact the task lacks or that was marked `lastChunk`.
 *
 * Otherwise the event is queued in order and the returned promise resolves once it is
 * stored and delivered to every stream (awaiting it is optional; order is kept either way).
 * For a new task the first task event also creates the task (state SUBMITTED, the user
 * message as history), which is what streams receive first.
 */
export interface TaskEmitter<S extends TaskRuntimeSchemas> {
  /** The task this turn works on (server-generated for a new task). */
  readonly taskId: string;
  /** The context of the task or reply. */
  readonly contextId: string;
  /** The task state as emitted so far (undefined before the task exists). */
  readonly state: number | undefined;
  /** Answers with one stateless Message instead of a task (only on a turn that does not continue a task). */
  reply(message: MessageInputOf<S>): Promise<void>;
  /** Creates the task (SUBMITTED) without changing anything else; makes `returnImmediately` callers return. No-op once it exists. */
  submit(): Promise<void>;
  /** TASK_STATE_WORKING, optionally with a progress message. */
  working(message?: MessageInputOf<S>): Promise<void>;
  /** Adds (or replaces, or with `append` extends) an artifact. */
  addArtifact(artifact: ArtifactInputOf<S>, options?: ArtifactOptions): Promise<void>;
  /** TASK_STATE_COMPLETED (terminal). */
  complete(message?: MessageInputOf<S>): Promise<void>;
  /** TASK_STATE_FAILED (terminal). */
  fail(message?: MessageInputOf<S>): Promise<void>;
  /** TASK_STATE_REJECTED (terminal): the agent will not do this task. */
  reject(message?: MessageInputOf<S>): Promise<void>;
  /** TASK_STATE_CANCELED (terminal), decided by the agent itself. */
  cancel(message?: MessageInputOf<S>): Promise<void>;
  /** TASK_STATE_INPUT_REQUIRED (interrupted): the message asks the client for input. */
  requireInput(message: MessageInputOf<S>): Promise<void>;
  /** TASK_STATE_AUTH_REQUIRED (interrupted): the message explains the authorization needed (§7.6.1). */
  requireAuth(message: MessageInputOf<S>): Promise<void>;
  /** Publishes a raw status or artifact event (same rules and effects as the helpers). */
  publish(event: TaskEventInputOf<S>): Promise<void>;
}

/** What `execute()` knows about the turn. */
export interface RequestContext<Principal, S extends TaskRuntimeSchemas> {
  /** The whole SendMessage request (configuration, metadata, …). */
  readonly request: SendMessageRequestShape;
  /** The user message, as stored: its taskId and contextId are filled in. */
  readonly message: Of<S, "Message">;
  /** The task this message continues (a copy, the message already in its history), or undefined for a new task. */
  readonly task: Of<S, "Task"> | undefined;
  /** The task id: the continued task's, or a fresh server-generated one. */
  readonly taskId: string;
  /** The context id: the task's, the client's, or a fresh server-generated one. */
  readonly contextId: string;
  /** True when this turn starts a new task (or answers with a stateless message). */
  readonly isNewTask: boolean;
  /** Copies of the tasks named in `message.referenceTaskIds` that the caller may see (others are left out). */
  readonly referenceTasks: readonly Of<S, "Task">[];
  /** The call that brought the message: principal, tenant, extensions, service parameters. */
  readonly call: TaskCallContext<Principal>;
  /**
   * Aborted when the task is canceled (CancelTask). Not aborted when the client goes away:
   * the task outlives the request (use `call.signal` for that).
   */
  readonly signal: AbortSignal;
}

/** What the cancel hook knows. */
export interface CancelContext<Principal, S extends TaskRuntimeSchemas> {
  /** The task as it is (a copy). */
  readonly task: Of<S, "Task">;
  /** True when an `execute()` is running for the task (its `signal` is aborted right after this hook). */
  readonly running: boolean;
  /** `CancelTaskRequest.metadata`. */
  readonly metadata: JsonObject | undefined;
  /** The CancelTask call. */
  readonly call: TaskCallContext<Principal>;
}

/** The agent logic. */
export interface AgentExecutor<Principal, S extends TaskRuntimeSchemas> {
  /**
   * Handles one incoming message. Resolve when the turn is over: after a terminal or
   * interrupted state, or a reply. Resolving with the task still SUBMITTED or WORKING
   * is a bug the runtime answers by failing the task; throwing fails the task too (or,
   * before anything was emitted, is the error the client gets).
   */
  execute(context: RequestContext<Principal, S>, emitter: TaskEmitter<S>): Promise<void> | void;
  /**
   * Optional hook of CancelTask, called before the runtime cancels a non-terminal task:
   * release resources, or throw (e.g. the generated TaskNotCancelableError) to refuse.
   * The runtime then aborts the running `execute()`'s signal and sets TASK_STATE_CANCELED itself.
   */
  cancel?(taskId: string, context: CancelContext<Principal, S>): Promise<void> | void;
}
