// A small service on the runtime, run as a child process by graceful-shutdown.test.ts: it echoes POSTed
// bodies, reports each request it starts, and stops two named steps after the server closed. HANG_STEP=true
// makes the second step never finish, as a database that does not answer would. POST /busy holds the event
// loop for 400 ms, as a query on the embedded database (WebAssembly, in this thread) does.
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { createDrainState, gracefulServerOptions, healthRoutes, stopOnSignals } from '../../src/index.ts';

const drain = createDrainState();
const app = Fastify({ logger: { level: 'info' }, ...gracefulServerOptions });
await app.register(healthRoutes, {
  database: async () => {},
  healthDetails: () => ({}),
  isDraining: drain.isDraining,
});
app.addHook('onRequest', async (request) => {
  request.log.info({ url: request.url }, 'request started');
});
app.post('/echo', async (request) => ({ received: request.body }));
app.post('/busy', async () => {
  const until = Date.now() + 400;
  while (Date.now() < until) {
    // Spinning on purpose: nothing else in this process runs meanwhile.
  }
  return { busy: true };
});
await app.listen({ port: 0, host: '127.0.0.1' });

stopOnSignals({
  app,
  drain,
  drainLimitMs: Number(process.env.DRAIN_MS ?? 10_000),
  steps: [
    { name: 'the job', stop: async () => app.log.info('stopped the job') },
    {
      name: 'the database',
      stop: async () => {
        // A timer that keeps the process alive, as the socket of a database that does not answer would.
        if (process.env.HANG_STEP === 'true') await new Promise(() => setInterval(() => {}, 1000));
        app.log.info('stopped the database');
      },
    },
  ],
});
process.stdout.write(`listening on ${(app.server.address() as AddressInfo).port}\n`);
