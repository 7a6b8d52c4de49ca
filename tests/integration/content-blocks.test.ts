import { beforeAll, describe, expect, it } from 'vitest';
import type { ContentBlockRecord } from '../../src/shared/schemas/content-blocks.js';
import {
  call,
  contentBlockFields,
  createContentBlock,
  expectStatus,
  type Failure,
  type Item,
  type List,
  loginAdmin,
  unique,
} from '../support/factories.js';
import { DIALECTS, useTestApp } from '../support/test-app.js';

const UNSAFE_HTML = [
  '<h2>Heading</h2>',
  '<p><b>bold</b> and <i>italic</i> <a href="https://example.com/page" onclick="steal()">link</a></p>',
  '<img src="https://example.com/banner.png" alt="banner" onerror="alert(1)">',
  '<script>alert("x")</script>',
  '<a href="javascript:alert(1)">bad link</a>',
  '<div onmouseover="alert(2)">hover</div>',
  '<table><tr><td>cell</td></tr></table>',
  '<iframe src="https://evil.example"></iframe>',
].join('');

describe.each(DIALECTS)('content blocks [%s]', (dialect) => {
  const t = useTestApp(dialect);
  let adminToken: string;

  beforeAll(async () => {
    adminToken = await loginAdmin(t.app);
  });

  const post = (body: unknown) =>
    call(t.app, { method: 'POST', url: '/api/contentblocks', token: adminToken, body });
  const put = (id: string, body: unknown) =>
    call(t.app, { method: 'PUT', url: `/api/contentblocks/${id}`, token: adminToken, body });
  const remove = (id: string) =>
    call(t.app, { method: 'DELETE', url: `/api/contentblocks/${id}`, token: adminToken });
  const bySlug = (slug: string) => call(t.app, { url: `/api/contentblocks/slug/${slug}` });

  it('POST creates a block, active by default', async () => {
    const fields = contentBlockFields();
    const answer = expectStatus<Item<ContentBlockRecord>>(await post(fields), 201);
    expect(answer.success).toBe(true);
    expect(answer.data).toMatchObject({
      Title: fields.Title,
      Slug: fields.Slug,
      Content: fields.Content,
      isActive: true,
    });
    expect(typeof answer.data._id).toBe('string');
    expect(answer.data.id).toBe(answer.data._id);
  });

  it('stores the slug in lower case and keeps slugs unique (409)', async () => {
    const slug = unique('about-us-');
    const created = await createContentBlock(t.app, adminToken, { Slug: slug.toUpperCase() });
    expect(created.Slug).toBe(slug.toLowerCase());
    const duplicate = await post(contentBlockFields({ Slug: slug }));
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json<Failure>()).toEqual({ success: false, message: 'Slug already exists' });

    const other = await createContentBlock(t.app, adminToken);
    const renamed = await put(other._id, contentBlockFields({ Slug: slug }));
    expect(renamed.statusCode).toBe(409);
  });

  it('refuses a slug that is not lower-case words joined by dashes (400 naming Slug)', async () => {
    for (const Slug of ['About Us', 'a--b', '-lead', 'under_score']) {
      const response = await post(contentBlockFields({ Slug }));
      expect({ Slug, status: response.statusCode }).toEqual({ Slug, status: 400 });
      expect(response.json<Failure>().message).toMatch(/^Slug: /);
    }
  });

  it('sanitizes Content on save: scripts, event handlers and javascript: URLs go; formatting stays', async () => {
    const block = await createContentBlock(t.app, adminToken, { Content: UNSAFE_HTML });
    const stored = await t.database.db
      .selectFrom('content_blocks')
      .select('content')
      .where('block_id', '=', Number(block._id))
      .executeTakeFirstOrThrow();
    for (const content of [block.Content, stored.content]) {
      expect(content).not.toMatch(/<script/i);
      expect(content).not.toContain('alert("x")');
      expect(content).not.toMatch(/onerror|onclick|onmouseover/i);
      expect(content).not.toMatch(/javascript:/i);
      expect(content).not.toMatch(/<iframe/i);
      expect(content).toContain('<b>bold</b>');
      expect(content).toContain('<i>italic</i>');
      expect(content).toContain('href="https://example.com/page"');
      expect(content).toContain('src="https://example.com/banner.png"');
      expect(content).toContain('<h2>Heading</h2>');
      expect(content).toMatch(/<table>.*<td>cell<\/td>.*<\/table>/);
      expect(content).toContain('bad link');
    }

    const updated = expectStatus<Item<ContentBlockRecord>>(
      await put(
        block._id,
        contentBlockFields({ Slug: block.Slug, Content: '<p onclick="x()">ok</p><script>1</script>' }),
      ),
      200,
    );
    expect(updated.data.Content).toBe('<p>ok</p>');
  });

  it('refuses Content that is empty once unsafe HTML is removed (400 naming Content)', async () => {
    const response = await post(contentBlockFields({ Content: '<script>alert(1)</script>' }));
    expect(response.statusCode).toBe(400);
    expect(response.json<Failure>().message).toMatch(/^Content: /);
  });

  it('GET /api/contentblocks lists the blocks for admins', async () => {
    const block = await createContentBlock(t.app, adminToken);
    const answer = expectStatus<List<ContentBlockRecord>>(
      await call(t.app, { url: '/api/contentblocks', token: adminToken }),
      200,
    );
    expect(answer.success).toBe(true);
    expect(answer.data.find((item) => item._id === block._id)).toEqual(block);
  });

  it('GET /api/contentblocks/slug/{slug} answers an active block publicly, 404 for an inactive or missing one', async () => {
    const block = await createContentBlock(t.app, adminToken, { Slug: unique('blog-section-') });
    const answer = expectStatus<Item<ContentBlockRecord>>(await bySlug(block.Slug), 200);
    expect(answer.success).toBe(true);
    expect(answer.data).toMatchObject({ Content: block.Content, Title: block.Title, Slug: block.Slug });
    expect((await bySlug(block.Slug.toUpperCase())).statusCode).toBe(200);

    const inactive = await createContentBlock(t.app, adminToken, { isActive: false });
    expect(inactive.isActive).toBe(false);
    const hidden = await bySlug(inactive.Slug);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json<Failure>().success).toBe(false);
    const missing = await bySlug('no-such-block-here');
    expect(missing.statusCode).toBe(404);
    expect(missing.json<Failure>().success).toBe(false);
  });

  it('PUT updates a block; deactivating hides it and reactivating shows it again', async () => {
    const block = await createContentBlock(t.app, adminToken);
    const off = expectStatus<Item<ContentBlockRecord>>(
      await put(block._id, { Title: 'New title', Slug: block.Slug, Content: '<p>new</p>', isActive: false }),
      200,
    );
    expect(off.data).toMatchObject({ Title: 'New title', Content: '<p>new</p>', isActive: false });
    expect((await bySlug(block.Slug)).statusCode).toBe(404);
    await put(block._id, { Title: 'New title', Slug: block.Slug, Content: '<p>again</p>', isActive: true });
    const shown = expectStatus<Item<ContentBlockRecord>>(await bySlug(block.Slug), 200);
    expect(shown.data.Content).toBe('<p>again</p>');
    expect((await put('44444444', contentBlockFields())).statusCode).toBe(404);
  });

  it('DELETE removes a block; a second DELETE answers 404', async () => {
    const block = await createContentBlock(t.app, adminToken);
    const deleted = await remove(block._id);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toMatchObject({ success: true });
    expect((await bySlug(block.Slug)).statusCode).toBe(404);
    expect((await remove(block._id)).statusCode).toBe(404);
    // The slug is free again.
    await createContentBlock(t.app, adminToken, { Slug: block.Slug });
  });
});
