// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Where the runtime reports what it tells no client: handler bugs, failed stream clean-ups, push
 * deliveries given up, store repairs. Every runtime piece that logs takes a `logger` option of this
 * shape; the default is `console`, so nothing changes for users who pass none.
 */

/** One level: a message, then details (usually the Error that caused it). */
export type LogFn = (message: string, ...details: unknown[]) => void;

/**
 * A logger: `console`, a pino or winston logger, or `{ error() {} }` to keep quiet. The runtime always calls
 * `level(message, ...details)`, the message a plain string (no `%` placeholders of its own), the details
 * usually one Error. `error` is required; a level the logger lacks is dropped.
 *
 * pino accepts the calls as they are but prints only the message (it keeps arguments after the message
 * only for its `%` placeholders); to keep the error too, adapt it:
 * `{ error: (m, err) => log.error({ err }, m), warn: (m, err) => log.warn({ err }, m) }`.
 */
export interface Logger {
  readonly error: LogFn;
  readonly warn?: LogFn | undefined;
  readonly info?: LogFn | undefined;
  readonly debug?: LogFn | undefined;
}

/** The default logger: `console`, read at each call (a test's spy on `console.error` still sees it). */
export const CONSOLE_LOGGER: Logger = {
  error: (message, ...details) => console.error(message, ...details),
  warn: (message, ...details) => console.warn(message, ...details),
  info: (message, ...details) => console.info(message, ...details),
  debug: (message, ...details) => console.debug(message, ...details),
};

/** A logger that drops everything. */
export const SILENT_LOGGER: Logger = { error() {}, warn() {}, info() {}, debug() {} };
