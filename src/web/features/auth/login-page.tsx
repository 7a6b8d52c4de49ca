import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { type Location, Navigate, useLocation, useNavigate } from 'react-router';
import {
  type LoginAnswer,
  type LoginInput,
  loginInput,
  type UserType,
} from '../../../shared/schemas/users.js';
import { Alert } from '../../components/ui/alert.js';
import { Button } from '../../components/ui/button.js';
import { TextField } from '../../components/ui/field.js';
import { useAppForm } from '../../hooks/use-app-form.js';
import { ApiError, api, messageOr } from '../../lib/api-client.js';
import { startSession, useSession } from '../../lib/session.js';
import { LoginCodeStep } from './login-code-step.js';
import { LoginPasskeyButton } from './login-passkey-button.js';

const SCREENS: Record<UserType, { title: string; subtitle: string; home: string; wrongRole: string }> = {
  admin: {
    title: 'Admin Login',
    subtitle: 'Sign in to manage agents, ghadis, results and content.',
    home: '/admin/dashboard',
    wrongRole: 'Not authorized or not an admin',
  },
  agent: {
    title: 'Agent Login',
    subtitle: 'Sign in to manage and update results for your assigned ghadis.',
    home: '/agent/dashboard',
    wrongRole: 'Not authorized or not an agent',
  },
};

/** A 401 saying the password was right and a two-factor code is wanted (or the one sent was wrong). */
function wantsCode(error: unknown): error is ApiError {
  return (
    error instanceof ApiError &&
    error.status === 401 &&
    (error.payload as { twoFactorRequired?: unknown } | undefined)?.twoFactorRequired === true
  );
}

const CODE_PROMPT = 'Enter the 6-digit code from your authenticator app.';

/** Where to go after logging in: the remembered location when it belongs to this role's area. */
function destination(role: UserType, state: unknown): string {
  const from = (state as { from?: Location } | null)?.from;
  if (from?.pathname.startsWith(`/${role}/`) && !from.pathname.endsWith('/login')) {
    return `${from.pathname}${from.search}${from.hash}`;
  }
  return SCREENS[role].home;
}

function LoginPage({ userType: role }: { userType: UserType }) {
  const screen = SCREENS[role];
  const session = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  const [showPassword, setShowPassword] = useState(false);
  /** Set once the password was right but the account has two-factor on: the code step shows. */
  const [codeStep, setCodeStep] = useState<{ credentials: LoginInput; prompt: string } | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useAppForm<LoginInput>({
    resolver: zodResolver(loginInput),
    defaultValues: { UserName: '', Password: '' },
  });

  // Already signed in (or just now, before navigate() below runs): go where the login would.
  if (session?.userType === role) return <Navigate to={destination(role, location.state)} replace />;

  /** A sign-in's answer, by password or passkey: this screen's role goes on, the other's is refused. */
  const signedIn = (answer: LoginAnswer): void => {
    if (answer.user.userType !== role) {
      // The server made a session for a screen that refuses it: it is ended, not left unused.
      api
        .post('/api/users/logout', undefined, {
          anonymous: true,
          headers: { authorization: `Bearer ${answer.token}` },
        })
        .catch(() => {
          // Offline: the unused token runs out by itself.
        });
      setCodeStep(null);
      setFailure(screen.wrongRole);
      return;
    }
    startSession({ ...answer.user, token: answer.token });
    navigate(destination(role, location.state), { replace: true });
  };

  /** Signs in, with a two-factor code once the server has asked for one. */
  const signIn = async (values: LoginInput): Promise<void> => {
    setFailure(null);
    try {
      signedIn(await api.post<LoginAnswer>('/api/users/login', values, { anonymous: true }));
    } catch (error) {
      if (wantsCode(error)) {
        const credentials = { UserName: values.UserName, Password: values.Password };
        // The first ask shows as a prompt; a wrong code, as the server's message.
        if (values.Code === undefined) setCodeStep({ credentials, prompt: CODE_PROMPT });
        else setFailure(messageOr(error, 'Login failed'));
        return;
      }
      // Anything else (the password no longer right, too many tries) starts over from the password.
      setCodeStep(null);
      setFailure(messageOr(error, 'Login failed'));
    }
  };

  const onSubmit = handleSubmit(signIn);

  return (
    <main className="flex min-h-dvh items-center justify-center bg-slate-100 px-4 py-10">
      <div className="w-full max-w-sm rounded-xl bg-white p-6 shadow-md sm:p-8">
        <h1 className="text-2xl font-bold text-slate-900">{screen.title}</h1>
        <p className="mt-1 text-sm text-slate-600">{screen.subtitle}</p>
        {codeStep ? (
          <LoginCodeStep
            prompt={codeStep.prompt}
            failure={failure}
            onSubmit={(Code) => signIn({ ...codeStep.credentials, Code })}
            onBack={() => {
              setFailure(null);
              setCodeStep(null);
            }}
          />
        ) : (
          <form onSubmit={onSubmit} noValidate className="mt-6 space-y-4">
            {failure && <Alert tone="error">{failure}</Alert>}
            <TextField
              label="Username"
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              error={errors.UserName?.message}
              {...register('UserName')}
            />
            <div className="space-y-1">
              <TextField
                label="Password"
                type={showPassword ? 'text' : 'password'}
                autoComplete="current-password"
                error={errors.Password?.message}
                {...register('Password')}
              />
              <button
                type="button"
                onClick={() => setShowPassword((shown) => !shown)}
                aria-pressed={showPassword}
                className="inline-flex min-h-6 items-center text-sm font-medium text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
              >
                {showPassword ? 'Hide password' : 'Show password'}
              </button>
            </div>
            <Button type="submit" disabled={isSubmitting} className="w-full">
              {isSubmitting ? 'Logging in...' : 'Login'}
            </Button>
          </form>
        )}
        {!codeStep && (
          <LoginPasskeyButton onSignedIn={signedIn} onFailure={setFailure} disabled={isSubmitting} />
        )}
      </div>
    </main>
  );
}

export function AdminLoginPage() {
  return <LoginPage userType="admin" />;
}

export function AgentLoginPage() {
  return <LoginPage userType="agent" />;
}
