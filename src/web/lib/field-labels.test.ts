import { describe, expect, it } from 'vitest';
import { inWords } from './field-labels.js';

describe('inWords', () => {
  it('names the field by its label', () => {
    expect(inWords('dateTime: Must be between 2000-01-01 and 2026-11-28')).toBe(
      'Date: Must be between 2000-01-01 and 2026-11-28',
    );
    expect(inWords('NameEn: This name is reserved')).toBe('Name (English): This name is reserved');
    expect(inWords('UserName: This field is required')).toBe('Username: This field is required');
    expect(inWords('GID.0: Must be a whole number')).toBe('Ghadis: Must be a whole number');
  });

  it('keeps a message that names no known field as it is', () => {
    for (const message of [
      'A ghadi with this name already exists',
      'Request body must be a JSON object',
      'constructor: Is invalid',
      'Query: Must be YYYY-MM',
      'Not found: gali',
    ])
      expect(inWords(message)).toBe(message);
  });
});
