export function DashboardPage() {
  return <p className="p-6">DashboardPage: not built yet.</p>;
}
