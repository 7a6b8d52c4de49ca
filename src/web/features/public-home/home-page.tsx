export function HomePage() {
  return <p className="p-6">HomePage: not built yet.</p>;
}
