import { type ReactNode, useEffect, useRef, useState } from 'react';
import './table-scroll-styles.css';

/**
 * Around a chart whose cells show less than their whole value (an open/close market's jodi, with the
 * whole `123-68-459` in the cell's title): a touch screen shows no tooltip, so a tap on such a cell
 * shows its whole value at the foot of the screen, named by its column and day, until the next tap in
 * the chart. Docked (sticky) to the chart, not fixed to the screen: it leaves with the chart, and a
 * section laid out lazily (content-visibility) would hold a fixed element inside itself anyway.
 * Screen readers have the value already as the cell's name, so the line is for the eye alone. One
 * listener on the box, not one per cell: a year chart has 372 of them.
 */
export function TappedCells({ children }: { children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const [tapped, setTapped] = useState<string | null>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const onClick = (event: MouseEvent) => {
      const cell = event.target instanceof Element ? event.target.closest('td[title]') : null;
      if (!(cell instanceof HTMLTableCellElement)) {
        setTapped(null);
        return;
      }
      const column = cell.closest('table')?.tHead?.rows[0]?.cells[cell.cellIndex]?.textContent ?? '';
      const day = cell.parentElement?.querySelector('th')?.textContent ?? '';
      setTapped(`${column} ${day}: ${cell.title}`);
    };
    element.addEventListener('click', onClick);
    return () => element.removeEventListener('click', onClick);
  }, []);
  return (
    <div ref={box}>
      {children}
      {tapped && (
        <div className="tapped-cell-dock">
          <p aria-hidden="true" data-testid="tapped-cell" className="tapped-cell">
            {tapped}
          </p>
        </div>
      )}
    </div>
  );
}
