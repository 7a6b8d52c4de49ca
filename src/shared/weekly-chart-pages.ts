/**
 * The weekly charts' addresses, /jodi-chart/{name}/{year} and /panel-chart/{name}/{year}, and which
 * ghadis have them (their grid: weekly-charts.ts). Pure and small: every chart page links to them.
 */
import type { GhadiKind } from './matka.js';
import { foldName } from './names.js';

/** What a weekly chart shows of each result: the jodi alone, or the panel (open panna, jodi, close panna). */
export type WeeklyView = 'jodi' | 'panel';
export const WEEKLY_VIEWS: readonly WeeklyView[] = ['jodi', 'panel'];

/** The kinds of ghadi that have weekly charts (a jodi ghadi's values have no parts to show). */
export type WeeklyKind = Exclude<GhadiKind, 'jodi'>;

export function hasWeeklyCharts(kind: GhadiKind): kind is WeeklyKind {
  return kind !== 'jodi';
}

/** A weekly chart's page: /jodi-chart/{folded name}/{year} or /panel-chart/…, URL-encoded. */
export function weeklyChartPath(view: WeeklyView, nameEn: string, year: number): string {
  return `/${view}-chart/${encodeURIComponent(foldName(nameEn))}/${year}`;
}

/** The weekly charts' data (both views): GET /api/charts/{folded name}/{year}/weeks. */
export function weeklyChartApiPath(nameEn: string, year: number): string {
  return `/api/charts/${encodeURIComponent(foldName(nameEn))}/${year}/weeks`;
}
