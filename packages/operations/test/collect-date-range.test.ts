import { describe, expect, it } from 'vitest';
import { addMonths, daysInMonth, monthEnd, monthStart, weekStart } from '../src/dates/calendar-dates.ts';
import { dateRangeReadingSchema } from '../src/dates/date-range-reading.ts';
import { dateRangeExamples, readDateRange } from '../src/dates/read-date-range.ts';

// 2026-06-15 is a Monday (1 January 2026 was a Thursday; 1 June 2026 a Monday).
const monday = '2026-06-15';
const timeZone = 'America/Chicago';

function read(phrase: string, today = monday) {
  return dateRangeReadingSchema.parse(readDateRange(phrase, { today, timeZone }));
}

/** The resolved range of `phrase`, failing the test when it is not resolved. */
function range(phrase: string, today = monday) {
  const result = read(phrase, today);
  expect(result.status, `${phrase}: ${result.message ?? result.question ?? ''}`).toBe('resolved');
  return {
    start: result.startDate,
    end: result.endDate,
    days: result.days,
    text: result.interpretation ?? '',
  };
}

describe('calendar helpers', () => {
  it('knows month lengths, leap years included', () => {
    expect(daysInMonth(2026, 2)).toBe(28);
    expect(daysInMonth(2028, 2)).toBe(29);
    expect(daysInMonth(2100, 2)).toBe(28); // divisible by 100, not by 400
    expect(daysInMonth(2000, 2)).toBe(29);
    expect(daysInMonth(2026, 4)).toBe(30);
    expect(daysInMonth(2026, 12)).toBe(31);
  });

  it('moves across year ends and clamps month ends', () => {
    expect(monthStart(2026, 1, -1)).toBe('2025-12-01');
    expect(monthEnd(2026, 12, 1)).toBe('2027-01-31');
    expect(monthEnd(2026, 11, 3)).toBe('2027-02-28');
    expect(addMonths('2026-03-31', -1)).toBe('2026-02-28');
    expect(addMonths('2028-03-31', -1)).toBe('2028-02-29');
    expect(addMonths('2026-01-31', 13)).toBe('2027-02-28');
  });

  it('starts weeks on Monday', () => {
    expect(weekStart('2026-06-15')).toBe('2026-06-15'); // Monday
    expect(weekStart('2026-06-21')).toBe('2026-06-15'); // Sunday belongs to the week before it
    expect(weekStart('2026-01-01')).toBe('2025-12-29'); // Thursday, week crossing the year
  });
});

describe('readDateRange: single days', () => {
  it('reads today, tomorrow and yesterday in the given today', () => {
    expect(range('today')).toMatchObject({ start: monday, end: monday, days: 1 });
    expect(range('Tomorrow')).toMatchObject({ start: '2026-06-16', end: '2026-06-16' });
    expect(range('yesterday')).toMatchObject({ start: '2026-06-14', end: '2026-06-14' });
    expect(range('tomorrow', '2026-12-31')).toMatchObject({ start: '2027-01-01' });
    expect(range('yesterday', '2028-03-01')).toMatchObject({ start: '2028-02-29' });
  });

  it('reads explicit dates in the usual spellings', () => {
    for (const phrase of [
      '2025-06-03',
      'June 3 2025',
      'June 3rd, 2025',
      '3 June 2025',
      'the 3rd of June 2025',
    ]) {
      expect(range(phrase)).toMatchObject({ start: '2025-06-03', end: '2025-06-03', days: 1 });
    }
    expect(range('June 3').start).toBe('2026-06-03');
    expect(range('June 3').text).toContain('this year (2026)');
    expect(range('the 20th')).toMatchObject({ start: '2026-06-20', end: '2026-06-20' });
  });

  it('refuses dates that do not exist, saying why', () => {
    const february = read('Feb 29 2027');
    expect(february.status).toBe('unrecognised');
    expect(february.message).toContain('not a leap year');
    expect(february.examples).toEqual(dateRangeExamples);
    expect(range('Feb 29 2028')).toMatchObject({ start: '2028-02-29', end: '2028-02-29' });
    expect(read('April 31 2026').message).toContain('30 days');
    expect(read('2026-13-01').status).toBe('unrecognised');
  });

  it('reads weekday names, with "next" as the one in next week', () => {
    expect(range('friday').start).toBe('2026-06-19');
    expect(range('this friday').start).toBe('2026-06-19');
    expect(range('last friday').start).toBe('2026-06-12');
    const next = range('next Friday');
    expect(next.start).toBe('2026-06-26');
    expect(next.text).toContain('Friday 19 June 2026'); // names the coming one too
    expect(range('monday').start).toBe(monday); // today is a Monday
    expect(range('last monday').start).toBe('2026-06-08');
  });

  it('notes a weekday that does not match the date', () => {
    expect(range('Friday June 5 2026').text).not.toContain('Check with the person');
    expect(range('Friday June 3 2026').text).toContain('Wednesday 3 June 2026 is not a Friday');
  });
});

