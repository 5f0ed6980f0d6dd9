/* global document, location, URLSearchParams, sessionStorage, history, fetch, setTimeout */
// The fleet dashboard: every rig's sessions with each die's verdict as
// `dicerig report` gives it, and each campaign's progress across the rigs and
// its findings (rig effects, RIG_SUSPECT), read from the server every few
// seconds. Read-only: there is nothing here to press. Every value is put on
// the page as text (live.js `el`), never as HTML.
import { clear, el } from './live.js';

const $ = (id) => document.getElementById(id);
// Until the server says how often it reads the store (`serve --poll`); asking more often only fetches the same state.
let pollMs = 2000;

// Beyond loopback the reads need the API token: from the page address (#token=...) once, then kept for this tab.
const fromHash = new URLSearchParams(location.hash.slice(1)).get('token');
if (fromHash) {
  sessionStorage.setItem('dicerig-token', fromHash);
  history.replaceState(null, '', location.pathname + location.search);
}
const token = sessionStorage.getItem('dicerig-token') ?? '';

const count = (n) => Number(n).toLocaleString('en-US');
const time = (ms) => new Date(ms).toLocaleTimeString('en-GB');
const plural = (n, one, many = `${one}s`) => `${count(n)} ${n === 1 ? one : many}`;

// A wide table scrolls sideways in a box of its own (focusable, named, so a keyboard can scroll it), never the page.
function table(name, head, rows, attrs = {}) {
  return el('div', { class: 'scroll', tabindex: '0', role: 'region', 'aria-label': `${name} (scrolls sideways)` },
    el('table', attrs, el('caption', { class: 'visually-hidden', text: name }), el('thead', {}, el('tr', {}, ...head.map((h) => el('th', { text: h })))), el('tbody', {}, ...rows)));
}

