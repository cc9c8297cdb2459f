import { gunzipSync } from 'node:zlib';
import { authorizationServer, generateSigningKey } from '@innkeep/auth';
import { createIdentityUseCases, createPostgresDomain } from '@innkeep/storage';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpService } from '../src/mcp-service.ts';
import { demoOwner, freePort, type McpWorld, openMcpWorld, rpc, tokenFor } from './support/mcp-world.ts';

describe('/mcp as mcpService serves it: answers over 1 KB compressed for clients that accept it', () => {
  let world: McpWorld;
  let app: FastifyInstance;
  let token: string;

  beforeAll(async () => {
    world = await openMcpWorld('pglite');
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    app = Fastify({ logger: false });
    await app.register(authorizationServer, {
      db: world.db,
      baseUrl,
      secretKeys: ['mcp-http-compression-test-key-0123456789'],
      signingKeys: [generateSigningKey()],
      identity: createIdentityUseCases({ db: world.db, clock: world.clock }),
      clock: world.clock,
    });
    await app.register(mcpService, {
      db: world.db,
      domain: createPostgresDomain({ db: world.db, clock: world.clock }),
      clock: world.clock,
      baseUrl,
    });
    await app.listen({ port, host: '127.0.0.1' });
    token = await tokenFor(
      { app, origin: baseUrl, baseUrl, mcpUrl: `${baseUrl}/mcp` },
      await demoOwner(world),
    );
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    await world?.close();
  });

  /** POSTs `message` to /mcp, accepting `encoding`, and returns the raw reply. */
  const postAccepting = (message: unknown, encoding: string) =>
    app.inject({
      method: 'POST',
      url: '/mcp',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        'accept-encoding': encoding,
      },
      payload: JSON.stringify(message),
    });

  it('sends tools/list gzipped to a client that accepts gzip, decoding to the same JSON', async () => {
    const plain = await postAccepting(rpc('tools/list'), 'identity');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);

    const zipped = await postAccepting(rpc('tools/list'), 'gzip');
    expect(zipped.statusCode).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers['content-type']).toMatch(/^application\/json/);
    const decoded = gunzipSync(zipped.rawPayload).toString('utf8');
    expect(JSON.parse(decoded)).toEqual(JSON.parse(plain.payload));
    expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
  });

  it('sends an answer under 1 KB as it is', async () => {
    const ping = await postAccepting(rpc('ping'), 'gzip');
    expect(ping.statusCode).toBe(200);
    expect(ping.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(ping.payload)).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });

  it('compresses a tool result over 1 KB too, and leaves a client that asks for nothing plain', async () => {
    const call = rpc('tools/call', { name: 'list_listings', arguments: { limit: 20 } });
    const zipped = await postAccepting(call, 'gzip');
    expect(zipped.headers['content-encoding']).toBe('gzip');
    const result = JSON.parse(gunzipSync(zipped.rawPayload).toString('utf8')) as {
      result: { structuredContent: { items: unknown[] } };
    };
    expect(result.result.structuredContent.items.length).toBeGreaterThan(1);
    const plain = await postAccepting(call, '');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.payload)).toEqual(result);
  });
});
