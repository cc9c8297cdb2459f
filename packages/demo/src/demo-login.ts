/**
 * The demo account's sign-in, published so that the web sign-in page, the docs and the CLI can offer it.
 * The demo's team member (manager@innkeep.test) and the lapsed account (lapsed@innkeep.test) use the same
 * password.
 */
export const demoLogin = { email: 'demo@innkeep.test', password: 'innkeep-demo' } as const;
