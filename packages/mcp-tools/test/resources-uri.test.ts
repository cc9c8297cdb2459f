import type { Listing } from '@innkeep/domain';
import { describe, expect, it } from 'vitest';
import { summarizeListings } from '../src/resources/listings-summary.ts';
import {
  listedResources,
  resolveResource,
  resourceScopes,
  resourceTemplates,
} from '../src/resources/resource-definition.ts';
import { compileUriTemplate } from '../src/resources/uri-template.ts';

describe('resource declarations', () => {
  it('lists exactly service://user and service://listings, and the three templates apart', () => {
    expect(listedResources.map((resource) => resource.uri)).toEqual(['service://user', 'service://listings']);
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual([
      'service://listings/{listingId}',
      'service://listings/{listingId}/calendar/{startDate}/{endDate}',
      'service://reservations/{reservationId}',
    ]);
    const all = [...listedResources, ...resourceTemplates];
    expect(new Set(all.map((resource) => resource.name)).size).toBe(all.length);
    for (const resource of all) {
      expect(resource.mimeType).toBe('application/json');
      expect(resource.title.length).toBeGreaterThan(0);
      expect(resource.description.length).toBeGreaterThan(40);
    }
  });

  it('declares the scopes PRODUCT.md gives each resource', () => {
    expect(resourceScopes('service://user')).toEqual(['user:read']);
    expect(resourceScopes('service://listings')).toEqual(['listings:read']);
    expect(resourceScopes('service://listings/lst_1')).toEqual(['listings:read']);
    expect(resourceScopes('service://listings/lst_1/calendar/2026-06-01/2026-06-30')).toEqual([
      'calendar:read',
    ]);
    expect(resourceScopes('service://reservations/res_1')).toEqual(['reservations:read']);
    expect(resourceScopes('service://nothing')).toBeNull();
  });
});

describe('resolveResource', () => {
  it('matches listed resources exactly, scheme and authority case-insensitively', () => {
    expect(resolveResource('service://user')?.definition.name).toBe('user');
    expect(resolveResource('SERVICE://User')?.definition.name).toBe('user');
    expect(resolveResource('service://listings')).toMatchObject({
      definition: { name: 'listings' },
      params: {},
    });
  });

  it('matches templates and decodes their variables', () => {
    expect(resolveResource('service://listings/lst_abc')).toMatchObject({
      definition: { name: 'listing' },
      params: { listingId: 'lst_abc' },
    });
    expect(resolveResource('service://listings/lst%5Fabc')?.params).toEqual({ listingId: 'lst_abc' });
    // An encoded slash stays inside the variable instead of splitting the path.
    expect(resolveResource('service://reservations/res%2Fx')).toMatchObject({
      definition: { name: 'reservation' },
      params: { reservationId: 'res/x' },
    });
    expect(resolveResource('service://listings/lst_abc/calendar/2026-06-01/2026-06-30')).toMatchObject({
      definition: { name: 'listing_calendar' },
      params: { listingId: 'lst_abc', startDate: '2026-06-01', endDate: '2026-06-30' },
    });
    // Ids are case-sensitive: only the scheme and authority are folded.
    expect(resolveResource('SERVICE://LISTINGS/LST_Abc')?.params).toEqual({ listingId: 'LST_Abc' });
  });

  it('resolves nothing else', () => {
    for (const uri of [
      'service://user/',
      'service://listings/',
      'service://listings/lst_abc/',
      'service://listings//calendar/2026-06-01/2026-06-02',
      'service://listings/lst_abc/calendar/2026-06-01',
      'service://listings/lst_abc/calendar/2026-06-01/2026-06-02/extra',
      'service://listings/lst_abc?x=1',
      'service://user#me',
      'service://reservations',
      'service://listings/%E0%A4%A',
      'http://user',
      'innkeep://listings/lst_abc',
      'service:/user',
      'user',
      '',
    ]) {
      expect(resolveResource(uri), uri).toBeNull();
    }
  });
});

describe('compileUriTemplate', () => {
  it('names the variables in order and escapes the literal parts', () => {
    const template = compileUriTemplate('a.b://x/{one}/y/{two}');
    expect(template.variables).toEqual(['one', 'two']);
    expect(template.match('a.b://x/1/y/2')).toEqual({ one: '1', two: '2' });
    expect(template.match('aXb://x/1/y/2')).toBeNull();
  });
});

function fakeListing(index: number, name: string): Listing {
  const id = `lst_${String(index).padStart(16, '0')}`;
  return {
    id,
    name,
    nickname: null,
    propertyType: 'apartment',
    address: 'Rua 1',
    city: 'Lisbon',
    region: null,
    countryCode: 'PT',
    postalCode: null,
    latitude: null,
    longitude: null,
    timeZone: 'Europe/Lisbon',
    currency: 'EUR',
    bedrooms: 1,
    bathrooms: 1,
    maxGuests: 2,
    basePrice: 100,
    minPrice: null,
    cleaningFee: 0,
    extraGuestFee: 0,
    guestsIncluded: 2,
    taxRate: 0,
    minNights: 1,
    maxNights: 30,
    checkInTime: 15,
    checkOutTime: 11,
    weeklyDiscount: 0,
    monthlyDiscount: 0,
    enabled: true,
    listingGroupIds: [],
    channels: [],
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
}

describe('summarizeListings', () => {
  it('keeps every field of a small account and adds no note', () => {
    const summary = summarizeListings([fakeListing(1, 'Flat')], false);
    expect(summary).toEqual({
      total: 1,
      complete: true,
      fields: ['id', 'name', 'city', 'timeZone', 'currency', 'basePrice', 'enabled'],
      listings: [
        {
          id: 'lst_0000000000000001',
          name: 'Flat',
          city: 'Lisbon',
          timeZone: 'Europe/Lisbon',
          currency: 'EUR',
          basePrice: 100,
          enabled: true,
        },
      ],
    });
  });

  it('drops fields, and says which, to keep 2,000 listings under 100 KB', () => {
    const listings = Array.from({ length: 2000 }, (_, index) => fakeListing(index, `Flat ${index}`));
    const summary = summarizeListings(listings, false);
    const text = JSON.stringify(summary);
    expect(text.length).toBeLessThanOrEqual(100_000);
    expect(summary.listings).toHaveLength(2000);
    expect(summary.complete).toBe(false);
    expect(summary.fields).toContain('id');
    expect(summary.fields).toContain('name');
    expect(summary.fields).not.toContain('timeZone');
    expect(summary.note).toContain('timeZone');
    expect(summary.note).toContain('get_listing');
    expect(Object.keys(summary.listings[0] ?? {})).toEqual(summary.fields);
  });

  it('keeps the first listings that fit when even ids and names are too much, and says how many', () => {
    const listings = Array.from({ length: 2000 }, (_, index) => fakeListing(index, 'x'.repeat(200)));
    const summary = summarizeListings(listings, true);
    expect(JSON.stringify(summary).length).toBeLessThanOrEqual(100_000);
    expect(summary.fields).toEqual(['id', 'name']);
    expect(summary.total).toBe(2000);
    expect(summary.listings.length).toBeGreaterThan(300);
    expect(summary.listings.length).toBeLessThan(2000);
    expect(summary.listings[0]?.id).toBe('lst_0000000000000000');
    expect(summary.note).toContain(`first ${summary.listings.length} of 2000`);
    expect(summary.note).toContain('more than 2000 listings');
    expect(summary.note).toContain('list_listings');
  });
});
