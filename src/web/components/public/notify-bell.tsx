import { useEffect, useState } from 'react';
import type { Language } from '../../../shared/page-language.js';
import { BELLS_EVENT, followedGhadis } from '../../lib/followed-ghadis.js';
import type { BellNotes } from './bell-notes.js';
import { BELL_NAME } from './bell-text.js';

/**
 * A ghadi's notification bell. Only what the bell shows lives here, for the public script's budget:
 * the push code (worker, subscription, the server) loads on a tap (lib/push-follow.ts), and what a
 * bell says when it cannot work loads only where it cannot (bell-notes.ts). Without script it stays
 * hidden, since it could do nothing.
 */
type BellState = 'hidden' | 'off' | 'on' | 'busy' | keyof BellNotes;

function currentState(gid: number): BellState {
  const nav = navigator as Navigator & { standalone?: boolean };
  // An iPad reports itself as a Mac, with a touch screen.
  const ios = /iP(hone|ad|od)/.test(nav.userAgent) || (nav.platform === 'MacIntel' && nav.maxTouchPoints > 1);
  if (ios && !nav.standalone && !matchMedia('(display-mode: standalone)').matches) return 'install';
  if (!('serviceWorker' in nav && 'PushManager' in window && 'Notification' in window)) return 'unsupported';
  if (Notification.permission === 'denied') return 'blocked';
  return Notification.permission === 'granted' && followedGhadis().includes(gid) ? 'on' : 'off';
}

export function NotifyBell({
  gid,
  name,
  language,
  onCard = false,
}: {
  gid: number;
  name: string;
  language: Language;
  /** A board card's corner: the icon alone. */
  onCard?: boolean;
}) {
  const [state, setState] = useState<BellState>('hidden');
  const [note, setNote] = useState('');
  const toggles = /^(off|on|busy|failed)$/.test(state);

  const show = (next: BellState) => {
    setState(next);
    setNote('');
    if (/^(blocked|unsupported|install|failed)$/.test(next)) {
      import('./bell-notes.js').then(({ BELL_NOTES }) =>
        setNote(BELL_NOTES[language][next as keyof BellNotes]),
      );
    }
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: show only sets state; gid is what matters
  useEffect(() => {
    const reread = () => show(currentState(gid));
    reread();
    window.addEventListener(BELLS_EVENT, reread);
    return () => window.removeEventListener(BELLS_EVENT, reread);
  }, [gid]);

  const toggle = async () => {
    if (state === 'busy' || !toggles) return;
    // Asked on the tap itself, never earlier: Safari grants a prompt only within the tap's handler.
    const permission = state === 'on' ? null : Notification.requestPermission();
    setState('busy');
    try {
      const push = await import('../../lib/push-follow.js');
      await (permission ? push.follow(gid, language, permission) : push.unfollow(gid, language));
      window.dispatchEvent(new Event(BELLS_EVENT));
    } catch (error) {
      console.error(error);
      show('failed');
    }
  };

  // A failure keeps the name and says what happened after it.
  const label = toggles || !note ? BELL_NAME[language](name) + (note && `. ${note}`) : note;
  const lit = state === 'on';
  return (
    <button
      type="button"
      hidden={state === 'hidden'}
      aria-pressed={toggles ? lit : undefined}
      aria-disabled={toggles && state !== 'busy' ? undefined : true}
      aria-label={onCard ? label : undefined}
      title={label}
      onClick={toggle}
      className={`${onCard ? 'absolute top-1 right-1 z-10 h-9 w-9 justify-center' : 'min-h-9 gap-1.5 px-3 text-sm'} inline-flex items-center rounded-full border border-indigo-700 ${lit ? 'bg-indigo-700 text-white' : 'bg-white text-indigo-900'} aria-disabled:border-slate-300 aria-disabled:text-slate-600`}
    >
      <svg viewBox="0 0 24 24" aria-hidden="true" className="h-5 w-5 shrink-0 stroke-current stroke-2">
        <path fill={lit ? 'currentColor' : 'none'} d="M6 16v-5a6 6 0 0 1 12 0v5l2 2H4zm4 4a2 2 0 0 0 4 0" />
        {!toggles && <path d="M4 4l16 16" />}
      </svg>
      {!onCard && label}
      {/* Seen beside the words while on; heard from aria-pressed. */}
      {!onCard && lit && <span aria-hidden="true">✓</span>}
    </button>
  );
}
