import { isIP } from 'node:net';

/** The header the distribution's viewer-request function sets to the viewer's address (functions/sign-in/edge/viewer-request.js). */
export const VIEWER_ADDRESS_HEADER = 'x-viewer-address';
/** The header the distribution adds to every request it sends the API, with the origin secret: the firewall refuses any request without it. */
export const ORIGIN_SECRET_HEADER = 'x-origin-verify';
/**
 * The stage variable a stage sets when the distribution is its one way in (the firewall refuses every request without
 * the origin secret): its value is the header that carries the viewer's address. A stage without it (no firewall, or
 * no distribution) counts the connection's own address, which a client cannot write.
 */
export const VIEWER_ADDRESS_STAGE_VARIABLE = 'viewerAddressHeader';

interface GatewayEvent {
  headers?: Record<string, string | undefined> | null;
  stageVariables?: Record<string, string | undefined> | null;
  requestContext?: { identity?: { sourceIp?: string | null } } | null;
}

/**
 * The caller's address, for every per-source limit: the viewer's, as the distribution wrote it, on a stage whose only
 * way in is the distribution; otherwise the address API Gateway saw the connection from (never a header the client
 * writes, such as X-Forwarded-For).
 */
export function callerAddressOf(event: GatewayEvent): string | undefined {
  const header = event.stageVariables?.[VIEWER_ADDRESS_STAGE_VARIABLE];
  if (header) {
    const name = Object.keys(event.headers ?? {}).find((candidate) => candidate.toLowerCase() === header);
    const viewer = name === undefined ? undefined : event.headers![name]?.trim();
    if (viewer && isIP(viewer)) return viewer;
  }
  return event.requestContext?.identity?.sourceIp ?? undefined;
}
