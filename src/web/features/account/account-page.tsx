import { useEffect, useRef } from 'react';
import { Alert } from '../../components/ui/alert.js';
import { Card, PageTitle } from '../../components/ui/card.js';
import { ErrorState, Spinner } from '../../components/ui/states.js';
import { useSession } from '../../lib/session.js';
import { useMe } from './account-api.js';
import { AccountPasskeys } from './account-passkeys.js';
import { AccountPasswordForm } from './account-password-form.js';
import { AccountSessions } from './account-sessions.js';
import { AccountTwoFactor } from './account-two-factor.js';

export const PASSWORD_CHANGE_BANNER =
  'This account still has the password the server generated for it. Choose your own password below before going on: the rest of the site opens once it is changed.';
export const TWO_FACTOR_SETUP_BANNER =
  'Admins of this site must sign in with a two-factor code or a passkey. Set up two-factor sign-in (or add a passkey) below if you have neither yet, then sign in again with a code (or the passkey): the rest of the site opens after that.';

/**
 * One's own account, the same page for admins and agents: two-factor sign-in, the password, the
 * passkeys and the sessions signed in. When the server demands a new password or two-factor first (its 403s),
 * the route guard keeps the user here, and the page opens at the part to do, with a banner saying why.
 */
export function AccountPage() {
  const session = useSession();
  const me = useMe();
  const mustChangePassword = Boolean(session?.passwordChangeRequired);
  const mustSetUpTwoFactor = !mustChangePassword && Boolean(session?.twoFactorSetupRequired);
  const twoFactorRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (mustSetUpTwoFactor) twoFactorRef.current?.scrollIntoView?.({ block: 'start' });
  }, [mustSetUpTwoFactor]);

  const twoFactor = (
    <div ref={twoFactorRef} id="two-factor" className="scroll-mt-20">
      {me.isPending ? (
        <Card title="Two-factor sign-in">
          <Spinner />
        </Card>
      ) : me.isError ? (
        <Card title="Two-factor sign-in">
          <ErrorState message="Failed to load your account" onRetry={() => me.refetch()} />
        </Card>
      ) : (
        <AccountTwoFactor me={me.data} />
      )}
    </div>
  );
  const password = (
    <div id="password" className="scroll-mt-20">
      <AccountPasswordForm autoFocus={mustChangePassword} />
    </div>
  );

  return (
    <div className="space-y-4">
      <PageTitle>Account</PageTitle>
      {me.data && (
        <p className="-mt-2 text-sm text-slate-600">
          Signed in as <span className="font-medium text-slate-900">{me.data.DisplayName}</span> (
          {me.data.UserName})
        </p>
      )}
      {mustChangePassword && <Alert tone="error">{PASSWORD_CHANGE_BANNER}</Alert>}
      {mustSetUpTwoFactor && <Alert tone="error">{TWO_FACTOR_SETUP_BANNER}</Alert>}
      {mustChangePassword ? (
        <>
          {password}
          {twoFactor}
        </>
      ) : (
        <>
          {twoFactor}
          {password}
        </>
      )}
      <AccountPasskeys />
      <AccountSessions />
    </div>
  );
}
