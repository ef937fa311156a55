// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Receiving push notifications: the client (webhook receiver) side of spec §4.3.3 and
 * §13.2. An agent POSTs one ProtoJSON `StreamResponse` per task event to the URL of a push
 * config; this handler checks each request and hands the accepted ones to the application.
 *
 * ```ts
 * const configs = new Map<string, { scheme: string; credentials: string }>(); // taskId → what the config asked for
 * const receiver = createPushNotificationReceiver({
 *   schema: StreamResponseSchema,
 *   expected: (taskId) => (configs.has(taskId) ? { authentication: configs.get(taskId) } : undefined),
 *   onNotification: (event, { taskId }) => console.log(taskId, event.payload.case),
 * });
 * createServer(serveNode(receiver)).listen(8080);
 * ```
 *
 * What it enforces, in order:
 * - `POST` only (405 with `Allow`), a JSON content type (415), a body of at most
 *   `maxBodyBytes` (413), a `StreamResponse` with a payload and a task id (400); unknown
 *   fields are ignored (§5.7);
 * - authenticity (§13.2 "Clients MUST validate webhook authenticity using the provided
 *   authentication credentials") and the task (§4.3.3 "MUST validate the task ID matches an
 *   expected task"): `expected(taskId)` says what the client registered for the task; an
 *   unknown task and wrong or missing credentials both get the same 401 with
 *   `WWW-Authenticate`, so a caller learns nothing about which tasks exist. Credentials are
 *   compared in constant time. A config without `authentication` is matched by task alone
 *   (give it a `token` and check that, via `tokenHeader`, if the agent sends one);
 * - `onNotification` runs before the answer: it resolving means 204 (§4.3.3 "MUST respond
 *   with HTTP 2xx"), it throwing means 500, so the agent delivers again (at-least-once:
 *   deliveries may repeat, process them idempotently).
 *
 * Error answers carry a §11.6-shaped body `{"error": {code, status, message}}`; messages
 * never echo secrets. Serve it with `serveNode` / `serveFetch` like the A2A servers.
 */
import { fromJson, type JsonValue, type Message } from "@bufbuild/protobuf";
import type { GenMessage } from "@bufbuild/protobuf/codegenv2";
import { DEFAULT_MAX_JSON_DEPTH, jsonDepthExceeds } from "../pipeline/limits.js";
import { isJsonMediaType } from "./content-type.js";
import { CONSOLE_LOGGER, type Logger } from "../observe/logger.js";
import type { UniversalBufferedResponse, UniversalHandler, UniversalRequest } from "./universal.js";

/** What the client registered for one task's notifications. */
export interface PushExpectation {
  /** The push config's `authentication`: the agent must send `Authorization: {scheme} {credentials}`. */
  readonly authentication?: { readonly scheme: string; readonly credentials: string };
  /** A header the agent is configured to send the config's `token` in (the spec names none), and its value. */
  readonly token?: { readonly header: string; readonly value: string };
}

/** Options of {@link createPushNotificationReceiver}. */
export interface PushNotificationReceiverOptions<T extends Message> {
  /** The generated `StreamResponseSchema`. */
  readonly schema: GenMessage<T>;
  /** What was registered for `taskId`, or undefined when this client expects no notifications for it. */
  readonly expected: (
    taskId: string,
  ) => PushExpectation | undefined | Promise<PushExpectation | undefined>;
  /** Handles an accepted notification; a throw makes the answer 500 (the agent retries). */
  readonly onNotification: (
    notification: T,
    context: { readonly taskId: string; readonly signal: AbortSignal },
  ) => void | Promise<void>;
  /** Largest body accepted, in bytes. Default 1 MiB. */
  readonly maxBodyBytes?: number | undefined;
  /** Reports a throwing `onNotification` (default: an error to `logger`). */
  readonly onError?: ((error: unknown) => void) | undefined;
  /** Where the default `onError` reports. Default: `console`. */
  readonly logger?: Logger | undefined;
}

const JSON_TYPES = ["application/a2a+json", "application/json"];
const DEFAULT_MAX_BODY = 1024 * 1024;

function answer(
  status: number,
  statusName: string,
  message: string,
  headers: readonly (readonly [string, string])[] = [],
): UniversalBufferedResponse {
  return {
    status,
    headers: [["content-type", "application/a2a+json"], ...headers],
    body: JSON.stringify({ error: { code: status, status: statusName, message } }),
  };
}

/** Compares two strings in time that depends only on their lengths (`charCodeAt` past the end is NaN, `NaN | 0` is 0). */
function constantTimeEqual(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++)
    diff |= (a.charCodeAt(i) | 0) ^ (b.charCodeAt(i) | 0);
  return diff === 0;
}

