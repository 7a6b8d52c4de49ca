import { useMemo } from 'react';
import { encode } from 'uqr';

/**
 * A QR code drawn in the browser (uqr, no outside service sees the secret), as one SVG path of
 * square modules with the quiet zone the scanners need. Its text is the same as the secret shown
 * beside it, so the image itself is hidden from screen readers.
 */
export function AccountQrCode({ text, size = 192 }: { text: string; size?: number }) {
  const { path, width } = useMemo(() => {
    const qr = encode(text, { ecc: 'M', border: 4 });
    const parts: string[] = [];
    qr.data.forEach((row, y) => {
      row.forEach((dark, x) => {
        if (dark) parts.push(`M${x} ${y}h1v1h-1z`);
      });
    });
    return { path: parts.join(''), width: qr.size };
  }, [text]);
  return (
    <svg
      data-testid="two-factor-qr"
      aria-hidden="true"
      viewBox={`0 0 ${width} ${width}`}
      width={size}
      height={size}
      shapeRendering="crispEdges"
      className="rounded-md bg-white"
    >
      <rect width={width} height={width} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
