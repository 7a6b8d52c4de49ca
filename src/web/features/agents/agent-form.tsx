import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef } from 'react';
import type { Resolver } from 'react-hook-form';
import type { UserRecord } from '../../../shared/schemas/users.js';
import { useSaveUser } from '../../api/users-api.js';
import { Button } from '../../components/ui/button.js';
import { Card } from '../../components/ui/card.js';
import { SelectField, TextField } from '../../components/ui/field.js';
import type { Notice } from '../../components/ui/notice.js';
import { useAppForm } from '../../hooks/use-app-form.js';
import { messageOr } from '../../lib/api-client.js';
import {
  type AgentFormOutput,
  type AgentFormValues,
  agentCreateForm,
  agentEditForm,
} from './agent-schema.js';

interface AgentFormProps {
  /** The user being edited, or null to add a new agent. */
  editing: UserRecord | null;
  onSaved: (message: string) => void;
  onFailed: (notice: Notice) => void;
  onCancel: () => void;
}

function initialValues(user: UserRecord | null): AgentFormValues {
  return {
    UserName: user?.UserName ?? '',
    DisplayName: user?.DisplayName ?? '',
    Email: user?.Email ?? '',
    Password: '',
    isActive: user && !user.isActive ? 'inactive' : 'active',
  };
}

/** Add or edit one agent. The page remounts it (by key) to switch modes, which also clears it. */
export function AgentForm({ editing, onSaved, onFailed, onCancel }: AgentFormProps) {
  const save = useSaveUser();
  const formRef = useRef<HTMLFormElement>(null);
  const {
    register,
    handleSubmit,
    setFocus,
    formState: { errors, isSubmitting },
  } = useAppForm<AgentFormValues, unknown, AgentFormOutput>({
    // Both schemas read the same inputs; only the password rule differs.
    resolver: (editing ? zodResolver(agentEditForm) : zodResolver(agentCreateForm)) as Resolver<
      AgentFormValues,
      unknown,
      AgentFormOutput
    >,
    defaultValues: initialValues(editing),
  });

  useEffect(() => {
    if (!editing) return;
    // On a phone the list is far below the form: bring the form to the admin who pressed Edit.
    formRef.current?.scrollIntoView?.({ block: 'start' });
    setFocus('UserName');
  }, [editing, setFocus]);

  const onSubmit = handleSubmit(async (values) => {
    try {
      await save.mutateAsync({ id: editing?._id, values });
      onSaved(editing ? 'Agent updated.' : 'Agent created.');
    } catch (error) {
      onFailed({ tone: 'error', message: messageOr(error, 'Failed to save agent') });
    }
  });

  const title = editing ? `Edit Agent: ${editing.UserName}` : 'Add Agent';
  return (
    <Card title={title}>
      <form
        ref={formRef}
        onSubmit={onSubmit}
        noValidate
        aria-label={title}
        className="scroll-mt-20 space-y-4"
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Username"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            error={errors.UserName?.message}
            {...register('UserName')}
          />
          <TextField label="Display Name" error={errors.DisplayName?.message} {...register('DisplayName')} />
          <TextField
            label="Email"
            type="email"
            autoComplete="off"
            error={errors.Email?.message}
            {...register('Email')}
          />
          <TextField
            label="Password"
            type="password"
            autoComplete="new-password"
            hint={
              editing
                ? 'Leave blank to keep the current password.'
                : 'Required for a new agent: at least 8 characters.'
            }
            error={errors.Password?.message}
            {...register('Password')}
          />
          <SelectField label="Status" error={errors.isActive?.message} {...register('isActive')}>
            <option value="active">Active</option>
            <option value="inactive">Inactive</option>
          </SelectField>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={isSubmitting}>
            {isSubmitting ? 'Saving…' : editing ? 'Update Agent' : 'Add Agent'}
          </Button>
          {editing && (
            <Button variant="secondary" onClick={onCancel} disabled={isSubmitting}>
              Cancel
            </Button>
          )}
        </div>
      </form>
    </Card>
  );
}
