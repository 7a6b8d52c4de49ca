import type { Language } from './page-language.js';

/** What a correction is called wherever it is marked: "corrected, was 45" ("सुधारा गया, पहले 45 था"). */
export function correctionLabel(previous: string | null, language: Language = 'en'): string {
  if (language === 'hi') return previous === null ? 'सुधारा गया' : `सुधारा गया, पहले ${previous} था`;
  return previous === null ? 'corrected' : `corrected, was ${previous}`;
}
