/** Runs once per `vitest run`: says out loud when the PostgreSQL variants are left out. */
export default function setup(): void {
  if (process.env.SKIP_POSTGRES === '1') {
    process.stderr.write(
      '\n  SKIP_POSTGRES=1: the PostgreSQL variants of the integration tests are skipped; ' +
        'only SQLite is tested. Unset it to test PostgreSQL too.\n\n',
    );
  }
}
