import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../../shared/live-events.js';
import type { HomePageData } from '../../../shared/public-page-data.js';
import { ghadiRecord } from '../../test/records.js';
import { renderThenHydrate } from '../../test/render.js';
import { dueMinutes, nextDueGid } from './board-state.js';
import { GhadiChart } from './ghadi-chart.js';
import { applyHomeEvent } from './home-live.js';
import { HomeView } from './home-view.js';

const TODAY = '2026-11-23';
const ZONE = 'Asia/Kolkata';
/** 14:00 in Kolkata (UTC+5:30). */
const AT_TWO_PM = `${TODAY}T08:30:00.000Z`;

/** NCR declared at 13:52 Kolkata time; Delhi Bazar due 2:45 PM; Faridabad 5:50 PM; Disawer 4:00 AM (passed). */
const board = () => [
  ghadiRecord(1, {
    NameEn: 'NCR',
    RTime: '1:45 PM',
    TodayResult: '54',
    DeclaredAt: `${TODAY}T08:22:10.000Z`,
  }),
  ghadiRecord(2, { NameEn: 'Faridabad', RTime: '5:50 PM' }),
  ghadiRecord(3, { NameEn: 'Delhi Bazar', RTime: '2:45 PM' }),
  ghadiRecord(4, { NameEn: 'Disawer', RTime: '4:00 AM' }),
  // Declared, but by data without a time: it says so without one.
  ghadiRecord(5, { NameEn: 'Gali', RTime: '11:15 PM', TodayResult: '07', DeclaredAt: null }),
];

function card(name: string): HTMLElement {
  const link = screen.getByRole('link', { name });
  return link.closest('li') as HTMLElement;
}

function renderBoard(now = AT_TWO_PM) {
  return render(
    <GhadiChart
      ghadis={board()}
      today={TODAY}
      timeZone={ZONE}
      updatedAt={`${TODAY}T08:25:00.000Z`}
      now={now}
      language="en"
    />,
  );
}

describe('the board at a glance', () => {
  it('each card says, in words, declared (at its time in the site’s zone) or waiting (with its due time)', () => {
    renderBoard();
    expect(within(card('NCR')).getByTestId('state')).toHaveTextContent(/^Declared at 13:52$/);
    expect(within(card('NCR')).getByRole('time')).toHaveAttribute('datetime', `${TODAY}T08:22:10.000Z`);
    expect(within(card('Gali')).getByTestId('state')).toHaveTextContent(/^Declared$/);
    expect(within(card('Faridabad')).getByTestId('state')).toHaveTextContent(/^Waiting due 5:50 PM$/);
    expect(within(card('Disawer')).getByTestId('state')).toHaveTextContent(/^Waiting due 4:00 AM$/);
  });

  it('marks the waiting ghadi due soonest after now “Next”, in text, and only that one', () => {
    renderBoard();
    const nextMarks = screen.getAllByTestId('next');
    expect(nextMarks).toHaveLength(1);
    expect(nextMarks[0]).toHaveTextContent('Next');
    expect(within(card('Delhi Bazar')).getByTestId('state')).toHaveTextContent(/^Next Waiting due 2:45 PM$/);
  });

  it('has no “Next” once every waiting ghadi’s time has passed', () => {
    // 23:00 in Kolkata: Gali (11:15 PM) is declared, the others are past due.
    renderBoard(`${TODAY}T17:30:00.000Z`);
    expect(screen.queryByTestId('next')).toBeNull();
  });

  it('counts declared and waiting, and says when the data was last updated in the site’s zone', () => {
    renderBoard();
    expect(screen.getByTestId('board-counts')).toHaveTextContent(/^2 declared · 3 waiting today$/);
    expect(screen.getByTestId('last-updated')).toHaveTextContent(/^Last updated 13:55/);
  });

  it('reads due times as admins type them', () => {
    expect(dueMinutes('1:45 PM')).toBe(13 * 60 + 45);
    expect(dueMinutes('12:10 AM')).toBe(10);
    expect(dueMinutes('12:30 pm')).toBe(12 * 60 + 30);
    expect(dueMinutes('4 AM')).toBe(240);
    expect(dueMinutes('21:15')).toBe(21 * 60 + 15);
    expect(dueMinutes('soon')).toBeNull();
    expect(dueMinutes('13:00 PM')).toBeNull();
    expect(nextDueGid([ghadiRecord(1, { RTime: 'soon' })], AT_TWO_PM, ZONE)).toBeNull();
  });

  it('a declared result flips its card, the counts and "Last updated"', () => {
    const data: HomePageData = {
      page: 'home',
      version: 1,
      siteName: 'Site',
      today: TODAY,
      timeZone: ZONE,
      updatedAt: `${TODAY}T08:25:00.000Z`,
      recordMonth: '2026-11',
      ghadis: board(),
      record: [],
      blogHtml: null,
      bannerHtml: null,
    };
    const declaredAt = `${TODAY}T09:16:00.000Z`;
    const event: LiveEvent = {
      kind: 'result',
      gid: 3,
      date: TODAY,
      ghadi: ghadiRecord(3, {
        NameEn: 'Delhi Bazar',
        RTime: '2:45 PM',
        TodayResult: '31',
        DeclaredAt: declaredAt,
      }),
      result: null,
      declaration: null,
    };
    const after = applyHomeEvent(data, event, new Date(`${TODAY}T09:16:05.000Z`));
    expect(after.updatedAt).toBe(`${TODAY}T09:16:05.000Z`);
    // An event that changes nothing leaves the time alone.
    expect(applyHomeEvent(data, { kind: 'content', slug: 'other', block: null })).toBe(data);
    render(
      <GhadiChart
        ghadis={after.ghadis}
        today={TODAY}
        timeZone={ZONE}
        updatedAt={after.updatedAt}
        now={AT_TWO_PM}
        language="en"
      />,
    );
    expect(within(card('Delhi Bazar')).getByTestId('state')).toHaveTextContent(/^Declared at 14:46$/);
    expect(screen.getByTestId('board-counts')).toHaveTextContent(/^3 declared · 2 waiting today$/);
    expect(screen.getByTestId('last-updated')).toHaveTextContent(/^Last updated 14:46/);
    // Delhi Bazar is declared: Faridabad is next.
    expect(within(card('Faridabad')).getByTestId('next')).toBeInTheDocument();
  });

  it('the server’s render and the browser’s hydration agree (reckoned from the data’s time)', async () => {
    const data: HomePageData = {
      page: 'home',
      version: 1,
      siteName: 'Site',
      today: TODAY,
      timeZone: ZONE,
      updatedAt: AT_TWO_PM,
      recordMonth: '2026-11',
      ghadis: board(),
      record: [],
      blogHtml: null,
      bannerHtml: null,
    };
    const { html } = await renderThenHydrate(<HomeView initial={data} language="en" />);
    expect(html).toContain('Last updated');
    expect(html).toContain('2<!-- --> declared · <!-- -->3<!-- --> waiting today');
  });
});
