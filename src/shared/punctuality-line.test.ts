import { describe, expect, it } from 'vitest';
import { punctualityLine } from './punctuality-line.js';

const figures = {
  days: 30,
  declared: 28,
  onTime: 26,
  medianDelayMinutes: 4.4,
  corrections: 1,
  imported: 0,
};

describe('the punctuality line', () => {
  it('says the month in one sentence, in English and in Hindi', () => {
    expect(punctualityLine(figures, '1:45 PM', 'en', 30)).toBe(
      'Last 30 days: declared on 28 of 30 days, 26 on time; usually 4 min after 1:45 PM; 1 correction',
    );
    expect(punctualityLine(figures, '1:45 PM', 'hi', 30)).toBe(
      'पिछले 30 दिन: 30 में से 28 दिन रिज़ल्ट घोषित, 26 समय पर; आम तौर पर 1:45 PM के 4 मिनट बाद; 1 सुधार',
    );
  });

  it('reads a delay of an hour or more in hours, and one under half a minute as "by"', () => {
    const late = { ...figures, medianDelayMinutes: 125.6, corrections: 2 };
    expect(punctualityLine(late, '13:45', 'en', 30)).toBe(
      'Last 30 days: declared on 28 of 30 days, 26 on time; usually 2 h 6 min after 13:45; 2 corrections',
    );
    expect(punctualityLine({ ...late, medianDelayMinutes: 120 }, '13:45', 'hi', 30)).toBe(
      'पिछले 30 दिन: 30 में से 28 दिन रिज़ल्ट घोषित, 26 समय पर; आम तौर पर 13:45 के 2 घंटे बाद; 2 सुधार',
    );
    const early = { ...figures, medianDelayMinutes: 0.4, corrections: 0 };
    expect(punctualityLine(early, '1:45 PM', 'en', 30)).toBe(
      'Last 30 days: declared on 28 of 30 days, 26 on time; usually by 1:45 PM',
    );
    expect(punctualityLine(early, '1:45 PM', 'hi', 30)).toBe(
      'पिछले 30 दिन: 30 में से 28 दिन रिज़ल्ट घोषित, 26 समय पर; आम तौर पर 1:45 PM तक',
    );
  });

  it('leaves out what an unreadable RTime cannot say, and names imported days apart', () => {
    const vague = {
      ...figures,
      days: 1,
      declared: 1,
      onTime: null,
      medianDelayMinutes: null,
      corrections: 0,
    };
    expect(punctualityLine({ ...vague, imported: 2 }, 'Evening', 'en', 30)).toBe(
      'Last 30 days: declared on 1 of 1 day; 2 more imported, without a declaration time',
    );
    expect(punctualityLine({ ...vague, imported: 2 }, 'Evening', 'hi', 30)).toBe(
      'पिछले 30 दिन: 1 में से 1 दिन रिज़ल्ट घोषित; 2 और दिन इम्पोर्ट से, बिना घोषणा-समय के',
    );
    const onlyImported = { ...vague, days: 0, declared: 0, imported: 3 };
    expect(punctualityLine(onlyImported, 'Evening', 'en', 30)).toBe(
      'Last 30 days: 3 days imported, without a declaration time',
    );
  });

  it('says nothing of a ghadi with no day owed yet', () => {
    const none = { days: 0, declared: 0, onTime: 0, medianDelayMinutes: null, corrections: 0, imported: 0 };
    expect(punctualityLine(none, '1:45 PM', 'en', 30)).toBeNull();
    expect(punctualityLine(none, '1:45 PM', 'hi', 30)).toBeNull();
  });
});
