// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * What a task weighs: the byte budgets of the task runtime and its stores (`maxTaskBytes`,
 * `maxResponseBytes`, a store's `maxBytes` and `maxBytesPerOwner`) all count the same measure,
 * an estimate of the size of the value's JSON encoding (ProtoJSON), in bytes:
 * strings count their UTF-16 length plus quotes (escapes are not counted), `bytes` fields their
 * base64 length, numbers 8, 64-bit integers 22; a message's fields at their zero value count
 * nothing (ProtoJSON omits them), a field name counts its length plus 4. Close to `JSON.stringify`
 * of the encoding for text-heavy tasks and above it for small fields, it is cheap: a walk that
 * reads string lengths, never copies or encodes.
 *
 * A value that has no JSON form — a NaN or ±Infinity, which only `google.protobuf.Value`
 * numbers can hold in an A2A task — weighs `NaN`: the sum of a task holding one is NaN, so a
 * single check of the total tells a servable task from one no JSON binding could answer.
 *
 * Tasks, messages and artifacts are never changed once stored (copy-on-write, see
 * `TaskFactory.copyTask`), so their weights are cached on the objects: weighing a task after an
 * event walks only what the event added.
 */
import type { ArtifactShape, MessageShape, StreamResponseShape, TaskShape } from "./shapes.js";

/**
 * The cached weight of a stored (never mutated) task, message or artifact: a non-enumerable symbol
 * property on the object itself (measured: a WeakMap lookup per history message cost ~10% of a task
 * turn, and its ephemerons cost the GC); spreads, `clone()` and the encoders do not see it.
 */
const WEIGHT: unique symbol = Symbol("protoc-gen-a2a.weight");

interface Weighed {
  [WEIGHT]?: number;
}

function cached(value: object): number | undefined {
  return (value as Weighed)[WEIGHT];
}

function remember(value: object, weight: number): number {
  if (Object.isExtensible(value)) Object.defineProperty(value, WEIGHT, { value: weight });
  return weight;
}

/** Bytes of the JSON encoding of a task, estimated (see the module comment); NaN when it holds a non-finite number. */
export function taskBytes(task: TaskShape): number {
  const known = cached(task);
  if (known !== undefined) return known;
  let w =
    2 +
    fieldBytes("id", task.id) +
    fieldBytes("contextId", task.contextId) +
    statusBytes(task) +
    metadataBytes(task.metadata);
  if (task.history.length > 0) w += 11 + listBytes(task.history);
  if (task.artifacts.length > 0) w += 13 + listBytes(task.artifacts);
  return remember(task, w);
}

/**
 * Bytes of the task as a response shows it (`historyLength`: the most recent messages only;
 * `includeArtifacts` false: no artifacts), without making the trimmed copy: what {@link taskBytes}
 * of `applyView(copy, view)` would answer.
 */
export function taskViewBytes(
  task: TaskShape,
  historyLength: number | undefined,
  includeArtifacts: boolean,
): number {
  const keep =
    historyLength === undefined
      ? task.history.length
      : Math.min(historyLength, task.history.length);
  if (keep === task.history.length && (includeArtifacts || task.artifacts.length === 0))
    return taskBytes(task);
  let w =
    2 +
    fieldBytes("id", task.id) +
    fieldBytes("contextId", task.contextId) +
    statusBytes(task) +
    metadataBytes(task.metadata);
  if (keep > 0) {
    w += 11;
    for (let i = task.history.length - keep; i < task.history.length; i++)
      w += cachedBytes(task.history[i] as object) + 1;
  }
  if (includeArtifacts && task.artifacts.length > 0) w += 13 + listBytes(task.artifacts);
  return w;
}

/** Bytes of the JSON encoding of a message, estimated; NaN when it holds a non-finite number. */
export function messageBytes(message: MessageShape): number {
  return cachedBytes(message);
}

/** Bytes of the JSON encoding of an artifact, estimated; NaN when it holds a non-finite number. */
export function artifactBytes(artifact: ArtifactShape): number {
  return cachedBytes(artifact);
}

/**
 * Bytes of a stream event, estimated from the cached weights of what it carries (the task, the
 * message, the status message, the artifact) plus its metadata: cheap for the events the runtime
 * publishes, whose parts are stored objects.
 */
export function eventBytes(event: StreamResponseShape): number {
  const payload = event.payload;
  switch (payload.case) {
    case "task":
      return 10 + taskBytes(payload.value);
    case "message":
      return messageEventBytes(messageBytes(payload.value));
    case "statusUpdate": {
      const { status, metadata } = payload.value;
      return (
        120 +
        (status?.message === undefined ? 0 : messageBytes(status.message)) +
        metadataBytes(metadata)
      );
    }
    case "artifactUpdate": {
      const { artifact, metadata } = payload.value;
      return 120 + (artifact === undefined ? 0 : artifactBytes(artifact)) + metadataBytes(metadata);
    }
    default:
      return 2;
  }
}

