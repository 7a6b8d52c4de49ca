import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Language } from '../../../shared/page-language.js';
import type { GhadiNames } from '../../../shared/public-page-data.js';
import { renderThenHydrate } from '../../test/render.js';
import { PublicShell } from './site-chrome.js';

/** The spec's time table has none of these but NCR: the strip follows the live list, not the table. */
const GHADIS: GhadiNames[] = [
  { GID: 1, NameEn: 'NCR', NameHn: 'एनसीआर' },
  { GID: 40, NameEn: 'Added Later', NameHn: 'बाद वाली' },
  { GID: 41, NameEn: 'No Hindi Name', NameHn: '' },
  { GID: 42, NameEn: 'दिसावर सिटी', NameHn: 'दिसावर सिटी' },
];

const serve = (language: Language, ghadis = GHADIS) =>
  renderThenHydrate(
    <PublicShell
      siteName="Site"
      year={2026}
      path="/declarations"
      language={language}
      today="2026-11-23"
      ghadis={ghadis}
    >
      <p>Page</p>
    </PublicShell>,
  );

/** The strip's keywords a reader hears (its second copy, for the loop, is hidden). */
const keywords = () =>
  within(screen.getByRole('region', { name: /Keywords|कीवर्ड/ }))
    .getAllByRole('listitem')
    .map((item) => item.textContent);

describe('the keyword strip', () => {
  it('names every live ghadi by OrderId between the site’s own keywords, in English', async () => {
    await serve('en');
    expect(keywords()).toEqual([
      '★ Satta King Live Result',
      '★ NCR Result',
      '★ Added Later Result',
      '★ No Hindi Name Result',
      '★ दिसावर सिटी Result',
      '★ Satta Chart',
      '★ Monthly Record Chart',
      '★ Fast Result',
    ]);
    // A name written in Devanagari is marked Hindi on an English page.
    expect(screen.getAllByText('दिसावर सिटी')[0]).toHaveAttribute('lang', 'hi');
  });

  it('names them by their Hindi names on a Hindi page, an English name marked as such', async () => {
    await serve('hi');
    expect(keywords()).toEqual([
      '★ सट्टा किंग लाइव रिज़ल्ट',
      '★ एनसीआर रिज़ल्ट',
      '★ बाद वाली रिज़ल्ट',
      '★ No Hindi Name रिज़ल्ट',
      '★ दिसावर सिटी रिज़ल्ट',
      '★ सट्टा चार्ट',
      '★ मासिक रिकॉर्ड चार्ट',
      '★ फ़ास्ट रिज़ल्ट',
    ]);
    expect(screen.getAllByText('No Hindi Name')[0]).toHaveAttribute('lang', 'en');
  });

  it('takes as long to pass as it has keywords, so that a long list does not race by', async () => {
    const { html } = await serve('en', GHADIS.slice(0, 1));
    expect(html).toContain('animation-duration:17.5s');
  });
});

describe('the share links', () => {
  it('sit in the footer, where they float only on screens wide enough to leave them room', async () => {
    await serve('en');
    const share = screen.getByRole('navigation', { name: 'Share' });
    expect(share.closest('footer')).not.toBeNull();
    expect(share.className).toMatch(/(^| )min-\[75rem\]:fixed( |$)/);
    expect(share.className).not.toMatch(/(^| )fixed( |$)/);
    expect(
      within(share)
        .getAllByRole('link')
        .map((link) => link.getAttribute('aria-label')),
    ).toEqual(['Share on WhatsApp', 'Share on Telegram', 'Back to top']);
  });

  it('and every footer link is tall enough to tap', async () => {
    await serve('hi');
    const footer = screen.getByRole('contentinfo');
    const links = within(footer)
      .getAllByRole('link')
      .filter((link) => !link.closest('nav'));
    expect(links.map((link) => link.textContent)).toEqual([
      'होम',
      'लाइव चार्ट',
      'मासिक चार्ट',
      'घोषणा लॉग',
      'साइटमैप',
    ]);
    for (const link of links) expect(link.className).toContain('min-h-9');
  });
});
