import { longDate } from '../../../shared/date-labels.js';
import { dateInZone, timeInZone } from '../../../shared/dates.js';
import type { Language } from '../../../shared/page-language.js';
import { isCorrection } from '../../../shared/receipt-codes.js';
import type { DeclarationEntry } from '../../../shared/schemas/declarations.js';
import { RECEIPT_TEXT, type ReceiptText } from './receipt-text.js';

/** When an entry was declared, in the site's zone and in words: "22 November 2026, 14:32 (Asia/Kolkata time)". */
export function declaredAtText(declaredAt: string, timeZone: string, language: Language): string {
  const instant = new Date(declaredAt);
  if (Number.isNaN(instant.getTime())) return declaredAt;
  const date = longDate(dateInZone(instant, timeZone), language);
  return RECEIPT_TEXT[language].declaredAt(date, timeInZone(declaredAt, timeZone), timeZone);
}

/**
 * What an entry did: declared a result first, corrected one (naming the value it replaced), or, on an
 * open/close market, completed the open half with the close, which is no correction.
 */
export function changeText(entry: Pick<DeclarationEntry, 'Result' | 'Previous' | 'Step'>, text: ReceiptText) {
  if (entry.Previous === null) return entry.Step === 'open' ? text.firstOpen : text.first;
  return isCorrection(entry) ? text.corrected(entry.Previous) : text.completed(entry.Previous);
}
