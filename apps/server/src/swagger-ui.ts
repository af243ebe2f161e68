import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pagePolicy } from './http/page-policy';

export const SWAGGER_UI_PATH = '/openapi/swagger-ui/';

/** The files of `swagger-ui-dist` the page loads, by name: nothing else of the package is served. */
const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/**
 * The page: a token form, then Swagger UI over the generated document. The token stays in the tab's session storage
 * and goes out as the Bearer header of every request the page makes, the document's own fetch included.
 */
const PAGE = (docs: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>mds · OpenAPI</title>
<link rel="icon" href="favicon-32x32.png">
<link rel="stylesheet" href="swagger-ui.css">
<link rel="stylesheet" href="mds-swagger.css">
</head>
<body>
<form id="mds-token" data-docs="${docs}">
  <label>Access token <input name="token" type="password" autocomplete="off" placeholder="paste a token (mds token create …)"></label>
  <button type="submit">Use token</button>
  <span id="mds-token-state"></span>
</form>
<div id="swagger-ui"></div>
<script src="swagger-ui-bundle.js"></script>
<script src="mds-swagger.js"></script>
</body>
</html>
`;

const STYLE = `#mds-token { display: flex; gap: .5rem; align-items: center; padding: .75rem 1.25rem; font-family: sans-serif;
  background: #1b1b1b; color: #fff; }
#mds-token input { width: 28rem; padding: .3rem; }`;

const SCRIPT = `(() => {
  const form = document.getElementById('mds-token');
  const state = document.getElementById('mds-token-state');
  const show = (token) => {
    state.textContent = 'token set';
    window.ui = SwaggerUIBundle({
      url: form.dataset.docs,
      dom_id: '#swagger-ui',
      docExpansion: 'none',
      filter: true,
      deepLinking: false,
      requestInterceptor: (request) => {
        request.headers.Authorization = 'Bearer ' + token;
        return request;
      },
    });
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const token = form.elements.token.value.trim();
    if (!token) return;
    sessionStorage.setItem('mds-token', token);
    form.elements.token.value = '';
    show(token);
  });
  const kept = sessionStorage.getItem('mds-token');
  if (kept) show(kept);
})();
`;

// Scripts and styles of this origin only; Swagger UI sets inline style attributes, and shows data: images.
const CSP = pagePolicy({ 'script-src': "'self'", 'style-src': "'self' 'unsafe-inline'" });

/**
 * Swagger UI at `/openapi/swagger-ui/index.html`, from the npm package `swagger-ui-dist`: fully offline, no CDN.
 * Files are read on first use and kept; the page and its own script are generated here.
 */
export function createSwaggerUi(options: { docs: string }) {
  const dist = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const files = new Map<string, Promise<{ body: Buffer; type: string }>>([
    ['index.html', Promise.resolve({ body: Buffer.from(PAGE(options.docs)), type: 'text/html; charset=utf-8' })],
    ['mds-swagger.js', Promise.resolve({ body: Buffer.from(SCRIPT), type: 'text/javascript; charset=utf-8' })],
    ['mds-swagger.css', Promise.resolve({ body: Buffer.from(STYLE), type: 'text/css; charset=utf-8' })],
  ]);
  const file = (name: string) => {
    let found = files.get(name);
    if (!found && Object.hasOwn(ASSETS, name)) {
      found = readFile(join(dist, name)).then((body) => ({ body, type: ASSETS[name]! }));
      files.set(name, found);
    }
    return found;
  };

  return {
    /** The file names served under SWAGGER_UI_PATH. */
    names: ['index.html', 'mds-swagger.js', 'mds-swagger.css', ...Object.keys(ASSETS)],
    async serve(name: string, _req: IncomingMessage, res: ServerResponse): Promise<void> {
      const { body, type } = (await file(name))!;
      res
        .writeHead(200, {
          'content-type': type,
          'content-length': body.length,
          'content-security-policy': CSP,
          'x-content-type-options': 'nosniff',
          'referrer-policy': 'no-referrer',
          'cache-control': 'no-cache',
        })
        .end(body);
    },
  };
}
