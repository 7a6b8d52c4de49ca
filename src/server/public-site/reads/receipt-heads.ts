import { longDate } from '../../../shared/date-labels.js';
import { ghadiName, type Language } from '../../../shared/page-language.js';
import type { ReceiptPageData } from '../../../shared/public-page-data.js';
import { receiptPath } from '../../../shared/receipt-codes.js';
import { SITE_NAME } from '../../../shared/site.js';
import type { PageHead } from './page-heads.js';

/**
 * A receipt page's head. Kept out of search results: a page per log entry (hundreds of thousands)
 * says nothing a ghadi's month does not, and is for the one who was given the receipt. Link previews
 * still read its title and description, which name the value and whether it still stands.
 */
export function receiptHead({ receipt, found }: ReceiptPageData, language: Language): PageHead {
  const hindi = language === 'hi';
  if (found.kind === 'shared')
    return {
      language,
      title: hindi
        ? `रसीद ${receipt}: कई एंट्रियाँ | ${SITE_NAME}`
        : `Receipt ${receipt}: several entries | ${SITE_NAME}`,
      description: hindi
        ? `${found.entries.length} लॉग एंट्रियों के हैश ${receipt} से शुरू होते हैं।`
        : `${found.entries.length} log entries have hashes that begin with ${receipt}.`,
      path: receiptPath(receipt),
      noIndex: true,
    };
  const { entry, ghadi } = found;
  const name = ghadi ? ghadiName(ghadi, language) : entry.Name;
  const date = longDate(entry.Date, language);
  const standing = entry.Latest
    ? hindi
      ? 'यही मौजूदा रिज़ल्ट है।'
      : 'This is the current result.'
    : hindi
      ? `बाद में बदला गया: अब ${entry.Current?.Result ?? ''}।`
      : `Later replaced: now ${entry.Current?.Result ?? ''}.`;
  return {
    language,
    title: hindi
      ? `रसीद ${entry.Receipt} – ${name}, ${date}: ${entry.Result} | ${SITE_NAME}`
      : `Receipt ${entry.Receipt} – ${name}, ${date}: ${entry.Result} | ${SITE_NAME}`,
    description: hindi
      ? `${name} ${date} का रिज़ल्ट ${entry.Result}, घोषणा लॉग की एंट्री #${entry.seq} के रूप में। ${standing}`
      : `${name} result for ${date}: ${entry.Result}, as entry #${entry.seq} of the declaration log. ${standing}`,
    path: receiptPath(entry.Receipt),
    noIndex: true,
  };
}
