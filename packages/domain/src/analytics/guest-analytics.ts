/** Guests and prices: reviews, response times, listed prices, listing groups and the metric definitions. */
export type GuestAnalyticsUseCases = {};
