// The admin page: plain DOM, no framework, talks only to this origin. Everything a service sent is shown as text
// (textContent), never as HTML, since request paths and bodies come from anyone who can reach a service.

const shownRows = 100;
const pollMs = 1000;

// The token (when the admin needs one) comes in the address's fragment, which is never sent to a server.
const fromHash = new URLSearchParams(location.hash.slice(1)).get('token');
if (fromHash) {
  sessionStorage.setItem('backlot-admin-token', fromHash);
  history.replaceState(null, '', location.pathname);
}
const token = sessionStorage.getItem('backlot-admin-token');

const $ = (selector, root = document) => root.querySelector(selector);
const status = (text) => {
  $('#status').textContent = text;
};

async function api(method, path, body) {
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 204) return undefined;
  const answer = await response.json();
  if (!response.ok) throw new Error(answer.error ?? `HTTP ${response.status}`);
  return answer;
}

/** Runs an action from a button, showing its failure (the last message is cleared first). */
const act = (work) => async (event) => {
  event?.preventDefault();
  status('');
  try {
    await work();
  } catch (error) {
    status(error.message);
  }
};

const journals = new Map();

function cell(row, text, className) {
  const td = row.insertCell();
  td.textContent = text;
  if (className) td.className = className;
}

function addRows(id, entries) {
  const journal = journals.get(id);
  for (const e of entries) {
    const row = journal.body.insertRow(0);
    row.dataset.seq = String(e.seq);
    if (e.status >= 400) row.classList.add('error');
    if (e.fault) row.classList.add('fault');
    const query = new URLSearchParams(e.query).toString();
    cell(row, new Date(e.time).toLocaleTimeString());
    cell(row, e.method);
    cell(row, query ? `${e.path}?${query}` : e.path, 'path');
    cell(row, String(e.status), 'status');
    cell(row, String(Math.round(e.durationMs)));
    cell(row, e.fault ?? '', 'fault');
    journal.last = Math.max(journal.last, e.seq);
  }
  while (journal.body.rows.length > shownRows) journal.body.deleteRow(-1);
}

function renderService(service, stateAvailable) {
  const node = $('#service-template').content.cloneNode(true);
  const section = $('section', node);
  section.id = `service-${service.id}`;
  $('.id', section).textContent = service.id;
  $('.url', section).textContent = service.url;
  $('.url', section).href = service.url;
  $('.docs', section).href = service.docsUrl;
  for (const line of service.banner ?? []) {
    const li = document.createElement('li');
    li.textContent = line;
    $('.banner', section).append(li);
  }
  const form = $('form.faults', section);
  form.delayMs.value = service.faults.delayMs;
  form.errorRate.value = String(service.faults.errorRate);
  form.errorStatus.value = String(service.faults.errorStatus);
  form.addEventListener(
    'submit',
    act(async () => {
      const rule = await api('PUT', `/api/services/${service.id}/faults`, {
        delayMs: form.delayMs.value.trim(),
        errorRate: form.errorRate.value.trim(),
        errorStatus: form.errorStatus.value.trim(),
      });
      form.delayMs.value = rule.delayMs;
      status(`${service.id}: faults applied`);
    }),
  );
  const reset = $('button.reset', section);
  reset.hidden = !stateAvailable;
  reset.addEventListener(
    'click',
    act(() => api('POST', '/api/reset', { services: [service.id] })),
  );
  const body = $('table.journal tbody', section);
  journals.set(service.id, { body, last: 0 });
  $('button.clear', section).addEventListener(
    'click',
    act(async () => {
      await api('DELETE', `/api/services/${service.id}/requests`);
      body.replaceChildren();
    }),
  );
  $('#services').append(section);
}

/** 1234567 → "1.2 MB": a checkpoint's size at a glance (the API gives bytes). */
const sizeText = (bytes) => {
  const units = ['bytes', 'kB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return unit === 0 ? `${value} bytes` : `${value.toFixed(1)} ${units[unit]}`;
};

async function showCheckpoints() {
  const { checkpoints } = await api('GET', '/api/checkpoints');
  const items = checkpoints.map(({ name, bytes }) => {
    const li = document.createElement('li');
    li.textContent = `${name} `;
    const size = document.createElement('span');
    size.className = 'size';
    size.textContent = `(${sizeText(bytes)})`;
    const restore = document.createElement('button');
    restore.type = 'button';
    restore.textContent = 'Restore';
    restore.addEventListener(
      'click',
      act(() => api('POST', `/api/checkpoints/${encodeURIComponent(name)}/restore`, {})),
    );
    const remove = document.createElement('button');
    remove.type = 'button';
    remove.className = 'delete';
    remove.textContent = 'Delete';
    remove.addEventListener(
      'click',
      act(async () => {
        await api('DELETE', `/api/checkpoints/${encodeURIComponent(name)}`);
        await showCheckpoints();
      }),
    );
    li.append(size, restore, remove);
    return li;
  });
  $('#checkpoints').replaceChildren(...items);
}

async function poll() {
  for (const [id, journal] of journals) {
    try {
      const { entries } = await api('GET', `/api/services/${id}/requests?after=${journal.last}`);
      addRows(id, entries);
    } catch (error) {
      status(error.message);
    }
  }
  setTimeout(poll, pollMs);
}

async function main() {
  const overview = await api('GET', '/api/services');
  const headers = $('#fault-headers');
  headers.checked = overview.faultHeaders;
  headers.addEventListener(
    'change',
    act(() => api('PUT', '/api/fault-headers', { enabled: headers.checked })),
  );
  $('#state-on').hidden = !overview.state;
  $('#state-off').hidden = overview.state;
  if (overview.state) {
    $('#reset-all').addEventListener(
      'click',
      act(() => api('POST', '/api/reset', {})),
    );
    $('#checkpoint-save').addEventListener(
      'click',
      act(async () => {
        await api('POST', '/api/checkpoints', { name: $('#checkpoint-name').value.trim() });
        await showCheckpoints();
      }),
    );
    await showCheckpoints();
  }
  for (const service of overview.services) renderService(service, overview.state);
  document.body.dataset.ready = 'true';
  await poll();
}

main().catch((error) => status(`The admin API did not answer: ${error.message}`));
