import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef } from 'react';
import { useController } from 'react-hook-form';
import type { z } from 'zod';
import {
  type ContentBlockInput,
  type ContentBlockRecord,
  contentBlockInput,
} from '../../../shared/schemas/content-blocks.js';
import { useSaveContentBlock } from '../../api/content-blocks-api.js';
import { Button } from '../../components/ui/button.js';
import { Card } from '../../components/ui/card.js';
import { CheckboxField } from '../../components/ui/checkbox-field.js';
import { TextField } from '../../components/ui/field.js';
import type { Notice } from '../../components/ui/notice.js';
import { useAppForm } from '../../hooks/use-app-form.js';
import { messageOr } from '../../lib/api-client.js';
import { ContentField } from './content-field.js';
import { ContentPreview } from './content-preview.js';
import type { NewBlock } from './site-blocks.js';

type ContentBlockFormValues = z.input<typeof contentBlockInput>;

interface ContentBlockFormProps {
  /** The block being edited, or null to add one. */
  editing: ContentBlockRecord | null;
  /** A block the site shows but lacks: the add form opens with its title and slug filled in. */
  creating?: NewBlock | null;
  onSaved: (message: string) => void;
  onFailed: (notice: Notice) => void;
  onCancel: () => void;
}

/** Add or edit one content block. The page remounts it (by key) to switch modes, which also clears it. */
export function ContentBlockForm({
  editing,
  creating = null,
  onSaved,
  onFailed,
  onCancel,
}: ContentBlockFormProps) {
  const save = useSaveContentBlock();
  const formRef = useRef<HTMLFormElement>(null);
  const {
    register,
    control,
    handleSubmit,
    setFocus,
    formState: { errors, isSubmitting },
  } = useAppForm<ContentBlockFormValues, unknown, ContentBlockInput>({
    resolver: zodResolver(contentBlockInput),
    defaultValues: {
      Title: editing?.Title ?? creating?.Title ?? '',
      Slug: editing?.Slug ?? creating?.Slug ?? '',
      Content: editing?.Content ?? '',
      isActive: editing?.isActive ?? true,
    },
  });

  const { field: content } = useController({ name: 'Content', control });

  useEffect(() => {
    if (!editing && !creating) return;
    // On a phone the list is far below the form: bring the form to the admin who pressed Edit.
    formRef.current?.scrollIntoView?.({ block: 'start' });
    // A block to create has its title and slug already: what is left to write is its content.
    setFocus(editing ? 'Title' : 'Content');
  }, [editing, creating, setFocus]);

  const onSubmit = handleSubmit(async (values) => {
    try {
      await save.mutateAsync({ id: editing?._id, values });
      onSaved(editing ? 'Content updated successfully.' : 'Content added successfully.');
    } catch (error) {
      onFailed({ tone: 'error', message: messageOr(error, 'Failed to save content block.') });
    }
  });

  const title = editing ? `Edit Content Block: ${editing.Title}` : 'Add Content Block';
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
          <TextField label="Title" error={errors.Title?.message} {...register('Title')} />
          <TextField
            label="Slug"
            autoCapitalize="none"
            spellCheck={false}
            hint="Lower-case words joined by dashes, e.g. about-us or blog-section."
            error={errors.Slug?.message}
            {...register('Slug')}
          />
        </div>
        {/* The preview sits beside the editor where both fit, below it on a phone. */}
        <div className="grid gap-4 lg:grid-cols-2">
          <div className="min-w-0">
            <ContentField
              ref={content.ref}
              value={content.value ?? ''}
              onChange={content.onChange}
              onBlur={content.onBlur}
              error={errors.Content?.message}
            />
          </div>
          <ContentPreview content={content.value ?? ''} />
        </div>
        <CheckboxField label="Active (shown on the site)" className="-ml-2 w-fit" {...register('isActive')} />
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={isSubmitting}>
            {isSubmitting ? 'Saving…' : editing ? 'Update Content Block' : 'Add Content Block'}
          </Button>
          {(editing || creating) && (
            <Button variant="secondary" onClick={onCancel} disabled={isSubmitting}>
              Cancel
            </Button>
          )}
        </div>
      </form>
    </Card>
  );
}
