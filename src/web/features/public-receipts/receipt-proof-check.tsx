import { useEffect, useState } from 'react';
import type { Language } from '../../../shared/page-language.js';
import type { ReceiptFound } from '../../../shared/public-page-data.js';
import type { ReceiptCheck } from '../../../shared/receipt-proof.js';
import { RECEIPT_PROOF_TEXT } from './receipt-proof-text.js';

/** Where the check stands: not started (no script, or before hydration), running, or its verdict. */
export type ProofState =
  | { state: 'idle' }
  | { state: 'checking' }
  | { state: 'done'; check: ReceiptCheck }
  | { state: 'unfetched' };

/** The site's published verifier key (C2SP), fetched when the page checks its proof. */
export const LOG_KEY_PATH = '/api/log/key';

/**
 * Checks the page's proof: the verifier's code (Web Crypto) is loaded only now, out of the pages'
 * scripts, and the key is fetched from the site rather than taken from the page's own data.
 */
export async function checkFound(found: ReceiptFound): Promise<ProofState> {
  const { checkReceiptProof } = await import('../../../shared/receipt-proof.js');
  let key: string;
  try {
    const answer = await fetch(LOG_KEY_PATH);
    if (!answer.ok) return { state: 'unfetched' };
    key = await answer.text();
  } catch {
    return { state: 'unfetched' };
  }
  return { state: 'done', check: await checkReceiptProof(found.entry, found.proof, found.checkpoint, key) };
}

/** The verdict, as words: server-rendered as the way to check by hand until a script checks it. */
export function ProofVerdict({ state, language }: { state: ProofState; language: Language }) {
  const text = RECEIPT_PROOF_TEXT[language];
  if (state.state === 'idle') return <p data-testid="receipt-proof-verdict">{text.byHand}</p>;
  if (state.state === 'checking')
    return (
      <p role="status" data-testid="receipt-proof-verdict" className="text-slate-700">
        {text.checking}
      </p>
    );
  const failed = state.state === 'unfetched' ? 'fetch' : state.check.verified ? null : state.check.failed;
  if (failed === null && state.state === 'done' && state.check.verified)
    return (
      <p
        role="status"
        data-testid="receipt-proof-verdict"
        data-verdict="verified"
        className="rounded-lg border border-emerald-300 bg-emerald-50 p-3 font-semibold text-emerald-900"
      >
        ✓ {text.verified(state.check.size, state.check.keyId)}
      </p>
    );
  const unchecked = failed === 'browser' || failed === 'fetch';
  return (
    <div
      role="alert"
      data-testid="receipt-proof-verdict"
      data-verdict={unchecked ? 'unchecked' : 'failed'}
      className={
        unchecked
          ? 'rounded-lg border border-amber-300 bg-amber-50 p-3 text-amber-950'
          : 'rounded-lg border border-red-300 bg-red-50 p-3 text-red-900'
      }
    >
      <p className="font-semibold">{text.failed[failed ?? 'proof']}</p>
      {state.state === 'done' && !state.check.verified && (
        <p className="mt-1 text-sm break-words">{state.check.detail}</p>
      )}
      <p className="mt-1 text-sm">{text.byHand}</p>
    </div>
  );
}

/** The checkpoint, the proof, and their check in this browser (once hydrated). */
export function ReceiptProofCheck({ found, language }: { found: ReceiptFound; language: Language }) {
  const text = RECEIPT_PROOF_TEXT[language];
  const [state, setState] = useState<ProofState>({ state: 'idle' });
  useEffect(() => {
    let live = true;
    setState({ state: 'checking' });
    checkFound(found)
      .then((next) => live && setState(next))
      .catch(() => live && setState({ state: 'unfetched' }));
    return () => {
      live = false;
    };
  }, [found]);
  const { proof } = found;
  return (
    <section
      aria-labelledby="receipt-proof"
      className="space-y-2 rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-700 shadow-sm"
    >
      <h2 id="receipt-proof" className="text-lg font-bold text-slate-900">
        {text.heading}
      </h2>
      <ProofVerdict state={state} language={language} />
      <p>{text.intro}</p>
      <h3 className="font-semibold text-slate-900">{text.checkpoint}</h3>
      <pre
        data-testid="receipt-checkpoint"
        className="overflow-x-auto rounded bg-slate-100 p-2 font-mono text-xs whitespace-pre-wrap break-all text-slate-900"
      >
        {found.checkpoint}
      </pre>
      <h3 className="font-semibold text-slate-900">{text.proof(proof.hashes.length, proof.size)}</h3>
      <dl className="grid gap-x-3 gap-y-1 sm:grid-cols-[auto_1fr]">
        <dt className="font-semibold">{text.leaf}</dt>
        <dd className="font-mono text-xs break-all text-slate-800">{proof.leafHash}</dd>
      </dl>
      <ol data-testid="receipt-proof-hashes" className="list-decimal pl-6 font-mono text-xs break-all">
        {proof.hashes.map((hash, index) => (
          // A proof may repeat no hash, but its order is what it means: the index is the key.
          // biome-ignore lint/suspicious/noArrayIndexKey: the position is the hash's meaning
          <li key={index}>{hash}</li>
        ))}
      </ol>
      <p>
        <a href={LOG_KEY_PATH} className="font-medium text-indigo-800 underline underline-offset-2">
          {text.keyLink}
        </a>{' '}
        <code className="rounded bg-slate-100 px-1 py-0.5 font-mono">GET {LOG_KEY_PATH}</code>
      </p>
    </section>
  );
}
