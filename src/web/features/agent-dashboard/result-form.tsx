import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { z } from 'zod';
import { addDays } from '../../../shared/dates.js';
import { resolveSubmission } from '../../../shared/matka-submissions.js';
import { marketStepOf } from '../../../shared/open-close-steps.js';
import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import { resultValue } from '../../../shared/schemas/results.js';
import { useBusinessToday } from '../../api/site-api.js';
import { EntryHint, EntryReadout } from '../../components/results/entry-readout.js';
import { Alert } from '../../components/ui/alert.js';
import { Button } from '../../components/ui/button.js';
import { Card } from '../../components/ui/card.js';
import { TextField } from '../../components/ui/field.js';
import { useAppForm } from '../../hooks/use-app-form.js';
import { KIND_LABELS, timesText } from '../../lib/ghadi-days-text.js';
import { entryHint, readEntry, stepDueText } from '../../lib/market-entry.js';
import { DateChoice } from './date-choice.js';
import { ClosureNotice, useDayClosure } from './day-closure.js';
import { EntryNotice, HeldLine } from './entry-notice.js';
import { heldDeclaration, heldNow } from './held-entries.js';
import { ReadBack } from './read-back.js';
import type { Submission } from './submission-entry.js';
import type { SubmissionQueue } from './submission-queue.js';
import { type JustSaved, useDayValue } from './use-day-value.js';
import type { MyPending } from './use-my-pending.js';
import { useQueueSnapshot } from './use-submission-queue.js';
import { dayName } from './waiting-list.js';

/**
 * Agents may enter only today's and yesterday's results, in the site's time zone (decision 0006):
 * the form offers just those two days, so the rule is met before the server enforces it.
 */
function resultFormSchema(today: string, yesterday: string) {
  return z.object({
    result: resultValue,
    date: z.string().refine((date) => date === today || date === yesterday, 'Choose today or yesterday'),
  });
}

type FormInput = z.input<ReturnType<typeof resultFormSchema>>;
type FormOutput = z.output<ReturnType<typeof resultFormSchema>>;

/**
 * A refusal at once, or the entry the form submitted: shown as the queue holds it now (its key), so
 * that what the form says follows the entry wherever the queue takes it. `last` is the entry as its
 * answer left it; `heldSince`, once the server holds it, the held list's time then.
 */
type Outcome =
  | { tone: 'entry'; key: string; last: Submission; heldSince: number | null }
  | { tone: 'error'; message: string };

const NO_PENDING: MyPending = { data: undefined, updatedAt: 0 };
const UNFINISHED = new Set(['waiting', 'sending', 'stale']);

/**
 * The spec's characters of a result (shared/schemas/results.ts) as an HTML pattern, which browsers
 * read with the v flag: there "/" and "-" in a class must be escaped. The schema still decides.
 */
const RESULT_PATTERN = String.raw`[\p{L}\p{N} *#+\-\/]+`;
/** The forms of a panna value (128, 128-1, 8-459, 123-68-459), for a phone's number pad. */
const PANNA_PATTERN = String.raw`\d{3}|\d{3}-\d|\d-\d{3}|\d{3}-\d{2}-\d{3}`;

interface ResultFormProps {
  ghadi: GhadiRecord;
  /** Where submissions go: sent at once when the network allows, kept on the phone when not. */
  queue: SubmissionQueue | null;
  /** The agent's entries the server holds for a second confirmation. */
  pending?: MyPending;
  onSaved?: () => void;
}

/**
 * Declares (or replaces) the chosen ghadi's result for a date. Mount one per ghadi (key by GID). On
 * a panna or open/close ghadi it reads the value as the server will (against the day's value) while
 * the agent types, refuses one the server would refuse, and sends the value as it will be stored.
 */
