import { beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { BANNER_SLUG } from '../../src/shared/home-content-blocks.js';
import type { ContentBlockRecord, ContentPreviewAnswer } from '../../src/shared/schemas/content-blocks.js';
import type { homeAnswer } from '../../src/shared/schemas/home.js';
import {
  call,
  contentBlockFields,
  createAgentWithToken,
  createContentBlock,
  expectStatus,
  type Failure,
  type Item,
  type List,
  loginAdmin,
} from '../support/factories.js';
import { DIALECTS, useTestApp } from '../support/test-app.js';

type HomeAnswer = z.infer<typeof homeAnswer>;

const UNSAFE = [
  '<h2>Results</h2>',
  '<p class="fixed inset-0 z-50 bg-white">Covers the page?</p>',
  '<p>Read <a href="https://example.com/more" onclick="steal()">more</a></p>',
  '<script>alert("x")</script>',
  '<iframe src="https://evil.example/a/very/long/path/to/a/page/that/never/ends"></iframe>',
  '<p style="color: red; background: url(javascript:alert(1))">Red</p>',
].join('');

describe.each(DIALECTS)('content preview [%s]', (dialect) => {
  const t = useTestApp(dialect);
  let adminToken: string;
  let banner: ContentBlockRecord;

  beforeAll(async () => {
    adminToken = await loginAdmin(t.app);
    banner = await createContentBlock(t.app, adminToken, { Slug: BANNER_SLUG, Content: '<p>Banner</p>' });
  });

  const preview = (body: unknown, token: string | null = adminToken) =>
    call(t.app, {
      method: 'POST',
      url: '/api/contentblocks/preview',
      body,
      ...(token === null ? {} : { token }),
    });
  const previewOf = async (Content: string) =>
    expectStatus<ContentPreviewAnswer>(await preview({ Content }), 200);
  const homeBanner = async () =>
    expectStatus<HomeAnswer>(await call(t.app, { url: '/api/home' }), 200).data.bannerHtml;

  it('lists each removal in document order, and html keeps none of them', async () => {
    const answer = await previewOf(UNSAFE);
    expect(answer.success).toBe(true);
    expect(answer.removed).toEqual([
      { what: 'class on <p>', why: expect.stringMatching(/^classes are removed/) },
      { what: 'onclick on <a>', why: expect.stringMatching(/^event handlers are removed/) },
      { what: '<script>', why: expect.stringMatching(/^scripts never run on the site/) },
      {
        what: '<iframe src="https://evil.example/a/very/long/path/to…">',
        why: expect.stringMatching(/^frames are not allowed/),
      },
      {
        what: 'style background: url(javascript:alert(1)) on <p>',
        why: expect.stringMatching(
          /^only these style properties are kept: color, background-color, text-align/,
        ),
      },
    ]);
    expect(answer.html).toBe(
      '<h2>Results</h2><p>Covers the page?</p><p>Read <a href="https://example.com/more">more</a></p>' +
        '<p style="color:red">Red</p>',
    );
    for (const gone of [
      /class=/,
      /onclick/,
      /<script/,
      /alert/,
      /<iframe/,
      /evil\.example/,
      /background/,
      /javascript:/,
    ])
      expect(answer.html).not.toMatch(gone);
  });

  it('explains a refused colour and a refused address, and nothing when all is allowed', async () => {
    const answer = await previewOf(
      '<p style="text-align: center; color: expression(alert(1))">a</p><a href="javascript:alert(1)">b</a>',
    );
    expect(answer.removed).toEqual([
      {
        what: 'style color: expression(alert(1)) on <p>',
        why: 'colours may only be hex (#rgb, #rrggbb), rgb()/rgba() with numbers, or a colour name',
      },
      {
        what: 'href="javascript:alert(1)" on <a>',
        why: expect.stringMatching(/^addresses may only be http:/),
      },
    ]);
    expect(answer.html).toBe('<p style="text-align:center">a</p><a>b</a>');

    const clean = await previewOf('<p style="color: #336699"><b>fine</b></p>');
    expect(clean).toEqual({ success: true, html: '<p style="color:#336699"><b>fine</b></p>', removed: [] });
  });

  it('html is what a saved block serves: its record, its public answer and the home banner', async () => {
    const { html } = await previewOf(UNSAFE);
    const block = expectStatus<Item<ContentBlockRecord>>(
      await call(t.app, {
        method: 'PUT',
        url: `/api/contentblocks/${banner._id}`,
        token: adminToken,
        body: contentBlockFields({ Slug: BANNER_SLUG, Content: UNSAFE }),
      }),
      200,
    ).data;
    expect(block.Content).toBe(html);
    const listed = expectStatus<List<ContentBlockRecord>>(
      await call(t.app, { url: '/api/contentblocks', token: adminToken }),
      200,
    );
    expect(listed.data.find((item) => item._id === block._id)?.Content).toBe(html);
    const shown = expectStatus<Item<ContentBlockRecord>>(
      await call(t.app, { url: `/api/contentblocks/slug/${BANNER_SLUG}` }),
      200,
    );
    expect(shown.data.Content).toBe(html);
    expect(await homeBanner()).toBe(html);
  });

  it('serves a block stored under older rules (classes, any colour) by today’s rules', async () => {
    const old = '<p class="fixed inset-0 z-50 bg-white" style="color: var(--x); text-align: right">Old</p>';
    const block = await createContentBlock(t.app, adminToken, { Content: '<p>placeholder</p>' });
    // As a block saved before classes and loose colours were removed would be stored.
    await t.database.db
      .updateTable('content_blocks')
      .set({ content: old })
      .where('block_id', '=', Number(block._id))
      .execute();
    await t.database.db
      .updateTable('content_blocks')
      .set({ content: old })
      .where('slug', '=', BANNER_SLUG)
      .execute();
    await t.restart();

    const { html } = await previewOf(old);
    expect(html).toBe('<p style="text-align:right">Old</p>');
    const shown = expectStatus<Item<ContentBlockRecord>>(
      await call(t.app, { url: `/api/contentblocks/slug/${block.Slug}` }),
      200,
    );
    expect(shown.data.Content).toBe(html);
    expect(await homeBanner()).toBe(html);
  });

  it('writes nothing', async () => {
    const count = async () =>
      expectStatus<List<ContentBlockRecord>>(
        await call(t.app, { url: '/api/contentblocks', token: adminToken }),
        200,
      ).data.length;
    const before = await count();
    await previewOf('<p>only a preview</p>');
    expect(await count()).toBe(before);
  });

  it('is for admins only: 401 without a token, 403 for an agent', async () => {
    expect((await preview({ Content: '<p>x</p>' }, null)).statusCode).toBe(401);
    const agent = await createAgentWithToken(t.app, adminToken);
    const refused = await preview({ Content: '<p>x</p>' }, agent.token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json<Failure>().success).toBe(false);
  });

  it('refuses Content over the size of a block’s, and a missing or empty one (400 naming Content)', async () => {
    const body = (Content: unknown) => (Content === undefined ? {} : { Content });
    for (const Content of ['x'.repeat(500_001), undefined, '   ', 42]) {
      const response = await preview(body(Content));
      expect({ length: String(Content).length, status: response.statusCode }).toEqual({
        length: String(Content).length,
        status: 400,
      });
      expect(response.json<Failure>().message).toMatch(/^Content: /);
    }
    // At the cap it is answered.
    expect((await preview({ Content: `<p>${'x'.repeat(500_000 - 7)}</p>` })).statusCode).toBe(200);
  });

  it('a saved block with the same Content as a preview stores that html (PUT too)', async () => {
    const block = await createContentBlock(t.app, adminToken);
    const content = '<div onmouseover="x()" class="absolute"><u>under</u></div>';
    const { html } = await previewOf(content);
    const updated = expectStatus<Item<ContentBlockRecord>>(
      await call(t.app, {
        method: 'PUT',
        url: `/api/contentblocks/${block._id}`,
        token: adminToken,
        body: contentBlockFields({ Slug: block.Slug, Content: content }),
      }),
      200,
    );
    expect(updated.data.Content).toBe(html);
    expect(html).toBe('<div><u>under</u></div>');
  });
});
