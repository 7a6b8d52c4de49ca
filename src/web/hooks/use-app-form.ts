import type { BaseSyntheticEvent } from 'react';
import {
  type FieldErrors,
  type FieldValues,
  get,
  type UseFormHandleSubmit,
  type UseFormProps,
  type UseFormReturn,
  useForm,
} from 'react-hook-form';

/** Focuses the form's first control (in the page's order) whose field has an error. */
function focusFirstInvalid(errors: FieldErrors, event: BaseSyntheticEvent | undefined): void {
  const form = event?.target;
  if (!(form instanceof HTMLFormElement)) return;
  for (const control of Array.from(form.elements)) {
    const name = control.getAttribute('name');
    if (name && get(errors, name) && control instanceof HTMLElement) {
      control.focus();
      return;
    }
  }
}

/**
 * react-hook-form's useForm for every form of the app, with one difference: where a failed submit
 * leaves the focus. react-hook-form focuses the first invalid field when the submit fails and then
 * once more on a timer, which may run after the errors have rendered (its setFocus is deferred the
 * same way). A person who has moved on to the next field by then (a quick tap on a slow phone) has the
 * caret taken back, and what they type lands in the first field; a test that fills the next field as
 * soon as the errors show loses its text the same way. Here the first invalid field is focused at
 * once, when the submit fails, and never later.
 */
export function useAppForm<
  TFieldValues extends FieldValues = FieldValues,
  TContext = unknown,
  TTransformedValues = TFieldValues,
>(
  props: UseFormProps<TFieldValues, TContext, TTransformedValues>,
): UseFormReturn<TFieldValues, TContext, TTransformedValues> {
  const form = useForm<TFieldValues, TContext, TTransformedValues>({ ...props, shouldFocusError: false });
  const handleSubmit: UseFormHandleSubmit<TFieldValues, TTransformedValues> = (onValid, onInvalid) =>
    form.handleSubmit(onValid, (errors, event) => {
      focusFirstInvalid(errors, event);
      return onInvalid?.(errors, event);
    });
  return { ...form, handleSubmit };
}
