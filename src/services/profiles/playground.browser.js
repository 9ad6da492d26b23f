// The profiles playground: GraphiQL (served from /ide/) plus a "Files" panel, so an operation with an Upload
// variable goes out as a GraphQL multipart request (operations, map, then the files), the way
// apollo-upload-client sends it. Runs in the browser as is: no build step, no imports, nothing from the network.
/* global React, ReactDOM, GraphiQL */

const h = React.createElement;

/** What the Files panel holds: a variable path (`input.file`) and the file chosen for it. */
const uploads = [{ path: 'input.file', file: null }];

// The comment's lines fit the query editor with the Files panel open in a 1400 px window (about 35 characters).
const defaultQuery = `# backlot profiles. Run an
# operation with the ▶ button
# (Ctrl-Enter); with several,
# pick one.
# To upload a profile image:
# 1. run CreateUser;
# 2. put its id in the Variables
#    below;
# 3. choose an image in the Files
#    panel (paperclip, left): it
#    is sent as input.file;
# 4. run UploadImage, then Users.
query Users {
  users {
    id
    fullName
    email
    img_uri
    DateCreated
  }
}

mutation CreateUser {
  createUser(input: { fullName: "Ada Lovelace", email: "ada@example.com" }) {
    id
    img_uri
  }
}

mutation UploadImage($input: ProfileImage!) {
  uploadProfileImage(input: $input)
}
`;

const defaultVariables = `{
  "input": { "userId": "paste a user id here", "file": null }
}
`;

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The variable definitions of the operation that will run: its `( … )` after the name, or the whole document. */
function declaredVariables(query, operationName) {
  if (!operationName) return query;
  const head = new RegExp(
    `\\b(?:query|mutation|subscription)\\s+${escapeRegExp(operationName)}\\b\\s*(\\([^)]*\\))?`,
  );
  const match = head.exec(query);
  return match ? (match[1] ?? '') : query;
}

/** Sets `value` at a dotted path (`input.file`, `files.0`) inside `target`, making the objects on the way. */
function setPath(target, path, value) {
  const keys = path.split('.');
  let node = target;
  keys.slice(0, -1).forEach((key, index) => {
    if (node[key] === null || typeof node[key] !== 'object')
      node[key] = /^\d+$/.test(keys[index + 1]) ? [] : {};
    node = node[key];
  });
  node[keys[keys.length - 1]] = value;
}

/**
 * GraphiQL's requests go through here. When files are chosen for variables the operation declares, the JSON
 * request becomes multipart: each file's variable is null in `operations`, `map` says where each file goes (one
 * part per File, listed under every path it fills), then the files. Anything else is sent unchanged.
 */
function uploadingFetch(url, init) {
  const chosen = uploads.filter((upload) => upload.file && upload.path.trim());
  if (chosen.length === 0 || typeof init?.body !== 'string') return fetch(url, init);
  const params = JSON.parse(init.body);
  const declared = declaredVariables(String(params.query ?? ''), params.operationName);
  const used = chosen.filter((upload) =>
    new RegExp(`\\$${escapeRegExp(upload.path.trim().split('.')[0])}\\b`).test(declared),
  );
  if (used.length === 0) return fetch(url, init);

  const operations = { ...params, variables: structuredClone(params.variables ?? {}) };
  const files = [];
  const map = {};
  for (const upload of used) {
    const path = upload.path.trim();
    setPath(operations.variables, path, null);
    let index = files.indexOf(upload.file);
    if (index === -1) index = files.push(upload.file) - 1;
    map[index] ??= [];
    map[index].push(`variables.${path}`);
  }
  const form = new FormData();
  form.append('operations', JSON.stringify(operations));
  form.append('map', JSON.stringify(map));
  for (const [index, file] of files.entries()) form.append(String(index), file, file.name);
  // The browser writes the multipart Content-Type with its boundary.
  const headers = new Headers(init.headers);
  headers.delete('content-type');
  return fetch(url, { ...init, headers, body: form });
}

