import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { endSession, startSession } from '../../lib/session.js';
import { ADMIN_ONE } from '../../test/records.js';
import { renderRoutes } from '../../test/render.js';
import { AdminLayout } from './admin-layout.js';

/** A screen as wide as the media query says: `beside` when the sidebar fits beside the page. */
function screenWidth(beside: boolean) {
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({
      matches: beside,
      media: query,
      addEventListener() {},
      removeEventListener() {},
    })),
  );
}

function renderShell() {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) =>
      url === '/api/pending'
        ? new Response(JSON.stringify({ success: true, data: [] }), { status: 200 })
        : new Response('{}', { status: 200 }),
    ),
  );
  return renderRoutes(
    [{ element: <AdminLayout />, children: [{ path: '/admin/dashboard', element: <h1>Dashboard</h1> }] }],
    '/admin/dashboard',
  );
}

const sidebar = () => screen.getByRole('complementary', { hidden: true });
const toggle = () => screen.getByRole('button', { name: /menu/ });

afterEach(() => {
  endSession();
  vi.unstubAllGlobals();
});

describe('the admin sidebar', () => {
  it('is open by default where it sits beside the page (the spec), and Escape leaves it', async () => {
    screenWidth(true);
    renderShell();
    expect(sidebar()).toBeVisible();
    expect(toggle()).toHaveAttribute('aria-expanded', 'true');
    screen.getByRole('link', { name: 'Results' }).focus();
    await userEvent.keyboard('{Escape}');
    expect(sidebar()).toBeVisible();
  });

  it('starts closed on a small screen, where it would cover the page; Escape closes it again', async () => {
    screenWidth(false);
    renderShell();
    expect(sidebar()).not.toBeVisible();
    expect(toggle()).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByRole('heading', { name: 'Dashboard' })).toBeVisible();

    await userEvent.click(toggle());
    expect(sidebar()).toBeVisible();
    screen.getByRole('link', { name: 'Results' }).focus();
    await userEvent.keyboard('{Escape}');
    expect(sidebar()).not.toBeVisible();
    expect(toggle()).toHaveFocus();
  });

  it('keeps the spec’s links in their order, the app’s own screens after them', () => {
    screenWidth(true);
    renderShell();
    const nav = screen.getByRole('navigation', { name: 'Admin' });
    expect(
      Array.from(nav.querySelectorAll('a')).map((link) => [link.textContent, link.getAttribute('href')]),
    ).toEqual([
      ['Dashboard', '/admin/dashboard'],
      ['Agents', '/admin/agents'],
      ['Ghadi', '/admin/ghadi'],
      ['Results', '/admin/results'],
      ['Assign Ghadi', '/admin/assign-ghadi'],
      ['Content Blocks', '/admin/content-blocks'],
      ['Activity', '/admin/activity'],
      ['Holidays', '/admin/holidays'],
      ['Media', '/admin/media'],
      ['Pending results', '/admin/pending'],
      ['Account', '/admin/account'],
    ]);
  });

  it('lists Account alone while the server demands a new password first', () => {
    startSession({ ...ADMIN_ONE, passwordChangeRequired: true, token: 'token' });
    screenWidth(true);
    renderShell();
    const nav = screen.getByRole('navigation', { name: 'Admin' });
    expect(Array.from(nav.querySelectorAll('a')).map((link) => link.getAttribute('href'))).toEqual([
      '/admin/account',
    ]);
  });
});
