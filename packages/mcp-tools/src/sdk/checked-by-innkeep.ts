import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';

/**
 * A Standard Schema for the v2 SDK that lists `jsonSchema` and lets every value through unchanged.
 *
 * Innkeep checks arguments itself, against the same tool's or prompt's zod schema, in `invokeTool` and
 * `getPrompt`. So a model gets Innkeep's `invalid_argument` result naming each wrong or unknown field, not
 * the SDK's text. A misspelt argument also reaches the check that refuses it instead of being stripped
 * on the way. As an output schema, the value checked is the operation's own output, and the client
 * validates it against the listed schema.
 *
 * @param jsonSchema - the JSON Schema (2020-12) the SDK lists, computed when it is first asked for.
 */
export function checkedByInnkeep(jsonSchema: () => Record<string, unknown>): StandardSchemaWithJSON<unknown> {
  return {
    '~standard': {
      version: 1,
      vendor: 'innkeep',
      validate: (value) => ({ value }),
      jsonSchema: { input: jsonSchema, output: jsonSchema },
    },
  };
}
