import { addDays, dayOfWeek, daysBetween, type LocalDate, monthNames, weekdayNames } from '@innkeep/domain';
import {
  addMonths,
  dateOf,
  daysInMonth,
  describeDate,
  isRealDate,
  monthEnd,
  monthStart,
  partsOf,
  quarterOf,
  weekStart,
  yearBounds,
} from './calendar-dates.ts';
import type { DateRange, DateRangeReading } from './date-range-reading.ts';

/** Phrases the reader understands, offered to the person when it understands nothing. */
export const dateRangeExamples: readonly string[] = [
  'today',
  'tomorrow',
  'this week',
  'next weekend',
  'last month',
  'last 30 days',
  'next 7 days',
  'year to date',
  'Q3 2025',
  'March 2025',
  'June 3 - June 9',
  '12th to 15th',
  '2025-06-03 to 2025-06-09',
  'since March',
];

/** Where a phrase is read: the local today it counts from, and the time zone that today belongs to. */
export interface DateRangeContext {
  readonly today: LocalDate;
  readonly timeZone: string;
}

/**
 * Reads what a person said about dates ("next weekend", "Q3 2025", "12th to 15th", "3/6/2025") as an
 * explicit inclusive range of local dates, counting from `context.today`. Pure: no clock, no time zone
 * arithmetic (dates only, so daylight-saving changes cannot shift a day). When the phrase can mean two
 * things (day/month order), it returns both readings and a question instead of guessing.
 */
export function readDateRange(phrase: string, context: DateRangeContext): DateRangeReading {
  const base = { phrase, timeZone: context.timeZone, today: context.today };
  const outcome = readText(normalise(phrase), context.today);
  const quoted = `"${phrase.trim()}"`;
  if (outcome.kind === 'found') {
    return { status: 'resolved', ...base, ...toDateRange(quoted, outcome.found) };
  }
  if (outcome.kind === 'choice') {
    const readings = outcome.readings.map((found) => toDateRange(quoted, found));
    const options = outcome.readings.map((found) => rangeWords(found.start, found.end)).join(' or ');
    return {
      status: 'ambiguous',
      ...base,
      readings,
      question: `Which dates does ${quoted} mean: ${options}?`,
    };
  }
  return { status: 'unrecognised', ...base, message: outcome.message, examples: [...dateRangeExamples] };
}

/** A range found, with what was assumed to find it. */
interface Found {
  readonly start: LocalDate;
  readonly end: LocalDate;
  /** How an ambiguous phrase was taken, e.g. "day/month"; only for one of several readings. */
  readonly reading?: string;
  readonly notes: readonly string[];
}

type Outcome =
  | { readonly kind: 'found'; readonly found: Found }
  | { readonly kind: 'choice'; readonly readings: readonly Found[] }
  | { readonly kind: 'none'; readonly message: string };

const found = (start: LocalDate, end: LocalDate, notes: readonly string[] = []): Outcome => ({
  kind: 'found',
  found: { start, end, notes },
});

const none = (message: string): Outcome => ({ kind: 'none', message });

function toDateRange(quoted: string, range: Found): DateRange {
  const days = daysBetween(range.start, range.end) + 1;
  const size = range.start === range.end ? '' : ` (${days} days)`;
  const reading = range.reading === undefined ? '' : ` read as ${range.reading}`;
  const notes = range.notes.map((note) => ` ${note}`).join('');
  return {
    startDate: range.start,
    endDate: range.end,
    days,
    interpretation: `${quoted}${reading} is ${rangeWords(range.start, range.end)}${size}.${notes}`,
  };
}

function rangeWords(start: LocalDate, end: LocalDate): string {
  return start === end ? describeDate(start) : `${describeDate(start)} to ${describeDate(end)}`;
}

function unrecognised(): Outcome {
  return none(
    'Could not read that as dates. Ask the person for the dates another way, e.g. "June 3 to June 9", ' +
      '"next weekend", "last month" or "2025-06-03 to 2025-06-09".',
  );
}

// ---------------------------------------------------------------------------------------------------------
// Normalising: one spelling for the many ways people write the same thing.

const monthPattern =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|' +
  'oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
const weekdayPattern =
  '(mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:r(?:s(?:day)?)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?)';
const monthKeys = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const weekdayKeys = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

