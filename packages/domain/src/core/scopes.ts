/** One scope of {@link scopeCatalogue}, as the consent page and the API reference describe it. */
interface ScopeCatalogueEntry {
  readonly scope: string;
  /** What it allows, in plain words. */
  readonly grants: string;
  /**
   * Set when what it allows reaches people outside the account in the host's name: a message a guest
   * receives from the host, now or, through an automated rule, later. The consent page marks such scopes.
   */
  readonly actsInHostsNameTowards?: 'guests';
}

/**
 * What a credential may do, one scope per area and verb (seed §5.3). OAuth grants them, REST Bearer tokens
 * and MCP tools require them; the plain-words text is what a person sees on the consent page.
 */
export const scopeCatalogue = [
  { scope: 'listings:read', grants: 'See your listings and their settings' },
  { scope: 'listings:write', grants: 'Change listing details and settings' },
  { scope: 'reservations:read', grants: 'See reservations and guest details' },
  { scope: 'reservations:write', grants: 'Create, change and cancel reservations' },
  { scope: 'calendar:read', grants: 'See availability and nightly prices' },
  { scope: 'calendar:write', grants: 'Block dates and change prices' },
  { scope: 'messages:read', grants: 'Read guest conversations' },
  { scope: 'messages:write', grants: 'Send messages to guests', actsInHostsNameTowards: 'guests' },
  { scope: 'messageRules:read', grants: 'See automated message rules' },
  {
    scope: 'messageRules:write',
    grants: 'Create and pause automated message rules',
    actsInHostsNameTowards: 'guests',
  },
  { scope: 'pricing:read', grants: 'See pricing rules' },
  { scope: 'pricing:write', grants: 'Create pricing rules' },
  { scope: 'listingGroups:read', grants: 'See listing groups and owner import links' },
  { scope: 'listingGroups:write', grants: 'Manage listing groups and owner import links' },
  { scope: 'locks:read', grants: 'See smart locks and access codes' },
  { scope: 'locks:write', grants: 'Manage smart lock settings' },
  { scope: 'reviews:read', grants: 'Read guest reviews' },
  { scope: 'accounts:read', grants: 'See your connected channel accounts' },
  { scope: 'user:read', grants: 'See your profile' },
  { scope: 'help:read', grants: 'Read help-centre articles' },
  { scope: 'webhooks:manage', grants: 'Create and manage webhook subscriptions' },
] as const satisfies readonly ScopeCatalogueEntry[];

/** One of the scopes in {@link scopeCatalogue}. */
export type Scope = (typeof scopeCatalogue)[number]['scope'];

/** Every scope, in catalogue order. */
export const allScopes: readonly Scope[] = scopeCatalogue.map((entry) => entry.scope);

/** True when `value` names a scope of the catalogue. */
export function isScope(value: string): value is Scope {
  return (allScopes as readonly string[]).includes(value);
}
