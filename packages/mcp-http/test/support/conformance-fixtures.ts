// The tools, resources and prompts the MCP conformance suite (0.1.16, server mode) calls, as its reference
// "everything server" serves them (conformance repo, examples/servers/typescript/README.md). Innkeep serves
// them only when a test wraps its dispatcher in `servingFixtures`; they are declared with Innkeep's own
// definition types.
// Left out on purpose: the fixtures that need a server-to-client message (logging, progress, sampling,
// elicitation) or a subscription, which a stateless server answering JSON cannot send; see
// ../conformance-baseline.yml.

import { DomainError } from '@innkeep/domain';
import {
  type ListedResourceDefinition,
  type PromptDefinition,
  type ResourceTemplateDefinition,
  readOnly,
  type ToolDefinition,
} from '@innkeep/mcp-tools';
import { z } from 'zod';
import type { McpContentBlock, McpFixtures } from './fixture-dispatcher.ts';

/** A 1×1 red PNG. */
const redPixelPng =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
/** Two samples of silence: 16-bit mono PCM at 8 kHz. */
const silentWav = 'UklGRigAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQQAAAAAAAAA';

const noInput = z.object({}).strict();
const noOutput = z.object({}).strict();

/**
 * A fixture tool, resolved as Innkeep's own are but with no operation behind it: the suite's fixtures are
 * MCP-only and belong to no transport-neutral use case. Needs no scope and only reads.
 */
function fixtureTool<Output extends z.ZodObject>(
  tool: Pick<ToolDefinition<typeof noInput, Output>, 'name' | 'title' | 'description' | 'output' | 'handler'>,
): ToolDefinition<typeof noInput, Output> {
  return { ...tool, scopes: [], input: noInput, annotations: readOnly };
}

/** A fixture tool without arguments or output, showing `content` when called. */
function contentTool(name: string, title: string, content: readonly McpContentBlock[]) {
  return {
    ...fixtureTool({
      name,
      title,
      description: `Conformance fixture: ${title.toLowerCase()}.`,
      output: noOutput,
      handler: async () => ({}),
    }),
    content,
  };
}

const simpleText = 'This is a simple text response for testing.';

/** Every fixture the suite's active scenarios call, besides those it needs server-to-client messages for. */
export const conformanceFixtures: McpFixtures = {
  tools: [
    {
      ...fixtureTool({
        name: 'test_simple_text',
        title: 'Simple text',
        description: 'Conformance fixture: answers one line of text.',
        output: z.object({ text: z.string().describe('The line.') }),
        handler: async () => ({ text: simpleText }),
      }),
      content: [{ type: 'text', text: simpleText }],
    },
    contentTool('test_image_content', 'Image content', [
      { type: 'image', data: redPixelPng, mimeType: 'image/png' },
    ]),
    contentTool('test_audio_content', 'Audio content', [
      { type: 'audio', data: silentWav, mimeType: 'audio/wav' },
    ]),
    contentTool('test_embedded_resource', 'Embedded resource', [
      {
        type: 'resource',
        resource: {
          uri: 'test://embedded-resource',
          mimeType: 'text/plain',
          text: 'This is an embedded resource content.',
        },
      },
    ]),
    contentTool('test_multiple_content_types', 'Multiple content types', [
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: redPixelPng, mimeType: 'image/png' },
      {
        type: 'resource',
        resource: {
          uri: 'test://mixed-content-resource',
          mimeType: 'application/json',
          text: '{"test":"data","value":123}',
        },
      },
    ]),
    fixtureTool({
      name: 'test_error_handling',
      title: 'Error handling',
      description: 'Conformance fixture: always fails, as a tool result with isError.',
      output: noOutput,
      handler: async () => {
        throw new DomainError('failed_precondition', 'This tool intentionally returns an error for testing');
      },
    }),
  ],
  resources: [
    {
      uri: 'test://static-text',
      name: 'static_text',
      title: 'Static text',
      description: 'Conformance fixture: a fixed text document.',
      mimeType: 'application/json',
      scopes: [],
      read: async () => JSON.stringify({ text: 'This is the content of the static text resource.' }),
    } satisfies ListedResourceDefinition,
    {
      uri: 'test://static-binary',
      name: 'static_binary',
      title: 'Static binary',
      description: 'Conformance fixture: a fixed PNG image.',
      mimeType: 'image/png',
      scopes: [],
      blob: redPixelPng,
    },
  ],
  resourceTemplates: [
    {
      uriTemplate: 'test://template/{id}/data',
      name: 'template_data',
      title: 'Template data',
      description: 'Conformance fixture: a document naming the id it was read with.',
      mimeType: 'application/json',
      scopes: [],
      params: z.object({ id: z.string().min(1).max(100).describe('Any id.') }),
      read: async ({ id }) => JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
    } satisfies ResourceTemplateDefinition<z.ZodObject<{ id: z.ZodString }>>,
  ],
  prompts: [
    textPrompt('test_simple_prompt', 'Simple prompt', z.object({}).strict(), [], () => [
      'This is a simple prompt for testing.',
    ]),
    textPrompt(
      'test_prompt_with_arguments',
      'Prompt with arguments',
      z.object({ arg1: promptArgument('First test argument'), arg2: promptArgument('Second test argument') }),
      [
        { name: 'arg1', description: 'First test argument', required: true },
        { name: 'arg2', description: 'Second test argument', required: true },
      ],
      ({ arg1, arg2 }) => [`Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`],
    ),
    {
      ...textPrompt(
        'test_prompt_with_embedded_resource',
        'Prompt with embedded resource',
        z.object({ resourceUri: promptArgument('URI of the resource to embed') }),
        [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
        () => ['Please process the embedded resource above.'],
      ),
      attachments: ({ resourceUri }) => [
        {
          type: 'resource',
          resource: {
            uri: String(resourceUri),
            mimeType: 'text/plain',
            text: 'Embedded resource content for testing.',
          },
        },
      ],
    },
    {
      ...textPrompt('test_prompt_with_image', 'Prompt with image', z.object({}).strict(), [], () => [
        'Please analyze the image above.',
      ]),
      attachments: () => [{ type: 'image', data: redPixelPng, mimeType: 'image/png' }],
    },
  ],
};

function promptArgument(description: string) {
  return z.string().min(1).max(200).describe(description);
}

/** A fixture prompt of user messages of text; `argumentList` is what prompts/list shows of `args`. */
function textPrompt<Args extends z.ZodObject>(
  name: string,
  title: string,
  args: Args,
  argumentList: PromptDefinition['arguments'],
  lines: (args: z.output<Args>) => string[],
): PromptDefinition<Args> {
  return {
    name,
    title,
    description: `Conformance fixture: ${title.toLowerCase()}.`,
    scopes: [],
    args,
    arguments: argumentList,
    handler: async (parsed) => ({
      description: title,
      messages: lines(parsed).map((text) => ({ role: 'user', content: { type: 'text', text } })),
    }),
  };
}
