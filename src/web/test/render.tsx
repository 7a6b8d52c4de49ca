import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { createMemoryRouter, type RouteObject, RouterProvider } from 'react-router';
import { expect, onTestFinished, vi } from 'vitest';

/** Renders routes in a memory router with a fresh query cache (no retries, so failures show at once). */
export function renderRoutes(routes: RouteObject[], initialPath: string) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const router = createMemoryRouter(routes, { initialEntries: [initialPath] });
  const view = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { ...view, router, queryClient };
}

export function renderWithQuery(element: ReactElement) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  return {
    ...render(<QueryClientProvider client={queryClient}>{element}</QueryClientProvider>),
    queryClient,
  };
}

/**
 * Renders an element as the server does, then hydrates that HTML in the document as the browser
 * does; fails on any difference between the two. The requests the page makes meanwhile (visit
 * tracking, its live stream) are answered with an empty JSON object. Returns the server's HTML, the
 * hydrated root and `unmount`, which empties the document again; it runs by itself when the test ends.
 */
export async function renderThenHydrate(element: ReactElement) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response('{}', { status: 200 })),
  );
  const html = renderToString(element);
  const container = document.createElement('div');
  container.innerHTML = html;
  document.body.append(container);
  const problems: unknown[] = [];
  const root = await act(async () =>
    hydrateRoot(container, element, { onRecoverableError: (error) => problems.push(error) }),
  );
  let mounted = true;
  const unmount = () => {
    if (!mounted) return;
    mounted = false;
    act(() => root.unmount());
    container.remove();
    vi.unstubAllGlobals();
  };
  onTestFinished(unmount);
  expect(problems).toEqual([]);
  return { html, root, unmount };
}
