import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ghadiRecord, resultRecord } from '../../test/records.js';
import { GhadiChart } from './ghadi-chart.js';
import { RecordChart } from './record-chart.js';

const TODAY = '2026-11-23';

describe('the home page marks corrected values', () => {
  it('the chart: today’s corrected value carries ✱ named “corrected, was 45”, and says it visibly', () => {
    render(
      <GhadiChart
        today={TODAY}
        timeZone="Asia/Kolkata"
        updatedAt={`${TODAY}T06:00:00.000Z`}
        now={`${TODAY}T06:00:00.000Z`}
        language="en"
        ghadis={[
          ghadiRecord(1, { TodayResult: '54', Corrected: true, Previous: '45' }),
          ghadiRecord(2, { TodayResult: '12' }),
        ]}
      />,
    );
    const [corrected, plain] = screen.getAllByTestId('today');
    const mark = within(corrected as HTMLElement).getByTestId('correction-mark');
    expect(mark).toHaveAttribute('title', 'corrected, was 45');
    expect(mark).toHaveTextContent('✱');
    // Readers hear the value, then the words; the visible "was 45" is not read twice.
    expect(corrected).toHaveTextContent('54✱ (corrected, was 45)was 45');
    expect(within(corrected as HTMLElement).getByText('was 45')).toHaveAttribute('aria-hidden', 'true');
    expect(within(plain as HTMLElement).queryByTestId('correction-mark')).toBeNull();
    expect(plain).toHaveTextContent(/^12$/);
  });

  it('the record chart: the corrected cell carries the mark, and a note under the chart lists it', () => {
    const ghadis = [ghadiRecord(1, { NameEn: 'NCR' }), ghadiRecord(2, { NameEn: 'Gali' })];
    render(
      <RecordChart
        ghadis={ghadis}
        month="2026-11"
        today={TODAY}
        language="en"
        results={[
          resultRecord(1, '2026-11-22', '54', { Name: 'NCR', Corrected: true, Previous: '45' }),
          resultRecord(2, '2026-11-22', '07', { Name: 'Gali' }),
        ]}
      />,
    );
    const row = screen.getAllByRole('row').find((candidate) => candidate.textContent?.startsWith('22'));
    const [ncr, gali] = within(row as HTMLElement).getAllByRole('cell');
    expect(ncr).toHaveTextContent('54✱ (corrected, was 45)');
    expect(within(ncr as HTMLElement).getByTestId('correction-mark')).toHaveAttribute(
      'title',
      'corrected, was 45',
    );
    expect(gali).toHaveTextContent(/^07$/);
    expect(screen.getByTestId('record-corrections')).toHaveTextContent(
      '✱ Corrected after it was first declared: NCR 22: was 45',
    );
  });

  it('no note when nothing was corrected', () => {
    render(
      <RecordChart
        ghadis={[ghadiRecord(1)]}
        month="2026-11"
        today={TODAY}
        language="en"
        results={[resultRecord(1, '2026-11-22', '54')]}
      />,
    );
    expect(screen.queryByTestId('record-corrections')).toBeNull();
    expect(screen.queryByTestId('correction-mark')).toBeNull();
  });
});
