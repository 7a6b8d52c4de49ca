import { useState } from 'react';
import type { LiveEvent } from '../../../shared/live-events.js';
import type { PendingDeclaration } from '../../../shared/schemas/pending.js';
import { useDiscardPending, usePendingDeclarations } from '../../api/pending-api.js';
import { queryKeys } from '../../api/query-keys.js';
import { useSiteInfo, useSiteToday } from '../../api/site-api.js';
import { PageTitle } from '../../components/ui/card.js';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.js';
import { failureNotice, type Notice, NoticeAlert } from '../../components/ui/notice.js';
import { EmptyState, ErrorState, Spinner } from '../../components/ui/states.js';
import { useLiveRefetch } from '../../hooks/use-live-refetch.js';
import { useSession } from '../../lib/session.js';
import { dateText, PendingCard } from './pending-card.js';

/** A result published meanwhile (by a second person) ends its pending entries; so does a deleted ghadi. */
const LIVE_KINDS: ReadonlyArray<LiveEvent['kind']> = ['result', 'ghadi'];

/** The latest date first, then the ghadis by name: today's decisions come before last week's. */
function byDateThenName(a: PendingDeclaration, b: PendingDeclaration): number {
  return b.Date.localeCompare(a.Date) || a.Name.localeCompare(b.Name);
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="space-y-3">
      <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
      {children}
    </section>
  );
}

/**
 * Results of ghadis that need two people, held until a second person enters the same value. A
 * mismatch (two different values) waits for the admin, so those come first: publish one entry (the
 * admin's value is then the second confirmation), type the right value, or discard them all.
 */
export function PendingPage() {
  const pending = usePendingDeclarations();
  useLiveRefetch(queryKeys.pending, LIVE_KINDS);
  const today = useSiteToday();
  const site = useSiteInfo();
  const timeZone = site.data?.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const session = useSession();
  const discard = useDiscardPending();
  const [notice, setNotice] = useState<Notice | null>(null);
  const [discarding, setDiscarding] = useState<PendingDeclaration | null>(null);

  const confirmDiscard = async () => {
    if (!discarding) return;
    const what = `${discarding.Name} on ${dateText(discarding.Date)}`;
    try {
      await discard.mutateAsync({ gid: discarding.GID, date: discarding.Date });
      setNotice({ tone: 'success', message: `Discarded the entries for ${what}. Nothing was published.` });
    } catch (error) {
      setNotice(failureNotice(`Failed to discard the entries for ${what}`, error));
    } finally {
      setDiscarding(null);
    }
  };

  const card = (declaration: PendingDeclaration) => (
    <PendingCard
      key={`${declaration.GID}-${declaration.Date}`}
      declaration={declaration}
      today={today}
      timeZone={timeZone}
      myUserId={session?.User_Id}
      onOutcome={setNotice}
      onDiscard={(chosen) => {
        setNotice(null);
        setDiscarding(chosen);
      }}
    />
  );

  const body = () => {
    if (pending.isPending || (pending.isError && pending.isFetching))
      return <Spinner label="Loading pending results…" />;
    if (pending.isError)
      return <ErrorState message="Failed to load pending results" onRetry={() => pending.refetch()} />;
    if (pending.data.length === 0) return <EmptyState>No result waits for a confirmation.</EmptyState>;
    const mismatches = pending.data.filter((declaration) => declaration.Mismatch).sort(byDateThenName);
    const waiting = pending.data.filter((declaration) => !declaration.Mismatch).sort(byDateThenName);
    return (
      <div className="space-y-6">
        {mismatches.length > 0 && (
          <Section title={`Need your decision (${mismatches.length})`}>{mismatches.map(card)}</Section>
        )}
        {waiting.length > 0 && (
          <Section title={`Waiting for a second person (${waiting.length})`}>{waiting.map(card)}</Section>
        )}
        <p className="text-xs text-slate-600">Times in {timeZone}.</p>
      </div>
    );
  };

  const entries = discarding?.Entries.length ?? 0;
  return (
    <div className="space-y-4">
      <PageTitle>Pending results</PageTitle>
      <p className="max-w-3xl text-sm text-slate-700">
        A ghadi set to 2 confirmations publishes a result only when two people enter the same value. Until
        then the entries wait here, and nothing is public. Your own value counts as the second confirmation
        only when it equals another person’s entry.
      </p>
      <NoticeAlert notice={notice} onDismiss={() => setNotice(null)} />
      {body()}
      <ConfirmDialog
        message={
          discarding
            ? `Discard ${entries === 1 ? 'the pending entry' : `all ${entries} pending entries`} for ${discarding.Name} on ${dateText(discarding.Date)}? Nothing is published; the value must be entered again.`
            : null
        }
        confirmLabel="Discard"
        busyLabel="Discarding…"
        busy={discard.isPending}
        onConfirm={confirmDiscard}
        onCancel={() => setDiscarding(null)}
      />
    </div>
  );
}
