// tengen's board: the position is kept here (setup stones, the game record, how far along
// it the board is), every answer comes from the server's API, and the board is SVG drawn
// from that state. Coordinates are RIF: column letter from the left, row from the bottom.
'use strict';

const $ = (id) => document.getElementById(id);
const PAGE = Math.random().toString(36).slice(2) + Date.now().toString(36);
const SVGNS = 'http://www.w3.org/2000/svg';
const CELL = 36, MARGIN = 34;

const S = {
  size: 15, rule: 'freestyle',
  setup: { black: [], white: [] }, first: 'black',
  moves: [], cursor: 0,
  forbidden: [], analysis: null, done: false, hover: null,
  solve: null, solveStep: 0, review: null, mark: null, over: null,
  stream: null, request: null,
};

// ---- points ------------------------------------------------------------------------------

const letter = (x) => String.fromCharCode(97 + x);
const name = (x, y) => letter(x) + (y + 1);
function parse(p) {
  return { x: p.charCodeAt(0) - 97, y: parseInt(p.slice(1), 10) - 1 };
}
const at = (p) => { const { x, y } = parse(p); return [MARGIN + x * CELL, MARGIN + (S.size - 1 - y) * CELL]; };
const other = (c) => (c === 'black' ? 'white' : 'black');

// The stones on the board now: the setup, then the record up to the cursor.
function stones() {
  const m = new Map();
  S.setup.black.forEach((p) => m.set(p, 'black'));
  S.setup.white.forEach((p) => m.set(p, 'white'));
  let c = S.first;
  S.moves.slice(0, S.cursor).forEach((p, i) => { m.set(p, c); m.set(p + '#', i + 1); c = other(c); });
  return m;
}
const toMove = () => (S.cursor % 2 === 0 ? S.first : other(S.first));

// The position as text the server reads: a move list when there is no setup, else SGF.
function positionText(upTo = S.cursor) {
  const moves = S.moves.slice(0, upTo);
  const plain = !S.setup.black.length && !S.setup.white.length && S.first === 'black';
  if (plain && moves.length) return moves.join(' ');
  const sgfPoint = (p) => { const { x, y } = parse(p); return letter(x) + letter(S.size - 1 - y); };
  let s = '(;GM[4]SZ[' + S.size + ']';
  if (S.setup.black.length) s += 'AB' + S.setup.black.map((p) => '[' + sgfPoint(p) + ']').join('');
  if (S.setup.white.length) s += 'AW' + S.setup.white.map((p) => '[' + sgfPoint(p) + ']').join('');
  if (!plain) s += 'PL[' + (S.first === 'black' ? 'B' : 'W') + ']';
  let c = S.first;
  moves.forEach((p) => { s += ';' + (c === 'black' ? 'B' : 'W') + '[' + sgfPoint(p) + ']'; c = other(c); });
  return s + ')';
}
const common = () => ({ position: positionText(), rule: S.rule, size: S.size, page: PAGE });

// A five (or more) through the last move, by the rule: the game is over.
function five() {
  if (!S.cursor) return null;
  const m = stones();
  const last = S.moves[S.cursor - 1], color = m.get(last);
  const { x, y } = parse(last);
  for (const [dx, dy] of [[1, 0], [0, 1], [1, 1], [1, -1]]) {
    let n = 1;
    for (const s of [1, -1]) {
      for (let k = 1; ; k++) {
        const px = x + s * k * dx, py = y + s * k * dy;
        if (px < 0 || py < 0 || px >= S.size || py >= S.size || m.get(name(px, py)) !== color) break;
        n++;
      }
    }
    const exact = S.rule === 'standard' || (S.rule === 'renju' && color === 'black');
    if (exact ? n === 5 : n >= 5) return color;
  }
  return null;
}

// ---- the API -------------------------------------------------------------------------------

async function post(command, body, signal) {
  const r = await fetch('/api/' + command, {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body), signal,
  });
  const type = r.headers.get('Content-Type') || '';
  if (!r.ok) throw await r.json();
  if (type.startsWith('application/json')) return r.json();
  if (type.startsWith('image/png')) return r.blob();
  return r.text();
}

