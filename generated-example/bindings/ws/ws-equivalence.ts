/**
 * The WebSocket binding as the binding-equivalence test kit (`@protoc-gen-a2a/runtime/testing`)
 * takes a binding: a factory that serves a handler with the given server options and returns
 * the binding's typed client. Each call starts its own node:http server on 127.0.0.1 (a free
 * port) with {@link attachWsServer} on it; `close` closes the clients (their sockets) and the server.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { ClientOptions, ServerOptions } from "@protoc-gen-a2a/runtime";
import type { A2AServiceClient, A2AServiceHandler } from "../../gen/a2a_a2a_handler.js";
import { A2AServiceWsClient } from "./ws-client.js";
import { attachWsServer, WS_DEFAULT_PATH } from "./ws-server.js";

/** A started WebSocket binding: what the kit's `BindingFactory` resolves to. */
export interface WsBindingUnderTest {
  /** The typed client, default options, on its own socket. */
  readonly client: A2AServiceClient;
  /** Another client of the same server (its own socket) with these options. */
  readonly clientWith: (
    options: Pick<ClientOptions, "version" | "tenant" | "extensions">,
  ) => A2AServiceClient;
  /** The interface URL (`ws://127.0.0.1:<port>/a2a/ws`). */
  readonly url: string;
  close(): Promise<void>;
}

/** Serves `handler` over the WebSocket binding with `serverOptions` (passed to the server as they are). */
export async function startWsBinding(
  handler: A2AServiceHandler<unknown>,
  serverOptions: ServerOptions<unknown>,
): Promise<WsBindingUnderTest> {
  const http = createServer((_request, response) => {
    response
      .writeHead(404, { "content-type": "text/plain" })
      .end("this server speaks WebSocket only, at " + WS_DEFAULT_PATH);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const ws = attachWsServer(http, handler, serverOptions);
  const url = `ws://127.0.0.1:${(http.address() as AddressInfo).port}${ws.path}`;
  const clients: A2AServiceWsClient[] = [];
  const clientWith = (
    options: Pick<ClientOptions, "version" | "tenant" | "extensions">,
  ): A2AServiceClient => {
    // Its own socket: the transport opens `connectWs(url)` at its first call; `close` closes it.
    const client = new A2AServiceWsClient({ ...options, url });
    clients.push(client);
    return client;
  };
  return {
    client: clientWith({}),
    clientWith,
    url,
    close: async () => {
      await Promise.all(clients.map((c) => c.close()));
      await ws.close();
      http.closeAllConnections();
      await new Promise<void>((resolve, reject) =>
        http.close((e) => (e === undefined ? resolve() : reject(e))),
      );
    },
  };
}

/** The factory the kit takes: `(handler, serverOptions) => Promise<{ client, clientWith, close }>`. */
export const wsBindingFactory = (
  handler: A2AServiceHandler<unknown>,
  serverOptions: ServerOptions<unknown>,
): Promise<WsBindingUnderTest> => startWsBinding(handler, serverOptions);
