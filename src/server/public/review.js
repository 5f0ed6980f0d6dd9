/* global document, fetch, setTimeout, clearTimeout, window */
// The review page: every text from the store goes in through textContent (never innerHTML),
// so a die label or a reason cannot become markup; the CSP forbids inline script as well.
const $ = (id) => document.getElementById(id);
let rolls = [];
// The card the keys act on, and the cards a face pressed now labels (shift-click a range, ctrl-click one more, or a
// die's "select" button: the same logo on every roll of a die is labelled at once).
let selected = 0;
let chosen = new Set();
let anchor = 0;
// The command that starts this page's server again (from the server, so it names this session and store).
let restart = 'dicerig review';
const GONE = () => `the review server is not running (start ${restart} again)`;

// A request to the review server: its answer, or { gone: true } when the server cannot be reached (it was stopped).
async function ask(url, init) {
  let res;
  try {
    res = await fetch(url, init);
  } catch {
    return { gone: true };
  }
  let body;
  try {
    body = await res.json();
  } catch {
    body = { error: `the review server answered ${res.status} without saying why` };
  }
  return { ok: res.ok, status: res.status, body };
}

function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

function showDice(dice) {
  const body = $('dice').tBodies[0];
  body.replaceChildren(
    ...dice.map((d) => {
      const tr = el('tr');
      tr.dataset.die = d.label;
      const pick = el('td', 'pick');
      const left = rolls.filter((r) => r.die === d.label && toLabel(r)).length;
      if (left > 1) {
        const b = el('button', '', `select its ${left}`);
        b.type = 'button';
        b.title = `select every crop of ${d.label} still to label; look at them, then press the face they all show`;
        b.addEventListener('click', () => chooseDie(d.label));
        pick.append(b);
      }
      tr.append(el('td', 'label', d.label), el('td', 'kind', d.kind), el('td', 'resolved', String(d.resolved)), el('td', 'reviewed', String(d.reviewed)), el('td', 'unresolved', d.cannotTell > 0 ? `${d.unresolved} (${d.cannotTell} nobody could tell)` : String(d.unresolved)), el('td', 'sentence', d.sentence), pick);
      return tr;
    }),
  );
}

function showLeft() {
  const left = rolls.filter((r) => !r.label).length;
  $('left').textContent = `(${left} left)`;
  $('done').hidden = left > 0;
  return left;
}

// A saved answer said in the polite status region (#message is for what went wrong, and is cleared on success):
// a screen reader hears what was stored, and how many are left, or that none are.
function announce(what) {
  const left = showLeft();
  $('saved').textContent = `${what}; ${left > 0 ? `${left} left` : 'none left: every unresolved roll of this session has been looked at'}`;
}

// A card still to label: no answer stored, and none on its way to the server.
const toLabel = (r) => !r.label && r.pending === undefined;
// A card whose answer can be corrected: one stored, and no label on its way.
const answered = (r) => Boolean(r.answer) && r.pending === undefined;
// The kind of card the selection holds, set by the card it starts on: cards to label, or (begun on a labelled card)
// cards to correct; never both, as a face pressed means a label for the one and a correction for the other.
let picks = toLabel;
const kindOf = (r) => (answered(r) ? answered : toLabel);

const rollWords = (r) => `Roll ${r.rollId} (${r.die}, throw ${r.throwIndex})`;
const faceWords = (face) => (face === null ? "can't tell" : face);

function showChosen() {
  rolls.forEach((r, j) => {
    r.card.classList.toggle('selected', j === selected);
    r.card.classList.toggle('chosen', chosen.has(j) && chosen.size > 1);
  });
  const n = chosen.size;
  const what = picks === answered ? `${n} labelled crops selected: press "correct" (or c), then the right face, to correct all ${n}` : `${n} crops selected: a face pressed now labels all ${n}`;
  $('selection').textContent = n > 1 ? `${what} (Esc: just one)` : '';
}

