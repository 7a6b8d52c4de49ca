import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AGENT_READS_CACHE, SERVED_FROM_CACHE, SERVED_FROM_HEADER } from '../../shared/offline-cache.js';
import { OfflineNotice } from '../components/ui/offline-notice.js';
import { noteAnswer } from './last-known.js';
import { endSession, startSession } from './session.js';

afterEach(() => {
  act(() => noteAnswer(new Response('{}')));
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const fromCache = (date: string) =>
  new Response('{}', { headers: { [SERVED_FROM_HEADER]: SERVED_FROM_CACHE, date } });

describe('OfflineNotice', () => {
  it('says nothing while online and answered live', () => {
    const { container } = render(<OfflineNotice />);
    expect(container).toBeEmptyDOMElement();
  });

  it('marks the screen as the last known state while the browser is offline', () => {
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    render(<OfflineNotice />);
    act(() => {
      window.dispatchEvent(new Event('offline'));
    });
    expect(screen.getByRole('status')).toHaveTextContent('Offline – showing the last known state.');
    onLine.mockReturnValue(true);
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('marks an answer the service worker took from its cache, with its time, until a live one comes', () => {
    render(<OfflineNotice />);
    act(() => noteAnswer(fromCache('Thu, 26 Nov 2026 10:05:00 GMT')));
    const notice = screen.getByRole('status');
    expect(notice).toHaveTextContent(
      /^No answer from the server – showing the last known state \(as of .+\)\.$/,
    );
    expect(notice.querySelector('time')).toHaveAttribute('datetime', '2026-11-26T10:05:00.000Z');
    act(() => noteAnswer(new Response('{}')));
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });
});

describe('a session’s start and end', () => {
  it('drop the service worker’s kept reads, which are the same addresses for every agent', async () => {
    const remove = vi.fn(async () => true);
    vi.stubGlobal('caches', { delete: remove });
    startSession({
      _id: '3',
      id: '3',
      User_Id: 3,
      UserName: 'agent',
      DisplayName: 'Agent',
      Email: 'agent@example.com',
      UserType: 'agent',
      userType: 'agent',
      isActive: true,
      token: 'token',
    });
    expect(remove).toHaveBeenCalledWith(AGENT_READS_CACHE);
    endSession();
    expect(remove).toHaveBeenCalledTimes(2);
  });
});
