export function GhadiResultsPage() {
  return <p className="p-6">GhadiResultsPage: not built yet.</p>;
}
