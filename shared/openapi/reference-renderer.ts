import { createHash } from 'node:crypto';
import { readAsset } from '../http/assets';
import { CompressibleText } from '../http/compressible-text';
import { REFERENCE_RENDERER } from './schemas';

export interface ReferenceRenderer {
  /** The file name it is served under, `api-reference.<first 12 hex digits of its SHA-256>.js`: a new version gets a new name. */
  name: string;
  script: CompressibleText;
}

let renderer: ReferenceRenderer | undefined;

/**
 * The reference page's renderer, read and hashed once per container (4.3 MB, about 10 ms to hash): the
 * page names it and the script's function answers only that name, so a browser may keep it for a year.
 */
export function referenceRenderer(): ReferenceRenderer {
  if (!renderer) {
    const text = readAsset(REFERENCE_RENDERER);
    const hash = createHash('sha256').update(text).digest('hex').slice(0, 12);
    renderer = { name: `api-reference.${hash}.js`, script: new CompressibleText(text) };
  }
  return renderer;
}
