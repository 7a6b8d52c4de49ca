import type { DailyStatsEntry, GhadiStatsEntry } from '../../../shared/schemas/site-stats.js';

/** "28 Nov": a day of the site's zone as the plots' axes and summaries name it. */
const DAY_FORMAT = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });

export function dayLabel(date: string): string {
  const instant = Date.parse(`${date}T00:00:00Z`);
  return Number.isNaN(instant) ? date : DAY_FORMAT.format(instant);
}

export const count = (value: number) => value.toLocaleString('en-IN');
export const percent = (rate: number) => `${Math.round(rate * 100)}%`;
export const minutesText = (minutes: number) => `${minutes.toLocaleString('en-IN')} min`;

function busiest(
  days: DailyStatsEntry[],
  pick: (day: DailyStatsEntry) => number,
): DailyStatsEntry | undefined {
  let best: DailyStatsEntry | undefined;
  for (const day of days) if (!best || pick(day) > pick(best)) best = day;
  return best;
}

export function visitorsSummary(days: DailyStatsEntry[]): string {
  const total = days.reduce((sum, day) => sum + day.visitors, 0);
  if (total === 0) return `No visitors in the last ${days.length} days.`;
  const peak = busiest(days, (day) => day.visitors);
  const average = Math.round(total / days.length);
  return (
    `${count(total)} ${total === 1 ? 'visitor' : 'visitors'} in the last ${days.length} days, ` +
    `${count(average)} a day on average; the most on ${dayLabel(peak?.date ?? '')} (${count(peak?.visitors ?? 0)}).`
  );
}

export function declarationsSummary(days: DailyStatsEntry[]): string {
  const declared = days.reduce((sum, day) => sum + day.declarations, 0);
  const corrected = days.reduce((sum, day) => sum + day.corrections, 0);
  if (declared + corrected === 0) return `No result declared in the last ${days.length} days.`;
  const peak = busiest(days, (day) => day.declarations);
  return (
    `${count(declared)} ${declared === 1 ? 'result' : 'results'} declared and ${count(corrected)} corrected ` +
    `in the last ${days.length} days; the most declared on ${dayLabel(peak?.date ?? '')} (${count(peak?.declarations ?? 0)}).`
  );
}

export function onTimeSummary(ghadis: GhadiStatsEntry[], spanDays: number): string {
  const rated = ghadis.filter((ghadi) => ghadi.onTimeRate !== null);
  if (rated.length === 0) return `No ghadi with a set time was owed a result in the last ${spanDays} days.`;
  const days = rated.reduce((sum, ghadi) => sum + ghadi.days, 0);
  const onTime = rated.reduce((sum, ghadi) => sum + ghadi.onTime, 0);
  const overall = `On time on ${count(onTime)} of ${count(days)} days owed (${percent(onTime / days)}).`;
  if (rated.length === 1) return overall;
  const sorted = [...rated].sort((a, b) => (b.onTimeRate ?? 0) - (a.onTimeRate ?? 0));
  const best = sorted[0] as GhadiStatsEntry;
  const worst = sorted.at(-1) as GhadiStatsEntry;
  if (best.onTimeRate === worst.onTimeRate)
    return `${overall} Every ghadi: ${percent(best.onTimeRate ?? 0)}.`;
  return `${overall} Best: ${best.NameEn}, ${percent(best.onTimeRate ?? 0)}; worst: ${worst.NameEn}, ${percent(worst.onTimeRate ?? 0)}.`;
}

export function delaySummary(ghadis: GhadiStatsEntry[], spanDays: number): string {
  const timed = ghadis.filter((ghadi) => ghadi.medianDelayMinutes !== null);
  if (timed.length === 0) return `No result declared against a set time in the last ${spanDays} days.`;
  const sorted = [...timed].sort((a, b) => (b.medianDelayMinutes ?? 0) - (a.medianDelayMinutes ?? 0));
  const longest = sorted[0] as GhadiStatsEntry;
  const shortest = sorted.at(-1) as GhadiStatsEntry;
  if (timed.length > 1 && longest.medianDelayMinutes === shortest.medianDelayMinutes)
    return `Median delay after the result time: ${minutesText(longest.medianDelayMinutes ?? 0)} for every ghadi.`;
  if (timed.length === 1)
    return `Median delay after the result time: ${longest.NameEn}, ${minutesText(longest.medianDelayMinutes ?? 0)}.`;
  return (
    `Longest median delay after the result time: ${longest.NameEn}, ${minutesText(longest.medianDelayMinutes ?? 0)}; ` +
    `shortest: ${shortest.NameEn}, ${minutesText(shortest.medianDelayMinutes ?? 0)}.`
  );
}
