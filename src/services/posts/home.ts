import { type Dataset, resourceNames } from './dataset.js';

const nested = [
  '/posts/1/comments',
  '/albums/1/photos',
  '/users/1/albums',
  '/users/1/todos',
  '/users/1/posts',
];

/** The `GET /` page: what is here and how to ask for it. */
export function homePage(data: Dataset): string {
  const resources = resourceNames
    .map((name) => `<li><a href="/${name}">/${name}</a> ${data[name].length} items</li>`)
    .join('\n');
  const links = nested.map((path) => `<li><a href="${path}">${path}</a></li>`).join('\n');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>backlot posts API</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem}code{background:#f3f3f3;padding:0 .2rem}</style>
</head>
<body>
<h1>Posts API</h1>
<p>A fake online REST API for testing and prototyping. The data is fixed; writes are answered but not kept.</p>
<h2>Resources</h2>
<ul>
${resources}
</ul>
<h2>Routes</h2>
<ul>
<li><code>GET /posts</code>, <code>GET /posts/1</code></li>
<li><code>POST /posts</code>, <code>PUT /posts/1</code>, <code>PATCH /posts/1</code>, <code>DELETE /posts/1</code></li>
${links}
<li><code>GET /posts?userId=1</code>, <code>?_page=2&amp;_limit=10</code>, <code>?_sort=title&amp;_order=desc</code>, <code>?q=dolor</code>, <code>?_embed=comments</code>, <code>?_expand=user</code></li>
</ul>
<p>The same routes work for every resource. Reference: <a href="/docs">/docs</a> (OpenAPI: <a href="/openapi.json">/openapi.json</a>).</p>
</body>
</html>
`;
}
