import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const servicePath = fileURLToPath(new URL('./support/draining-service.ts', import.meta.url));

/** The draining service, running. */
interface Service {
  readonly child: ChildProcessWithoutNullStreams;
  readonly port: number;
  readonly exited: Promise<number | null>;
  output(): string;
  /** Resolves once the output has `count` lines containing `text`. */
  waitFor(text: string, count?: number): Promise<void>;
}

const running: ChildProcessWithoutNullStreams[] = [];

afterEach(() => {
  for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

async function startService(env: Record<string, string>): Promise<Service> {
  const child = spawn(process.execPath, [servicePath], { env: { ...process.env, ...env } });
  running.push(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const waitFor = async (text: string, count = 1) => {
    const deadline = Date.now() + 20_000;
    while (output.split('\n').filter((line) => line.includes(text)).length < count) {
      if (Date.now() > deadline) throw new Error(`no ${count}× "${text}" in:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  await waitFor('listening on');
  const port = Number(/listening on (\d+)/.exec(output)?.[1]);
  return { child, port, exited, output: () => output, waitFor };
}

/** A POST whose headers and first byte are sent now, and the rest of the body when `finish` is called. */
function slowPost(
  port: number,
  path = '/echo',
): { finish(): Promise<void>; response: Promise<{ status: number; body: string }> } {
  const body = JSON.stringify({ greeting: 'hello' });
  const request = httpRequest({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path,
    agent: false,
    headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
  });
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.on('error', reject);
    request.on('response', (incoming) => {
      let text = '';
      incoming.on('data', (chunk: Buffer) => {
        text += chunk.toString();
      });
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body: text }));
    });
  });
  request.write(body.slice(0, 1));
  // Resolves once the rest of the body is handed to the operating system: the request is sent.
  const finish = () => new Promise<void>((resolve) => request.end(body.slice(1), () => resolve()));
  return { finish, response };
}

describe('stopOnSignals', () => {
  it('lets 8 requests in flight finish, refuses new connections, stops the steps in order and exits 0', async () => {
    const service = await startService({});
    const requests = Array.from({ length: 8 }, () => slowPost(service.port));
    await service.waitFor('request started', 8);

    service.child.kill('SIGTERM');
    await service.waitFor('Stopped accepting connections');
    await expect(fetch(`http://127.0.0.1:${service.port}/health/live`)).rejects.toThrow();
    for (const request of requests) request.finish();

    const responses = await Promise.all(requests.map((request) => request.response));
    expect(responses.map((response) => response.status)).toEqual(Array(8).fill(200));
    expect(JSON.parse(responses[0]?.body ?? '')).toEqual({ received: { greeting: 'hello' } });
    expect(await service.exited).toBe(0);
    const output = service.output();
    expect(output.indexOf('stopped the job')).toBeGreaterThan(output.indexOf('Shutting down'));
    expect(output.indexOf('stopped the database')).toBeGreaterThan(output.indexOf('stopped the job'));
  });

  it('answers the requests sent before the signal while the event loop was too busy to read them', async () => {
    const service = await startService({});
    // Each /busy holds the event loop for 400 ms, as an embedded-database query does: the signal arrives
    // while most of these requests still wait unread in the listen queue or in their sockets.
    const requests = Array.from({ length: 8 }, (_, index) =>
      slowPost(service.port, index % 2 ? '/busy' : '/echo'),
    );
    await Promise.all(requests.map((request) => request.finish()));
    service.child.kill('SIGTERM');

    const responses = await Promise.all(requests.map((request) => request.response));
    expect(responses.map((response) => response.status)).toEqual(Array(8).fill(200));
    expect(await service.exited).toBe(0);
  });

  it('closes the connections still busy at the drain limit, then stops the steps and exits 0', async () => {
    const service = await startService({ DRAIN_MS: '300' });
    const stuck = slowPost(service.port);
    await service.waitFor('request started');

    service.child.kill('SIGTERM');

    await expect(stuck.response).rejects.toThrow();
    expect(await service.exited).toBe(0);
    expect(service.output()).toContain('Requests still running at the drain limit');
    expect(service.output()).toContain('stopped the database');
  });

  it('exits 1 at once on a second signal while a step hangs', async () => {
    const service = await startService({ HANG_STEP: 'true' });
    service.child.kill('SIGTERM');
    await service.waitFor('stopped the job');
    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(1);
    expect(service.output()).not.toContain('stopped the database');
  });
});
