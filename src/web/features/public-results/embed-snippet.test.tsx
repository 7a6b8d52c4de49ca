import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderThenHydrate } from '../../test/render.js';
import { resultsPageData } from '../../test/results-page-data.js';
import { PublicResultsView } from './public-results-view.js';

describe('the embed snippet on a ghadi’s page', () => {
  it('is in the server’s HTML with PUBLIC_URL, and copies the iframe that shows this ghadi', async () => {
    const { html } = await renderThenHydrate(
      <PublicResultsView
        initial={{ ...resultsPageData(), siteUrl: 'https://results.example' }}
        language="en"
      />,
    );
    const code =
      '<iframe src="https://results.example/embed/gali" title="Gali live result" width="360" height="220" ' +
      'style="border:0;max-width:100%" loading="lazy"></iframe>';
    // Escaped in the page's HTML, as a textarea's text is.
    expect(html).toContain(
      code.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;'),
    );
    const field = screen.getByRole('textbox', { name: 'Show this result on your site' });
    expect(field).toHaveValue(code);
    expect(field).toHaveAttribute('readonly');

    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    });
    expect(writeText).toHaveBeenCalledWith(code);
    expect(await screen.findByText('Copied')).toHaveAttribute('role', 'status');
  });

  it('names the Hindi embed on the Hindi page, and the page’s own origin without PUBLIC_URL', async () => {
    await renderThenHydrate(
      <PublicResultsView initial={{ ...resultsPageData(), siteUrl: null }} language="hi" />,
    );
    expect(screen.getByRole('textbox', { name: 'यह रिज़ल्ट अपनी साइट पर दिखाएँ' })).toHaveValue(
      `<iframe src="${window.location.origin}/hi/embed/gali" title="गली लाइव रिज़ल्ट" width="360" height="220" ` +
        'style="border:0;max-width:100%" loading="lazy"></iframe>',
    );
    expect(screen.getByRole('button', { name: 'कॉपी करें' })).toBeInTheDocument();
  });
});
