import { z } from 'zod';
import { inLanguage, LANGUAGES, type Language } from '../../../shared/page-language.js';
import type { PublicPageData } from '../../../shared/public-page-data.js';
import { RECEIPT_PATTERN } from '../../../shared/receipt-codes.js';
import { type ReceiptEntry, receiptAnswer, receiptParams } from '../../../shared/schemas/receipts.js';
import { ghadiMonthKey } from '../model/answer-keys.js';
import { encodeJson, prepareFailure } from '../model/cached-answer.js';
import type { Built } from '../model/kept-entry.js';
import { NOTHING_HERE, notFoundPage, pageBasics, renderPage } from './page-common.js';
import {
  defineRead,
  kept,
  MAX_PATH_PARAM_LENGTH,
  noQuery,
  type PublicRead,
  periodCaching,
  type ReadContext,
} from './read-definition.js';

/* A log entry by its receipt (the first 10 characters of its hash): GET /api/declarations/receipt/{receipt} and /r/{receipt}. */

/**
 * What a receipt's answer shows: its entry, which never changes, and whether a later entry of its
 * ghadi and date replaced it, which changes with that result (its ghadi's month key; the ghadi's name
 * with the whole site). Closed like the month once the date is past yesterday: only a correction,
 * which purges the key, changes it then.
 */
function receiptCaching(entry: ReceiptEntry, today: string) {
  return periodCaching(entry.Date, today, [ghadiMonthKey(entry.GID, entry.Date.slice(0, 7))]);
}

/**
 * Answers are kept under the receipt in lower case, however it was typed, and only for a receipt an
 * entry has: another's 404 is made for its request alone (one seek on the hash index).
 */
const keyOf = (receipt: string) => (RECEIPT_PATTERN.test(receipt) ? receipt.toLowerCase() : null);

async function receiptPage(receipt: string, context: ReadContext, language: Language): Promise<Built> {
  const { model, declarations } = context;
  const key = keyOf(receipt);
  const entry = key === null ? null : await declarations.byReceipt(key);
  if (!entry) return notFoundPage(context, language);
  const ghadiNames = await model.ghadiNames();
  const data: PublicPageData = {
    page: 'receipt',
    ...pageBasics(model, language, ghadiNames),
    entry,
    // The names the ghadi has now (a deleted ghadi's entries keep its English name alone).
    ghadi: ghadiNames.find((ghadi) => ghadi.GID === entry.GID) ?? null,
  };
  return kept(await renderPage(context, 200, data, receiptCaching(entry, model.today())));
}

const pageParams = z.object({ receipt: z.string().max(MAX_PATH_PARAM_LENGTH) });

function receiptPageRead(language: Language): PublicRead {
  return defineRead({
    path: inLanguage(language, '/r/:receipt'),
    // Anything: an address that is no receipt is the site's 404 page, as an unknown chart's is.
    params: pageParams,
    query: noQuery,
    access: 'public',
    pageOnly: true,
    key: ({ params }) => keyOf(params.receipt),
    build: ({ params }, context) => receiptPage(params.receipt, context, language),
    live: async ({ params }, context) => ({
      ready: (await receiptPage(params.receipt, context, language)).answer,
    }),
  });
}

export const RECEIPT_READS: readonly PublicRead[] = [
  defineRead({
    path: '/api/declarations/receipt/:receipt',
    params: receiptParams,
    query: noQuery,
    response: receiptAnswer,
    access: 'public',
    key: ({ params }) => params.receipt.toLowerCase(),
    build: async ({ params }, { model, declarations }) => {
      const entry = await declarations.byReceipt(params.receipt.toLowerCase());
      if (!entry)
        return {
          answer: await prepareFailure(404, 'No log entry has this receipt', NOTHING_HERE),
          keep: false,
        };
      return kept(
        await encodeJson(receiptAnswer, { success: true, data: entry }, receiptCaching(entry, model.today())),
      );
    },
  }),
  ...LANGUAGES.map(receiptPageRead),
];
