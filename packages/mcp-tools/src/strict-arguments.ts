import { z } from 'zod';

/**
 * A copy of a tool's input schema that refuses argument names it does not declare, at every level, where
 * zod would silently drop them: a model that misspells `basePrice` as `basePrise` must hear so, not be told
 * the call succeeded while nothing changed. Each refusal names the unknown keys and lists the ones taken,
 * so the model can correct the call in one step. Everything else (types, bounds, refinements, defaults,
 * descriptions) is the original's, and the original schema is left as it is for other transports.
 *
 * @param toolName - names the top-level object in messages: "update_listing takes: …".
 */
export function refusingUnknownArguments<Input extends z.ZodObject>(input: Input, toolName: string): Input {
  // The copy has the original's class and checks, so it parses to the same type.
  return strictCopy(input, toolName, 'argument') as Input;
}

function strictCopy(schema: z.ZodType, owner: string, noun: 'argument' | 'field'): z.ZodType {
  const def = schema._zod.def;
  const copy = (changes: Record<string, unknown>) =>
    // `parent` keeps the original's description and other metadata on the copy.
    schema.clone(z.core.util.mergeDefs(def, changes) as typeof def, { parent: true });

  if (schema instanceof z.ZodObject) {
    const shape = Object.fromEntries(
      Object.entries(schema.shape).map(([key, field]) => [key, strictCopy(field as z.ZodType, key, 'field')]),
    );
    const accepted = Object.keys(shape);
    const ownError = schema._zod.def.error as z.core.$ZodErrorMap | undefined;
    const error: z.core.$ZodErrorMap = (issue) =>
      issue.code === 'unrecognized_keys'
        ? unknownKeysMessage(issue.keys, owner, noun, accepted)
        : ownError?.(issue);
    return copy({ shape, catchall: z.never(), error });
  }
  if (schema instanceof z.ZodArray) {
    return copy({ element: strictCopy(schema.element as z.ZodType, `each ${owner} entry`, noun) });
  }
  if (schema instanceof z.ZodUnion) {
    return copy({ options: schema.options.map((option) => strictCopy(option as z.ZodType, owner, noun)) });
  }
  if (schema instanceof z.ZodPipe) {
    return copy({ in: strictCopy(schema.in as z.ZodType, owner, noun), out: schema.out });
  }
  if (
    schema instanceof z.ZodOptional ||
    schema instanceof z.ZodNullable ||
    schema instanceof z.ZodDefault ||
    schema instanceof z.ZodPrefault ||
    schema instanceof z.ZodReadonly
  ) {
    return copy({ innerType: strictCopy(schema.unwrap() as z.ZodType, owner, noun) });
  }
  return schema;
}

function unknownKeysMessage(
  unknown: readonly string[],
  owner: string,
  noun: 'argument' | 'field',
  accepted: readonly string[],
): string {
  const named = unknown.length === 1 ? `${noun} ${unknown[0]}` : `${noun}s ${unknown.join(', ')}`;
  return `Unknown ${named}; nothing was changed. ${owner} takes: ${accepted.join(', ')}.`;
}
