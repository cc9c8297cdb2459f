import { allScopes, type Scope } from '@innkeep/domain';
import { toolCatalogue } from './catalogue.ts';
import { completionScopes } from './completions/complete.ts';
import { promptCatalogue } from './prompts/prompt-catalogue.ts';
import { listedResources, resourceTemplates } from './resources/resource-definition.ts';
import { compileUriTemplate } from './resources/uri-template.ts';

// Completing an argument reads records too (listing and reservation ids), so its scopes count as used.
const completionScopeLists: readonly (readonly Scope[])[] = [
  ...resourceTemplates.flatMap((template) =>
    compileUriTemplate(template.uriTemplate).variables.map(
      (variable) => completionScopes({ type: 'ref/resource', uri: template.uriTemplate }, variable) ?? [],
    ),
  ),
  ...promptCatalogue.flatMap((prompt) =>
    prompt.arguments.map(
      (argument) => completionScopes({ type: 'ref/prompt', name: prompt.name }, argument.name) ?? [],
    ),
  ),
];

const used = new Set<Scope>(
  [
    ...toolCatalogue.map((tool) => tool.scopes),
    ...listedResources.map((resource) => resource.scopes),
    ...resourceTemplates.map((template) => template.scopes),
    ...promptCatalogue.map((prompt) => prompt.scopes),
    ...completionScopeLists,
  ].flat(),
);

/**
 * Every scope some tool, resource, prompt or completion of Innkeep's MCP surface requires, in catalogue
 * order: what `/mcp`'s protected resource metadata lists as `scopes_supported`. Scopes only the REST API
 * uses (`webhooks:manage`, `locks:*`, `listingGroups:write`) are not among them, so an MCP client that
 * asks for "everything supported" still asks for nothing it cannot use.
 */
export const mcpSurfaceScopes: readonly Scope[] = allScopes.filter((scope) => used.has(scope));

/**
 * What a first connection to `/mcp` is asked to request (the `scope` of the 401 challenge): every read
 * scope of {@link mcpSurfaceScopes}. An assistant can then look at the whole account, and changes nothing
 * until a write tool first needs its scope; that call answers 403 `insufficient_scope` naming it, and the
 * client authorizes again with the wider scope (MCP step-up), so the person allows each kind of change
 * when it is first wanted.
 */
export const mcpFirstConnectionScopes: readonly Scope[] = mcpSurfaceScopes.filter((scope) =>
  scope.endsWith(':read'),
);
