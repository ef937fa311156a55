// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * A binding under test, as the kit sees it: a factory that serves a handler with server options
 * over the binding and returns that binding's client. The kit calls it with its reference agent,
 * once per server profile, for every binding alike; an author's factory wires their server
 * adapter around the given handler and returns their client.
 */
import type { ClientOptions } from "../client/call-options.js";
import type { ServerOptions } from "../pipeline/server-pipeline.js";

/** The client options a scenario may ask for (tenant, protocol version, extensions on every call). */
export type EquivalenceClientOptions = Pick<ClientOptions, "version" | "tenant" | "extensions">;

/** A started binding: its client, and what stops it. */
export interface BindingUnderTest<Client> {
  /** The binding's typed client (the generated `<Service>Client` interface), with default options. */
  readonly client: Client;
  /**
   * Another client of the same server with these options (the generated clients take them as
   * constructor options). Without it, the scenarios that need a tenant or a protocol version set on
   * the client are n/a on this binding.
   */
  readonly clientWith?: ((options: EquivalenceClientOptions) => Client) | undefined;
  /** Stops the server (and releases the client's connections). */
  close(): Promise<void>;
}

/**
 * Serves `handler` over one binding with `serverOptions` (versions, required extensions,
 * authentication, logger: pass them to the binding's server as they are) and returns its client.
 * Called several times per run, once per server profile; each call must start a new server.
 */
export type BindingFactory<Handler, Client> = (
  handler: Handler,
  serverOptions: ServerOptions<unknown>,
) => Promise<BindingUnderTest<Client>>;
