import type { Migration } from 'kysely/migration';
import * as oauth from './2026_11_21_1001_oauth.ts';
import * as authNotifications from './2026_11_21_1002_auth_notifications.ts';
import * as webSessions from './2026_11_27_1001_web_sessions.ts';
import * as credentialNotifications from './2026_11_27_1002_credential_notifications.ts';
import * as stepUpMarks from './2026_11_27_1003_step_up_marks.ts';

/** The auth package's migrations; they run after the domain's (names sort later). */
export const authMigrations: Readonly<Record<string, Migration>> = {
  '2026_11_21_1001_oauth': oauth,
  '2026_11_21_1002_auth_notifications': authNotifications,
  '2026_11_27_1001_web_sessions': webSessions,
  '2026_11_27_1002_credential_notifications': credentialNotifications,
  '2026_11_27_1003_step_up_marks': stepUpMarks,
};
