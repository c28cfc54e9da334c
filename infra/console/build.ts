import { mkdir, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { createHash } from 'node:crypto';
import { build, type Metafile } from 'esbuild';
import { hashedName, iconPng, manifest, MANIFEST, SERVICE_WORKER, serviceWorker, THEME_COLOR } from './installable';
import { CONSOLE_BASE } from '../../console/src/base';

export { CONSOLE_BASE };

/** The console's package (console/): a browser's program, built here by the server's tooling. */
const SOURCE = join(import.meta.dirname, '..', '..', 'console', 'src');
const ASSETS = 'assets';
/** The icon sizes an installable app needs (Chrome's 192 and 512). */
const ICON_SIZES = [192, 512];

/** The page: no inline script or style (the console's CSP is `default-src 'self'`), every file by its absolute path. */
function page({ script, style, preloads, icon }: { script: string; style: string; preloads: string[]; icon: string }): string {
  const url = (file: string) => `${CONSOLE_BASE}/${ASSETS}/${file}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<meta name="theme-color" content="${THEME_COLOR}">
<title>Owners’ console</title>
<link rel="manifest" href="${CONSOLE_BASE}/${MANIFEST}">
<link rel="icon" type="image/png" href="${url(icon)}">
<link rel="apple-touch-icon" href="${url(icon)}">
<link rel="stylesheet" href="${url(style)}">
${preloads.map((file) => `<link rel="modulepreload" href="${url(file)}">\n`).join('')}<script type="module" src="${url(script)}"></script>
</head>
<body>
<div id="app"></div>
<noscript><p>The owners’ console needs JavaScript turned on.</p></noscript>
</body>
</html>
`;
}

/** The output an entry point became, by the entry's file name (`main.tsx`), as a name below assets/. */
function outputOf(metafile: Metafile, entry: string): { file: string; imports: string[] } {
  const found = Object.entries(metafile.outputs).find(([, output]) => output.entryPoint && basename(output.entryPoint) === entry);
  if (!found) throw new Error(`The console's build made nothing of ${entry}`);
  const [path, output] = found;
  // What the entry imports at once (not with import()) is fetched beside it rather than after it is parsed.
  const imports = output.imports.filter((each) => each.kind === 'import-statement' && !each.external).map((each) => basename(each.path));
  return { file: basename(path), imports };
}

/**
 * Bundles the console into `outDir`: index.html and assets/ with hashed names (safe to cache for ever). The app is
 * one module with Preact and the WebAuthn calls; Chart.js is a chunk of its own, loaded by the Reports screen alone.
 * Answers the files written, relative to outDir, and their total size.
 */
export async function buildConsole(outDir: string): Promise<{ files: string[]; bytes: number }> {
  const assets = join(outDir, ASSETS);
  const result = await build({
    entryPoints: [join(SOURCE, 'main.tsx'), join(SOURCE, 'styles.css')],
    absWorkingDir: SOURCE,
    outdir: assets,
    entryNames: '[name]-[hash]',
    chunkNames: '[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    minify: true,
    jsx: 'automatic',
    jsxImportSource: 'preact',
    define: { 'process.env.NODE_ENV': '"production"' },
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  const script = outputOf(result.metafile, 'main.tsx');
  const style = outputOf(result.metafile, 'styles.css');

  await rm(assets, { recursive: true, force: true });
  const written: { path: string; bytes: number }[] = [];
  for (const output of result.outputFiles) {
    await mkdir(dirname(output.path), { recursive: true });
    await writeFile(output.path, output.contents);
    written.push({ path: output.path, bytes: output.contents.byteLength });
  }
  // The installable app's icons (hashed, as every asset), its manifest and its service worker (at the base, so its
  // scope is the whole console; never cached for ever, as the page is not).
  const icons = ICON_SIZES.map((size) => {
    const png = iconPng(size);
    return { size, png, file: hashedName(`icon-${size}.png`, png) };
  });
  for (const { png, file } of icons) {
    await writeFile(join(assets, file), png);
    written.push({ path: join(assets, file), bytes: png.length });
  }
  const html = page({ script: script.file, style: style.file, preloads: script.imports, icon: icons[0]!.file });
  const shell = [`${CONSOLE_BASE}/`, ...written.filter(({ path }) => !path.endsWith('.map')).map(({ path }) => `${CONSOLE_BASE}/${relative(outDir, path)}`)].sort();
  const worker = serviceWorker(CONSOLE_BASE, createHash('sha256').update(html).update(shell.join('\n')).digest('hex').slice(0, 12), shell, `${CONSOLE_BASE}/${ASSETS}/${icons[0]!.file}`);
  for (const [name, contents] of [
    ['index.html', html],
    [MANIFEST, manifest(CONSOLE_BASE, icons.map(({ size, file }) => ({ size, src: `${CONSOLE_BASE}/${ASSETS}/${file}` })))],
    [SERVICE_WORKER, worker],
  ] as const) {
    await writeFile(join(outDir, name), contents);
    written.push({ path: join(outDir, name), bytes: Buffer.byteLength(contents) });
  }

  return { files: written.map(({ path }) => relative(outDir, path)).sort(), bytes: written.reduce((sum, { bytes }) => sum + bytes, 0) };
}
