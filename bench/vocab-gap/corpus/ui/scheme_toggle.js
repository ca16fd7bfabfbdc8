// Flips data-scheme between light and dark and remembers the choice.
export function applyScheme(scheme) {
  document.documentElement.dataset.scheme = scheme;
  localStorage.setItem('scheme', scheme);
}

export function toggleScheme() {
  const current = document.documentElement.dataset.scheme === 'dark' ? 'dark' : 'light';
  applyScheme(current === 'dark' ? 'light' : 'dark');
}

export function initScheme() {
  const saved = localStorage.getItem('scheme');
  const prefersDark = window.matchMedia('(prefers-color-scheme: dark)').matches;
  applyScheme(saved ?? (prefersDark ? 'dark' : 'light'));
}
