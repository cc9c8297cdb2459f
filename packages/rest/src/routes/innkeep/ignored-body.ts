import { z } from 'zod';

/**
 * The request body of a write whose path says everything (`/enableListing/:listingId`): none is needed, and
 * any sent is ignored, so a client that always sends `{}` works too.
 */
export const ignoredBodySchema = z.object({}).describe('Nothing is needed; a body, if sent, is ignored.');
