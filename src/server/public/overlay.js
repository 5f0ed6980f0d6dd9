/* global document, window, location, URLSearchParams, requestAnimationFrame, performance, setTimeout, clearTimeout */
// The OBS overlay: the last roll large with its dice, the modified result and
// a short history. Query parameters: theme (dark, light, plain), size (die
// size in pixels), dice (which die kinds to show, e.g. red,green), history
// (how many earlier rolls), hold (seconds a result stays before the next roll
// is shown). It reconnects by itself, and a finished roll it learns of on
// (re)connecting is shown as an earlier roll, never as a new one.
import { clear, connectLive, el } from './live.js';
import { dieIcon } from './icons.js';
import { nameElement, plainName } from './names.js';

const params = new URLSearchParams(location.search);
// A number from the address, within bounds; absent or not a number ("abc") gives the default.
function numberParam(name, fallback, min, max) {
  const raw = params.get(name);
  const n = raw === null || raw.trim() === '' ? NaN : Number(raw);
  return Number.isFinite(n) ? Math.max(min, Math.min(max, n)) : fallback;
}
const size = numberParam('size', 72, 24, 240);
const theme = ['dark', 'light', 'plain'].includes(params.get('theme')) ? params.get('theme') : 'dark';
const only = (params.get('dice') || '').split(',').map((s) => s.trim()).filter((s) => s !== '');
const keep = Math.floor(numberParam('history', 5, 0, 10));
const holdMs = numberParam('hold', 6, 0, 60) * 1000;
document.body.classList.add(`theme-${theme}`);
document.body.style.setProperty('--size', `${size}px`);

const root = document.getElementById('overlay');
const current = document.getElementById('current');
const who = document.getElementById('who');
const request = document.getElementById('request');
const diceBox = document.getElementById('dice');
const result = document.getElementById('result');
const historyList = document.getElementById('history');
const connection = document.getElementById('connection');

let shown = null; // id of the roll on screen
let history = [];
const shows = (kind) => only.length === 0 || only.includes(kind);
const finished = (state) => state === 'done' || state === 'failed' || state === 'abandoned';

// A failed roll says so in a few words on stream: the server's message is for the streamer (a file path, a command to
// run, a serial port's error), so it is the result line's title, and the dashboard and the console give it in full.
const FAILED = 'failed: the rig could not finish this roll';

function resultText(roll) {
  if (roll.state === 'failed') return FAILED;
  if (roll.state === 'abandoned') return 'abandoned: the server is stopping';
  // Each group's result ("3 red: ... -> 2 damage; 2d6: 3, 4 -> 7"), or its faces when it has no modified result.
  return (roll.line ?? '')
    .split('; ')
    .map((part) => {
      const i = part.lastIndexOf('->');
      return i >= 0 ? part.slice(i + 2).trim() : part.slice(part.indexOf(':') + 1).trim();
    })
    .join('; ');
}

function slot(kind, symbol, note, kept = true) {
  const s = el('div', { class: `die-slot${kept ? '' : ' discarded'}`, 'data-kind': kind, 'data-symbol': symbol });
  s.append(dieIcon(kind, symbol, fitted), el('span', { class: 'note', text: note }));
  return s;
}

// Why a throw is tumbled again, in a few words for viewers, from the code the server sends with it (its own words,
// written for the log, are the result line's title): the throw's, and the note on each die concerned.
const RETUMBLE_WHY = {
  cocked: 'a die is cocked',
  shadow: 'a die is lost in its shadow',
  touching: 'dice are touching',
  stray: 'a die left its channel',
  unreadable: 'a die could not be read',
  missing: 'a die was not found',
  'wrong-die': 'a die is not the one loaded',
  'not-settled': 'the dice did not settle',
  interrupted: 'that throw was interrupted',
};
const DIE_NOTE = { cocked: 'cocked', shadow: 'in its shadow', touching: 'touching', unreadable: 'unreadable', missing: 'not found', 'wrong-die': 'wrong die' };

// A browser source smaller than the row of dice (600x200 with 11 dice) would wrap them and push the result line out
// of sight: the dice shrink to one row that fits the width, then further while the result line would be cut off.
const MIN_DIE = 20;
let fitted = size;
function setDie(px) {
  fitted = px;
  document.body.style.setProperty('--die', `${px}px`);
  for (const icon of diceBox.querySelectorAll('.die')) {
    icon.setAttribute('width', String(px));
    icon.setAttribute('height', String(px));
  }
}

