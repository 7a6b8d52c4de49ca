import { render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LiveEvent } from '../../../shared/live-events.js';
import type { Language } from '../../../shared/page-language.js';
import type { HomePageData } from '../../../shared/public-page-data.js';
import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import { ghadiRecord } from '../../test/records.js';
import { renderThenHydrate } from '../../test/render.js';
import { boardCounts, nextDueGid } from './board-state.js';
import { GhadiChart } from './ghadi-chart.js';
import { applyHomeEvent } from './home-live.js';
import { HomeView } from './home-view.js';

const TODAY = '2026-11-23';
const ZONE = 'Asia/Kolkata';
/** 14:00 and 16:00 in Kolkata (UTC+5:30). */
const AT_TWO_PM = `${TODAY}T08:30:00.000Z`;
const AT_FOUR_PM = `${TODAY}T10:30:00.000Z`;

const market = (gid: number, NameEn: string, NameHn: string, OpenTime: string, RTime: string) =>
  ghadiRecord(gid, { NameEn, NameHn, Kind: 'open-close', OpenTime, RTime });

/**
 * A market waiting for its open, one with its open half in, one complete, a starline draw, a market on
 * its holiday and a jodi ghadi on a weekday it does not run. The closed two are due before the others:
 * were they counted, one of them would be "Next".
 */
const board = (): GhadiRecord[] => [
  market(1, 'Kalyan', 'कल्याण', '3:45 PM', '5:45 PM'),
  {
    ...market(2, 'Milan Day', 'मिलन डे', '11:45 AM', '4:30 PM'),
    TodayResult: '123-6',
    DeclaredAt: `${TODAY}T06:17:00.000Z`,
  },
  {
    ...market(3, 'Sridevi', 'श्रीदेवी', '11:30 AM', '12:30 PM'),
    TodayResult: '123-68-459',
    YesterdayResult: '238-33-120',
    DeclaredAt: `${TODAY}T07:02:00.000Z`,
  },
  ghadiRecord(4, {
    NameEn: 'Star Line',
    NameHn: 'स्टार लाइन',
    Kind: 'panna',
    RTime: '1:00 PM',
    TodayResult: '128-1',
    YesterdayResult: '190-0',
    DeclaredAt: `${TODAY}T07:31:00.000Z`,
  }),
  { ...market(5, 'Holi Bazar', 'होली बाज़ार', '2:15 PM', '3:15 PM'), Closed: 'holiday' },
  ghadiRecord(6, {
    NameEn: 'Weekday',
    NameHn: 'वीकडे',
    RTime: '2:10 PM',
    Days: [1, 2, 3, 4, 5],
    Closed: 'off-day',
  }),
];

function card(name: string): HTMLElement {
  return screen.getByRole('link', { name }).closest('li') as HTMLElement;
}
const stateOf = (name: string) => within(card(name)).getByTestId('state');
const todayOf = (name: string) => within(card(name)).getByTestId('today');

function renderBoard(ghadis: GhadiRecord[], language: Language = 'en', now = AT_TWO_PM) {
  return render(
    <GhadiChart
      ghadis={ghadis}
      today={TODAY}
      timeZone={ZONE}
      updatedAt={`${TODAY}T08:25:00.000Z`}
      now={now}
      language={language}
    />,
  );
}

