import { createServer, get, type Server } from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicAddressLookup, RefusedAddressError, specialUseLiteralAddress } from '../src/index.ts';

const refusal = (hostname: string, address: string) => `refused ${hostname} at ${address}.`;

/** What `lookup` answers for `hostname`: the error, or the first address. */
function resolve(lookup: LookupFunction, hostname: string): Promise<Error | string> {
  return new Promise((done) =>
    lookup(hostname, { family: 0 }, (error, address) => done(error ?? (address as string))),
  );
}

describe('publicAddressLookup', () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    server = createServer((_request, response) => response.writeHead(204).end());
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((closed) => server.close(() => closed()));
  });

  /** The status of a GET to the loopback server through `lookup`, or the error that stopped it. */
  function getThrough(lookup: LookupFunction, hostname = 'localhost'): Promise<Error | number> {
    return new Promise((done) => {
      const request = get({ hostname, port, path: '/', agent: false, lookup, family: 4 }, (response) => {
        response.resume();
        done(response.statusCode ?? 0);
      });
      request.on('error', done);
    });
  }

  it('refuses a name that resolves to loopback, with the caller’s message, before connecting', async () => {
    const refused = await resolve(publicAddressLookup(false, refusal), 'localhost');
    expect(refused).toBeInstanceOf(RefusedAddressError);
    expect((refused as Error).message).toMatch(/^refused localhost at (127\.0\.0\.1|::1)\.$/);

    const connectionsBefore = await new Promise<number>((count) =>
      server.getConnections((_error, open) => count(open)),
    );
    const outcome = await getThrough(publicAddressLookup(false, refusal));
    expect(outcome).toBeInstanceOf(RefusedAddressError);
    const connectionsAfter = await new Promise<number>((count) =>
      server.getConnections((_error, open) => count(open)),
    );
    expect(connectionsAfter).toBe(connectionsBefore);
  });

  it('refuses private and loopback addresses a lookup is asked for', async () => {
    for (const address of ['127.0.0.1', '10.0.0.1', '192.168.1.20', '169.254.169.254', '::1']) {
      const refused = await resolve(publicAddressLookup(false, refusal), address);
      expect(refused, address).toBeInstanceOf(RefusedAddressError);
      expect((refused as Error).message).toBe(`refused ${address} at ${address}.`);
    }
  });

  it('lets special-use addresses through with allowPrivate, resolving like Node', async () => {
    expect(await resolve(publicAddressLookup(true, refusal), '10.0.0.1')).toBe('10.0.0.1');
    expect(await resolve(publicAddressLookup(true, refusal), 'localhost')).toMatch(/^(127\.0\.0\.1|::1)$/);
    expect(await getThrough(publicAddressLookup(true, refusal))).toBe(204);
  });

  it('lets a public address through', async () => {
    expect(await resolve(publicAddressLookup(false, refusal), '93.184.215.14')).toBe('93.184.215.14');
  });

  it('answers every address when asked for all of them', async () => {
    const all = await new Promise((done) =>
      publicAddressLookup(true, refusal)('10.0.0.1', { all: true }, (_error, addresses) => done(addresses)),
    );
    expect(all).toEqual([{ address: '10.0.0.1', family: 4 }]);
  });
});

describe('specialUseLiteralAddress', () => {
  it('names a special-use address written in the URL, without IPv6 brackets', () => {
    expect(specialUseLiteralAddress(new URL('https://127.0.0.1:8443/feed.ics'))).toBe('127.0.0.1');
    expect(specialUseLiteralAddress(new URL('https://10.1.2.3/feed.ics'))).toBe('10.1.2.3');
    expect(specialUseLiteralAddress(new URL('https://[::1]/feed.ics'))).toBe('::1');
    expect(specialUseLiteralAddress(new URL('https://[::ffff:10.0.0.1]/feed.ics'))).toBe('::ffff:a00:1');
  });

  it('leaves public addresses and names to the lookup', () => {
    expect(specialUseLiteralAddress(new URL('https://93.184.215.14/feed.ics'))).toBeUndefined();
    expect(specialUseLiteralAddress(new URL('https://[2606:4700::1111]/feed.ics'))).toBeUndefined();
    expect(specialUseLiteralAddress(new URL('https://localhost/feed.ics'))).toBeUndefined();
    expect(specialUseLiteralAddress(new URL('https://calendar.example.com/feed.ics'))).toBeUndefined();
  });
});