// how.focus false: the highlight moves but focus stays where it is (a refresh, or focus already inside the card);
// how.first: focus goes to the card without scrolling the page (on load).
function select(i, how = {}) {
  if (rolls.length === 0) return;
  i = Math.max(0, Math.min(rolls.length - 1, i));
  // Moving to another card leaves a correction not given: the answers stay as they were.
  if (i !== selected) stopCorrecting();
  if (how.range) {
    chosen = new Set();
    for (let j = Math.min(anchor, i); j <= Math.max(anchor, i); j++) if (picks(rolls[j])) chosen.add(j);
  } else if (how.toggle) {
    if (chosen.size === 0) picks = kindOf(rolls[i]);
    if (chosen.has(i)) chosen.delete(i);
    else if (picks(rolls[i])) chosen.add(i);
    anchor = i;
  } else {
    picks = kindOf(rolls[i]);
    chosen = new Set(picks(rolls[i]) ? [i] : []);
    anchor = i;
  }
  selected = i;
  showChosen();
  const c = rolls[selected].card;
  if (how.focus === false) return void c.scrollIntoView({ block: 'nearest' });
  c.focus({ preventScroll: Boolean(how.first) });
  if (!how.first) c.scrollIntoView({ block: 'nearest' });
}

// The card the keyboard is in (-1: none): a key acts there, not on a highlight left elsewhere.
function focusedCard() {
  const c = document.activeElement?.closest?.('.crop');
  return c ? rolls.findIndex((r) => r.card === c) : -1;
}

// Set by a pointer press: its click selects (shift/ctrl-click ranges need the anchor the focus would reset).
let pointing = false;
document.addEventListener('pointerdown', () => (pointing = true), true);
// A shift-click on a card picks a range of cards; the browser would also select the text from the last click to it.
document.addEventListener('mousedown', (ev) => {
  if (ev.shiftKey && ev.target.closest?.('.crop')) ev.preventDefault();
});
document.addEventListener('focusin', () => {
  if (pointing) return void (pointing = false);
  const i = focusedCard();
  if (i >= 0 && i !== selected) select(i, { focus: false });
});

function chooseDie(die) {
  const picked = rolls.flatMap((r, j) => (r.die === die && toLabel(r) ? [j] : []));
  if (picked.length === 0) return;
  select(picked[0]);
  chosen = new Set(picked);
  showChosen();
}

function card(r, i) {
  const c = el('div', 'crop');
  c.dataset.roll = String(r.rollId);
  // A card takes focus, so the keys act where the keyboard is and a screen reader names the roll.
  c.tabIndex = 0;
  c.setAttribute('role', 'group');
  c.setAttribute('aria-label', `roll ${r.rollId}, ${r.die}, throw ${r.throwIndex}`);
  const img = el('img');
  img.alt = r.crop ? `crop of roll ${r.rollId}` : 'no crop stored';
  if (r.crop) img.src = `/api/crops/${r.rollId}`;
  const faces = el('div', 'faces');
  r.faces.forEach((f, k) => {
    const b = el('button', '', f);
    b.type = 'button';
    b.title = k < 8 ? `key ${k + 1}` : '';
    b.dataset.face = f;
    // "1" alone says nothing of which roll it labels to a screen reader moving from button to button.
    b.setAttribute('aria-label', `roll ${r.rollId}, ${r.die} throw ${r.throwIndex}: face ${f}`);
    b.addEventListener('click', (ev) => {
      ev.stopPropagation();
      if (rolls[i].correcting) return void correct(i, f);
      // A face on a card of the selection labels the selection; on any other card, that card alone.
      if (!(chosen.has(i) && chosen.size > 1)) select(i, { focus: false });
      void labelChosen(f);
    });
    faces.append(b);
  });
  // No face to tell (the die cut off, blurred, hidden or not there): the roll stays unresolved, off this list for good.
  const none = el('button', 'cannot-tell', "can't tell");
  none.type = 'button';
  none.setAttribute('aria-label', `roll ${r.rollId}, ${r.die} throw ${r.throwIndex}: can't tell`);
  none.title = 'key 0: the crop shows no face you can tell; the roll stays unresolved and every verdict holds whatever it was';
  none.addEventListener('click', (ev) => {
    ev.stopPropagation();
    if (rolls[i].correcting) return void correct(i, null);
    if (!(chosen.has(i) && chosen.size > 1)) select(i, { focus: false });
    void labelChosen(null);
  });
  faces.append(none);
  // A labelled card can be corrected: the button opens its faces again, the earlier answer kept as history.
  const fix = el('button', 'correct', 'correct');
  fix.type = 'button';
  fix.hidden = true;
  fix.title = 'key c: the label is wrong (of every labelled crop selected, when this is one): press the right face (or 0, can\'t tell); the earlier label stays in the history';
  fix.addEventListener('click', (ev) => {
    ev.stopPropagation();
    startCorrecting(i);
  });
  c.append(img, el('div', 'die', `${r.die} (${r.dieType}), throw ${r.throwIndex}`), el('div', 'guess', `reader: ${r.guess ?? 'no reading stored'}`), el('div', 'reason', `why: ${r.reason ?? 'no reason stored'}`), faces, el('div', 'label'), el('div', 'earlier'), fix);
  c.addEventListener('click', (ev) => select(i, { range: ev.shiftKey, toggle: ev.ctrlKey || ev.metaKey }));
  return c;
}

