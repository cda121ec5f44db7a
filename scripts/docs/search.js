// Site search: a light client-side index (assets/search-index.json, written by `npm run docs`) over
// the references' operations, the events, the guides' sections and the register's entries. Loaded on
// first focus; every term typed must appear in an entry's title or text. No external requests.
(function () {
  const input = document.getElementById('site-search');
  const list = document.getElementById('site-search-results');
  const header = document.querySelector('.site-header');
  if (!input || !list || !header) return;
  const root = header.getAttribute('data-site-root') || '';
  let index;
  const load = () => (index ??= fetch(`${root}assets/search-index.json`).then((r) => r.json()).catch(() => []));
  const escape = (s) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

  async function search() {
    const terms = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    if (!terms.length) {
      list.hidden = true;
      return;
    }
    const entries = await load();
    const scored = [];
    for (const e of entries) {
      const title = e.t.toLowerCase();
      const text = `${title} ${e.x.toLowerCase()}`;
      if (!terms.every((t) => text.includes(t))) continue;
      scored.push([terms.filter((t) => title.includes(t)).length, e]);
    }
    scored.sort((a, b) => b[0] - a[0]);
    list.innerHTML = scored.length
      ? scored.slice(0, 20).map(([, e]) => `<li><a href="${root}${e.u}"><span class="kind">${escape(e.k)}</span>${escape(e.t)}<small>${escape(e.x.slice(0, 110))}</small></a></li>`).join('')
      : '<li><a>No match</a></li>';
    list.hidden = false;
  }

  input.addEventListener('focus', load);
  input.addEventListener('input', search);
  input.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape') list.hidden = true;
    if (ev.key === 'Enter') list.querySelector('a[href]')?.click();
  });
  document.addEventListener('click', (ev) => {
    if (!header.contains(ev.target)) list.hidden = true;
  });
})();
