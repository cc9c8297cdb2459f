import { allScopes, DomainError, type ErrorCode, errorCatalogue, type InnkeepDomain } from '@innkeep/domain';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createInnkeepMcpServer } from '../src/sdk/register-innkeep-mcp.ts';

const owner = {
  accountId: 'acc_1',
  userId: 'usr_1',
  role: 'owner',
  via: 'mcp',
  clientId: 'sdk-test',
} as const;

/**
 * A domain whose user lookup fails with `code`: the one call service://user makes. Only that call exists,
 * which is all the resource reads; the failure is what is under test, not the domain.
 */
function domainFailingWith(code: ErrorCode): InnkeepDomain {
  const getUser = async () => {
    throw new DomainError(code, `${code}: refused by the domain.`);
  };
  return { identity: { getUser } } as unknown as InnkeepDomain;
}

/** An SDK client connected over the in-memory transport to Innkeep registered on an SDK server. */
async function connectedClient(domain: InnkeepDomain): Promise<Client> {
  const server = createInnkeepMcpServer({
    domain,
    clock: { now: () => new Date('2026-06-15T18:00:00Z') },
    actorFor: () => owner,
    scopesFor: () => allScopes,
    report: () => {},
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'sdk-error-wire-test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

async function failureOf(call: Promise<unknown>): Promise<McpError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof McpError) return error;
    throw error;
  }
  throw new Error('the call succeeded');
}

describe('the SDK registration answers domain refusals with the wire table’s codes', () => {
  let client: Client | undefined;
  afterEach(async () => {
    await client?.close();
  });

  it.each(['insufficient_scope', 'subscription_inactive', 'rate_limited', 'conflict'] as const)(
    'a resource read refused with %s',
    async (code) => {
      client = await connectedClient(domainFailingWith(code));
      const failure = await failureOf(client.readResource({ uri: 'service://user' }));
      expect(failure.code).toBe(errorCatalogue[code].jsonRpcCode);
      expect(failure.data).toMatchObject({ code });
    },
  );

  it('insufficient_scope is -32011, not invalid params', async () => {
    client = await connectedClient(domainFailingWith('insufficient_scope'));
    const failure = await failureOf(client.readResource({ uri: 'service://user' }));
    expect(failure.code).toBe(-32011);
  });
});
