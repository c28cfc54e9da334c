import { createHash } from 'node:crypto';
import { readAsset } from '../http/assets';
import { CompressibleText } from '../http/compressible-text';
import { REFERENCE_RENDERER } from './schemas';

export interface ReferenceRenderer {
  /** The file name it is served under, `api-reference.<first 12 hex digits of its SHA-256>.js`: a new version gets a new name. */
  name: string;
  script: CompressibleText;
}

/** The name a renderer's text is served under. */
export const rendererNameOf = (text: string): string => `api-reference.${createHash('sha256').update(text).digest('hex').slice(0, 12)}.js`;

/** Set by the bundler (infra/cdk/bundling.ts) to the name of the renderer it was built beside; absent run from source. */
declare const REFERENCE_RENDERER_BUILT_NAME: string | undefined;

let renderer: ReferenceRenderer | undefined;
let nameFromFile: string | undefined;

/**
 * The renderer's name for the page to load it by. A bundle has it from build time, so the page's function neither
 * ships nor hashes the 4.3 MB script; run from source, it is read and hashed once.
 */
export function referenceRendererName(): string {
  if (typeof REFERENCE_RENDERER_BUILT_NAME === 'string') return REFERENCE_RENDERER_BUILT_NAME;
  return (nameFromFile ??= rendererNameOf(readAsset(REFERENCE_RENDERER)));
}

/**
 * The reference page's renderer, read and hashed once per container (4.3 MB, about 10 ms to hash): the
 * page names it and the script's function answers only that name, so a browser may keep it for a year.
 */
export function referenceRenderer(): ReferenceRenderer {
  if (!renderer) {
    const text = readAsset(REFERENCE_RENDERER);
    renderer = { name: rendererNameOf(text), script: new CompressibleText(text) };
  }
  return renderer;
}
