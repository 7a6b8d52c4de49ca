import '@testing-library/jest-dom/vitest';
import { act, cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// jsdom has no modal dialogs: they open and close as the browser's do, the close event included.
// Any page a test taps may open one (a value's receipt), so every test has them.
HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
  this.setAttribute('open', '');
};
HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
  this.removeAttribute('open');
  this.dispatchEvent(new Event('close'));
};

// Waits for what the screen shows after a few fake round trips; one second is short on a busy
// two-core machine running other suites alongside (a wait ends as soon as its check passes).
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  // A dialog a test left open is closed first, so that the next test starts without one.
  for (const open of document.querySelectorAll<HTMLDialogElement>('dialog[open]')) act(() => open.close());
  cleanup();
  localStorage.clear();
});
