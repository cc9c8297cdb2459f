import Fastify from 'fastify';

// The limit: a Fastify route that answers every GET with a small constant JSON object, doing nothing else.
// Whatever /api costs on top of this is Innkeep's own work (credentials, limits, the operation, the database).

const listing = { _id: 'lst_bench', userID: 'acc_bench', name: 'Bench listing', currency: 'USD' };
const app = Fastify({ logger: false });
app.get('/api/getListing/:listingId', async () => listing);
const address = await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
process.stdout.write(`listening ${address}\n`);