/** What {@link eventBytes} answers for the event of a stateless reply whose message weighs `messageWeight`. */
export function messageEventBytes(messageWeight: number): number {
  return 13 + messageWeight;
}

/** Bytes of any protobuf-es message, JSON value or oneof, estimated; NaN when it holds a non-finite number. Not cached. */
export function valueBytes(value: unknown): number {
  return bytesOf(value, false);
}

function cachedBytes(value: object): number {
  return cached(value) ?? remember(value, bytesOf(value, false));
}

function listBytes(items: readonly object[]): number {
  let w = 0;
  for (const item of items) w += cachedBytes(item) + 1;
  return w;
}

/** The status: its state and timestamp, and its message (a stored message: cached). */
function statusBytes(task: TaskShape): number {
  const status = task.status;
  if (status === undefined) return 0;
  return (
    60 +
    (status.message === undefined ? 0 : 10 + cachedBytes(status.message)) +
    (status.timestamp === undefined ? 0 : 36)
  );
}

function fieldBytes(name: string, value: string): number {
  return value === "" ? 0 : name.length + 6 + value.length;
}

function metadataBytes(metadata: object | undefined): number {
  return metadata === undefined ? 0 : 12 + bytesOf(metadata, true);
}

/**
 * The walk. `json`: inside a JSON value (a Struct unboxed by protobuf-es), where every key and
 * zero value counts; outside, in a message, zero values are what ProtoJSON leaves out.
 */
function bytesOf(value: unknown, json: boolean): number {
  switch (typeof value) {
    case "string":
      return value.length + 2;
    case "number":
      return Number.isFinite(value) ? 8 : Number.NaN;
    case "boolean":
      return 5;
    case "bigint":
      return 22;
    case "undefined":
      return 0;
    case "object":
      break;
    default:
      return 0;
  }
  if (value === null) return 4;
  if (value instanceof Uint8Array) return Math.ceil(value.byteLength / 3) * 4 + 2;
  if (Array.isArray(value)) {
    let w = 2;
    for (const item of value) w += bytesOf(item, json) + 1;
    return w;
  }
  const record = value as Record<string, unknown>;
  if (!json && typeof record["$typeName"] !== "string" && typeof record["case"] === "string") {
    // A oneof: `"<case>": <value>`.
    return (record["case"] as string).length + 4 + bytesOf(record["value"], false);
  }
  // A Struct value reached from a message (metadata fields, Value.structValue): JSON from here on.
  const inJson = json || record["$typeName"] === undefined;
  let w = 2;
  for (const key in record) {
    if (!inJson && key.charCodeAt(0) === 36 /* $ */) continue;
    const item = record[key];
    if (!inJson && isZero(item)) continue;
    w += key.length + 4 + bytesOf(item, inJson);
  }
  return w;
}

/** A message field at its zero value, which ProtoJSON omits. */
function isZero(value: unknown): boolean {
  return (
    value === undefined ||
    value === "" ||
    value === 0 ||
    value === false ||
    value === 0n ||
    (Array.isArray(value) && value.length === 0) ||
    (value instanceof Uint8Array && value.byteLength === 0)
  );
}

/**
 * The path (`history[2].parts[0].data.a[1]`, JSON names) of the first non-finite number in a
 * task, message or JSON value, or undefined. For error messages: it walks everything, call it only
 * once a weight came out NaN.
 */
export function nonFinitePath(value: unknown, path = ""): string | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? undefined : path;
  if (typeof value !== "object" || value === null || value instanceof Uint8Array) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nonFinitePath(value[i], `${path}[${i}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  const record = value as Record<string, unknown>;
  switch (record["$typeName"]) {
    case "google.protobuf.Value":
      return nonFinitePath((record["kind"] as { value?: unknown } | undefined)?.value, path);
    case "google.protobuf.Struct":
      return nonFinitePath(record["fields"], path);
    case "google.protobuf.ListValue":
      return nonFinitePath(record["values"], path);
  }
  for (const key in record) {
    if (key.charCodeAt(0) === 36 /* $ */) continue;
    let item = record[key];
    let name = key;
    const oneof = item as { case?: unknown; value?: unknown } | undefined;
    if (
      typeof record["$typeName"] === "string" &&
      typeof oneof === "object" &&
      oneof !== null &&
      typeof oneof.case === "string"
    ) {
      // A oneof: its member is a field of this message in JSON.
      name = oneof.case;
      item = oneof.value;
    }
    const found = nonFinitePath(item, path === "" ? name : `${path}.${name}`);
    if (found !== undefined) return found;
  }
  return undefined;
}
