export function ResultsPage() {
  return <p className="p-6">ResultsPage: not built yet.</p>;
}
