// The SSE side of bench/postgres.mjs: one JSON-RPC SubscribeToTask stream on its own socket (node:http), every
// event stamped with process.hrtime.bigint() (CLOCK_MONOTONIC, the clock the servers stamp with) when its chunk arrived.
import { request } from "node:http";

/**
 * Opens `SubscribeToTask(taskId)` on 127.0.0.1:`port`. Returns `{ first, end, close }`: `first` resolves once the
 * first event arrived; `end` with `{ events: [{ at, result }] }` once the response ended (rejects on an error,
 * a non-200 answer, a JSON-RPC error or `timeoutMs` without the end); `close()` destroys the socket.
 */
export function subscribe(port, taskId, { timeoutMs = 30_000 } = {}) {
  const events = [];
  let onFirst;
  let firstFailed;
  const first = new Promise((resolve, reject) => {
    onFirst = resolve;
    firstFailed = reject;
  });
  let req;
  const end = new Promise((resolve, reject) => {
    const fail = (e) => {
      firstFailed(e);
      reject(e);
      req?.destroy();
    };
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "SubscribeToTask",
      params: { id: taskId },
    });
    req = request(
      {
        host: "127.0.0.1",
        port,
        path: "/",
        method: "POST",
        agent: false,
        headers: {
          "content-type": "application/json",
          accept: "text/event-stream",
          "a2a-version": "1.0",
        },
      },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          return fail(new Error(`SubscribeToTask ${taskId} on :${port}: HTTP ${res.statusCode}`));
        }
        res.setEncoding("utf8");
        let buffer = "";
        res.on("data", (chunk) => {
          const at = process.hrtime.bigint();
          buffer += chunk;
          let cut = buffer.indexOf("\n\n");
          while (cut >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            cut = buffer.indexOf("\n\n");
            const data = block
              .split("\n")
              .filter((line) => line.startsWith("data:"))
              .map((line) => line.slice(5).trimStart())
              .join("\n");
            if (data === "") continue;
            let json;
            try {
              json = JSON.parse(data);
            } catch {
              return fail(new Error(`SubscribeToTask ${taskId}: not JSON: ${data.slice(0, 200)}`));
            }
            if (json.error !== undefined || json.result === undefined)
              return fail(
                new Error(`SubscribeToTask ${taskId}: ${JSON.stringify(json).slice(0, 300)}`),
              );
            events.push({ at, result: json.result });
            if (events.length === 1) onFirst();
          }
        });
        res.on("end", () => {
          clearTimeout(timer);
          if (events.length === 0)
            fail(new Error(`SubscribeToTask ${taskId}: ended without an event`));
          else resolve({ events });
        });
        res.on("error", fail);
      },
    );
    const timer = setTimeout(
      () =>
        fail(
          new Error(
            `SubscribeToTask ${taskId} on :${port}: not ended within ${timeoutMs} ms (${events.length} events)`,
          ),
        ),
      timeoutMs,
    );
    timer.unref();
    req.on("error", (e) => {
      clearTimeout(timer);
      fail(e);
    });
    req.end(body);
  });
  end.catch(() => {}); // the caller awaits it; a failure before that is not unhandled
  first.catch(() => {});
  return { first, end, close: () => req?.destroy() };
}
