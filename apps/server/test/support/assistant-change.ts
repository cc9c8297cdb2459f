import { obtainAccessToken, registerClient } from '@innkeep/auth/testing';
import { testOwner } from './app-deps.ts';

/**
 * What an assistant named `assistantName` does to leave a change in the owner's activity: connects over OAuth
 * as the test owner and creates a message rule through `/mcp`. Resolves with the rule's id and the client's.
 */
export async function messageRuleMadeByAssistant(
  baseUrl: string,
  assistantName: string,
): Promise<{ ruleId: string; clientId: string }> {
  const client = await registerClient(baseUrl, {
    client_name: assistantName,
    redirect_uris: ['http://127.0.0.1:48123/callback'],
    token_endpoint_auth_method: 'none',
  });
  const { accessToken } = await obtainAccessToken({
    baseUrl,
    ...testOwner,
    scopes: ['messageRules:write'],
    client,
  });
  const called = await fetch(`${baseUrl}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${accessToken}`,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'create_message_rule',
        arguments: { name: 'Thanks', trigger: 'booking_confirmed', body: 'Thank you for booking.' },
      },
    }),
  });
  const result = (await called.json()) as {
    result: { isError?: boolean; structuredContent?: { id: string } };
  };
  if (result.result.isError === true || result.result.structuredContent === undefined) {
    throw new Error(`create_message_rule failed: ${JSON.stringify(result)}`);
  }
  return { ruleId: result.result.structuredContent.id, clientId: client.client_id };
}
