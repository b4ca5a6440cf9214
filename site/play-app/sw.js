// The Play pages' service worker (scope /play/): a copy of every file a Play page needs, kept for
// the next visit and for use without a network. The build writes VERSION (a hash of the files) and
// FILES, so a new build starts a new cache and drops the old one, and PREFIX: the lesson pages
// (scope /lesson/) use this same worker with a cache of their own, which neither drops the other's.
const VERSION = "{{VERSION}}";
const PREFIX = "{{PREFIX}}";
const CACHE = PREFIX + VERSION;
// relative to this script (play/sw.js), so the site works under any path (GitHub Pages: /<repo>/)
const FILES = new Set({{FILES}}.map((file) => new URL(file, location.href).pathname));

// The pages and scripts the first visit fetched before this worker was in charge (a few KB) are
// copied at once; the large files (Pyodide, the wheel) are kept as the page downloads them.
self.addEventListener("install", (event) => {
  const small = [...FILES].filter((path) => !path.includes("/static/pyodide/"));
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(small)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith(PREFIX) && key !== CACHE) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin || !FILES.has(url.pathname)) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const hit = await cache.match(url.pathname);
    if (hit) return hit;
    const response = await fetch(event.request);
    // stored while the page already reads it (awaiting the copy first held a 10 MB file for seconds)
    if (response.ok) event.waitUntil(cache.put(url.pathname, response.clone()));
    return response;
  })());
});