describe('readDateRange: calendar periods', () => {
  it('reads weeks as Monday to Sunday and says so', () => {
    const week = range('this week');
    expect(week).toMatchObject({ start: '2026-06-15', end: '2026-06-21', days: 7 });
    expect(week.text).toContain('Weeks start on Monday');
    expect(range('last week')).toMatchObject({ start: '2026-06-08', end: '2026-06-14' });
    expect(range('next week')).toMatchObject({ start: '2026-06-22', end: '2026-06-28' });
    // On a Sunday, "this week" is the week that ends today.
    expect(range('this week', '2026-06-21')).toMatchObject({ start: '2026-06-15', end: '2026-06-21' });
  });

  it('crosses year ends for weeks, months, quarters and years', () => {
    const saturday = '2026-01-10';
    expect(range('last week', saturday)).toMatchObject({ start: '2025-12-29', end: '2026-01-04' });
    expect(range('last month', saturday)).toMatchObject({ start: '2025-12-01', end: '2025-12-31', days: 31 });
    expect(range('last quarter', saturday)).toMatchObject({
      start: '2025-10-01',
      end: '2025-12-31',
      days: 92,
    });
    expect(range('next month', '2025-12-20')).toMatchObject({ start: '2026-01-01', end: '2026-01-31' });
    expect(range('last year', saturday)).toMatchObject({ start: '2025-01-01', end: '2025-12-31', days: 365 });
    expect(range('next year', '2027-05-05')).toMatchObject({
      start: '2028-01-01',
      end: '2028-12-31',
      days: 366,
    });
  });

  it('reads this, last and next month and year', () => {
    expect(range('this month')).toMatchObject({ start: '2026-06-01', end: '2026-06-30', days: 30 });
    expect(range('last month')).toMatchObject({ start: '2026-05-01', end: '2026-05-31', days: 31 });
    expect(range('next month')).toMatchObject({ start: '2026-07-01', end: '2026-07-31' });
    expect(range('last month', '2028-03-31')).toMatchObject({
      start: '2028-02-01',
      end: '2028-02-29',
      days: 29,
    });
    expect(range('this year')).toMatchObject({ start: '2026-01-01', end: '2026-12-31', days: 365 });
  });

  it('reads a weekend as its Saturday and Sunday, next weekend as the one of next week', () => {
    const next = range('next weekend');
    expect(next).toMatchObject({ start: '2026-06-27', end: '2026-06-28', days: 2 });
    expect(next.text).toContain('Saturday and Sunday');
    expect(next.text).toContain('Saturday 20 June 2026'); // the coming weekend, for the model to check
    expect(range('this weekend')).toMatchObject({ start: '2026-06-20', end: '2026-06-21' });
    expect(range('the weekend')).toMatchObject({ start: '2026-06-20', end: '2026-06-21' });
    expect(range('last weekend')).toMatchObject({ start: '2026-06-13', end: '2026-06-14' });
    // On the Saturday itself, "this weekend" is today and tomorrow, "next weekend" a week later.
    const saturday = '2026-06-20';
    expect(range('this weekend', saturday)).toMatchObject({ start: '2026-06-20', end: '2026-06-21' });
    const fromSaturday = range('next weekend', saturday);
    expect(fromSaturday).toMatchObject({ start: '2026-06-27', end: '2026-06-28' });
    expect(fromSaturday.text).not.toContain('coming weekend');
    // A weekend across the year end.
    expect(range('next weekend', '2026-12-28')).toMatchObject({ start: '2027-01-09', end: '2027-01-10' });
  });

  it('reads quarters, with a bare quarter in this year', () => {
    expect(range('Q3 2025')).toMatchObject({ start: '2025-07-01', end: '2025-09-30', days: 92 });
    const q1 = range('Q1');
    expect(q1).toMatchObject({ start: '2026-01-01', end: '2026-03-31', days: 90 });
    expect(q1.text).toContain('this year (2026)');
    expect(range('q1 2028')).toMatchObject({ start: '2028-01-01', end: '2028-03-31', days: 91 });
    expect(range('2025 Q4')).toMatchObject({ start: '2025-10-01', end: '2025-12-31' });
    expect(range('first quarter of 2025')).toMatchObject({ start: '2025-01-01', end: '2025-03-31' });
    expect(range('this quarter')).toMatchObject({ start: '2026-04-01', end: '2026-06-30' });
    expect(range('next quarter')).toMatchObject({ start: '2026-07-01', end: '2026-09-30' });
  });

  it('reads a bare month as that month of this year and says so', () => {
    const march = range('March');
    expect(march).toMatchObject({ start: '2026-03-01', end: '2026-03-31', days: 31 });
    expect(march.text).toContain('this year (2026)');
    const december = range('in December'); // still this year's, though it is in the future
    expect(december).toMatchObject({ start: '2026-12-01', end: '2026-12-31' });
    expect(range('March 2025')).toMatchObject({ start: '2025-03-01', end: '2025-03-31' });
    expect(range('2025-03')).toMatchObject({ start: '2025-03-01', end: '2025-03-31' });
    expect(range("Feb '28")).toMatchObject({ start: '2028-02-01', end: '2028-02-29', days: 29 });
    expect(range('February 2100')).toMatchObject({ end: '2100-02-28' });
    expect(range('last June')).toMatchObject({ start: '2025-06-01', end: '2025-06-30' });
    expect(range('next June')).toMatchObject({ start: '2027-06-01', end: '2027-06-30' });
    expect(range('last May')).toMatchObject({ start: '2026-05-01', end: '2026-05-31' });
    expect(range('2025')).toMatchObject({ start: '2025-01-01', end: '2025-12-31', days: 365 });
  });

  it('reads periods to date', () => {
    expect(range('year to date')).toMatchObject({ start: '2026-01-01', end: monday, days: 166 });
    expect(range('YTD')).toMatchObject({ start: '2026-01-01', end: monday });
    expect(range('month to date')).toMatchObject({ start: '2026-06-01', end: monday, days: 15 });
    expect(range('this quarter so far')).toMatchObject({ start: '2026-04-01', end: monday });
    expect(range('week to date', '2026-06-18')).toMatchObject({ start: monday, end: '2026-06-18', days: 4 });
  });
});