const monthNumber = (word: string) => monthKeys.indexOf(word.slice(0, 3)) + 1;
const weekdayNumber = (word: string) => weekdayKeys.indexOf(word.slice(0, 3));

function normalise(phrase: string): string {
  let text = phrase.normalize('NFKC').toLowerCase();
  text = text.replace(/[\u2010-\u2015\u2212]/g, '-'); // en and em dashes, minus signs
  text = text.replace(/[’‘]/g, "'");
  text = text.replace(/[,;]/g, ' ');
  text = text.replace(/(\d)(st|nd|rd|th)\b/g, '$1');
  text = text.replace(/'(\d{2})\b/g, '20$1'); // "March '25"
  text = text.replace(/\b(the|of)\b/g, ' ');
  text = text.replace(/\s+/g, ' ').trim();
  text = text.replace(/[.?!]+$/, '').trim();
  text = text.replace(/^(?:(?:for|in|during|over|on|from|between|within)\s+)+/, '');
  text = text.replace(/^this coming /, 'coming ');
  return text;
}

function readText(text: string, today: LocalDate): Outcome {
  for (const reader of phraseReaders) {
    const outcome = reader(text, today);
    if (outcome !== null) return outcome;
  }
  const single = parseSide(text, today);
  if (single !== null) return resolveSides(single, single, today);
  for (const [leftText, rightText] of rangeSplits(text)) {
    const left = parseSide(leftText, today);
    const right = parseSide(rightText, today);
    if (left !== null && right !== null) return resolveSides(left, right, today);
  }
  return unrecognised();
}

/** Every way to cut the phrase into a start and an end, words before dashes, left to right. */
function rangeSplits(text: string): [string, string][] {
  const separators = [' to ', ' until ', ' till ', ' through ', ' thru ', ' and ', ' - ', '-'];
  const splits: [string, string][] = [];
  for (const separator of separators) {
    for (let at = text.indexOf(separator); at !== -1; at = text.indexOf(separator, at + 1)) {
      const left = text.slice(0, at).trim();
      const right = text.slice(at + separator.length).trim();
      if (left !== '' && right !== '') splits.push([left, right]);
    }
  }
  return splits;
}

// ---------------------------------------------------------------------------------------------------------
// Whole phrases: named periods, rolling windows, quarters, "since …".

type PhraseReader = (text: string, today: LocalDate) => Outcome | null;

const offsets: Record<string, number> = {
  this: 0,
  current: 0,
  last: -1,
  previous: -1,
  next: 1,
  coming: 1,
  upcoming: 1,
};

const weekNote = 'Weeks start on Monday.';
const weeksStartMonday = 'weeks start on Monday';

const readNamedPeriod: PhraseReader = (text, today) => {
  const match =
    /^(?:(this|current|last|previous|next|coming|upcoming) )?(week|weekend|month|year|quarter)$/.exec(text);
  if (match === null) return null;
  const [, prefix, unit] = match;
  if (prefix === undefined && unit !== 'weekend') return null;
  const offset = offsets[prefix ?? 'this'] ?? 0;
  const { year, month } = partsOf(today);
  switch (unit) {
    case 'week': {
      const start = addDays(weekStart(today), 7 * offset);
      return found(start, addDays(start, 6), [weekNote]);
    }
    case 'weekend':
      return weekend(today, offset);
    case 'month':
      return found(monthStart(year, month, offset), monthEnd(year, month, offset));
    case 'year':
      return found(dateOf(year + offset, 1, 1), dateOf(year + offset, 12, 31));
    default: {
      const first = (quarterOf(month) - 1) * 3 + 1;
      return found(monthStart(year, first, 3 * offset), monthEnd(year, first, 3 * offset + 2), [
        'Quarters are calendar quarters (Q1 is January to March).',
      ]);
    }
  }
};

/** A weekend is the Saturday and Sunday of a Monday-to-Sunday week; `offset` counts weeks from this one. */
function weekend(today: LocalDate, offset: number): Outcome {
  const saturday = addDays(weekStart(today), 7 * offset + 5);
  const sunday = addDays(saturday, 1);
  const notes = [
    'A weekend means its Saturday and Sunday; for a stay of the Friday and Saturday nights, check in on ' +
      `${describeDate(addDays(saturday, -1))} and check out on ${describeDate(sunday)}.`,
  ];
  const weekday = dayOfWeek(today);
  if (offset === 1 && weekday >= 1 && weekday <= 5) {
    const coming = addDays(saturday, -7);
    notes.unshift(
      `That is the weekend of next week (${weeksStartMonday}); the coming weekend is ` +
        `${describeDate(coming)} and ${describeDate(addDays(coming, 1))}.`,
    );
  }
  return found(saturday, sunday, notes);
}

const periodUnits = ['week', 'month', 'quarter', 'year'] as const;

function periodStart(unit: (typeof periodUnits)[number], today: LocalDate): LocalDate {
  const { year, month } = partsOf(today);
  if (unit === 'week') return weekStart(today);
  if (unit === 'month') return monthStart(year, month);
  if (unit === 'quarter') return monthStart(year, (quarterOf(month) - 1) * 3 + 1);
  return dateOf(year, 1, 1);
}

const readToDate: PhraseReader = (text, today) => {
  const abbreviations: Record<string, (typeof periodUnits)[number]> = {
    wtd: 'week',
    mtd: 'month',
    qtd: 'quarter',
    ytd: 'year',
  };
  const match =
    /^(?:(week|month|quarter|year) to date|(wtd|mtd|qtd|ytd)|(?:this )?(week|month|quarter|year) so far|so far this (week|month|quarter|year))$/.exec(
      text,
    );
  if (match === null) return null;
  const word = match[1] ?? match[3] ?? match[4];
  const unit = periodUnits.find((candidate) => candidate === word) ?? abbreviations[match[2] ?? ''] ?? 'year';
  const notes = [`From the start of this ${unit} up to and including today.`];
  if (unit === 'week') notes.push(weekNote);
  return found(periodStart(unit, today), today, notes);
};

const numberWords: Record<string, number> = {
  a: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  fourteen: 14,
  fifteen: 15,
  twenty: 20,
  thirty: 30,
  sixty: 60,
  ninety: 90,
};

const rollingUnits = ['day', 'night', 'week', 'month', 'year'] as const;

/** Moves a date by a number of each rolling unit. */
const shifts: Record<(typeof rollingUnits)[number], (date: LocalDate, by: number) => LocalDate> = {
  day: addDays,
  night: addDays,
  week: (date, by) => addDays(date, 7 * by),
  month: addMonths,
  year: (date, by) => addMonths(date, 12 * by),
};

/**
 * The last day of a window of whole months from `today` to `later` (the same day of a later month). When
 * that day does not exist and `later` was pulled back to the month's end (31 January + 1 month =
 * 28 February), the window ends on `later` itself; otherwise on the day before it.
 */
function monthlyWindowEnd(today: LocalDate, later: LocalDate): LocalDate {
  return partsOf(later).day < partsOf(today).day ? later : addDays(later, -1);
}

/** Most units a rolling window may span; more is surely a slip. */
const maxRollingCount = 1000;

const readRolling: PhraseReader = (text, today) => {
  const match =
    /^(last|past|previous|next|coming|upcoming) (?:(\d+|[a-z]+) )?(day|night|week|month|year)s?$/.exec(text);
  if (match === null) return null;
  const [, direction, countWord, unitWord] = match;
  // "past week" is a rolling week; "last week" (no count) is the calendar week, read elsewhere.
  if (countWord === undefined && direction !== 'past') return null;
  const count =
    countWord === undefined ? 1 : /^\d+$/.test(countWord) ? Number(countWord) : numberWords[countWord];
  if (count === undefined) return null;
  if (count < 1 || count > maxRollingCount) {
    return none(`Give between 1 and ${maxRollingCount} ${unitWord}s.`);
  }
  const unit = rollingUnits.find((candidate) => candidate === unitWord) ?? 'day';
  const span = count === 1 ? unit : `${count} ${unit}s`;
  const forward = direction === 'next' || direction === 'coming' || direction === 'upcoming';
  const start = forward ? today : addDays(shifts[unit](today, -count), 1);
  let end = today;
  if (forward) {
    const later = shifts[unit](today, count);
    end = unit === 'month' || unit === 'year' ? monthlyWindowEnd(today, later) : addDays(later, -1);
  }
  if (!withinYearBounds(start) || !withinYearBounds(end)) return none(outOfBoundsMessage);
  const notes = [
    forward ? `The ${span} from today, today included.` : `The ${span} up to and including today.`,
  ];
  if (unit === 'night') {
    notes.push(
      `As a stay: check in on ${describeDate(start)}, check out on ${describeDate(addDays(end, 1))}.`,
    );
  }
  return found(start, end, notes);
};

const quarterWords: Record<string, number> = { first: 1, second: 2, third: 3, fourth: 4 };

const readQuarter: PhraseReader = (text, today) => {
  const match =
    /^(?:q([1-4])(?: (\d{4}))?|(\d{4}) q([1-4])|(first|second|third|fourth|[1-4]) quarter(?: (\d{4}))?)$/.exec(
      text,
    );
  if (match === null) return null;
  const quarterText = match[1] ?? match[4] ?? match[5] ?? '1';
  const quarter = quarterWords[quarterText] ?? Number(quarterText);
  const yearText = match[2] ?? match[3] ?? match[6];
  const year = yearText === undefined ? partsOf(today).year : Number(yearText);
  if (year < yearBounds.min || year > yearBounds.max) return none(outOfBoundsMessage);
  const first = (quarter - 1) * 3 + 1;
  const notes = [`Q${quarter} is ${monthNames[first - 1]} to ${monthNames[first + 1]}.`];
  if (yearText === undefined) notes.push(`No year was given, so this year (${year}) is assumed.`);
  return found(monthStart(year, first), monthEnd(year, first, 2), notes);
};

const readRelativeMonth: PhraseReader = (text, today) => {
  const match = new RegExp(`^(this|last|previous|next|coming) ${monthPattern}$`).exec(text);
  if (match === null) return null;
  const [, prefix, word] = match;
  const month = monthNumber(word ?? '');
  const now = partsOf(today);
  const offset = offsets[prefix ?? 'this'] ?? 0;
  // "last March" is the latest March before this month; "next March" the first after it.
  let year = now.year;
  if (offset < 0 && month >= now.month) year -= 1;
  if (offset > 0 && month <= now.month) year += 1;
  return found(monthStart(year, month), monthEnd(year, month));
};

const readSince: PhraseReader = (text, today) => {
  const match = /^since (.+)$/.exec(text);
  if (match === null) return null;
  const rest = match[1] ?? '';
  const now = partsOf(today);
  const bareWeekday = new RegExp(`^${weekdayPattern}$`).exec(rest);
  if (bareWeekday !== null) {
    // "since Monday" is the latest Monday, today included.
    const weekday = weekdayNumber(bareWeekday[1] ?? '');
    const start = addDays(today, -((dayOfWeek(today) - weekday + 7) % 7));
    return found(start, today, ['Up to and including today.']);
  }
  const bareMonth = new RegExp(`^${monthPattern}$`).exec(rest);
  if (bareMonth !== null) {
    // "since March" in January means last year's March: the latest one that has begun.
    const month = monthNumber(bareMonth[1] ?? '');
    const year = month <= now.month ? now.year : now.year - 1;
    return found(monthStart(year, month), today, [
      `From 1 ${monthNames[month - 1]} ${year} up to and including today.`,
    ]);
  }
  const inner = readText(rest, today);
  const fromStart = (range: Found): Found => ({
    ...range,
    end: today,
    notes: [...range.notes, 'Up to and including today.'],
  });
  if (inner.kind === 'found') {
    if (inner.found.start > today) {
      return none(`"since ${rest}" would start on ${describeDate(inner.found.start)}, after today.`);
    }
    return { kind: 'found', found: fromStart(inner.found) };
  }
  if (inner.kind === 'choice') {
    const readings = inner.readings.filter((range) => range.start <= today).map(fromStart);
    const [only] = readings;
    if (only === undefined) return none(`"since ${rest}" would start after today.`);
    return readings.length === 1 ? { kind: 'found', found: only } : { kind: 'choice', readings };
  }
  return inner;
};

const phraseReaders: readonly PhraseReader[] = [
  readNamedPeriod,
  readToDate,
  readRolling,
  readQuarter,
  readRelativeMonth,
  readSince,
];

// ---------------------------------------------------------------------------------------------------------
// Sides: one end of a range, or a single date, month or year, possibly with parts left out.

/** A date with parts possibly missing: no day means the whole month, no month either the whole year. */
interface LooseSide {
  readonly kind: 'loose';
  readonly year?: number;
  readonly month?: number;
  readonly day?: number;
  /** The weekday the person named with the date, checked against it. */
  readonly weekday?: number;
  readonly notes?: readonly string[];
}

/** Two numbers whose order (day/month or month/day) the text does not say. */
interface NumericSide {
  readonly kind: 'numeric';
  readonly first: number;
  readonly second: number;
  readonly year?: number;
  /** Dotted dates (3.6.2025) are written day first everywhere they are used. */
  readonly dayFirstOnly: boolean;
  readonly weekday?: number;
}

type Side = LooseSide | NumericSide;

function yearOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  return text.length === 2 ? 2000 + Number(text) : Number(text);
}

