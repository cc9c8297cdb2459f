import { defineOperation } from '@innkeep/operations';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, readOnly } from '../src/tool-definition.ts';

const input = z.object({ note: z.string().describe('Any text.') });
const output = z.object({ note: z.string().describe('The same text.') });
const echoOperation = (access: 'read' | 'write') =>
  defineOperation({
    id: 'echo_note',
    scopes: ['listings:read'],
    access,
    input,
    output,
    run: async ({ note }) => ({ note }),
  });
const copy = { name: 'echo_note', title: 'Echo a note', description: 'Returns the note it is given.' };

describe('a tool declared over an operation', () => {
  it('takes scopes, schemas and the call from the operation, and is read-only when the operation reads', async () => {
    const operation = echoOperation('read');
    const tool = defineTool({ operation, ...copy });
    expect(tool).toMatchObject({ ...copy, scopes: ['listings:read'], input, output, annotations: readOnly });
    await expect(tool.handler({ note: 'hi' }, {} as never)).resolves.toEqual({ note: 'hi' });
  });

  it('is not read-only when the operation writes, and carries the declared hints', () => {
    const tool = defineTool({
      operation: echoOperation('write'),
      ...copy,
      writeHints: { destructiveHint: true, idempotentHint: false },
    });
    expect(tool.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: false,
    });
  });

  it('refuses a write without hints and a read with them, so no hint is left to chance', () => {
    expect(() => defineTool({ operation: echoOperation('write'), ...copy })).toThrow(/writeHints/);
    expect(() =>
      defineTool({
        operation: echoOperation('read'),
        ...copy,
        writeHints: { destructiveHint: false, idempotentHint: true },
      }),
    ).toThrow(/writeHints/);
  });
});
