import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { type HealthRoutesOptions, healthRoutes } from '../src/health-routes.ts';

const answers = () => Promise.resolve();
const refuses = () => Promise.reject(new Error('connect ECONNREFUSED 10.0.0.7:6379 (user innkeep)'));
const neverAnswers = () => new Promise<never>(() => {});

async function healthApp(overrides: Partial<HealthRoutesOptions> = {}) {
  const app = Fastify({ logger: false });
  await app.register(healthRoutes, {
    database: answers,
    healthDetails: () => ({ database: 'pglite', uptimeSeconds: 12 }),
    isDraining: () => false,
    ...overrides,
  });
  return app;
}

describe('the health routes', () => {
  it('keep /health as it was: the details when the database answers, 503 unavailable when not', async () => {
    const healthy = await healthApp();
    const ok = await healthy.inject({ url: '/health' });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['cache-control']).toBe('no-store');
    expect(ok.json()).toEqual({ status: 'ok', database: 'pglite', uptimeSeconds: 12 });
    const broken = await healthApp({ database: refuses });
    const down = await broken.inject({ url: '/health' });
    expect(down.statusCode).toBe(503);
    expect(down.body).toBe('{"status":"unavailable"}');
  });

  it('answer /health/live whatever the dependencies do', async () => {
    const app = await healthApp({ database: refuses, isDraining: () => true });
    const response = await app.inject({ url: '/health/live' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('answer /health/ready 200 when the database and every readiness check answer', async () => {
    const app = await healthApp({ readinessChecks: { redis: answers } });
    const response = await app.inject({ url: '/health/ready' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('name what fails on /health/ready, without the driver text', async () => {
    const app = await healthApp({ database: answers, readinessChecks: { redis: refuses } });
    const response = await app.inject({ url: '/health/ready' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ status: 'unavailable', failing: ['redis'] });
    expect(response.body).not.toContain('ECONNREFUSED');
  });

  it('count a check that does not answer within the timeout as failing', async () => {
    const app = await healthApp({ database: neverAnswers, timeoutMs: 50 });
    const response = await app.inject({ url: '/health/ready' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ status: 'unavailable', failing: ['database'] });
  });

  it('answer /health/ready 503 draining once shutdown began, without checking anything', async () => {
    let draining = false;
    let checks = 0;
    const app = await healthApp({
      isDraining: () => draining,
      database: async () => {
        checks += 1;
      },
    });
    expect((await app.inject({ url: '/health/ready' })).statusCode).toBe(200);
    draining = true;
    const response = await app.inject({ url: '/health/ready' });
    expect(response.statusCode).toBe(503);
    expect(response.body).toBe('{"status":"draining"}');
    expect(checks).toBe(1);
  });
});
