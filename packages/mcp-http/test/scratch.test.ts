import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { it } from 'vitest';
import { conformanceFixtures } from './support/conformance-fixtures.ts';
import { demoOwner, openMcpWorld, startApp, tokenFor } from './support/mcp-world.ts';
import { startTokenProxy } from './support/token-proxy.ts';
const cli = join(dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json')), 'dist/index.js');
it('x', async () => {
  const world = await openMcpWorld('pglite');
  const server = await startApp(world, { fixtures: conformanceFixtures });
  const proxy = await startTokenProxy(server.origin, await tokenFor(server, await demoOwner(world)));
  for (const suite of ['active', 'pending']) {
    try { console.log(execFileSync(process.execPath, [cli, 'server', '--url', `${proxy.origin}/mcp`, '--suite', suite], { encoding: 'utf8' }).split('=== SUMMARY ===')[1]); }
    catch (e) { console.log(String((e as {stdout: string}).stdout).split('=== SUMMARY ===')[1]); }
  }
  await proxy.close(); await server.app.close(); await world.close();
}, 120_000);
