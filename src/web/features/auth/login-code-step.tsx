import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { z } from 'zod';
import { totpCode, twoFactorCode } from '../../../shared/schemas/two-factor.js';
import { Alert } from '../../components/ui/alert.js';
import { Button } from '../../components/ui/button.js';
import { TextField } from '../../components/ui/field.js';
import { useAppForm } from '../../hooks/use-app-form.js';

const appCodeForm = z.object({ Code: totpCode });
const backupCodeForm = z.object({ Code: twoFactorCode });

const LINK =
  'inline-flex min-h-6 items-center text-sm font-medium text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600';

/**
 * The second step of a sign-in with two-factor on: the code of the authenticator app (a numeric
 * keypad, and the one-time-code autofill of phones), or one of the backup codes instead.
 */
export function LoginCodeStep(props: CodeStepProps) {
  const [backup, setBackup] = useState(false);
  // A form of its own for each kind of code, each with its own rule.
  return (
    <CodeForm
      key={backup ? 'backup' : 'app'}
      {...props}
      backup={backup}
      onSwitch={() => setBackup(!backup)}
    />
  );
}

interface CodeStepProps {
  /** What the server said it wants, when it said. */
  prompt: string;
  failure: string | null;
  onSubmit: (code: string) => Promise<void>;
  onBack: () => void;
}

function CodeForm({
  prompt,
  failure,
  onSubmit,
  onBack,
  backup,
  onSwitch,
}: CodeStepProps & { backup: boolean; onSwitch: () => void }) {
  const {
    register,
    handleSubmit,
    reset,
    setFocus,
    formState: { errors, isSubmitting },
  } = useAppForm<{ Code: string }>({
    resolver: zodResolver(backup ? backupCodeForm : appCodeForm),
    defaultValues: { Code: '' },
  });

  const submit = handleSubmit(async ({ Code }) => {
    await onSubmit(Code);
    // A wrong code stays on this step: the field is emptied for the next one.
    reset({ Code: '' });
    setFocus('Code');
  });

  return (
    <form onSubmit={submit} noValidate className="mt-6 space-y-4" aria-label="Two-factor code">
      {failure ? <Alert tone="error">{failure}</Alert> : <Alert tone="info">{prompt}</Alert>}
      {backup ? (
        <TextField
          label="Backup code"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          autoFocus
          className="font-mono"
          error={errors.Code?.message}
          {...register('Code')}
        />
      ) : (
        <TextField
          label="Authentication code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          maxLength={7}
          spellCheck={false}
          autoFocus
          className="font-mono tracking-widest"
          error={errors.Code?.message}
          {...register('Code')}
        />
      )}
      <button type="button" onClick={onSwitch} className={LINK}>
        {backup ? 'Use the code from your app' : 'Use a backup code'}
      </button>
      <Button type="submit" disabled={isSubmitting} className="w-full">
        {isSubmitting ? 'Verifying...' : 'Verify'}
      </Button>
      <button type="button" onClick={onBack} className={LINK}>
        Back to the password
      </button>
    </form>
  );
}
