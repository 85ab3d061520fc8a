// What this browser keeps in localStorage, as JSON: a refused or full storage costs
// the page what it would have remembered, never an error.

export function readJSON(key, fallback) {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? fallback : JSON.parse(raw);
  } catch {
    return fallback;
  }
}

export function writeJSON(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // storage full or refused: the page still works, it just forgets more
  }
}

export function forget(key) {
  try {
    localStorage.removeItem(key);
  } catch {
    // storage refused: nothing was kept either
  }
}
