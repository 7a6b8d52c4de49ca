/** Small statistics shared by the bench and the acceptance checks. */

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** The nearest-rank percentile (`fraction` 0.99 for p99) of values sorted ascending. */
export function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * fraction) - 1))] ?? Number.NaN
  );
}

export function ascending(values: readonly number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

/** Milliseconds with one decimal, for reports. */
export function ms(value: number): string {
  return `${value.toFixed(1)} ms`;
}

export function kilobytes(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}
