import './styles.css';

/*
 * The public pages' entry. The page reads completely without JavaScript, so React and the page's
 * code are fetched only after the first paint: on a phone's slow connection they would otherwise
 * share it with the page's stylesheet and hold the first paint back. A hidden tab paints no frame,
 * so it loads them at once.
 */
function hydrate() {
  void import('./public-hydrate.js');
}

if (document.visibilityState === 'hidden') hydrate();
else requestAnimationFrame(() => setTimeout(hydrate, 0));
