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
      '<img> keeps only these attributes: style, title, dir, lang, align, src, srcset, sizes, alt, width, height, loading, decoding',
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

  it('keeps a picture of library images with its srcset, sizes and size, and reports nothing', () => {
    const content =
      '<picture><source srcset="/media/4/360.webp 360w, /media/4/720.webp 720w" type="image/webp" sizes="100vw" media="(min-width: 1px)" width="720" height="360">' +
      '<img src="/media/4/720.jpg" srcset="/media/4/360.webp 360w" sizes="(max-width: 768px) 100vw, 768px" width="720" height="360" alt="x" loading="lazy" decoding="async"></picture>';
    const answer = explainSanitizing(content);
    expect(answer.removed).toEqual([]);
    expect(answer.html).toContain(
      '<source srcset="/media/4/360.webp 360w, /media/4/720.webp 720w" type="image/webp"',
    );
    expect(answer.html).toContain('srcset="/media/4/360.webp 360w" sizes="(max-width: 768px) 100vw, 768px"');
    expect(answer.html).toContain('decoding="async"');
  });

  it('drops a srcset naming any image outside the library, and says why', () => {
    const answer = explainSanitizing(
      '<img src="/media/4/720.jpg" srcset="/media/4/360.webp 360w, https://evil.example/x.jpg 2x" alt="a">' +
        '<picture><source srcset="/media/../api/users 1x"><source srcset="//evil.example/y.webp"></picture>',
    );
    expect(answer.removed.map((removal) => removal.what)).toEqual([
      'srcset="/media/4/360.webp 360w, https://evil.exa…" on <img>',
      'srcset="/media/../api/users 1x" on <source>',
      'srcset="//evil.example/y.webp" on <source>',
    ]);
    expect(answer.removed[0]?.why).toBe(
      'srcset is kept only when every image in it is from the media library (addresses starting /media/)',
    );
    expect(answer.html).toBe('<img src="/media/4/720.jpg" alt="a" /><picture><source /><source /></picture>');
  });
});
