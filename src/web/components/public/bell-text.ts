/**
 * What a ghadi's notification bell says, in each language. Its name stays the same whether it is on
 * or off (aria-pressed tells which). What it says when it cannot work, or failed, is in bell-notes.ts,
 * loaded by the few browsers that need it.
 */
import type { Language } from '../../../shared/page-language.js';

/** The toggle's name: "Notify me about Gali". */
export const BELL_NAME: Record<Language, (name: string) => string> = {
  en: (name) => `Notify me about ${name}`,
  hi: (name) => `${name} की सूचना पाएँ`,
};
