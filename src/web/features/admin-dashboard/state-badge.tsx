import type { GhadiState } from '../../../shared/ghadi-due.js';
import type { Closure } from '../../../shared/open-close-steps.js';
import { Badge } from '../../components/ui/badge.js';

const ICONS = {
  clock: 'M10 5v5l3 2M10 18a8 8 0 1 0 0-16 8 8 0 0 0 0 16Z',
  bell: 'M10 3a5 5 0 0 0-5 5v3l-1.5 3h13L15 11V8a5 5 0 0 0-5-5ZM8 17h4',
  alert: 'M10 3 2 17h16L10 3Zm0 5v4m0 3h.01',
  check: 'M4 10.5l4 4 8-9',
  pencil: 'M4 16l1-4 8-8 3 3-8 8-4 1Zm7-10 3 3',
  closed: 'M10 18a8 8 0 1 0 0-16 8 8 0 0 0 0 16ZM4.5 4.5l11 11',
};

/** Each state in words, a colour and an icon: never the colour alone. */
export const STATE_LOOK: Record<
  GhadiState,
  { label: string; tone: 'slate' | 'amber' | 'red' | 'green' | 'indigo'; icon: keyof typeof ICONS }
> = {
  waiting: { label: 'Waiting', tone: 'slate', icon: 'clock' },
  due: { label: 'Due', tone: 'amber', icon: 'bell' },
  overdue: { label: 'Overdue', tone: 'red', icon: 'alert' },
  declared: { label: 'Declared', tone: 'green', icon: 'check' },
  corrected: { label: 'Corrected', tone: 'indigo', icon: 'pencil' },
};

export function StateIcon({
  name,
  className = 'size-3.5',
}: {
  name: keyof typeof ICONS;
  className?: string;
}) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 20 20"
      className={`shrink-0 ${className}`}
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d={ICONS[name]} />
    </svg>
  );
}

export function StateBadge({ state }: { state: GhadiState }) {
  const look = STATE_LOOK[state];
  return (
    <Badge tone={look.tone}>
      <StateIcon name={look.icon} />
      {look.label}
    </Badge>
  );
}

/** A ghadi that does not run today: "Holiday" or "Closed today", in words and with its own icon. */
export function ClosedBadge({ closed }: { closed: Closure }) {
  return (
    <Badge tone="slate">
      <StateIcon name="closed" />
      {closed === 'holiday' ? 'Holiday' : 'Closed today'}
    </Badge>
  );
}

/**
 * A ghadi needing two people whose value of the day waits: for a second person's entry, or (entries
 * that differ) for the admin's decision on the Pending results screen.
 */
export function PendingBadge({ mismatch }: { mismatch: boolean }) {
  return mismatch ? (
    <Badge tone="red">
      <StateIcon name="alert" />
      Entries differ
    </Badge>
  ) : (
    <Badge tone="amber">
      <StateIcon name="clock" />
      Waiting for 2nd
      <span className="sr-only"> confirmation</span>
    </Badge>
  );
}
