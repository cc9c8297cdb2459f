/** A placeholder a message rule's text may contain, written `{{name}}`, filled in per reservation. */
export interface TemplateVariable {
  readonly name: string;
  /** One line for hosts and the help article: what the placeholder becomes. */
  readonly description: string;
  /**
   * What the placeholder becomes when the reservation has no value for it, so a guest never reads an empty
   * gap or a raw `{{name}}`; absent for variables that always have a value.
   */
  readonly whenMissing?: string;
}

/**
 * Every template variable message rules accept. A rule whose text uses any other `{{name}}` is refused,
 * so a typo is caught when the rule is written rather than in front of a guest.
 */
export const templateVariables = [
  { name: 'guest_first_name', description: "The guest's first name.", whenMissing: 'Guest' },
  { name: 'guest_last_name', description: "The guest's last name.", whenMissing: 'Guest' },
  {
    name: 'guest_full_name',
    description: "The guest's first and last name, or whichever of them is known.",
    whenMissing: 'Guest',
  },
  { name: 'guests', description: 'Number of guests staying, adults and children.' },
  { name: 'listing_name', description: "The listing's name." },
  {
    name: 'listing_address',
    description: "The listing's street address.",
    whenMissing: '(the address is in your booking confirmation)',
  },
  { name: 'listing_city', description: 'The city the listing is in.' },
  { name: 'check_in_date', description: 'The check-in date, in the listing’s time zone.' },
  { name: 'check_out_date', description: 'The check-out date, in the listing’s time zone.' },
  {
    name: 'check_in_time',
    description: 'The hour guests may arrive from: the reservation’s own, else the listing’s.',
  },
  {
    name: 'check_out_time',
    description: 'The hour guests leave by: the reservation’s own, else the listing’s.',
  },
  { name: 'nights', description: 'Number of nights of the stay.' },
  {
    name: 'confirmation_code',
    description: 'The booking’s confirmation code from the channel, or DIR-… for direct bookings.',
  },
  {
    name: 'access_code',
    description: 'The door or lock code set on the reservation.',
    whenMissing: '(your access code will follow)',
  },
  { name: 'channel', description: 'Where the guest booked: Airbnb, Vrbo, Booking.com or Direct.' },
  { name: 'total_price', description: 'What the guest pays in total, with its currency.' },
  {
    name: 'host_first_name',
    description: 'The account owner’s first name, to sign messages.',
    whenMissing: 'Your host',
  },
] as const satisfies readonly TemplateVariable[];

/** The name of one of {@link templateVariables}. */
export type TemplateVariableName = (typeof templateVariables)[number]['name'];

const knownNames: ReadonlySet<string> = new Set(templateVariables.map((variable) => variable.name));

/** The distinct `{{name}}` placeholders in `text`, in order of first appearance; spaces inside the braces are ignored. */
export function templateVariablesIn(text: string): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(/\{\{\s*([^{}]*?)\s*\}\}/g)) {
    const name = match[1] ?? '';
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

/** The placeholders in `text` that are not {@link templateVariables}. */
export function unknownTemplateVariables(text: string): string[] {
  return templateVariablesIn(text).filter((name) => !knownNames.has(name));
}
