/**
 * What a bell says when it cannot work (its name then), or after turning on failed (after its
 * name), in each language. Loaded only when a bell is in one of those states (notify-bell.tsx).
 */
import type { Language } from '../../../shared/page-language.js';

export interface BellNotes {
  /** The browser's settings refuse this site notifications. */
  blocked: string;
  unsupported: string;
  /** iOS sends notifications only to a site added to the Home Screen. */
  install: string;
  failed: string;
}

export const BELL_NOTES = {
  en: {
    blocked: 'Notifications blocked by this browser',
    unsupported: 'Notifications not supported here',
    install: 'For notifications, add to Home Screen first',
    failed: 'Could not turn on, try again',
  },
  hi: {
    blocked: 'ब्राउज़र ने सूचनाएँ रोकी हैं',
    unsupported: 'यहाँ सूचनाएँ नहीं मिल सकतीं',
    install: 'सूचनाओं के लिए पहले होम स्क्रीन पर जोड़ें',
    failed: 'चालू नहीं हुईं, फिर कोशिश करें',
  },
} satisfies Record<Language, BellNotes>;
