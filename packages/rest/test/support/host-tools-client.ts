// A Host Tools REST client written from /work/shared/reference/hosttools-rest.md alone (§1–§3, §5): the
// calls, bodies and fields real integrations use, and nothing of Innkeep's. Like them, it throws on any
// answer that is not ok, with the body's `message`.

/** The Host Tools record shapes, as far as clients read them (§3). */
export interface HostToolsListing {
  _id: string;
  userID: string;
  name: string;
  timeZone?: string;
  currency?: string;
  basePrice?: number;
  minNights?: number;
  checkInTime?: number;
}

/** A reservation as Host Tools clients read it (§3). */
export interface HostToolsReservation {
  _id: string;
  userID: string;
  status: 'accepted' | 'pending' | 'cancelled' | 'inquiry';
  listingID?: string;
  startDate?: string;
  endDate?: string;
  firstName?: string;
  lastName?: string;
  phone?: string;
  confirmationCode?: string;
  source?: string;
  lockCode?: string;
  hostPayout?: number;
  guestPrice?: number;
  notes?: string;
  posts?: { _id: string; message: string; isGuest: boolean; sentTimestamp?: string }[];
}

/** How the client authenticates: an OAuth access token, or an authToken (with an optional apiKey). */
export type HostToolsCredentials = { bearer: string } | { authToken: string; apiKey?: string };

/** One Host Tools integration pointed at a base URL, using camelCase or lower-case paths as real clients do. */
export class HostToolsClient {
  private readonly baseUrl: string;
  private readonly credentials: HostToolsCredentials;
  private readonly casing: 'camel' | 'lower';

  constructor(baseUrl: string, credentials: HostToolsCredentials, casing: 'camel' | 'lower' = 'camel') {
    this.baseUrl = baseUrl;
    this.credentials = credentials;
    this.casing = casing;
  }

  getUser() {
    return this.call<{ userID: string; email: string; firstName?: string; lastName?: string }>(
      'GET',
      '/getUser',
    );
  }

  getListings(window?: { startDate: string; endDate: string }) {
    const query = window === undefined ? '' : `?startDate=${window.startDate}&endDate=${window.endDate}`;
    return this.call<{ listings: HostToolsListing[]; userID: string }>('GET', `/getListings${query}`);
  }

  getListing(listingId: string) {
    return this.call<HostToolsListing>('GET', `/getListing/${listingId}`);
  }

  setListing(listingId: string, changes: Record<string, unknown>) {
    return this.call<{ success: boolean }>('POST', `/setListing/${listingId}`, changes);
  }

  getCalendar(listingId: string, startDate: string, endDate: string) {
    return this.call<{
      userID: string;
      listingID: string;
      currency: string;
      prices: Record<string, Record<string, { price?: number; minNights?: number }>>;
    }>('GET', `/getCalendar/${listingId}/${startDate}/${endDate}`);
  }

  setPrices(listingId: string, prices: { date: string; price?: number; minNights?: number }[]) {
    return this.call<{ success: boolean }>('POST', `/setPrices/${listingId}`, { prices });
  }

  listingGroups() {
    return this.call<{ _id: string; name: string; ownerImportLink: string | null }[]>(
      'GET',
      '/listingGroups',
    );
  }

  getListingGroup(groupId: string) {
    return this.call<{ _id: string; name: string; ownerImportLink: string | null }>(
      'GET',
      `/getListingGroup/${groupId}`,
    );
  }

  getReservations(listingId: string, startDate: string, endDate: string) {
    return this.call<{ reservations: HostToolsReservation[]; userID: string }>(
      'GET',
      `/getReservations/${listingId}/${startDate}/${endDate}`,
    );
  }

  getReservation(reservationId: string) {
    return this.call<HostToolsReservation>('GET', `/getReservation/${reservationId}`);
  }

  createReservation(body: Record<string, unknown>) {
    return this.call<{ success: boolean; reservationID: string }>('POST', '/createReservation', body);
  }

  setReservation(reservationId: string, changes: Record<string, unknown>) {
    return this.call<{ success: boolean }>('POST', `/setReservation/${reservationId}`, changes);
  }

  cancelReservation(reservationId: string) {
    return this.call<{ success: boolean }>('POST', `/cancelReservation/${reservationId}`, {});
  }

  getQuote(listingId: string, body: { startDate: string; endDate: string; guests: { adults: number } }) {
    return this.call<{
      listingID: string;
      currency: string;
      reservation: { startDate: string; endDate: string; nights: number };
      basePrice: number;
      total: number;
      lineItems: { label: string; amount: number; type: string }[];
    }>('POST', `/getQuote/${listingId}`, body);
  }

  sendMessage(reservationId: string, message: string) {
    return this.call<{ success: boolean }>('POST', `/sendMessage/${reservationId}`, { message });
  }

  getReviews(listingId: string) {
    return this.call<{
      count: number;
      listingID: string;
      reviews: {
        channel: string;
        rating: number;
        confirmationCode: string;
        comments: string;
        createdAt: string;
      }[];
    }>('GET', `/getReviews/${listingId}`);
  }

  getWebhook() {
    return this.call<{ webhookURL: string | null }>('GET', '/getWebhook');
  }

  setWebhook(webhookURL: string) {
    return this.call<{ success: boolean }>('POST', '/setWebhook', { webhookURL });
  }

  deleteWebhook() {
    return this.call<{ success: boolean }>('DELETE', '/deleteWebhook');
  }

  private async call<Answer>(method: string, path: string, body?: unknown): Promise<Answer> {
    const [route = '', query] = path.split('?');
    const segments = route.split('/');
    // Lower-case clients write the operation name in lower case; ids keep their case.
    if (this.casing === 'lower') segments[1] = segments[1]?.toLowerCase() ?? '';
    const url = `${this.baseUrl}/api${segments.join('/')}${query === undefined ? '' : `?${query}`}`;
    const headers: Record<string, string> =
      'bearer' in this.credentials
        ? { authorization: `Bearer ${this.credentials.bearer}` }
        : {
            authToken: this.credentials.authToken,
            ...(this.credentials.apiKey === undefined ? {} : { apiKey: this.credentials.apiKey }),
          };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(url, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const answer = (await response.json()) as Answer & { message?: string };
    if (!response.ok) throw new Error(`${method} ${path} → ${response.status}: ${answer.message}`);
    return answer;
  }
}
