import type { Channel } from '@innkeep/domain';
import {
  decideMessageDelivery,
  type MessageRuleRunner,
  newId,
  parseInput,
  renderTemplate,
  runDueMessageRulesInputSchema,
  stayRuleDefaultSendTime,
} from '@innkeep/domain';
import { sql, type Transaction } from 'kysely';
import { refreshGuestWaits } from '../analytics/guest-waits.ts';
import type { Database } from '../database.ts';
import { inTransaction } from '../transaction.ts';
import { recordEvents } from '../webhooks/record-event.ts';
import type { MessageStoreDeps } from './message-store-deps.ts';

/** How far back a due message is still sent: a down server catches up a day, a new rule skips past guests. */
const lookbackHours = 24;

/** One rule due for one reservation, with everything its text is rendered from. */
interface DueRow {
  rule_id: string;
  reservation_id: string;
  account_id: string;
  text: string;
  guest_first_name: string;
  guest_last_name: string;
  adults: number;
  children: number;
  listing_name: string;
  listing_address: string;
  listing_city: string;
  country_code: string;
  start_date: string;
  end_date: string;
  check_in_hour: number;
  check_out_hour: number;
  confirmation_code: string;
  access_code: string | null;
  channel: string;
  guest_email: string | null;
  guest_price_minor: number;
  currency: string;
  host_first_name: string | null;
}

/** The message rule runner over PostgreSQL. */
export function createMessageRuleRunner({
  db,
  clock,
  emailDelivery = false,
}: MessageStoreDeps): MessageRuleRunner {
  return {
    async runDue(rawOptions = {}) {
      const options = parseInput(runDueMessageRulesInputSchema, rawOptions);
      const now = options.now ?? clock.now();
      const since = new Date(now.getTime() - lookbackHours * 3_600_000);
      const { rows } = await dueQuery(now, since, options.limit).execute(db);
      if (rows.length === 0) return { sent: 0, skipped: 0 };
      // The waits of the threads written move in the same transaction as their messages: the caller's, when
      // it runs us inside one (the scheduled job holds its advisory lock in a transaction), else our own.
      const send = async (trx: Transaction<Database>) => {
        const sendable = await keepRulesStillActive(trx, rows);
        if (sendable.length === 0) return { due: 0, written: [] };
        const written = await trx
          .insertInto('messages')
          .values(
            sendable.map((row) => {
              const delivery = decideMessageDelivery({
                channel: row.channel as Channel,
                guestEmail: row.guest_email,
                emailDelivery,
              });
              return {
                id: newId('message'),
                account_id: row.account_id,
                reservation_id: row.reservation_id,
                sender: 'automation',
                body: renderTemplate(row.text, {
                  guestFirstName: row.guest_first_name,
                  guestLastName: row.guest_last_name,
                  adults: row.adults,
                  children: row.children,
                  listingName: row.listing_name,
                  listingAddress: row.listing_address,
                  listingCity: row.listing_city,
                  countryCode: row.country_code,
                  startDate: row.start_date,
                  endDate: row.end_date,
                  checkInHour: row.check_in_hour,
                  checkOutHour: row.check_out_hour,
                  confirmationCode: row.confirmation_code,
                  accessCode: row.access_code,
                  channel: row.channel as Channel,
                  guestPriceMinor: row.guest_price_minor,
                  currency: row.currency,
                  hostFirstName: row.host_first_name ?? '',
                }),
                sent_at: now,
                message_rule_id: row.rule_id,
                author_user_id: null,
                delivery_status: delivery.deliveryStatus,
                delivery_error: delivery.deliveryError,
                next_delivery_at: delivery.deliveryStatus === 'queued' ? now : null,
              };
            }),
          )
          // A runner on another instance may have sent some of these since we looked: the unique index
          // from migration 2026_11_21_0002 keeps its copy and drops ours.
          .onConflict((conflict) =>
            conflict
              .columns(['reservation_id', 'message_rule_id'])
              // A literal, not a parameter: PostgreSQL matches a partial index's predicate only by its text.
              .where('sender', '=', sql.lit('automation'))
              .where('message_rule_id', 'is not', null)
              .doNothing(),
          )
          .returning(['id', 'account_id', 'reservation_id', 'message_rule_id'])
          .execute();
        await refreshGuestWaits(
          trx,
          written.map((row) => row.reservation_id),
        );
        // Only the messages this run wrote: a copy another runner already sent announced itself.
        await recordEvents(
          trx,
          written.map((row) => ({
            accountId: row.account_id,
            event: 'message.created',
            data: {
              messageId: row.id,
              reservationId: row.reservation_id,
              sender: 'automation',
              messageRuleId: row.message_rule_id,
            },
          })),
        );
        return { due: sendable.length, written };
      };
      const { due, written } = db.isTransaction
        ? await send(db as Transaction<Database>)
        : await inTransaction(db, send);
      return { sent: written.length, skipped: due - written.length };
    },
  };
}

/**
 * The due rows whose rules still exist and are not paused, with those rules locked (`for key share`) until
 * the transaction ends. A rule deleted or paused since the due query ran is dropped rather than sent: without
 * the lock, a delete committing between that query and the insert would make the insert fail on the
 * foreign key, and with it the whole run. Held, the lock makes a delete or pause wait for this run instead.
 */