function PaperclipIcon() {
  return h(
    'svg',
    {
      viewBox: '0 0 24 24',
      width: '1em',
      height: '1em',
      fill: 'none',
      stroke: 'currentColor',
      strokeWidth: 1.5,
    },
    h('path', {
      d: 'M21 11.5l-8.6 8.6a5.5 5.5 0 01-7.8-7.8l8.6-8.6a3.7 3.7 0 015.2 5.2l-8.6 8.6a1.8 1.8 0 01-2.6-2.6l8-8',
    }),
  );
}

const kib = (bytes) => `${(bytes / 1024).toFixed(bytes < 10240 ? 1 : 0)} KiB`;

function FilesPanel() {
  const [, setVersion] = React.useState(0);
  const changed = () => setVersion((version) => version + 1);
  const rows = uploads.map((upload, index) =>
    h(
      'li',
      { key: index, className: 'backlot-upload', style: { marginBottom: '1em' } },
      h(
        'label',
        { style: { display: 'block' } },
        'Variable path ',
        h('input', {
          type: 'text',
          value: upload.path,
          'aria-label': `Variable path of file ${index + 1}`,
          onChange: (event) => {
            upload.path = event.target.value;
            changed();
          },
          style: { fontFamily: 'var(--font-family-mono)', width: '100%' },
        }),
      ),
      h('input', {
        type: 'file',
        'aria-label': `File ${index + 1}`,
        onChange: (event) => {
          upload.file = event.target.files?.[0] ?? null;
          changed();
        },
        style: { margin: '0.5em 0' },
      }),
      h(
        'div',
        { className: 'backlot-upload-status' },
        upload.file ? `${upload.file.name}, ${kib(upload.file.size)}` : 'no file chosen',
        uploads.length > 1 &&
          h(
            'button',
            {
              type: 'button',
              style: { marginLeft: '1em' },
              onClick: () => {
                uploads.splice(index, 1);
                changed();
              },
            },
            'Remove',
          ),
      ),
    ),
  );
  return h(
    'div',
    null,
    h('div', { className: 'graphiql-doc-explorer-title' }, 'Files'),
    h(
      'p',
      null,
      'A file chosen here is sent with the operation as a GraphQL multipart request, in place of the variable at ' +
        'its path (input.file for UploadImage). Operations that do not declare that variable are sent as JSON.',
    ),
    h('ol', { style: { paddingLeft: '1.2em' } }, rows),
    h(
      'button',
      {
        type: 'button',
        onClick: () => {
          uploads.push({ path: '', file: null });
          changed();
        },
      },
      'Add a file',
    ),
  );
}

const filesPlugin = { title: 'Files', icon: PaperclipIcon, content: FilesPanel };

/**
 * Whether GraphiQL has stored nothing yet (a first visit, or its storage cleared). GraphiQL 3 starts the Variables
 * editor empty then, even though the default tab holds variables (it takes only the query from it), so on a
 * first visit they are also given as the editor's starting text; later visits keep what the browser stored.
 */
const firstVisit = (() => {
  try {
    return window.localStorage.getItem('graphiql:tabState') === null;
  } catch {
    return true;
  }
})();

const fetcher = GraphiQL.createFetcher({
  url: new URL('query', window.location.href).toString(),
  fetch: uploadingFetch,
});

ReactDOM.createRoot(document.getElementById('graphiql')).render(
  h(GraphiQL, {
    fetcher,
    // Used until the browser has stored tabs of its own, so a reload keeps what was typed.
    defaultTabs: [{ query: defaultQuery, variables: defaultVariables }],
    ...(firstVisit ? { variables: defaultVariables } : {}),
    defaultEditorToolsVisibility: 'variables',
    plugins: [filesPlugin],
    visiblePlugin: filesPlugin,
  }),
);
