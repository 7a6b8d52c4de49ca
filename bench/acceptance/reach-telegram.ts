/**
 * Issue 44's Telegram channel, read from the checker's stand-in of the Bot API after the push
 * scenario's declarations (reach-push.ts): one sendMessage per declared value of today or yesterday,
 * in English with the Hindi name; each correction an editMessageText of the original saying so; the
 * old date never; the 429 answered first honoured for its retry_after; the token in no log line.
 */
import type { TelegramStandIn } from '../lib/telegram-stand-in.js';
import type { CheckResult } from './types.js';

export const TELEGRAM_CHAT = '@ghadiresultsacceptance';
export const TELEGRAM_TOKEN = '123456789:acceptance-only-token';
/** The stand-in's first answer is a 429 asking for this many seconds. */
export const RETRY_AFTER_SECONDS = 2;

export async function telegramChecks(standIn: TelegramStandIn, serverOutput: string): Promise<CheckResult[]> {
  // Three values sent (Daily 45, Night 67, Night 68) and two corrections edited (54; 70 of 68).
  await standIn.waitForAnswered(5, 30_000).catch(() => {});
  const answered = standIn.calls.filter((call) => call.status === 200);
  const sends = answered.filter((call) => call.method === 'sendMessage');
  const edits = answered.filter((call) => call.method === 'editMessageText');
  const texts = [...standIn.messages.values()];
  const refused = standIn.calls.find((call) => call.status === 429);
  // The same message sent again (the 429 was the first call: the first value's sendMessage).
  const retried =
    refused &&
    standIn.calls.find(
      (call) => call.at > refused.at && call.status === 200 && call.body.text === refused.body.text,
    );
  const waitedMs = refused && retried ? retried.at - refused.at : Number.NaN;
  const final = (value: string) => texts.find((text) => text.includes(`: ${value} —`)) ?? '';
  return [
    {
      name: 'Telegram: one message per value, English with the Hindi name, to the chat; none for an old date',
      ok:
        sends.length === 3 &&
        sends.every((call) => call.body.chat_id === TELEGRAM_CHAT && call.token === TELEGRAM_TOKEN) &&
        sends.some((call) => /^Reach Daily \(रीच डेली\): 45 — /.test(String(call.body.text))) &&
        !standIn.calls.some((call) => String(call.body.text).includes(': 77 ')),
      detail: sends.map((call) => call.body.text).join(' | '),
    },
    {
      name: 'Telegram: a correction edits the original message and says it was corrected',
      ok:
        edits.length === 2 &&
        standIn.messages.size === 3 &&
        /corrected/.test(final('54')) &&
        /corrected/.test(final('70')) &&
        /^Reach Night \(रीच नाइट\): 67 — [^(]*$/.test(final('67')),
      detail: `${edits.length} edits; the channel now reads: ${texts.join(' | ')}`,
    },
    {
      name: `Telegram: a 429 with retry_after ${RETRY_AFTER_SECONDS} s is waited out`,
      ok: refused !== undefined && waitedMs >= RETRY_AFTER_SECONDS * 1000 - 50,
      detail: refused ? `retried ${Math.round(waitedMs)} ms after the 429` : 'no 429 was answered',
    },
    {
      name: 'the bot token is in no log line',
      ok:
        !serverOutput.includes(TELEGRAM_TOKEN) && !serverOutput.includes(TELEGRAM_TOKEN.split(':')[1] ?? '?'),
      detail: `${serverOutput.length} characters of output read`,
    },
  ];
}
