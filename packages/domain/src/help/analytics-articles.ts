// Help article on the analytics tools and the rules behind their figures.

import type { HelpArticleSource } from './help.ts';

/** How occupancy, ADR, RevPAR and the other analytics are computed, and which tool answers what. */
export const analyticsArticle: HelpArticleSource = {
  slug: 'analytics',
  title: 'Analytics: how Innkeep computes occupancy, ADR and RevPAR',
  collection: 'ai-assistants',
  summary:
    'Which analytics tool answers which question, and the rules behind every figure: sold nights, adjusted and gross occupancy, ADR, RevPAR, currencies, comparisons.',
  body: `Innkeep's analytics tools compute figures over a date range for the whole portfolio, some listings
(\`listingIds\`), a listing group (\`listingGroupId\`, see \`list_listing_groups\`) or one channel. Every result
starts with \`meta\`: the period, how events were attributed to it, the listings and currencies covered, notes,
and the ids of the definitions it used. \`get_metric_definitions\` returns each definition and the shared
conventions in full, so an assistant can quote exactly how a number was made.

## Which tool answers which question

| Question | Tool |
|---|---|
| How did we do? (the usual first call) | \`get_headline_kpis\` |
| How full were we? | \`get_occupancy_stats\` |
| How much did we earn, on which basis? | \`get_revenue_stats\` |
| What did a night sell for? | \`get_adr_stats\`, \`get_revpar_stats\` |
| Month by month, week by week | \`get_timeseries_stats\` |
| Which listings or groups do best or worst? | \`get_listing_breakdown_stats\` |
| Which channel pays best? | \`get_channel_performance\` |
| Are we ahead of last year? What did we pick up? | \`get_pace_stats\` |
| How do guests book, how far ahead, how long? | \`get_booking_pattern_stats\` |
| How many cancel? | \`get_cancellation_stats\` |
| Where do requests and inquiries stand? | \`get_reservation_status_stats\` |
| Which short gaps are hard to sell? | \`get_gap_analysis\` |
| How tight are changeovers? | \`get_turnover_stats\` |
| Who arrives and leaves when? | \`get_check_ins_check_outs\`, \`get_upcoming_reservations\` |
| Are our prices right? | \`get_pricing_stats\` |
| What do guests say? | \`get_review_stats\`, \`get_review_analytics\` |
| How fast do we answer? | \`get_response_time_stats\`, \`get_response_time_breakdown\` |

## Sold nights, counted by stay night

Only **accepted** reservations are sold: upcoming, in-house and past stays alike. Pending requests and
inquiries take part in status and cancellation figures, never in occupancy or revenue. Each sold night counts
in the period it falls in, with its own share of the stay's money: rent from the nightly rates, cleaning and
other fees spread evenly over the nights. A stay from 28 March to 2 April puts four nights and four nights'
money into March and one into April, so March and April add up to the whole stay.

## Occupancy: adjusted and gross

- **Available nights** are every listing's nights in the period from the day it was added to Innkeep (a
  listing added in March adds no nights to January), minus nights blocked for owner stays, maintenance or any
  other manual reason, and nights a channel's imported calendar holds (its stays are booked or blocked there,
  and the feed says neither the guest nor the price, so they are taken out rather than counted as sold).
- **Occupancy** (the adjusted figure, and the default) = booked nights / available nights. An owner who stays
  for a week does not make the listing look emptier.
- **Gross occupancy** = booked nights / all nights, blocks included. It is always given beside occupancy and
  shows what the blocks cost.

A month that was fully blocked has no occupancy: the figure is \`null\`, with the reason
\`no_available_nights\` in \`nullReasons\`, never a misleading 0 %. The same holds for every ratio whose
denominator is zero.

## ADR, RevPAR and the revenue bases

- **ADR** = accommodation revenue / booked nights. Accommodation is the rent after discounts; cleaning and
  other fees are left out, so ADR does not rise just because stays got shorter.
- **RevPAR** = accommodation revenue / available nights, which equals ADR × occupancy.
- The other bases: **fees** (cleaning, extra guest, pet, other), **total** = accommodation + fees, **channel
  fees** (the commission a channel keeps), **net** = total − channel fees, and **payout**. Taxes and the guest's
  service fee are never revenue.

ADR is gross of commission, so it is not like-for-like across channels; \`get_channel_performance\` adds net ADR.
Portfolio figures are ratios of sums (all booked nights / all available nights), never averages of listing
percentages.

## Currencies

Money is never added across currencies. A portfolio with listings priced in euros and dollars gets one entry
per currency, each in major units (12.34 means 12.34 EUR). Occupancy and other ratios without money cover all
listings.

## Dates, periods and comparisons

Dates are each listing's own local dates, and a period includes both \`startDate\` and \`endDate\`:
2026-03-01 to 2026-03-31 is all of March. Bookings, cancellations, messages and reviews are placed on the
listing's local date, so a review written at 23:30 in Berlin on 31 March counts in March even though it was
already April in UTC. Comparisons use the previous period of the same length, or the same dates a year
earlier (29 February becomes 28 February). Weekly buckets are ISO weeks, Monday to Sunday; a bucket the period
cuts is flagged \`partial\`.

## Listed prices, reviews and response times

- **Listed prices** are the calendar's prices as they stand today (per-date or base price, then pricing rules,
  then the minimum price). Innkeep keeps no price history, so for past nights they are today's values.
  Realisation = booked revenue / listed price of the same sold nights: 0.95 means stays sold 5 % below list.
- **Reviews** count by the date they were submitted. The review rate is the share of stays that checked out in
  the period that got a review; the reply rate the share of reviews with a host response.
- **Response time** is measured per wait: from a guest's message (after the host's last one) to the host's
  next message, in real elapsed time. The median is the headline; automated messages from message rules do
  not count as answers unless you ask for it, and one that failed or was not delivered never counts: the guest
  never got it.
`,
};
