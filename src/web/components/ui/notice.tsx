import { ApiError } from '../../lib/api-client.js';
import { Alert } from './alert.js';
import { Button } from './button.js';

/** A page's latest outcome: the spec's fixed text, plus the server's explanation when it gave one. */
export interface Notice {
  /** info: neither done nor failed, e.g. a result held for a second confirmation. */
  tone: 'success' | 'error' | 'info';
  message: string;
  detail?: string | undefined;
}

export function successNotice(message: string): Notice {
  return { tone: 'success', message };
}

/**
 * Keeps the catalogue's text verbatim (e.g. "Failed to delete ghadi") while still telling the admin
 * why, when the server said (e.g. "The last active admin cannot be deleted").
 */
export function failureNotice(message: string, error: unknown): Notice {
  const detail = error instanceof ApiError ? error.serverMessage : undefined;
  return { tone: 'error', message, detail: detail && detail !== message ? detail : undefined };
}

/** Sticks below the fixed top bar, so the outcome of a Delete far down a long list is still in view. */
export function NoticeAlert({ notice, onDismiss }: { notice: Notice | null; onDismiss: () => void }) {
  if (!notice) return null;
  return (
    <div className="sticky top-16 z-[5] mb-4 shadow-sm">
      <Alert
        tone={notice.tone}
        action={
          <Button size="sm" variant="ghost" onClick={onDismiss}>
            Dismiss
          </Button>
        }
      >
        <span className="block font-medium">{notice.message}</span>
        {notice.detail && <span className="block">{notice.detail}</span>}
      </Alert>
    </div>
  );
}
