export function AgentDashboardPage() {
  return <p className="p-6">AgentDashboardPage: not built yet.</p>;
}
