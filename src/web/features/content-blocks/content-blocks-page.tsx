export function ContentBlocksPage() {
  return <p className="p-6">ContentBlocksPage: not built yet.</p>;
}
