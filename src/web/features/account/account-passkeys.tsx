import { useState } from 'react';
import { MAX_PASSKEYS, type PasskeyRecord } from '../../../shared/schemas/passkeys.js';
import { Alert } from '../../components/ui/alert.js';
import { Button } from '../../components/ui/button.js';
import { Card } from '../../components/ui/card.js';
import { type Notice, NoticeAlert, successNotice } from '../../components/ui/notice.js';
import { EmptyState, ErrorState, Spinner } from '../../components/ui/states.js';
import { PASSKEY_UNSUPPORTED_MESSAGE, passkeysSupported } from '../../lib/passkey-ceremony.js';
import { useMyPasskeys } from './account-api.js';
import { AccountPasskeyAdd } from './account-passkey-add.js';
import { AccountPasskeyRemove } from './account-passkey-remove.js';

/** Read in one's own time zone, as the sessions are: "29 Nov 2026, 16:05". */
const WHEN = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function when(iso: string): string {
  const instant = new Date(iso);
  return Number.isNaN(instant.getTime()) ? iso : WHEN.format(instant);
}

type Step = { name: 'idle' } | { name: 'adding' } | { name: 'removing'; passkey: PasskeyRecord };

/** One's passkeys: each by name with when it was added and last used; adding one, removing one. */
export function AccountPasskeys() {
  const passkeys = useMyPasskeys();
  const [step, setStep] = useState<Step>({ name: 'idle' });
  const [notice, setNotice] = useState<Notice | null>(null);
  const supported = passkeysSupported();
  const list = passkeys.data ?? [];
  const full = list.length >= MAX_PASSKEYS;

  const done = (message: string) => {
    setStep({ name: 'idle' });
    setNotice(successNotice(message));
  };

  return (
    <Card
      title="Passkeys"
      actions={
        supported &&
        step.name === 'idle' &&
        !full && (
          <Button
            size="sm"
            onClick={() => {
              setNotice(null);
              setStep({ name: 'adding' });
            }}
          >
            Add a passkey
          </Button>
        )
      }
    >
      <div className="space-y-4">
        <NoticeAlert notice={notice} onDismiss={() => setNotice(null)} />
        <p className="text-sm text-slate-700">
          Sign in with your fingerprint, face, screen lock or a security key instead of your password and
          code.
        </p>
        {!supported && <Alert tone="info">{PASSKEY_UNSUPPORTED_MESSAGE}</Alert>}
        {step.name === 'adding' && (
          <AccountPasskeyAdd onDone={done} onCancel={() => setStep({ name: 'idle' })} />
        )}
        {passkeys.isPending ? (
          <Spinner label="Loading passkeys…" />
        ) : passkeys.isError ? (
          <ErrorState message="Failed to load passkeys" onRetry={() => passkeys.refetch()} />
        ) : list.length === 0 ? (
          <EmptyState>No passkeys yet.</EmptyState>
        ) : (
          <ul aria-label="Passkeys" className="divide-y divide-slate-200">
            {list.map((passkey) => (
              <li key={passkey._id} aria-label={passkey.Name} className="space-y-3 py-3">
                <div className="flex flex-wrap items-start justify-between gap-3">
                  <div className="min-w-0 space-y-0.5">
                    <p className="break-words font-medium text-slate-900">{passkey.Name}</p>
                    <p className="text-sm text-slate-600">Added {when(passkey.CreatedAt)}</p>
                    <p className="text-sm text-slate-600">
                      {passkey.LastUsedAt ? `Last used ${when(passkey.LastUsedAt)}` : 'Never used to sign in'}
                    </p>
                  </div>
                  {!(step.name === 'removing' && step.passkey._id === passkey._id) && (
                    <Button
                      variant="secondary"
                      size="sm"
                      onClick={() => {
                        setNotice(null);
                        setStep({ name: 'removing', passkey });
                      }}
                      aria-label={`Remove ${passkey.Name}`}
                    >
                      Remove
                    </Button>
                  )}
                </div>
                {step.name === 'removing' && step.passkey._id === passkey._id && (
                  <AccountPasskeyRemove
                    passkey={passkey}
                    onDone={done}
                    onCancel={() => setStep({ name: 'idle' })}
                  />
                )}
              </li>
            ))}
          </ul>
        )}
        {full && <p className="text-sm text-slate-600">An account holds at most {MAX_PASSKEYS} passkeys.</p>}
      </div>
    </Card>
  );
}
