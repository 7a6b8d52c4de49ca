import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { NotFoundPageData } from '../../../shared/public-page-data.js';
import { TICKER } from '../../test/records.js';
import { renderThenHydrate } from '../../test/render.js';
import { NotFoundView } from './not-found-view.js';

const data: NotFoundPageData = {
  page: 'not-found',
  siteName: 'Site',
  today: '2026-11-22',
  timeZone: 'Asia/Kolkata',
  ghadiNames: TICKER,
};

describe('the site’s 404 page', () => {
  it('renders on the server and hydrates without a difference, and leads home and to this month’s chart', async () => {
    const { html } = await renderThenHydrate(<NotFoundView data={data} language="en" />);
    expect(html).toContain('Page not found');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Page not found');
    expect(screen.getByText(/There is nothing at this address/)).toBeInTheDocument();
    const links = screen.getByRole('navigation', { name: 'Where to go' }).querySelectorAll('a');
    expect([...links].map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Home page', '/'],
      ['Satta Chart November 2026', '/chart/2026-11'],
    ]);
  });

  it('reads in Hindi, with its links under /hi', async () => {
    const { html } = await renderThenHydrate(<NotFoundView data={data} language="hi" />);
    expect(html).toContain('पेज नहीं मिला');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('पेज नहीं मिला');
    const links = screen.getByRole('navigation', { name: 'कहाँ जाएँ' }).querySelectorAll('a');
    expect([...links].map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['होम पेज', '/hi'],
      ['सट्टा चार्ट नवंबर 2026', '/hi/chart/2026-11'],
    ]);
  });
});
