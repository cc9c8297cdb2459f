import { z } from 'zod';
import { blockReasons } from '../calendar/holds.ts';
import { reservationStatuses } from '../reservations/reservation-status.ts';
import { comparisonKinds, granularities } from './analytics-filters.ts';
import { attributionBases, nullReasonSchema, nullReasons } from './analytics-result.ts';
import {
  type MetricDefinitionId,
  metricDefinitionIdSchema,
  metricDefinitionIds,
} from './metric-definition-ids.ts';

// The rules every analytics result cites by id in `meta.definitions`, as data: get_metric_definitions returns
// them as they are written here, so this file is the contract the analytics SQL must keep.

/** One rule of the analytics: what a figure means and how it is computed. */
export const metricDefinitionSchema = z.object({
  id: metricDefinitionIdSchema,
  name: z.string(),
  formula: z.string().describe('How the figure is computed, in words and symbols.'),
  basis: z.enum(attributionBases).describe('How events are attributed to the period.'),
  statuses: z
    .array(z.enum(reservationStatuses))
    .describe('Reservation statuses counted; empty when the rule is not about reservations.'),
  numerator: z.string().nullable().describe('What is added up on top of a ratio; null when not a ratio.'),
  denominator: z.string().nullable().describe('What it is divided by; null when not a ratio.'),
  nullPolicy: z.object({
    rule: z.string().describe('When the figure is null instead of a number.'),
    reasons: z.array(nullReasonSchema).describe('The nullReasons values it can carry.'),
  }),
  units: z.string(),
  sourceNotes: z.array(z.string()).describe('Where the data comes from, and its known limits.'),
});
/** A {@link metricDefinitionSchema} value. */
export type MetricDefinition = z.infer<typeof metricDefinitionSchema>;

/** The conventions every analytics tool follows, for a machine to read. */
export const analyticsConventionsSchema = z.object({
  soldStatuses: z
    .array(z.enum(reservationStatuses))
    .describe('Statuses performance figures count as sold (live).'),
  calendarHoldingStatuses: z
    .array(z.enum(reservationStatuses))
    .describe('Statuses whose nights are taken off the calendar (sold or requested).'),
  blockReasonsOutOfSupply: z
    .array(z.enum(blockReasons))
    .describe('Block reasons whose nights leave available nights (adjusted occupancy).'),
  weekendNights: z.array(z.string()).describe('Nights counted as weekend nights, named by their start date.'),
  ratioDecimals: z.number().int().describe('Ratios and shares are rounded to this many decimals.'),
  attributionBases: z.array(z.object({ basis: z.enum(attributionBases), meaning: z.string() })),
  revenueBases: z.array(z.object({ basis: z.string(), includes: z.string() })),
  nullReasons: z.array(z.object({ reason: nullReasonSchema, meaning: z.string() })),
  comparisons: z.array(z.object({ kind: z.enum(comparisonKinds), rule: z.string() })),
  granularities: z.array(z.object({ granularity: z.enum(granularities), rule: z.string() })),
  rules: z.array(z.string()).describe('Every convention in words.'),
});
/** A {@link analyticsConventionsSchema} value. */
export type AnalyticsConventions = z.infer<typeof analyticsConventionsSchema>;

/** Input of get_metric_definitions. */
export const metricDefinitionsInputSchema = z.object({
  ids: z
    .array(metricDefinitionIdSchema)
    .min(1)
    .max(metricDefinitionIds.length)
    .optional()
    .describe('Only these definition ids; all when omitted.'),
});
/** Input of {@link metricDefinitionsInputSchema}. */
export type MetricDefinitionsInput = z.input<typeof metricDefinitionsInputSchema>;

/** Result of get_metric_definitions. */
export const metricDefinitionsResultSchema = z.object({
  definitions: z.array(metricDefinitionSchema).describe('In catalogue order.'),
  conventions: analyticsConventionsSchema,
});
/** A {@link metricDefinitionsResultSchema} value. */
export type MetricDefinitionsResult = z.infer<typeof metricDefinitionsResultSchema>;