async function keepRulesStillActive(
  trx: Transaction<Database>,
  rows: readonly DueRow[],
): Promise<readonly DueRow[]> {
  const ruleIds = [...new Set(rows.map((row) => row.rule_id))].sort();
  const { rows: active } = await sql<{ id: string }>`
    select id from message_rules
    where id = any(${ruleIds}::text[]) and not paused
    order by id
    for key share`.execute(trx);
  const activeIds = new Set(active.map((rule) => rule.id));
  return rows.filter((row) => activeIds.has(row.rule_id));
}

/**
 * Every (rule, reservation) pair due in `(since, now]` and not yet sent, earliest first, in one statement.
 * `regular_at` is when the rule's text is due; a check-in rule with a last-minute text whose booking was
 * confirmed after that moment is due at the confirmation instead, with the last-minute text.
 * Local wall-clock arithmetic (`timestamp` + days, then `at time zone`) keeps moments on the listing's
 * clock across daylight-saving changes.
 */
function dueQuery(now: Date, since: Date, limit: number) {
  // Coarse date window so stay-dated rules only look at stays near now: offsets are at most 60 days, and
  // two more days cover any time zone's distance from UTC.
  const windowDays = 62;
  return sql<DueRow>`
    select
      mr.id as rule_id,
      r.id as reservation_id,
      r.account_id,
      case when d.last_minute then mr.last_minute_body else mr.body end as text,
      r.guest_first_name,
      r.guest_last_name,
      r.adults,
      r.children,
      l.name as listing_name,
      l.address as listing_address,
      l.city as listing_city,
      l.country_code,
      to_char(r.start_date, 'YYYY-MM-DD') as start_date,
      to_char(r.end_date, 'YYYY-MM-DD') as end_date,
      coalesce(r.check_in_time, l.check_in_time)::int as check_in_hour,
      coalesce(r.check_out_time, l.check_out_time)::int as check_out_hour,
      r.confirmation_code,
      r.access_code,
      r.channel,
      r.guest_email,
      r.guest_price_minor,
      r.currency,
      owner.first_name as host_first_name
    from message_rules mr
    join reservations r on r.account_id = mr.account_id
    join listings l on l.id = r.listing_id
    left join users owner on owner.account_id = mr.account_id and owner.role = 'owner'
    cross join lateral (
      select
        case
          when mr.trigger in ('inquiry', 'booking_confirmed', 'cancelled') then
            (case mr.trigger
              when 'inquiry' then coalesce(r.inquiry_at, r.created_at)
              when 'booking_confirmed' then coalesce(r.confirmed_at, r.created_at)
              else r.cancelled_at
            end at time zone l.time_zone) + make_interval(days => mr.offset_days)
          else
            (case when mr.trigger in ('check_in', 'during_stay') then r.start_date else r.end_date end
              + mr.offset_days)
            + coalesce(
                mr.send_time::time,
                case mr.trigger
                  when 'check_in' then make_time(coalesce(r.check_in_time, l.check_in_time), 0, 0)
                  when 'check_out' then make_time(coalesce(r.check_out_time, l.check_out_time), 0, 0)
                  else ${stayRuleDefaultSendTime}::time
                end
              )
        end as local_at
    ) e
    cross join lateral (
      select
        case
          -- An event rule with a send time waits for that time on its day, unless the event came later.
          when mr.trigger in ('inquiry', 'booking_confirmed', 'cancelled') and mr.send_time is not null
            then greatest(e.local_at, e.local_at::date + mr.send_time::time)
          else e.local_at
        end at time zone l.time_zone as regular_at
    ) m
    cross join lateral (
      select
        mr.trigger = 'check_in' and mr.last_minute_body is not null
          and r.confirmed_at is not null and r.confirmed_at > m.regular_at as last_minute
    ) d
    cross join lateral (
      select case when d.last_minute then r.confirmed_at else m.regular_at end as due_at
    ) due
    where not mr.paused
      and (mr.listing_ids is null or r.listing_id = any(mr.listing_ids))
      and (mr.channels is null or r.channel = any(mr.channels))
      and r.status = case mr.trigger
        when 'inquiry' then 'inquiry'
        when 'cancelled' then 'cancelled'
        else 'accepted'
      end
      and (mr.trigger <> 'during_stay' or r.start_date + mr.offset_days < r.end_date)
      and (
        mr.trigger in ('inquiry', 'booking_confirmed', 'cancelled')
        or (
          r.start_date < (${now}::timestamptz at time zone 'UTC')::date + ${windowDays}::int
          and r.end_date > (${since}::timestamptz at time zone 'UTC')::date - ${windowDays}::int
        )
      )
      and due.due_at <= ${now}::timestamptz
      and due.due_at > ${since}::timestamptz
      and not exists (
        select 1 from messages sent
        where sent.reservation_id = r.id
          and sent.message_rule_id = mr.id
          and sent.sender = 'automation'
      )
    order by due.due_at, mr.id, r.id
    limit ${limit}`;
}
