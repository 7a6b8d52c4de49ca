import type { ReactNode } from 'react';

const TONES = {
  green: 'bg-green-100 text-green-800',
  slate: 'bg-slate-200 text-slate-700',
  indigo: 'bg-indigo-100 text-indigo-800',
  amber: 'bg-amber-100 text-amber-900',
  red: 'bg-red-600 text-white',
} as const;

export function Badge({ tone, children }: { tone: keyof typeof TONES; children: ReactNode }) {
  return (
    <span
      className={`inline-flex items-center whitespace-nowrap gap-1 rounded-full px-2 py-0.5 text-xs font-medium ${TONES[tone]}`}
    >
      {children}
    </span>
  );
}

/** The spec's Active / Inactive wording for an isActive flag, in words so it never relies on colour. */
export function StatusBadge({ active }: { active: boolean }) {
  return <Badge tone={active ? 'green' : 'slate'}>{active ? 'Active' : 'Inactive'}</Badge>;
}
