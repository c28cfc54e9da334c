import { createHash } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';

/** The installable app's files at the base, beside its page: asked for again at each load (never cached for ever). */
export const MANIFEST = 'manifest.webmanifest';
export const SERVICE_WORKER = 'sw.js';
export const UNHASHED_FILES: readonly string[] = ['index.html', MANIFEST, SERVICE_WORKER];

/** The console's colour (its primary buttons'): the installed app's icon and title bar. */
export const THEME_COLOR = '#1d4ed8';

/** One PNG chunk: its length, type, data and the CRC of type and data. */
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/**
 * The app's icon at `size` pixels, as a PNG: the theme's blue with a white funnel of three bars (the pipeline), drawn
 * inside the safe zone a maskable icon keeps (the middle 80 %), so the same file serves both purposes.
 */
export function iconPng(size: number): Buffer {
  const [r, g, b] = [1, 3, 5].map((at) => parseInt(THEME_COLOR.slice(at, at + 2), 16)) as [number, number, number];
  const rows: Buffer[] = [];
  // Three bars, each narrower than the one above, centred: their top, bottom, left and right as fractions of the size.
  const bars = [0.3, 0.46, 0.62].map((top, at) => ({ top, bottom: top + 0.1, left: 0.28 + at * 0.07, right: 0.72 - at * 0.07 }));
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3);
    for (let x = 0; x < size; x++) {
      const [fx, fy] = [(x + 0.5) / size, (y + 0.5) / size];
      const white = bars.some((bar) => fy >= bar.top && fy < bar.bottom && fx >= bar.left && fx < bar.right);
      row.set(white ? [255, 255, 255] : [r, g, b], 1 + x * 3);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0))]);
}

/** A file name with its content's hash, as the build names every asset (safe to cache for ever). */
export const hashedName = (name: string, contents: Buffer | string) => name.replace(/(\.[a-z]+)$/, `-${createHash('sha256').update(contents).digest('hex').slice(0, 8).toUpperCase()}$1`);

/** The web app manifest: the console installs as an app that opens on Today, standing alone. */
export const manifest = (base: string, icons: { src: string; size: number }[]) =>
  JSON.stringify({
    name: 'Sales Pipeline console',
    short_name: 'Pipeline',
    description: 'Leads, texts, calls and the schedule of a trades business.',
    id: `${base}/`,
    start_url: `${base}/`,
    scope: `${base}/`,
    display: 'standalone',
    background_color: '#ffffff',
    theme_color: THEME_COLOR,
    icons: icons.map(({ src, size }) => ({ src, sizes: `${size}x${size}`, type: 'image/png', purpose: 'any maskable' })),
  });

/**
 * The service worker: the app's shell (its page and hashed assets) kept for a page loaded without the network, and
 * never an answer of the API (a request below /v1 goes to the network as if there were no worker); a push shown as a
 * notification whose tap opens the screen it names.
 */
export const serviceWorker = (base: string, version: string, shell: string[], icon: string) => `// The owners' console's service worker, written by its build (infra/console/installable.ts).
const CACHE = 'console-shell-${version}';
const SHELL = ${JSON.stringify(shell)};
self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});
self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys().then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name)))).then(() => self.clients.claim()));
});
self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== self.location.origin || !url.pathname.startsWith('${base}')) return;
  // A screen of the app: the network's page (a new release at once), the kept one without a network.
  if (event.request.mode === 'navigate') {
    event.respondWith(fetch(event.request).catch(() => caches.match('${base}/')));
    return;
  }
  if (SHELL.includes(url.pathname)) event.respondWith(caches.match(url.pathname).then((kept) => kept || fetch(event.request)));
});
self.addEventListener('push', (event) => {
  const notice = event.data ? event.data.json() : { title: 'Sales Pipeline', body: '', url: '${base}/' };
  event.waitUntil(self.registration.showNotification(notice.title, { body: notice.body, tag: notice.tag, icon: '${icon}', data: { url: notice.url } }));
});
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || '${base}/', self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((open) => {
      const app = open.find((client) => new URL(client.url).pathname.startsWith('${base}'));
      return app ? app.navigate(url).then((client) => (client || app).focus()) : self.clients.openWindow(url);
    }),
  );
});
`;
