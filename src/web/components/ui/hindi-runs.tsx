import { Fragment } from 'react';

/** A run of Devanagari words (with the joiners and the spaces between them). */
const DEVANAGARI_RUN =
  /[\u0900-\u097F\uA8E0-\uA8FF\u200C\u200D]+(?:\s+[\u0900-\u097F\uA8E0-\uA8FF\u200C\u200D]+)*/g;

/**
 * Text that may hold Hindi among English (a ghadi's NameHn in an activity summary, a title typed in
 * Hindi): each Devanagari run is marked lang="hi", so that a screen reader reads it with a Hindi
 * voice and the browser picks its fonts and line breaks for it (WCAG 3.1.2).
 */
export function HindiRuns({ text }: { text: string }) {
  const parts: Array<{ text: string; hindi: boolean }> = [];
  let last = 0;
  for (const match of text.matchAll(DEVANAGARI_RUN)) {
    if (match.index > last) parts.push({ text: text.slice(last, match.index), hindi: false });
    parts.push({ text: match[0], hindi: true });
    last = match.index + match[0].length;
  }
  if (parts.length === 0) return text;
  if (last < text.length) parts.push({ text: text.slice(last), hindi: false });
  return (
    <>
      {parts.map((part, index) =>
        part.hindi ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text, never reordered.
          <span key={index} lang="hi">
            {part.text}
          </span>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text, never reordered.
          <Fragment key={index}>{part.text}</Fragment>
        ),
      )}
    </>
  );
}
