import { useState } from 'react';
import type { ReceiptText } from './receipt-text.js';

/** What sharing a link came to: the phone's share sheet, the clipboard, or neither (shown to copy). */
export type ShareOutcome = 'shared' | 'cancelled' | 'copied' | 'manual';

/**
 * Shares a link with the device's own share sheet (phones: WhatsApp, Telegram, messages), or where
 * there is none copies it; 'manual' when neither works (an old browser, a page not served over
 * HTTPS), and the caller shows the link to copy by hand.
 */
export async function shareLink(url: string, title: string): Promise<ShareOutcome> {
  if (typeof navigator.share === 'function') {
    try {
      await navigator.share({ title, url });
      return 'shared';
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return 'cancelled';
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    return 'copied';
  } catch {
    return 'manual';
  }
}

const buttonClass =
  'inline-flex min-h-11 items-center justify-center rounded-md bg-indigo-700 px-4 py-2 text-sm font-semibold text-white hover:bg-indigo-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-700';

/** A button that shares `path` (this site's) as a full address, and says what came of it. */
export function ShareButton({ path, title, text }: { path: string; title: string; text: ReceiptText }) {
  const [outcome, setOutcome] = useState<ShareOutcome | null>(null);
  const [address, setAddress] = useState('');
  const share = async () => {
    const url = new URL(path, window.location.href).href;
    setAddress(url);
    setOutcome(await shareLink(url, title));
  };
  return (
    <div className="space-y-2">
      <button type="button" className={buttonClass} onClick={() => void share()}>
        {text.share}
      </button>
      <p role="status" className="text-sm font-medium text-emerald-800">
        {outcome === 'copied' ? text.copied : ''}
      </p>
      {outcome === 'manual' && (
        <label className="block text-sm text-slate-700">
          {text.copyThis}
          <input
            readOnly
            value={address}
            onFocus={(event) => event.currentTarget.select()}
            className="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1.5 font-mono text-sm"
          />
        </label>
      )}
    </div>
  );
}