function say(error) {
  const box = $('message');
  if (!error) { box.hidden = true; box.textContent = ''; return; }
  box.hidden = false;
  box.textContent = (error.error || String(error)) + (error.snippet ? '\n' + error.snippet : '');
}

// ---- drawing -------------------------------------------------------------------------------

function el(tag, attrs, parent, text) {
  const e = document.createElementNS(SVGNS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

// The board's two layers: what is drawn, redrawn at every change, and above it a square
// over every point, kept while the size is, so that a redraw never swaps the element under
// the pointer between a press and its release (the click would be lost).
function layers() {
  const svg = $('board');
  if (S.built !== S.size) {
    svg.textContent = '';
    const w = MARGIN * 2 + (S.size - 1) * CELL;
    svg.setAttribute('viewBox', `0 0 ${w} ${w}`);
    S.drawn = el('g', { id: 'drawn' }, svg);
    const hits = el('g', { id: 'hits' }, svg);
    for (let x = 0; x < S.size; x++) {
      for (let y = 0; y < S.size; y++) {
        const p = name(x, y), [cx, cy] = at(p);
        el('rect', { x: cx - CELL / 2, y: cy - CELL / 2, width: CELL, height: CELL, fill: 'transparent', class: 'hit', 'data-p': p }, hits);
      }
    }
    S.built = S.size;
  }
  S.drawn.textContent = '';
  return S.drawn;
}

function drawGrid(svg) {
  const n = S.size, w = MARGIN * 2 + (n - 1) * CELL;
  el('rect', { x: 0, y: 0, width: w, height: w, fill: '#e3c16f' }, svg);
  for (let i = 0; i < n; i++) {
    const v = MARGIN + i * CELL, end = MARGIN + (n - 1) * CELL;
    el('line', { x1: MARGIN, y1: v, x2: end, y2: v, stroke: '#5a4520', 'stroke-width': 1 }, svg);
    el('line', { x1: v, y1: MARGIN, x2: v, y2: end, stroke: '#5a4520', 'stroke-width': 1 }, svg);
    el('text', { x: v, y: w - 10, 'text-anchor': 'middle', 'font-size': 13, fill: '#3a2a10' }, svg, letter(i));
    el('text', { x: 14, y: MARGIN + (n - 1 - i) * CELL + 4, 'text-anchor': 'middle', 'font-size': 13, fill: '#3a2a10' }, svg, String(i + 1));
  }
  const c = (n - 1) / 2, d = n >= 13 ? 3 : 2;
  const stars = n % 2 ? [[c, c], [d, d], [d, n - 1 - d], [n - 1 - d, d], [n - 1 - d, n - 1 - d]] : [];
  stars.forEach(([x, y]) => el('circle', { cx: MARGIN + x * CELL, cy: MARGIN + y * CELL, r: 3.5, fill: '#5a4520' }, svg));
}

function drawStone(svg, p, color, label, cls) {
  const [x, y] = at(p);
  const g = el('g', { class: cls || 'stone ' + color, 'data-p': p }, svg);
  el('circle', { cx: x, cy: y, r: CELL * 0.46, fill: color === 'black' ? '#111' : '#fafafa', stroke: '#222', 'stroke-width': 1 }, g);
  if (label !== undefined && label !== null) {
    el('text', { x, y: y + 4.5, 'text-anchor': 'middle', 'font-size': 13, fill: color === 'black' ? '#fff' : '#111' }, g, String(label));
  }
  return g;
}

// A candidate's win chance in percent (analyze's JSON gives it as a fraction).
const percent = (c) => c.win_prob * 100;

// A win chance as a colour: red for the side to move's losses, green for its wins.
function heat(p) {
  const t = Math.max(0, Math.min(1, p / 100));
  return `rgb(${Math.round(220 - 180 * t)},${Math.round(60 + 160 * t)},60)`;
}

function render() {
  const svg = layers();
  drawGrid(svg);
  const m = stones();
  for (const [p, c] of m) {
    if (p.endsWith('#')) continue;
    drawStone(svg, p, c, null);
  }
  if (S.cursor) {
    const [x, y] = at(S.moves[S.cursor - 1]);
    el('circle', { cx: x, cy: y, r: 5, fill: '#d22', class: 'last-move' }, svg);
  }
  S.forbidden.forEach((p) => {
    const [x, y] = at(p), r = 8;
    const g = el('g', { class: 'forbidden', 'data-p': p }, svg);
    el('line', { x1: x - r, y1: y - r, x2: x + r, y2: y + r, stroke: '#c00', 'stroke-width': 3 }, g);
    el('line', { x1: x - r, y1: y + r, x2: x + r, y2: y - r, stroke: '#c00', 'stroke-width': 3 }, g);
  });
  drawAnalysis(svg, m);
  drawLine(svg, m);
  drawMark(svg);
  $('move-number').textContent = `${S.cursor} / ${S.moves.length}`;
}

function drawAnalysis(svg, m) {
  const a = S.analysis;
  if (!a || S.hover || (S.solve && S.solveStep)) return;
  const top = +$('top').value;
  if ($('heatmap').checked) {
    a.candidates.forEach((c) => {
      const [x, y] = at(c.move);
      el('rect', { x: x - CELL / 2 + 2, y: y - CELL / 2 + 2, width: CELL - 4, height: CELL - 4, fill: heat(percent(c)), opacity: 0.45, class: 'heat', 'data-p': c.move }, svg);
    });
  }
  if ($('threats').checked) {
    const side = a.to_move;
    a.candidates.forEach((c) => {
      const [x, y] = at(c.move);
      if (c.makes.some((w) => /five|four|three/.test(w))) {
        el('path', { d: `M${x} ${y - 12} L${x + 11} ${y + 8} L${x - 11} ${y + 8} Z`, fill: 'none', stroke: side === 'black' ? '#111' : '#fff', 'stroke-width': 2.5, class: 'threat own', 'data-p': c.move }, svg);
      }
      if (c.stops.length) {
        el('rect', { x: x - 10, y: y - 10, width: 20, height: 20, fill: 'none', stroke: side === 'black' ? '#fff' : '#111', 'stroke-width': 2.5, 'stroke-dasharray': '4 2', class: 'threat theirs', 'data-p': c.move }, svg);
      }
    });
  }
  a.candidates.slice(0, top).forEach((c, i) => {
    const [x, y] = at(c.move);
    const g = el('g', { class: 'rank', 'data-p': c.move, 'data-rank': i + 1 }, svg);
    el('circle', { cx: x, cy: y, r: 13, fill: c.mate_in > 0 ? '#c00' : (i === 0 ? '#1565c0' : '#5c8dd6'), opacity: 0.9 }, g);
    el('text', { x, y: y + 4.5, 'text-anchor': 'middle', 'font-size': 13, fill: '#fff', 'font-weight': 700 }, g, String(i + 1));
  });
}

// The hovered move's line, or the solve's line up to its step, numbered on the board.
function drawLine(svg, m) {
  let line = null, side = toMove(), upTo = Infinity, cls = 'pv';
  if (S.hover) line = S.hover.pv;
  else if (S.solve && S.solveStep) { line = S.solve.line; side = S.solve.attacker; upTo = S.solveStep; cls = 'proof'; }
  if (!line) return;
  line.slice(0, upTo).forEach((p, i) => {
    if (m.has(p)) return;
    const g = drawStone(svg, p, side, i + 1, cls + ' ' + side);
    g.setAttribute('opacity', 0.72);
    side = other(side);
  });
}

function drawMark(svg) {
  if (!S.mark) return;
  const { best, played } = S.mark;
  if (played) { const [x, y] = at(played); el('circle', { cx: x, cy: y, r: 15, fill: 'none', stroke: '#c00', 'stroke-width': 3, class: 'mark played' }, svg); }
  if (best && best !== played) { const [x, y] = at(best); el('circle', { cx: x, cy: y, r: 15, fill: 'none', stroke: '#090', 'stroke-width': 3, class: 'mark best' }, svg); }
}

// The candidate at the point under the pointer, if it is empty and ranked.
function candidateAt(p) {
  if (!S.analysis || stones().has(p)) return null;
  return S.analysis.candidates.find((c) => c.move === p) || null;
}

function wireBoard() {
  const board = $('board');
  const point = (e) => (e.target.classList.contains('hit') ? e.target.dataset.p : null);
  board.addEventListener('click', (e) => { const p = point(e); if (p) play(p); });
  board.addEventListener('mouseover', (e) => {
    const p = point(e);
    if (!p) return;
    const c = candidateAt(p);
    if (c !== S.hover && (c || S.hover)) hover(c);
  });
  board.addEventListener('mouseleave', () => { if (S.hover) hover(null); });
}

function hover(c) {
  S.hover = c;
  document.querySelectorAll('#analysis tbody tr').forEach((tr) => tr.classList.toggle('hover', !!c && tr.dataset.p === c.move));
  render();
}

// ---- the position changes ------------------------------------------------------------------

function play(p) {
  if (stones().has(p) || S.over) return;
  if (S.forbidden.includes(p)) { say({ error: `${p} is forbidden for black under renju` }); return; }
  S.moves = S.moves.slice(0, S.cursor);
  S.moves.push(p);
  S.cursor++;
  changed();
}

function walk(to) {
  const c = Math.max(0, Math.min(S.moves.length, to));
  if (c === S.cursor) return;
  S.cursor = c;
  changed();
}

function changed(keepMark) {
  stopStream();
  S.analysis = null; S.hover = null; S.done = false;
  if (!keepMark) S.mark = null;
  S.solve = null; S.solveStep = 0;
  $('solve-result').textContent = ''; $('solve-line').textContent = ''; $('solve-walk').hidden = true;
  say(null);
  S.over = five();
  S.forbidden = [];
  showTable();
  render();
  status();
  if (S.rule === 'renju' && toMove() === 'black' && !S.over) {
    const asked = positionText();
    post('forbidden', common()).then((f) => {
      if (positionText() !== asked) return;
      S.forbidden = f.points.map((q) => q.point);
      render();
    }).catch(say);
  }
  if ($('live').checked && !S.over) startStream();
}

function status(opening) {
  let s = S.over ? `${S.over} has five: the game is over` : `${toMove()} to move`;
  s += ` · ${S.rule} ${S.size}x${S.size}`;
  const o = opening || (S.analysis && S.analysis.opening);
  if (o) s += ` · opening ${o}`;
  $('status').textContent = s;
}

// ---- live analysis ---------------------------------------------------------------------------

function stopStream() {
  if (S.stream) { S.stream.abort(); S.stream = null; }
}

async function startStream() {
  const ctl = new AbortController();
  S.stream = ctl;
  S.streamStart = performance.now();
  const q = new URLSearchParams({ ...common(), time: $('think').value, top: $('top').value });
  $('progress').textContent = 'analysing…';
  try {
    const r = await fetch('/api/analyze/stream?' + q, { signal: ctl.signal });
    if (!r.ok) { say(await r.json()); $('progress').textContent = ''; return; }
    const reader = r.body.getReader(), dec = new TextDecoder();
    let buf = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += dec.decode(value, { stream: true });
      let i;
      while ((i = buf.indexOf('\n\n')) >= 0) {
        event(buf.slice(0, i));
        buf = buf.slice(i + 2);
      }
    }
  } catch (e) {
    if (e.name !== 'AbortError') say(e);
  }
}

function event(block) {
  let kind = 'message', data = [];
  block.split('\n').forEach((line) => {
    if (line.startsWith('event:')) kind = line.slice(6).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
  });
  if (!data.length) return;
  const doc = JSON.parse(data.join('\n'));
  if (kind === 'error') { say(doc); return; }
  S.analysis = doc;
  S.done = kind === 'done';
  showTable();
  render();
  status();
}

function scoreText(c) {
  if (c.mate_in > 0) return `wins in ${c.mate_in}`;
  if (c.mate_in < 0) return `loses in ${-c.mate_in}`;
  return (c.bound === 'upper' ? '≤ ' : '') + c.score;
}

function showTable() {
  const body = $('analysis').querySelector('tbody');
  body.textContent = '';
  const a = S.analysis;
  if (!a) { $('headline').textContent = ''; $('progress').textContent = ''; $('threat-list').textContent = ''; return; }
  a.candidates.slice(0, +$('top').value).forEach((c, i) => {
    const tr = document.createElement('tr');
    tr.dataset.p = c.move;
    if (c.mate_in) tr.className = 'mate';
    [i + 1, c.move, scoreText(c), percent(c).toFixed(1), c.depth, c.pv.slice(0, 12).join(' ')].forEach((v, k) => {
      const td = document.createElement('td');
      td.textContent = v;
      if (k === 5) td.className = 'line';
      tr.appendChild(td);
    });
    tr.addEventListener('mouseenter', () => hover(c));
    tr.addEventListener('mouseleave', () => hover(null));
    tr.addEventListener('click', () => play(c.move));
    body.appendChild(tr);
  });
  const best = a.candidates[0];
  const h = $('headline');
  h.className = best && best.mate_in ? 'mate' : '';
  if (!best) h.textContent = 'no move to play';
  else if (best.mate_in > 0) h.textContent = `${a.to_move} wins in ${best.mate_in} (verified): ${best.pv.join(' ')}`;
  else if (best.mate_in < 0) h.textContent = `${a.to_move} loses in ${-best.mate_in} whatever it plays (verified)`;
  else h.textContent = `best ${best.move}: ${a.to_move} ${percent(best).toFixed(1)}% to win`;
  $('progress').textContent = `depth ${a.depth} (sel ${a.seldepth}) · ${a.nodes.toLocaleString()} nodes · ${a.nps.toLocaleString()} nodes/s · ${((performance.now() - S.streamStart) / 1000).toFixed(1)} s` + (S.done ? ' · done' : ' · deepening…');
  const own = a.candidates.filter((c) => c.makes.some((w) => /five|four|three/.test(w)));
  const theirs = a.candidates.filter((c) => c.stops.length);
  const list = (cs, key) => cs.slice(0, 8).map((c) => `${c.move} (${c[key].join(', ')})`).join(' · ') || 'none';
  $('threat-list').textContent = `${a.to_move}'s threats: ${list(own, 'makes')}\n${other(a.to_move)}'s threats, to stop: ${list(theirs, 'stops')}`;
}

// ---- solve -----------------------------------------------------------------------------------

async function solve() {
  stopStream();
  const mode = $('solve-mode').value, body = { ...common(), time: $('solve-time').value };
  if (mode === 'win-in') body['win-in'] = +$('solve-n').value; else body[mode] = true;
  $('solve-result').textContent = 'solving…';
  try {
    const v = await post('solve', body);
    S.solve = v; S.solveStep = 0;
    const what = { win: `${v.attacker} wins`, 'no-win': `no win for ${v.attacker}`, unknown: 'unknown: the search ran out of ' + (v.stopped_by || 'budget') }[v.result];
    $('solve-result').textContent = `${what}` + (v.result === 'win' ? ` in ${v.moves_to_five} (${v.verified ? 'verified' : 'not verified'})` : '') + ` · ${v.nodes.toLocaleString()} node${v.nodes === 1 ? '' : 's'}`;
    const ol = $('solve-line');
    ol.textContent = '';
    v.line.forEach((p, i) => {
      const li = document.createElement('li');
      li.textContent = p;
      li.addEventListener('click', () => step(i + 1));
      ol.appendChild(li);
    });
    $('solve-walk').hidden = !v.line.length;
    step(v.line.length ? 1 : 0);
  } catch (e) { $('solve-result').textContent = ''; say(e); }
}

function step(k) {
  if (!S.solve) return;
  S.solveStep = Math.max(0, Math.min(S.solve.line.length, k));
  $('solve-step').textContent = `${S.solveStep} / ${S.solve.line.length}`;
  document.querySelectorAll('#solve-line li').forEach((li, i) => li.classList.toggle('current', i + 1 === S.solveStep));
  render();
}

function playLine() {
  const line = S.solve.line.slice(0, S.solveStep || S.solve.line.length);
  S.moves = S.moves.slice(0, S.cursor).concat(line);
  S.cursor = S.moves.length;
  changed();
}

// ---- review ----------------------------------------------------------------------------------

async function review() {
  if (!S.moves.length) { say({ error: 'review needs a game: play or load some moves first' }); return; }
  stopStream();
  const body = { ...common(), position: positionText(S.moves.length), time: $('review-time').value };
  $('review-status').textContent = `reviewing ${S.moves.length} moves…`;
  try {
    S.review = await post('review', body);
    drawReview();
  } catch (e) { $('review-status').textContent = ''; say(e); }
}

function drawReview() {
  const r = S.review, svg = $('graph');
  svg.textContent = '';
  const W = 480, H = 200, L = 30, B = 20, n = Math.max(1, r.records.length);
  const px = (i) => L + (W - L - 10) * (n === 1 ? 0.5 : i / (n - 1));
  const py = (b) => 10 + (H - B - 10) * (1 - b / 100);
  [0, 50, 100].forEach((b) => {
    el('line', { x1: L, y1: py(b), x2: W - 10, y2: py(b), stroke: b === 50 ? '#999' : '#ddd' }, svg);
    el('text', { x: L - 4, y: py(b) + 4, 'text-anchor': 'end', 'font-size': 10 }, svg, b + '%');
  });
  const black = r.records.map((m) => (m.side === 'black' ? m.win_after : 100 - m.win_after));
  el('polyline', { points: black.map((b, i) => `${px(i)},${py(b)}`).join(' '), fill: 'none', stroke: '#222', 'stroke-width': 1.5 }, svg);
  r.records.forEach((m, i) => {
    const bad = m.verdict === 'mistake' || m.verdict === 'blunder';
    const c = el('circle', { cx: px(i), cy: py(black[i]), r: bad ? 5 : 3.5, fill: bad ? '#c00' : (m.side === 'black' ? '#111' : '#fff'), stroke: '#222', class: 'point', 'data-n': m.number }, svg);
    el('title', {}, c, `${m.number}. ${m.side} ${m.played}: ${m.verdict}, black ${black[i].toFixed(1)}%`);
    c.addEventListener('click', () => { S.mark = null; walkTo(m.number); });
  });
  el('text', { x: W - 10, y: H - 4, 'text-anchor': 'end', 'font-size': 10 }, svg, 'black\'s win chance after each move');
  const ul = $('review-list');
  ul.textContent = '';
  r.records.filter((m) => m.verdict !== 'best' && m.verdict !== 'good' || m.missed_win || m.allowed_win).forEach((m) => {
    const li = document.createElement('li');
    let t = `${m.number}. ${m.side} ${m.played}: ${m.verdict} (−${m.loss.toFixed(1)}%)`;
    if (m.best && m.best !== m.played) t += `, best ${m.best}`;
    if (m.missed_win) t += `; missed a win in ${m.missed_win.moves}: ${m.missed_win.line.join(' ')}`;
    if (m.allowed_win) t += `; allowed ${m.allowed_win.winner} a win in ${m.allowed_win.moves}: ${m.allowed_win.line.join(' ')}`;
    li.textContent = t;
    li.dataset.n = m.number;
    li.addEventListener('click', () => { walkTo(m.number - 1); S.mark = { best: m.best, played: m.played }; render(); });
    ul.appendChild(li);
  });
  const tp = r.turning_point ? ` · turning point: move ${r.turning_point.number || r.turning_point}` : '';
  $('review-status').textContent = `${r.records.length} moves reviewed in ${(r.elapsed_ms / 1000).toFixed(1)} s${tp}` + (r.opening ? ` · opening ${r.opening}` : '');
}

function walkTo(n) {
  S.cursor = Math.max(0, Math.min(S.moves.length, n));
  changed(true);
}

// ---- loading and copying ---------------------------------------------------------------------

async function load(text) {
  const body = { position: text };
  if ($('paste-rule').value) body.rule = $('paste-rule').value;
  if ($('paste-id').value.trim()) body.id = $('paste-id').value.trim();
  try {
    const p = await post('show', body);
    S.size = p.size; S.rule = p.rule;
    const record = p.moves || [];
    const inRecord = new Set(record);
    S.setup = { black: p.black.filter((q) => !inRecord.has(q)), white: p.white.filter((q) => !inRecord.has(q)) };
    S.moves = record;
    S.first = record.length ? (p.black.includes(record[0]) ? 'black' : 'white') : p.to_move;
    S.cursor = record.length;
    S.review = null; $('graph').textContent = ''; $('review-list').textContent = ''; $('review-status').textContent = '';
    $('rule').value = S.rule; $('size').value = S.size;
    changed();
    status(p.opening);
  } catch (e) { say(e); }
}

async function copy(to) {
  try {
    const text = (await post('convert', { ...common(), to })).trim();
    const box = $('copied');
    box.hidden = false; box.value = text;
    if (navigator.clipboard) navigator.clipboard.writeText(text).catch(() => {});
  } catch (e) { say(e); }
}

async function picture(format) {
  try {
    const body = { ...common(), format, numbers: S.moves.length > 0 };
    const got = await post('show', body);
    const blob = got instanceof Blob ? got : new Blob([got], { type: 'image/svg+xml' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = 'position.' + format;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  } catch (e) { say(e); }
}

function newBoard() {
  S.size = +$('size').value; S.rule = $('rule').value;
  S.setup = { black: [], white: [] }; S.first = 'black'; S.moves = []; S.cursor = 0;
  S.review = null; $('graph').textContent = ''; $('review-list').textContent = '';
  changed();
}

// ---- wiring ----------------------------------------------------------------------------------

function wire() {
  for (let n = 5; n <= 22; n++) {
    const o = document.createElement('option');
    o.value = o.textContent = n;
    if (n === 15) o.selected = true;
    $('size').appendChild(o);
  }
  wireBoard();
  $('new').addEventListener('click', newBoard);
  $('size').addEventListener('change', newBoard);
  $('rule').addEventListener('change', () => { S.rule = $('rule').value; changed(); });
  $('first').addEventListener('click', () => walk(0));
  $('back').addEventListener('click', () => walk(S.cursor - 1));
  $('forward').addEventListener('click', () => walk(S.cursor + 1));
  $('last').addEventListener('click', () => walk(S.moves.length));
  $('undo').addEventListener('click', () => { if (S.cursor) { S.moves = S.moves.slice(0, S.cursor - 1); S.cursor--; changed(); } });
  $('load-button').addEventListener('click', () => load($('paste').value));
  $('paste').addEventListener('paste', () => setTimeout(() => load($('paste').value), 0));
  $('file').addEventListener('change', (e) => { const f = e.target.files[0]; if (f) f.text().then((t) => { $('paste').value = t; load(t); }); });
  document.body.addEventListener('dragover', (e) => e.preventDefault());
  document.body.addEventListener('drop', (e) => {
    e.preventDefault();
    const f = e.dataTransfer.files[0];
    if (f) f.text().then((t) => { $('paste').value = t; load(t); });
    else { const t = e.dataTransfer.getData('text'); if (t) { $('paste').value = t; load(t); } }
  });
  document.querySelectorAll('.copy').forEach((b) => b.addEventListener('click', () => copy(b.dataset.to)));
  document.querySelectorAll('.picture').forEach((b) => b.addEventListener('click', () => picture(b.dataset.format)));
  document.querySelectorAll('.tab').forEach((b) => b.addEventListener('click', () => {
    document.querySelectorAll('.tab').forEach((t) => t.classList.toggle('active', t === b));
    document.querySelectorAll('.panel').forEach((p) => { p.hidden = p.id !== 'panel-' + b.dataset.tab; });
  }));
  $('live').addEventListener('change', () => { if ($('live').checked) changed(); else stopStream(); });
  ['think', 'top'].forEach((id) => $(id).addEventListener('change', () => changed()));
  ['heatmap', 'threats'].forEach((id) => $(id).addEventListener('change', render));
  $('solve-button').addEventListener('click', solve);
  $('solve-back').addEventListener('click', () => step(S.solveStep - 1));
  $('solve-forward').addEventListener('click', () => step(S.solveStep + 1));
  $('solve-play').addEventListener('click', playLine);
  $('review-button').addEventListener('click', review);
  document.addEventListener('keydown', (e) => {
    if (/^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement.tagName)) return;
    const keys = { ArrowLeft: S.cursor - 1, ArrowRight: S.cursor + 1, Home: 0, End: S.moves.length };
    if (e.key in keys) { e.preventDefault(); walk(keys[e.key]); }
  });
  window.addEventListener('pagehide', stopStream);
  changed();
}

wire();
