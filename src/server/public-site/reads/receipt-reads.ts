import { z } from 'zod';
import { inLanguage, LANGUAGES, type Language } from '../../../shared/page-language.js';
import type { PublicPageData } from '../../../shared/public-page-data.js';
import { RECEIPT_PATTERN } from '../../../shared/receipt-codes.js';
import {
  type ReceiptEntry,
  receiptAnswer,
  receiptConflict,
  receiptParams,
} from '../../../shared/schemas/receipts.js';
import { ghadiMonthKey, LOG_KEY, TODAY_KEY } from '../model/answer-keys.js';
import { type AnswerCaching, encodeJson, prepareFailure, prepareJson } from '../model/cached-answer.js';
import type { Built } from '../model/kept-entry.js';
import { NOTHING_HERE, notFoundPage, pageBasics, renderPage } from './page-common.js';
import {
  cachingOf,
  defineRead,
  kept,
  MAX_PATH_PARAM_LENGTH,
  noQuery,
  notKept,
  type PublicRead,
  type ReadContext,
} from './read-definition.js';

/* A log entry by its receipt (its hash's shortest unique start): GET /api/declarations/receipt/{receipt} and /r/{receipt}. */

/**
 * A receipt's answer shows its entry, which never changes, whether a later entry of its ghadi and
 * date replaced it (its ghadi's month key), and the inclusion proof of the entry in the latest
 * checkpoint, which changes with every append to the log: so it carries LOG_KEY, which every result
 * change and import drops (with SITE_KEY), and is open (a shared cache keeps it a second).
 */
function receiptCaching(entry: ReceiptEntry): AnswerCaching {
  return cachingOf([ghadiMonthKey(entry.GID, entry.Date.slice(0, 7)), LOG_KEY, TODAY_KEY], true);
}

/**
 * Answers are kept under the receipt in lower case, however it was typed, and only for a receipt an
 * entry has: another's 404 is made for its request alone (one seek on the hash index).
 */
const keyOf = (receipt: string) => (RECEIPT_PATTERN.test(receipt) ? receipt.toLowerCase() : null);

/**
 * The latest checkpoint and the entry's inclusion proof in its tree, read from O(log n) stored nodes.
 * The checkpoint is read after the entry, and is signed in the transaction that appended it: it holds it.
 */
async function proofOf(seq: number, { transparency }: ReadContext) {
  const latest = await transparency.latest();
  if (!latest || latest.size < seq) throw new Error(`No checkpoint of the log holds entry ${seq} yet`);
  return { proof: await transparency.inclusion(seq, latest.size), checkpoint: latest.note };
}

/** What a receipt several entries' hashes begin with answers: 409, naming each by its own receipt. */
const SHARED_MESSAGE = 'Several log entries have this receipt: each is listed with its own';

async function receiptPage(receipt: string, context: ReadContext, language: Language): Promise<Built> {
  const { model, declarations } = context;
  const key = keyOf(receipt);
  const found = key === null ? null : await declarations.byReceipt(key);
  if (!found) return notFoundPage(context, language);
  const ghadiNames = await model.ghadiNames();
  const basics = pageBasics(model, language, ghadiNames);
  if (found.kind === 'shared')
    return notKept(
      await renderPage(context, 409, { page: 'receipt', ...basics, receipt: key ?? '', found }, NOTHING_HERE),
    );
  const { entry } = found;
  const data: PublicPageData = {
    page: 'receipt',
    ...basics,
    receipt: entry.Receipt,
    found: {
      kind: 'entry',
      entry,
      // The names the ghadi has now (a deleted ghadi's entries keep its English name alone).
      ghadi: ghadiNames.find((ghadi) => ghadi.GID === entry.GID) ?? null,
      ...(await proofOf(entry.seq, context)),
    },
  };
  return kept(await renderPage(context, 200, data, receiptCaching(entry)));
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
    otherAnswers: {
      409: receiptConflict.describe('Several entries’ hashes begin with this receipt: each, with its own'),
    },
    access: 'public',
    key: ({ params }) => params.receipt.toLowerCase(),
    build: async ({ params }, context) => {
      const found = await context.declarations.byReceipt(params.receipt.toLowerCase());
      if (!found) return notKept(await prepareFailure(404, 'No log entry has this receipt', NOTHING_HERE));
      if (found.kind === 'shared')
        return notKept(
          await prepareJson(
            409,
            { success: false, message: SHARED_MESSAGE, entries: found.entries },
            { caching: NOTHING_HERE },
          ),
        );
      const { entry } = found;
      return kept(
        await encodeJson(
          receiptAnswer,
          { success: true, data: entry, ...(await proofOf(entry.seq, context)) },
          receiptCaching(entry),
        ),
      );
    },
  }),
  ...LANGUAGES.map(receiptPageRead),
];