/** Whether an `Authorization` header carries `scheme credentials` (scheme case-insensitive, RFC 9110 §11.1). */
function authorizationMatches(
  header: string | undefined,
  scheme: string,
  credentials: string,
): boolean {
  const value = (header ?? "").trim();
  const space = value.indexOf(" ");
  const givenScheme = space < 0 ? value : value.slice(0, space);
  const givenCredentials = space < 0 ? "" : value.slice(space + 1).trim();
  return (
    constantTimeEqual(givenCredentials, credentials) &&
    givenScheme.toLowerCase() === scheme.toLowerCase()
  );
}

/** The task a `StreamResponse` is about ("" when it names none). */
function taskIdOf(payload: { case?: string; value?: unknown }): string {
  const value = payload.value as { id?: string; taskId?: string } | undefined;
  if (payload.case === "task") return value?.id ?? "";
  return value?.taskId ?? "";
}

/** Creates the webhook handler (serve it with `serveNode` or `serveFetch`). */
export function createPushNotificationReceiver<T extends Message>(
  options: PushNotificationReceiverOptions<T>,
): UniversalHandler {
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const logger = options.logger ?? CONSOLE_LOGGER;
  const onError =
    options.onError ?? ((e: unknown) => logger.error("push notification handler failed", e));
  const utf8 = new TextDecoder("utf-8", { fatal: true });

  return async function receivePushNotification(
    request: UniversalRequest,
  ): Promise<UniversalBufferedResponse> {
    if (request.method !== "POST")
      return answer(405, "UNIMPLEMENTED", "push notifications are delivered with POST", [
        ["allow", "POST"],
      ]);
    if (!isJsonMediaType(request.header("content-type"), JSON_TYPES))
      return answer(415, "INVALID_ARGUMENT", "a push notification is JSON (application/a2a+json)");
    let bytes: Uint8Array | "too-large";
    try {
      bytes = await request.readBody(maxBody);
    } catch {
      return answer(400, "INVALID_ARGUMENT", "the request body could not be read");
    }
    if (bytes === "too-large")
      return answer(413, "INVALID_ARGUMENT", `the body exceeds ${maxBody} bytes`, [
        ["connection", "close"],
      ]);
    let notification: T;
    try {
      const text = utf8.decode(bytes);
      // Refused before parsing, as the servers do (limits.ts).
      if (jsonDepthExceeds(text, DEFAULT_MAX_JSON_DEPTH))
        return answer(
          400,
          "INVALID_ARGUMENT",
          `the body nests deeper than ${DEFAULT_MAX_JSON_DEPTH} levels`,
        );
      notification = fromJson(options.schema, JSON.parse(text) as JsonValue, {
        ignoreUnknownFields: true,
      });
    } catch {
      return answer(400, "INVALID_ARGUMENT", "the body is not a StreamResponse in ProtoJSON");
    }
    const payload =
      (notification as unknown as { payload?: { case?: string; value?: unknown } }).payload ?? {};
    if (payload.case === undefined)
      return answer(400, "INVALID_ARGUMENT", "the StreamResponse has no payload");
    const taskId = taskIdOf(payload);
    if (taskId === "") return answer(400, "INVALID_ARGUMENT", "the notification names no task");

    const expectation = await options.expected(taskId);
    const scheme = expectation?.authentication?.scheme ?? "Bearer";
    const refuse = () =>
      answer(401, "UNAUTHENTICATED", "unknown task or invalid credentials", [
        ["www-authenticate", scheme],
      ]);
    if (expectation === undefined) return refuse();
    const auth = expectation.authentication;
    if (
      auth !== undefined &&
      !authorizationMatches(request.header("authorization"), auth.scheme, auth.credentials)
    )
      return refuse();
    if (
      expectation.token !== undefined &&
      !constantTimeEqual(request.header(expectation.token.header) ?? "", expectation.token.value)
    )
      return refuse();
    try {
      await options.onNotification(notification, { taskId, signal: request.signal });
    } catch (e) {
      onError(e);
      return answer(500, "INTERNAL", "the notification could not be processed; deliver it again");
    }
    return { status: 204, headers: [], body: "" };
  };
}
