import type { Clock } from '../src/platform/service.js';

/** A clock that stands still until a test moves it: windows end and deadlines pass without waiting. */
export interface TestClock extends Clock {
  /** Moves the time forward by `ms` milliseconds. */
  advance(ms: number): void;
  /** Sets the time (milliseconds since the epoch). */
  set(ms: number): void;
}

/**
 * A test clock starting at `startMs`: by default the start of the current hour, so a test of per-minute or per-hour
 * windows begins at the start of both and has the hour to move in, and the clock is never ahead of the time the
 * database stamps rows with.
 */
export function testClock(startMs = Math.floor(Date.now() / 3_600_000) * 3_600_000): TestClock {
  let time = startMs;
  return {
    now: () => time,
    advance(ms) {
      time += ms;
    },
    set(ms) {
      time = ms;
    },
  };
}
