import { useState } from 'react';
import type { MediaRecord } from '../../../shared/schemas/media.js';
import { Button } from '../../components/ui/button.js';
import { sizeText, thumbnailOf } from '../../lib/media-files.js';

/** The image's full address, as pasted into a block or a message. */
function addressOf(url: string): string {
  return new URL(url, window.location.origin).href;
}

function CopyLink({ record }: { record: MediaRecord }) {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  return (
    <>
      <Button
        size="sm"
        variant="secondary"
        aria-label={`Copy link of image ${record._id}`}
        onClick={() =>
          navigator.clipboard
            .writeText(addressOf(record.Url))
            .then(() => setCopied('yes'))
            .catch(() => setCopied('no'))
        }
      >
        Copy link
      </Button>
      <span role="status" className="text-xs text-slate-700">
        {copied === 'yes' && 'Copied'}
        {copied === 'no' && 'Copying is not allowed here: select the address instead.'}
      </span>
    </>
  );
}

/** One image: a thumbnail, its size in pixels and bytes, the blocks that show it, and its actions. */
function MediaCard({ record, onDelete }: { record: MediaRecord; onDelete: (record: MediaRecord) => void }) {
  return (
    <li className="flex min-w-0 flex-col overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm">
      <a href={record.Url} target="_blank" rel="noopener" className="block aspect-[4/3] bg-slate-100">
        <img
          src={thumbnailOf(record)}
          alt={`Open the ${record.Width}×${record.Height} original`}
          loading="lazy"
          className="h-full w-full object-contain"
        />
      </a>
      <div className="flex flex-1 flex-col gap-2 p-3 text-sm">
        <p className="font-medium text-slate-900">
          {record.Width}×{record.Height} · {sizeText(record.Bytes)}
        </p>
        <p className="break-all font-mono text-xs text-slate-700">{record.Url}</p>
        <p className="text-slate-700">
          {record.UsedBy.length === 0 ? (
            'Not used by any block'
          ) : (
            <>Used by: {record.UsedBy.map((block) => block.Title).join(', ')}</>
          )}
        </p>
        <div className="mt-auto flex flex-wrap items-center gap-2">
          <CopyLink record={record} />
          <Button
            size="sm"
            variant="danger"
            className="ml-auto"
            aria-label={`Delete image ${record._id}`}
            onClick={() => onDelete(record)}
          >
            Delete
          </Button>
        </div>
      </div>
    </li>
  );
}

export function MediaGrid({
  records,
  onDelete,
}: {
  records: MediaRecord[];
  onDelete: (record: MediaRecord) => void;
}) {
  return (
    <ul aria-label="Images" className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3">
      {records.map((record) => (
        <MediaCard key={record._id} record={record} onDelete={onDelete} />
      ))}
    </ul>
  );
}
