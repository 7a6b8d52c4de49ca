import { zodResolver } from '@hookform/resolvers/zod';
import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { TextField } from '../components/ui/field.js';
import { useAppForm } from './use-app-form.js';

const required = z.string().min(1, 'This field is required');
// The schema lists Second first: the focus follows the form's order, not the schema's.
const schema = z.object({ Second: required, First: required });

function TwoFields({ onInvalid }: { onInvalid: () => void }) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useAppForm<z.infer<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { First: '', Second: '' },
  });
  return (
    <form onSubmit={handleSubmit(() => {}, onInvalid)} noValidate>
      <TextField label="First" error={errors.First?.message} {...register('First')} />
      <TextField label="Second" error={errors.Second?.message} {...register('Second')} />
      <button type="submit">Send</button>
    </form>
  );
}

afterEach(() => {
  vi.useRealTimers();
});

describe('useAppForm', () => {
  it('focuses the first invalid field once, and leaves the caret where the person moved it', async () => {
    // Timers held until the errors are on screen, as on a busy phone (react-hook-form's own
    // useForm refocuses the first invalid field on such a timer).
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    let invalid = () => {};
    const failed = new Promise<void>((resolve) => {
      invalid = resolve;
    });
    render(<TwoFields onInvalid={invalid} />);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Send' }));
      await failed;
    });
    expect(screen.getAllByText('This field is required')).toHaveLength(2);
    expect(screen.getByLabelText('First')).toHaveFocus();

    // The person moves on to the second field; then whatever the submit left on a timer runs.
    screen.getByLabelText('Second').focus();
    act(() => vi.runAllTimers());
    expect(screen.getByLabelText('Second')).toHaveFocus();

    vi.useRealTimers();
    await userEvent.keyboard('typed');
    expect(screen.getByLabelText('Second')).toHaveValue('typed');
    expect(screen.getByLabelText('First')).toHaveValue('');
  });
});
