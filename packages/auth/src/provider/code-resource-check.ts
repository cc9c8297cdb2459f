import type Provider from 'oidc-provider';

/**
 * Why an authorization code exchange must be refused with `invalid_target` before the provider sees it,
 * or undefined to let the provider handle it.
 *
 * oidc-provider marks the code consumed first and checks `resource` after, so a request naming a resource
 * the code was not issued for burns the code: the client's retry with the right resource then counts as
 * code reuse, and the provider revokes every token of the grant (a remembered consent shares one grant
 * across authorizations). Checking the resource against the stored code first leaves the code, and the
 * grant, untouched. Codes that do not exist or are already used are left to the provider, which answers
 * `invalid_grant` as before.
 *
 * @param params - the token request's form parameters, resources already canonical.
 */
export async function codeResourceRefusal(
  provider: Provider,
  params: URLSearchParams,
): Promise<string | undefined> {
  if (params.get('grant_type') !== 'authorization_code') return undefined;
  // With several values the provider resolves the first (see defaultResource); so does this check.
  const requested = params.get('resource');
  const value = params.get('code');
  if (requested === null || value === null) return undefined;
  const code = await provider.AuthorizationCode.find(value);
  // A used code goes on to the provider, whose reuse detection must see it (`consumed` is untyped there).
  if (code === undefined || (code as { consumed?: unknown }).consumed) return undefined;
  const granted = code.resource === undefined ? [] : [code.resource].flat();
  if (granted.includes(requested)) return undefined;
  return (
    `This code was issued for ${granted.join(', ') || 'no resource'}, not ${requested}; ` +
    'send that resource, or none. The code has not been used.'
  );
}
