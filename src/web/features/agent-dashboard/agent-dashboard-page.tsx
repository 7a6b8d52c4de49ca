import { type ReactNode, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useMyGhadis } from '../../api/agent-api.js';
import { useBusinessToday } from '../../api/site-api.js';
import { PageTitle } from '../../components/ui/card.js';
import { EmptyState, ErrorState, Spinner } from '../../components/ui/states.js';
import { useSession } from '../../lib/session.js';
import { GhadiPicker } from './ghadi-picker.js';
import { heldRows } from './held-entries.js';
import { HeldList } from './held-list.js';
import { ResultForm } from './result-form.js';
import { ResultHistory } from './result-history.js';
import type { Clock } from './submission-network.js';
import { useMyPending } from './use-my-pending.js';
import { useQueueSnapshot, useSubmissionQueue } from './use-submission-queue.js';
import { WaitingList } from './waiting-list.js';

/** The chosen ghadi lives in the address (?ghadi=GID), so a reload on a flaky network keeps it. */
const GHADI_PARAM = 'ghadi';

interface AgentDashboardPageProps {
  /** The submission queue's clock: tests give their own; the browser's by default. */
  clock?: Clock;
}

export function AgentDashboardPage({ clock }: AgentDashboardPageProps = {}) {
  const session = useSession();
  const ghadis = useMyGhadis();
  const [params, setParams] = useSearchParams();
  // The router applies a new address asynchronously; holding the choice here as well lets the
  // radio answer the tap at once instead of flicking back until the navigation lands.
  const [chosen, setChosen] = useState(() => params.get(GHADI_PARAM));
  // Bumped by each saved result: the history mounts afresh on its first page, unsearched, where the
  // new result is (today's or yesterday's), whatever page or search the agent had open.
  const [saves, setSaves] = useState(0);
  const queue = useSubmissionQueue(clock);
  const queued = useQueueSnapshot(queue);
  const pending = useMyPending();
  const { today } = useBusinessToday();

  const failure = ghadis.isError && (
    <div className="mb-4 [&_button]:min-h-11">
      <ErrorState message="Failed to load assigned ghadi" onRetry={() => void ghadis.refetch()} />
    </div>
  );

  let body: ReactNode = null;
  if (ghadis.data) {
    const selected = ghadis.data.find((ghadi) => String(ghadi.GID) === chosen) ?? ghadis.data[0];
    body = selected ? (
      <div className="space-y-6">
        <GhadiPicker
          ghadis={ghadis.data}
          selectedGid={selected.GID}
          onSelect={(gid) => {
            setChosen(String(gid));
            setParams({ [GHADI_PARAM]: String(gid) }, { replace: true });
          }}
        />
        <div className="grid items-start gap-6 md:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
          <ResultForm
            key={`form-${selected.GID}`}
            ghadi={selected}
            queue={queue}
            pending={pending}
            onSaved={() => setSaves((count) => count + 1)}
          />
          <ResultHistory key={`history-${selected.GID}-${saves}`} ghadi={selected} />
        </div>
      </div>
    ) : (
      <EmptyState>No ghadi assigned to your account.</EmptyState>
    );
  } else if (ghadis.isPending && ghadis.fetchStatus === 'paused') {
    body = <EmptyState>Your ghadis load when the network is back.</EmptyState>;
  } else if (ghadis.isPending) {
    body = <Spinner label="Loading your ghadis…" />;
  }

  return (
    <div>
      <PageTitle>Update Results</PageTitle>
      {session && (
        <p className="-mt-3 mb-4 text-sm text-slate-600">
          Signed in as <span className="font-medium text-slate-800">{session.DisplayName}</span>
        </p>
      )}
      {/* Above the forms, where the agent looks first: what this phone still has to send, then what
          the server holds for a second confirmation. */}
      <WaitingList
        snapshot={queued}
        today={today}
        now={queue?.now() ?? 0}
        onSendNow={() => void queue?.flush()}
        onDismiss={(key) => void queue?.dismiss(key)}
        onSendAnyway={(key) => void queue?.sendAnyway(key)}
      />
      <HeldList rows={heldRows(pending, queued.submissions)} today={today} />
      {/* A failed refresh keeps the form and its typed value on screen; only a first load failing has nothing else to show. */}
      {failure}
      {body}
    </div>
  );
}