const isDay = (value: number) => value >= 1 && value <= 31;

function exact(date: LocalDate, notes: readonly string[] = []): LooseSide {
  return { kind: 'loose', ...partsOf(date), notes };
}

type SideRule = { readonly pattern: RegExp; build(match: RegExpExecArray, today: LocalDate): Side | null };

const sideRules: readonly SideRule[] = [
  { pattern: /^(?:today|tonight|now)$/, build: (_, today) => exact(today) },
  { pattern: /^tomorrow$/, build: (_, today) => exact(addDays(today, 1)) },
  { pattern: /^(?:yesterday|last night)$/, build: (_, today) => exact(addDays(today, -1)) },
  { pattern: /^day after tomorrow$/, build: (_, today) => exact(addDays(today, 2)) },
  { pattern: /^day before yesterday$/, build: (_, today) => exact(addDays(today, -2)) },
  {
    pattern: new RegExp(`^(?:(this|next|last|previous|coming) )?${weekdayPattern}$`),
    build: (match, today) => weekdaySide(match[1], weekdayNumber(match[2] ?? ''), today),
  },
  {
    pattern: /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/,
    build: (match) => loose(Number(match[1]), Number(match[2]), Number(match[3])),
  },
  { pattern: /^(\d{4})-(\d{1,2})$/, build: (match) => loose(Number(match[1]), Number(match[2])) },
  {
    pattern: /^(\d{1,2})([/.])(\d{1,2})(?:\2(\d{4}|\d{2}))?$/,
    build: (match) => numeric(match[1], match[3], match[4], match[2] === '.'),
  },
  // With dashes only when a year follows: "12-15" is a range of days, "12-15-2025" a date.
  {
    pattern: /^(\d{1,2})-(\d{1,2})-(\d{4}|\d{2})$/,
    build: (match) => numeric(match[1], match[2], match[3], false),
  },
  {
    pattern: new RegExp(`^${monthPattern} (\\d{1,2})(?: (\\d{4}))?$`),
    build: (match) => looseDay(yearOf(match[3]), monthNumber(match[1] ?? ''), Number(match[2])),
  },
  {
    pattern: new RegExp(`^(\\d{1,2}) ${monthPattern}(?: (\\d{4}))?$`),
    build: (match) => looseDay(yearOf(match[3]), monthNumber(match[2] ?? ''), Number(match[1])),
  },
  {
    pattern: new RegExp(`^${monthPattern}(?: (\\d{4}))?$`),
    build: (match) => loose(yearOf(match[2]), monthNumber(match[1] ?? '')),
  },
  { pattern: /^(\d{4})$/, build: (match) => loose(Number(match[1])) },
  { pattern: /^(\d{1,2})$/, build: (match) => looseDay(undefined, undefined, Number(match[1])) },
  {
    // A weekday before a date ("Friday June 5") is checked against the date, not used to find it.
    pattern: new RegExp(`^${weekdayPattern} (.+)$`),
    build: (match, today) => {
      const rest = parseSide(match[2] ?? '', today);
      // Only a whole date can be checked against a weekday.
      if (rest === null || (rest.kind === 'loose' && rest.day === undefined)) return null;
      return { ...rest, weekday: weekdayNumber(match[1] ?? '') };
    },
  },
];

