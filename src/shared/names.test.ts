import { describe, expect, it } from 'vitest';
import { findAddressed, foldName, looseName } from './names.js';

const ghadi = (GID: number, NameEn: string) => ({ GID, NameEn });

describe('the ghadi an address names', () => {
  const list = [ghadi(1, 'NCR'), ghadi(2, 'Delhi Bazar'), ghadi(3, 'Shiri Ganesh'), ghadi(4, 'गली')];

  it('is found by its name in any case, and with hyphens for spaces', () => {
    for (const address of ['delhi bazar', 'Delhi Bazar', 'delhi-bazar', 'DELHI-BAZAR', 'Delhi-bazar'])
      expect(findAddressed(list, address)?.GID, address).toBe(2);
    expect(findAddressed(list, 'shiri-ganesh')?.GID).toBe(3);
    expect(findAddressed(list, 'ncr')?.GID).toBe(1);
    expect(findAddressed(list, 'गली')?.GID).toBe(4);
  });

  it('is nothing for another spelling', () => {
    for (const address of ['delhibazar', 'delhi--bazar', 'delhi_bazar', 'delhi bazar ', '-ncr'])
      expect(findAddressed(list, address), address).toBeUndefined();
  });

  it('is a ghadi whose name has a hyphen by its own name, and the space-named one by its own', () => {
    const both = [ghadi(7, 'Delhi Bazar'), ghadi(8, 'Delhi-Bazar')];
    expect(findAddressed(both, 'delhi-bazar')?.GID).toBe(8);
    expect(findAddressed(both, 'delhi bazar')?.GID).toBe(7);
    // Read with hyphens as spaces, the first by OrderId (the list's order) wins.
    const mixed = [ghadi(9, 'A B-C'), ghadi(10, 'A-B C')];
    expect(findAddressed(mixed, 'a-b-c')?.GID).toBe(9);
    expect(findAddressed([...mixed].reverse(), 'a-b-c')?.GID).toBe(10);
  });

  it('folds names as the database column does, and spells them as typed addresses do', () => {
    expect(foldName('Éclair')).toBe('éclair');
    expect(looseName('Delhi-BAZAR')).toBe('delhi bazar');
  });
});
