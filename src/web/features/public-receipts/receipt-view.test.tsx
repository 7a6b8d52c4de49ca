import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Language } from '../../../shared/page-language.js';
import type { ReceiptPageData } from '../../../shared/public-page-data.js';
import type { ReceiptEntry } from '../../../shared/schemas/receipts.js';
import { TICKER } from '../../test/records.js';
import { renderThenHydrate } from '../../test/render.js';
import { ReceiptView } from './receipt-view.js';

const HASH = `3f9a0c12de${'b'.repeat(54)}`;

function entry(overrides: Partial<ReceiptEntry> = {}): ReceiptEntry {
  return {
    seq: 12,
    GID: 5,
    Name: 'Gali',
    Date: '2026-11-22',
    Result: '54',
    Previous: '45',
    DeclaredAt: '2026-11-22T17:50:00.000Z',
    prevHash: 'a'.repeat(64),
    hash: HASH,
    Step: null,
    Receipt: '3f9a0c12de',
    Corrected: true,
    Latest: true,
    Next: null,
    Current: null,
    ...overrides,
  };
}

const CHECKPOINT =
  'example.com/log\n40\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n\n— example.com/log AAAAAA==\n';

const basics = {
  page: 'receipt' as const,
  siteName: 'Site',
  today: '2026-11-23',
  timeZone: 'Asia/Kolkata',
  ghadiNames: TICKER,
};

const data = (overrides: Partial<ReceiptEntry> = {}): ReceiptPageData => ({
  ...basics,
  receipt: '3f9a0c12de',
  found: {
    kind: 'entry',
    entry: entry(overrides),
    ghadi: { GID: 5, NameEn: 'Gali', NameHn: 'गली' },
    proof: { seq: 12, size: 40, leafHash: 'bGVhZg==', hashes: ['aGFzaDE=', 'aGFzaDI='] },
    checkpoint: CHECKPOINT,
  },
});

const render = (page: ReceiptPageData, language: Language = 'en') =>
  renderThenHydrate(<ReceiptView data={page} language={language} />);

const later = (seq: number, Receipt: string, Result: string) => ({
  seq,
  Receipt,
  Result,
  DeclaredAt: '2026-11-23T04:00:00.000Z',
  Step: null,
  Corrected: true,
});

