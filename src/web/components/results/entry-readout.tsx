import type { EntryReading } from '../../lib/market-entry.js';

/**
 * What a value typed on a panna or open/close ghadi works out to, said as it is typed: its parts (the
 * ank, the jodi) and the value as it will be published, or why the server would refuse it. A polite
 * live region, so that a screen reader hears the ank without leaving the field. Renders nothing for
 * a jodi ghadi (its reading is "none").
 */
export function EntryReadout({ reading, id }: { reading: EntryReading; id?: string }) {
  return (
    <p
      id={id}
      aria-live="polite"
      aria-atomic="true"
      data-testid="entry-readout"
      className="min-h-5 text-sm empty:min-h-0"
    >
      {reading.kind === 'ok' && (
        <>
          <span className="font-semibold text-slate-900">{reading.parts}</span>
          <span className="text-slate-700">
            {' · '}published as{' '}
            <strong className="font-mono text-base text-slate-900">{reading.value}</strong>
          </span>
        </>
      )}
      {reading.kind === 'problem' && <span className="font-medium text-red-700">{reading.message}</span>}
    </p>
  );
}

/** A hint naming example values (123-68-459): each kept on one line, so a hyphen never breaks it. */
export function EntryHint({ text }: { text: string }) {
  return text.split(/(\d[\d-]*\d)/).map((part, index) =>
    index % 2 === 1 ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text, never reordered
      <span key={index} className="whitespace-nowrap">
        {part}
      </span>
    ) : (
      part
    ),
  );
}
