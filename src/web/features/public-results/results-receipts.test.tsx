import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Language } from '../../../shared/page-language.js';
import { answerLog, logEntry } from '../../test/receipt-fakes.js';
import { resultRecord } from '../../test/records.js';
import { renderThenHydrate } from '../../test/render.js';
import { resultsPageData } from '../../test/results-page-data.js';
import { PublicResultsView } from './public-results-view.js';

const data = resultsPageData({
  results: [
    resultRecord(5, '2026-11-22', '54', { Name: 'Gali', Corrected: true, Previous: '45' }),
    resultRecord(5, '2026-11-21', '07', { Name: 'Gali' }),
  ],
});

const render = (language: Language = 'en') =>
  renderThenHydrate(<PublicResultsView initial={data} language={language} />);

describe('a ghadi’s month shows each value’s receipt on a tap', () => {
  it('each value is a button that opens a dialog; days without a value have none', async () => {
    await render();
    const table = screen.getByRole('table');
    const buttons = within(table).getAllByRole('button');
    expect(buttons.map((button) => button.textContent)).toEqual(['07', '54']);
    expect(buttons[1]).toHaveAttribute('aria-haspopup', 'dialog');
  });

  it('a tap reads that day’s latest log entry and shows its receipt, with the page it has', async () => {
    await render();
    const asked = answerLog([logEntry()]);
    await userEvent.click(within(screen.getByRole('table')).getByRole('button', { name: '54' }));
    const panel = await screen.findByRole('dialog', { name: /Receipt/ });
    expect(await within(panel).findByTestId('receipt-code')).toHaveTextContent('3f9a0c12de');
    expect(asked[0]).toBe('/api/declarations?gid=5&date=2026-11-22&limit=1000');
    expect(panel).toHaveTextContent('Gali · 22 November 2026: 54');
    expect(within(panel).getByRole('link', { name: 'Open the receipt page' })).toHaveAttribute(
      'href',
      '/r/3f9a0c12de',
    );
  });

  it('the keyboard opens it too, and a Hindi page opens it in Hindi', async () => {
    await render('hi');
    const asked = answerLog([logEntry({ Date: '2026-11-21', Result: '07', Previous: null })]);
    within(screen.getByRole('table')).getByRole('button', { name: '07' }).focus();
    await userEvent.keyboard('{Enter}');
    const panel = await screen.findByRole('dialog', { name: /रसीद/ });
    await within(panel).findByTestId('receipt-code');
    expect(asked[0]).toBe('/api/declarations?gid=5&date=2026-11-21&limit=1000');
    expect(panel).toHaveTextContent('गली · 21 नवंबर 2026: 07');
  });

  it('a tap elsewhere in the table asks for nothing', async () => {
    await render();
    const asked = answerLog([logEntry()]);
    await userEvent.click(within(screen.getByRole('table')).getByText('Waiting'));
    await userEvent.click(within(screen.getByRole('table')).getAllByRole('rowheader')[0] as HTMLElement);
    expect(asked).toEqual([]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
