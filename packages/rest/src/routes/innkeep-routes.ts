import type { RestRoute } from '../route-definition.ts';

/** Innkeep's own operations, in the same `verbNoun` style, paged with `limit` and `cursor`. */
export const innkeepRoutes: readonly RestRoute[] = [];
