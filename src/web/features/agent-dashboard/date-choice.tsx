import { type InputHTMLAttributes, useId } from 'react';

interface DateChoiceProps
  extends Pick<InputHTMLAttributes<HTMLInputElement>, 'name' | 'onChange' | 'onBlur'> {
  today: string;
  yesterday: string;
  error: string | undefined;
  ref?: React.Ref<HTMLInputElement>;
}

/**
 * The agent's two dates (decision 0006) as large radio cards, each with its date; spread the form's
 * `register('date')` on it.
 */
export function DateChoice({ today, yesterday, error, ref, ...registered }: DateChoiceProps) {
  const errorId = useId();
  return (
    <fieldset aria-describedby={error ? errorId : undefined}>
      <legend className="mb-1 block text-sm font-medium text-slate-700">Date</legend>
      <div className="grid grid-cols-2 gap-2">
        {[
          { label: 'Today', value: today },
          { label: 'Yesterday', value: yesterday },
        ].map((option) => (
          <label
            key={option.label}
            className="flex min-h-11 cursor-pointer items-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm shadow-sm has-checked:border-indigo-600 has-checked:bg-indigo-50 has-checked:ring-1 has-checked:ring-indigo-600 has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-indigo-600"
          >
            <input
              type="radio"
              value={option.value}
              className="size-4 shrink-0 accent-indigo-600 focus-visible:outline-none"
              ref={ref}
              {...registered}
            />
            <span className="min-w-0">
              <span className="block font-medium text-slate-900">{option.label}</span>{' '}
              <span className="block text-xs whitespace-nowrap text-slate-600">{option.value}</span>
            </span>
          </label>
        ))}
      </div>
      {error && (
        <p id={errorId} className="mt-1 text-sm text-red-600">
          {error}
        </p>
      )}
    </fieldset>
  );
}
