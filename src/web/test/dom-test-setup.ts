import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// Waits for what the screen shows after a few fake round trips; one second is short on a busy
// two-core machine running other suites alongside (a wait ends as soon as its check passes).
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
});
