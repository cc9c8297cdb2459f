import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { generateSigningKey } from '@innkeep/auth';
import { obtainAccessToken } from '@innkeep/auth/testing';
import { freePort, isolatedEnv, serverDir, serverStartLimitMs } from './processes.ts';

/** `node src/main.ts` running as a child process, listening on 127.0.0.1. */
export interface ServerProcess {
  readonly child: ChildProcessWithoutNullStreams;
  /** Its BASE_URL, where it also listens. */
  readonly baseUrl: string;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** Settles with the exit code once the process has ended, for whatever reason. */
  readonly exited: Promise<number | null>;
  /** Gets an access token for `${baseUrl}/mcp` through the OAuth flow, as an MCP client does. */
  accessToken(person: { email: string; password: string }): Promise<string>;
  /** Sends one JSON-RPC message to /mcp with `token`. */
  mcp(token: string, message: unknown): Promise<Response>;
  /** Ends it (SIGKILL) if it still runs. */
  kill(): Promise<void>;
}

/**
 * Starts the server on a shared PostgreSQL database with keys of its own, no demo data, and `env` on top,
 * and resolves once it prints its banner.
 */
export async function startServerProcess(
  databaseUrl: string,
  env: Record<string, string> = {},
  /** Told the process as soon as it is spawned, before it is ready: it may already be at work by then. */
  onSpawn?: (child: ChildProcessWithoutNullStreams) => void,
): Promise<ServerProcess> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['src/main.ts'], {
    cwd: serverDir,
    env: isolatedEnv({
      PORT: String(port),
      HOST: '127.0.0.1',
      BASE_URL: baseUrl,
      DATABASE_URL: databaseUrl,
      SECRET_KEYS: 'fault-test-key-0123456789abcdefghijklmn',
      OIDC_SIGNING_KEY: JSON.stringify(generateSigningKey()),
      DEMO_DATA: 'false',
      LOG_LEVEL: 'warn',
      ...env,
    }),
  });
  onSpawn?.(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const server: ServerProcess = {
    child,
    baseUrl,
    output: () => output,
    exited,
    accessToken: async (person) => (await obtainAccessToken({ baseUrl, ...person })).accessToken,
    mcp: (token, message) =>
      fetch(`${baseUrl}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${token}`,
        },
        body: JSON.stringify(message),
      }),
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
  const deadline = Date.now() + serverStartLimitMs;
  while (!output.includes(`Innkeep is running at ${baseUrl}`)) {
    if (child.exitCode !== null) throw new Error(`main.ts exited with ${child.exitCode}:\n${output}`);
    if (Date.now() > deadline) {
      await server.kill();
      throw new Error(`no banner within ${serverStartLimitMs / 1000} s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return server;
}

/** A JSON-RPC `tools/call` of `name` with `args`. */
export function toolCall(id: number, name: string, args: Record<string, unknown>) {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } };
}
