import type { InputHTMLAttributes, ReactNode } from 'react';

export interface CheckboxFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  label: ReactNode;
}

/** A checkbox whose whole label is the click target (a comfortable tap area on a phone). */
export function CheckboxField({
  label,
  className = '',
  ref,
  ...props
}: CheckboxFieldProps & { ref?: React.Ref<HTMLInputElement> }) {
  return (
    <label
      className={`flex min-h-10 cursor-pointer items-center gap-2 rounded-md px-2 py-1.5 text-sm text-slate-800 hover:bg-slate-50 ${className}`}
    >
      <input
        ref={ref}
        type="checkbox"
        className="h-4 w-4 shrink-0 rounded border-slate-300 accent-indigo-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
        {...props}
      />
      <span className="min-w-0 break-words">{label}</span>
    </label>
  );
}