const answerWords = (a) => (a.cannotTell ? `can't tell (${a.reviewer})` : `${a.face} (${a.reviewer})`);

// While its label is stored (a second or so), a card is shut and the keys go on to the next: a face typed meanwhile
// labels that one, instead of reaching this card again and being refused as answered already.
function markSaving(r, face) {
  r.pending = face;
  r.card.classList.add('saving');
  r.card.querySelector('.label').textContent = `saving ${faceWords(face)}…`;
  r.card.querySelectorAll('.faces button').forEach((b) => (b.disabled = true));
}

// A label the server did not store: the card is open again, as it was.
function unmarkSaving(r) {
  delete r.pending;
  r.card.classList.remove('saving');
  if (r.label) return;
  r.card.querySelector('.label').textContent = '';
  r.card.querySelectorAll('.faces button').forEach((b) => (b.disabled = false));
}

function markLabelled(r, review) {
  delete r.pending;
  r.card.classList.remove('saving');
  r.label = review.cannotTell ? "can't tell" : review.face;
  r.answer = review;
  r.correcting = false;
  r.card.classList.add('labelled');
  r.card.classList.remove('correcting');
  const corrected = review.earlier && review.earlier.length > 0 ? ' (corrected)' : '';
  r.card.querySelector('.label').textContent = (review.cannotTell ? `${review.reviewer} could not tell its face: it stays unresolved` : `labelled ${review.face} by ${review.reviewer}`) + corrected;
  r.card.querySelector('.earlier').textContent = corrected ? `earlier: ${review.earlier.map(answerWords).join(', then ')}` : '';
  r.card.querySelectorAll('.faces button').forEach((b) => (b.disabled = true));
  r.card.querySelector('button.correct').hidden = false;
}

// The answers the server holds (given in this tab, another tab, or by another person, or corrected), shown on their cards.
function showAnswers(answers) {
  let moved;
  for (const a of answers) {
    const r = rolls.find((x) => x.rollId === a.rollId);
    if (r && r.answer?.id !== a.id) {
      if (r.correcting) moved = r;
      markLabelled(r, a);
    }
  }
  // An answer changed elsewhere under a batch correction: the person chose the batch without seeing it, so none is given.
  if (moved && rolls.some((x) => x.correcting)) {
    stopCorrecting();
    $('message').textContent = `${rollWords(moved)} was answered again meanwhile (${answerWords(moved.answer)}): look at it, then correct again.`;
  }
}

// The cards being corrected, in page order.
const correcting = () => rolls.flatMap((r, j) => (r.correcting ? [j] : []));

