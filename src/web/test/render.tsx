import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { createMemoryRouter, type RouteObject, RouterProvider } from 'react-router';
import { expect } from 'vitest';

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
 * does; fails on any difference between the two. Returns the server's HTML and the hydrated root.
 */
export async function renderThenHydrate(element: ReactElement) {
  const html = renderToString(element);
  const container = document.createElement('div');
  container.innerHTML = html;
  document.body.append(container);
  const problems: unknown[] = [];
  const root = await act(async () =>
    hydrateRoot(container, element, { onRecoverableError: (error) => problems.push(error) }),
  );
  expect(problems).toEqual([]);
  return { html, root };
}
