import type { Language } from '../../../shared/page-language.js';

const DEVANAGARI = /[\u0900-\u097F]/;

/**
 * The language a name is written in, as far as a reader's voice needs to know: Devanagari reads as
 * Hindi, anything else as English. A ghadi's English name may well be written in Devanagari.
 */
export function languageOfName(name: string): Language {
  return DEVANAGARI.test(name) ? 'hi' : 'en';
}

/**
 * A ghadi's name, marked with its language where that is not the page's (a Hindi name on an English
 * page, an English one on a Hindi page), so that screen readers switch voice for it.
 */
export function NameText({ name, language }: { name: string; language: Language }) {
  const own = languageOfName(name);
  return own === language ? name : <span lang={own}>{name}</span>;
}

/** A sentence that holds a ghadi's name ("Gali Satta Result"), the name marked as NameText marks it. */
export function WithName({ text, name, language }: { text: string; name: string; language: Language }) {
  const at = name === '' ? -1 : text.indexOf(name);
  if (at < 0 || languageOfName(name) === language) return text;
  return (
    <>
      {text.slice(0, at)}
      <NameText name={name} language={language} />
      {text.slice(at + name.length)}
    </>
  );
}
