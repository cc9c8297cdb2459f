import type { ResourceName } from '@innkeep/auth';
import { obtainAccessToken } from '@innkeep/auth/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  demoOwner,
  type McpWorld,
  openMcpWorld,
  type Person,
  post,
  type RunningApp,
  rpc,
  startApp,
} from './support/mcp-world.ts';

// PRODUCT.md, "Bearer tokens and audiences": which tokens /mcp takes, by the resource they were asked for.

describe('/mcp and the audience of a token', () => {
  let world: McpWorld;
  let server: RunningApp;
  let owner: Person;

  beforeAll(async () => {
    world = await openMcpWorld('pglite');
    server = await startApp(world);
    owner = await demoOwner(world);
  }, 180_000);

  afterAll(async () => {
    await server?.app.close();
    await world?.close();
  });

  /** A real token of the owner, asked for with `resource` (null: with no resource indicator). */
  async function tokenAskedFor(resource: ResourceName | null): Promise<string> {
    const tokens = await obtainAccessToken({
      baseUrl: server.baseUrl,
      origin: server.origin,
      email: owner.email,
      password: owner.password,
      resource,
    });
    return tokens.accessToken;
  }

  it('serves a token asked for with resource=/mcp', async () => {
    const reply = await post(server.mcpUrl, rpc('ping', {}, 'mcp'), await tokenAskedFor('mcp'));
    expect(reply.status).toBe(200);
  });

  it('serves a token asked for with no resource indicator', async () => {
    const reply = await post(server.mcpUrl, rpc('ping', {}, 'none'), await tokenAskedFor(null));
    expect(reply.status).toBe(200);
  });

  it('refuses a token asked for with resource=/api as invalid_token (-32001)', async () => {
    const reply = await post(server.mcpUrl, rpc('ping', {}, 'api'), await tokenAskedFor('api'));
    expect(reply.status).toBe(401);
    expect(reply.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(reply.body).toMatchObject({ jsonrpc: '2.0', id: 'api', error: { code: -32001 } });
  });
});