function loose(year: number | undefined, month?: number, day?: number): LooseSide | null {
  if (month !== undefined && (month < 1 || month > 12)) return null;
  return { kind: 'loose', year, month, day };
}

function looseDay(year: number | undefined, month: number | undefined, day: number): LooseSide | null {
  return isDay(day) ? loose(year, month, day) : null;
}

function numeric(
  first: string | undefined,
  second: string | undefined,
  year: string | undefined,
  dayFirstOnly: boolean,
): NumericSide | null {
  const a = Number(first);
  const b = Number(second);
  if (!isDay(a) || !isDay(b)) return null;
  return { kind: 'numeric', first: a, second: b, year: yearOf(year), dayFirstOnly };
}

/**
 * A named weekday. Bare ("Friday"): the next one, today included. "this": the one in this Monday-to-Sunday
 * week. "next": the one in next week. "last": the latest one before today.
 */
function weekdaySide(prefix: string | undefined, weekday: number, today: LocalDate): LooseSide {
  const name = weekdayNames[weekday] ?? '';
  const inWeek = (offset: number) => addDays(weekStart(today), 7 * offset + ((weekday + 6) % 7));
  const coming = addDays(today, (weekday - dayOfWeek(today) + 7) % 7);
  if (prefix === 'this') return exact(inWeek(0), [`That is the ${name} of this week (${weeksStartMonday}).`]);
  if (prefix === 'next') {
    const date = inWeek(1);
    const nextOne = coming === today ? addDays(today, 7) : coming;
    const notes =
      nextOne === date
        ? []
        : [
            `That is the ${name} of next week (${weeksStartMonday}); the coming ${name} is ${describeDate(nextOne)}.`,
          ];
    return exact(date, notes);
  }
  if (prefix === 'last' || prefix === 'previous')
    return exact(coming === today ? addDays(today, -7) : addDays(coming, -7));
  return exact(coming);
}

