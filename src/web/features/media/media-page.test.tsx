import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MediaRecord } from '../../../shared/schemas/media.js';
import { endSession, startSession } from '../../lib/session.js';
import { ADMIN_ONE } from '../../test/records.js';
import { renderWithQuery } from '../../test/render.js';
import { MediaPage } from './media-page.js';

function image(id: string, overrides: Partial<MediaRecord> = {}): MediaRecord {
  return {
    _id: id,
    id,
    Url: `/media/${id}/800.jpg`,
    Width: 800,
    Height: 600,
    Bytes: 84_000,
    Type: 'image/jpeg',
    Variants: [
      { Width: 360, Url: `/media/${id}/360.webp`, Type: 'image/webp' },
      { Width: 800, Url: `/media/${id}/800.webp`, Type: 'image/webp' },
    ],
    UsedBy: [],
    CreatedAt: '2026-11-20T10:00:00.000Z',
    ...overrides,
  };
}

/**
 * The upload goes by XMLHttpRequest (fetch reports no upload progress): each request the page
 * opens is kept, for the test to report progress on and answer.
 */
class FakeUpload extends EventTarget {
  static sent: FakeUpload[] = [];
  readonly upload = new EventTarget();
  readonly headers: Record<string, string> = {};
  method = '';
  url = '';
  body: FormData | null = null;
  status = 0;
  responseText = '';
  withCredentials = false;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.body = body;
    FakeUpload.sent.push(this);
  }
  progress(loaded: number, total: number) {
    act(() => {
      this.upload.dispatchEvent(new ProgressEvent('progress', { lengthComputable: true, loaded, total }));
    });
  }
  answer(status: number, payload: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(payload);
    act(() => {
      this.dispatchEvent(new Event('load'));
    });
  }
}

let library: MediaRecord[] = [];
let deleteAnswer: { status: number; payload: unknown } = { status: 200, payload: { success: true } };

beforeEach(() => {
  FakeUpload.sent = [];
  library = [image('1', { UsedBy: [{ _id: '7', Title: 'Blog section' }] }), image('2', { Bytes: 2_600_000 })];
  deleteAnswer = { status: 200, payload: { success: true } };
  startSession({ ...ADMIN_ONE, token: 'admin-token' });
  vi.stubGlobal('XMLHttpRequest', FakeUpload);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const json = (value: unknown, status = 200) => new Response(JSON.stringify(value), { status });
      if (url.startsWith('/api/media?')) {
        const pagination = { page: 1, limit: 24, total: library.length, totalPages: 1 };
        return json({ success: true, data: library, pagination });
      }
      if (url.startsWith('/api/media/') && init.method === 'DELETE')
        return json(deleteAnswer.payload, deleteAnswer.status);
      return json({ success: false, message: 'Not found' }, 404);
    }),
  );
});

afterEach(() => {
  endSession();
  vi.unstubAllGlobals();
});

const card = (id: string) =>
  within(screen.getByRole('list', { name: 'Images' }))
    .getAllByRole('listitem')
    .find((item) => within(item).queryByRole('button', { name: `Delete image ${id}` })) as HTMLElement;

describe('MediaPage', () => {
  it('lists each image with its size and the blocks that use it', async () => {
    renderWithQuery(<MediaPage />);
    await screen.findByRole('list', { name: 'Images' });
    expect(card('1')).toHaveTextContent('800×600 · 82 KB');
    expect(card('1')).toHaveTextContent('Used by: Blog section');
    expect(within(card('1')).getByRole('img')).toHaveAttribute('src', '/media/1/360.webp');
    expect(card('2')).toHaveTextContent('800×600 · 2.5 MB');
    expect(card('2')).toHaveTextContent('Not used by any block');
  });

  it('uploads several files, each with its own progress bar, and shows why one was refused', async () => {
    renderWithQuery(<MediaPage />);
    await screen.findByRole('list', { name: 'Images' });
    const photo = new File([new Uint8Array(2000)], 'photo.jpg', { type: 'image/jpeg' });
    const huge = new File([new Uint8Array(3000)], 'huge.png', { type: 'image/png' });
    await userEvent.upload(screen.getByLabelText('Images to upload'), [photo, huge]);

    expect(FakeUpload.sent).toHaveLength(2);
    const [first, second] = FakeUpload.sent as [FakeUpload, FakeUpload];
    expect(first.method).toBe('POST');
    expect(first.url).toBe('/api/media');
    expect(first.headers.authorization).toBe('Bearer admin-token');
    expect(first.body?.get('file')).toBe(photo);
    expect(screen.getByRole('progressbar', { name: 'Uploading photo.jpg' })).toHaveValue(0);

    first.progress(1000, 2000);
    expect(screen.getByRole('progressbar', { name: 'Uploading photo.jpg' })).toHaveValue(50);
    expect(screen.getByRole('progressbar', { name: 'Uploading huge.png' })).toHaveValue(0);

    library = [image('3'), ...library];
    first.answer(201, { success: true, data: image('3') });
    const uploads = screen.getByRole('list', { name: 'Uploads' });
    await waitFor(() => expect(within(uploads).getAllByRole('listitem')[0]).toHaveTextContent('Uploaded'));
    await waitFor(() => expect(card('3')).toBeDefined());

    second.progress(3000, 3000);
    second.answer(413, { success: false, message: 'The file is larger than 5 MB' });
    expect(await screen.findByRole('alert')).toHaveTextContent('huge.png: The file is larger than 5 MB');
    expect(within(uploads).getAllByRole('listitem')[1]).toHaveTextContent('Failed');
    expect(screen.queryByRole('progressbar', { name: 'Uploading huge.png' })).toBeNull();
  });

  it('words a refusal without a message by its status', async () => {
    renderWithQuery(<MediaPage />);
    await screen.findByRole('list', { name: 'Images' });
    await userEvent.upload(
      screen.getByLabelText('Images to upload'),
      new File(['not an image'], 'notes.jpg', { type: 'image/jpeg' }),
    );
    (FakeUpload.sent[0] as FakeUpload).answer(415, {});
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'notes.jpg: This kind of file is not accepted.',
    );
  });

  it("shows the server's message when an image in use cannot be deleted", async () => {
    deleteAnswer = {
      status: 409,
      payload: { success: false, message: 'The image is used by these blocks: Blog section' },
    };
    renderWithQuery(<MediaPage />);
    await screen.findByRole('list', { name: 'Images' });
    await userEvent.click(within(card('1')).getByRole('button', { name: 'Delete image 1' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Delete failed.');
    expect(alert).toHaveTextContent('The image is used by these blocks: Blog section');
    expect(card('1')).toBeDefined();
  });
});
