/**
 * A load process of bench/streams.mjs (bundled by it with esbuild, forked with an IPC channel): opens SSE streams
 * to the bench server over real sockets on 127.0.0.1 (node:http, one socket per stream), checks every event of
 * every stream in order, and measures the delivery delay of each update (now − the `ts` its executor stamped,
 * both performance.timeOrigin + performance.now(), same machine).
 *
 * Commands (each answered `{ re: cmd, ... }`):
 * - `{ cmd: "open", port, binding, op, taskId?, text?, count, concurrency }`: opens `count` streams (`op`
 *   "subscribe": SubscribeToTask of `taskId`; "stream": SendStreamingMessage of `text`, one new task each) on
 *   `binding` ("jsonrpc" | "rest"), at most `concurrency` waiting for their first event at a time; answers
 *   `{ opened, seconds }` once every stream has its first event (the Task);
 * - `{ cmd: "phase", measure }`: zeroes the counters (delivered, delay histogram, CPU, last arrival); delays are
 *   recorded only when `measure`;
 * - `{ cmd: "stats" }`: `{ delivered, hist, cpuUs, wallMs, lastArrival, streams, ended, completed, minNext,
 *   maxNext, problems, problemCount }`;
 * - `{ cmd: "close" }`: destroys every stream still open; answers once their sockets are closed;
 * - `{ cmd: "one", port, binding, count }`: one SendStreamingMessage of "count N" read to its end; `{ events, seconds }`.
 *
 * Every stream must start with a Task, then (SendStreamingMessage of a held task) at most status updates without
 * a number, then updates numbered 0, 1, 2, … with nothing missing, duplicated or reordered, the terminal status
 * (seq -1, COMPLETED) last, then the end of the response.
 */
import { Agent, request, type IncomingMessage } from "node:http";
import { histogramAdd, HIST_SIZE } from "./histogram.js";

const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
const now = (): number => performance.timeOrigin + performance.now();

type Binding = "jsonrpc" | "rest";

interface OpenCommand {
  port: number;
  binding: Binding;
  op: "subscribe" | "stream";
  taskId?: string;
  text?: string;
  count: number;
  concurrency: number;
}

// ---------------------------------------------------------------------------------------
// counters of the current phase
// ---------------------------------------------------------------------------------------

let measuring = false;
let delivered = 0;
let hist = new Float64Array(HIST_SIZE);
let lastArrival = 0;
let cpuStart = process.cpuUsage();
let wallStart = performance.now();
const problems: string[] = [];
let problemCount = 0;

function problem(text: string): void {
  problemCount++;
  if (problems.length < 10) problems.push(text);
}

// ---------------------------------------------------------------------------------------
// one stream
// ---------------------------------------------------------------------------------------

const streams = new Set<Stream>();

interface Event {
  task?: { id?: string };
  statusUpdate?: { status?: { state?: string }; metadata?: { seq?: number; ts?: number } };
  artifactUpdate?: { artifact?: { artifactId?: string }; metadata?: { seq?: number; ts?: number } };
}

class Stream {
  readonly index: number;
  readonly binding: Binding;
  readonly rpcId: number;
  res: IncomingMessage | undefined;
  destroy: () => void = () => {};
  buffer = "";
  sawTask = false;
  next = 0;
  completed = false;
  ended = false;
  events = 0;
  onFirst: (() => void) | undefined;
  onEnd: (() => void) | undefined;

  constructor(index: number, binding: Binding) {
    this.index = index;
    this.binding = binding;
    this.rpcId = index + 1;
  }

