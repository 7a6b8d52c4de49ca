/**
 * C0 and C1 control characters (DEL among them) and the bidirectional controls (the Arabic letter
 * mark, the marks and embeddings, the isolates): what can make a stored text print as something else
 * on a terminal, in a log viewer or on the trail's page.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/** A client's text with its control characters removed. */
export function withoutControls(text: string): string {
  return text.replace(CONTROLS, '');
}

/** At most `max` characters, the last of a cut one an ellipsis. */
export function capped(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** A client's text as stored beside an account: without control characters, at most `max` long. */
export function plainText(text: string, max: number): string {
  return capped(withoutControls(text), max);
}

/**
 * What a failed sign-in keeps of a name no account has: its first two characters, an ellipsis and its
 * length (`Hu… (18)`), never the text, which may be a password typed in the wrong box.
 */
export function maskedName(typed: string): string {
  const characters = Array.from(withoutControls(typed));
  return `${characters.slice(0, 2).join('')}… (${characters.length})`;
}
