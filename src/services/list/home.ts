const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The home page: every resource in the file with its size and a link, like json-server's index page. */
export function homePage(
  resources: { name: string; count: number }[],
  delay: string,
  origin: string,
): string {
  const rows = resources
    .map(({ name, count }) => {
      const href = `/${encodeURIComponent(name)}`;
      return `<li><a href="${href}">${escapeHtml(href)}</a> <span>${count}x</span></li>`;
    })
    .join('\n        ');
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>backlot list</title>
    <style>
      body { font: 16px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem; color: #222; }
      a { color: #0b5cad; } span { color: #777; margin-left: .5rem; } code { background: #f3f3f3; padding: 0 .2rem; }
    </style>
  </head>
  <body>
    <h1>backlot list</h1>
    <p>A JSON file served as a REST API. Every API response is delayed by ${delay} ms.</p>
    <h2>Resources</h2>
    <ul>
        ${rows || '<li>No resources: the data file holds no arrays.</li>'}
    </ul>
    <p>The whole data file: <a href="/db">/db</a>. Reference: <a href="/docs">/docs</a>.</p>
    <h2>Try it</h2>
    <p><code>curl -X POST -H 'content-type: application/json' -d '{"item":"milk"}' ${escapeHtml(origin)}/list</code></p>
  </body>
</html>
`;
}
