// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * A node:http server on 127.0.0.1 and a free port, for the reference factories of the HTTP
 * bindings (the generated binder reaches node:http only through this, and this entry point is
 * Node-only).
 */
import { createServer } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { NodeRequestListener } from "../http/node-adapter.js";

/** A listening test server. */
export interface ListeningHttp {
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  readonly url: string;
  readonly port: number;
  /** Closes the server, destroying open connections (streams included). */
  close(): Promise<void>;
}

/** Serves `listener` (a generated server's `node`) on 127.0.0.1, port 0 (a free one). */
export async function listenHttp(listener: NodeRequestListener): Promise<ListeningHttp> {
  const server = createServer(listener);
  const sockets = new Set<Socket>();
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
