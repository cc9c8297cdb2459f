import { demoLogin } from '@innkeep/demo';
import { systemClock } from '@innkeep/domain';
import { createInnkeepMcpServer } from '@innkeep/mcp-tools';
import { createOperatorUseCases, createPostgresDomain, openDatabase } from '@innkeep/storage';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import Fastify from 'fastify';

// The peer: the MCP SDK's documented stateless pattern — a new McpServer with every Innkeep tool, resource
// and prompt, and a new StreamableHTTPServerTransport, for each request — over the same domain and database.
// It skips authentication altogether, which only flatters it.

const url = process.env.DATABASE_URL;
if (url === undefined) throw new Error('DATABASE_URL is required');
const database = await openDatabase({ kind: 'postgres', url, poolSize: 10 });
const owner = await createOperatorUseCases({ db: database.db, clock: systemClock }).findUserByEmail(
  demoLogin.email,
);
if (owner === null) throw new Error('the demo account is missing');
const actor = {
  accountId: owner.accountId,
  userId: owner.userId,
  role: 'owner',
  via: 'mcp',
  clientId: 'bench',
} as const;
const domain = createPostgresDomain({ db: database.db, clock: systemClock });

const app = Fastify({ logger: false });
app.post('/mcp', async (request, reply) => {
  const server = createInnkeepMcpServer({
    domain,
    clock: systemClock,
    actorFor: () => actor,
    scopesFor: () => ['listings:read', 'calendar:read', 'reservations:read'],
    report: () => {},
  });
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  reply.raw.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  reply.hijack();
  await transport.handleRequest(request.raw, reply.raw, request.body);
});
const address = await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
process.stdout.write(`listening ${address}\n`);
