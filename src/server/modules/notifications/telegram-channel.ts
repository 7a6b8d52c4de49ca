import type { Now } from '../../lib/clock.js';
import type { ClaimedDelivery } from './notification-deliveries-repository.js';
import { telegramTextOf } from './notification-payload.js';
import type { NotificationsRepository } from './notifications-repository.js';
import type { SendOutcome } from './send-outcome.js';

/** One Bot API call: well within a graceful stop's time limit. */
const TELEGRAM_TIMEOUT_MS = 5000;

export interface TelegramOptions {
  /** Secret: it is part of every request's path, so no address or request is ever logged. */
  token: string;
  chatId: string;
  /** https://api.telegram.org, or TELEGRAM_API_URL (tests: a local stand-in). */
  apiUrl: string;
  timeZone: string;
}

interface BotAnswer {
  ok: boolean;
  result?: { message_id?: number };
  error_code?: number;
  description?: string;
  parameters?: { retry_after?: number };
}

/**
 * The Telegram channel: a declaration is one sendMessage to the chat; a correction edits that message
 * (editMessageText), whose id is kept per ghadi and date, or is sent anew when there is none to edit.
 */
export class TelegramChannel {
  constructor(
    private readonly options: TelegramOptions,
    private readonly repository: NotificationsRepository,
    private readonly now: Now,
  ) {}

  async send(delivery: ClaimedDelivery): Promise<SendOutcome> {
    const text = telegramTextOf(delivery, this.options.timeZone);
    const chat_id = this.options.chatId;
    const original = delivery.corrected
      ? await this.repository.telegramMessageOf(delivery.gid, delivery.resultDate)
      : null;
    if (original !== null) {
      const edited = await this.call('editMessageText', { chat_id, message_id: original, text });
      // The same text again (a correction back and forth): the message already says it.
      if (edited.kind === 'answer' && /message is not modified/i.test(edited.answer.description ?? ''))
        return { kind: 'sent' };
      // Deleted from the chat meanwhile: the correction is announced as a message of its own.
      if (edited.kind === 'answer' && !/message to edit not found/i.test(edited.answer.description ?? ''))
        return outcomeOf(edited.answer);
      if (edited.kind !== 'answer') return edited.outcome;
    }
    const sent = await this.call('sendMessage', { chat_id, text });
    if (sent.kind !== 'answer') return sent.outcome;
    const messageId = sent.answer.result?.message_id;
    if (sent.answer.ok && typeof messageId === 'number')
      await this.repository.keepTelegramMessage(
        delivery.gid,
        delivery.resultDate,
        messageId,
        new Date(this.now()).toISOString(),
      );
    return outcomeOf(sent.answer);
  }

  private async call(
    method: string,
    body: Record<string, unknown>,
  ): Promise<{ kind: 'answer'; answer: BotAnswer } | { kind: 'outcome'; outcome: SendOutcome }> {
    let response: Response;
    try {
      response = await fetch(`${this.options.apiUrl}/bot${this.options.token}/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(TELEGRAM_TIMEOUT_MS),
      });
    } catch (error) {
      // The cause names the host at most; the token is in the path, which fetch's errors leave out.
      const reason =
        error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : '';
      return {
        kind: 'outcome',
        outcome: { kind: 'retry', reason: `Telegram unreachable: ${this.hide(reason)}` },
      };
    }
    let answer: BotAnswer;
    try {
      answer = (await response.json()) as BotAnswer;
    } catch {
      const reason = `Telegram answered HTTP ${response.status} without JSON`;
      return {
        kind: 'outcome',
        outcome: response.status >= 500 ? { kind: 'retry', reason } : { kind: 'failed', reason },
      };
    }
    return {
      kind: 'answer',
      answer: { ...answer, error_code: answer.error_code ?? (answer.ok ? undefined : response.status) },
    };
  }

  private hide(text: string): string {
    return text.split(this.options.token).join('[token]');
  }
}

function outcomeOf(answer: BotAnswer): SendOutcome {
  if (answer.ok) return { kind: 'sent' };
  const code = answer.error_code ?? 0;
  const reason = `Telegram ${code}: ${answer.description ?? 'no description'}`;
  if (code === 429) {
    const seconds = answer.parameters?.retry_after;
    return { kind: 'retry', reason, afterMs: typeof seconds === 'number' ? seconds * 1000 : undefined };
  }
  if (code >= 500 || code === 0) return { kind: 'retry', reason };
  return { kind: 'failed', reason };
}
