import { isRouteErrorResponse, Link, useRouteError } from 'react-router';

/** Shown when a screen fails to load (often a chunk that a slow network could not fetch). */
export function RouteError() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  if (!notFound) console.error(error);
  return (
    <main className="mx-auto max-w-md px-4 py-16 text-center">
      <h1 className="text-xl font-bold text-slate-900">
        {notFound ? 'Page not found' : 'Something went wrong'}
      </h1>
      <p className="mt-2 text-slate-600">
        {notFound
          ? 'This page does not exist.'
          : 'This screen could not be loaded. Check your connection and try again.'}
      </p>
      <div className="mt-6 flex justify-center gap-3">
        <button
          type="button"
          onClick={() => window.location.reload()}
          className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-700"
        >
          Reload
        </button>
        <Link
          to="/"
          className="rounded-md border border-slate-300 px-4 py-2 text-sm font-medium text-slate-800"
        >
          Home
        </Link>
      </div>
    </main>
  );
}
