import { afterEach, describe, expect, it } from 'vitest';
import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import { ghadiCalendar } from './ghadi-calendar.js';

const ghadi = (overrides: Partial<GhadiRecord>): GhadiRecord => ({
  _id: '1',
  id: '1',
  GID: 1,
  NameEn: 'Gali',
  NameHn: 'गली',
  RTime: '11:30 PM',
  OrderId: 1,
  Kind: 'jodi',
  OpenTime: null,
  Days: [0, 1, 2, 3, 4, 5, 6],
  Confirmations: 1,
  Closed: null,
  TodayResult: '',
  YesterdayResult: '',
  Result: '',
  isActive: true,
  Corrected: false,
  Previous: null,
  DeclaredAt: null,
  ...overrides,
});

const starts = (ics: string) => ics.match(/^DTSTART;TZID=[^\r]*/gm);

describe('ghadiCalendar', () => {
  const serverZone = process.env.TZ;
  afterEach(() => {
    if (serverZone === undefined) delete process.env.TZ;
    else process.env.TZ = serverZone;
  });

  it("writes the site zone's wall-clock time whatever the server's own zone", () => {
    const made = (zone: string) => {
      process.env.TZ = zone;
      return ghadiCalendar('https://x.example', 'T', [ghadi({})], 'Asia/Kolkata');
    };
    const inAuckland = made('Pacific/Auckland');
    const inLosAngeles = made('America/Los_Angeles');
    expect(starts(inAuckland)).toEqual(['DTSTART;TZID=Asia/Kolkata:20260101T233000']);
    expect(inLosAngeles).toBe(inAuckland);
  });

  it('starts a weekly series on a day it runs, and describes the zone (daylight saving too)', () => {
    // Sundays only: 2026-01-04 is the first Sunday from 2026-01-01.
    const ics = ghadiCalendar(
      'https://x.example',
      'T',
      [ghadi({ Days: [0], Kind: 'open-close', OpenTime: '9:05 AM', RTime: '21:10' })],
      'America/New_York',
    );
    expect(starts(ics)).toEqual([
      'DTSTART;TZID=America/New_York:20260104T090500',
      'DTSTART;TZID=America/New_York:20260104T211000',
    ]);
    // The events' rules (the VTIMEZONE's own are yearly).
    expect(ics.match(/^RRULE:FREQ=(?:DAILY|WEEKLY)[^\r]*/gm)).toEqual([
      'RRULE:FREQ=WEEKLY;BYDAY=SU',
      'RRULE:FREQ=WEEKLY;BYDAY=SU',
    ]);
    expect(ics).toContain('BEGIN:VTIMEZONE\r\nTZID:America/New_York\r\n');
    expect(ics).toContain('BEGIN:DAYLIGHT');
  });

  it('leaves out a time it cannot read', () => {
    const ics = ghadiCalendar('https://x.example', 'T', [ghadi({ RTime: 'evening' })], 'Asia/Kolkata');
    expect(ics).not.toContain('BEGIN:VEVENT');
    expect(ics.endsWith('END:VCALENDAR\r\n')).toBe(true);
  });
});
