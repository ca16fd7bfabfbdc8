// Message catalogues keyed by locale; falls back to English, then to the key.
const catalogues = new Map();

export function register(locale, messages) {
  catalogues.set(locale, messages);
}

export function translate(key, locale = navigator.language) {
  const base = locale.split('-')[0];
  for (const tag of [locale, base, 'en']) {
    const messages = catalogues.get(tag);
    if (messages && key in messages) return messages[key];
  }
  return key;
}