describe('readDateRange: rolling windows', () => {
  it('counts last and next N days with today included, and says so', () => {
    const last30 = range('last 30 days');
    expect(last30).toMatchObject({ start: '2026-05-17', end: monday, days: 30 });
    expect(last30.text).toContain('including today');
    expect(range('next 7 days')).toMatchObject({ start: monday, end: '2026-06-21', days: 7 });
    expect(range('the past seven days')).toMatchObject({ start: '2026-06-09', end: monday, days: 7 });
    expect(range('last 2 weeks')).toMatchObject({ start: '2026-06-02', end: monday, days: 14 });
    expect(range('past week')).toMatchObject({ start: '2026-06-09', end: monday, days: 7 });
  });

  it('crosses leap days and year ends by calendar arithmetic', () => {
    expect(range('last 30 days', '2028-03-15')).toMatchObject({ start: '2028-02-15', end: '2028-03-15' });
    expect(range('last 30 days', '2026-03-15')).toMatchObject({ start: '2026-02-14', end: '2026-03-15' });
    expect(range('next 10 days', '2026-12-27')).toMatchObject({ start: '2026-12-27', end: '2027-01-05' });
    expect(range('last 3 months', '2026-05-31')).toMatchObject({ start: '2026-03-01', end: '2026-05-31' });
    expect(range('next 1 year', '2028-02-29')).toMatchObject({ start: '2028-02-29', end: '2029-02-28' });
    expect(range('next 1 month', '2026-01-31')).toMatchObject({ start: '2026-01-31', end: '2026-02-28' });
    expect(range('next 1 month', '2026-01-15')).toMatchObject({ start: '2026-01-15', end: '2026-02-14' });
  });

  it('gives the check-out for a number of nights', () => {
    const nights = range('next 3 nights');
    expect(nights).toMatchObject({ start: monday, end: '2026-06-17', days: 3 });
    expect(nights.text).toContain('check out on Thursday 18 June 2026');
  });

  it('refuses silly counts', () => {
    expect(read('last 0 days').status).toBe('unrecognised');
    expect(read('next 5000 days').status).toBe('unrecognised');
  });
});

