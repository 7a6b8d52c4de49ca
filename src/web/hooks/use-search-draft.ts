import { useEffect, useRef, useState } from 'react';

/** How long typing must pause before a search goes to the server. */
export const SEARCH_DELAY_MS = 300;

/**
 * The text of a search box, and the search it settles into: `onSearch` gets the trimmed text once
 * typing pauses (or at once on `flush`, e.g. Enter), and only when it differs from `search`, the
 * search in force. When `search` changes from outside (the back button), the box follows it.
 */
export function useSearchDraft(search: string, onSearch: (search: string) => void) {
  const [draft, setDraft] = useState(search);
  const [seen, setSeen] = useState(search);
  if (search !== seen) {
    setSeen(search);
    // Our own commit of "ravi " comes back as "ravi": keep the space the admin is still typing after.
    if (draft.trim() !== search) setDraft(search);
  }

  const latest = useRef({ search, onSearch });
  useEffect(() => {
    latest.current = { search, onSearch };
  });

  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const commit = (text: string) => {
    clearTimeout(timer.current);
    const next = text.trim();
    if (next !== latest.current.search) latest.current.onSearch(next);
  };

  return {
    draft,
    change: (text: string) => {
      setDraft(text);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => commit(text), SEARCH_DELAY_MS);
    },
    flush: () => commit(draft),
  };
}
