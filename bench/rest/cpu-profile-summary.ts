import { readFileSync } from 'node:fs';

// Reads a V8 .cpuprofile of the Innkeep server and sums the time each function spent on its own (self
// time), over the stretch in which /api requests ran, so `BENCH_CPU_PROF` runs print what a request costs
// without opening DevTools. The profile samples wall time: on a shared machine a function that yields the
// core (a socket write) collects time that other processes used, so compare shares within one run.

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** One line of the summary: a function (or file) and its share of the busy time. */
export interface SelfTime {
  readonly name: string;
  readonly milliseconds: number;
  /** Of the time the server was not idle, in percent. */
  readonly percent: number;
}

/** What {@link summarizeCpuProfile} found. */
export interface CpuProfileSummary {
  /** Milliseconds the server was busy between the first and the last sample inside a REST route handler. */
  readonly busyMilliseconds: number;
  readonly byFunction: readonly SelfTime[];
  readonly byFile: readonly SelfTime[];
}

// The route handler of restApi marks the stretch in which the benchmark's requests ran: startup, route
// registration and the OpenAPI document are left out.
const isRequestFrame = (frame: ProfileNode['callFrame']) =>
  frame.functionName === 'handler' && frame.url.endsWith('/packages/rest/src/rest-api.ts');

/** The `top` functions and files by self time of the profile at `path`. */
export function summarizeCpuProfile(path: string, top: number): CpuProfileSummary {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);

  const inRequest = new Map<number, boolean>();
  const isInRequest = (id: number): boolean => {
    let known = inRequest.get(id);
    if (known === undefined) {
      const parent = parents.get(id);
      const node = nodes.get(id);
      known =
        (node !== undefined && isRequestFrame(node.callFrame)) ||
        (parent !== undefined && isInRequest(parent));
      inRequest.set(id, known);
    }
    return known;
  };
  const first = profile.samples.findIndex(isInRequest);
  const last = profile.samples.findLastIndex(isInRequest);

  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  let busy = 0;
  for (let index = Math.max(0, first); index <= last; index += 1) {
    const node = nodes.get(profile.samples[index] ?? -1);
    // Each delta is the time before the next sample, spent where this one was taken.
    const micros = profile.timeDeltas[index + 1] ?? 0;
    if (node === undefined || node.callFrame.functionName === '(idle)') continue;
    busy += micros;
    const file = shortUrl(node.callFrame.url);
    const name = `${node.callFrame.functionName || '(anonymous)'} ${file}:${node.callFrame.lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
    const fileKey = file === '' ? `(${node.callFrame.functionName})` : file;
    byFile.set(fileKey, (byFile.get(fileKey) ?? 0) + micros);
  }
  const ranked = (totals: Map<string, number>): SelfTime[] =>
    [...totals]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, micros]) => ({ name, milliseconds: micros / 1000, percent: (micros / busy) * 100 }));
  return { busyMilliseconds: busy / 1000, byFunction: ranked(byFunction), byFile: ranked(byFile) };
}

/** The URL of a frame relative to the repository, or `npm:<package path>` for installed packages. */
function shortUrl(url: string): string {
  return url
    .replace(/^file:\/\/.*?\/node_modules\/\.pnpm\/[^/]+\/node_modules\//, 'npm:')
    .replace(/^file:\/\/.*?\/(packages|apps|bench)\//, '$1/');
}
