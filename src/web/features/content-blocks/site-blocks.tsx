import { BANNER_SLUG, BLOG_MISSING_TEXT, BLOG_SLUG } from '../../../shared/home-content-blocks.js';
import type { ContentBlockRecord } from '../../../shared/schemas/content-blocks.js';
import { useContentBlocks } from '../../api/content-blocks-api.js';
import { Badge } from '../../components/ui/badge.js';
import { Button } from '../../components/ui/button.js';
import { Card } from '../../components/ui/card.js';

/**
 * Every block the site's pages show (src/shared/home-content-blocks.ts): its slug, what a new one is
 * called, and what it does there. The slugs are otherwise only in the code.
 */
const SITE_BLOCKS = [
  {
    slug: BLOG_SLUG,
    title: 'Blog section',
    use: `The home page's blog section, its HTML shown as written. Without it the section says “${BLOG_MISSING_TEXT}”`,
  },
  {
    slug: BANNER_SLUG,
    title: 'Home banner',
    use: "An announcement at the top of the home page, above today's results. Without it no banner shows.",
  },
];

export interface NewBlock {
  Title: string;
  Slug: string;
}

function SiteBlockState({ block }: { block: ContentBlockRecord | undefined }) {
  if (!block) return <Badge tone="amber">Missing</Badge>;
  return block.isActive ? (
    <Badge tone="green">On the site</Badge>
  ) : (
    <Badge tone="slate">Inactive: not shown</Badge>
  );
}

/**
 * The blocks the site's own pages show, by slug: what each does, whether it exists (and is shown),
 * and for a missing one a button that opens the add form with its slug filled in.
 */
export function SiteBlocks({ onCreate }: { onCreate: (block: NewBlock) => void }) {
  const blocks = useContentBlocks();
  // The list below reports loading and failures; this stays quiet until it knows.
  if (!blocks.data) return null;
  return (
    <Card title="Blocks the site shows">
      <ul className="divide-y divide-slate-100">
        {SITE_BLOCKS.map(({ slug, title, use }) => {
          const block = blocks.data.find((candidate) => candidate.Slug === slug);
          return (
            <li
              key={slug}
              className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2 py-3 first:pt-0 last:pb-0"
            >
              <div className="min-w-0 flex-1 basis-64 space-y-1">
                <p className="flex flex-wrap items-center gap-2">
                  <span className="font-medium text-slate-900">{title}</span>
                  <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-sm text-slate-800">
                    {slug}
                  </code>
                  <SiteBlockState block={block} />
                </p>
                <p className="text-sm text-slate-700">{use}</p>
                {block && !block.isActive && (
                  <p className="text-sm text-slate-700">
                    Edit it in the list below and tick Active to show it.
                  </p>
                )}
              </div>
              {!block && (
                <Button
                  size="sm"
                  variant="secondary"
                  aria-label={`Create ${slug}`}
                  onClick={() => onCreate({ Title: title, Slug: slug })}
                >
                  Create
                </Button>
              )}
            </li>
          );
        })}
      </ul>
    </Card>
  );
}