// "correct" on a card of a selection of labelled cards opens them all; on any other card, that card alone.
function startCorrecting(i) {
  const r = rolls[i];
  if (!r.answer) return;
  const batch = picks === answered && chosen.has(i) && chosen.size > 1 ? [...chosen].sort((a, b) => a - b) : [i];
  if (batch.length === 1) select(i);
  else {
    // The selection stays; the keys act on this card from now on.
    selected = i;
    showChosen();
  }
  for (const j of batch) {
    rolls[j].correcting = true;
    rolls[j].card.classList.add('correcting');
    rolls[j].card.querySelectorAll('.faces button').forEach((b) => (b.disabled = false));
  }
  $('message').textContent =
    batch.length === 1
      ? `Correcting roll ${r.rollId} (${answerWords(r.answer)}): press the right face, or 0 if you cannot tell (Esc: keep it).`
      : `Correcting ${batch.length} crops (${answersSummary(batch)}): press the right face, or 0 if you cannot tell (Esc: keep them).`;
}

// Every card being corrected goes back to the answer it shows.
function stopCorrecting() {
  const open = correcting();
  if (open.length === 0) return;
  for (const j of open) markLabelled(rolls[j], rolls[j].answer);
  $('message').textContent = '';
}

// The answers of some cards, grouped: "3 say 6 (Ada); 1 says can't tell (Bob)".
function answersSummary(targets) {
  const groups = new Map();
  for (const j of targets) groups.set(answerWords(rolls[j].answer), (groups.get(answerWords(rolls[j].answer)) ?? 0) + 1);
  return [...groups].map(([what, n]) => `${n} ${n === 1 ? 'says' : 'say'} ${what}`).join('; ');
}

// A face (null: can't tell) pressed on card i while correcting: the batch when several cards are open, else that card.
function correct(i, face) {
  const open = correcting();
  return open.length > 1 && open.includes(i) ? correctMany(i, open, face) : correctOne(i, face);
}

// A correction of one card's answer: stored as a new review superseding the one this page shows.
async function correctOne(i, face) {
  const r = rolls[i];
  const answer = face === null ? { cannotTell: true } : { face };
  const res = await ask(`/api/rolls/${r.rollId}/correct`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ supersedes: r.answer.id, ...answer }) });
  if (res.gone) {
    $('message').textContent = `not saved: ${GONE()}`;
    return;
  }
  if (!res.ok) {
    $('message').textContent = res.body.error;
    if (res.body.stored) showAnswers(res.body.stored);
    return;
  }
  $('message').textContent = '';
  markLabelled(r, res.body.review);
  showDice(res.body.dice);
  announce(`${rollWords(r)} corrected to ${faceWords(face)}`);
  // Its face buttons are shut again: focus goes to its "correct" button rather than being lost to the page.
  r.card.querySelector('button.correct').focus();
}

// Several cards corrected to one face (null: nobody can tell it), each superseding the answer it shows: one request,
// stored all or none. Cards that say that face already are left as they are (the store takes no correction to the
// answer that stands); `i`, the card the face was pressed on, keeps the focus.
async function correctMany(i, open, face) {
  const same = (a) => (face === null ? a.cannotTell : !a.cannotTell && a.face === face);
  const targets = open.filter((j) => !same(rolls[j].answer));
  if (targets.length === 0) return void ($('message').textContent = `All ${open.length} say ${faceWords(face)} already.`);
  const kept = open.length - targets.length;
  const also = kept > 0 ? ` (${kept} that say it already stay as they are)` : '';
  if (!window.confirm(`Correct ${targets.length} crops to ${faceWords(face)}${also}? Their answers now: ${answersSummary(targets)}.`)) return;
  const answer = face === null ? { cannotTell: true } : { face };
  const corrections = targets.map((j) => ({ roll: rolls[j].rollId, supersedes: rolls[j].answer.id }));
  const res = await ask('/api/corrections', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ corrections, ...answer }) });
  if (res.gone) {
    $('message').textContent = `not saved: ${GONE()}`;
    return;
  }
  if (!res.ok) {
    // Nothing was stored: each card shows the answer the server holds, and the counts are the server's.
    stopCorrecting();
    if (res.body.stored) showAnswers(res.body.stored);
    if (res.body.dice) showDice(res.body.dice);
    $('message').textContent = res.body.error;
    return;
  }
  $('message').textContent = '';
  for (const a of res.body.reviews) markLabelled(rolls.find((x) => x.rollId === a.rollId), a);
  stopCorrecting();
  showDice(res.body.dice);
  announce(`${targets.length} rolls corrected to ${faceWords(face)}`);
  rolls[i].card.querySelector('button.correct').focus();
}

