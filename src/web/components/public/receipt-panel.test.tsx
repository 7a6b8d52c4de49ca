import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answerLog, logEntry } from '../../test/receipt-fakes.js';
import { showReceipt } from './receipt-panel.js';
import type { ReceiptAsked } from './receipt-tap.js';

function ask(overrides: Partial<ReceiptAsked> = {}): ReceiptAsked {
  const opener = document.createElement('button');
  document.body.append(opener);
  return {
    gid: 5,
    name: 'Gali',
    date: '2026-11-22',
    shown: '54',
    language: 'en',
    timeZone: 'Asia/Kolkata',
    opener,
    ...overrides,
  };
}

const open = async (asked: ReceiptAsked) => {
  act(() => showReceipt(asked));
  return screen.findByTestId('receipt-panel');
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the receipt panel a tapped value opens', () => {
  it('reads the latest log entry of the ghadi and date, and shows its receipt, time and what it corrected', async () => {
    const asked = answerLog([logEntry({ seq: 11, Result: '45', Previous: null }), logEntry()]);
    const panel = await open(ask());
    expect(panel).toHaveAttribute('open');
    expect(await within(panel).findByTestId('receipt-code')).toHaveTextContent('3f9a0c12de');
    expect(asked).toEqual([
      '/api/declarations?gid=5&date=2026-11-22&limit=1000',
      `/api/declarations/receipt/${logEntry().hash}`,
    ]);
    expect(panel).toHaveTextContent('Gali · 22 November 2026: 54');
    // 17:50 UTC is 23:20 in Kolkata, whatever the zone the test runs in.
    expect(panel).toHaveTextContent('Declared: 22 November 2026, 23:20 (Asia/Kolkata time)');
    expect(panel).toHaveTextContent('A correction: it replaced 45.');
    expect(within(panel).getByRole('link', { name: 'Open the receipt page' })).toHaveAttribute(
      'href',
      '/r/3f9a0c12de',
    );
    expect(within(panel).queryByRole('alert')).toBeNull();
  });

  it('says a close completed the open half, and that the page was out of date when the log has newer', async () => {
    answerLog([logEntry({ Result: '123-68-459', Previous: '123-6', Step: 'close' })]);
    const panel = await open(ask({ shown: '123-6' }));
    await within(panel).findByTestId('receipt-code');
    expect(panel).toHaveTextContent('The close: it completed the open half 123-6. This is not a correction.');
    expect(within(panel).getByRole('alert')).toHaveTextContent(
      'The log now has 123-68-459 for this day: this page was out of date.',
    );
  });

  it('in Hindi, with the receipt page under /hi', async () => {
    answerLog([logEntry({ Previous: null })]);
    const panel = await open(ask({ language: 'hi', name: 'गली' }));
    await within(panel).findByTestId('receipt-code');
    expect(panel).toHaveTextContent('गली · 22 नवंबर 2026: 54');
    expect(panel).toHaveTextContent('इस रिज़ल्ट की पहली घोषणा।');
    expect(within(panel).getByRole('link', { name: 'रसीद का पेज खोलें' })).toHaveAttribute(
      'href',
      '/hi/r/3f9a0c12de',
    );
  });

  it('shows the receipt the log names, longer than 10 characters when another entry shares them', async () => {
    answerLog([logEntry()], { [logEntry().hash]: '3f9a0c12debb' });
    const panel = await open(ask());
    expect(await within(panel).findByTestId('receipt-code')).toHaveTextContent(/^3f9a0c12debb$/);
    expect(within(panel).getByRole('link', { name: 'Open the receipt page' })).toHaveAttribute(
      'href',
      '/r/3f9a0c12debb',
    );
  });

  it('says when it could not load, and tries again', async () => {
    answerLog('fail');
    const panel = await open(ask());
    expect(await within(panel).findByRole('alert')).toHaveTextContent('The receipt could not be loaded.');
    answerLog([logEntry()]);
    await userEvent.click(within(panel).getByRole('button', { name: 'Try again' }));
    expect(await within(panel).findByTestId('receipt-code')).toHaveTextContent('3f9a0c12de');
  });

  it('says when the log has no entry for the value', async () => {
    answerLog([]);
    const panel = await open(ask());
    expect(await within(panel).findByText('This result has no entry in the declaration log.')).toBeVisible();
    expect(within(panel).queryByRole('link')).toBeNull();
  });

  it('closes with its button, and gives the focus back to the value that opened it', async () => {
    answerLog([logEntry()]);
    const asked = ask();
    const panel = await open(asked);
    await userEvent.click(within(panel).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByTestId('receipt-panel')).toBeNull());
    expect(asked.opener).toHaveFocus();
  });
});

describe('sharing a receipt', () => {
  const shareFrom = async () => {
    answerLog([logEntry()]);
    const panel = await open(ask());
    await within(panel).findByTestId('receipt-code');
    await userEvent.click(within(panel).getByRole('button', { name: 'Share this receipt' }));
    return panel;
  };

  it('hands the receipt page’s full address to the phone’s share sheet', async () => {
    const share = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, share });
    await shareFrom();
    expect(share).toHaveBeenCalledWith({
      title: 'Receipt 3f9a0c12de',
      url: `${window.location.origin}/r/3f9a0c12de`,
    });
  });

  it('copies the address where there is no share sheet, and says so', async () => {
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, share: undefined, clipboard: { writeText } });
    const panel = await shareFrom();
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/r/3f9a0c12de`);
    expect(await within(panel).findByRole('status')).toHaveTextContent('Link copied');
  });

  it('shows the address to copy by hand when neither works', async () => {
    const writeText = vi.fn(async () => {
      throw new DOMException('Not allowed', 'NotAllowedError');
    });
    vi.stubGlobal('navigator', { ...navigator, share: undefined, clipboard: { writeText } });
    const panel = await shareFrom();
    expect(await within(panel).findByRole('textbox', { name: 'Copy this link:' })).toHaveValue(
      `${window.location.origin}/r/3f9a0c12de`,
    );
  });

  it('says nothing when the visitor closes the share sheet', async () => {
    const share = vi.fn(async () => {
      throw new DOMException('Share canceled', 'AbortError');
    });
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, share, clipboard: { writeText } });
    const panel = await shareFrom();
    await waitFor(() => expect(share).toHaveBeenCalled());
    expect(writeText).not.toHaveBeenCalled();
    expect(within(panel).getByRole('status')).toHaveTextContent('');
  });
});
