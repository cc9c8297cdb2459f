/**
 * What `initialize` tells the model about Innkeep as a whole, before it reads any tool: what the service
 * is, where to start, the conventions every tool shares, and the care writes need.
 */
export const serverInstructions = [
  'Innkeep runs a short-term-rental host’s business: listings, calendar and prices, reservations, guest ' +
    'messages, automated message and pricing rules, reviews and analytics.',
  'Start with list_listings (or read service://listings) to find listing ids; most other tools take one.',
  'Stay dates are YYYY-MM-DD in the listing’s time zone; a night is named by the date it starts, and a ' +
    'stay’s endDate is the check-out date. Money is in the listing’s currency, in major units (e.g. 120.50).',
  'Lists return a page at a time with nextCursor; pass it back as cursor for more.',
  'For questions about performance ("how did March go?", "which channel pays best?") use the get_*_stats ' +
    'tools, starting with get_headline_kpis; collect_date_range turns a phrase like "last month" into dates. ' +
    'Analytics results say their period, basis, currencies and the definitions used (get_metric_definitions).',
  'Write tools change what guests and channels see. Say what you are about to change and get the host’s ' +
    'go-ahead before calling one; cancellations and messages to guests cannot be undone.',
  'A result with isError carries structuredContent.error {code, message, details}: fix the input and retry ' +
    'for invalid_argument, pick another id for not_found, other dates for conflict.',
].join('\n');
