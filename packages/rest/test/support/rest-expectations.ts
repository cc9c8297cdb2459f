import type { Actor } from '@innkeep/domain';
import { expect } from 'vitest';
import type { z } from 'zod';
import type { RestAnswer, RestWorld } from './rest-world.ts';

/** The answer's body parsed with `schema`, after checking the status. */
export function answerOf<Schema extends z.ZodType>(
  answer: RestAnswer,
  status: number,
  schema: Schema,
): z.output<Schema> {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  return schema.parse(answer.body);
}

/** Checks an error answer: status, code and, when given, the input field it names. */
export function expectError(answer: RestAnswer, status: number, code: string, field?: string): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(answer.body).toMatchObject({ code });
  if (field !== undefined) {
    expect(answer.body).toMatchObject({
      details: { issues: expect.arrayContaining([expect.objectContaining({ path: field })]) },
    });
  }
}

/** The owner of the demo account with `email`, acting directly on the domain. */
export async function ownerActor(world: RestWorld, email: string): Promise<Actor> {
  const user = await world.operator.findUserByEmail(email);
  if (user === null) throw new Error(`${email} is missing from the demo`);
  return { accountId: user.accountId, userId: user.userId, role: 'owner', via: 'cli', clientId: null };
}
