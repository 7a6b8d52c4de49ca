export function PublicResultsPage() {
  return <p className="p-6">PublicResultsPage: not built yet.</p>;
}
