import { describe, expect, it } from 'vitest';
import { errorCatalogue, errorCodes } from '../src/core/errors.ts';
import { reportInternalFailure } from '../src/core/internal-failure.ts';

describe('the error wire table', () => {
  it('has exactly one row per error code, so no adapter meets a code it cannot translate', () => {
    expect(Object.keys(errorCatalogue).sort()).toEqual([...errorCodes].sort());
  });

  it('gives every code an HTTP error status and a JSON-RPC code for both MCP eras', () => {
    for (const code of errorCodes) {
      const { httpStatus, jsonRpcCode, jsonRpcCodeFrom2026 } = errorCatalogue[code];
      expect(httpStatus, code).toBeGreaterThanOrEqual(400);
      expect(httpStatus, code).toBeLessThan(600);
      expect(Number.isInteger(jsonRpcCode), code).toBe(true);
      expect(Number.isInteger(jsonRpcCodeFrom2026), code).toBe(true);
    }
  });

  it('keeps the refusals PRODUCT.md names: -32010/-32011/-32012, and 1010/1011/1012 from 2026-07-28', () => {
    expect(errorCatalogue.subscription_inactive).toMatchObject({
      jsonRpcCode: -32010,
      jsonRpcCodeFrom2026: 1010,
    });
    expect(errorCatalogue.insufficient_scope).toMatchObject({
      jsonRpcCode: -32011,
      jsonRpcCodeFrom2026: 1011,
    });
    expect(errorCatalogue.rate_limited).toMatchObject({ jsonRpcCode: -32012, jsonRpcCodeFrom2026: 1012 });
  });

  it('puts no 2026-era code in the range the 2026-07-28 revision reserves for the spec', () => {
    for (const code of errorCodes) {
      const modern = errorCatalogue[code].jsonRpcCodeFrom2026;
      expect(modern >= -32099 && modern <= -32000, code).toBe(false);
    }
  });
});

describe('reportInternalFailure', () => {
  it('reports the cause under the reference the message quotes, and shows nothing of the cause', () => {
    const reported: [string, unknown][] = [];
    const cause = new Error('relation "listings" does not exist');
    const failure = reportInternalFailure(cause, (reference, thrown) => reported.push([reference, thrown]));
    expect(reported).toEqual([[failure.reference, cause]]);
    expect(failure.message).toBe(
      `Something went wrong on Innkeep's side; nothing was changed. Reference: ${failure.reference}.`,
    );
    expect(failure.message).not.toContain('relation');
  });
});
