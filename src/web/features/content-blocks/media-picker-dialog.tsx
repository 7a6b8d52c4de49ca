import { useId, useState } from 'react';
import { createPortal } from 'react-dom';
import type { MediaRecord } from '../../../shared/schemas/media.js';
import { useMediaPage } from '../../api/media-api.js';
import { Button } from '../../components/ui/button.js';
import { TextField } from '../../components/ui/field.js';
import { ModalDialog } from '../../components/ui/modal-dialog.js';
import { Pagination } from '../../components/ui/pagination.js';
import { EmptyState, ErrorState, Spinner } from '../../components/ui/states.js';
import { thumbnailOf } from '../../lib/media-files.js';

const PAGE_SIZE = 12;

interface MediaPickerDialogProps {
  open: boolean;
  onInsert: (record: MediaRecord, alt: string) => void;
  onClose: () => void;
}

function Choices({
  chosen,
  onChoose,
}: {
  chosen: MediaRecord | null;
  onChoose: (record: MediaRecord) => void;
}) {
  const [page, setPage] = useState(1);
  const media = useMediaPage(page, PAGE_SIZE);
  if (media.isPending) return <Spinner label="Loading images…" />;
  if (media.isError) return <ErrorState message="Failed to load images." onRetry={() => media.refetch()} />;
  if (media.data.data.length === 0)
    return <EmptyState>No images yet: upload them on the Media screen.</EmptyState>;
  return (
    <>
      <ul className="grid grid-cols-3 gap-2 sm:grid-cols-4">
        {media.data.data.map((record) => (
          <li key={record._id}>
            <button
              type="button"
              aria-pressed={chosen?._id === record._id}
              aria-label={`Image ${record._id}, ${record.Width}×${record.Height}`}
              onClick={() => onChoose(record)}
              className="block aspect-square w-full overflow-hidden rounded-md border-2 border-transparent bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600 aria-pressed:border-indigo-600"
            >
              <img src={thumbnailOf(record)} alt="" className="h-full w-full object-cover" />
            </button>
          </li>
        ))}
      </ul>
      <Pagination
        page={page}
        pageCount={media.data.pagination.totalPages}
        onPage={setPage}
        label="Image pages"
      />
    </>
  );
}

/** Picks an image of the library and its description, inserted as the library's markup. */
export function MediaPickerDialog({ open, onInsert, onClose }: MediaPickerDialogProps) {
  const titleId = useId();
  const [chosen, setChosen] = useState<MediaRecord | null>(null);
  const [alt, setAlt] = useState('');
  return createPortal(
    <ModalDialog
      open={open}
      labelledBy={titleId}
      onCancel={onClose}
      widthClass="w-[min(40rem,calc(100vw-2rem))]"
    >
      <div className="space-y-4 p-5">
        <h2 id={titleId} className="text-lg font-semibold text-slate-900">
          Insert an image
        </h2>
        {/* Mounted while open only: the library is asked for when the dialog opens. */}
        {open && <Choices chosen={chosen} onChoose={setChosen} />}
        <TextField
          label="Description (alt text)"
          hint="What the image shows, for those who cannot see it."
          value={alt}
          onChange={(event) => setAlt(event.target.value)}
        />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button disabled={!chosen} onClick={() => chosen && onInsert(chosen, alt.trim())}>
            Insert image
          </Button>
        </div>
      </div>
    </ModalDialog>,
    document.body,
  );
}
