import { describe, expect, it } from 'vitest';
import { maskedName, plainText, withoutControls } from './plain-text.js';

describe('plain text', () => {
  it('drops C0, DEL, C1 and bidi controls, and nothing else', () => {
    const controls = [
      ...Array.from({ length: 32 }, (_, code) => String.fromCharCode(code)),
      ...Array.from({ length: 33 }, (_, offset) => String.fromCharCode(0x7f + offset)),
      '\u061c',
      '\u200e',
      '\u200f',
      '\u202a',
      '\u202b',
      '\u202c',
      '\u202d',
      '\u202e',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
    ];
    expect(withoutControls(`a${controls.join('')}b`)).toBe('ab');
    const kept = 'Añ é ü — दिल्ली 中文 🙂 \u200d \u00a0 ~';
    expect(withoutControls(kept)).toBe(kept);
  });

  it('caps what is left, with an ellipsis', () => {
    expect(plainText(`\u202e${'x'.repeat(10)}`, 5)).toBe('xxxx…');
    expect(plainText('short\u0007', 10)).toBe('short');
  });

  it('masks a name as its first two characters and its length, after stripping', () => {
    expect(maskedName('Hunter2-secret-pwd')).toBe('Hu… (18)');
    expect(maskedName('\u202eHu\u0000nter2-secret-pwd\u2069')).toBe('Hu… (18)');
    expect(maskedName('x')).toBe('x… (1)');
    expect(maskedName('\u0007')).toBe('… (0)');
    // Characters, not UTF-16 units: an emoji counts once and is never cut in half.
    expect(maskedName('🙂🙂🙂')).toBe('🙂🙂… (3)');
  });
});
