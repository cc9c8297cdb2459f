import { ConfigError } from './config.ts';

/**
 * The app's configuration from `load`, or, when the environment is unusable, every problem on standard
 * error and exit 1 before anything starts.
 */
export function readConfigOrExit<Config>(load: () => Config): Config {
  try {
    return load();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}
