/**
 * Runs long jobs one after another: each waits for the one before to finish (or be abandoned).
 * A job is an async generator, so the turn passes on as soon as its consumer stops reading it.
 */
export class OneAtATime {
  private last: Promise<void> = Promise.resolve();

  async *run<T>(job: () => AsyncGenerator<T>): AsyncGenerator<T> {
    let release = () => {};
    const turn = this.last;
    this.last = new Promise<void>((resolve) => {
      release = resolve;
    });
    try {
      await turn;
      yield* job();
    } finally {
      release();
    }
  }
}