function parseSide(text: string, today: LocalDate): Side | null {
  for (const rule of sideRules) {
    const match = rule.pattern.exec(text);
    if (match !== null) return rule.build(match, today);
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------------
// Resolving sides into dates: fill in the missing month and year, then check the dates exist.

const orders = [
  { name: 'day/month', dayFirst: true },
  { name: 'month/day', dayFirst: false },
] as const;

function asLoose(side: Side, dayFirst: boolean): LooseSide | null {
  if (side.kind === 'loose') return side;
  const day = dayFirst ? side.first : side.second;
  const month = dayFirst ? side.second : side.first;
  if (month > 12) return null;
  return { kind: 'loose', year: side.year, month, day, weekday: side.weekday };
}

function resolveSides(left: Side, right: Side, today: LocalDate): Outcome {
  if (left.kind === 'loose' && right.kind === 'loose') return resolvePair(left, right, today);
  const dayFirstOnly =
    (left.kind === 'numeric' && left.dayFirstOnly) || (right.kind === 'numeric' && right.dayFirstOnly);
  const tried = orders.filter((order) => order.dayFirst || !dayFirstOnly);
  const readings: Found[] = [];
  let firstFailure: Outcome | null = null;
  for (const order of tried) {
    const l = asLoose(left, order.dayFirst);
    const r = asLoose(right, order.dayFirst);
    if (l === null || r === null) continue;
    const outcome = resolvePair(l, r, today);
    if (outcome.kind !== 'found') {
      firstFailure ??= outcome;
      continue;
    }
    const duplicate = readings.some(
      (range) => range.start === outcome.found.start && range.end === outcome.found.end,
    );
    if (!duplicate) readings.push({ ...outcome.found, reading: order.name });
  }
  const [first, second] = readings;
  if (first === undefined) return firstFailure ?? unrecognised();
  if (second !== undefined) return { kind: 'choice', readings };
  // One reading: the other order was not a date (13/6), gave the same dates (6/6), or was not tried (3.6.).
  const notes = [...first.notes];
  if (readingsDiffer(left, right)) {
    notes.push(
      tried.length > 1
        ? `Read as ${first.reading}; the other order is not a date.`
        : 'Read as day.month: dotted dates are written day first.',
    );
  }
  return found(first.start, first.end, notes);
}

/** True when swapping day and month would change the dates. */
function readingsDiffer(left: Side, right: Side): boolean {
  return [left, right].some((side) => side.kind === 'numeric' && side.first !== side.second);
}

function resolvePair(left: LooseSide, right: LooseSide, today: LocalDate): Outcome {
  const now = partsOf(today);
  const notes: string[] = [];
  for (const note of [...(left.notes ?? []), ...(right.notes ?? [])])
    if (!notes.includes(note)) notes.push(note);

  // A bare day takes its month from the other end ("3-9 June", "June 3-9"), else this month.
  let leftMonth = left.month ?? (left.day === undefined ? undefined : right.month);
  let rightMonth = right.month ?? (right.day === undefined ? undefined : leftMonth);
  let monthAssumed = false;
  if (left.day !== undefined && leftMonth === undefined) {
    leftMonth = now.month;
    rightMonth ??= now.month;
    monthAssumed = true;
  }
  if (right.day !== undefined && rightMonth === undefined) {
    rightMonth = now.month;
    monthAssumed = true;
  }

  // Missing years: from the other end, else this year. A range whose end month comes before its start
  // month ("Dec 28 - Jan 3") crosses into the next year; within one month an end before the start is a slip.
  const startWith = (year: number) => startDateOf(year, leftMonth, left.day);
  const endWith = (year: number) => endDateOf(year, rightMonth, right.day);
  const crossesYear = leftMonth !== undefined && rightMonth !== undefined && rightMonth < leftMonth;
  let leftYear = left.year;
  let rightYear = right.year;
  let yearAssumed = false;
  if (leftYear === undefined && rightYear === undefined) {
    yearAssumed = true;
    leftYear = now.year;
    rightYear = crossesYear ? now.year + 1 : now.year;
  } else if (leftYear === undefined && rightYear !== undefined) {
    leftYear = crossesYear ? rightYear - 1 : rightYear;
  } else if (leftYear !== undefined && rightYear === undefined) {
    rightYear = crossesYear ? leftYear + 1 : leftYear;
  }
  const startYear = leftYear ?? now.year;
  const endYear = rightYear ?? startYear;

  const problem = sideProblem(startYear, leftMonth, left.day) ?? sideProblem(endYear, rightMonth, right.day);
  if (problem !== null) return none(problem);
  const start = startWith(startYear);
  const end = endWith(endYear);
  if (end < start) {
    return none(
      `That range ends on ${describeDate(end)}, before it starts on ${describeDate(start)}; give the earlier date first.`,
    );
  }

  for (const [side, date] of [
    [left, start],
    [right, end],
  ] as const) {
    if (side.weekday !== undefined && side.weekday !== dayOfWeek(date)) {
      const note = `Check with the person: ${describeDate(date)} is not a ${weekdayNames[side.weekday]}.`;
      if (!notes.includes(note)) notes.push(note);
    }
  }
  if (monthAssumed) {
    notes.push(`No month was given, so this month (${monthNames[now.month - 1]} ${now.year}) is assumed.`);
    if (end < today)
      notes.push('Those dates are already past; if the person meant next month’s, name the month.');
  } else if (yearAssumed) {
    notes.push(
      startYear === endYear
        ? `No year was given, so this year (${startYear}) is assumed.`
        : `No year was given, so it runs from ${startYear} into ${endYear}.`,
    );
  }
  return found(start, end, notes);
}

/** First date of a loose side: the day, else the month's first, else the year's first. */
function startDateOf(year: number, month: number | undefined, day: number | undefined): LocalDate {
  return dateOf(year, month ?? 1, day ?? 1);
}

/** Last date of a loose side: the day, else the month's last, else the year's last. */
function endDateOf(year: number, month: number | undefined, day: number | undefined): LocalDate {
  if (day !== undefined) return dateOf(year, month ?? 1, day);
  if (month !== undefined) return dateOf(year, month, daysInMonth(year, month));
  return dateOf(year, 12, 31);
}

const outOfBoundsMessage = `Only years ${yearBounds.min}–${yearBounds.max} can be read; check the year.`;

function withinYearBounds(date: LocalDate): boolean {
  const { year } = partsOf(date);
  return year >= yearBounds.min && year <= yearBounds.max;
}

/** Why a side names no real date, or null when it does. */
function sideProblem(year: number, month: number | undefined, day: number | undefined): string | null {
  if (year < yearBounds.min || year > yearBounds.max) return outOfBoundsMessage;
  if (month === undefined || day === undefined || isRealDate(year, month, day)) return null;
  const name = monthNames[month - 1] ?? '';
  const length = daysInMonth(year, month);
  const leap = month === 2 && day === 29 ? ` (${year} is not a leap year)` : '';
  return `${name} ${year} has ${length} days${leap}, so ${name} ${day} is not a date.`;
}
