interface ReadBackProps {
  ghadiName: string;
  /** "Today" or "Yesterday", or null for another date. */
  day: string | null;
  date: string;
  /** The value as it will be published; empty while there is none. */
  value: string;
  /** The value is not one the server would take yet (still being typed, or refused): shown muted. */
  tentative: boolean;
}

/**
 * Read back before the one tap that declares it: a wrong ghadi, day or value is caught here. On a
 * panna or open/close ghadi the value is the one the server will store (123-68-459), not the keys
 * typed (459).
 */
export function ReadBack({ ghadiName, day, date, value, tentative }: ReadBackProps) {
  return (
    <section
      aria-label="You are declaring"
      className="rounded-lg border border-slate-300 bg-slate-50 px-4 py-3"
    >
      <p className="text-sm text-slate-600">You are declaring</p>
      <p className="text-lg font-semibold break-words text-slate-900">{ghadiName}</p>
      <p className="text-lg text-slate-900">
        {day && <span className="font-semibold">{day}, </span>}
        <span className="whitespace-nowrap">{date}</span>
      </p>
      <p
        data-testid="read-back-value"
        className={`font-mono text-4xl leading-tight font-bold break-all ${value && !tentative ? 'text-slate-900' : 'text-slate-500'}`}
      >
        {value || '–'}
      </p>
    </section>
  );
}
