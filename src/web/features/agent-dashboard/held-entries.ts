/**
 * Entries the server holds for a second confirmation, as the agent's screens read them: the server's
 * list (GET /api/pending, the agent's own entries only) once it has answered since, else what the
 * submission's own answer said. One reading, so that the form, the lists and the status line agree.
 */
import type { PendingDeclaration } from '../../../shared/schemas/pending.js';
import type { Submission } from './submission-entry.js';
import type { MyPending } from './use-my-pending.js';

export type HeldState = 'pending' | 'mismatch';

/** The held declaration of a ghadi and date, if the server's list has one. */
export function heldDeclaration(
  pending: readonly PendingDeclaration[] | undefined,
  ghadiId: number,
  date: string,
): PendingDeclaration | undefined {
  return pending?.find((declaration) => declaration.GID === ghadiId && declaration.Date === date);
}

/**
 * What became of an entry the server answered as held (pending or mismatch), read from the server's
 * list when it was read after `since` (the list's time when the answer came): still held (a mismatch
 * may have arisen since), or gone (published once another person confirmed it, or resolved by an
 * admin, or replaced by a later entry of the agent's).
 */
export function heldNow(entry: Submission, pending: MyPending, since: number): HeldState | 'gone' {
  const own: HeldState = entry.state === 'mismatch' ? 'mismatch' : 'pending';
  if (pending.data === undefined || pending.updatedAt <= since) return own;
  const declaration = heldDeclaration(pending.data, entry.ghadiId, entry.date);
  if (!declaration?.Entries.some((mine) => mine.Result === entry.result)) return 'gone';
  return declaration.Mismatch ? 'mismatch' : 'pending';
}

/** A held row as the lists show it, from the server's list or, while it cannot be read, the phone's. */
export interface HeldRow {
  id: string;
  ghadiId: number;
  ghadiName: string;
  date: string;
  result: string;
  state: HeldState;
  /** When the agent's entry was (last) entered, ISO; the server's time, or the phone's. */
  enteredAt: string;
  /** The value published now, which a confirmation would replace (null: none; undefined: unknown). */
  current?: string | null | undefined;
}

export function heldRows(pending: MyPending, phone: readonly Submission[]): HeldRow[] {
  if (pending.data !== undefined) {
    return pending.data.flatMap((declaration) =>
      declaration.Entries.map((entry) => ({
        id: `${declaration.GID} ${declaration.Date} ${entry.UserId}`,
        ghadiId: declaration.GID,
        ghadiName: declaration.Name,
        date: declaration.Date,
        result: entry.Result,
        state: declaration.Mismatch ? ('mismatch' as const) : ('pending' as const),
        enteredAt: entry.SubmittedAt,
        current: declaration.Current,
      })),
    );
  }
  return phone
    .filter((entry) => entry.state === 'pending' || entry.state === 'mismatch')
    .map((entry) => ({
      id: entry.key,
      ghadiId: entry.ghadiId,
      ghadiName: entry.ghadiName,
      date: entry.date,
      result: entry.result,
      state: entry.state === 'mismatch' ? ('mismatch' as const) : ('pending' as const),
      enteredAt: entry.enteredAt,
    }));
}

/** An age as "45 min", "21 h", "21 h 5 min" (rounded down). */
export function ageText(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

export const timeOf = (iso: string) =>
  new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' }).format(
    new Date(iso),
  );
