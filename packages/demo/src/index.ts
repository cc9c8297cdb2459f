// The deterministic demo-data generator: a realistic account written straight to the database.

export { demoLogin } from './demo-login.ts';
export type { DemoOptions, DemoSummary } from './seed-demo-data.ts';
export { demoExtraLogins, hasDemoAccount, scaleDemoOptions, seedDemoData } from './seed-demo-data.ts';
