import { demoExtraLogins } from '@innkeep/demo';
import type { Actor, AuditEntryView, Listing, Reservation, ReservationStatus } from '@innkeep/domain';
import { createOperatorUseCases } from '@innkeep/storage';
import type { TestDatabaseKind } from '@innkeep/storage/testing';
import { expect } from 'vitest';
import type { z } from 'zod';
import type { ToolCallResult } from '../src/tool-result.ts';
import { type ToolErrorBody, toolErrorOf } from './support/tool-error.ts';
import { openToolWorld, type ToolWorld } from './support/tool-world.ts';

/** The demo world, plus the actors the write tools must refuse. */
export interface WriteWorld extends ToolWorld {
  /** A viewer sub-user of the demo account, acting through MCP. */
  readonly viewer: Actor;
  /** The owner of the demo's second (lapsed) account, acting through MCP. */
  readonly stranger: Actor;
  /** Ids that exist, but in the stranger's account. */
  readonly foreign: { readonly listingId: string; readonly reservationId: string };
}

/** Opens the demo world with a viewer on the demo account and the lapsed account's ids at hand. */
export async function openWriteWorld(kind: TestDatabaseKind): Promise<WriteWorld> {
  const world = await openToolWorld(kind);
  const operator = createOperatorUseCases({ db: world.database.db, clock: world.clock });
  const { userId } = await operator.addSubUser({
    accountId: world.owner.accountId,
    email: 'viewer@innkeep.test',
    firstName: 'Vic',
    lastName: 'Viewer',
    role: 'viewer',
  });
  const viewer: Actor = { ...world.owner, userId, role: 'viewer' };
  const lapsed = await operator.findUserByEmail(demoExtraLogins.lapsedOwner);
  if (lapsed === null) throw new Error('the lapsed demo owner is missing');
  const stranger: Actor = { ...world.owner, accountId: lapsed.accountId, userId: lapsed.userId };
  const { domain } = world.context;
  const listing = (await domain.listings.list(stranger, { limit: 1 })).items[0];
  const reservation = (await domain.reservations.list(stranger, { limit: 1 })).items[0];
  if (listing === undefined || reservation === undefined) throw new Error('the lapsed account has no data');
  return { ...world, viewer, stranger, foreign: { listingId: listing.id, reservationId: reservation.id } };
}

/** The error of a failed tool call; fails the test when the call succeeded. */
export function errorOf(result: ToolCallResult): ToolErrorBody {
  return toolErrorOf(result);
}

/** The output of a successful tool call, checked against `schema`; fails the test when the call failed. */
export function outputOf<Output>(result: ToolCallResult, schema: z.ZodType<Output>): Output {
  expect(result.isError, JSON.stringify(result.structuredContent)).toBeUndefined();
  expect(JSON.parse(result.content[0]?.text ?? '')).toEqual(result.structuredContent);
  return schema.parse(result.structuredContent);
}

/** Number of the newest audit entry of the demo account (0 when none): unchanged means nothing was written. */
export async function latestAuditId(world: ToolWorld): Promise<number> {
  const page = await world.context.domain.audit.list(world.owner, { limit: 1 });
  return page.items[0]?.id ?? 0;
}

/** The demo account's audit entries for one action on one record, newest first. */
export async function auditEntries(
  world: ToolWorld,
  action: string,
  targetId: string,
): Promise<AuditEntryView[]> {
  return (await world.context.domain.audit.list(world.owner, { action, targetId, limit: 500 })).items;
}

/** Asserts that exactly one audit entry records `action` on `targetId`, made by the owner through MCP. */
export async function expectAuditedOnce(
  world: ToolWorld,
  action: string,
  targetId: string,
): Promise<AuditEntryView> {
  const entries = await auditEntries(world, action, targetId);
  expect(entries).toHaveLength(1);
  const [entry] = entries;
  expect(entry).toMatchObject({ via: 'mcp', clientId: 'test-client', userId: world.owner.userId, targetId });
  if (entry === undefined) throw new Error('unreachable');
  return entry;
}

/** The demo listing whose name contains `text`. */
export async function listingNamed(world: ToolWorld, text: string): Promise<Listing> {
  const { items } = await world.context.domain.listings.list(world.owner, { query: text, limit: 2 });
  expect(items, `one listing named like "${text}"`).toHaveLength(1);
  const [listing] = items;
  if (listing === undefined) throw new Error('unreachable');
  return listing;
}

/** Reservations of the demo account with a night on or after `from`, in check-in order. */
export async function reservationsFrom(
  world: ToolWorld,
  from: string,
  filter: { listingId?: string; statuses?: ReservationStatus[] } = {},
): Promise<Reservation[]> {
  const page = await world.context.domain.reservations.list(world.owner, {
    startDate: from,
    limit: 500,
    ...filter,
  });
  return page.items;
}
