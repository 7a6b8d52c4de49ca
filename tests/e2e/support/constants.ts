/** The admin the e2e server bootstraps on its fresh database. */
export const E2E_ADMIN = { username: 'admin', password: 'e2e-admin-password' };