function renderCampaign(c) {
  const rigs = c.rigs.map((r) =>
    el('tr', { 'data-rig': r.rig },
      el('td', { text: `rig ${r.rig}` }),
      el('td', { 'data-col': 'done', text: r.done }),
      el('td', { 'data-col': 'claimed', text: r.claimed }),
      el('td', { 'data-col': 'pending', text: r.pending }),
      el('td', { 'data-col': 'throws', text: count(r.throws) }),
      el('td', { text: r.holding.length > 0 ? r.holding.join(' ') : '-' })));
  const findings = [
    ...(c.biasedRigs.length === 0
      ? [el('p', { class: 'findings verdict', text: c.unclearRigs.length === 0 ? 'No rig is found biased.' : 'No rig is found biased yet: an unclear rig below waits for its unresolved rolls to be reviewed.' })]
      : c.biasedLines.map((b) => el('p', { class: 'findings biased', 'data-rig': b.rigs.join(' '), text: b.text }))),
    ...c.unclearRigs.map((u) => el('p', { class: 'findings unclear', 'data-rig': u.rig, text: `RIG UNCLEAR: ${u.reason} (${u.die} dice). Its sessions' verdicts stand.` })),
    ...(c.toReview.length === 0
      ? []
      : [
          el('p', { class: 'findings', text: "To settle them, label the unresolved rolls on each rig's host, then sync:" }),
          el('ul', { class: 'to-review' }, ...c.toReview.map((r) => el('li', { 'data-rig': r.rig }, el('code', { text: `dicerig review "${r.sessionName}"${r.store !== undefined ? ` --db "${r.store}"` : ''}` }), ` on rig ${r.rig}${r.host !== undefined ? `'s host ${r.host}` : ''} (${plural(r.unresolved, 'unresolved roll')})`))),
        ]),
  ];
  const legs = c.dice.map((d) =>
    el('tr', { 'data-die': d.label, 'data-rig': d.rig },
      el('td', { text: d.label }),
      el('td', { text: `rig ${d.rig}` }),
      el('td', { text: count(d.rolls) }),
      el('td', { class: `state-${d.kind}`, 'data-col': 'verdict', text: d.kind }),
      el('td', { class: 'sentence', text: `${d.sentence}${d.sessionKind !== undefined ? ` (the session said ${d.sessionKind})` : ''}` }),
      el('td', { text: d.fleetSession === null ? 'not synced' : `#${d.fleetSession}` })));
  const pooled = c.pooled.map((d) =>
    el('tr', { 'data-die': d.die },
      el('td', { text: d.die }),
      el('td', { text: d.type }),
      el('td', { class: `state-${d.kind}`, 'data-col': 'verdict', text: d.kind }),
      el('td', { 'data-col': 'rigs', text: d.rigs.length > 0 ? d.rigs.join(', ') : '-' }),
      el('td', { text: count(d.rolls) }),
      el('td', { 'data-col': 'unresolved', text: count(d.unresolved) }),
      el('td', { text: d.pHolm === null ? '-' : Number(d.pHolm).toPrecision(2) }),
      el('td', { 'data-col': 'finding', class: 'sentence' }, el('div', { text: d.sentence }), ...d.disagreements.map((x) => el('div', { class: 'note disagreement', text: x })))));
  return el('div', { class: 'campaign', 'data-campaign': c.name },
    el('h3', { text: `Campaign ${c.name}` }),
    el('p', { class: 'progress', text: `${c.legsDone} of ${c.legs} legs done (${plural(c.batches, 'batch', 'batches')} taken); ${plural(c.sessions, 'session')} (${c.synced} synced), ${plural(c.throws, 'throw')} in the fleet store.` }),
    el('p', { class: 'note error-control', text: `Error control: ${c.errorControl}` }),
    el('div', { class: 'overview' },
      el('div', {}, el('h3', { text: 'Progress on each rig (legs: a die on a rig)' }), table('Progress on each rig', ['Rig', 'Done', 'Rolling', 'To do', 'Throws', 'Holding now'], rigs, { class: 'rigs' })),
      el('div', {}, el('h3', { text: 'Rig effects (each rig against the rest, on the dice they share)' }), ...c.rigTests.map((t) => el('p', { class: 'findings test', text: t })), ...findings)),
    ...(pooled.length > 0
      ? [
          el('h3', { text: "The campaign's verdict for each die" }),
          el('p', { class: 'note', text: 'Its rolls on the trusted rigs pooled: G test against the expected odds, Holm across every die of the box; descriptive where a session stopped early; a die with unresolved rolls is UNFAIR only if it is whatever they were.' }),
          table("The campaign's verdict for each die", ['Die', 'Type', 'Verdict', 'Trusted rigs', 'Rolls', 'Unresolved', 'p (Holm)', 'Finding'], pooled, { class: 'pooled' }),
        ]
      : []),
    el('h3', { text: "Dice on each rig they visited (each leg's own session verdict: detail, not the campaign's verdict)" }),
    legs.length > 0 ? table('Dice on each rig', ['Die', 'Rig', 'Rolls', 'Verdict', 'Finding', 'Session'], legs, { class: 'legs' }) : el('p', { class: 'note', text: 'nothing rolled yet' }));
}

function renderVerdicts(v, throwCount) {
  if (v === null) return [el('div', { class: 'note', text: 'reading its verdicts…' })];
  const dice = v.dice.map((d) =>
    el('div', { class: 'die', 'data-die': d.label },
      el('strong', { text: d.label }), ' ',
      el('span', { class: `verdict state-${d.kind}`, text: d.verdict }),
      // Counted as the verdict and the report count them: every roll, with those left unresolved said.
      el('span', { class: 'note', text: ` · ${d.type} · ${plural(d.rolls, 'roll')}${d.unresolved > 0 ? ` (${count(d.unresolved)} unresolved)` : ''}` }),
      el('div', { class: 'sentence', text: d.sentence })));
  return [
    // A copy's row shows the verdicts of the session it copies, saying so first, as its report does.
    v.inPlaceOf !== null ? el('div', { class: 'note in-place-of-copy', text: v.inPlaceOf }) : null,
    ...dice,
    // The error control the session decided them at, in its words, as its report and run summary give it.
    v.errorControl !== null ? el('div', { class: 'note error-control', 'data-col': 'error-control', text: `Error control: ${v.errorControl}` }) : null,
    v.note !== null ? el('div', { class: 'note', text: v.note }) : null,
    v.throwsThen < throwCount ? el('div', { class: 'note', 'data-col': 'as-of', text: `verdicts as of ${time(v.madeAt)} (${plural(v.throwsThen, 'throw')}); remade every little while as throws arrive` }) : null,
    ...v.problems.map((p) => el('div', { class: 'problem', text: p })),
  ];
}

// Each cell names its column (data-label): on a phone the rows are cards, each cell a line under its column's name.
// The table's roles are given outright, so a screen reader keeps its rows and headers when the cards' CSS unmakes the table's boxes.
const cell = (label, attrs, ...children) => el('td', { role: 'cell', 'data-label': label, ...attrs }, ...children);

function renderSession(s) {
  const partial = s.throwCount < s.localThrowCount;
  return el('tr', { role: 'row', 'data-session': s.id },
    cell('Fleet id', { text: `#${s.id}` }),
    cell('Rig host', { text: s.originHost }),
    cell('Store file', { 'data-col': 'store-file', title: s.originDb, text: s.storeFile }),
    cell('Host:id', { 'data-col': 'host-key', text: s.hostKey }),
    cell('Rig', { text: s.rigId ?? '-' }),
    // The session's name heads its row (and its card).
    el('th', { role: 'rowheader', scope: 'row', 'data-label': 'Session', 'data-col': 'session' }, el('div', { text: s.name ?? '(unnamed)' }), s.campaign !== null && !(s.name ?? '').startsWith(`campaign ${s.campaign} `) ? el('div', { class: 'note', text: `campaign ${s.campaign}` }) : null, s.simulated ? el('div', { class: 'note', text: 'SIMULATED' }) : null),
    cell('Throws', { 'data-col': 'throws', text: partial ? `${count(s.throwCount)} of ${count(s.localThrowCount)}` : count(s.throwCount) }),
    cell('Status', { 'data-col': 'status', class: s.stateText !== s.state ? 'quiet' : undefined, text: `${s.stateText}${partial ? ' (still being copied)' : ''}` }),
    cell('Dice and verdicts', { 'data-col': 'verdicts' }, ...renderVerdicts(s.verdicts, s.throwCount), el('div', { class: 'command', text: s.reportCommand })));
}

// Text is written only when it changes: rewriting it would drop a selection in it (a report command being copied).
function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

/**
 * Puts `items` in `container` in order, one element each (made by `make`), keeping the element of an item whose
 * data has not changed since the last poll: a selection in it, and a screen reader's place, survive the poll.
 * `shown` maps each item's key to its data (as JSON) and element, from one poll to the next.
 */
function patch(container, items, key, make, shown) {
  let at = container.firstElementChild;
  const keys = new Set();
  for (const item of items) {
    const k = key(item);
    const json = JSON.stringify(item);
    const old = shown.get(k);
    const node = old !== undefined && old.json === json && old.node.parentNode === container ? old.node : make(item);
    if (old !== undefined && old.node !== node && old.node.parentNode === container) {
      if (at === old.node) at = node;
      old.node.replaceWith(node);
    }
    shown.set(k, { json, node });
    keys.add(k);
    if (node === at) at = at.nextElementSibling;
    else container.insertBefore(node, at);
  }
  while (at !== null) {
    const next = at.nextElementSibling;
    at.remove();
    at = next;
  }
  for (const k of [...shown.keys()]) if (!keys.has(k)) shown.delete(k);
}

const shownCampaigns = new Map();
const shownSessions = new Map();

// The store's status: the notice, the connection state and when it was last read (also on an unchanged poll's 304).
function renderStatus(state) {
  setText($('store'), state.store);
  const notice = $('notice');
  if (state.problem !== null) {
    const what = state.unreachable ? 'fleet store unreachable' : 'fleet store cannot be read';
    setText(notice, `${what}: ${state.problem} — last updated ${state.readAt === null ? 'never' : time(state.readAt)}; retrying (the page shows what it last read).`);
    notice.hidden = false;
    $('connection').dataset.status = 'failing';
    setText($('connection-state'), 'fleet store unreachable');
  } else {
    notice.hidden = true;
    $('connection').dataset.status = 'live';
    setText($('connection-state'), 'live');
  }
  // Beside the status, not in it: a time that changes every read would be announced every read.
  setText($('updated'), state.readAt === null ? '' : ` · updated ${time(state.readAt)}`);
}

function render(state) {
  renderStatus(state);
  const campaigns = $('campaigns');
  if (state.campaigns.length === 0) {
    shownCampaigns.clear();
    if (campaigns.querySelector('.campaign') !== null || campaigns.firstElementChild === null) {
      clear(campaigns);
      campaigns.append(el('p', { class: 'note', text: 'none' }));
    }
  } else {
    patch(campaigns, state.campaigns, (c) => c.name, renderCampaign, shownCampaigns);
  }
  patch(document.querySelector('#sessions tbody'), state.sessions, (s) => s.id, renderSession, shownSessions);
  $('no-sessions').hidden = state.sessions.length > 0;
  const hosts = new Set(state.sessions.map((s) => s.originHost));
  setText($('session-totals'), `(${plural(state.sessions.length, 'session')} from ${plural(hosts.size, 'rig host')})`);
  document.body.dataset.ready = 'true';
}

// The last state shown and its ETag: the server answers 304, no body, while the fleet's state is unchanged.
let shown = null;
let etag = null;

async function poll() {
  try {
    const headers = token ? { authorization: `Bearer ${token}` } : {};
    if (etag !== null) headers['if-none-match'] = etag;
    // no-store: the page keeps the state itself, and a 304 must reach it as a 304, not as the browser cache's copy.
    const r = await fetch('/api/fleet', { headers, cache: 'no-store' });
    if (r.status === 304 && shown !== null) {
      // Nothing changed but when the store was read: the status (the connection back after a failed poll) and the time.
      const readAt = Number(r.headers.get('x-fleet-read-at'));
      shown = { ...shown, readAt: r.headers.get('x-fleet-read-at') && Number.isFinite(readAt) ? readAt : shown.readAt };
      renderStatus(shown);
    } else {
      const answer = await r.json();
      if (!r.ok) throw new Error(`${r.status}: ${answer.error ?? ''}`);
      // Not below 250 ms: beyond loopback the server allows a client 4 reads a second.
      if (Number.isFinite(answer.pollMs)) pollMs = Math.max(250, answer.pollMs);
      render(answer);
      shown = answer;
      etag = r.headers.get('etag');
    }
  } catch (e) {
    $('connection').dataset.status = 'reconnecting';
    setText($('connection-state'), `dashboard server not answering (${e.message}), retrying…`);
  }
  setTimeout(poll, pollMs);
}
void poll();
