import { correctionLabel } from '../../../shared/correction-label.js';
import type { Language } from '../../../shared/page-language.js';

/**
 * The mark a corrected value carries: a small ✱ whose tooltip and spoken text say what it replaced
 * ("corrected, was 45"). `spoken` is false where the same words are visible next to it already.
 */
export function CorrectionMark({
  previous,
  language = 'en',
  spoken = true,
}: {
  previous: string | null;
  language?: Language;
  spoken?: boolean;
}) {
  const label = correctionLabel(previous, language);
  return (
    <sup
      title={label}
      data-testid="correction-mark"
      className="ml-0.5 cursor-help text-xs font-bold text-amber-700"
      aria-hidden={spoken ? undefined : true}
    >
      <span aria-hidden="true">✱</span>
      {spoken && <span className="sr-only"> ({label})</span>}
    </sup>
  );
}
