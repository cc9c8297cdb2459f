/** One step of a long job: `done` of `total` units of work in `phase`. */
export interface ProgressEvent {
  readonly phase: string;
  readonly done: number;
  readonly total: number;
}

/** Where progress goes: stderr, or a fake in tests. */
export interface ProgressStream {
  write(chunk: string): unknown;
  readonly isTTY?: boolean;
}

/** Draws progress and finishes the last line. */
export interface ProgressPrinter {
  update(event: ProgressEvent): void;
  end(): void;
}

/**
 * One line of progress, e.g. `reservations [#####.....] 52% 10400/20000`. The bar and the percentage round
 * down, so neither shows complete before the work is.
 */
export function formatProgress(event: ProgressEvent, width = 20): string {
  const fraction = event.total > 0 ? Math.min(1, Math.max(0, event.done / event.total)) : 1;
  const filled = Math.floor(fraction * width);
  const bar = `${'#'.repeat(filled)}${'.'.repeat(width - filled)}`;
  return `${event.phase} [${bar}] ${Math.floor(fraction * 100)}% ${event.done}/${event.total}`;
}

const redrawIntervalMs = 100;

/**
 * Prints progress for a person watching: on a terminal one line per phase redrawn in place (at most ten
 * times a second, so a fast loop is not slowed by output); elsewhere (CI logs, pipes) only each phase's
 * final state, because carriage returns turn a log into noise.
 */
export function createProgressPrinter(stream: ProgressStream, now: () => number = Date.now): ProgressPrinter {
  let current: ProgressEvent | undefined;
  let printed = true;
  let lastDrawAt = Number.NEGATIVE_INFINITY;

  const finishLine = () => {
    if (current === undefined) return;
    if (stream.isTTY) {
      if (!printed) stream.write(`\r${formatProgress(current)}\u001b[K`);
      stream.write('\n');
    } else if (!printed) {
      stream.write(`${formatProgress(current)}\n`);
    }
    current = undefined;
    printed = true;
  };

  return {
    update(event) {
      if (current !== undefined && current.phase !== event.phase) finishLine();
      current = event;
      printed = false;
      const complete = event.done >= event.total;
      if (stream.isTTY) {
        const at = now();
        if (complete || at - lastDrawAt >= redrawIntervalMs) {
          stream.write(`\r${formatProgress(event)}\u001b[K`);
          lastDrawAt = at;
          printed = true;
        }
      } else if (complete) {
        stream.write(`${formatProgress(event)}\n`);
        printed = true;
        current = undefined;
      }
    },
    end: finishLine,
  };
}
