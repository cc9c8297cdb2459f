import { describe, expect, it } from 'vitest';
import { createProgressPrinter, formatProgress, type ProgressStream } from '../src/progress.ts';

function fakeStream(isTTY: boolean): ProgressStream & { output: string } {
  const stream = {
    isTTY,
    output: '',
    write(chunk: string) {
      stream.output += chunk;
      return true;
    },
  };
  return stream;
}

const clear = '\u001b[K';

describe('formatProgress', () => {
  it('draws a bar and a percentage that round down', () => {
    expect(formatProgress({ phase: 'reservations', done: 10_400, total: 20_000 }, 10)).toBe(
      'reservations [#####.....] 52% 10400/20000',
    );
    expect(formatProgress({ phase: 'listings', done: 1999, total: 2000 }, 10)).toBe(
      'listings [#########.] 99% 1999/2000',
    );
    expect(formatProgress({ phase: 'listings', done: 0, total: 2000 }, 4)).toBe('listings [....] 0% 0/2000');
  });

  it('shows an empty phase as complete', () => {
    expect(formatProgress({ phase: 'reviews', done: 0, total: 0 }, 4)).toBe('reviews [####] 100% 0/0');
  });
});

describe('createProgressPrinter', () => {
  it('prints only each phase’s final state when stderr is not a terminal', () => {
    const stream = fakeStream(false);
    const printer = createProgressPrinter(stream);
    printer.update({ phase: 'listings', done: 1, total: 2 });
    printer.update({ phase: 'listings', done: 2, total: 2 });
    printer.update({ phase: 'reservations', done: 5, total: 10 });
    printer.update({ phase: 'messages', done: 1, total: 4 });
    printer.end();
    expect(stream.output).toBe(
      [
        'listings [####################] 100% 2/2',
        'reservations [##########..........] 50% 5/10',
        'messages [#####...............] 25% 1/4',
        '',
      ].join('\n'),
    );
  });

  it('redraws one line per phase on a terminal, at most every 100 ms, and never drops the last state', () => {
    const stream = fakeStream(true);
    let now = 0;
    const printer = createProgressPrinter(stream, () => now);
    printer.update({ phase: 'a', done: 0, total: 4 });
    now = 50;
    printer.update({ phase: 'a', done: 1, total: 4 }); // too soon: skipped
    now = 150;
    printer.update({ phase: 'a', done: 2, total: 4 });
    now = 160;
    printer.update({ phase: 'a', done: 3, total: 4 }); // too soon, but the phase ends next: drawn then
    printer.update({ phase: 'b', done: 1, total: 1 }); // complete: drawn at once
    printer.end();
    const bar = (event: { done: number; total: number; phase: string }) =>
      `\r${formatProgress(event)}${clear}`;
    expect(stream.output).toBe(
      [
        bar({ phase: 'a', done: 0, total: 4 }),
        bar({ phase: 'a', done: 2, total: 4 }),
        bar({ phase: 'a', done: 3, total: 4 }),
        '\n',
        bar({ phase: 'b', done: 1, total: 1 }),
        '\n',
      ].join(''),
    );
  });
});
