import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import {
  type TwoFactorEnableInput,
  type TwoFactorSetupAnswer,
  twoFactorEnableInput,
} from '../../../shared/schemas/two-factor.js';
import { Alert } from '../../components/ui/alert.js';
import { Button } from '../../components/ui/button.js';
import { TextField } from '../../components/ui/field.js';
import { useAppForm } from '../../hooks/use-app-form.js';
import { messageOr } from '../../lib/api-client.js';
import { useEnableTwoFactor } from './account-api.js';
import { AccountCopyButton } from './account-copy-button.js';
import { AccountQrCode } from './account-qr-code.js';

/** "JBSWY3DPEHPK3PXP" → "JBSW Y3DP EHPK 3PXP": easier to read out and type into an app. */
export function groupsOfFour(secret: string): string {
  return secret.match(/.{1,4}/g)?.join(' ') ?? secret;
}

/**
 * The second step of setting up: the app scans the QR code (or takes the secret typed in), and the
 * code it then shows proves it has the secret. The server answers the backup codes.
 */
export function AccountTwoFactorSetup({
  setup,
  onEnabled,
  onCancel,
}: {
  setup: TwoFactorSetupAnswer;
  onEnabled: (backupCodes: string[]) => void;
  onCancel: () => void;
}) {
  const enable = useEnableTwoFactor();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useAppForm<{ Code: string }, unknown, TwoFactorEnableInput>({
    resolver: zodResolver(twoFactorEnableInput),
    defaultValues: { Code: '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      const answer = await enable.mutateAsync(values);
      onEnabled(answer.backupCodes);
    } catch (error) {
      setFailure(messageOr(error, 'Failed to turn on two-factor sign-in'));
    }
  });

  return (
    <div className="space-y-5">
      <ol className="list-decimal space-y-1 pl-5 text-sm text-slate-700">
        <li>
          Open an authenticator app on your phone (for example Google Authenticator, Aegis or 1Password).
        </li>
        <li>Scan this QR code with it, or type the key below into it.</li>
        <li>Enter the 6-digit code the app then shows.</li>
      </ol>
      <div className="flex flex-col gap-5 sm:flex-row sm:items-start">
        <div className="self-center rounded-lg border border-slate-200 p-2 sm:self-start">
          <AccountQrCode text={setup.otpauthUrl} />
        </div>
        <div className="min-w-0 flex-1 space-y-2">
          <p className="text-sm font-medium text-slate-700" id="two-factor-secret-label">
            Setup key
          </p>
          <p
            data-testid="two-factor-secret"
            className="break-all rounded-md bg-slate-100 px-3 py-2 font-mono sm:w-fit text-base tracking-wider text-slate-900"
          >
            {groupsOfFour(setup.secret)}
          </p>
          <AccountCopyButton text={setup.secret} label="Copy key" />
          <p className="text-xs text-slate-500">Time-based, 6 digits, every 30 seconds (SHA-1).</p>
        </div>
      </div>
      <form onSubmit={onSubmit} noValidate className="max-w-xs space-y-4">
        {failure && <Alert tone="error">{failure}</Alert>}
        <TextField
          label="6-digit code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          maxLength={7}
          spellCheck={false}
          className="font-mono tracking-widest"
          error={errors.Code?.message}
          {...register('Code')}
        />
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={isSubmitting}>
            {isSubmitting ? 'Turning on…' : 'Turn on'}
          </Button>
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        </div>
      </form>
    </div>
  );
}
