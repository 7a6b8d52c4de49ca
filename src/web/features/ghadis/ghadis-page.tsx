export function GhadisPage() {
  return <p className="p-6">GhadisPage: not built yet.</p>;
}
