import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { z } from 'zod';
import {
  PASSKEY_REMOVED_MESSAGE,
  type PasskeyRecord,
  type PasskeyRemoveInput,
} from '../../../shared/schemas/passkeys.js';
import { Alert } from '../../components/ui/alert.js';
import { Button } from '../../components/ui/button.js';
import { TextField } from '../../components/ui/field.js';
import { useAppForm } from '../../hooks/use-app-form.js';
import { assertPasskey, passkeyFailure, passkeysSupported } from '../../lib/passkey-ceremony.js';
import { passkeyConfirmationOptions, useRemovePasskey } from './account-api.js';

const passwordForm = z.object({ Password: z.string().min(1, 'This field is required').max(128) });
type PasswordValues = z.infer<typeof passwordForm>;

/**
 * Removing a passkey asks for proof that the owner is here, not only their open session: the
 * password, or a fresh assertion by any of the account's passkeys (the one removed included).
 */
export function AccountPasskeyRemove({
  passkey,
  onDone,
  onCancel,
}: {
  passkey: PasskeyRecord;
  onDone: (message: string) => void;
  onCancel: () => void;
}) {
  const remove = useRemovePasskey();
  const [failure, setFailure] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useAppForm<PasswordValues>({ resolver: zodResolver(passwordForm), defaultValues: { Password: '' } });

  const send = async (proof: PasskeyRemoveInput) => {
    const answer = await remove.mutateAsync({ id: passkey._id, proof });
    onDone(answer.message ?? PASSKEY_REMOVED_MESSAGE);
  };

  const onSubmit = handleSubmit(async ({ Password }) => {
    setFailure(null);
    try {
      await send({ Password });
    } catch (error) {
      setFailure(passkeyFailure(error, 'Failed to remove the passkey'));
    }
  });

  const confirmWithPasskey = async () => {
    setFailure(null);
    setConfirming(true);
    try {
      const { options } = await passkeyConfirmationOptions();
      await send({ response: await assertPasskey(options) });
    } catch (error) {
      setFailure(passkeyFailure(error, 'Failed to remove the passkey'));
    } finally {
      setConfirming(false);
    }
  };

  const busy = isSubmitting || confirming;
  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="max-w-xs space-y-4"
      aria-label={`Remove the passkey ${passkey.Name}`}
    >
      <p className="text-sm text-slate-700">
        To remove <span className="font-medium text-slate-900">{passkey.Name}</span>, confirm your password
        {passkeysSupported() ? ', or confirm with one of your passkeys.' : '.'}
      </p>
      {failure && <Alert tone="error">{failure}</Alert>}
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        autoFocus
        error={errors.Password?.message}
        {...register('Password')}
      />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="danger" disabled={busy}>
          {isSubmitting ? 'Removing…' : 'Remove'}
        </Button>
        {passkeysSupported() && (
          <Button variant="secondary" onClick={confirmWithPasskey} disabled={busy}>
            {confirming ? 'Waiting for the passkey…' : 'Confirm with a passkey'}
          </Button>
        )}
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
