// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Builds the messages the runtime stores and streams, with the schemas the binder
 * handed in, and normalizes what executors give it (agent messages, artifacts).
 */
import {
  clone,
  create,
  isMessage,
  type DescMessage,
  type MessageInitShape,
  type MessageShape as ProtoShape,
} from "@bufbuild/protobuf";
import type { GenMessage } from "@bufbuild/protobuf/codegenv2";
import { timestampFromDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import type { JsonObject } from "@bufbuild/protobuf";
import { ExecutorMisuseError } from "./errors.js";
import type {
  ArtifactShape,
  MessageShape,
  StreamResponseShape,
  TaskRuntimeSchemas,
  TaskShape,
  TaskStatusShape,
} from "./shapes.js";
import type { RoleNumbers, TaskStates } from "./states.js";

/** What an executor may pass where a message is expected: plain text, a Message, or its init object. */
export type MessageInput = string | MessageInitShape<GenMessage<MessageShape>>;

/** What an executor may pass where an artifact is expected: an Artifact or its init object (`artifactId` may be left empty). */
export type ArtifactInput = MessageInitShape<GenMessage<ArtifactShape>>;

/** Thrown by {@link copyPlain} at a value it does not copy itself. */
const NOT_PLAIN: unique symbol = Symbol("not plain");

/**
 * A deep copy of a protobuf-es message made of plain objects (prototype Object.prototype), arrays,
 * Uint8Arrays and primitives, which is what `create`, `fromBinary` and `fromJson` build for these
 * messages; throws NOT_PLAIN at anything else (e.g. a message with a prototype of default values,
 * a Buffer, a function, an `undefined` that `clone` would turn into something else, such as a
 * Struct value) so that `clone` deals with it. Own enumerable string keys are copied as they are
 * (also `$typeName` and `$unknown`).
 */
function copyPlain(value: unknown, init = false): unknown {
  if (typeof value !== "object" || value === null) {
    if ((value === undefined && !init) || typeof value === "function") throw NOT_PLAIN;
    return value;
  }
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = copyPlain(value[i], init);
    return out;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto === Uint8Array.prototype) return (value as Uint8Array).slice();
  if (proto !== Object.prototype) throw NOT_PLAIN;
  const out: Record<string, unknown> = {};
  // for…in over a plain object (its prototype checked above) walks its own keys without allocating a key array.
  for (const key in value) {
    const field = (value as Record<string, unknown>)[key];
    // The one `undefined` of a well-formed message: an unset oneof, `{ case: undefined }` (in an init
    // object, any field may be `undefined`: unset).
    const copy =
      field === undefined && (init || key === "case") ? undefined : copyPlain(field, init);
    if (key === "__proto__")
      Object.defineProperty(out, key, {
        value: copy,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else out[key] = copy;
  }
  return out;
}

/**
 * `clone(schema, message)`, about ten times faster for the usual plain messages (see
 * {@link copyPlain}); anything else (or a message of another type) goes to `clone` itself.
 */
export function deepCopy<Desc extends DescMessage>(
  schema: Desc,
  message: ProtoShape<Desc>,
): ProtoShape<Desc> {
  if (message.$typeName === schema.typeName) {
    try {
      return copyPlain(message) as ProtoShape<Desc>;
    } catch (e) {
      if (e !== NOT_PLAIN) throw e;
    }
  }
  return clone(schema, message);
}

/**
 * A message of the runtime's own from an executor's input, sharing nothing with it: a copy of a message,
 * or `create` over a copy of an init object. The init object is copied first, not the message `create`
 * builds (which shares the init's arrays, maps, bytes and Struct values): its copy is smaller (no default
 * fields), and `create` then builds the rest from objects nobody else holds. An init that is not plain data
 * (a Date, a Map, a message with a prototype) is created, then deep-copied.
 */
export function createOwned<Desc extends DescMessage>(
  schema: Desc,
  input: ProtoShape<Desc> | MessageInitShape<Desc>,
): ProtoShape<Desc> {
  if (isMessage(input, schema)) return deepCopy(schema, input);
  try {
    return create(schema, copyPlain(input, true) as MessageInitShape<Desc>);
  } catch (e) {
    if (e !== NOT_PLAIN) throw e;
  }
  return deepCopy(schema, create(schema, input));
}

/** Creates and copies the runtime's messages. */
export class TaskFactory {
  /** The generated schemas. */
  readonly schemas: TaskRuntimeSchemas;
  /** The generated TaskState numbers. */
  readonly states: TaskStates;
  /** The generated Role numbers. */
  readonly roles: RoleNumbers;
  /** The clock of status timestamps. */
  readonly now: () => Date;
  /** Generates message and artifact ids. */
  readonly newId: () => string;

  /** Binds the factory to the generated schemas and enums, a clock and an id generator. */
  constructor(
    schemas: TaskRuntimeSchemas,
    states: TaskStates,
    roles: RoleNumbers,
    now: () => Date,
    newId: () => string,
  ) {
    this.schemas = schemas;
    this.states = states;
    this.roles = roles;
    this.now = now;
    this.newId = newId;
  }

  /** The current time as a Timestamp. */
  timestamp(): Timestamp {
    return timestampFromDate(this.now());
  }

  /** A one-part text message from the agent. */
  text(text: string, taskId: string, contextId: string): MessageShape {
    return create(this.schemas.Message, {
      messageId: this.newId(),
      role: this.roles.AGENT,
      taskId,
      contextId,
      parts: [{ content: { case: "text", value: text } }],
    });
  }

  /**
   * An agent message for `taskId` ("" for a stateless reply) in `contextId`: a copy of
   * the input with the ids filled in (and `messageId`, `role` when missing). Throws
   * ExecutorMisuseError when the input names another task or context, or has no part.
   */
  agentMessage(input: MessageInput, taskId: string, contextId: string): MessageShape {
    if (typeof input === "string") return this.text(input, taskId, contextId);
    const message = createOwned(this.schemas.Message, input);
    if (message.taskId !== taskId && message.taskId !== "") {
      throw new ExecutorMisuseError(
        "wrong-task",
        taskId === ""
          ? `a stateless reply carries no taskId, got "${message.taskId}"`
          : `message for task "${message.taskId}" emitted for task "${taskId}"`,
      );
    }
    if (message.contextId !== contextId && message.contextId !== "") {
      throw new ExecutorMisuseError(
        "wrong-task",
        `message for context "${message.contextId}" emitted in context "${contextId}"`,
      );
    }
    if (message.parts.length === 0)
      throw new ExecutorMisuseError("invalid-event", "a message needs at least one part");
    message.taskId = taskId;
    message.contextId = contextId;
    if (message.messageId === "") message.messageId = this.newId();
    if (message.role !== this.roles.USER && message.role !== this.roles.AGENT)
      message.role = this.roles.AGENT;
    return message;
  }

  /** A copy of an executor's artifact; throws ExecutorMisuseError when it has no part. An empty id is generated unless `append`. */
  artifact(input: ArtifactInput, append: boolean): ArtifactShape {
    const artifact = createOwned(this.schemas.Artifact, input);
    if (artifact.parts.length === 0)
      throw new ExecutorMisuseError("invalid-event", "an artifact needs at least one part");
    if (artifact.artifactId === "") {
      if (append)
        throw new ExecutorMisuseError(
          "invalid-event",
          "an appended chunk must name the artifactId it extends",
        );
      artifact.artifactId = this.newId();
    }
    return artifact;
  }

  /** A status stamped now. */
  status(state: number, message: MessageShape | undefined): TaskStatusShape {
    return create(this.schemas.TaskStatus, { state, message, timestamp: this.timestamp() });
  }

  /** A new task in SUBMITTED whose history starts with the user's message. */
  newTask(taskId: string, contextId: string, userMessage: MessageShape): TaskShape {
    return create(this.schemas.Task, {
      id: taskId,
      contextId,
      status: this.status(this.states.numbers.SUBMITTED, undefined),
      history: [userMessage],
    });
  }

  /**
   * A shallow copy of a task for copy-on-write: a new Task with new `history` and
   * `artifacts` arrays whose elements (and the status) are shared with the original.
   * The copy may be changed by replacing fields or elements, never by mutating a shared one.
   */
  copyTask(task: TaskShape): TaskShape {
    const copy = create(this.schemas.Task, {
      id: task.id,
      contextId: task.contextId,
      status: task.status,
      metadata: task.metadata,
    });
    copy.history = [...task.history];
    copy.artifacts = [...task.artifacts];
    return copy;
  }

  /** A deep copy of a message. */
  cloneMessage(message: MessageShape): MessageShape {
    return deepCopy(this.schemas.Message, message);
  }

  /** A deep copy of an artifact. */
  cloneArtifact(artifact: ArtifactShape): ArtifactShape {
    return deepCopy(this.schemas.Artifact, artifact);
  }

  /** A deep copy of a task. */
  cloneTask(task: TaskShape): TaskShape {
    return deepCopy(this.schemas.Task, task);
  }

  /** A deep copy of an event. */
  cloneEvent(event: StreamResponseShape): StreamResponseShape {
    return deepCopy(this.schemas.StreamResponse, event);
  }

  /** `StreamResponse{task}` holding a copy of the task (for a caller). */
  taskEvent(task: TaskShape): StreamResponseShape {
    return create(this.schemas.StreamResponse, {
      payload: { case: "task", value: this.cloneTask(task) },
    });
  }

  // The feed events below hold the stored (copy-on-write, never mutated) task parts and the
  // runtime's own fresh copies of what executors emitted, without copying them again: a feed
  // event is shared by its readers and never handed out as is (every reader, and the
  // onTaskEvent hook, gets a deep copy), so nothing can change what it references.

  /** Feed event `StreamResponse{task}` sharing the (stored, never mutated) task. */
  feedTaskEvent(task: TaskShape): StreamResponseShape {
    return create(this.schemas.StreamResponse, { payload: { case: "task", value: task } });
  }

  /** Feed event `StreamResponse{message}` sharing the message (a runtime-owned copy). */
  messageEvent(message: MessageShape): StreamResponseShape {
    return create(this.schemas.StreamResponse, { payload: { case: "message", value: message } });
  }

  /** Feed event `StreamResponse{statusUpdate}` sharing the status (as stored in the task). */
  statusEvent(
    task: TaskShape,
    status: TaskStatusShape,
    metadata: JsonObject | undefined,
  ): StreamResponseShape {
    const value = create(this.schemas.TaskStatusUpdateEvent, {
      taskId: task.id,
      contextId: task.contextId,
      status,
      metadata,
    });
    return create(this.schemas.StreamResponse, { payload: { case: "statusUpdate", value } });
  }

  /** Feed event `StreamResponse{artifactUpdate}` sharing the artifact or chunk (a runtime-owned copy). */
  artifactEvent(
    task: TaskShape,
    artifact: ArtifactShape,
    append: boolean,
    lastChunk: boolean,
    metadata: JsonObject | undefined,
  ): StreamResponseShape {
    const value = create(this.schemas.TaskArtifactUpdateEvent, {
      taskId: task.id,
      contextId: task.contextId,
      artifact,
      append,
      lastChunk,
      metadata,
    });
    return create(this.schemas.StreamResponse, { payload: { case: "artifactUpdate", value } });
  }
}
