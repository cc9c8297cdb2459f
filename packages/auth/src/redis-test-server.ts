import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';

/**
 * A `redis-server` of one test's own, on `port`, without persistence, so that the test can kill it without
 * touching the shared Redis the other tests use.
 */
export class RedisServer {
  readonly port: number;
  #process: ChildProcessWithoutNullStreams | undefined;

  constructor(port: number) {
    this.port = port;
  }

  /** Starts it and waits until it accepts connections. */
  async start(): Promise<void> {
    const child = spawn('redis-server', [
      '--port',
      String(this.port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
    ]);
    this.#process = child;
    let output = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`redis-server exited with ${code}:\n${output}`)));
    });
  }

  /** Ends it the hard way, as a crash or a lost host would. */
  async kill(): Promise<void> {
    const child = this.#process;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
}
