import { describe, expect, it } from 'vitest';
import { isSpaAddress } from './spa-paths.js';

describe('the app’s own addresses (the server sends it index.html there, and a 404 page elsewhere)', () => {
  it('are its pages and everything in its areas', () => {
    for (const path of [
      '/',
      '/login',
      '/admin',
      '/admin/',
      '/admin/login',
      '/admin/dashboard',
      '/admin/holidays',
      '/admin/no-such-screen',
      '/ADMIN/Dashboard',
      '/agent',
      '/agent/login',
      '/agent/ghadi-results',
      '/satta-results/gali',
    ])
      expect(isSpaAddress(path), path).toBe(true);
  });

  it('are nothing else', () => {
    for (const path of [
      '/nope',
      '/hi/nope',
      '/hi',
      '/declarations',
      '/satta-results',
      '/satta-results/a/b/c',
      '/login/again',
      '/administrator',
      '/agents',
      '/favicon.ico',
    ])
      expect(isSpaAddress(path), path).toBe(false);
  });
});
