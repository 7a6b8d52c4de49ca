import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { MeRecord } from '../../../shared/schemas/account.js';
import {
  type TwoFactorDisableInput,
  type TwoFactorSetupAnswer,
  twoFactorDisableInput,
} from '../../../shared/schemas/two-factor.js';
import { Alert } from '../../components/ui/alert.js';
import { Badge } from '../../components/ui/badge.js';
import { Button } from '../../components/ui/button.js';
import { Card } from '../../components/ui/card.js';
import { TextField } from '../../components/ui/field.js';
import { useAppForm } from '../../hooks/use-app-form.js';
import { messageOr } from '../../lib/api-client.js';
import { logOut } from '../../lib/log-out.js';
import { useSession } from '../../lib/session.js';
import { useDisableTwoFactor, useRefreshMe, useStartTwoFactorSetup } from './account-api.js';
import { AccountBackupCodes } from './account-backup-codes.js';
import { AccountTwoFactorSetup } from './account-two-factor-setup.js';

type Step =
  | { name: 'idle' }
  | { name: 'setup'; setup: TwoFactorSetupAnswer }
  | { name: 'codes'; codes: string[] }
  | { name: 'turning-off' };

/** Two-factor sign-in: its state, setting it up (QR code, key, backup codes) and turning it off. */
export function AccountTwoFactor({ me }: { me: MeRecord }) {
  const session = useSession();
  const navigate = useNavigate();
  const start = useStartTwoFactorSetup();
  const refreshMe = useRefreshMe();
  const [step, setStep] = useState<Step>({ name: 'idle' });
  const [outcome, setOutcome] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  const beginSetup = async () => {
    setOutcome(null);
    try {
      setStep({ name: 'setup', setup: await start.mutateAsync() });
    } catch (error) {
      setOutcome({ tone: 'error', text: messageOr(error, 'Failed to start the setup') });
    }
  };

  const finish = () => {
    setStep({ name: 'idle' });
    setOutcome({ tone: 'success', text: 'Two-factor sign-in is on.' });
  };

  // This session was signed in with the password alone, which the site does not accept for admins.
  const signInAgain = () => {
    const loginPath = `/${session?.userType ?? 'admin'}/login`;
    logOut();
    navigate(loginPath, { replace: true });
  };

  return (
    <Card
      title="Two-factor sign-in"
      actions={<Badge tone={me.TwoFactor ? 'green' : 'slate'}>{me.TwoFactor ? 'On' : 'Off'}</Badge>}
    >
      <div className="space-y-4">
        {outcome && <Alert tone={outcome.tone}>{outcome.text}</Alert>}
        {step.name === 'setup' && (
          <AccountTwoFactorSetup
            setup={step.setup}
            onEnabled={(codes) => {
              setStep({ name: 'codes', codes });
              // It is on from now: the state shown says so while the codes are put away.
              refreshMe();
            }}
            onCancel={() => setStep({ name: 'idle' })}
          />
        )}
        {step.name === 'codes' && (
          <AccountBackupCodes codes={step.codes} userName={me.UserName} onDone={finish} />
        )}
        {step.name === 'turning-off' && (
          <TurnOffForm
            onDone={() => {
              setStep({ name: 'idle' });
              setOutcome({ tone: 'success', text: 'Two-factor sign-in is off.' });
            }}
            onCancel={() => setStep({ name: 'idle' })}
          />
        )}
        {step.name === 'idle' && !me.TwoFactor && (
          <>
            <p className="text-sm text-slate-700">
              Besides your password, ask for a 6-digit code from an authenticator app on your phone each time
              you sign in.
            </p>
            <Button onClick={beginSetup} disabled={start.isPending}>
              {start.isPending ? 'Starting…' : 'Set up'}
            </Button>
          </>
        )}
        {step.name === 'idle' && me.TwoFactor && (
          <>
            <p className="text-sm text-slate-700">
              Signing in asks for a code from your authenticator app, or one of your backup codes.
            </p>
            {session?.twoFactorSetupRequired && (
              <Alert
                tone="info"
                action={
                  <Button size="sm" onClick={signInAgain}>
                    Sign in again
                  </Button>
                }
              >
                This session was signed in with the password alone. Sign in again with a code to go on.
              </Alert>
            )}
            <Button variant="secondary" onClick={() => setStep({ name: 'turning-off' })}>
              Turn off
            </Button>
          </>
        )}
      </div>
    </Card>
  );
}

function TurnOffForm({ onDone, onCancel }: { onDone: () => void; onCancel: () => void }) {
  const disable = useDisableTwoFactor();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useAppForm<{ Password: string; Code: string }, unknown, TwoFactorDisableInput>({
    resolver: zodResolver(twoFactorDisableInput),
    defaultValues: { Password: '', Code: '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      await disable.mutateAsync(values);
      onDone();
    } catch (error) {
      setFailure(messageOr(error, 'Failed to turn off two-factor sign-in'));
    }
  });

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="max-w-xs space-y-4"
      aria-label="Turn off two-factor sign-in"
    >
      <p className="text-sm text-slate-700">To turn it off, confirm your password and a current code.</p>
      {failure && <Alert tone="error">{failure}</Alert>}
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        error={errors.Password?.message}
        {...register('Password')}
      />
      <TextField
        label="Code from your app, or a backup code"
        autoComplete="one-time-code"
        autoCapitalize="none"
        spellCheck={false}
        className="font-mono"
        error={errors.Code?.message}
        {...register('Code')}
      />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="danger" disabled={isSubmitting}>
          {isSubmitting ? 'Turning off…' : 'Turn off'}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
