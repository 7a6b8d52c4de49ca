import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Language } from '../../../shared/page-language.js';
import { ghadiRecord, resultRecord } from '../../test/records.js';
import { renderThenHydrate } from '../../test/render.js';
import { RecordChart } from './record-chart.js';

const ghadis = [
  ghadiRecord(1, { NameEn: 'NCR' }),
  ghadiRecord(7, {
    NameEn: 'Kalyan',
    NameHn: 'कल्याण',
    Kind: 'open-close',
    OpenTime: '3:45 PM',
    RTime: '5:45 PM',
  }),
  ghadiRecord(8, { NameEn: 'Star', Kind: 'panna', RTime: '1:00 PM' }),
];
const results = [
  resultRecord(1, '2026-11-21', '12', { Name: 'NCR' }),
  resultRecord(7, '2026-11-21', '123-68-459', { Name: 'Kalyan' }),
  resultRecord(7, '2026-11-22', '190-02-345', { Name: 'Kalyan', Corrected: true, Previous: '190-03-120' }),
  resultRecord(7, '2026-11-23', '123-6', { Name: 'Kalyan' }),
  resultRecord(8, '2026-11-21', '128-1', { Name: 'Star' }),
];

const serve = (language: Language = 'en') =>
  renderThenHydrate(
    <RecordChart ghadis={ghadis} results={results} month="2026-11" today="2026-11-23" language={language} />,
  );

const cell = (day: number, column: number) =>
  within(screen.getByRole('table')).getAllByRole('row')[day]?.querySelectorAll('td')[column] as HTMLElement;

describe('the record chart with an open/close market and a starline draw', () => {
  it('shows a market’s jodi (or its open ank and a dash), named by the whole result; a starline result whole', async () => {
    await serve();
    expect(cell(21, 0)).toHaveTextContent(/^12$/);
    expect(cell(21, 0)).not.toHaveAttribute('title');
    expect(cell(21, 1)).toHaveTextContent(/^68$/);
    expect(cell(21, 1)).toHaveAttribute('title', '123-68-459');
    expect(screen.getByRole('cell', { name: '123-68-459' })).toBe(cell(21, 1));
    expect(cell(23, 1)).toHaveTextContent(/^6-$/);
    expect(cell(23, 1)).toHaveAttribute('aria-label', '123-6');
    expect(cell(22, 1)).toHaveAttribute('aria-label', '190-02-345 (corrected, was 190-03-120)');
    expect(cell(21, 2)).toHaveTextContent(/^128-1$/);
    expect(cell(21, 2)).not.toHaveAttribute('aria-label');
    expect(screen.getByTestId('record-corrections')).toHaveTextContent('Kalyan 22: was 190-03-120');
  });

  it('shows a tapped cell’s whole result', async () => {
    await serve();
    act(() => {
      fireEvent.click(cell(21, 1));
    });
    expect(screen.getByTestId('tapped-cell')).toHaveTextContent(/^Kalyan 21: 123-68-459$/);
  });

  it('names a corrected cell in Hindi', async () => {
    await serve('hi');
    expect(cell(22, 1)).toHaveAttribute('aria-label', '190-02-345 (सुधारा गया, पहले 190-03-120 था)');
  });
});
