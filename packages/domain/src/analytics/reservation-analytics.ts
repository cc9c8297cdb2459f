/** Reservation flow: pace, cancellations, statuses, booking patterns, gaps, turnovers, arrivals, upcoming. */
export type ReservationAnalyticsUseCases = {};
