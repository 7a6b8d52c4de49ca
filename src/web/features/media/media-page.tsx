import { useState } from 'react';
import type { MediaRecord } from '../../../shared/schemas/media.js';
import { useDeleteMedia, useMediaPage } from '../../api/media-api.js';
import { Card, PageTitle } from '../../components/ui/card.js';
import { type Notice, NoticeAlert, successNotice } from '../../components/ui/notice.js';
import { Pagination } from '../../components/ui/pagination.js';
import { EmptyState, ErrorState, Spinner } from '../../components/ui/states.js';
import { useConfirmedDelete } from '../../hooks/use-confirmed-delete.js';
import { MediaGrid } from './media-grid.js';
import { MediaUploader } from './media-uploader.js';

const PAGE_SIZE = 24;

/** The image library: upload, see where each image is used, copy its link, delete it. */
export function MediaPage() {
  const [page, setPage] = useState(1);
  const [notice, setNotice] = useState<Notice | null>(null);
  const media = useMediaPage(page, PAGE_SIZE);
  const remove = useDeleteMedia();
  const deletion = useConfirmedDelete<MediaRecord>({
    remove,
    question: 'Delete this image?',
    failureText: 'Delete failed.',
    onDeleted: () => setNotice(successNotice('Image deleted.')),
    onFailed: setNotice,
  });

  const library = () => {
    if (media.isPending) return <Spinner label="Loading images…" />;
    if (media.isError) return <ErrorState message="Failed to load images." onRetry={() => media.refetch()} />;
    if (media.data.data.length === 0) return <EmptyState>No images yet.</EmptyState>;
    return (
      <div className="space-y-4">
        <MediaGrid records={media.data.data} onDelete={deletion.ask} />
        <Pagination
          page={page}
          pageCount={media.data.pagination.totalPages}
          onPage={setPage}
          label="Image pages"
        />
      </div>
    );
  };

  return (
    <div className="space-y-6">
      <PageTitle>Media</PageTitle>
      <NoticeAlert notice={notice} onDismiss={() => setNotice(null)} />
      <Card title="Upload images">
        <MediaUploader />
      </Card>
      <Card title="Library">{library()}</Card>
      {deletion.dialog}
    </div>
  );
}
