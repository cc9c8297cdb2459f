import { createServer } from 'node:net';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { observeHttpRequests } from '../src/http-metrics.ts';
import { startMetricsServer } from '../src/metrics-server.ts';
import { createServiceMetrics } from '../src/service-metrics.ts';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return address.port;
}

describe('the service metrics', () => {
  it('count responses by route template, never by the URL asked for', async () => {
    const metrics = createServiceMetrics();
    const app = Fastify({ logger: false });
    observeHttpRequests(app, metrics);
    app.get('/listings/:id', async () => ({ ok: true }));
    await app.inject({ url: '/listings/lst_1' });
    await app.inject({ url: '/listings/lst_2' });
    await app.inject({ url: '/wp-admin/setup.php' });
    const text = await metrics.registry.metrics();
    expect(text).toContain('http_requests_total{method="GET",route="/listings/:id",status="200"} 2');
    expect(text).toContain('http_requests_total{method="GET",route="unmatched",status="404"} 1');
    expect(text).toContain(
      'http_request_duration_seconds_count{method="GET",route="/listings/:id",status="200"} 2',
    );
    expect(text).not.toContain('lst_1');
    expect(text).not.toContain('wp-admin');
  });

  it('record tool calls, rate-limit refusals and job runs with their durations', async () => {
    const metrics = createServiceMetrics();
    metrics.recordToolCall({ tool: 'get_user', outcome: 'success', durationMs: 12 });
    metrics.recordToolCall({ tool: 'get_user', outcome: 'error', durationMs: 3 });
    metrics.recordRateLimitRefusal('/mcp');
    metrics.recordJobRun({ job: 'message-rules', outcome: 'skipped', durationMs: 40 });
    const text = await metrics.registry.metrics();
    expect(text).toContain('mcp_tool_calls_total{tool="get_user",outcome="success"} 1');
    expect(text).toContain('mcp_tool_calls_total{tool="get_user",outcome="error"} 1');
    expect(text).toContain('mcp_tool_call_duration_seconds_sum{tool="get_user",outcome="success"} 0.012');
    expect(text).toContain('rate_limit_refusals_total{route="/mcp"} 1');
    expect(text).toContain('job_runs_total{job="message-rules",outcome="skipped"} 1');
    expect(text).toContain('job_run_duration_seconds_sum{job="message-rules",outcome="skipped"} 0.04');
  });

  it('read the pool counts at each scrape', async () => {
    const metrics = createServiceMetrics();
    let stats = { total: 4, idle: 3, waiting: 0 };
    metrics.observePool(() => stats);
    expect(await metrics.registry.metrics()).toContain('db_pool_idle_connections 3');
    stats = { total: 10, idle: 0, waiting: 7 };
    const text = await metrics.registry.metrics();
    expect(text).toContain('db_pool_connections 10');
    expect(text).toContain('db_pool_idle_connections 0');
    expect(text).toContain('db_pool_waiting_queries 7');
  });

  it('keep a registry per process object, apart from prom-client’s global one and from each other', async () => {
    const first = createServiceMetrics();
    const second = createServiceMetrics();
    first.recordRateLimitRefusal('/mcp');
    expect(await second.registry.metrics()).not.toContain('rate_limit_refusals_total{');
  });

  it('serve /metrics with the default process metrics on a listener of their own', async () => {
    const metrics = createServiceMetrics();
    metrics.recordRateLimitRefusal('/mcp');
    const port = await freePort();
    const server = await startMetricsServer({ registry: metrics.registry, host: '127.0.0.1', port });
    try {
      const response = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(metrics.registry.contentType);
      const text = await response.text();
      expect(text).toContain('rate_limit_refusals_total{route="/mcp"} 1');
      expect(text).toContain('process_cpu_seconds_total');
      expect(text).toContain('nodejs_eventloop_lag_seconds');
    } finally {
      await server.close();
    }
  });
});