  data(chunk: string): void {
    this.buffer += chunk;
    let end: number;
    while ((end = this.buffer.indexOf("\n\n")) >= 0) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      let data = "";
      for (const line of block.split("\n")) {
        if (line.startsWith("data:"))
          data += (data === "" ? "" : "\n") + line.slice(line.charCodeAt(5) === 32 ? 6 : 5);
      }
      if (data !== "") this.event(data);
    }
  }

  event(data: string): void {
    const arrival = now();
    this.events++;
    let json: { id?: unknown; result?: Event; error?: unknown } & Event;
    try {
      json = JSON.parse(data);
    } catch {
      problem(`stream ${this.index}: not JSON: ${data.slice(0, 200)}`);
      return;
    }
    let event: Event;
    if (this.binding === "jsonrpc") {
      if (json.error !== undefined || json.result === undefined) {
        problem(`stream ${this.index}: error event ${data.slice(0, 300)}`);
        return;
      }
      if (json.id !== this.rpcId)
        problem(`stream ${this.index}: JSON-RPC id ${String(json.id)}, expected ${this.rpcId}`);
      event = json.result;
    } else {
      if ((json as { error?: unknown }).error !== undefined) {
        problem(`stream ${this.index}: error event ${data.slice(0, 300)}`);
        return;
      }
      event = json;
    }
    if (!this.sawTask) {
      if (event.task === undefined)
        problem(`stream ${this.index}: first event is not a Task: ${data.slice(0, 200)}`);
      this.sawTask = true;
      const first = this.onFirst;
      this.onFirst = undefined;
      first?.();
      return;
    }
    if (this.completed) {
      problem(`stream ${this.index}: an event after COMPLETED`);
      return;
    }
    const update = event.statusUpdate ?? event.artifactUpdate;
    const seq = update?.metadata?.seq;
    if (typeof seq !== "number") {
      // The WORKING of a held task's executor (before any numbered update) is the only unnumbered event allowed.
      if (this.next !== 0 || event.statusUpdate?.status?.state !== "TASK_STATE_WORKING")
        problem(`stream ${this.index}: unexpected event ${data.slice(0, 200)}`);
      return;
    }
    if (seq === -1) {
      if (event.statusUpdate?.status?.state !== "TASK_STATE_COMPLETED")
        problem(`stream ${this.index}: seq -1 is not COMPLETED`);
      this.completed = true;
    } else if (seq !== this.next) {
      problem(`stream ${this.index}: expected update ${this.next}, got ${seq}`);
      this.next = seq + 1;
    } else {
      const kind = seq % 2 === 0 ? event.statusUpdate : event.artifactUpdate;
      if (kind === undefined) problem(`stream ${this.index}: update ${seq} of the wrong kind`);
      this.next++;
    }
    delivered++;
    lastArrival = arrival;
    if (measuring) histogramAdd(hist, arrival - (update?.metadata?.ts ?? arrival));
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.onFirst !== undefined) {
      problem(`stream ${this.index}: ended before its first event`);
      const first = this.onFirst;
      this.onFirst = undefined;
      first();
    }
    const done = this.onEnd;
    this.onEnd = undefined;
    done?.();
  }
}

const HEADERS = {
  "content-type": "application/json",
  "a2a-version": "1.0",
  accept: "text/event-stream",
};

function requestOf(
  c: { binding: Binding; op: "subscribe" | "stream"; taskId?: string; text?: string },
  stream: Stream,
): { method: string; path: string; body?: string } {
  const message = {
    messageId: `bench-streams-${process.pid}-${stream.index}`,
    role: "ROLE_USER",
    parts: [{ text: c.text ?? "hold" }],
  };
  if (c.binding === "jsonrpc") {
    const body =
      c.op === "subscribe"
        ? { jsonrpc: "2.0", id: stream.rpcId, method: "SubscribeToTask", params: { id: c.taskId } }
        : { jsonrpc: "2.0", id: stream.rpcId, method: "SendStreamingMessage", params: { message } };
    return { method: "POST", path: "/a2a/jsonrpc", body: JSON.stringify(body) };
  }
  if (c.op === "subscribe")
    return {
      method: "GET",
      path: `/a2a/rest/tasks/${encodeURIComponent(c.taskId ?? "")}:subscribe`,
    };
  return { method: "POST", path: "/a2a/rest/message:stream", body: JSON.stringify({ message }) };
}

/** Starts one stream; resolves once it has its first event (or ended / failed). */
function start(port: number, c: Parameters<typeof requestOf>[0], stream: Stream): Promise<void> {
  return new Promise((resolve) => {
    stream.onFirst = resolve;
    const { method, path, body } = requestOf(c, stream);
    const req = request(
      { host: "127.0.0.1", port, method, path, headers: HEADERS, agent },
      (res) => {
        stream.res = res;
        if (
          res.statusCode !== 200 ||
          !String(res.headers["content-type"] ?? "").startsWith("text/event-stream")
        ) {
          problem(
            `stream ${stream.index}: HTTP ${res.statusCode} ${String(res.headers["content-type"])}`,
          );
        }
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => stream.data(chunk));
        res.on("end", () => stream.end());
        res.on("close", () => stream.end());
        res.on("error", () => stream.end());
      },
    );
    stream.destroy = () => req.destroy();
    req.on("error", (e) => {
      if (!stream.ended) problem(`stream ${stream.index}: ${e.message}`);
      stream.end();
    });
    req.end(body);
  });
}

