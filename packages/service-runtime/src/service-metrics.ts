import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** A pooled database's connections at one moment (pg's `Pool.totalCount`, `idleCount`, `waitingCount`). */
export interface PoolStats {
  readonly total: number;
  readonly idle: number;
  /** Queries waiting for a connection because every one is in use. */
  readonly waiting: number;
}

/** How one tool call ended: a result, or a tool error result (bad input, refusal, failure). */
export type ToolCallOutcome = 'success' | 'error';

/** How one run of a background job ended; `skipped` when another instance was running it. */
export type JobRunOutcome = 'success' | 'failure' | 'skipped';

/** The label of requests that matched no route, so a scan of random URLs adds no series. */
export const unmatchedRoute = 'unmatched';

/**
 * One process's Prometheus metrics, in a registry of its own (not prom-client's global one, so two apps in
 * one test process never share counters). The record functions are what the rest of the process calls;
 * the instruments stay inside.
 */
export interface ServiceMetrics {
  readonly registry: Registry;
  /** One HTTP response: `route` is the route's URL template (never the raw URL). */
  recordRequest(request: { method: string; route: string; status: number; durationMs: number }): void;
  recordToolCall(call: { tool: string; outcome: ToolCallOutcome; durationMs: number }): void;
  recordRateLimitRefusal(route: string): void;
  recordJobRun(run: { job: string; outcome: JobRunOutcome; durationMs: number }): void;
  /** Reports the pool's counts at each scrape from now on. */
  observePool(stats: () => PoolStats): void;
}

// Buckets in seconds: requests and tool calls are mostly milliseconds, analytics up to a few seconds.
const latencyBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const jobBuckets = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60];

/** Creates the metrics of one process, with Node's default process metrics (CPU, memory, event loop). */
export function createServiceMetrics(): ServiceMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP responses sent, by method, route template and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    registers,
  });
  const requestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving an HTTP request to sending its response, by method, route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: latencyBuckets,
    registers,
  });
  const toolCalls = new Counter({
    name: 'mcp_tool_calls_total',
    help: 'MCP tool calls, by tool and outcome (success, or error: a tool error result).',
    labelNames: ['tool', 'outcome'] as const,
    registers,
  });
  const toolCallDuration = new Histogram({
    name: 'mcp_tool_call_duration_seconds',
    help: 'Time one MCP tool call ran, by tool and outcome.',
    labelNames: ['tool', 'outcome'] as const,
    buckets: latencyBuckets,
    registers,
  });
  const rateLimitRefusals = new Counter({
    name: 'rate_limit_refusals_total',
    help: 'Requests refused for going over a rate limit, by route template.',
    labelNames: ['route'] as const,
    registers,
  });
  const jobRuns = new Counter({
    name: 'job_runs_total',
    help: 'Runs of background jobs, by job and outcome (success, failure, or skipped: another instance ran it).',
    labelNames: ['job', 'outcome'] as const,
    registers,
  });
  const jobDuration = new Histogram({
    name: 'job_run_duration_seconds',
    help: 'Time one run of a background job took, by job and outcome.',
    labelNames: ['job', 'outcome'] as const,
    buckets: jobBuckets,
    registers,
  });

  return {
    registry,
    recordRequest({ method, route, status, durationMs }) {
      const labels = { method, route, status: String(status) };
      requests.inc(labels);
      requestDuration.observe(labels, durationMs / 1000);
    },
    recordToolCall({ tool, outcome, durationMs }) {
      toolCalls.inc({ tool, outcome });
      toolCallDuration.observe({ tool, outcome }, durationMs / 1000);
    },
    recordRateLimitRefusal(route) {
      rateLimitRefusals.inc({ route });
    },
    recordJobRun({ job, outcome, durationMs }) {
      jobRuns.inc({ job, outcome });
      jobDuration.observe({ job, outcome }, durationMs / 1000);
    },
    observePool(stats) {
      // Read at scrape time, so the numbers are the pool's own rather than a copy that ages.
      const gauge = (name: string, help: string, read: (current: PoolStats) => number) =>
        new Gauge({
          name,
          help,
          registers,
          collect() {
            this.set(read(stats()));
          },
        });
      gauge('db_pool_connections', 'Open connections in the database pool.', (current) => current.total);
      gauge('db_pool_idle_connections', 'Pooled connections not in use.', (current) => current.idle);
      gauge(
        'db_pool_waiting_queries',
        'Queries waiting for a pooled connection because every connection is in use.',
        (current) => current.waiting,
      );
    },
  };
}
