import http from 'node:http';
import { signWebhook, webhookUserAgent } from '@innkeep/webhook-delivery';

/** What the transport ceiling measured. */
export interface TransportCeiling {
  readonly requests: number;
  readonly failures: number;
  readonly seconds: number;
  readonly requestsPerSecond: number;
}

/**
 * The most deliveries a second the receiver can take from a sender shaped like Innkeep's, with no database in
 * the way: `requests` POSTs of `body`, each signed at the moment it is sent, `concurrency` at a time over
 * kept-alive connections (as the sender keeps its own, a few seconds each). A first round of `warmUp`
 * requests is not counted (JIT, the receiver's first connections).
 */
export async function measureTransportCeiling(options: {
  readonly url: string;
  readonly secret: string;
  readonly body: string;
  readonly requests: number;
  readonly concurrency: number;
  readonly warmUp: number;
}): Promise<TransportCeiling> {
  await postAll(options, options.warmUp, 'warm-up');
  const started = performance.now();
  const failures = await postAll(options, options.requests, 'ceiling');
  const seconds = (performance.now() - started) / 1000;
  return {
    requests: options.requests,
    failures,
    seconds,
    requestsPerSecond: options.requests / seconds,
  };
}

/** Makes `count` signed POSTs, `concurrency` at a time, and resolves with how many failed. */
async function postAll(
  options: {
    readonly url: string;
    readonly secret: string;
    readonly body: string;
    readonly concurrency: number;
  },
  count: number,
  idPrefix: string,
): Promise<number> {
  let next = 0;
  let failures = 0;
  const worker = async () => {
    while (next < count) {
      const id = `${idPrefix}_${next}`;
      next += 1;
      if (!(await post(options.url, options.secret, options.body, id))) failures += 1;
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, count) }, worker));
  return failures;
}

/** Connections kept between the ceiling's POSTs, as the sender keeps them between attempts. */
const keptAlive = new http.Agent({ keepAlive: true, timeout: 4_000 });

/** One POST with the sender's headers; true when the receiver answered 2xx. */
function post(url: string, secret: string, body: string, eventId: string): Promise<boolean> {
  return new Promise((resolve) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        agent: keptAlive,
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
          'User-Agent': webhookUserAgent,
          'Webhook-Id': eventId,
          'Webhook-Signature': signWebhook(secret, Math.floor(Date.now() / 1000), body),
        },
      },
      (response) => {
        const ok = (response.statusCode ?? 0) >= 200 && (response.statusCode ?? 0) < 300;
        response.resume();
        // Like the sender: an answer read to its end leaves its connection for the next POST.
        response.on('end', () => resolve(ok));
        response.on('error', () => resolve(false));
      },
    );
    request.on('error', () => resolve(false));
    request.end(body);
  });
}
