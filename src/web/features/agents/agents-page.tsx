export function AgentsPage() {
  return <p className="p-6">AgentsPage: not built yet.</p>;
}
