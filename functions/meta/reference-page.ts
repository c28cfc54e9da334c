import { getApiReference, getApiReferenceScript, getOpenApiDocument } from './routes';
import { referenceRendererName } from '#shared/openapi/reference-renderer';

/**
 * The reference page. It loads the renderer and the document from the API itself, by paths relative
 * to where the page is served (any host, any stage, with or without a trailing slash), and turns off
 * everything of the renderer's that would reach another host (web fonts, telemetry, its AI
 * assistant), so it works with no internet. The renderer is named by the hash of its content, so a
 * browser keeps it until a deploy brings another version.
 */
export function referencePage(): string {
  const rendererPath = getApiReferenceScript.path.replace('{asset}', referenceRendererName());
  const configuration = {
    withDefaultFonts: false,
    telemetry: false,
    showDeveloperTools: 'never',
    hideClientButton: false,
    defaultOpenAllTags: false,
    persistAuth: false,
    metaData: { title: 'Sales Pipeline API reference' },
    agent: { disabled: true },
    mcp: { disabled: true },
  };
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sales Pipeline API reference</title>
<link rel="icon" href="data:,">
</head>
<body>
<div id="reference"></div>
<script>
  const base = location.pathname.replace(/\\/$/, '').slice(0, -${getApiReference.path.length});
  const renderer = document.createElement('script');
  renderer.src = base + ${JSON.stringify(rendererPath)};
  renderer.onload = () =>
    Scalar.createApiReference('#reference', {
      ...${JSON.stringify(configuration)},
      url: base + ${JSON.stringify(getOpenApiDocument.path)},
      // Requests tried from the page go to the API that serves it.
      servers: [{ url: location.origin + base, description: 'This API' }],
    });
  document.head.append(renderer);
</script>
</body>
</html>
`;
}
