import { useState } from 'react';
import { Button } from '../../components/ui/button.js';

/** Copies a text to the clipboard and says so; where the browser refuses, says to select it instead. */
export function AccountCopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <Button variant="secondary" size="sm" onClick={copy}>
        {label}
      </Button>
      <span role="status" className="text-sm text-slate-600">
        {state === 'copied' ? 'Copied.' : state === 'failed' ? 'Copy failed: select the text instead.' : ''}
      </span>
    </span>
  );
}
