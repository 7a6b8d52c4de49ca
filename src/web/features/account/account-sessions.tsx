import { useState } from 'react';
import type { SessionRecord } from '../../../shared/schemas/account.js';
import { Badge } from '../../components/ui/badge.js';
import { Button } from '../../components/ui/button.js';
import { Card } from '../../components/ui/card.js';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.js';
import { failureNotice, type Notice, NoticeAlert, successNotice } from '../../components/ui/notice.js';
import { EmptyState, ErrorState, Spinner } from '../../components/ui/states.js';
import { shortUserAgent as deviceName } from '../../lib/user-agent-text.js';
import { useEndOtherSessions, useEndSession, useMySessions } from './account-api.js';

/** One's own sessions are read in one's own time zone: "29 Nov 2026, 16:05". */
const WHEN = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function when(iso: string): string {
  const instant = new Date(iso);
  return Number.isNaN(instant.getTime()) ? iso : WHEN.format(instant);
}

const END_OTHERS_QUESTION =
  'Sign out everywhere else? Every other browser and device signed in to this account will have to sign in again.';

/** Where the account is signed in, this device marked, each other one with its own Sign out. */
export function AccountSessions() {
  const sessions = useMySessions();
  const endOne = useEndSession();
  const endOthers = useEndOtherSessions();
  const [confirming, setConfirming] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);

  const signOut = async (session: SessionRecord) => {
    setNotice(null);
    try {
      await endOne.mutateAsync(session._id);
      setNotice(successNotice(`Signed out ${deviceName(session.UserAgent)} (${session.Ip}).`));
    } catch (error) {
      setNotice(failureNotice('Failed to sign out that session', error));
    }
  };

  const signOutOthers = async () => {
    setNotice(null);
    try {
      const answer = await endOthers.mutateAsync();
      setNotice(
        successNotice(
          answer.ended === 1 ? 'Signed out 1 other session.' : `Signed out ${answer.ended} other sessions.`,
        ),
      );
    } catch (error) {
      setNotice(failureNotice('Failed to sign out the other sessions', error));
    } finally {
      setConfirming(false);
    }
  };

  const list = sessions.data ?? [];
  const others = list.filter((session) => !session.Current).length;

  return (
    <Card
      title="Where you are signed in"
      actions={
        others > 0 && (
          <Button variant="secondary" size="sm" onClick={() => setConfirming(true)}>
            Sign out everywhere else
          </Button>
        )
      }
    >
      <NoticeAlert notice={notice} onDismiss={() => setNotice(null)} />
      {sessions.isPending ? (
        <Spinner label="Loading sessions…" />
      ) : sessions.isError ? (
        <ErrorState message="Failed to load sessions" onRetry={() => sessions.refetch()} />
      ) : list.length === 0 ? (
        <EmptyState>No sessions found.</EmptyState>
      ) : (
        <ul aria-label="Sessions" className="divide-y divide-slate-200">
          {list.map((session) => (
            <li
              key={session._id}
              aria-label={`${deviceName(session.UserAgent)}${session.Current ? ', this device' : ''}`}
              className="flex flex-wrap items-start justify-between gap-3 py-3"
            >
              <div className="min-w-0 space-y-0.5">
                <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
                  <span title={session.UserAgent || undefined}>{deviceName(session.UserAgent)}</span>
                  {session.Current && <Badge tone="green">This device</Badge>}
                </p>
                <p className="text-sm text-slate-600">
                  From <span className="font-mono text-slate-800">{session.Ip}</span>
                </p>
                <p className="text-sm text-slate-600">Signed in {when(session.CreatedAt)}</p>
                <p className="text-sm text-slate-600">Last seen {when(session.LastSeenAt)}</p>
              </div>
              {!session.Current && (
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={endOne.isPending && endOne.variables === session._id}
                  onClick={() => signOut(session)}
                  aria-label={`Sign out ${deviceName(session.UserAgent)} (${session.Ip})`}
                >
                  Sign out
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        message={confirming ? END_OTHERS_QUESTION : null}
        confirmLabel="Sign out everywhere else"
        busyLabel="Signing out…"
        busy={endOthers.isPending}
        onConfirm={signOutOthers}
        onCancel={() => setConfirming(false)}
      />
    </Card>
  );
}
