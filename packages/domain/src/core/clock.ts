/** The current time, injectable so that "today" and "last minute" can be tested on fixed dates. */
export interface Clock {
  now(): Date;
}

/** The machine's clock. */
export const systemClock: Clock = { now: () => new Date() };
