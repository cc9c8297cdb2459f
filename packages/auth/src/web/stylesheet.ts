/** The stylesheet of every Innkeep page, served at /assets/innkeep.css: system fonts, nothing external. */
export const innkeepStylesheet = `:root {
  color-scheme: light dark;
  --text: #1f2328;
  --muted: #59636e;
  --background: #f6f7f9;
  --surface: #ffffff;
  --border: #d1d9e0;
  --accent: #0b6e4f;
  --accent-text: #ffffff;
  --danger: #b42318;
  --notice: #e7f5ee;
  --alert: #fdecea;
}
@media (prefers-color-scheme: dark) {
  :root {
    --text: #e6e8eb;
    --muted: #9aa4ae;
    --background: #15181c;
    --surface: #1d2126;
    --border: #39414a;
    --accent: #3fb68b;
    --accent-text: #0b1a14;
    --danger: #f47067;
    --notice: #16332a;
    --alert: #3b1d1b;
  }
}
* { box-sizing: border-box; }
body {
  margin: 0;
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  color: var(--text);
  background: var(--background);
}
header.top {
  display: flex;
  flex-wrap: wrap;
  gap: 0 1rem;
  justify-content: space-between;
  align-items: center;
  padding: 0.75rem 1.5rem;
  background: var(--surface);
  border-bottom: 1px solid var(--border);
}
.brand { font-weight: 700; color: var(--accent); text-decoration: none; font-size: 1.1rem; }
.who { color: var(--muted); font-size: 0.9rem; overflow-wrap: anywhere; min-width: 0; }
main { max-width: 46rem; margin: 2rem auto; padding: 0 1.25rem; }
h1 { font-size: 1.6rem; margin: 0 0 1rem; }
h2 { font-size: 1.2rem; margin: 0 0 0.75rem; }
a { color: var(--accent); }
nav.site {
  display: flex;
  flex-wrap: wrap;
  gap: 0.5rem 1rem;
  align-items: center;
  max-width: 46rem;
  margin: 1.25rem auto 0;
  padding: 0 1.25rem;
}
nav.site form { margin: 0 0 0 auto; }
nav.site a[aria-current="page"] { color: var(--text); font-weight: 700; text-decoration: none; }
nav.site + main { margin-top: 1.25rem; }
section, .card {
  background: var(--surface);
  border: 1px solid var(--border);
  border-radius: 8px;
  padding: 1.25rem 1.5rem;
  margin-bottom: 1.25rem;
}
form.card { max-width: 26rem; }
dl { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 0.35rem 1.25rem; margin: 0; }
dt { color: var(--muted); }
dd { margin: 0; overflow-wrap: anywhere; }
label { display: block; font-weight: 600; margin: 0.75rem 0 0.25rem; }
input[type="email"], input[type="password"], input[type="text"], input[type="url"], select {
  width: 100%;
  padding: 0.55rem 0.7rem;
  font: inherit;
  color: inherit;
  background: var(--background);
  border: 1px solid var(--border);
  border-radius: 6px;
}
input:focus, button:focus { outline: 2px solid var(--accent); outline-offset: 2px; }
button {
  margin-top: 1rem;
  padding: 0.55rem 1.1rem;
  font: inherit;
  font-weight: 600;
  color: var(--accent-text);
  background: var(--accent);
  border: 0;
  border-radius: 6px;
  cursor: pointer;
}
button.secondary { color: var(--text); background: transparent; border: 1px solid var(--border); }
button.danger { color: #ffffff; background: var(--danger); }
nav.site button, td button, p.copy button { margin-top: 0; }
table { width: 100%; border-collapse: collapse; }
th, td { text-align: left; vertical-align: top; padding: 0.6rem 0.5rem; border-bottom: 1px solid var(--border); }
th { color: var(--muted); font-weight: 600; font-size: 0.9rem; }
ul.scopes { margin: 0; padding-left: 1.1rem; }
.notice, .error { padding: 0.6rem 0.9rem; border-radius: 6px; margin: 0 0 1rem; }
.notice { background: var(--notice); }
.error { background: var(--alert); color: var(--danger); }
.hint { color: var(--muted); font-size: 0.9rem; }
.status-good { color: var(--accent); font-weight: 600; }
.status-bad { color: var(--danger); font-weight: 600; }
pre {
  overflow-x: auto;
  padding: 0.75rem;
  background: var(--background);
  border: 1px solid var(--border);
  border-radius: 6px;
}
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9rem; }
.token { border-color: var(--accent); }
fieldset.events { border: 0; padding: 0; margin: 0.75rem 0 0; }
fieldset.events legend { font-weight: 600; padding: 0; margin-bottom: 0.25rem; }
label.check { font-weight: 400; margin: 0.3rem 0; }
section#log { overflow-x: auto; }
table.log { font-size: 0.9rem; }
table.log td, table.log th { padding: 0.45rem 0.35rem; }
table.log button { padding: 0.35rem 0.7rem; }
.wrap { overflow-wrap: anywhere; }
nav.paging { display: flex; gap: 1.5rem; margin-top: 1rem; }
.skip-link {
  position: absolute;
  left: 0.75rem;
  top: -3rem;
  padding: 0.5rem 0.9rem;
  color: var(--accent-text);
  background: var(--accent);
  border-radius: 6px;
  z-index: 1;
}
.skip-link:focus { top: 0.75rem; }
a:focus-visible, select:focus { outline: 2px solid var(--accent); outline-offset: 2px; }
h3 { font-size: 1rem; margin: 1rem 0 0.25rem; }
.copyable code { overflow-wrap: anywhere; font-size: 1rem; }
ul.apps { margin: 0 0 0.75rem; padding-left: 1.1rem; }
ol.activity { list-style: none; margin: 1rem 0 0; padding: 0; overflow-wrap: anywhere; }
ol.activity li { border-top: 1px solid var(--border); padding: 0.6rem 0; }
ol.activity p { margin: 0.15rem 0; }
ol.activity .when { color: var(--muted); font-size: 0.9rem; }
form.filters { display: flex; flex-wrap: wrap; gap: 0 1rem; align-items: flex-end; }
form.filters div { flex: 1 1 12rem; min-width: 0; }
pre.wrap { white-space: pre-wrap; overflow-wrap: anywhere; }
p.copy { margin: 0.5rem 0 0.75rem; }
ul.plain { margin: 0; padding: 0; list-style: none; }
ul.grants { list-style: none; margin: 0; padding: 0; }
ul.grants > li {
  background: var(--surface);
  border: 1px solid var(--border);
  border-radius: 8px;
  padding: 1.25rem 1.5rem;
  margin-bottom: 1.25rem;
  overflow-wrap: anywhere;
}
ul.grants dl { grid-template-columns: minmax(6rem, max-content) minmax(0, 1fr); }
/* On a phone a table's row becomes a small card: each cell under its column's name. */
@media (max-width: 40rem) {
  table.stacked thead {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
  table.stacked tr { display: block; padding: 0.5rem 0; border-bottom: 1px solid var(--border); }
  table.stacked td {
    display: grid;
    grid-template-columns: 7.5rem minmax(0, 1fr);
    gap: 0.75rem;
    padding: 0.15rem 0;
    border: 0;
    overflow-wrap: anywhere;
  }
  table.stacked td::before { color: var(--muted); font-weight: 600; font-size: 0.9rem; }
  table.sessions td:nth-child(1)::before { content: "Browser"; }
  table.sessions td:nth-child(2)::before { content: "Address"; }
  table.sessions td:nth-child(3)::before { content: "Signed in"; }
  table.sessions td:nth-child(4)::before { content: "Last active"; }
  table.webhooks td:nth-child(1)::before { content: "Receiver"; }
  table.webhooks td:nth-child(2)::before { content: "Events"; }
  table.webhooks td:nth-child(3)::before { content: "Deliveries"; }
  table.webhooks td:nth-child(4)::before { content: "Created"; }
  table.log td:nth-child(1)::before { content: "Created (UTC)"; }
  table.log td:nth-child(2)::before { content: "Event"; }
  table.log td:nth-child(3)::before { content: "Status"; }
  table.log td:nth-child(4)::before { content: "Answer"; }
  table.log td:nth-child(5)::before { content: "Attempts"; }
  table.log td:nth-child(6)::before { content: "Next (UTC)"; }
  table.log td:nth-child(7):empty { display: none; }
}
@media (max-width: 30rem) {
  main, nav.site { padding: 0 0.75rem; }
  section, .card, ul.grants > li { padding: 1rem; }
  header.top { padding: 0.75rem; }
}
/* consent */
.scope-group h2 { font-size: 1rem; margin: 0.75rem 0 0.25rem; }
.scope-group h2 .hint { font-weight: 400; }
.scope-group label { font-weight: 400; margin: 0.3rem 0; overflow-wrap: anywhere; }
.held { margin-top: 1rem; }
.held > p { margin: 0; }
.in-your-name {
  display: inline-block;
  margin-left: 0.35rem;
  padding: 0 0.5rem;
  color: var(--danger);
  border: 1px solid currentColor;
  border-radius: 999px;
  font-size: 0.85rem;
  font-weight: 600;
}
.in-your-name::before { content: "\\2709\\FE0E  "; }
`;
