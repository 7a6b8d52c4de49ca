import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  MeAnswer,
  OwnPasswordInput,
  SessionsAnswer,
  SessionsEndedAnswer,
} from '../../../shared/schemas/account.js';
import type {
  PasskeyAddedAnswer,
  PasskeyAuthenticationOptionsAnswer,
  PasskeyRegisterInput,
  PasskeyRegistrationOptionsAnswer,
  PasskeyRemoveInput,
  PasskeysAnswer,
} from '../../../shared/schemas/passkeys.js';
import type {
  TwoFactorDisableAnswer,
  TwoFactorDisableInput,
  TwoFactorEnableAnswer,
  TwoFactorEnableInput,
  TwoFactorSetupAnswer,
} from '../../../shared/schemas/two-factor.js';
import { api } from '../../lib/api-client.js';

/** The Account page's own cache entries; a sign-out clears the whole cache, these with it. */
const accountKeys = {
  me: ['account', 'me'] as const,
  sessions: ['account', 'sessions'] as const,
  passkeys: ['account', 'passkeys'] as const,
};

export function useMe() {
  return useQuery({
    queryKey: accountKeys.me,
    queryFn: async () => (await api.get<MeAnswer>('/api/users/me')).data,
  });
}

export function useMySessions() {
  return useQuery({
    queryKey: accountKeys.sessions,
    queryFn: async () => (await api.get<SessionsAnswer>('/api/users/me/sessions')).data,
  });
}

function useRefreshSessions() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: accountKeys.sessions });
}

export function useEndSession() {
  const refresh = useRefreshSessions();
  return useMutation({
    mutationFn: (id: string) =>
      api.delete<{ message?: string }>(`/api/users/me/sessions/${encodeURIComponent(id)}`),
    onSettled: refresh,
  });
}

export function useEndOtherSessions() {
  const refresh = useRefreshSessions();
  return useMutation({
    mutationFn: () => api.post<SessionsEndedAnswer>('/api/users/me/sessions/end-others'),
    onSettled: refresh,
  });
}

export function useChangeOwnPassword() {
  const refresh = useRefreshSessions();
  return useMutation({
    mutationFn: (values: OwnPasswordInput) => api.put<{ message?: string }>('/api/users/me/password', values),
    // Success ends the other sessions: the list shows it.
    onSuccess: refresh,
  });
}

export function useStartTwoFactorSetup() {
  return useMutation({
    mutationFn: () => api.post<TwoFactorSetupAnswer>('/api/users/me/2fa/setup'),
  });
}

/** Enabling answers the backup codes; the account's state is refreshed once they are put away. */
export function useEnableTwoFactor() {
  return useMutation({
    mutationFn: (values: TwoFactorEnableInput) =>
      api.post<TwoFactorEnableAnswer>('/api/users/me/2fa/enable', values),
  });
}

export function useDisableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: TwoFactorDisableInput) =>
      api.post<TwoFactorDisableAnswer>('/api/users/me/2fa/disable', values),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.me }),
  });
}

export function useRefreshMe() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: accountKeys.me });
}

export function useMyPasskeys() {
  return useQuery({
    queryKey: accountKeys.passkeys,
    queryFn: async () => (await api.get<PasskeysAnswer>('/api/users/me/passkeys')).data,
  });
}

/** After a passkey is added or removed: the list, and the account's count of them. */
function useRefreshPasskeys() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: accountKeys.passkeys }),
      queryClient.invalidateQueries({ queryKey: accountKeys.me }),
    ]);
}

export function passkeyRegistrationOptions() {
  return api.post<PasskeyRegistrationOptionsAnswer>('/api/users/me/passkeys/options');
}

/** The options of a fresh assertion, to confirm a removal with a passkey instead of the password. */
export function passkeyConfirmationOptions() {
  return api.post<PasskeyAuthenticationOptionsAnswer>('/api/users/login/passkey/options', undefined, {
    anonymous: true,
  });
}

export function useAddPasskey() {
  const refresh = useRefreshPasskeys();
  return useMutation({
    mutationFn: (values: PasskeyRegisterInput) =>
      api.post<PasskeyAddedAnswer>('/api/users/me/passkeys', values),
    onSettled: refresh,
  });
}

export function useRemovePasskey() {
  const refresh = useRefreshPasskeys();
  return useMutation({
    mutationFn: ({ id, proof }: { id: string; proof: PasskeyRemoveInput }) =>
      api.delete<{ message?: string }>(`/api/users/me/passkeys/${encodeURIComponent(id)}`, { body: proof }),
    onSettled: refresh,
  });
}
