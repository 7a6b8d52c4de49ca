import { useState } from 'react';
import type { PasskeyAuthenticationOptionsAnswer } from '../../../shared/schemas/passkeys.js';
import type { LoginAnswer } from '../../../shared/schemas/users.js';
import { Button } from '../../components/ui/button.js';
import { api } from '../../lib/api-client.js';
import { assertPasskey, passkeyFailure, passkeysSupported } from '../../lib/passkey-ceremony.js';

/**
 * "Sign in with a passkey": the server's challenge (no user name: the passkey says whose it is),
 * signed on this device, answered as a password sign-in is. Not shown where the browser has no
 * WebAuthn.
 */
export function LoginPasskeyButton({
  onSignedIn,
  onFailure,
  disabled,
}: {
  onSignedIn: (answer: LoginAnswer) => void;
  onFailure: (message: string | null) => void;
  disabled?: boolean;
}) {
  const [busy, setBusy] = useState(false);
  if (!passkeysSupported()) return null;

  const signIn = async () => {
    onFailure(null);
    setBusy(true);
    try {
      const { options } = await api.post<PasskeyAuthenticationOptionsAnswer>(
        '/api/users/login/passkey/options',
        undefined,
        { anonymous: true },
      );
      const response = await assertPasskey(options);
      onSignedIn(await api.post<LoginAnswer>('/api/users/login/passkey', { response }, { anonymous: true }));
    } catch (error) {
      onFailure(passkeyFailure(error, 'Login failed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="mt-4 space-y-4">
      <div className="flex items-center gap-3 text-xs text-slate-500" aria-hidden="true">
        <span className="h-px flex-1 bg-slate-200" />
        or
        <span className="h-px flex-1 bg-slate-200" />
      </div>
      <Button variant="secondary" className="w-full" onClick={signIn} disabled={busy || disabled}>
        {busy ? 'Waiting for the passkey…' : 'Sign in with a passkey'}
      </Button>
    </div>
  );
}