const noNulls = { rule: 'Never null.', reasons: [] };
const sold = ['accepted'] as const satisfies readonly (typeof reservationStatuses)[number][];
const nightsOfFacts = 'stay_night_facts: one row per sold night, kept in every reservation write.';

/** Every definition, one per {@link metricDefinitionIds} entry, in the same order. */
export const metricDefinitions: readonly MetricDefinition[] = [
  {
    id: 'local_dates',
    name: 'Listing-local dates',
    formula:
      'A night is named by the listing-local date it starts on; a stay covers check-in … check-out − 1. ' +
      'Periods are startDate … endDate with both ends included. An event timestamp (booking, cancellation, ' +
      'message, review) becomes a date or hour only in its listing’s own time zone.',
    basis: 'none',
    statuses: [],
    numerator: null,
    denominator: null,
    nullPolicy: noNulls,
    units: 'YYYY-MM-DD dates; timestamps in UTC ISO 8601',
    sourceNotes: [
      'listings.time_zone (IANA) of each listing; a portfolio across zones evaluates each listing on its own clock.',
      '"Today" is each listing’s local today, so it can differ between listings.',
      'Durations (response times) are measured in absolute time, so daylight-saving changes do not affect them.',
    ],
  },
  {
    id: 'stay_night_attribution',
    name: 'Stay-night attribution',
    formula:
      'Each sold night inside the period counts once, with its own share of the stay’s money: rent from the ' +
      'nightly rates; stay-level fees, channel fees and payout split evenly over the nights, spare cents to ' +
      'the earliest nights (largest remainder), so the nights add up to the stay exactly.',
    basis: 'stay_night',
    statuses: [...sold],
    numerator: null,
    denominator: null,
    nullPolicy: noNulls,
    units: 'nights; money in major units per currency',
    sourceNotes: [
      nightsOfFacts,
      'A stay crossing the period’s edge contributes only its nights inside the period.',
    ],
  },
  {
    id: 'live_statuses',
    name: 'Sold (live) reservations',
    formula:
      'Performance figures count reservations with status accepted (upcoming, in-house and completed stays ' +
      'alike). Pending requests and inquiries are not sold; declined, expired and cancelled reservations appear ' +
      'only in cancellation and status figures.',
    basis: 'none',
    statuses: [...sold],
    numerator: null,
    denominator: null,
    nullPolicy: noNulls,
    units: 'reservations',
    sourceNotes: [
      'Pending (requested) reservations do hold their nights on the calendar: those nights are not open, but not sold.',
    ],
  },
  {
    id: 'ratio_of_sums',
    name: 'Ratio of sums',
    formula:
      'A ratio over several listings, channels or days is Σ numerator / Σ denominator, never a mean of the ' +
      'parts’ ratios. Ratios and shares are rounded to 4 decimals (0.8123 = 81.23 %).',
    basis: 'none',
    statuses: [],
    numerator: 'Σ numerator over the scope',
    denominator: 'Σ denominator over the scope',
    nullPolicy: { rule: 'Null when the summed denominator is 0.', reasons: [...nullReasons] },
    units: 'ratio, 4 decimals',
    sourceNotes: [
      'Group figures are computed from the group’s summed nights and money, never from listing ratios.',
    ],
  },
  {
    id: 'null_policy',
    name: 'Null figures',
    formula:
      'A figure that cannot be computed (zero denominator, nothing to measure) is null, never 0, and a ' +
      'sibling nullReasons object names the reason for each null field.',
    basis: 'none',
    statuses: [],
    numerator: null,
    denominator: null,
    nullPolicy: {
      rule: 'See conventions.nullReasons for what each reason means.',
      reasons: [...nullReasons],
    },
    units: 'none',
    sourceNotes: ['An empty month has no occupancy; it does not have 0 % occupancy.'],
  },
  {
    id: 'currency_policy',
    name: 'Currencies',
    formula:
      'Money is never added across currencies: every money figure is given per currency (entries sorted by ' +
      'currency code), in major units, computed from exact integer sums of minor units and rounded once.',
    basis: 'none',
    statuses: [],
    numerator: null,
    denominator: null,
    nullPolicy: noNulls,
    units: 'major units of each ISO 4217 currency',
    sourceNotes: [
      'No exchange rates are applied. Ratios that mix no money (occupancy) cover all currencies.',
      'meta.currencies lists the currencies a result contains.',
    ],
  },
  {
    id: 'comparison_periods',
    name: 'Comparison periods',
    formula:
      'previous_period: the same number of nights ending the night before the period. same_period_last_year: ' +
      'the same calendar dates one year earlier, 29 February becoming 28 February. Relative change = ' +
      '(current − baseline) / |baseline|.',
    basis: 'none',
    statuses: [],
    numerator: 'current − baseline',
    denominator: '|baseline|',
    nullPolicy: {
      rule: 'A relative change is null when the baseline is 0 or itself null.',
      reasons: ['no_baseline'],
    },
    units: 'ratio, 4 decimals (0.1 = +10 %)',
    sourceNotes: ['Comparison figures are computed with exactly the same rules as the asked period.'],
  },
  {
    id: 'available_nights',
    name: 'Calendar and available nights',
    formula:
      'calendar nights = Σ over listings in scope of the period’s nights from the day the listing became ' +
      'active. available nights = calendar nights − blocked nights (owner, maintenance, manual and channel ' +
      'blocks: channel = nights a channel’s imported calendar holds). ' +
      'Booked nights are inside available nights.',
    basis: 'calendar_date',
    statuses: [],
    numerator: null,
    denominator: null,
    nullPolicy: noNulls,
    units: 'listing-nights',
    sourceNotes: [
      'Active from the listing’s creation date in its own time zone, as market-data providers count a ' +
        'listing onboarded mid-period.',
      'calendar_holds of kind block, by block_reason.',
      'Supply is not per channel: with a channel filter, available nights stay the whole calendar’s.',
    ],
  },
  {
    id: 'occupancy_adjusted',
    name: 'Occupancy (adjusted)',
    formula: 'booked nights / available nights',
    basis: 'stay_night',
    statuses: [...sold],
    numerator: 'sold nights in the period',
    denominator: 'available nights (calendar − owner, maintenance, manual and channel blocks)',
    nullPolicy: { rule: 'Null when there are no available nights.', reasons: ['no_available_nights'] },
    units: 'ratio, 4 decimals',
    sourceNotes: [
      nightsOfFacts,
      'The default occupancy. Gross occupancy is always given beside it.',
      'A booking overlapping a block is not possible: holds never overlap.',
    ],
  },
  {
    id: 'occupancy_gross',
    name: 'Occupancy (gross)',
    formula: 'booked nights / calendar nights',
    basis: 'stay_night',
    statuses: [...sold],
    numerator: 'sold nights in the period',
    denominator: 'calendar nights (blocks included)',
    nullPolicy: { rule: 'Null when there are no calendar nights.', reasons: ['no_calendar_nights'] },
    units: 'ratio, 4 decimals',
    sourceNotes: ['Shows what owner stays and maintenance cost in occupancy.'],
  },
  {
    id: 'revenue_bases',
    name: 'Revenue bases',
    formula:
      'accommodation = rent after discounts; fees = cleaning + extra guest + pet + other fees; total = ' +
      'accommodation + fees; channel fees = the host service fee (commission) the channel keeps; net = total − ' +
      'channel fees; payout = what the channel pays the host.',
    basis: 'stay_night',
    statuses: [...sold],
    numerator: null,
    denominator: null,
    nullPolicy: noNulls,
    units: 'major units per currency',
    sourceNotes: [
      'Taxes, guest service fees and deposits are never revenue.',
      nightsOfFacts,
      'Money from cancelled reservations is not revenue here.',
    ],
  },
  {
    id: 'adr',
    name: 'ADR (average daily rate)',
    formula: 'accommodation revenue / booked nights, both by stay night',
    basis: 'stay_night',
    statuses: [...sold],
    numerator: 'accommodation revenue of the sold nights in the period',
    denominator: 'sold nights in the period',
    nullPolicy: { rule: 'Null when no night was sold.', reasons: ['no_booked_nights'] },
    units: 'major units per currency',
    sourceNotes: [
      'Fees are left out so ADR does not depend on stay length; total and net revenue are given beside it.',
    ],
  },
  {
    id: 'revpar',
    name: 'RevPAR',
    formula: 'accommodation revenue / available nights (= ADR × adjusted occupancy)',
    basis: 'stay_night',
    statuses: [...sold],
    numerator: 'accommodation revenue of the sold nights in the period',
    denominator: 'available nights',
    nullPolicy: { rule: 'Null when there are no available nights.', reasons: ['no_available_nights'] },
    units: 'major units per currency',
    sourceNotes: ['Per currency: the available nights are those of the listings in that currency.'],
  },
  {
    id: 'timeseries_buckets',
    name: 'Series buckets',
    formula:
      'A series cuts the period into days, ISO weeks (Monday to Sunday, keyed by the Monday) or calendar ' +
      'months (keyed YYYY-MM), clipped to the period; a bucket the period covers only partly has partial = true ' +
      'and counts only its nights inside the period, so the buckets add up to the period.',
    basis: 'stay_night',
    statuses: [],
    numerator: null,
    denominator: null,
    nullPolicy: {
      rule: 'Each bucket follows the null rules of its figures.',
      reasons: [...nullReasons],
    },
    units: 'buckets',
    sourceNotes: [
      'Partial buckets are not comparable with whole ones as totals; compare their ratios.',
      'A series compared with last year uses the same dates for months and 364 days back for days and weeks, ' +
        'so weekdays match.',
    ],
  },
  {
    id: 'alos',
    name: 'Average length of stay',
    formula:
      'Σ nights / count over sold reservations checking in during the period, whole stays (nights after the ' +
      'period included); median given beside it',
    basis: 'check_in',
    statuses: [...sold],
    numerator: 'nights of the stays checking in during the period',
    denominator: 'sold reservations checking in during the period',
    nullPolicy: { rule: 'Null when no sold stay checks in during the period.', reasons: ['no_reservations'] },
    units: 'nights',
    sourceNotes: ['The check-in cohort counts each stay once, in the period it starts.'],
  },
  {
    id: 'lead_time',
    name: 'Lead time',
    formula:
      'check-in date − listing-local date the reservation was confirmed (its creation date when never ' +
      'confirmed), in days; mean and median over sold reservations checking in during the period',
    basis: 'check_in',
    statuses: [...sold],
    numerator: 'Σ lead days of the cohort',
    denominator: 'sold reservations checking in during the period',
    nullPolicy: { rule: 'Null when no sold stay checks in during the period.', reasons: ['no_reservations'] },
    units: 'days',
    sourceNotes: ['The median of an even count is the mean of the two middle values.'],
  },
  {
    id: 'on_the_books',
    name: 'On the books (as of a moment)',
    formula:
      'For each reservation, its latest change-log snapshot taken at or before the moment; those then ' +
      'accepted count, with the nights, dates and money of that snapshot inside the period.',
    basis: 'as_of_date',
    statuses: [...sold],
    numerator: null,
    denominator: null,
    nullPolicy: {
      rule: 'Ratios over on-the-books figures are null on a zero denominator.',
      reasons: ['no_booked_nights', 'no_available_nights'],
    },
    units: 'nights; major units per currency',
    sourceNotes: [
      'reservation_changes: an append-only snapshot of every reservation change (dates, status, money).',
      'Rent: the books as of today at the nightly rates, as in the revenue tools; earlier books (last year, ' +
        'pickup) spread each stay’s rent evenly over its nights, as snapshots keep only stay totals.',
    ],
  },
  {
    id: 'pace',
    name: 'Pace',
    formula:
      'on the books now for the period vs on the books at the same moment one year earlier for the same ' +
      'calendar dates one year earlier (29 February → 28 February); difference and relative change',
    basis: 'as_of_date',
    statuses: [...sold],
    numerator: 'this year − last year',
    denominator: '|last year|',
    nullPolicy: {
      rule: 'The relative change is null when last year had nothing on the books.',
      reasons: ['no_baseline'],
    },
    units: 'nights; major units per currency',
    sourceNotes: ['Reconstructed from the reservation change log, so edits and cancellations are replayed.'],
  },
  {
    id: 'pickup',
    name: 'Pickup',
    formula:
      'on the books for the period at the end of a window − on the books at its start (net); new bookings and ' +
      'cancellations inside the window given beside it',
    basis: 'as_of_date',
    statuses: [...sold],
    numerator: null,
    denominator: null,
    nullPolicy: noNulls,
    units: 'nights; reservations; major units per currency',
    sourceNotes: ['From the reservation change log.'],
  },
  {
    id: 'cancellation_rate',
    name: 'Cancellation rate',
    formula:
      'cancelled / (cancelled + sold), over reservations checking in during the period (or, when asked, ' +
      'booked during it); also by nights and rent as booked',
    basis: 'check_in',
    statuses: ['accepted', 'cancelled'],
    numerator: 'cancelled reservations that were to check in during the period',
    denominator: 'cancelled + sold reservations checking in during the period',
    nullPolicy: { rule: 'Null when no such reservation exists.', reasons: ['no_reservations'] },
    units: 'ratio, 4 decimals',
    sourceNotes: [
      'Inquiries, pending requests, declined and expired reservations are not in the cohort.',
      'Recent cohorts may still change: future stays can still be cancelled.',
    ],
  },
  {
    id: 'status_breakdown',
    name: 'Status breakdown',
    formula: 'count, nights and money of the reservations per status, cancelled split by who cancelled',
    basis: 'check_in',
    statuses: [...reservationStatuses],
    numerator: null,
    denominator: null,
    nullPolicy: noNulls,
    units: 'reservations; nights; major units per currency',
    sourceNotes: ['Money of non-sold reservations is the value they had, not revenue.'],
  },
  {
    id: 'channel_performance',
    name: 'Channel performance',
    formula:
      'per channel: sold nights and their share, revenue bases and their share, ADR, net ADR, ALOS, lead ' +
      'time, cancellation rate; effective commission = channel fees / total revenue; net ADR = ADR × (1 − ' +
      'effective commission), i.e. channel fees charged against rent and fees in proportion to their amounts',
    basis: 'stay_night',
    statuses: ['accepted', 'cancelled'],
    numerator: null,
    denominator: null,
    nullPolicy: {
      rule: 'Each figure follows its own rule; shares are null when the whole is 0.',
      reasons: ['no_booked_nights', 'no_reservations'],
    },
    units: 'mixed; see the figures',
    sourceNotes: [
      'Night and money figures by stay night; ALOS, lead time and cancellation rate by check-in cohort.',
      'Gross ADR is not like-for-like across channels whose commission models differ; compare net ADR.',
    ],
  },
  {
    id: 'booking_patterns',
    name: 'Booking patterns',
    formula:
      'sold reservations checking in during the period by booking weekday (listing-local), check-in weekday, ' +
      'lead-time bucket (0–1, 2–7, 8–14, 15–30, 31–60, 61–90, 91–180, 181+ days), length-of-stay bucket (1, 2, ' +
      '3, 4–6, 7–13, 14–27, 28+ nights) and guest count',
    basis: 'check_in',
    statuses: [...sold],
    numerator: null,
    denominator: null,
    nullPolicy: { rule: 'Shares are null when the cohort is empty.', reasons: ['no_reservations'] },
    units: 'reservations; shares',
    sourceNotes: ['Counts reservations, not nights.'],
  },
  {
    id: 'gap_analysis',
    name: 'Gaps and orphan nights',
    formula:
      'gap = maximal run of open nights between two held nights (an accepted or pending reservation, or a ' +
      'block) on a listing; orphan when shorter than the minimum stay of its first night, or at most ' +
      'maxGapNights; lost value ≈ orphan nights × their listed price',
    basis: 'calendar_date',
    statuses: ['pending', 'accepted'],
    numerator: null,
    denominator: null,
    nullPolicy: noNulls,
    units: 'gaps; nights; major units per currency',
    sourceNotes: [
      'Gaps are looked up past the period’s edges, so a gap cut by the period keeps its real length.',
      'Totals split at each listing’s today: past orphan nights are lost, future ones can still be sold.',
      'Orphan nights are valued at the per-date price, else the base price, never below the minimum price; ' +
        'pricing rules are not applied (pricing_stats applies them).',
    ],
  },
  {
    id: 'turnover',
    name: 'Turnovers',
    formula:
      'turnover = a sold check-out (and, when asked, the end of an owner block); turnaround = the next sold ' +
      'check-in on the listing − the check-out, in days; same-day (0) means back-to-back; same-day rate = ' +
      'same-day turnovers / turnovers',
    basis: 'check_out',
    statuses: [...sold],
    numerator: 'same-day turnovers',
    denominator: 'turnovers in the period',
    nullPolicy: { rule: 'The rate is null without turnovers.', reasons: ['no_reservations'] },
    units: 'turnovers; days',
    sourceNotes: ['The next check-in is looked up past the period’s end.'],
  },
  {
    id: 'check_ins_check_outs',
    name: 'Arrivals, departures and stayovers',
    formula:
      'arrivals on d: sold stays with check-in = d; departures: check-out = d; stayovers: check-in < d < check-out',
    basis: 'calendar_date',
    statuses: [...sold],
    numerator: null,
    denominator: null,
    nullPolicy: noNulls,
    units: 'reservations',
    sourceNotes: ['Listing-local dates.'],
  },
  {
    id: 'upcoming_reservations',
    name: 'Upcoming reservations',
    formula:
      'sold stays checking in on or after each listing’s local today, plus stays in house, by check-in',
    basis: 'check_in',
    statuses: [...sold],
    numerator: null,
    denominator: null,
    nullPolicy: noNulls,
    units: 'reservations',
    sourceNotes: ['"Today" is per listing.'],
  },
  {
    id: 'pricing_stats',
    name: 'Listed prices and realisation',
    formula:
      'listed price of a night = the calendar’s effective price: the per-date price (calendar_days) or the ' +
      'listing’s base price, then every enabled pricing rule that applies, in order, then the minimum-price ' +
      'floor. Over open nights (no reservation, request or block): mean, median, min, max per currency, also ' +
      'for weekday (Sun–Thu) and weekend (Fri, Sat) nights. Booked ADR = accommodation revenue / sold nights; ' +
      'realisation = Σ accommodation revenue / Σ listed price over the same sold nights.',
    basis: 'stay_night',
    statuses: [...sold],
    numerator: 'realisation: accommodation revenue of the sold nights',
    denominator: 'realisation: listed prices of the same nights',
    nullPolicy: {
      rule:
        'Listed figures are null without open nights; booked ADR, listed mean and realisation without sold ' +
        'nights; realisation also when the listed prices add up to 0.',
      reasons: ['no_open_nights', 'no_booked_nights', 'no_baseline'],
    },
    units: 'major units per currency; realisation a ratio, 4 decimals',
    sourceNotes: [
      'Innkeep keeps no price history: listed prices of past nights are today’s calendar values, with ' +
        'last-minute rules judged from today and gap rules from today’s calendar.',
      'Listed prices exclude fees and per-channel prices (channel markups); a channel filter narrows the sold ' +
        'nights only.',
      'A sold night never gets a gap (orphan) discount, as on the calendar.',
    ],
  },
  {
    id: 'review_stats',
    name: 'Review figures',
    formula:
      'over reviews submitted in the period (listing-local date): count, mean overall rating, 1–5 distribution, ' +
      '5-star share, mean of each category over the reviews rating it; reply rate = reviews with a host ' +
      'response / reviews; reply time = response − submission, mean in hours; review rate = completed sold ' +
      'stays (check-out in the period, up to today) with a review / those stays',
    basis: 'review_date',
    statuses: [...sold],
    numerator: 'reply rate: answered reviews; review rate: reviewed completed stays',
    denominator: 'reply rate: reviews; review rate: completed stays',
    nullPolicy: {
      rule:
        'Rating figures and reply rate are null without reviews; reply time without responses; review rate ' +
        'without completed stays.',
      reasons: ['no_reviews', 'no_responses', 'no_completed_stays'],
    },
    units: 'stars (1–5, 2 decimals); ratios 4 decimals; hours 1 decimal',
    sourceNotes: [
      'Ratings are stored on a 5-point scale for every channel.',
      'A review is answered when it has a host response; Innkeep records the response and its time together.',
      'A channel filter uses the review’s channel, and the stay’s channel for the review rate.',
      'Guests review for some days after check-out, so the latest stays lower the review rate for a while.',
    ],
  },
  {
    id: 'response_time',
    name: 'Response time',
    formula:
      'A wait starts with a guest message that opens the thread or follows a host message; further guest ' +
      'messages before the host answers belong to it. Response time = the host’s next message − the wait’s ' +
      'first guest message. Median (default), mean and p90 over answered waits; share answered within 1 h ' +
      'and within 24 h (response rate) over all waits, unanswered ones counting as misses once the hour or ' +
      'day has passed.',
    basis: 'message_time',
    statuses: [...reservationStatuses],
    numerator: 'shares: waits answered within 1 h / 24 h',
    denominator:
      'shares: answered waits + unanswered waits older than 1 h / 24 h (younger ones may still be answered in time)',
    nullPolicy: {
      rule: 'Times are null without answered waits; shares without waits.',
      reasons: ['no_responses', 'no_guest_messages'],
    },
    units: 'minutes, 1 decimal; shares 4 decimals',
    sourceNotes: [
      'One thread per reservation (inquiries included). A wait belongs to the period of the listing-local date ' +
        'of its first guest message.',
      'Automated messages (message rules) do not answer a wait unless countAutomatedReplies is true, and one ' +
        'whose delivery failed never does; automatedFirst counts the waits in which one went out before the host ' +
        'replied. System messages are ignored.',
      'Stage: inquiry when the guest wrote before the booking was confirmed (or it never was), else booked.',
      'Measured in absolute time, so replies across a daylight-saving change are not an hour off.',
    ],
  },
];