export function ResultForm({ ghadi, queue, pending = NO_PENDING, onSaved }: ResultFormProps) {
  const { today } = useBusinessToday();
  const yesterday = addDays(today, -1);
  const schema = useMemo(() => resultFormSchema(today, yesterday), [today, yesterday]);
  const [submitting, setSubmitting] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [justSaved, setJustSaved] = useState<JustSaved | null>(null);
  const readoutId = useId();
  const {
    register,
    handleSubmit,
    control,
    setValue,
    setError,
    setFocus,
    getFieldState,
    formState: { errors },
  } = useAppForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(schema),
    defaultValues: { result: '', date: today },
  });
  const result = useWatch({ control, name: 'result' });
  const date = useWatch({ control, name: 'date' });
  const kind = ghadi.Kind;
  const day = useDayValue(ghadi, date, today, yesterday, queue, justSaved);
  const snapshot = useQueueSnapshot(queue);
  const pendingAt = useRef(pending.updatedAt);
  pendingAt.current = pending.updatedAt;
  const closure = useDayClosure(ghadi, date, today);
  const step = marketStepOf(kind, day.current);
  const reading = readEntry(kind, result, day.current);

  // An untouched date follows the business day: the site's zone may arrive late, or midnight may pass.
  useEffect(() => {
    if (!getFieldState('date').isDirty) setValue('date', today);
  }, [today, getFieldState, setValue]);

  // A stale "Result updated!" next to a newly typed value would read as if that value were saved.
  // A refusal stays: the value it refused is still in the field.
  useEffect(() => {
    if (result)
      setOutcome((current) =>
        current?.tone === 'error' || current?.last.state === 'changed' ? current : null,
      );
  }, [result]);

  // The entry as the queue holds it now; one it keeps no more is shown as its answer left it, unless
  // it was still unsent (dismissed or replaced since: nothing to say of it).
  const tracked = outcome?.tone === 'entry' ? outcome : null;
  const live = tracked && snapshot.submissions.find((entry) => entry.key === tracked.key);
  const shown = live ?? (tracked && !UNFINISHED.has(tracked.last.state) ? tracked.last : null);
  const held = shown?.state === 'pending' || shown?.state === 'mismatch';
  // An entry the queue sent later and the server now holds: the held list from now on says more.
  useEffect(() => {
    if (held && tracked?.heldSince === null) setOutcome({ ...tracked, heldSince: pendingAt.current });
  }, [held, tracked]);

  const onSubmit = handleSubmit(async (values) => {
    if (!queue) return;
    // The server's own reading, against the value it holds for the day: a value it would refuse
    // is refused here, and one it would take is sent as it will be stored.
    const resolved = resolveSubmission(kind, values.result, day.current);
    if (!resolved.ok) {
      setError('result', { message: resolved.message });
      setFocus('result');
      return;
    }
    setOutcome(null);
    setSubmitting(true);
    const answer = await queue
      .submit({
        ghadiId: ghadi.GID,
        ghadiName: ghadi.NameEn,
        date: values.date,
        result: resolved.value,
        // What the agent saw published (an open/close market's open half, at the close): a replay
        // after someone changed it is refused instead of undoing their change.
        expected: day.saved ?? null,
      })
      .finally(() => setSubmitting(false));
    if (answer.kind === 'refused') {
      // The typed value stays in the field, to be corrected and sent again.
      setOutcome({ tone: 'error', message: answer.message });
      return;
    }
    const { submission } = answer;
    const heldNowAt = answer.kind === 'pending' || answer.kind === 'mismatch' ? pendingAt.current : null;
    setOutcome({ tone: 'entry', key: submission.key, last: submission, heldSince: heldNowAt });
    if (answer.kind === 'saved') {
      setJustSaved({ date: submission.date, value: submission.result, savedAt: submission.savedAt });
    }
    // Changed since entered: the value stays, to be checked against the new one and sent again.
    if (answer.kind === 'changed') return;
    // Saved, held or kept on the phone, it is entered: clearing the field guards against a second
    // tap entering it twice. The chosen date stays.
    setValue('result', '');
    if (answer.kind === 'saved') onSaved?.();
  });

  const typed = result.trim();
  const canSubmit = typed !== '' && !submitting && queue !== null;
  const jodi = kind === 'jodi';

  return (
    <Card title={`Update result: ${ghadi.NameEn}`}>
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        {!jodi && (
          <p className="-mt-2 text-sm text-slate-600">
            {KIND_LABELS[kind]} · {timesText(ghadi)}
          </p>
        )}
        {/* Above the field: it says what to type. It follows the date chosen below. */}
        {step && (
          <p data-testid="step-due" className="text-base font-semibold text-indigo-900">
            {stepDueText(step)}
          </p>
        )}
        {/* Side by side only while the form spans the page; beside the history the column is too narrow for both. */}
        <div className="grid gap-4 sm:grid-cols-2 md:grid-cols-1">
          <div className="space-y-1">
            <TextField
              label="Result"
              // Results are digits nearly always: the phone's number pad, one tap per digit. The
              // schema still takes what the spec allows (letters, * # + - /) from a full keyboard.
              inputMode="numeric"
              pattern={jodi ? RESULT_PATTERN : PANNA_PATTERN}
              autoComplete="off"
              autoCorrect="off"
              autoCapitalize="characters"
              spellCheck={false}
              enterKeyHint="send"
              maxLength={20}
              className="min-h-11 font-mono"
              hint={jodi ? undefined : <EntryHint text={entryHint(kind, step) ?? ''} />}
              error={errors.result?.message}
              {...register('result')}
            />
            {!jodi && <EntryReadout id={readoutId} reading={reading} />}
          </div>
          <DateChoice
            today={today}
            yesterday={yesterday}
            error={errors.date?.message}
            {...register('date')}
          />
        </div>

        {closure && <ClosureNotice closure={closure} date={date} />}
        <p className="text-sm text-slate-700">
          {day.saved === undefined ? (
            <>
              No result saved for <span className="whitespace-nowrap">{date || 'this date'}</span> yet.
            </>
          ) : (
            <>
              Saved result for <span className="whitespace-nowrap">{date}</span>:{' '}
              <strong className="font-mono text-base text-slate-900">{day.saved}</strong>.
              {jodi ? ' Updating replaces it.' : ''}
            </>
          )}
          {day.waiting !== undefined && (
            <>
              {' '}
              Waiting on this phone: <strong className="font-mono text-slate-900">{day.waiting}</strong>.
            </>
          )}
          <HeldLine declaration={heldDeclaration(pending.data, ghadi.GID, date)} />
        </p>

        {shown && (
          <EntryNotice
            entry={shown}
            held={held ? heldNow(shown, pending, tracked?.heldSince ?? Number.POSITIVE_INFINITY) : 'gone'}
            now={queue?.now() ?? 0}
          />
        )}
        {outcome?.tone === 'error' && <Alert tone="error">{outcome.message}</Alert>}

        <ReadBack
          ghadiName={ghadi.NameEn}
          day={dayName(date, today)}
          date={date}
          value={jodi || reading.kind !== 'ok' ? typed : reading.value}
          tentative={!jodi && reading.kind !== 'ok'}
        />

        <Button
          type="submit"
          disabled={!canSubmit}
          className="min-h-11 w-full text-base sm:w-auto sm:min-w-40"
        >
          {submitting ? 'Updating...' : 'Update'}
        </Button>
      </form>
    </Card>
  );
}
