export function AssignGhadiPage() {
  return <p className="p-6">AssignGhadiPage: not built yet.</p>;
}
