import type { ServiceConfig } from './config.ts';
import { DataDirInUseError } from './data-dir-lock.ts';
import { explainDatabaseError } from './database.ts';
import { RedisUnavailableError } from './redis.ts';

/**
 * A sentence for a start-up failure that an operator fixes without reading a stack trace: a busy DATA_DIR,
 * Redis or the database not answering, the port taken. Undefined for anything else, which is printed in full.
 */
export function knownStartupProblem(
  error: unknown,
  config: Pick<ServiceConfig, 'port' | 'host'>,
): string | undefined {
  if (error instanceof DataDirInUseError || error instanceof RedisUnavailableError) return error.message;
  if (error instanceof Error && 'code' in error && error.code === 'EADDRINUSE') {
    return `port ${config.port} on ${config.host} is already in use; stop the other process or set PORT.`;
  }
  return explainDatabaseError(error);
}
