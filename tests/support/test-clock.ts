/**
 * A clock for the app's limits and throttles (BuildOptions.now) that a test moves forward instead of
 * waiting on the real one. It starts at the real time, so that what the app stores next to it (rows,
 * tokens) still reads as recent.
 */
export class TestClock {
  private time: number;

  constructor(start = Date.now()) {
    this.time = start;
  }

  readonly now = (): number => this.time;

  advance(milliseconds: number): void {
    this.time += milliseconds;
  }

  /** Moves to the start of the next clock minute (the per-minute limits' unit). */
  toNextMinute(): void {
    this.time = (Math.floor(this.time / 60_000) + 1) * 60_000;
  }
}
