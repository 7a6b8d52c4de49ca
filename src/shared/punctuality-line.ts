/**
 * A ghadi's punctuality as its results page says it, in one line and each language. Made by the server
 * into the page's data, so that the public bundle carries the sentence and none of this code.
 */
import type { Language } from './page-language.js';
import type { PunctualityRecord } from './schemas/punctuality.js';

type Figures = Pick<
  PunctualityRecord,
  'days' | 'declared' | 'onTime' | 'medianDelayMinutes' | 'corrections' | 'imported'
>;

interface LineText {
  lead: (days: number) => string;
  declared: (declared: number, days: number) => string;
  onTime: (count: number) => string;
  /** The median delay, whole minutes after the result time (0: by it). */
  usually: (minutes: number, time: string) => string;
  corrections: (count: number) => string;
  /** Days whose value came by import; `more`: after the declared ones. */
  imported: (count: number, more: boolean) => string;
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** Minutes as "4 min", "2 h 5 min" (hours once an hour or more: a day late reads as hours). */
function span(minutes: number, hour: string, minute: string): string {
  const [hours, rest] = [Math.floor(minutes / 60), minutes % 60];
  if (hours === 0) return `${rest} ${minute}`;
  return rest === 0 ? `${hours} ${hour}` : `${hours} ${hour} ${rest} ${minute}`;
}

const TEXT: Record<Language, LineText> = {
  en: {
    lead: (days) => `Last ${days} days: `,
    declared: (declared, days) => `declared on ${declared} of ${plural(days, 'day', 'days')}`,
    onTime: (count) => `, ${count} on time`,
    usually: (minutes, time) =>
      minutes === 0 ? `usually by ${time}` : `usually ${span(minutes, 'h', 'min')} after ${time}`,
    corrections: (count) => plural(count, 'correction', 'corrections'),
    imported: (count, more) =>
      `${more ? `${count} more` : plural(count, 'day', 'days')} imported, without a declaration time`,
  },
  hi: {
    lead: (days) => `पिछले ${days} दिन: `,
    declared: (declared, days) => `${days} में से ${declared} दिन रिज़ल्ट घोषित`,
    onTime: (count) => `, ${count} समय पर`,
    usually: (minutes, time) =>
      minutes === 0 ? `आम तौर पर ${time} तक` : `आम तौर पर ${time} के ${span(minutes, 'घंटे', 'मिनट')} बाद`,
    corrections: (count) => `${count} सुधार`,
    imported: (count, more) => `${count} ${more ? 'और दिन' : 'दिन'} इम्पोर्ट से, बिना घोषणा-समय के`,
  },
};

/**
 * "Last 30 days: declared on 28 of 30 days, 26 on time; usually 4 min after 1:45 PM; 1 correction",
 * or null when there is nothing to say yet (a new ghadi). `time` is the ghadi's RTime as it shows it.
 */
export function punctualityLine(
  figures: Figures,
  time: string,
  language: Language,
  spanDays: number,
): string | null {
  const text = TEXT[language];
  const { days, declared, onTime, medianDelayMinutes, corrections, imported } = figures;
  if (days === 0 && imported === 0) return null;
  const parts: string[] = [];
  if (days > 0) parts.push(text.declared(declared, days) + (onTime === null ? '' : text.onTime(onTime)));
  if (medianDelayMinutes !== null) parts.push(text.usually(Math.round(medianDelayMinutes), time));
  if (corrections > 0) parts.push(text.corrections(corrections));
  if (imported > 0) parts.push(text.imported(imported, days > 0));
  return text.lead(spanDays) + parts.join('; ');
}
