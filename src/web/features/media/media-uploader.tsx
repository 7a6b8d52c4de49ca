import { useId, useRef, useState } from 'react';
import { MEDIA_MAX_BYTES } from '../../../shared/schemas/media.js';
import { uploadMedia, useRefreshMedia } from '../../api/media-api.js';
import { Button } from '../../components/ui/button.js';
import { ApiError } from '../../lib/api-client.js';
import { sizeText } from '../../lib/media-files.js';

interface Upload {
  key: number;
  name: string;
  /** How much has gone, 0 to 1. */
  sent: number;
  state: 'sending' | 'done' | 'failed';
  message?: string;
}

/** One file's upload: its name, a progress bar while it goes, then what became of it. */
function UploadRow({ upload }: { upload: Upload }) {
  const percent = Math.round(upload.sent * 100);
  return (
    <li className="space-y-1 py-2">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3">
        <span className="min-w-0 break-all text-sm font-medium text-slate-900">{upload.name}</span>
        <span className="text-sm text-slate-700">
          {upload.state === 'sending' && `${percent}%`}
          {upload.state === 'done' && <span className="font-medium text-green-800">Uploaded</span>}
          {upload.state === 'failed' && <span className="font-medium text-red-700">Failed</span>}
        </span>
      </div>
      {upload.state !== 'failed' && (
        <progress
          max={100}
          value={percent}
          aria-label={`Uploading ${upload.name}`}
          className="h-2 w-full overflow-hidden rounded-full accent-indigo-600 [&::-webkit-progress-bar]:bg-slate-200 [&::-webkit-progress-value]:bg-indigo-600"
        />
      )}
      {upload.message && (
        <p role="alert" className="text-sm text-red-700">
          {upload.name}: {upload.message}
        </p>
      )}
    </li>
  );
}

/**
 * Upload by choosing files or dropping them on the box; several at once, each with its own progress
 * bar and, when the server refuses it, the server's reason (too large, not an image…).
 */
export function MediaUploader() {
  const inputId = useId();
  const refresh = useRefreshMedia();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [dragging, setDragging] = useState(false);
  const nextKey = useRef(0);
  const input = useRef<HTMLInputElement>(null);

  const change = (key: number, patch: Partial<Upload>) =>
    setUploads((all) => all.map((upload) => (upload.key === key ? { ...upload, ...patch } : upload)));

  const send = (files: File[]) => {
    if (files.length === 0) return;
    const started = files.map((file) => ({ file, key: nextKey.current++ }));
    setUploads((all) => [
      ...all.filter((upload) => upload.state === 'sending'),
      ...started.map(({ file, key }) => ({ key, name: file.name, sent: 0, state: 'sending' as const })),
    ]);
    for (const { file, key } of started) {
      uploadMedia(file, (sent) => change(key, { sent }))
        .then(() => {
          change(key, { state: 'done', sent: 1 });
          return refresh();
        })
        .catch((error: unknown) =>
          // The server's reason, or one worded from its status (upload-with-progress.ts).
          change(key, {
            state: 'failed',
            message: error instanceof ApiError ? error.message : 'The upload failed.',
          }),
        );
    }
  };

  return (
    <div className="space-y-3">
      {/* biome-ignore lint/a11y/noStaticElementInteractions: dropping is a shortcut; the button below does the same by keyboard. */}
      <div
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={(event) => {
          // Leaving for one of the box's own children is still over the box.
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
        }}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          send([...event.dataTransfer.files]);
        }}
        className={`flex flex-col items-center gap-2 rounded-lg border-2 border-dashed px-4 py-6 text-center ${dragging ? 'border-indigo-600 bg-indigo-50' : 'border-slate-300 bg-slate-50'}`}
      >
        <p className="text-sm text-slate-700">Drop images here, or</p>
        <Button onClick={() => input.current?.click()}>Choose images</Button>
        <label htmlFor={inputId} className="sr-only">
          Images to upload
        </label>
        <input
          ref={input}
          id={inputId}
          type="file"
          accept="image/jpeg,image/png,image/webp,image/gif"
          multiple
          className="sr-only"
          tabIndex={-1}
          onChange={(event) => {
            send([...(event.target.files ?? [])]);
            event.target.value = '';
          }}
        />
        <p className="text-xs text-slate-600">
          JPEG, PNG, WebP or GIF, up to {sizeText(MEDIA_MAX_BYTES)} each. Smaller copies are made for phones.
        </p>
      </div>
      {uploads.length > 0 && (
        <ul aria-label="Uploads" className="divide-y divide-slate-100">
          {uploads.map((upload) => (
            <UploadRow key={upload.key} upload={upload} />
          ))}
        </ul>
      )}
    </div>
  );
}
