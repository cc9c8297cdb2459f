import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports no application types and is never edited once released.

/**
 * `listing_group_members.listing_name`: each member listing's name beside the membership, with an index in
 * (group, name, listing) order. Listing groups are listed with their first members by name; finding those
 * by joining every member to its listing and sorting cost more than everything else the list does, where
 * reading them from this index is one short range scan per group. Groups are listed by name from
 * `listing_groups_account_name`, which replaces the plain account index.
 *
 * Triggers keep the name exact in the transaction of every write, whichever code path writes: a new or moved
 * membership copies its listing's name, and renaming a listing renames its memberships. The copy reads the
 * name `for share`, the lock a rename conflicts with, so a membership written while the listing is being
 * renamed waits for the rename and copies the new name, and a rename waiting for a new membership sees it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table listing_group_members add column listing_name text`.execute(db);
  await sql`
    update listing_group_members m set listing_name = l.name from listings l where l.id = m.listing_id`.execute(
    db,
  );
  await sql`alter table listing_group_members alter column listing_name set not null`.execute(db);
  await sql`
    create function listing_group_members_copy_name() returns trigger language plpgsql as $$
    begin
      select l.name into new.listing_name from listings l where l.id = new.listing_id for share;
      return new;
    end
    $$`.execute(db);
  await sql`
    create trigger listing_group_members_copy_name
    before insert or update of listing_id on listing_group_members
    for each row execute function listing_group_members_copy_name()`.execute(db);
  await sql`
    create function listings_rename_group_members() returns trigger language plpgsql as $$
    begin
      update listing_group_members set listing_name = new.name
      where listing_id = new.id and listing_name is distinct from new.name;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger listings_rename_group_members
    after update of name on listings
    for each row when (old.name is distinct from new.name) execute function listings_rename_group_members()`.execute(
    db,
  );
  await sql`
    create index listing_group_members_by_name on listing_group_members (group_id, listing_name, listing_id)`.execute(
    db,
  );
  await sql`create index listing_groups_account_name on listing_groups (account_id, name, id)`.execute(db);
  await sql`drop index listing_groups_account`.execute(db);
}

/** Drops the copied names, their triggers and indexes, and restores the plain account index. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists listing_groups_account on listing_groups (account_id)`.execute(db);
  await sql`drop index if exists listing_groups_account_name`.execute(db);
  await sql`drop trigger if exists listings_rename_group_members on listings`.execute(db);
  await sql`drop function if exists listings_rename_group_members()`.execute(db);
  await sql`drop trigger if exists listing_group_members_copy_name on listing_group_members`.execute(db);
  await sql`drop function if exists listing_group_members_copy_name()`.execute(db);
  await sql`alter table listing_group_members drop column if exists listing_name`.execute(db);
}
