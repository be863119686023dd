/**
 * A self-contained page at /docs that renders /docs/openapi.json: no CDN, the gateway runs
 * offline. One section per tag, one collapsible entry per operation with its parameters,
 * body and responses as JSON Schema.
 */
import { createHash } from 'node:crypto';

export const docsPageHtml = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Desktop SMS Gateway API</title>
<style>
  body { font: 15px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 960px; padding: 1rem 1.5rem; color: #1d2330; }
  h1 { margin-bottom: 0; } .servers { color: #555; }
  details { border: 1px solid #d6dbe4; border-radius: 6px; margin: .4rem 0; background: #fff; }
  summary { cursor: pointer; padding: .45rem .7rem; }
  .method { display: inline-block; width: 4.2rem; font-weight: 700; text-transform: uppercase; }
  .get { color: #0b6bcb; } .post { color: #16803c; } .put, .patch { color: #a35c00; } .delete { color: #c0262d; }
  .path { font-family: ui-monospace, monospace; } .scope { float: right; color: #666; font-size: .85em; }
  .body { padding: 0 .9rem .7rem; } pre { background: #f4f6f9; padding: .6rem; overflow: auto; font-size: .85em; }
  table { border-collapse: collapse; } td, th { border: 1px solid #d6dbe4; padding: .2rem .5rem; text-align: left; }
</style>
</head>
<body>
<h1 id="title">Desktop SMS Gateway API</h1>
<p class="servers" id="servers"></p>
<p>The machine-readable document: <a href="/docs/openapi.json">openapi.json</a> (OpenAPI 3.1).</p>
<main id="operations"><p>Loading…</p></main>
<script>
(function () {
  function el(tag, attributes, children) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (key) { node.setAttribute(key, attributes[key]); });
    (children || []).forEach(function (child) {
      node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
    });
    return node;
  }
  function schemaBlock(label, schema) {
    return el('div', {}, [el('strong', {}, [label]), el('pre', {}, [JSON.stringify(schema, null, 2)])]);
  }
  function render(doc) {
    document.getElementById('title').textContent = doc.info.title + ' ' + doc.info.version;
    document.getElementById('servers').textContent =
      'Served under: ' + doc.servers.map(function (server) { return server.url; }).join('  ·  ');
    var main = document.getElementById('operations');
    main.textContent = '';
    var byTag = {};
    Object.keys(doc.paths).forEach(function (path) {
      Object.keys(doc.paths[path]).forEach(function (method) {
        var operation = doc.paths[path][method];
        var tag = (operation.tags || ['Other'])[0];
        (byTag[tag] = byTag[tag] || []).push({ path: path, method: method, operation: operation });
      });
    });
    Object.keys(byTag).forEach(function (tag) {
      main.appendChild(el('h2', {}, [tag]));
      byTag[tag].forEach(function (entry) {
        var op = entry.operation;
        var body = el('div', { class: 'body' }, [el('p', {}, [op.summary || ''])]);
        if (op['x-aliases']) body.appendChild(el('p', {}, ['Also at: ' + op['x-aliases'].join(', ')]));
        if (op.parameters) {
          var rows = op.parameters.map(function (p) {
            return el('tr', {}, [el('td', {}, [p.name]), el('td', {}, [p.in]), el('td', {}, [p.required ? 'yes' : 'no']),
              el('td', {}, [JSON.stringify(p.schema)])]);
          });
          body.appendChild(el('table', {}, [el('tr', {}, [el('th', {}, ['name']), el('th', {}, ['in']),
            el('th', {}, ['required']), el('th', {}, ['schema'])])].concat(rows)));
        }
        if (op.requestBody) body.appendChild(schemaBlock('Request body', op.requestBody.content['application/json'].schema));
        Object.keys(op.responses).forEach(function (status) {
          var response = op.responses[status];
          var content = response.content && response.content['application/json'];
          body.appendChild(content ? schemaBlock(status + ' ' + response.description, content.schema)
            : el('p', {}, [el('strong', {}, [status + ' ']), response.description]));
        });
        var scope = op['x-required-scope'] || (op.security && op.security.length === 0 ? 'public' : '');
        main.appendChild(el('details', {}, [el('summary', {}, [
          el('span', { class: 'method ' + entry.method }, [entry.method]), el('span', { class: 'path' }, [entry.path]),
          el('span', { class: 'scope' }, [scope])]), body]));
      });
    });
  }
  fetch('/docs/openapi.json').then(function (response) { return response.json(); }).then(render, function (error) {
    document.getElementById('operations').textContent = 'Could not load openapi.json: ' + error;
  });
})();
</script>
</body>
</html>
`;

/**
 * The page's one inline script is allowed by its hash, nothing else runs; it only fetches
 * /docs/openapi.json. Inline styles are the page's own <style> block.
 */
const docsScript = /<script>([\s\S]*?)<\/script>/.exec(docsPageHtml)?.[1] ?? '';
export const docsContentSecurityPolicy = [
  "default-src 'none'",
  `script-src 'sha256-${createHash('sha256').update(docsScript, 'utf8').digest('base64')}'`,
  "style-src 'unsafe-inline'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
