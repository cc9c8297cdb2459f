import { dayOfWeek, type LocalDate, monthNames, weekdayNames } from '../core/dates.ts';
import { currencyExponent, toMajorUnits } from '../core/money.ts';
import type { Channel } from '../listings/listings.ts';
import { type TemplateVariableName, templateVariables } from './template-variables.ts';

/** The facts of one reservation and its listing that a rule's `{{variables}}` are filled from. */
export interface TemplateFacts {
  readonly guestFirstName: string;
  readonly guestLastName: string;
  readonly adults: number;
  readonly children: number;
  readonly listingName: string;
  readonly listingAddress: string;
  readonly listingCity: string;
  /** ISO 3166 country of the listing: US listings get 12-hour times and month-first dates. */
  readonly countryCode: string;
  readonly startDate: LocalDate;
  readonly endDate: LocalDate;
  /** Hours 0–23: the reservation's own, else the listing's. */
  readonly checkInHour: number;
  readonly checkOutHour: number;
  readonly confirmationCode: string;
  readonly accessCode: string | null;
  readonly channel: Channel;
  readonly guestPriceMinor: number;
  readonly currency: string;
  readonly hostFirstName: string;
}

const channelNames: Readonly<Record<Channel, string>> = {
  airbnb: 'Airbnb',
  vrbo: 'Vrbo',
  booking: 'Booking.com',
  direct: 'Direct',
};

const fallbacks: ReadonlyMap<string, string> = new Map(
  templateVariables.flatMap((variable) =>
    'whenMissing' in variable ? [[variable.name, variable.whenMissing] as const] : [],
  ),
);

/**
 * Fills every `{{variable}}` in `text` for one reservation. Blank facts become the variable's documented
 * `whenMissing` text. Names that are not template variables stay as written: rules are validated when
 * created, so that only happens to text written some other way.
 */
export function renderTemplate(text: string, facts: TemplateFacts): string {
  const values = templateValues(facts);
  return text.replace(/\{\{\s*([^{}]*?)\s*\}\}/g, (placeholder, name: string) => {
    if (!Object.hasOwn(values, name)) return placeholder;
    const value = values[name as TemplateVariableName].trim();
    return value === '' ? (fallbacks.get(name) ?? '') : value;
  });
}

function templateValues(facts: TemplateFacts): Record<TemplateVariableName, string> {
  const usStyle = facts.countryCode.toUpperCase() === 'US';
  const guests = facts.adults + facts.children;
  return {
    guest_first_name: facts.guestFirstName,
    guest_last_name: facts.guestLastName,
    guest_full_name: `${facts.guestFirstName.trim()} ${facts.guestLastName.trim()}`,
    guests: String(guests),
    listing_name: facts.listingName,
    listing_address: facts.listingAddress,
    listing_city: facts.listingCity,
    check_in_date: formatDate(facts.startDate, usStyle),
    check_out_date: formatDate(facts.endDate, usStyle),
    check_in_time: formatHour(facts.checkInHour, usStyle),
    check_out_time: formatHour(facts.checkOutHour, usStyle),
    nights: String(Math.round((Date.parse(facts.endDate) - Date.parse(facts.startDate)) / 86_400_000)),
    confirmation_code: facts.confirmationCode,
    access_code: facts.accessCode ?? '',
    channel: channelNames[facts.channel],
    total_price: formatMoney(facts.guestPriceMinor, facts.currency),
    host_first_name: facts.hostFirstName,
  };
}

/** "Friday, June 19, 2026" in the US, "Friday, 19 June 2026" elsewhere. */
function formatDate(date: LocalDate, usStyle: boolean): string {
  const weekday = weekdayNames[dayOfWeek(date)] ?? '';
  const month = monthNames[Number(date.slice(5, 7)) - 1] ?? '';
  const day = Number(date.slice(8, 10));
  const year = date.slice(0, 4);
  return usStyle ? `${weekday}, ${month} ${day}, ${year}` : `${weekday}, ${day} ${month} ${year}`;
}

/** "4 PM" in the US, "16:00" elsewhere. */
function formatHour(hour: number, usStyle: boolean): string {
  if (!usStyle) return `${String(hour).padStart(2, '0')}:00`;
  return `${hour % 12 === 0 ? 12 : hour % 12} ${hour < 12 ? 'AM' : 'PM'}`;
}

/** "USD 1,234.50": the code rather than a symbol, since "$" alone is ambiguous across currencies. */
function formatMoney(minor: number, currency: string): string {
  const digits = currencyExponent(currency);
  const amount = toMajorUnits(minor, currency).toLocaleString('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
  return `${currency} ${amount}`;
}
