import { beforeAll, describe, expect, it } from 'vitest';
import {
  assignGhadis,
  createAgentWithToken,
  createGhadi,
  daysFromToday,
  expectStatus,
  loginAdmin,
  postResult,
} from '../support/factories.js';
import { DIALECTS, useTestApp } from '../support/test-app.js';

interface Answer {
  success: boolean;
  data: Record<string, unknown>;
}

/** Who declared a result: the admin's to see, never an agent's (docs/api.md, results). */
const ADMIN_ONLY = ['CreatedById', 'CreatedByName', 'UpdatedAt'];

describe.each(DIALECTS)('the answer to POST /api/agent/my-ghadi/update-result [%s]', (dialect) => {
  const t = useTestApp(dialect);
  let adminToken: string;

  beforeAll(async () => {
    adminToken = await loginAdmin(t.app);
  });

  async function assignedGhadi() {
    const ghadi = await createGhadi(t.app, adminToken);
    const agent = await createAgentWithToken(t.app, adminToken);
    await assignGhadis(t.app, adminToken, agent.user.User_Id, ghadi.GID);
    return { ghadi, agent };
  }

  const submit = async (token: string, ghadiId: number, result: string, dateTime: string) => {
    const response = await postResult(t.app, token, { ghadiId, result, dateTime });
    return { answer: expectStatus<Answer>(response, 200), body: response.body };
  };

  it('has the same public fields for an agent whether the value changed or was sent again unchanged', async () => {
    const { ghadi, agent } = await assignedGhadi();
    const date = daysFromToday(-1);
    const first = await submit(agent.token, ghadi.GID, '42', date);
    const again = await submit(agent.token, ghadi.GID, '42', date);
    for (const { answer, body } of [first, again]) {
      expect(answer.success).toBe(true);
      expect(answer.data).toMatchObject({ GID: ghadi.GID, Result: '42', Date: date });
      for (const field of ADMIN_ONLY) expect(body).not.toContain(field);
    }
    expect(Object.keys(again.answer.data).sort()).toEqual(Object.keys(first.answer.data).sort());
    expect(again.answer.data._id).toBe(first.answer.data._id);
    // Nothing changed, so the answer is the first one over again.
    expect(again.answer.data).toEqual(first.answer.data);
  });

  it('does not name the admin who declared the value an agent sends again', async () => {
    const { ghadi, agent } = await assignedGhadi();
    const date = daysFromToday(0);
    const declared = await submit(adminToken, ghadi.GID, '17', date);
    expect(declared.answer.data).toHaveProperty('CreatedByName');
    const { answer, body } = await submit(agent.token, ghadi.GID, '17', date);
    expect(answer.data).toMatchObject({ GID: ghadi.GID, Result: '17', Date: date });
    for (const field of ADMIN_ONLY) expect(body).not.toContain(field);
    expect(body).not.toContain(String(declared.answer.data.CreatedByName));
    // An agent's changed value answers the same fields.
    const changed = await submit(agent.token, ghadi.GID, '71', date);
    expect(Object.keys(answer.data).sort()).toEqual(Object.keys(changed.answer.data).sort());
  });

  it('names the author to an admin, changed or unchanged', async () => {
    const { ghadi, agent } = await assignedGhadi();
    const date = daysFromToday(-1);
    await submit(agent.token, ghadi.GID, '33', date);
    const unchanged = await submit(adminToken, ghadi.GID, '33', date);
    expect(unchanged.answer.data).toMatchObject({
      CreatedById: agent.user.User_Id,
      CreatedByName: agent.user.DisplayName,
    });
    const changed = await submit(adminToken, ghadi.GID, '34', date);
    expect(changed.answer.data).toMatchObject({ Result: '34', CreatedByName: expect.any(String) });
    expect(changed.answer.data.CreatedById).not.toBe(agent.user.User_Id);
    expect(Object.keys(changed.answer.data).sort()).toEqual(Object.keys(unchanged.answer.data).sort());
  });
});
