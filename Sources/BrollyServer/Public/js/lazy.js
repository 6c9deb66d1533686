// The page's code that is not the card, as one module loaded on first use (later.js): bundled
// apart from the card's (scripts/bundle.sh), so that none of it is fetched before the weather.
let loading = null;
export const later = () => (loading ||= import('./later.js'));
