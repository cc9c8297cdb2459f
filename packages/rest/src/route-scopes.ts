import { allScopes, type Scope } from '@innkeep/domain';
import type { RestRoute } from './route-definition.ts';

/**
 * Every scope some route of `routes` accepts, in catalogue order: what `/api`'s protected resource metadata
 * lists as `scopes_supported` and what consent offers for it, so a scope no route uses is never granted.
 */
export function scopesOfRoutes(routes: readonly RestRoute[]): Scope[] {
  const used = new Set(routes.flatMap((route) => route.scopeAlternatives.flat()));
  return allScopes.filter((scope) => used.has(scope));
}
