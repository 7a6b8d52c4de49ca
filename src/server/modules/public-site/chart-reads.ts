import type { z } from 'zod';
import { monthChartOf, yearChartOf } from '../../../shared/chart-grids.js';
import { monthCharted, yearCharted } from '../../../shared/chart-pages.js';
import {
  monthChartAnswer,
  monthChartParams,
  yearChartAnswer,
  yearChartParams,
} from '../../../shared/schemas/charts.js';
import { encodeJson, prepareFailure } from './cached-answer.js';
import {
  defineRead,
  kept,
  noQuery,
  type PublicRead,
  RESULTS_AND_GHADIS,
  type ReadContext,
  type ReadInput,
} from './read-definition.js';
import type { Built } from './read-model.js';

type YearInput = ReadInput<z.infer<typeof yearChartParams>, z.infer<typeof noQuery>>;

async function yearChartAnswerOf({ params }: YearInput, { model }: ReadContext): Promise<Built> {
  const ghadi = yearCharted(params.year, model.today()) ? await model.ghadiNamed(params.name) : undefined;
  if (!ghadi)
    return {
      answer: await prepareFailure(404, `No chart for ${params.name} in ${params.year}`),
      keep: false,
    };
  const { rows, years } = await model.ghadiYear(ghadi.GID, params.year);
  return kept(
    await encodeJson(yearChartAnswer, { success: true, data: yearChartOf(ghadi, params.year, rows, years) }),
  );
}

type MonthInput = ReadInput<z.infer<typeof monthChartParams>, z.infer<typeof noQuery>>;

async function monthChartAnswerOf({ params }: MonthInput, { model }: ReadContext): Promise<Built> {
  if (!monthCharted(params.month, model.today())) {
    return { answer: await prepareFailure(404, `No chart for ${params.month}`), keep: false };
  }
  const [ghadis, results] = await Promise.all([model.ghadis(), model.results(params.month)]);
  return kept(
    await encodeJson(monthChartAnswer, { success: true, data: monthChartOf(params.month, ghadis, results) }),
  );
}

/** The charts' JSON: a ghadi's year, and every ghadi's month. */
export const CHART_READS: readonly PublicRead[] = [
  defineRead({
    path: '/api/charts/month/:month',
    params: monthChartParams,
    query: noQuery,
    response: monthChartAnswer,
    access: 'public',
    dependsOn: RESULTS_AND_GHADIS,
    maxKept: 300,
    // A month outside the charted ones is a 404 made per request, so that no one can fill the cache.
    key: ({ params }, { model }) => (monthCharted(params.month, model.today()) ? params.month : null),
    build: monthChartAnswerOf,
  }),

  defineRead({
    path: '/api/charts/:name/:year',
    params: yearChartParams,
    query: noQuery,
    response: yearChartAnswer,
    access: 'public',
    dependsOn: RESULTS_AND_GHADIS,
    maxKept: 2000,
    // Kept under the ghadi's folded name (every spelling, hyphens for spaces too, is one answer); an
    // unknown ghadi or a year outside the charted ones is a 404 made per request.
    key: ({ params }, { model }) => {
      const name = model.keptName(params.name);
      if (!yearCharted(params.year, model.today()) || name === null) return null;
      return `${name}|${params.year}`;
    },
    build: yearChartAnswerOf,
  }),
];