/** The conventions every analytics result follows. */
export const analyticsConventions: AnalyticsConventions = {
  soldStatuses: ['accepted'],
  calendarHoldingStatuses: ['pending', 'accepted'],
  blockReasonsOutOfSupply: [...blockReasons],
  weekendNights: ['Friday', 'Saturday'],
  ratioDecimals: 4,
  attributionBases: [
    { basis: 'stay_night', meaning: 'Each sold night in the period, with its pro-rated share of the money.' },
    { basis: 'check_in', meaning: 'Reservations whose check-in date falls in the period; whole stays.' },
    { basis: 'check_out', meaning: 'Reservations whose check-out date falls in the period.' },
    { basis: 'booking_date', meaning: 'Reservations by the listing-local date they were booked.' },
    { basis: 'as_of_date', meaning: 'The state of the books at a moment, replayed from the change log.' },
    { basis: 'review_date', meaning: 'Reviews by the listing-local date they were submitted.' },
    { basis: 'message_time', meaning: 'Guest messages by the listing-local date and hour they were sent.' },
    { basis: 'calendar_date', meaning: 'Calendar nights of the period, whatever holds them.' },
    { basis: 'none', meaning: 'Not attributed to dates (definitions, listing groups).' },
  ],
  revenueBases: [
    { basis: 'accommodation', includes: 'Rent after discounts; the basis of ADR and RevPAR.' },
    { basis: 'fees', includes: 'Cleaning, extra-guest, pet and other host fees.' },
    { basis: 'total', includes: 'accommodation + fees (no taxes, no guest service fees).' },
    { basis: 'channel_fees', includes: 'The host service fee (commission) the channel keeps.' },
    { basis: 'net', includes: 'total − channel_fees.' },
    { basis: 'payout', includes: 'What the channel pays out to the host.' },
  ],
  nullReasons: [
    { reason: 'no_calendar_nights', meaning: 'No listing nights in the period (no listings in scope).' },
    { reason: 'no_available_nights', meaning: 'Every night of the period was blocked.' },
    { reason: 'no_booked_nights', meaning: 'No night was sold in the period.' },
    { reason: 'no_reservations', meaning: 'No reservation in the cohort the figure counts.' },
    { reason: 'no_baseline', meaning: 'The comparison or reference value is 0 or null.' },
    { reason: 'no_reviews', meaning: 'No review was submitted in the period.' },
    { reason: 'no_completed_stays', meaning: 'No sold stay checked out in the period (up to today).' },
    { reason: 'no_responses', meaning: 'Nothing was answered, so there is no time to measure.' },
    { reason: 'no_open_nights', meaning: 'No open (unbooked, unblocked) night in the period.' },
    { reason: 'no_guest_messages', meaning: 'No guest message started a wait in the period.' },
  ],
  comparisons: [
    { kind: 'previous_period', rule: 'The same number of nights ending the night before the period starts.' },
    {
      kind: 'same_period_last_year',
      rule: 'The same calendar dates one year earlier; 29 February becomes 28 February.',
    },
  ],
  granularities: [
    { granularity: 'day', rule: 'One bucket per night, keyed YYYY-MM-DD.' },
    { granularity: 'week', rule: 'ISO weeks, Monday to Sunday, keyed by the Monday.' },
    { granularity: 'month', rule: 'Calendar months, keyed YYYY-MM.' },
  ],
  rules: [
    'Sold (live) = status accepted. Pending and inquiry reservations are not sold; pending ones still hold nights.',
    'Performance figures attribute by stay night: each sold night in the period with its pro-rated money.',
    'Occupancy is adjusted by default: booked / available nights, owner, maintenance, manual and channel blocks out of ' +
      'the denominator; gross occupancy (booked / calendar nights) is given beside it.',
    'ADR and RevPAR use accommodation revenue (rent after discounts), never fees or taxes.',
    'Revenue bases: accommodation; fees (cleaning, extra guest, pet, other); total = accommodation + fees; ' +
      'channel fees = host service fee; net = total − channel fees; payout = host payout.',
    'Ratios are ratios of sums, rounded to 4 decimals; a zero denominator gives null with a reason in nullReasons.',
    'Money is per currency, never added across currencies, in major units from exact minor-unit sums.',
    'Dates are listing-local; periods include both startDate and endDate; event times become dates in the ' +
      'listing’s time zone.',
    'Comparisons: previous_period (same length, just before) and same_period_last_year (same dates, Feb 29 → 28).',
    'Series use days, ISO weeks or months, clipped to the period, with partial buckets flagged; compared with ' +
      'last year, months use the same dates and days and weeks 364 days back.',
    'Pace and pickup are replayed from the reservation change log.',
    'Gaps are looked up past the period’s edges; orphan nights are valued at their per-date or base price.',
    'Listed prices are today’s calendar prices: there is no price history for past nights.',
    'Response time: per wait, the host’s next message − the guest’s first message, in absolute time; automated ' +
      'messages do not count as replies unless asked.',
  ],
};

/** The definitions asked for (all of them without `ids`), in catalogue order, and the conventions. */
export function selectMetricDefinitions(
  ids: readonly MetricDefinitionId[] | undefined,
): MetricDefinitionsResult {
  const wanted = ids === undefined ? null : new Set(ids);
  return {
    definitions: metricDefinitions.filter((definition) => wanted === null || wanted.has(definition.id)),
    conventions: analyticsConventions,
  };
}