describe('a receipt’s page', () => {
  it('renders on the server and hydrates without a difference: the entry, when, what it replaced, that it stands', async () => {
    await render(data());
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Receipt 3f9a0c12de');
    expect(screen.getByRole('link', { name: 'Gali' })).toHaveAttribute('href', '/satta-results/gali');
    expect(screen.getByTestId('receipt-result')).toHaveTextContent('54');
    expect(screen.getByText('22 November 2026, 23:20 (Asia/Kolkata time)')).toHaveAttribute(
      'dateTime',
      '2026-11-22T17:50:00.000Z',
    );
    expect(screen.getByTestId('receipt-change')).toHaveTextContent('A correction: it replaced 45.');
    expect(screen.getByTestId('receipt-standing')).toHaveTextContent(
      'This is the latest entry for Gali on 22 November 2026: 54 is the result this site shows.',
    );
    expect(screen.getByTestId('receipt-seq')).toHaveTextContent('12');
    expect(screen.getByTestId('receipt-hash')).toHaveTextContent(HASH);
    expect(screen.getByRole('link', { name: 'How to check the declaration log' })).toHaveAttribute(
      'href',
      '/declarations#verify-title',
    );
    expect(screen.getByRole('button', { name: 'Share this receipt' })).toBeVisible();
  });

  it('an entry replaced later links the entry that replaced it and, when it differs, the current one', async () => {
    await render(
      data({
        Latest: false,
        Previous: null,
        Corrected: false,
        Next: later(13, '1111111111', '55'),
        Current: later(14, '2222222222', '56'),
      }),
    );
    const standing = screen.getByTestId('receipt-standing');
    expect(standing).toHaveTextContent('This is no longer the result: it was later corrected to 55.');
    expect(standing).toHaveTextContent('It changed again afterwards: the result now is 56.');
    expect(within(standing).getByRole('link', { name: /Receipt of that entry/ })).toHaveAttribute(
      'href',
      '/r/1111111111',
    );
    expect(within(standing).getByRole('link', { name: /Receipt of the current result/ })).toHaveAttribute(
      'href',
      '/r/2222222222',
    );
    expect(screen.getByTestId('receipt-change')).toHaveTextContent('The first declaration of this result.');
  });

  it('an open half completed by its close: the close is named, and it is no correction', async () => {
    const close = { ...later(13, '1111111111', '123-68-459'), Step: 'close' as const, Corrected: false };
    await render(
      data({
        Result: '123-6',
        Previous: null,
        Step: 'open',
        Corrected: false,
        Latest: false,
        Next: close,
        Current: close,
      }),
    );
    expect(screen.getByTestId('receipt-change')).toHaveTextContent(
      'The first declaration of this day: its open half.',
    );
    const standing = screen.getByTestId('receipt-standing');
    expect(standing).toHaveTextContent('The close was declared later: the whole day is 123-68-459.');
    expect(within(standing).getAllByRole('link')).toHaveLength(1);
  });

  it('in Hindi: the ghadi’s Hindi name, Hindi words, and the Hindi pages', async () => {
    await render(
      data({ Latest: false, Next: later(13, '1111111111', '55'), Current: later(13, '1111111111', '55') }),
      'hi',
    );
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('रसीद 3f9a0c12de');
    expect(screen.getByRole('link', { name: 'गली' })).toHaveAttribute('href', '/hi/satta-results/gali');
    expect(screen.getByText('22 नवंबर 2026, 23:20 (Asia/Kolkata समय)')).toBeVisible();
    expect(screen.getByTestId('receipt-standing')).toHaveTextContent(
      'यह अब रिज़ल्ट नहीं है: बाद में इसे सुधारकर 55 किया गया।',
    );
    expect(screen.getByRole('link', { name: /उस एंट्री की रसीद/ })).toHaveAttribute('href', '/hi/r/1111111111');
    expect(screen.getByRole('link', { name: 'घोषणा लॉग की जाँच कैसे करें' })).toHaveAttribute(
      'href',
      '/hi/declarations#verify-title',
    );
  });

  it('a receipt several entries share lists each with its own receipt and full hash', async () => {
    const twin = `3f9a0c12de${'f'.repeat(54)}`;
    const shared = (
      seq: number,
      Name: string,
      date: string,
      Result: string,
      hash: string,
      Receipt: string,
    ) => ({
      seq,
      GID: 5,
      Name,
      Date: date,
      Result,
      hash,
      Receipt,
    });
    await render({
      ...basics,
      receipt: '3f9a0c12de',
      found: {
        kind: 'shared',
        entries: [
          shared(12, 'Gali', '2026-11-22', '54', HASH, '3f9a0c12deb'),
          shared(90, 'Disawer', '2026-10-02', '12', twin, '3f9a0c12def'),
        ],
      },
    });
    const list = screen.getByTestId('receipt-shared');
    expect(list).toHaveTextContent('Several entries’ hashes begin with this receipt.');
    expect(list).toHaveTextContent(`#90 Disawer, 2 October 2026: 12 3f9a0c12def${twin}`);
    expect(within(list).getByRole('link', { name: '3f9a0c12deb' })).toHaveAttribute('href', '/r/3f9a0c12deb');
    expect(within(list).getByRole('link', { name: '3f9a0c12def' })).toHaveAttribute('href', '/r/3f9a0c12def');
    expect(screen.queryByTestId('receipt-proof-verdict')).toBeNull();
  });

  it('shows the checkpoint and the proof’s hashes, and says how to check by hand before any script runs', async () => {
    const { html } = await render(data());
    expect(html).toContain('To check it by hand (or without JavaScript)');
    expect(screen.getByTestId('receipt-checkpoint').textContent).toBe(CHECKPOINT);
    expect(screen.getByText('Inclusion proof: 2 hashes, in a log of 40 entries')).toBeVisible();
    expect(
      within(screen.getByTestId('receipt-proof-hashes'))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['aGFzaDE=', 'aGFzaDI=']);
    expect(screen.getByRole('link', { name: 'The site’s public key' })).toHaveAttribute(
      'href',
      '/api/log/key',
    );
  });
});
