// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * An error in the input (an unsupported proto shape, a malformed `google.api.http`
 * rule) or in a plugin option. Its message names the proto file, the RPC and the
 * option involved, and it is printed as is: never with a stack trace.
 */
export class GenerationError extends Error {
  override name = "GenerationError";
}

/** Where in the proto a problem sits, for messages like `a2a.proto: rpc lf.a2a.v1.A2AService.GetTask: …`. */
export interface ErrorLocation {
  readonly file: string;
  readonly rpc?: string;
  readonly option?: string;
}

/** Builds a GenerationError whose message starts with the location. */
export function generationError(where: ErrorLocation, problem: string): GenerationError {
  return new GenerationError(`${locationPrefix(where)}: ${problem}`);
}

/** `a2a.proto: rpc lf.a2a.v1.A2AService.GetTask: option google.api.http`, for errors and notices. */
export function locationPrefix(where: ErrorLocation): string {
  const parts = [where.file];
  if (where.rpc !== undefined) parts.push(`rpc ${where.rpc}`);
  if (where.option !== undefined) parts.push(`option ${where.option}`);
  return parts.join(": ");
}

/**
 * Runs `emit`, turning any error that is not already a GenerationError (a bug the input exposed, a
 * TypeError) into one that names where it happened, so that no failure is an unnamed TypeError.
 * The original error is kept as `cause`.
 */
export function withErrorLocation<T>(where: ErrorLocation, emit: () => T): T {
  try {
    return emit();
  } catch (e) {
    if (e instanceof GenerationError) throw e;
    const error = generationError(
      where,
      `internal error: ${e instanceof Error ? e.message : String(e)} (please report it with this proto)`,
    );
    Object.defineProperty(error, "cause", {
      value: e,
      configurable: true,
      writable: true,
      enumerable: false,
    });
    throw error;
  }
}
