import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { z } from 'zod';
import { PASSKEY_ADDED_MESSAGE, passkeyName } from '../../../shared/schemas/passkeys.js';
import { Alert } from '../../components/ui/alert.js';
import { Button } from '../../components/ui/button.js';
import { TextField } from '../../components/ui/field.js';
import { useAppForm } from '../../hooks/use-app-form.js';
import { createPasskey, passkeyFailure } from '../../lib/passkey-ceremony.js';
import { passkeyRegistrationOptions, useAddPasskey } from './account-api.js';

const addForm = z.object({ Name: passkeyName });
type AddValues = z.infer<typeof addForm>;

/**
 * Adding a passkey: a name the user will know it by, then the browser's own prompt (fingerprint,
 * face, the screen lock or a security key). The options are asked for on submit, so their
 * five-minute challenge is fresh when the prompt opens.
 */
export function AccountPasskeyAdd({
  onDone,
  onCancel,
}: {
  onDone: (message: string) => void;
  onCancel: () => void;
}) {
  const add = useAddPasskey();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useAppForm<AddValues>({ resolver: zodResolver(addForm), defaultValues: { Name: '' } });

  const onSubmit = handleSubmit(async ({ Name }) => {
    setFailure(null);
    try {
      const { options } = await passkeyRegistrationOptions();
      const response = await createPasskey(options);
      const answer = await add.mutateAsync({ response, Name });
      onDone(answer.message ?? PASSKEY_ADDED_MESSAGE);
    } catch (error) {
      setFailure(passkeyFailure(error, 'Failed to add the passkey'));
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="max-w-xs space-y-4" aria-label="Add a passkey">
      {failure && <Alert tone="error">{failure}</Alert>}
      <TextField
        label="Passkey name"
        hint="So you can tell it apart later, e.g. Work laptop or My phone."
        autoComplete="off"
        autoFocus
        maxLength={64}
        error={errors.Name?.message}
        {...register('Name')}
      />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? 'Waiting for the passkey…' : 'Create passkey'}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