describe('readDateRange: ranges', () => {
  it('reads a range of days in this month, and says when it is already past', () => {
    const days = range('12th to 15th');
    expect(days).toMatchObject({ start: '2026-06-12', end: '2026-06-15', days: 4 });
    expect(days.text).toContain('this month (June 2026)');
    expect(days.text).not.toContain('already past');
    const past = range('12th to 15th', '2026-06-20');
    expect(past).toMatchObject({ start: '2026-06-12', end: '2026-06-15' });
    expect(past.text).toContain('already past');
    expect(range('12-15')).toMatchObject({ start: '2026-06-12', end: '2026-06-15' });
  });

  it('reads month-and-day ranges in their common spellings', () => {
    for (const phrase of [
      'June 3 - June 9',
      'June 3-9',
      'June 3 to 9',
      '3-9 June',
      '3 to 9 June',
      'from June 3 to June 9',
      'between June 3 and June 9',
      'Jun 3 – Jun 9',
      'June 3rd through June 9th',
    ]) {
      expect(range(phrase), phrase).toMatchObject({ start: '2026-06-03', end: '2026-06-09', days: 7 });
    }
    expect(range('Jun 28 - Jul 2')).toMatchObject({ start: '2026-06-28', end: '2026-07-02', days: 5 });
    expect(range('3-9 June 2025')).toMatchObject({ start: '2025-06-03', end: '2025-06-09' });
    expect(range('Feb 27 - Mar 2 2028')).toMatchObject({ start: '2028-02-27', end: '2028-03-02', days: 5 });
  });

  it('reads ISO ranges exactly', () => {
    expect(range('2025-06-03 to 2025-06-09')).toMatchObject({
      start: '2025-06-03',
      end: '2025-06-09',
      days: 7,
    });
    expect(range('2025-06-03 - 2025-06-09')).toMatchObject({ start: '2025-06-03', end: '2025-06-09' });
    expect(range('2025-12-30 to 2026-01-02')).toMatchObject({ days: 4 });
  });

  it('carries a range across the new year', () => {
    const newYear = range('Dec 28 - Jan 3');
    expect(newYear).toMatchObject({ start: '2026-12-28', end: '2027-01-03', days: 7 });
    expect(newYear.text).toContain('from 2026 into 2027');
    expect(range('Dec 28 2025 - Jan 3')).toMatchObject({ start: '2025-12-28', end: '2026-01-03' });
    expect(range('Dec 28 - Jan 3 2026')).toMatchObject({ start: '2025-12-28', end: '2026-01-03' });
  });

  it('refuses a range that ends before it starts', () => {
    const backwards = read('June 9 - June 3');
    expect(backwards.status).toBe('unrecognised');
    expect(backwards.message).toContain('before it starts');
  });

  it('reads relative ends and "since"', () => {
    expect(range('today to Friday')).toMatchObject({ start: monday, end: '2026-06-19', days: 5 });
    expect(range('since March')).toMatchObject({ start: '2026-03-01', end: monday });
    // In January, "since March" means last year's March: this year's has not begun.
    expect(range('since March', '2026-01-10')).toMatchObject({ start: '2025-03-01', end: '2026-01-10' });
    expect(range('since last week')).toMatchObject({ start: '2026-06-08', end: monday });
    expect(range('since Friday')).toMatchObject({ start: '2026-06-12', end: monday });
    expect(read('since next month').status).toBe('unrecognised');
  });
});

