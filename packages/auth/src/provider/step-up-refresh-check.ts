import type Provider from 'oidc-provider';
import type { StepUpMarks } from '../postgres/step-up-marks.ts';

/** What {@link stepUpRefreshRefusal} looks at besides the request. */
export interface StepUpRefreshCheck {
  readonly provider: Provider;
  readonly marks: StepUpMarks;
  /** `${baseUrl}/mcp`: the resource whose refusals leave marks, and whose scopes a refresh is judged by. */
  readonly mcpResource: string;
}

/**
 * Why a refresh must be refused with `invalid_grant` before the provider sees it, or undefined to let the
 * provider handle it.
 *
 * `/mcp` marks a grant when it refuses one of its tokens for want of scopes (see StepUpMarks). MCP SDK 1.x
 * answers that refusal with a refresh, which can never grant more than the refresh token already holds, and
 * then gives up; refused with `invalid_grant`, it drops its tokens and authorizes again with the scope the
 * challenge named, so the person sees the consent page with the new scope. The grant's next refresh takes
 * the mark, whatever comes of it, and is refused only when it would still lack a scope the consent page can
 * offer: one the refresh token and grant do not both hold, and that the person has not refused for this
 * grant (the provider never asks about a refused scope again, so authorizing again could not add it). The
 * refused refresh token is deleted, so the client cannot keep refreshing into the same refusal.
 *
 * Tokens that are unknown, expired or already used, and requests of another client than the token's, are
 * left to the provider, which answers them as before and keeps the mark. So are confidential clients' tokens
 * (the mark is dropped): their requests are authenticated only by the provider, after this check.
 *
 * @param params - the token request's form parameters.
 * @param authorization - its Authorization header, naming the client of `client_secret_basic`.
 */
export async function stepUpRefreshRefusal(
  check: StepUpRefreshCheck,
  params: URLSearchParams,
  authorization: string | undefined,
): Promise<string | undefined> {
  if (params.get('grant_type') !== 'refresh_token') return undefined;
  const value = params.get('refresh_token');
  if (value === null) return undefined;
  const refreshToken = await check.provider.RefreshToken.find(value);
  if (refreshToken === undefined || refreshToken.consumed) return undefined;
  const { grantId, clientId } = refreshToken;
  if (grantId === undefined || clientId === undefined || clientId !== clientIdOf(params, authorization)) {
    return undefined;
  }
  const mark = await check.marks.take(grantId);
  if (mark === undefined) return undefined;
  // Only a public client's token is refused here: a confidential client's request is not authenticated
  // yet, and whoever holds its refresh token without the secret must not be able to have it deleted.
  const client = await check.provider.Client.find(clientId);
  if (client?.tokenEndpointAuthMethod !== 'none') return undefined;
  const grant = await check.provider.Grant.find(grantId);
  if (grant === undefined) return undefined;

  const scopeWords = (scope: string) => new Set(scope.split(' '));
  const granted = scopeWords(grant.getResourceScope(check.mcpResource));
  const refused = scopeWords(grant.getRejectedResourceScope(check.mcpResource));
  const askable = mark.scopes.filter(
    (scope) => !(refreshToken.scopes.has(scope) && granted.has(scope)) && !refused.has(scope),
  );
  if (askable.length === 0) return undefined;
  await refreshToken.destroy();
  return (
    `This connection must be authorized again to allow ${askable.join(', ')}, which a refused request ` +
    'needed: a refresh cannot add scopes. This refresh token no longer works.'
  );
}

/**
 * The client a token request names: its `client_id` parameter, else the user of its `Basic` credentials
 * (form-encoded, RFC 6749 §2.3.1). Only compared with the token's client, never trusted as authenticated.
 */
function clientIdOf(params: URLSearchParams, authorization: string | undefined): string | undefined {
  const named = params.get('client_id');
  if (named !== null) return named;
  const credentials = /^basic +(\S+)$/i.exec(authorization ?? '')?.[1];
  if (credentials === undefined) return undefined;
  const user = Buffer.from(credentials, 'base64').toString('utf8').split(':')[0] ?? '';
  return new URLSearchParams(`id=${user}`).get('id') ?? undefined;
}
