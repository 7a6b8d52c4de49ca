import type { ReactNode, TextareaHTMLAttributes } from 'react';
import { FieldShell } from './field.js';

export interface TextAreaFieldProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
}

/** A labelled multi-line input with hint and error text, matching TextField. */
export function TextAreaField({
  label,
  error,
  hint,
  className = '',
  ref,
  ...props
}: TextAreaFieldProps & { ref?: React.Ref<HTMLTextAreaElement> }) {
  return (
    <FieldShell label={label} error={error} hint={hint}>
      {({ id, describedBy }) => (
        <textarea
          ref={ref}
          id={id}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className={`block w-full rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-sm text-slate-900 shadow-sm focus:border-indigo-500 focus:outline-2 focus:outline-indigo-500 aria-[invalid=true]:border-red-500 ${className}`}
          {...props}
        />
      )}
    </FieldShell>
  );
}