function fitDice() {
  const body = document.body.style;
  setDie(size);
  body.removeProperty('--result');
  const n = diceBox.children.length;
  if (n === 0) return;
  const panel = current.getBoundingClientRect();
  const room = window.innerWidth - 2 * panel.left - (panel.width - diceBox.getBoundingClientRect().width);
  let die = Math.max(MIN_DIE, Math.min(size, Math.floor((room - 8 * (n - 1)) / n)));
  setDie(die);
  const over = () => result.getBoundingClientRect().bottom - window.innerHeight;
  if (over() > 0) {
    die = Math.max(MIN_DIE, die - Math.ceil(over()));
    setDie(die);
  }
  // Smallest dice and still cut off: the result line itself gets smaller.
  for (let f = 0.9; over() > 0 && f >= 0.4; f -= 0.1) body.setProperty('--result', String(f));
}
window.addEventListener('resize', fitDice);

function markShown(rollId, what) {
  // The moment the dice are on screen (next frame), for the latency bench: User Timing marks.
  requestAnimationFrame(() => performance.mark(`shown ${what} ${rollId}`));
}

function showRoll(roll, fresh) {
  shown = roll.id;
  root.dataset.state = roll.state;
  root.dataset.roll = roll.id;
  current.classList.remove('fresh', 'stale');
  void current.offsetWidth;
  // Only a finished roll can be an earlier one: a roll still rolling when the page opens is the one on the rig now.
  if (fresh) current.classList.add('fresh');
  else if (finished(roll.state)) current.classList.add('stale');
  current.dataset.fresh = String(fresh);
  who.textContent = plainName(roll.by);
  request.textContent = roll.request;
  clear(diceBox);
  if (roll.state === 'done') {
    for (const d of roll.dice) {
      if (!shows(d.kind)) continue;
      const note = [d.rerolledFrom !== undefined ? `was ${d.rerolledFrom}` : '', d.modified ? `→ ${d.modified}` : ''].filter((x) => x).join(' ');
      diceBox.append(slot(d.kind, d.symbol, note, d.kept));
    }
  } else {
    // One slot per die asked, in the order asked: a die not yet read is an empty die on its channel, a reroll sits in
    // the place of the die it rerolls ("was blank"), so the row never holds more dice than the roll.
    // Each as the kind asked, as the finished roll shows it (a D3 from a D6 is its numeral, not the D6's pips).
    for (const d of roll.partial ?? []) {
      const kind = d?.kind ?? d?.type;
      if (!d || !shows(kind)) continue;
      const s = slot(kind, d.pending ? '' : d.symbol, d.was !== undefined ? `was ${d.was}` : '');
      Object.assign(s.dataset, { channel: String(d.channel), was: d.was !== undefined ? `was ${d.was}` : '' });
      if (d.pending) s.classList.add('pending');
      diceBox.append(s);
    }
  }
  result.textContent = finished(roll.state) ? resultText(roll) : 'rolling…';
  if (roll.state === 'failed' && roll.error) result.title = roll.error;
  else result.removeAttribute('title');
  fitDice();
  markShown(roll.id, roll.state);
  renderHistory();
}

// Every finished roll but the one on the panel, so a result moves from the panel into the list and is never missing.
function renderHistory() {
  clear(historyList);
  for (const r of history.filter((h) => h.id !== shown).slice(0, keep)) {
    const name = nameElement(r.by);
    historyList.append(el('li', { 'data-roll': r.id }, ...(name ? [name, ': '] : []), `${r.request} → ${resultText(r)}`));
  }
}

function remember(roll) {
  history = [roll, ...history.filter((r) => r.id !== roll.id)].slice(0, 11);
  renderHistory();
}

// Pacing: a result shown new stays on the panel for holdMs, or viewers of a busy queue would see each one for a few
// milliseconds. Rolls that move on meanwhile wait, in order, with their latest state; a roll that finished while
// waiting is then shown finished (not rolling again). Once a later roll has finished too, the result on the panel
// stays only catchUpMs: at the full hold for each result the overlay fell a roll further behind the rig with every
// roll the rig finished faster than the hold (minutes behind after a busy stretch), and now it is at most one behind.
const catchUpMs = Math.min(holdMs, 2000);
let holdTimer = null;
let heldSince = 0;
let holdUntil = 0;
const waiting = new Map();

function holdFor(ms) {
  clearTimeout(holdTimer);
  holdUntil = heldSince + ms;
  holdTimer = setTimeout(release, Math.max(0, holdUntil - performance.now()));
}