// What the reader made of the crops a batch would label, for the question before it: "12 counted 6 pips (confidence 0.91-0.98)".
function readerSummary(targets) {
  const groups = new Map();
  for (const j of targets) {
    const guess = rolls[j].guess ?? 'no reading stored';
    const what = guess.replace(/, confidence [\d.]+$/, '');
    const conf = /confidence ([\d.]+)$/.exec(guess)?.[1];
    const g = groups.get(what) ?? { n: 0, conf: [] };
    g.n += 1;
    if (conf) g.conf.push(conf);
    groups.set(what, g);
  }
  return [...groups]
    .map(([what, g]) => {
      const sorted = g.conf.sort();
      const range = sorted.length === 0 ? '' : sorted[0] === sorted.at(-1) ? ` (confidence ${sorted[0]})` : ` (confidence ${sorted[0]}-${sorted.at(-1)})`;
      return `${g.n} ${what}${range}`;
    })
    .join('; ');
}

// The chosen cards still to label get the face (null: nobody can tell it): one request for them all, stored all or none.
async function labelChosen(face) {
  const targets = [...chosen].sort((a, b) => a - b).filter((j) => toLabel(rolls[j]));
  if (targets.length === 0) {
    if (rolls[selected]?.pending !== undefined) $('message').textContent = `${rollWords(rolls[selected])} is being saved as ${faceWords(rolls[selected].pending)}: press "correct" once it is, to change it.`;
    return;
  }
  const one = targets.length === 1;
  // Many crops at once take one look more: how many, and what the reader had read in them.
  if (!one && !window.confirm(`Label ${targets.length} crops ${face === null ? "can't tell" : face}? The reader had read: ${readerSummary(targets)}.`)) return;
  const answer = face === null ? { cannotTell: true } : { face };
  const post = { method: 'POST', headers: { 'content-type': 'application/json' } };
  for (const j of targets) markSaving(rolls[j], face);
  // The keys go on to the next card to label now, not once the store has answered.
  const last = targets[targets.length - 1];
  const next = rolls.findIndex((x, j) => j > last && toLabel(x));
  const back = rolls.findIndex((x) => toLabel(x));
  if (next >= 0 || back >= 0) select(next >= 0 ? next : back);
  else {
    chosen = new Set();
    showChosen();
  }
  const res = one
    ? await ask(`/api/rolls/${rolls[targets[0]].rollId}/label`, { ...post, body: JSON.stringify(answer) })
    : await ask('/api/labels', { ...post, body: JSON.stringify({ rolls: targets.map((j) => rolls[j].rollId), ...answer }) });
  if (res.gone) {
    for (const j of targets) unmarkSaving(rolls[j]);
    $('message').textContent = `not saved: ${GONE()}`;
    return;
  }
  const body = res.body;
  if (!res.ok) {
    for (const j of targets) unmarkSaving(rolls[j]);
    $('message').textContent = body.error;
    // Answered already (in another tab, say): its card shows the answer stored, and the counts are the server's.
    if (body.stored) {
      showAnswers(body.stored);
      showDice(body.dice);
      showLeft();
      void refresh(false);
    }
    return;
  }
  $('message').textContent = '';
  const reviews = one ? [body.review] : body.reviews;
  targets.forEach((j, k) => markLabelled(rolls[j], reviews[k]));
  showDice(body.dice);
  announce(one ? `${rollWords(rolls[targets[0]])} labelled ${faceWords(face)}` : `${targets.length} rolls labelled ${faceWords(face)}`);
  // Labels given in another tab meanwhile: the count left is the server's.
  void refresh(false);
  // None left to label, and focus still on this card: it goes to its "correct" button rather than being lost.
  if (!rolls.some(toLabel) && rolls[last].card.contains(document.activeElement)) rolls[last].card.querySelector('button.correct').focus();
}

