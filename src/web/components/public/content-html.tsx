/** HTML from a content block, which the server sanitized when it was saved. */
export function ContentHtml({ html, className = '' }: { html: string; className?: string }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: content blocks are sanitized on save (server/lib/sanitize-html.ts).
  return <div className={`content-html ${className}`} dangerouslySetInnerHTML={{ __html: html }} />;
}
