import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { SPA_AREAS, SPA_PAGES } from '../../shared/spa-paths.js';
import { routes } from './spa-routes.js';

describe('the router’s top-level routes', () => {
  it('are the ones the server sends the app for (src/shared/spa-paths.ts), and no others', () => {
    const topLevel = (routes[0]?.children ?? [])
      .map((route: RouteObject) => route.path)
      .filter((path) => path !== '*');
    expect([...topLevel].sort()).toEqual([...Object.values(SPA_PAGES), ...Object.values(SPA_AREAS)].sort());
  });
});