document.addEventListener('keydown', (ev) => {
  // Ctrl, Alt or Meta with a key is the browser's (Ctrl+1 switches tabs), never a label.
  if (ev.ctrlKey || ev.altKey || ev.metaKey) return;
  pointing = false;
  // A digit labels the card holding focus; the highlighted one only when focus is in no card.
  const here = focusedCard();
  if (/^[0-9]$/.test(ev.key) && here >= 0 && here !== selected) select(here, { focus: false });
  if (ev.key === 'ArrowRight') select(selected + 1);
  else if (ev.key === 'ArrowLeft') select(selected - 1);
  else if (ev.key === 'Escape') {
    stopCorrecting();
    select(selected);
  } else if (ev.key === 'c' && rolls[selected]?.answer) startCorrecting(selected);
  else if (ev.key === '0' && rolls[selected]) void (rolls[selected].correcting ? correct(selected, null) : labelChosen(null));
  else if (/^[1-9]$/.test(ev.key)) {
    const r = rolls[selected];
    const face = r?.faces[Number(ev.key) - 1];
    if (r && face !== undefined) void (r.correcting ? correct(selected, face) : labelChosen(face));
    else if (r) $('message').textContent = `A ${r.dieType} die has no face number ${ev.key}.`;
  }
});

// The queue as the server has it now: the session's new unresolved rolls are added (while it runs), and the answers
// given elsewhere (another tab, another person) are shown on their cards. Every few seconds, and when the page is
// looked at again; `again` false for a one-off look.
let timer;
async function refresh(again = true) {
  if (again) clearTimeout(timer);
  const res = await ask('/api/review');
  if (res.gone) {
    $('message').textContent = GONE();
  } else if (res.ok) {
    const data = res.body;
    if ($('message').textContent === GONE()) $('message').textContent = '';
    const known = new Set(rolls.map((r) => r.rollId));
    const added = [...data.rolls, ...data.answered].filter((r) => !known.has(r.rollId));
    for (const r of added) {
      r.card = card(r, rolls.length);
      rolls.push(r);
      $('grid').append(r.card);
    }
    showAnswers(data.answers);
    showDice(data.dice);
    showLeft();
    showOpen(data.session.open);
    // A look at the server never takes the keyboard away from where the person is.
    if (chosen.size > 0 && [...chosen].some((j) => !picks(rolls[j]))) select(selected, { focus: false });
    if (added.length > 0 && chosen.size === 0) select(rolls.findIndex(toLabel), { focus: false });
  }
  if (again) timer = setTimeout(refresh, REFRESH_MS);
}

const REFRESH_MS = 5000;

function showOpen(open) {
  $('open').hidden = !open;
  document.body.dataset.open = String(open);
}

async function start() {
  const res = await ask('/api/review');
  if (res.gone || !res.ok) {
    $('message').textContent = res.gone ? GONE() : res.body.error;
    return;
  }
  const data = res.body;
  restart = data.restart;
  $('title').textContent = data.session.title;
  document.title = `dicerig review ${data.session.title}: unresolved dice`;
  $('sim').hidden = !data.session.simulated;
  $('reviewer').textContent = data.reviewer;
  // The crops to label and those answered already (to be corrected if wrong), in throw order.
  rolls = [...data.rolls, ...data.answered].sort((a, b) => a.throwIndex - b.throwIndex || a.rollId - b.rollId);
  $('grid').replaceChildren(...rolls.map((r, i) => (r.card = card(r, i))));
  showAnswers(data.answers);
  showDice(data.dice);
  showLeft();
  showOpen(data.session.open);
  const first = rolls.findIndex((x) => !x.label);
  select(first >= 0 ? first : 0, { first: true });
  document.body.dataset.ready = 'true';
  timer = setTimeout(refresh, REFRESH_MS);
  window.addEventListener('focus', () => void refresh());
}

void start();
