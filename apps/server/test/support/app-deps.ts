import { generateSigningKey } from '@innkeep/auth';
import type { AppDeps } from '../../src/app.ts';

/** The key and address settings of a test app: one signing key per test file, no proxy, no Redis. */
export const testAuthDeps: Pick<AppDeps, 'baseUrl' | 'secretKeys' | 'signingKeys' | 'trustProxy'> = {
  baseUrl: 'http://127.0.0.1:3000',
  secretKeys: ['server-test-key-0123456789abcdefghijklmn'],
  signingKeys: [generateSigningKey()],
  trustProxy: false,
};
