import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ContentBlockRecord, ContentPreviewInput } from '../../../shared/schemas/content-blocks.js';
import { renderWithQuery } from '../../test/render.js';
import { ContentBlockForm } from './content-block-form.js';

function block(content: string): ContentBlockRecord {
  return {
    _id: '7',
    id: '7',
    Title: 'Blog',
    Slug: 'blog-section',
    Content: content,
    isActive: true,
    createdAt: '2026-11-20T10:00:00.000Z',
    updatedAt: '2026-11-20T10:00:00.000Z',
  };
}

// jsdom lays nothing out, and ProseMirror measures the selection to keep it in view: no rectangles.
const noRect = () => new DOMRect(0, 0, 0, 0);
Range.prototype.getClientRects = () => [] as unknown as DOMRectList;
Range.prototype.getBoundingClientRect = noRect;

let previewed: string[] = [];
let saved: unknown[] = [];

beforeEach(() => {
  previewed = [];
  saved = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const json = (value: unknown, status = 200) => new Response(JSON.stringify(value), { status });
      if (url === '/api/contentblocks/preview') {
        const { Content } = JSON.parse(String(init.body)) as ContentPreviewInput;
        previewed.push(Content);
        // The server's answer, in short: scripts go, the rest stays.
        const html = Content.replace(/<script>.*?<\/script>/g, '');
        const removed = html === Content ? [] : [{ what: '<script>', why: 'scripts never run on the site' }];
        return json({ success: true, html, removed });
      }
      if (url === '/api/contentblocks/7' && init.method === 'PUT') {
        saved.push(JSON.parse(String(init.body)));
        return json({ success: true, data: block('') });
      }
      return json({ success: false, message: 'Not found' }, 404);
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderForm(content: string) {
  const onSaved = vi.fn();
  renderWithQuery(
    <ContentBlockForm editing={block(content)} onSaved={onSaved} onFailed={vi.fn()} onCancel={vi.fn()} />,
  );
  return { onSaved, form: screen.getByRole('form', { name: 'Edit Content Block: Blog' }) };
}

const sourceToggle = () => screen.getByRole('button', { name: 'HTML source' });
const preview = () => screen.getByRole('region', { name: 'Preview (as on the site)' });

describe('ContentBlockForm: the visual editor', () => {
  it('shows the Content in the editor, with a toolbar of named buttons', async () => {
    renderForm('<h2>Offers</h2><p>Hello <strong>world</strong></p>');
    const editor = await screen.findByRole('textbox', { name: 'Content' });
    expect(editor).toHaveAttribute('contenteditable', 'true');
    expect(editor.querySelector('h2')).toHaveTextContent('Offers');
    expect(editor.querySelector('strong')).toHaveTextContent('world');
    const toolbar = screen.getByRole('toolbar', { name: 'Formatting' });
    for (const name of ['Heading 2', 'Bold', 'Italic', 'Underline', 'Bulleted list', 'Numbered list']) {
      expect(within(toolbar).getByRole('button', { name })).toHaveAttribute('aria-pressed');
    }
    for (const name of ['Link', 'Align center', 'Insert table', 'Image from the library']) {
      expect(within(toolbar).getByRole('button', { name })).toBeInTheDocument();
    }
    expect(sourceToggle()).toHaveAttribute('aria-pressed', 'false');
  });

  it('formats with the toolbar: a pressed button shows the format at the cursor, and the form gets the HTML', async () => {
    const { onSaved, form } = renderForm('<p>Opening times</p>');
    const editor = await screen.findByRole('textbox', { name: 'Content' });
    const heading = screen.getByRole('button', { name: 'Heading 2' });
    expect(heading).toHaveAttribute('aria-pressed', 'false');
    act(() => editor.focus());
    await userEvent.keyboard('{Control>}a{/Control}');
    await userEvent.click(heading);
    await userEvent.click(screen.getByRole('button', { name: 'Bold' }));
    await userEvent.click(screen.getByRole('button', { name: 'Align center' }));
    expect(editor.querySelector('h2 strong')).toHaveTextContent('Opening times');
    expect(heading).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'Bold' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'Align center' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'Italic' })).toHaveAttribute('aria-pressed', 'false');

    await userEvent.click(within(form).getByRole('button', { name: 'Update Content Block' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(saved).toEqual([
      {
        Title: 'Blog',
        Slug: 'blog-section',
        Content: '<h2 style="text-align: center;"><strong>Opening times</strong></h2>',
        isActive: true,
      },
    ]);
  });

  it('links the selected text to the address given in the Link dialog', async () => {
    const { onSaved, form } = renderForm('<p>Rates</p>');
    const editor = await screen.findByRole('textbox', { name: 'Content' });
    act(() => editor.focus());
    await userEvent.keyboard('{Control>}a{/Control}');
    await userEvent.click(screen.getByRole('button', { name: 'Link' }));
    const dialog = screen.getByRole('dialog', { name: 'Link' });
    await userEvent.type(within(dialog).getByLabelText('Link address'), 'javascript:alert(1)');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    expect(within(dialog).getByText(/Start with https:\/\//)).toBeInTheDocument();
    await userEvent.clear(within(dialog).getByLabelText('Link address'));
    await userEvent.type(within(dialog).getByLabelText('Link address'), 'https://example.com/rates');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    expect(editor.querySelector('a')).toHaveAttribute('href', 'https://example.com/rates');
    expect(screen.getByRole('button', { name: 'Link' })).toHaveAttribute('aria-pressed', 'true');
    // Applying the link submitted its own small form, not the block's.
    expect(onSaved).not.toHaveBeenCalled();

    await userEvent.click(within(form).getByRole('button', { name: 'Update Content Block' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(saved).toEqual([
      expect.objectContaining({ Content: '<p><a href="https://example.com/rates">Rates</a></p>' }),
    ]);
  });

  it('toggles to the HTML source and back, keeping what was written in either', async () => {
    renderForm('<p>Hello <strong>world</strong></p>');
    await screen.findByRole('textbox', { name: 'Content' });
    await userEvent.click(sourceToggle());
    expect(sourceToggle()).toHaveAttribute('aria-pressed', 'true');
    const source = screen.getByRole('textbox', { name: 'Content' });
    expect(source.tagName).toBe('TEXTAREA');
    expect(source).toHaveValue('<p>Hello <strong>world</strong></p>');
    expect(screen.queryByRole('toolbar')).toBeNull();

    await userEvent.clear(source);
    await userEvent.type(source, '<h3>Rates</h3><p>Changed</p>');
    await userEvent.click(sourceToggle());
    const editor = await screen.findByRole('textbox', { name: 'Content' });
    expect(editor.querySelector('h3')).toHaveTextContent('Rates');
    expect(editor).toHaveTextContent('RatesChanged');
  });

  it('saves what the HTML view holds, through the form schema', async () => {
    const { onSaved, form } = renderForm('<p>Old</p>');
    await userEvent.click(sourceToggle());
    await userEvent.clear(screen.getByRole('textbox', { name: 'Content' }));
    await userEvent.click(within(form).getByRole('button', { name: 'Update Content Block' }));
    expect(await within(form).findByText('This field is required')).toBeInTheDocument();
    expect(saved).toEqual([]);

    await userEvent.type(screen.getByRole('textbox', { name: 'Content' }), '<p>New</p>');
    await userEvent.click(within(form).getByRole('button', { name: 'Update Content Block' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith('Content updated successfully.'));
    expect(saved).toEqual([{ Title: 'Blog', Slug: 'blog-section', Content: '<p>New</p>', isActive: true }]);
  });

  it('opens markup the editor would drop in the HTML view, and says what it is', async () => {
    renderForm('<p><font color="red">Hot</font> <span title="t">deal</span></p>');
    expect(sourceToggle()).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('textbox', { name: 'Content' })).toHaveValue(
      '<p><font color="red">Hot</font> <span title="t">deal</span></p>',
    );
    expect(screen.getByText(/markup the visual editor does not keep/)).toHaveTextContent('(<font>, <span>)');
  });
});

describe('ContentBlockForm: the preview', () => {
  it("shows the server's HTML as the site styles it, and what saving will remove", async () => {
    renderForm('<p>Hello</p>');
    await waitFor(() => expect(within(preview()).getByText('Hello')).toBeInTheDocument());
    expect(preview().querySelector('.content-html')).not.toBeNull();
    expect(screen.queryByText('Will be removed when saved:')).toBeNull();

    await userEvent.click(sourceToggle());
    await userEvent.type(screen.getByRole('textbox', { name: 'Content' }), '<script>alert(1)</script>');
    expect(await screen.findByText('Will be removed when saved:')).toBeInTheDocument();
    const removed = screen.getByText('Will be removed when saved:').nextElementSibling as HTMLElement;
    expect(within(removed).getByRole('listitem')).toHaveTextContent(
      '<script> — scripts never run on the site',
    );
    expect(preview()).toHaveTextContent('Hello');
    expect(preview()).not.toHaveTextContent('alert');
    // Asked after typing paused, not for every key.
    expect(previewed.at(-1)).toBe('<p>Hello</p><script>alert(1)</script>');
    expect(previewed.length).toBeLessThan(5);
  });
});