describe('the board shows every kind of ghadi in its own form', () => {
  it('an open/close market: its times, waiting for the open, then its open half with the close time, then the whole day', () => {
    renderBoard(board());
    expect(within(card('Kalyan')).getByTestId('times')).toHaveTextContent(/^Open 3:45 PM Close 5:45 PM$/);
    expect(stateOf('Kalyan')).toHaveTextContent(/^Next Waiting due 3:45 PM$/);
    expect(within(todayOf('Kalyan')).getByTestId('waiting')).toHaveTextContent('WAIT');

    expect(todayOf('Milan Day')).toHaveTextContent(/^123-6Close 4:30 PM$/);
    expect(within(todayOf('Milan Day')).getByTestId('close-due')).toHaveTextContent(/^Close 4:30 PM$/);
    expect(stateOf('Milan Day')).toHaveTextContent(/^Open declared at 11:47$/);

    expect(todayOf('Sridevi')).toHaveTextContent(/^123-68-459$/);
    expect(within(card('Sridevi')).getByTestId('yesterday')).toHaveTextContent(/^238-33-120$/);
    expect(stateOf('Sridevi')).toHaveTextContent(/^Declared at 12:32$/);
    expect(within(card('Sridevi')).getByTestId('times')).toHaveTextContent(/^Open 11:30 AM Close 12:30 PM$/);
  });

  it('a starline draw shows its panna and ank, and no market times', () => {
    renderBoard(board());
    expect(todayOf('Star Line')).toHaveTextContent(/^128-1$/);
    expect(within(card('Star Line')).getByTestId('yesterday')).toHaveTextContent(/^190-0$/);
    expect(stateOf('Star Line')).toHaveTextContent(/^Declared at 13:01$/);
    expect(within(card('Star Line')).queryByTestId('times')).toBeNull();
  });

  it('a holiday or a weekday off says so instead of waiting, is never Next, and is counted apart', () => {
    renderBoard(board());
    expect(stateOf('Holi Bazar')).toHaveTextContent(/^Holiday$/);
    expect(todayOf('Holi Bazar')).toHaveTextContent(/^--$/);
    expect(within(card('Holi Bazar')).queryByTestId('waiting')).toBeNull();
    // Its times still show: the market runs on other days.
    expect(within(card('Holi Bazar')).getByTestId('times')).toHaveTextContent('Open 2:15 PM');
    expect(stateOf('Weekday')).toHaveTextContent(/^Closed today$/);
    expect(within(card('Weekday')).queryByTestId('waiting')).toBeNull();
    expect(screen.getAllByTestId('next')).toHaveLength(1);
    expect(screen.getByTestId('board-counts')).toHaveTextContent(/^2 declared · 2 waiting · 2 closed today$/);
    expect(boardCounts(board())).toEqual({ declared: 2, waiting: 2, closed: 2 });
  });

  it('the next due is reckoned from the open time before the open, from the close time after it', () => {
    expect(nextDueGid(board(), AT_TWO_PM, ZONE)).toBe(1);
    // 16:00: Kalyan's open (3:45 PM) has passed; Milan Day's close (4:30 PM) is next.
    expect(nextDueGid(board(), AT_FOUR_PM, ZONE)).toBe(2);
    renderBoard(board(), 'en', AT_FOUR_PM);
    expect(stateOf('Milan Day')).toHaveTextContent(/^Next Open declared at 11:47$/);
    // Past 17:45 nothing of these is due any more: the holiday's and the off-day's times never count.
    expect(nextDueGid(board(), `${TODAY}T12:30:00.000Z`, ZONE)).toBeNull();
    expect(nextDueGid(board().slice(4), `${TODAY}T06:00:00.000Z`, ZONE)).toBeNull();
  });

  it('says all of it in Hindi', () => {
    renderBoard(board(), 'hi');
    expect(within(card('कल्याण')).getByTestId('times')).toHaveTextContent(/^ओपन 3:45 PM क्लोज़ 5:45 PM$/);
    expect(stateOf('कल्याण')).toHaveTextContent(/^अगला इंतज़ार में समय 3:45 PM$/);
    expect(todayOf('मिलन डे')).toHaveTextContent(/^123-6क्लोज़ 4:30 PM$/);
    expect(stateOf('मिलन डे')).toHaveTextContent(/^ओपन घोषित 11:47 बजे$/);
    expect(todayOf('श्रीदेवी')).toHaveTextContent(/^123-68-459$/);
    expect(stateOf('श्रीदेवी')).toHaveTextContent(/^घोषित 12:32 बजे$/);
    expect(todayOf('स्टार लाइन')).toHaveTextContent(/^128-1$/);
    expect(stateOf('होली बाज़ार')).toHaveTextContent(/^छुट्टी$/);
    expect(stateOf('वीकडे')).toHaveTextContent(/^आज बंद$/);
    expect(screen.getByTestId('board-counts')).toHaveTextContent(/^आज 2 घोषित · 2 इंतज़ार में · 2 बंद$/);
  });

  it('a board with nothing closed keeps its tally as it was', () => {
    renderBoard(board().slice(0, 4));
    expect(screen.getByTestId('board-counts')).toHaveTextContent(/^2 declared · 2 waiting today$/);
  });
});

describe('live steps of an open/close market', () => {
  const data = (): HomePageData => ({
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
  });
  const step = (value: string, declaredAt: string): LiveEvent => ({
    kind: 'result',
    gid: 1,
    date: TODAY,
    ghadi: {
      ...market(1, 'Kalyan', 'कल्याण', '3:45 PM', '5:45 PM'),
      TodayResult: value,
      DeclaredAt: declaredAt,
    },
    result: null,
    declaration: null,
  });

  it('the open half, then the close, each replace the row’s value and move the tally', () => {
    const opened = applyHomeEvent(data(), step('123-6', `${TODAY}T10:17:00.000Z`), new Date(AT_FOUR_PM));
    const { unmount } = renderBoard(opened.ghadis, 'en', AT_FOUR_PM);
    expect(todayOf('Kalyan')).toHaveTextContent(/^123-6Close 5:45 PM$/);
    expect(stateOf('Kalyan')).toHaveTextContent(/^Open declared at 15:47$/);
    expect(screen.getByTestId('board-counts')).toHaveTextContent(/^2 declared · 2 waiting · 2 closed today$/);
    unmount();

    const closed = applyHomeEvent(opened, step('123-68-459', `${TODAY}T12:16:00.000Z`));
    renderBoard(closed.ghadis, 'en', AT_FOUR_PM);
    expect(todayOf('Kalyan')).toHaveTextContent(/^123-68-459$/);
    expect(within(card('Kalyan')).queryByTestId('close-due')).toBeNull();
    expect(stateOf('Kalyan')).toHaveTextContent(/^Declared at 17:46$/);
    expect(screen.getByTestId('board-counts')).toHaveTextContent(/^3 declared · 1 waiting · 2 closed today$/);
  });
});

describe('the board of every kind, rendered on the server and hydrated', () => {
  // Once hydrated the board reads the browser's clock: the test's, never the wall's.
  beforeEach(() => {
    vi.useFakeTimers({ now: Date.parse(AT_TWO_PM), toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  for (const language of ['en', 'hi'] as const) {
    it(`agrees in both renders (${language})`, async () => {
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
      const { html } = await renderThenHydrate(<HomeView initial={data} language={language} />);
      expect(html).toContain('>123-68-459</span>');
      expect(html).toContain(language === 'en' ? 'Close 4:30 PM' : 'क्लोज़ 4:30 PM');
      expect(html).toContain(language === 'en' ? '>Holiday</p>' : '>छुट्टी</p>');
    });
  }
});
