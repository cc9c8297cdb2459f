import { readFileSync } from 'node:fs';
import { getCACertificates, setDefaultCACertificates } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fetchCalendarFeed } from '../src/index.ts';
import { type ChannelServer, startChannelServer, testCertificate } from './support/channel-server.ts';

// Only a public https server can be a first hop without allowPrivate. Here the test server on 127.0.0.1 passes
// for one: 127.0.0.1 counts as public, every other address as the domain says, and the server's self-signed
// certificate is trusted in this test file's process only.
vi.mock('@innkeep/domain', async (importOriginal) => {
  const domain = await importOriginal<typeof import('@innkeep/domain')>();
  return {
    ...domain,
    isSpecialUseAddress: (address: string) => address !== '127.0.0.1' && domain.isSpecialUseAddress(address),
  };
});

const airbnb = readFileSync(new URL('fixtures/airbnb.ics', import.meta.url), 'utf8');

describe('fetchCalendarFeed without allowPrivate, from a public https channel', () => {
  let channel: ChannelServer;
  let host: string;

  beforeAll(async () => {
    setDefaultCACertificates([...getCACertificates('default'), testCertificate]);
    channel = await startChannelServer(true);
    host = new URL(channel.url('/')).host;
    channel.serve('/feed.ics', (response) => response.writeHead(200).end(airbnb));
  });
  afterAll(async () => {
    await channel.close();
  });

  it('fetches a feed over https, following a redirect on the same public host', async () => {
    channel.serve('/moved', (response) => response.writeHead(301, { Location: '/feed.ics' }).end());
    expect(await fetchCalendarFeed(channel.url('/moved'))).toMatchObject({ kind: 'fetched', body: airbnb });
  });

  it('refuses a redirect to a private address, saying where it came from', async () => {
    channel.serve('/to-metadata', (response) =>
      response.writeHead(302, { Location: 'https://169.254.169.254/latest/meta-data/' }).end(),
    );
    expect(await fetchCalendarFeed(channel.url('/to-metadata'))).toEqual({
      kind: 'failed',
      error: `The calendar at ${host} redirected to 169.254.169.254, a loopback, private or otherwise special-use address; calendars are fetched from public addresses only.`,
    });
    channel.serve('/to-private', (response) =>
      response.writeHead(307, { Location: 'https://[::ffff:10.0.0.1]/feed.ics' }).end(),
    );
    expect(await fetchCalendarFeed(channel.url('/to-private'))).toMatchObject({
      kind: 'failed',
      error: expect.stringContaining(`The calendar at ${host} redirected to ::ffff:a00:1, a loopback`),
    });
  });

  it('refuses a redirect to http, saying where it came from', async () => {
    channel.serve('/to-http', (response) =>
      response.writeHead(301, { Location: channel.url('/feed.ics').replace('https:', 'http:') }).end(),
    );
    expect(await fetchCalendarFeed(channel.url('/to-http'))).toEqual({
      kind: 'failed',
      error: `The calendar at ${host} redirected to an http address at ${host}; calendars are fetched over https only.`,
    });
  });
});
