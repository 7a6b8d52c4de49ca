import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { HindiRuns } from './hindi-runs.js';

describe('HindiRuns', () => {
  it('marks each run of Hindi words lang="hi" and leaves the English as it is', () => {
    const { container } = render(
      <p>
        <HindiRuns text={'NameEn: "Gali"; NameHn: "नई घड़ी"; RTime: "6:00 PM", श्री'} />
      </p>,
    );
    expect(container.textContent).toBe('NameEn: "Gali"; NameHn: "नई घड़ी"; RTime: "6:00 PM", श्री');
    expect([...container.querySelectorAll('[lang="hi"]')].map((span) => span.textContent)).toEqual([
      'नई घड़ी',
      'श्री',
    ]);
  });

  it('adds nothing to text without Hindi', () => {
    const { container } = render(
      <p>
        <HindiRuns text="Result: 11 → 12" />
      </p>,
    );
    expect(container.innerHTML).toBe('<p>Result: 11 → 12</p>');
  });
});
