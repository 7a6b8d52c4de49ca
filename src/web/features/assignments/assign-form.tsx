import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useWatch } from 'react-hook-form';
import { useAssignGhadis, useAssignments } from '../../api/assignments-api.js';
import { useGhadis } from '../../api/ghadis-api.js';
import { useUsers } from '../../api/users-api.js';
import { Button } from '../../components/ui/button.js';
import { Card } from '../../components/ui/card.js';
import { CheckboxField } from '../../components/ui/checkbox-field.js';
import { SelectField } from '../../components/ui/field.js';
import type { Notice } from '../../components/ui/notice.js';
import { EmptyState, ErrorState, Spinner } from '../../components/ui/states.js';
import { useAppForm } from '../../hooks/use-app-form.js';
import { messageOr } from '../../lib/api-client.js';
import { type AssignFormOutput, type AssignFormValues, assignForm } from './assign-schema.js';

interface AssignFormProps {
  onAssigned: (message: string) => void;
  onFailed: (notice: Notice) => void;
}

/** Pick an agent, tick ghadis, assign. */
export function AssignForm({ onAssigned, onFailed }: AssignFormProps) {
  const users = useUsers();
  const ghadis = useGhadis();
  const assignments = useAssignments();
  const assign = useAssignGhadis();
  const {
    control,
    register,
    handleSubmit,
    resetField,
    formState: { errors, isSubmitting },
  } = useAppForm<AssignFormValues, unknown, AssignFormOutput>({
    resolver: zodResolver(assignForm),
    defaultValues: { User_Id: '', GID: [] },
  });
  const selectedAgent = useWatch({ control, name: 'User_Id' });

  const onSubmit = handleSubmit(async (values) => {
    try {
      await assign.mutateAsync(values);
      // Keep the agent chosen: assigning more ghadis to the same agent is the common next step.
      resetField('GID');
      onAssigned('Ghadi assigned.');
    } catch (error) {
      onFailed({ tone: 'error', message: messageOr(error, 'Failed to assign Ghadi') });
    }
  });

  const body = () => {
    if (
      users.isPending ||
      ghadis.isPending ||
      (users.isFetching && users.isError) ||
      (ghadis.isFetching && ghadis.isError)
    ) {
      return <Spinner />;
    }
    if (users.isError) return <ErrorState message="Failed to load agents" onRetry={() => users.refetch()} />;
    if (ghadis.isError) {
      return <ErrorState message="Failed to load ghadi list" onRetry={() => ghadis.refetch()} />;
    }
    const agents = users.data.filter((user) => user.UserType === 'agent');
    const assigned = new Set(
      (assignments.data ?? [])
        .filter((assignment) => String(assignment.User_Id) === selectedAgent)
        .map((assignment) => assignment.GID),
    );
    return (
      <form onSubmit={onSubmit} noValidate aria-label="Assign Ghadi" className="space-y-4">
        <SelectField label="Agent" error={errors.User_Id?.message} {...register('User_Id')}>
          <option value="">Select an agent</option>
          {agents.map((agent) => (
            <option key={agent._id} value={String(agent.User_Id)}>
              {agent.DisplayName} ({agent.UserName}){agent.isActive ? '' : ' – inactive'}
            </option>
          ))}
        </SelectField>
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-slate-700">Ghadis</legend>
          {ghadis.data.length === 0 ? (
            <EmptyState>No ghadi yet. Add some on the Ghadi page.</EmptyState>
          ) : (
            <Controller
              control={control}
              name="GID"
              render={({ field }) => (
                <div className="grid gap-1 rounded-md border border-slate-200 p-2 sm:grid-cols-2 lg:grid-cols-3">
                  {ghadis.data.map((ghadi) => (
                    <CheckboxField
                      key={ghadi._id}
                      name={field.name}
                      value={ghadi.GID}
                      checked={field.value.includes(ghadi.GID)}
                      onBlur={field.onBlur}
                      onChange={(event) =>
                        field.onChange(
                          event.target.checked
                            ? [...field.value, ghadi.GID]
                            : field.value.filter((gid) => gid !== ghadi.GID),
                        )
                      }
                      label={
                        <>
                          {ghadi.NameEn}
                          {assigned.has(ghadi.GID) && (
                            <span className="ml-1 text-xs text-slate-500">(already assigned)</span>
                          )}
                        </>
                      }
                    />
                  ))}
                </div>
              )}
            />
          )}
        </fieldset>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? 'Assigning…' : 'Assign Ghadi'}
        </Button>
      </form>
    );
  };

  return <Card title="Assign Ghadi to an Agent">{body()}</Card>;
}
