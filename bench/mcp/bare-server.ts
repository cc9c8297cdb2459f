import Fastify from 'fastify';

// The limit: a Fastify route that answers every POST with a constant JSON-RPC result, doing nothing else.
// Whatever /mcp costs on top of this is Innkeep's own work (auth, dispatch, the database).

const result = {
  jsonrpc: '2.0',
  id: 1,
  result: { content: [{ type: 'text', text: '{}' }], structuredContent: {} },
};
const app = Fastify({ logger: false });
app.post('/mcp', async () => result);
const address = await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
process.stdout.write(`listening ${address}\n`);
