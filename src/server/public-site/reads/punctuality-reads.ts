import type { Language } from '../../../shared/page-language.js';
import type { PublicGhadi } from '../../../shared/public-page-data.js';
import { punctualityLine } from '../../../shared/punctuality-line.js';
import { punctualityAnswer } from '../../../shared/schemas/punctuality.js';
import { PUBLIC_PUNCTUALITY_DAYS } from '../../modules/stats/punctuality-rule.js';
import { ghadiKey, ghadiResultsKey, TODAY_KEY } from '../model/answer-keys.js';
import { encodeJson, prepareFailure } from '../model/cached-answer.js';
import {
  cachingOf,
  defineRead,
  ghadiNameParams,
  kept,
  noQuery,
  notKept,
  type PublicRead,
  type ReadContext,
} from './read-definition.js';

/**
 * What a ghadi's punctuality shows: its declarations of any date (a declaration drops its whole list's
 * key), its own fields (RTime, Days) and holidays (a holiday of the ghadi drops its key, one of every
 * ghadi the whole site), and the site's day (the 30 days move on).
 */
export const punctualityKeys = (gid: number) => [ghadiKey(gid), ghadiResultsKey(gid), TODAY_KEY];

/** The line a ghadi's results page shows of its record (null: nothing to say yet); keys: punctualityKeys. */
export async function punctualityLineOf(
  { model, punctuality }: ReadContext,
  ghadi: PublicGhadi,
  language: Language,
): Promise<string | null> {
  const record = await punctuality.lastThirtyDays(ghadi.GID, model.today());
  return record && punctualityLine(record, ghadi.RTime, language, PUBLIC_PUNCTUALITY_DAYS);
}

/** GET /api/punctuality/{name}: one ghadi's record of the last 30 days (docs/api.md). */
export const PUNCTUALITY_READS: readonly PublicRead[] = [
  defineRead({
    path: '/api/punctuality/:name',
    params: ghadiNameParams,
    query: noQuery,
    response: punctualityAnswer,
    access: 'public',
    // Kept under the ghadi, however its name was spelled; an unknown name's 404 is made per request.
    key: ({ params }, { model }) => {
      const ghadi = model.loadedGhadi(params.name);
      return ghadi ? String(ghadi.GID) : null;
    },
    build: async ({ params }, { model, punctuality }) => {
      const ghadi = await model.ghadiNamed(params.name);
      const data = ghadi ? await punctuality.lastThirtyDays(ghadi.GID, model.today()) : null;
      if (!ghadi || !data)
        return notKept(await prepareFailure(404, `No ghadi named ${params.name}`, cachingOf([], true)));
      return kept(
        await encodeJson(
          punctualityAnswer,
          { success: true, data },
          cachingOf(punctualityKeys(ghadi.GID), true),
        ),
      );
    },
  }),
];
