/** What a correction is called wherever it is marked: "corrected, was 45". */
export function correctionLabel(previous: string | null): string {
  return previous === null ? 'corrected' : `corrected, was ${previous}`;
}
