import { describe, expect, it } from 'vitest';
import type { HomePageData } from '../../../shared/public-page-data.js';
import { ghadiRecord, resultRecord } from '../../test/records.js';
import { applyHomeEvent } from './home-live.js';

const home = (): HomePageData => ({
  page: 'home',
  version: 10,
  siteName: 'Site',
  today: '2026-11-23',
  timeZone: 'Asia/Kolkata',
  updatedAt: '2026-11-23T06:00:00.000Z',
  recordMonth: '2026-11',
  ghadis: [ghadiRecord(1), ghadiRecord(2)],
  record: [resultRecord(1, '2026-11-22', '11')],
  blogHtml: null,
  bannerHtml: null,
});

describe('the home page applies live events', () => {
  it('a result: the ghadi’s row and the record chart cell, replacing an earlier value of that day', () => {
    const first = applyHomeEvent(home(), {
      kind: 'result',
      gid: 2,
      date: '2026-11-23',
      ghadi: ghadiRecord(2, { TodayResult: '45', Result: '45' }),
      result: resultRecord(2, '2026-11-23', '45'),
      declaration: null,
    });
    expect(first.ghadis.map((row) => [row.GID, row.TodayResult])).toEqual([
      [1, ''],
      [2, '45'],
    ]);
    const corrected = applyHomeEvent(first, {
      kind: 'result',
      gid: 2,
      date: '2026-11-23',
      ghadi: ghadiRecord(2, { TodayResult: '46', Result: '46' }),
      result: resultRecord(2, '2026-11-23', '46'),
      declaration: null,
    });
    expect(corrected.record.filter((row) => row.GID === 2).map((row) => row.Result)).toEqual(['46']);
    expect(corrected.record).toHaveLength(2);
  });

  it('a correction: the row and the record cell carry the mark, the value replaced and the new time', () => {
    const declaredAt = '2026-11-23T09:02:00.000Z';
    const corrected = applyHomeEvent(home(), {
      kind: 'result',
      gid: 1,
      date: '2026-11-23',
      ghadi: ghadiRecord(1, {
        TodayResult: '54',
        Result: '54',
        Corrected: true,
        Previous: '45',
        DeclaredAt: declaredAt,
      }),
      result: resultRecord(1, '2026-11-23', '54', {
        Corrected: true,
        Previous: '45',
        DeclaredAt: declaredAt,
      }),
      declaration: null,
    });
    expect(corrected.ghadis[0]).toMatchObject({ TodayResult: '54', Corrected: true, Previous: '45' });
    expect(corrected.record.find((row) => row.Date === '2026-11-23')).toMatchObject({
      Result: '54',
      Corrected: true,
      Previous: '45',
      DeclaredAt: declaredAt,
    });
  });

  it('a result of another month changes the row but not the record chart', () => {
    const next = applyHomeEvent(home(), {
      kind: 'result',
      gid: 1,
      date: '2026-10-31',
      ghadi: ghadiRecord(1, { Result: '99' }),
      result: resultRecord(1, '2026-10-31', '99'),
      declaration: null,
    });
    expect(next.record).toEqual(home().record);
    expect(next.ghadis[0]?.Result).toBe('99');
  });

  it('ghadis: added in OrderId order, renamed (with their record rows), removed (with them)', () => {
    const added = applyHomeEvent(home(), { kind: 'ghadi', gid: 3, ghadi: ghadiRecord(3, { OrderId: 0 }) });
    expect(added.ghadis.map((row) => row.GID)).toEqual([3, 1, 2]);
    const renamed = applyHomeEvent(added, {
      kind: 'ghadi',
      gid: 1,
      ghadi: ghadiRecord(1, { NameEn: 'One' }),
    });
    expect(renamed.record[0]?.Name).toBe('One');
    const removed = applyHomeEvent(renamed, { kind: 'ghadi', gid: 1, ghadi: null });
    expect(removed.ghadis.map((row) => row.GID)).toEqual([3, 2]);
    expect(removed.record).toEqual([]);
  });

  it('content: the blog and banner blocks, and nothing for other slugs', () => {
    const block = (slug: string, Content: string) => ({
      _id: '1',
      id: '1',
      Title: 't',
      Slug: slug,
      Content,
      isActive: true,
      createdAt: '',
      updatedAt: '',
    });
    const blog = applyHomeEvent(home(), {
      kind: 'content',
      slug: 'blog-section',
      block: block('blog-section', '<p>b</p>'),
    });
    expect(blog.blogHtml).toBe('<p>b</p>');
    expect(applyHomeEvent(blog, { kind: 'content', slug: 'blog-section', block: null }).blogHtml).toBeNull();
    expect(
      applyHomeEvent(home(), { kind: 'content', slug: 'home-banner', block: block('home-banner', 'x') })
        .bannerHtml,
    ).toBe('x');
    const data = home();
    expect(applyHomeEvent(data, { kind: 'content', slug: 'about-us', block: null })).toBe(data);
  });

  it('a new day: today and every row; a new month starts the record chart afresh', () => {
    const sameMonth = applyHomeEvent(home(), {
      kind: 'day',
      today: '2026-11-24',
      recordMonth: '2026-11',
      ghadis: [ghadiRecord(1, { YesterdayResult: '7' })],
      record: null,
    });
    expect(sameMonth).toMatchObject({ today: '2026-11-24', record: home().record });
    expect(sameMonth.ghadis).toHaveLength(1);
    const newMonth = applyHomeEvent(home(), {
      kind: 'day',
      today: '2026-12-01',
      recordMonth: '2026-12',
      ghadis: [],
      record: [resultRecord(1, '2026-12-01', '05')],
    });
    expect(newMonth.recordMonth).toBe('2026-12');
    expect(newMonth.record.map((row) => row.Result)).toEqual(['05']);
  });
});