describe('readDateRange: day/month order', () => {
  it('returns both readings and a question when the order matters', () => {
    const result = read('3/6/2025');
    expect(result.status).toBe('ambiguous');
    expect(result.startDate).toBeUndefined();
    expect(result.readings?.map((reading) => [reading.startDate, reading.endDate])).toEqual([
      ['2025-06-03', '2025-06-03'],
      ['2025-03-06', '2025-03-06'],
    ]);
    expect(result.readings?.[0]?.interpretation).toContain('day/month');
    expect(result.readings?.[1]?.interpretation).toContain('month/day');
    expect(result.question).toContain('3 June 2025');
    expect(result.question).toContain('6 March 2025');
    expect(read('03-06-2025').status).toBe('ambiguous');
    expect(read('3/6/25').readings?.[0]?.startDate).toBe('2025-06-03');
  });

  it('keeps the order consistent across both ends of a range', () => {
    const result = read('3/6 - 9/6');
    expect(result.status).toBe('ambiguous');
    expect(result.readings?.map((reading) => [reading.startDate, reading.endDate])).toEqual([
      ['2026-06-03', '2026-06-09'],
      ['2026-03-06', '2026-09-06'],
    ]);
  });

  it('resolves when only one order is a date, or both give the same date', () => {
    const thirteenth = range('13/6/2025');
    expect(thirteenth).toMatchObject({ start: '2025-06-13', end: '2025-06-13' });
    expect(thirteenth.text).toContain('day/month');
    expect(range('6/13/2025')).toMatchObject({ start: '2025-06-13' });
    expect(range('6/6/2025')).toMatchObject({ start: '2025-06-06' });
    expect(range('3.6.2025')).toMatchObject({ start: '2025-06-03' }); // dotted dates are day first
    expect(read('31/2/2025').status).toBe('unrecognised');
  });
});

describe('readDateRange: dates only, so daylight saving cannot move them', () => {
  it('keeps weeks and windows that span a clock change at their full length', () => {
    // US clocks moved on Sunday 8 March 2026 and back on Sunday 1 November 2026; Europe on 29 March.
    expect(range('this week', '2026-03-08')).toMatchObject({
      start: '2026-03-02',
      end: '2026-03-08',
      days: 7,
    });
    expect(range('last 7 days', '2026-11-01')).toMatchObject({
      start: '2026-10-26',
      end: '2026-11-01',
      days: 7,
    });
    expect(range('March 2026')).toMatchObject({ days: 31 });
    expect(range('next 2 days', '2026-03-28')).toMatchObject({ start: '2026-03-28', end: '2026-03-29' });
  });
});

describe('readDateRange: what it does not understand', () => {
  it('says so and offers examples', () => {
    for (const phrase of ['soonish', 'when the kids are off school', 'week', '45th', '99/99/2025']) {
      const result = read(phrase);
      expect(result.status, phrase).toBe('unrecognised');
      expect(result.message).toBeTruthy();
      expect(result.examples?.length).toBeGreaterThan(5);
    }
  });

  it('echoes the phrase, time zone and today in every answer', () => {
    for (const phrase of ['today', '3/6/2025', 'soonish']) {
      expect(read(phrase)).toMatchObject({ phrase, timeZone, today: monday });
    }
  });

  it('understands every example it offers', () => {
    for (const example of dateRangeExamples) expect(read(example).status, example).toBe('resolved');
  });
});
