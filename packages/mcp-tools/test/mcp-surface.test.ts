import type { InnkeepDomain } from '@innkeep/domain';
import { describe, expect, it } from 'vitest';
import { toolsByName } from '../src/catalogue.ts';
import { promptCatalogue } from '../src/prompts/prompt-catalogue.ts';
import { listedResources, resourceTemplates } from '../src/resources/resource-definition.ts';
import { createMcpDispatcher } from '../src/server/dispatcher.ts';
import { innkeepServerInfo } from '../src/server/server-info.ts';

// Lists are built from declarations alone; no list request reaches the domain.
const dispatcher = createMcpDispatcher({
  domain: {} as InnkeepDomain,
  clock: { now: () => new Date('2026-06-15T18:00:00Z') },
  serverInfo: innkeepServerInfo,
  report: (reference, cause) => {
    throw new Error(`unexpected failure ${reference}`, { cause });
  },
});
const caller = {
  actor: { accountId: 'acc_1', userId: 'usr_1', role: 'owner', via: 'mcp', clientId: null },
  scopes: [],
} as const;

async function list(method: string): Promise<Record<string, unknown>> {
  const response = await dispatcher.handle({ jsonrpc: '2.0', id: 1, method }, caller);
  if (response === null || !('result' in response)) throw new Error(`${method} failed`);
  return response.result as Record<string, unknown>;
}

/** The scopes a listed entry needs, which the lists do not show but the grant and the consent screen do. */
function scopesOf(kind: 'tool' | 'resource' | 'template' | 'prompt', key: string): readonly string[] {
  const scopes =
    kind === 'tool'
      ? toolsByName.get(key)?.scopes
      : kind === 'resource'
        ? listedResources.find((resource) => resource.uri === key)?.scopes
        : kind === 'template'
          ? resourceTemplates.find((template) => template.uriTemplate === key)?.scopes
          : promptCatalogue.find((prompt) => prompt.name === key)?.scopes;
  if (scopes === undefined) throw new Error(`${kind} ${key} is listed but not declared`);
  return scopes;
}

describe('the MCP surface', () => {
  // Any change to what an assistant sees (a tool's name, copy, scopes, annotations or schemas, a resource,
  // a template, a prompt) changes the committed JSON, so it is reviewed rather than slipped in.
  it('is what the committed snapshot records', async () => {
    const { tools } = (await list('tools/list')) as { tools: { name: string }[] };
    const { resources } = (await list('resources/list')) as { resources: { uri: string }[] };
    const { resourceTemplates: templates } = (await list('resources/templates/list')) as {
      resourceTemplates: { uriTemplate: string }[];
    };
    const { prompts } = (await list('prompts/list')) as { prompts: { name: string }[] };
    const surface = {
      tools: tools.map((tool) => ({ ...tool, scopes: scopesOf('tool', tool.name) })),
      resources: resources.map((resource) => ({ ...resource, scopes: scopesOf('resource', resource.uri) })),
      resourceTemplates: templates.map((template) => ({
        ...template,
        scopes: scopesOf('template', template.uriTemplate),
      })),
      prompts: prompts.map((prompt) => ({ ...prompt, scopes: scopesOf('prompt', prompt.name) })),
    };
    expect(tools).toHaveLength(49);
    await expect(`${JSON.stringify(surface, null, 2)}\n`).toMatchFileSnapshot('./snapshots/mcp-surface.json');
  });
});