function present(roll, fresh) {
  showRoll(roll, fresh);
  if (roll.state === 'done') remember(roll);
  if (fresh && finished(roll.state) && holdMs > 0) {
    heldSince = performance.now();
    holdFor([...waiting.values()].some((r) => finished(r.state)) ? catchUpMs : holdMs);
  }
}

/** A roll that moved on while a result is held waits its turn; once it has finished, the held result's time is cut to catchUpMs. */
function wait(roll) {
  waiting.set(roll.id, roll);
  if (holdTimer !== null && finished(roll.state) && heldSince + catchUpMs < holdUntil) holdFor(catchUpMs);
}

function release() {
  holdTimer = null;
  const next = waiting.values().next().value;
  if (next === undefined) return;
  waiting.delete(next.id);
  present(next, true);
}

function stopHolding() {
  clearTimeout(holdTimer);
  holdTimer = null;
  waiting.clear();
}

connectLive({
  onStatus: (s) => {
    connection.hidden = s === 'live';
  },
  onState: (state) => {
    history = state.history ?? [];
    // Back after a short drop while a result is held: it keeps its time, and the roll under way waits its turn.
    if (holdTimer !== null && history.some((r) => r.id === shown)) {
      if (state.rolling && state.rolling.id !== shown) wait(state.rolling);
      renderHistory();
      return;
    }
    stopHolding();
    renderHistory();
    if (state.rolling) showRoll(state.rolling, false);
    else if (history[0] && history[0].id !== shown) showRoll(history[0], false);
    else if (!history[0]) root.dataset.state = 'empty';
  },
  onEvent: (e) => {
    if (e.type === 'roll') {
      const roll = e.roll;
      if (roll.state === 'cancelled') waiting.delete(roll.id);
      // A waiting roll abandoned at shutdown was never shown; only the one on screen (or next in line) says it was abandoned.
      if (roll.state === 'queued' || roll.state === 'cancelled' || (roll.state === 'abandoned' && roll.id !== shown && !waiting.has(roll.id))) return;
      if (holdTimer !== null && roll.id !== shown) {
        wait(roll);
        return;
      }
      // A rolling roll: the dice kept so far replace the ones shown live.
      present(roll, roll.state !== 'rolling' || shown !== roll.id);
    } else if (e.type === 'die-read' && e.mode === 'stream' && e.counted && e.rollId === shown && root.dataset.state === 'rolling') {
      const kind = e.kind ?? e.dieType;
      if (!shows(kind)) return;
      // The die fills its place: a die of a throw that did not count first, then one this throw declined (read again,
      // it may be called cocked), else the first still waiting on its channel.
      const at =
        diceBox.querySelector(`.die-slot.void[data-channel="${e.channel}"]`) ??
        diceBox.querySelector(`.die-slot.live.declined[data-channel="${e.channel}"]`) ??
        diceBox.querySelector(`.die-slot.pending[data-channel="${e.channel}"]`);
      if (at === null) return;
      const read = e.status === 'read';
      const was = at.dataset.was ?? '';
      // A die the reader declined (cocked, unreadable) is marked with why, so the re-tumble that follows makes sense.
      const s = slot(kind, read ? (e.shows ?? e.symbol) : '', read ? was : e.status);
      s.classList.add('live');
      if (!read) s.classList.add('declined');
      Object.assign(s.dataset, { channel: String(e.channel), status: e.status, was });
      at.replaceWith(s);
      requestAnimationFrame(() => performance.mark(`die ${e.rollId} ${e.frame} ${e.channel} ${e.at}`));
    } else if (e.type === 'retumble' && e.rollId === shown) {
      // That throw did not count: its dice stay dimmed until the next throw reads them, each die concerned saying
      // what the server found (a die the reader declined, then called cocked, is cocked).
      const live = [...diceBox.querySelectorAll('.die-slot.live')];
      for (const s of live) s.classList.replace('live', 'void');
      for (const d of e.dice ?? []) {
        const s = live.find((x) => x.dataset.channel === String(d.channel));
        if (s === undefined || DIE_NOTE[d.code] === undefined) continue;
        s.classList.add('declined');
        s.dataset.status = d.code;
        s.querySelector('.note').textContent = DIE_NOTE[d.code];
      }
      result.textContent = `rolling again: ${RETUMBLE_WHY[e.code] ?? 'that throw did not count'}`;
      result.title = e.reason ?? '';
    }
  },
});
