import { describe, expect, it } from 'vitest';
import { sanitizeContentHtml } from './sanitize-html.js';
import { explainSanitizing, MAX_LISTED } from './sanitize-report.js';

describe('explaining what the sanitizer removes', () => {
  it('answers the html the site stores, and nothing removed for allowed content', () => {
    const content = '<h2>Hi</h2><p style="text-align: center"><a href="/about" target="_blank">About</a></p>';
    const answer = explainSanitizing(content);
    expect(answer.html).toBe(sanitizeContentHtml(content));
    expect(answer.html).toContain('rel="noopener noreferrer"');
    expect(answer.removed).toEqual([]);
  });

  it('names a refused tag once, not what it held, and the attributes of kept tags', () => {
    const answer = explainSanitizing(
      '<select name="x"><option>a</option></select><img src="javascript:alert(1)" data-id="7" alt="b">',
    );
    expect(answer.removed.map((removal) => removal.what)).toEqual([
      '<select>',
      '<option>',
      'src="javascript:alert(1)" on <img>',
      'data-id on <img>',
    ]);
    expect(answer.removed[1]?.why).toMatch(/removed with its content/);
    expect(answer.removed[2]?.why).toBe('addresses may only be http:, https:, data: or relative to the site');
    expect(answer.removed[3]?.why).toBe(
      '<img> keeps only these attributes: style, title, dir, lang, align, src, alt, width, height, loading',
    );
    expect(answer.html).toBe('<img alt="b" />');
  });

  it('lists the first removals of a very long page and says there were more', () => {
    const answer = explainSanitizing('<p onclick="x()">a</p>'.repeat(MAX_LISTED + 5));
    expect(answer.removed).toHaveLength(MAX_LISTED + 1);
    expect(answer.removed[MAX_LISTED - 1]).toEqual({
      what: 'onclick on <p>',
      why: 'event handlers are removed: no script runs on the site',
    });
    expect(answer.removed[MAX_LISTED]?.why).toMatch(/only the first 200 removals are listed/);
    expect(answer.html).not.toContain('onclick');
  });
});
