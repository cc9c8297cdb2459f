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
    expect(tool).toMatchObject({ ...copy, scopes: ['listings:read'], output, annotations: readOnly });
    expect(tool.input.parse({ note: 'hi' })).toEqual({ note: 'hi' });
    expect(z.toJSONSchema(tool.input).properties).toEqual(z.toJSONSchema(input).properties);
    await expect(tool.handler({ note: 'hi' }, {} as never)).resolves.toEqual({ note: 'hi' });
  });

  it('is not read-only when the operation writes, and carries the declared hints', () => {
    const tool = defineTool({
      operation: echoOperation('write'),
      ...copy,
      writeHints: { destructiveHint: true, idempotentHint: false, openWorldHint: true },
    });
    expect(tool.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
  });

  it('refuses arguments the operation does not take, naming them and the ones it does', () => {
    const tool = defineTool({ operation: echoOperation('read'), ...copy });
    const result = tool.input.safeParse({ note: 'hi', nite: 'typo' });
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      'Unknown argument nite; nothing was changed. echo_note takes: note.',
    ]);
    // The operation's own schema, which REST uses, still drops unknown keys as before.
    expect(input.parse({ note: 'hi', nite: 'typo' })).toEqual({ note: 'hi' });
  });

  it('refuses a write without hints and a read with them, so no hint is left to chance', () => {
    expect(() => defineTool({ operation: echoOperation('write'), ...copy })).toThrow(/writeHints/);
    expect(() =>
      defineTool({
        operation: echoOperation('read'),
        ...copy,
        writeHints: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      }),
    ).toThrow(/writeHints/);
  });
});
