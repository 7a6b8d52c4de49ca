import { Link } from 'react-router';

export function NotFoundPage() {
  return (
    <main className="mx-auto max-w-md px-4 py-16 text-center">
      <h1 className="text-xl font-bold text-slate-900">Page not found</h1>
      <p className="mt-2 text-slate-600">There is no page at this address.</p>
      <Link to="/" className="mt-6 inline-block font-medium text-indigo-700 underline">
        Go to the home page
      </Link>
    </main>
  );
}
