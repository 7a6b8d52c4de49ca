import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ContentBlockRecord } from '../../../shared/schemas/content-blocks.js';
import { renderWithQuery } from '../../test/render.js';
import { ContentBlocksPage } from './content-blocks-page.js';

function block(slug: string, overrides: Partial<ContentBlockRecord> = {}): ContentBlockRecord {
  return {
    _id: slug,
    id: slug,
    Title: slug,
    Slug: slug,
    Content: '<p>x</p>',
    isActive: true,
    createdAt: '2026-11-20T10:00:00.000Z',
    updatedAt: '2026-11-20T10:00:00.000Z',
    ...overrides,
  };
}

let blocks: ContentBlockRecord[] = [];
let posted: unknown[] = [];

beforeEach(() => {
  blocks = [block('blog-section', { Title: 'Blog' }), block('about-us')];
  posted = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const json = (value: unknown, status = 200) => new Response(JSON.stringify(value), { status });
      if (url === '/api/contentblocks' && init.method === 'POST') {
        const values = JSON.parse(String(init.body)) as ContentBlockRecord;
        posted.push(values);
        const made = block(values.Slug, values);
        blocks = [...blocks, made];
        return json({ success: true, data: made }, 201);
      }
      if (url === '/api/contentblocks') return json({ success: true, data: blocks });
      return json({ success: false, message: 'Not found' }, 404);
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const siteBlocks = () =>
  screen.getByRole('heading', { name: 'Blocks the site shows' }).closest('section') as HTMLElement;
const item = (slug: string) =>
  within(siteBlocks())
    .getAllByRole('listitem')
    .find((candidate) => within(candidate).queryByText(slug, { selector: 'code' })) as HTMLElement;

describe('ContentBlocksPage: the blocks the site shows', () => {
  it('names each slug the site uses, what it does and whether it exists', async () => {
    renderWithQuery(<ContentBlocksPage />);
    expect(await screen.findByRole('heading', { name: 'Blocks the site shows' })).toBeInTheDocument();
    expect(within(siteBlocks()).getAllByRole('listitem')).toHaveLength(2);
    expect(item('blog-section')).toHaveTextContent('Blog section');
    expect(item('blog-section')).toHaveTextContent('Section not found.');
    expect(item('blog-section')).toHaveTextContent('On the site');
    expect(within(item('blog-section')).queryByRole('button')).toBeNull();
    expect(item('home-banner')).toHaveTextContent('Home banner');
    expect(item('home-banner')).toHaveTextContent('top of the home page');
    expect(item('home-banner')).toHaveTextContent('Missing');
  });

  it('says when a block exists but is not shown', async () => {
    blocks = [block('home-banner', { isActive: false })];
    renderWithQuery(<ContentBlocksPage />);
    await screen.findByRole('heading', { name: 'Blocks the site shows' });
    expect(item('home-banner')).toHaveTextContent('Inactive: not shown');
    expect(item('blog-section')).toHaveTextContent('Missing');
  });

  it('offers to create a missing one: the form opens with its title and slug, ready for the content', async () => {
    renderWithQuery(<ContentBlocksPage />);
    await screen.findByRole('heading', { name: 'Blocks the site shows' });
    await userEvent.click(within(item('home-banner')).getByRole('button', { name: 'Create home-banner' }));
    const form = screen.getByRole('form', { name: 'Add Content Block' });
    expect(within(form).getByLabelText('Title')).toHaveValue('Home banner');
    expect(within(form).getByLabelText('Slug')).toHaveValue('home-banner');
    // The visual editor, once its code has loaded.
    await waitFor(() => expect(within(form).getByRole('textbox', { name: 'Content' })).toHaveFocus());
    expect(within(form).getByRole('textbox', { name: 'Content' })).toHaveAttribute('contenteditable', 'true');

    await userEvent.click(within(form).getByRole('button', { name: 'HTML source' }));
    await userEvent.type(within(form).getByRole('textbox', { name: 'Content' }), 'Holiday on Sunday');
    await userEvent.click(within(form).getByRole('button', { name: 'Add Content Block' }));
    expect(await screen.findByText('Content added successfully.')).toBeInTheDocument();
    expect(posted).toEqual([
      { Title: 'Home banner', Slug: 'home-banner', Content: 'Holiday on Sunday', isActive: true },
    ]);
    await vi.waitFor(() => expect(item('home-banner')).toHaveTextContent('On the site'));
    // The form is back to an empty add form.
    expect(
      within(screen.getByRole('form', { name: 'Add Content Block' })).getByLabelText('Slug'),
    ).toHaveValue('');
  });

  it('Cancel leaves a prefilled form empty again', async () => {
    renderWithQuery(<ContentBlocksPage />);
    await screen.findByRole('heading', { name: 'Blocks the site shows' });
    await userEvent.click(screen.getByRole('button', { name: 'Create home-banner' }));
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(
      within(screen.getByRole('form', { name: 'Add Content Block' })).getByLabelText('Slug'),
    ).toHaveValue('');
    expect(posted).toEqual([]);
  });
});
