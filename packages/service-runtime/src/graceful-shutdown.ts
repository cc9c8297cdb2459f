import type { Server } from 'node:http';
import type { FastifyInstance } from 'fastify';

/** Whether the process is shutting down; the readiness check reads it, the shutdown sets it. */
export interface DrainState {
  isDraining(): boolean;
  begin(): void;
}

/** A fresh {@link DrainState}, not draining. */
export function createDrainState(): DrainState {
  let draining = false;
  return {
    isDraining: () => draining,
    begin() {
      draining = true;
    },
  };
}

/** Something to stop once the server no longer serves requests: a job, a server, a connection. */
export interface ShutdownStep {
  /** What it is, for the log: "the message rule job", "the database". */
  readonly name: string;
  stop(): Promise<unknown>;
}

/** What {@link stopOnSignals} stops, and how. */
export interface GracefulShutdownOptions {
  /** The listening service; it stops accepting at once and has `drainLimitMs` to finish its requests. */
  readonly app: FastifyInstance;
  readonly drain: DrainState;
  /** SHUTDOWN_DRAIN_MS: how long requests in flight may take to finish before their connections close. */
  readonly drainLimitMs: number;
  /** Stopped in order after the server closed: the jobs, then whatever the requests used. */
  readonly steps: readonly ShutdownStep[];
  /** Ends the process; `process.exit` unless a test watches instead. */
  readonly exit?: (code: number) => void;
}

/**
 * Fastify server options {@link stopOnSignals} relies on: close idle keep-alive connections when closing, so
 * the server closes without waiting for clients to hang up. (Fastify's default `return503OnClosing` stays:
 * a request arriving on an open connection meanwhile gets 503, and a load balancer retries it elsewhere.)
 */
export const gracefulServerOptions = { forceCloseConnections: 'idle' } as const;

// How long the server must have accepted no connection and started no request before it stops listening.
const quietMs = 100;

/** The signals a container runtime, a service manager or Ctrl-C send to stop a process. */
export const shutdownSignals = ['SIGTERM', 'SIGINT'] as const;

/**
 * On SIGTERM or SIGINT, shuts the service down in order and ends the process: readiness turns to 503
 * `draining`; the server keeps serving, each answer closing its connection, until it has been quiet for a
 * moment (see {@link waitUntilQuiet}, at most half of `drainLimitMs`); then it stops accepting connections and closes idle keep-alive ones (the app must be
 * built with `forceCloseConnections: 'idle'`), new requests on open connections get 503, requests in
 * flight finish; connections still busy after `drainLimitMs` are closed. Then each step stops in order,
 * and the process exits 0, or 1 when a step failed. A second signal exits at once with 1: someone is
 * waiting on a shutdown that hangs.
 *
 * Hand-written rather than close-with-grace, whose time limit ends the process with 1 mid-cleanup: here
 * the limit only cuts the requests, and the database still closes cleanly after them.
 */
export function stopOnSignals(options: GracefulShutdownOptions): void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      options.app.log.warn({ signal }, 'Stopping at once: a second signal came while shutting down');
      exit(1);
      return;
    }
    stopping = true;
    void shutDown(options, signal).then(exit);
  };
  for (const signal of shutdownSignals) process.on(signal, onSignal);
}

/** The shutdown itself; resolves with the exit code. */
async function shutDown(options: GracefulShutdownOptions, signal: NodeJS.Signals): Promise<number> {
  const { app, drainLimitMs } = options;
  options.drain.begin();
  app.log.info({ signal, drainLimitMs }, 'Shutting down: finishing the requests in flight');
  let exitCode = 0;
  const limit = setTimeout(() => {
    app.log.warn({ drainLimitMs }, 'Requests still running at the drain limit: closing their connections');
    app.server.closeAllConnections();
  }, drainLimitMs);
  try {
    await waitUntilQuiet(app.server, Math.floor(drainLimitMs / 2));
    app.log.info('Stopped accepting connections');
    await app.close();
  } catch (error) {
    app.log.error({ err: error }, 'The server did not close cleanly');
    exitCode = 1;
  } finally {
    clearTimeout(limit);
  }
  for (const step of options.steps) {
    try {
      await step.stop();
    } catch (error) {
      app.log.error({ err: error }, `Could not stop ${step.name}`);
      exitCode = 1;
    }
  }
  app.log.info({ exitCode }, 'Shut down');
  return exitCode;
}

/**
 * Resolves once `server` has accepted no connection and started no request between two checks
 * {@link quietMs} apart, or after `maxMs`; meanwhile every answer closes its connection, so keep-alive
 * clients reconnect elsewhere.
 *
 * Closing at once resets the requests that were sent before the signal but not read yet: connections still
 * in the listen queue, and accepted ones whose bytes the server has not parsed (Node counts those as idle
 * and closes them). That happens whenever the event loop was busy when the signal came, as it is during
 * every query on the embedded database, which runs in this thread. Each check runs in the check phase,
 * after the event loop has polled its sockets, and compares counts of events rather than times: a
 * connection accepted in one poll has its request read in the next, and a handler that then holds the loop
 * for longer than the quiet period would otherwise make the server look quiet while bytes still wait.
 */
async function waitUntilQuiet(server: Server, maxMs: number): Promise<void> {
  let events = 0;
  const onConnection = () => {
    events += 1;
  };
  const onRequest = (_request: unknown, response: { shouldKeepAlive: boolean }) => {
    events += 1;
    response.shouldKeepAlive = false;
  };
  server.on('connection', onConnection);
  server.on('request', onRequest);
  const deadline = performance.now() + maxMs;
  try {
    let seen = -1;
    while (events !== seen && performance.now() < deadline) {
      seen = events;
      await new Promise((resolve) => setTimeout(resolve, quietMs));
      await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    server.off('connection', onConnection);
    server.off('request', onRequest);
  }
}