let nextIndex = 0;

async function open(c: OpenCommand): Promise<{ opened: number; seconds: number }> {
  const started = performance.now();
  let launched = 0;
  let opened = 0;
  async function worker(): Promise<void> {
    while (launched < c.count) {
      launched++;
      const stream = new Stream(nextIndex++, c.binding);
      streams.add(stream);
      await start(c.port, c, stream);
      if (!stream.ended) opened++;
    }
  }
  await Promise.all(Array.from({ length: Math.min(c.concurrency, c.count) }, worker));
  return { opened, seconds: (performance.now() - started) / 1000 };
}

function stats(): object {
  const cpu = process.cpuUsage(cpuStart);
  let ended = 0;
  let completed = 0;
  let minNext = Infinity;
  let maxNext = -Infinity;
  for (const s of streams) {
    if (s.ended) ended++;
    if (s.completed) completed++;
    if (s.next < minNext) minNext = s.next;
    if (s.next > maxNext) maxNext = s.next;
  }
  const sparse: [number, number][] = [];
  for (let i = 0; i < hist.length; i++) if (hist[i] !== 0) sparse.push([i, hist[i]!]);
  return {
    delivered,
    hist: sparse,
    cpuUs: cpu.user + cpu.system,
    wallMs: performance.now() - wallStart,
    lastArrival,
    streams: streams.size,
    ended,
    completed,
    minNext,
    maxNext,
    problems,
    problemCount,
  };
}

async function closeAll(): Promise<void> {
  const waits: Promise<void>[] = [];
  for (const s of streams) {
    if (!s.ended) {
      waits.push(new Promise((r) => (s.onEnd = r)));
      s.destroy();
    }
  }
  await Promise.all(waits);
  streams.clear();
}

/** One SendStreamingMessage of "count N", request to last byte. */
async function one(
  port: number,
  binding: Binding,
  count: number,
): Promise<{ events: number; seconds: number }> {
  const stream = new Stream(nextIndex++, binding);
  const started = performance.now();
  const ended = new Promise<void>((r) => (stream.onEnd = r));
  const before = delivered;
  await start(port, { binding, op: "stream", text: `count ${count}` }, stream);
  await ended;
  const seconds = (performance.now() - started) / 1000;
  if (!stream.completed)
    problem(`one stream: ended without COMPLETED after ${stream.next} updates`);
  if (stream.next !== count - 2)
    problem(`one stream: ${stream.next} numbered updates, expected ${count - 2}`);
  return {
    events: stream.events,
    seconds,
    ...(delivered - before !== count - 1 ? { note: `${delivered - before} updates counted` } : {}),
  };
}

type Command = {
  cmd?: string;
  measure?: boolean;
  port?: number;
  binding?: Binding;
  count?: number;
} & Partial<OpenCommand>;

process.on("disconnect", () => process.exit(0));
process.on("message", (m: Command) => {
  const reply = (body: object) => process.send?.({ re: m.cmd, ...body });
  const fail = (e: unknown) =>
    reply({ error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  switch (m.cmd) {
    case "open":
      open(m as OpenCommand).then(reply, fail);
      break;
    case "phase":
      measuring = m.measure === true;
      delivered = 0;
      hist = new Float64Array(HIST_SIZE);
      lastArrival = 0;
      cpuStart = process.cpuUsage();
      wallStart = performance.now();
      reply({});
      break;
    case "stats":
      reply(stats());
      break;
    case "close":
      closeAll().then(() => reply({}), fail);
      break;
    case "one":
      one(m.port ?? 0, m.binding ?? "jsonrpc", m.count ?? 2).then(reply, fail);
      break;
    case "reset-problems":
      problems.length = 0;
      problemCount = 0;
      reply({});
      break;
  }
});
process.send?.({ ready: true });
