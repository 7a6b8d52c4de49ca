/** Content blocks the home page shows: the blog (spec) and an optional banner (content, not an image). */
export const BLOG_SLUG = 'blog-section';
export const BANNER_SLUG = 'home-banner';
export const BLOG_MISSING_TEXT = 'Section not found.';
