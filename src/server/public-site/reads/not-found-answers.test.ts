import { describe, expect, it } from 'vitest';
import type { CachedAnswer } from '../model/cached-answer.js';
import { NotFoundAnswers } from './not-found-answers.js';

const answerNamed = (name: string) => ({ name }) as unknown as CachedAnswer;

describe('the 404 answers', () => {
  it('builds one answer per kind until the stamp changes, then builds again', async () => {
    const answers = new NotFoundAnswers();
    let builds = 0;
    const build = () => Promise.resolve(answerNamed(`built ${++builds}`));
    const first = await answers.answer('1 2026-11-29', 'en', build);
    expect(await answers.answer('1 2026-11-29', 'en', build)).toBe(first);
    expect(await answers.answer('1 2026-11-29', 'hi', build)).not.toBe(first);
    expect(builds).toBe(2);
    expect(await answers.answer('2 2026-11-29', 'en', build)).toEqual(answerNamed('built 3'));
    expect(await answers.answer('2 2026-11-30', 'en', build)).toEqual(answerNamed('built 4'));
  });

  it('keeps no failed build: the next 404 builds again', async () => {
    const answers = new NotFoundAnswers();
    await expect(answers.answer('1 day', 'en', () => Promise.reject(new Error('down')))).rejects.toThrow(
      'down',
    );
    expect(await answers.answer('1 day', 'en', () => Promise.resolve(answerNamed('fine')))).toEqual(
      answerNamed('fine'),
    );
  });
});
