import { useEffect, useState } from 'react';
import { inLanguage, type Language } from '../../../shared/page-language.js';
import { CHROME_TEXT } from './chrome-text.js';

function WhatsAppIcon() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" className="h-6 w-6 fill-current">
      <path d="M12 2a10 10 0 0 0-8.6 15.1L2 22l5-1.3A10 10 0 1 0 12 2Zm0 18.2a8.2 8.2 0 0 1-4.2-1.2l-.3-.2-3 .8.8-2.9-.2-.3A8.2 8.2 0 1 1 12 20.2Zm4.5-6.1c-.2-.1-1.5-.7-1.7-.8-.2-.1-.4-.1-.6.1l-.8 1c-.1.2-.3.2-.5.1a6.7 6.7 0 0 1-3.3-2.9c-.2-.4.2-.4.7-1.3.1-.2 0-.3 0-.4l-.8-1.8c-.2-.5-.4-.4-.6-.4h-.5a1 1 0 0 0-.7.3 3 3 0 0 0-.9 2.2 5.2 5.2 0 0 0 1.1 2.7 11.8 11.8 0 0 0 4.5 4c1.7.7 2.3.8 3.2.6.5-.1 1.5-.6 1.7-1.2.2-.6.2-1.1.1-1.2l-.4-.3Z" />
    </svg>
  );
}

function TelegramIcon() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" className="h-6 w-6 fill-current">
      <path d="M21.9 4.3 18.7 19.4c-.2 1-.9 1.3-1.7.8l-4.9-3.6-2.4 2.3c-.3.3-.5.5-1 .5l.3-5 9.2-8.3c.4-.4-.1-.6-.6-.2L6.2 13.1l-4.9-1.5c-1-.3-1.1-1 .2-1.5L20.6 2.8c.9-.3 1.6.2 1.3 1.5Z" />
    </svg>
  );
}

function UpIcon() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" className="h-6 w-6 fill-none stroke-current stroke-[2.5]">
      <path d="m6 15 6-6 6 6" />
    </svg>
  );
}

/**
 * Share links (to this page) and a way back to the top. They float at the bottom right only where the
 * page's column leaves them room (75rem and wider); on narrower screens they are a row in the footer,
 * so that they never cover a value, a link or the footer's last line.
 */
export function SocialLinks({
  siteName,
  path,
  language = 'en',
}: {
  siteName: string;
  /** The page's English address: the page's own (in its own language) is shared. */
  path: string;
  language?: Language;
}) {
  const share = CHROME_TEXT[language].share;
  // The full address is known in the browser only; the server renders the path (same first render).
  const [origin, setOrigin] = useState('');
  useEffect(() => setOrigin(window.location.origin), []);
  const address = encodeURIComponent(origin + inLanguage(language, path));
  const text = encodeURIComponent(share.text(siteName));
  const button =
    'flex h-11 w-11 items-center justify-center rounded-full text-white shadow-lg ring-2 ring-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-300';
  return (
    <nav
      aria-label={share.label}
      data-testid="share-links"
      className="mb-4 flex justify-center gap-3 min-[75rem]:fixed min-[75rem]:right-3 min-[75rem]:bottom-3 min-[75rem]:z-20 min-[75rem]:mb-0 min-[75rem]:flex-col min-[75rem]:gap-2"
    >
      <a
        href={`https://wa.me/?text=${text}%20${address}`}
        target="_blank"
        rel="noopener noreferrer"
        className={`${button} bg-green-700 hover:bg-green-800`}
        aria-label={share.whatsApp}
      >
        <WhatsAppIcon />
      </a>
      <a
        href={`https://t.me/share/url?url=${address}&text=${text}`}
        target="_blank"
        rel="noopener noreferrer"
        className={`${button} bg-sky-700 hover:bg-sky-800`}
        aria-label={share.telegram}
      >
        <TelegramIcon />
      </a>
      <a href="#top" className={`${button} bg-slate-600 hover:bg-slate-700`} aria-label={share.top}>
        <UpIcon />
      </a>
    </nav>
  );
}
