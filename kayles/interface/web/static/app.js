// The page of `kayles serve`: play against perfect play, see why, explore a nim-sequence.
// Plain JavaScript, no build step: every rule and every value comes from the server's JSON API
// (/api/...), the same engine as the command line.  The page's HTML draws its layout and the
// first board before this runs; each part is filled in here as its answer comes.

const $ = (id) => document.getElementById(id);

const state = {
  game: "kayles-xox", misere: false, first: "you", position: "xxxxxxxxxx",
  history: [],          // {position, log} before each of your moves (for undo)
  picked: new Set(),    // pins picked (1-based) on a row
  heap: null,           // the heap picked (1-based) on heaps
  analysis: null,
  yours: true,          // whose turn: yours, or the computer's
};

// A 503 (the server busy: its queue full) is asked again after its Retry-After, twice at most.
async function api(path, body, tries = 3) {
  const options = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  };
  const response = await fetch(path, options);
  const data = await response.json().catch(() => ({}));
  const wait = Number(response.headers.get("Retry-After"));
  if (response.status === 503 && wait > 0 && tries > 1) {
    await new Promise((done) => setTimeout(done, 1000 * Math.min(wait, 10)));
    return api(path, body, tries - 1);
  }
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

function fill(id, text) {  // a placeholder's place, filled in
  $(id).textContent = text;
  $(id).classList.remove("note");
}

function say(text, kind = "") {
  $("message").textContent = text;
  $("message").className = kind;
}

function log(line) {
  const item = document.createElement("li");
  item.textContent = line;
  $("log").append(item);
}

// -- setting up ---------------------------------------------------------------------------------

// The game list and the code field always agree: choosing a game fills in its octal code
// (empty where it has none), and typing a code selects the game with those moves, or
// "custom".  The game played is the list's choice, or the code for "custom".
const codes = new Map();  // octal code -> game name
const CUSTOM = "custom";

function gameSpec() {
  const name = $("game-name").value;
  return name === CUSTOM ? $("game-code").value.trim() : name;
}

function showRules() {  // the chosen game's rules, under the list
  const chosen = $("game-name").selectedOptions[0];
  $("game-rules").textContent = chosen ? chosen.dataset.summary : "";
}

function gameChosen() {
  const name = $("game-name").value;
  showRules();
  if (name === CUSTOM) {
    $("game-code").focus();
    return;
  }
  $("game-code").value = [...codes].find(([, game]) => game === name)?.[0] || "";
}

function codeTyped() {
  const code = $("game-code").value.trim();
  if (codes.has(code)) $("game-name").value = codes.get(code);
  else if (code) $("game-name").value = CUSTOM;
  showRules();
}

function parseStart(text) {
  const words = text.trim();
  if (/^[x.]*$/.test(words)) return words;
  if (/^[\d\s,]+$/.test(words)) return words.split(/[\s,]+/).filter(Boolean).map(Number);
  throw new Error("start from a row of x and . (such as xxxxxxx) or heap sizes (such as 7 5 3)");
}

async function newGame(event) {
  if (event) event.preventDefault();
  try {
    state.game = gameSpec();
    state.misere = $("misere").checked;
    state.first = $("first").value;
    state.position = parseStart($("start").value);
    state.history = [];
    $("log").replaceChildren();
    showWhy(false);  // the Why panel waits till the student moves or asks
    say("Working out the position…", "note");
    state.yours = state.first === "you";
    await analyse();
    say("");
    if (!state.yours && state.analysis.has_move) await computerMove();
  } catch (error) {
    say(error.message, "error");
  }
}

async function analyse() {
  state.analysis = await api("/api/analyse", {
    game: state.game, misere: state.misere, position: state.position,
  });
  render();
}

// -- moves --------------------------------------------------------------------------------------

function moveText() {
  if (typeof state.position === "string") return [...state.picked].sort((a, b) => a - b).join(" ");
  const parts = $("parts").value.trim();
  return `heap ${state.heap} -> ${parts || "nothing"}`;
}

async function playMove() {
  const before = state.position;
  try {
    const answer = await api("/api/move", {
      game: state.game, misere: state.misere, position: before, move: moveText(),
    });
    state.history.push({ position: before, log: $("log").children.length });
    log(`you: ${answer.you.what} => ${answer.you.text}`);
    if (answer.me) log(`me: ${answer.me.what} => ${answer.me.text}`);
    state.yours = Boolean(answer.me);
    state.position = answer.analysis.position;
    state.analysis = answer.analysis;
    say(answer.me ? `I played ${answer.me.what}.` : "");
    finishIfOver(Boolean(answer.me));
    render();
    showWhy(true);
  } catch (error) {
    render();  // the pins picked go back: the user picks again
    say(`Not a move: ${error.message}.`, "error");
  }
}

async function computerMove() {
  const answer = await api("/api/reply", {
    game: state.game, misere: state.misere, position: state.position,
  });
  log(`me: ${answer.me.what} => ${answer.me.text}`);
  state.position = answer.analysis.position;
  state.analysis = answer.analysis;
  state.yours = true;
  say(`I played ${answer.me.what}.`);
  finishIfOver(true);
  render();
}

// The game ends when the player to move has no move: in normal play that player loses,
// in misère play that player wins (the opponent made the last move).
function finishIfOver(iMovedLast) {
  if (state.analysis.has_move) return;
  const youMovedLast = !iMovedLast;
  const youWin = state.misere ? !youMovedLast : youMovedLast;
  say(youWin ? "No move is left: you win!" : "No move is left: I win.", "over");
}

function showWhy(on) {
  $("explain").hidden = !on;
  $("why-toggle").setAttribute("aria-expanded", String(on));
  $("why-toggle").textContent = on ? "Hide why" : "Show why";
}

function hint() {
  showWhy(true);
  const best = state.analysis && state.analysis.best;
  document.querySelectorAll(".hinted").forEach((el) => el.classList.remove("hinted"));
  if (!best) {
    say("No winning move here: every move loses against perfect play.");
    return;
  }
  say(`Hint: ${best.what} => ${best.text}`);
  for (const pin of best.removed) document.querySelector(`[data-pin="${pin + 1}"]`)?.classList.add("hinted");
  if (best.heap) document.querySelector(`[data-heap="${best.heap.index + 1}"]`)?.classList.add("hinted");
}

async function undo() {
  if (!state.history.length) return;
  const back = state.history.pop();
  state.position = back.position;
  state.yours = true;
  while ($("log").children.length > back.log) $("log").lastElementChild.remove();
  await analyse();
  say("Undone.");
}

// -- drawing ------------------------------------------------------------------------------------

function render() {
  const board = $("board");
  board.replaceChildren();
  state.picked.clear();
  state.heap = null;
  const onRow = typeof state.position === "string";
  board.classList.toggle("row", onRow);  // a row of pins stays on one line
  $("heap-controls").hidden = onRow;
  $("parts").value = "";
  if (onRow) {
    [...state.position].forEach((cell, i) => {
      const pin = document.createElement("button");
      pin.className = cell === "x" ? "pin" : "pin gone";
      pin.dataset.pin = String(i + 1);
      pin.textContent = String(i + 1);
      pin.title = cell === "x" ? `pin ${i + 1}` : `pin ${i + 1} (taken)`;
      pin.setAttribute("aria-label", pin.title);
      pin.setAttribute("aria-pressed", "false");
      pin.disabled = cell !== "x";
      pin.addEventListener("click", () => {
        const n = i + 1;
        if (state.picked.has(n)) state.picked.delete(n); else state.picked.add(n);
        pin.classList.toggle("picked");
        pin.setAttribute("aria-pressed", String(state.picked.has(n)));
        $("play-move").disabled = !state.picked.size || !state.analysis?.has_move;
      });
      board.append(pin);
    });
  } else {
    state.position.forEach((size, i) => {
      const heap = document.createElement("button");  // a button: keyboards pick it too
      heap.className = "heap";
      heap.dataset.heap = String(i + 1);
      heap.title = `heap ${i + 1}: ${size}`;
      heap.setAttribute("aria-label", heap.title);
      for (let t = 0; t < Math.min(size, 24); t++) {
        const token = document.createElement("span");
        token.className = "token";
        heap.append(token);
      }
      heap.append(document.createTextNode(` ${size}`));
      heap.addEventListener("click", () => {
        document.querySelectorAll(".heap.picked").forEach((el) => el.classList.remove("picked"));
        heap.classList.add("picked");
        state.heap = i + 1;
        $("play-move").disabled = !state.analysis?.has_move;
      });
      board.append(heap);
    });
    if (!state.position.length) board.textContent = "(no heaps left)";
  }
  $("play-move").disabled = true;
  $("undo").disabled = !state.history.length;
  $("hint").disabled = false;
  board.setAttribute("aria-busy", "false");
  explain();
}

// In misère play the parts' Grundy values and their nim-sum do not decide the game: the
// panel shows the parts, what found the outcome (search or misère quotient) and why.
function explain() {
  const a = state.analysis;
  const rows = a.parts.map((part, i) => {
    const tr = document.createElement("tr");
    const cells = [String(i + 1), String(part.size)];
    if (!a.misere) cells.push(String(part.value));
    for (const text of cells) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.append(td);
    }
    return tr;
  });
  $("parts-table").tBodies[0].replaceChildren(...rows);
  $("parts-table").querySelector(".grundy").hidden = a.misere;
  $("nim-sum-line").hidden = a.misere;
  $("found-by-line").hidden = !a.misere;
  $("nim-sum").textContent = `${a.nim_sum} (binary ${a.nim_sum.toString(2)})`;
  if (a.misere) {
    $("found-by").textContent = a.found_by === "quotient"
      ? `the misère quotient (${a.quotient.order} elements)` : "an exhaustive search";
  }
  const mover = state.yours ? "you" : "I";
  $("outcome").textContent = a.outcome === "N"
    ? `a win for the player to move (${mover})` : `a loss for the player to move (${mover})`;
  $("best").textContent = a.best ? `${a.best.what} => ${a.best.text}` : "none";
  $("why").textContent = a.why;
}

// -- exploring ----------------------------------------------------------------------------------

const plot = { values: [], rare: new Set(), period: null, from: 0, to: 0 };

async function show(event) {
  if (event) event.preventDefault();
  $("explore-message").textContent = "";
  try {
    const query = new URLSearchParams({ game: $("explore-game").value, count: $("explore-count").value });
    const data = await api(`/api/sequence?${query}`);
    fill("proof", `${data.game}: ${data.proof}`);
    $("rare").textContent = data.mask
      ? `Rare values (mask ${data.mask}, ${data.rare} of ${data.count} heaps): ${data.rare_values.join(", ")}`
      : "No rare/common split of these values.";
    plot.values = data.values;
    plot.rare = new Set(data.rare_heaps);  // heaps: with the heap's parity, not values alone
    plot.period = data.period;
    plot.from = 0;
    plot.to = data.values.length;
    drawPlot();
  } catch (error) {
    $("explore-message").textContent = error.message;
  }
}

// G(n) against n for n in [from, to): one column of pixels holds every value met in it,
// common values blue, rare ones red.  The wheel zooms around the pointer; a double click
// shows everything again.
function drawPlot() {
  // drawn at the width it is shown (a phone's 360 px too), so its text stays readable
  const width = Math.max(300, Math.min(960, $("plot").clientWidth || 960));
  const height = Math.round(Math.min(320, width * 0.6)), left = 40, bottom = 24;
  const values = plot.values.slice(plot.from, plot.to);
  const top = Math.max(1, ...values);
  const across = width - left - 8, up = height - bottom - 12;
  const size = Math.max(2, Math.min(8, Math.floor(across / values.length)));
  const seen = new Set();
  let common = "", rare = "";
  values.forEach((v, i) => {
    const x = left + Math.floor((i * across) / values.length);
    const isRare = plot.rare.has(plot.from + i);
    const key = `${x},${v},${isRare}`;
    if (seen.has(key)) return;  // one mark per value, kind and pixel column
    seen.add(key);
    const y = height - bottom - Math.round((v * up) / top) - size / 2;
    const mark = `M${x} ${y}h${size}v${size}h-${size}z`;
    if (isRare) rare += mark; else common += mark;
  });
  const last = plot.to - 1;
  const xOf = (n) => left + ((n - plot.from) * across) / values.length;
  let proof = "";
  if (plot.period && plot.period.preperiod >= plot.from && plot.period.preperiod <= last) {
    const start = xOf(plot.period.preperiod);
    const span = Math.max(1, xOf(plot.period.preperiod + plot.period.period) - start);
    proof = `<rect class="period" x="${start}" y="8" width="${span}" height="${up + 4}"/>` +
      `<path class="preperiod" d="M${start} 8V${height - bottom}"/>`;
  }
  $("plot").innerHTML =
    `<svg viewBox="0 0 ${width} ${height}" role="img" aria-label="G(n) for n = ${plot.from}..${last}">` +
    `<path class="axis" d="M${left - 4} 8V${height - bottom}H${width - 4}"/>` +
    `<text x="4" y="16" font-size="12">${top}</text>` +
    `<text x="4" y="${height - bottom}" font-size="12">0</text>` +
    `<text x="${left}" y="${height - 6}" font-size="12">n = ${plot.from}</text>` +
    `<text x="${width - 8}" y="${height - 6}" font-size="12" text-anchor="end">${last}</text>` +
    `${proof}<path class="common" d="${common}"/><path class="rare" d="${rare}"/></svg>`;
  $("plot-from").value = String(plot.from);
  $("plot-to").value = String(last);
  drawValueTable();
}

// The values drawn, as numbers: the first 100 of the range, ten a row.
function drawValueTable() {
  const head = document.createElement("tr");
  head.append(...["n", ...Array.from({ length: 10 }, (_, k) => `+${k}`)].map((text) => {
    const th = document.createElement("th");
    th.textContent = text;
    return th;
  }));
  const rows = [head];
  const end = Math.min(plot.to, plot.from + 100);
  for (let start = plot.from; start < end; start += 10) {
    const tr = document.createElement("tr");
    const th = document.createElement("th");
    th.textContent = String(start);
    tr.append(th);
    for (let n = start; n < Math.min(start + 10, end); n++) {
      const td = document.createElement("td");
      td.textContent = String(plot.values[n]);
      if (plot.rare.has(n)) td.className = "rare";
      tr.append(td);
    }
    rows.push(tr);
  }
  $("value-table").replaceChildren(...rows);
}

// The range typed: heaps from..to (inclusive), at least 16 of them, within the values held.
function rangeTyped() {
  if (!plot.values.length) return;
  const from = Math.max(0, Math.min(plot.values.length - 1, Number($("plot-from").value) || 0));
  const to = Math.max(from + 15, Math.min(plot.values.length - 1, Number($("plot-to").value) || 0));
  plot.from = Math.max(0, Math.min(from, plot.values.length - 16));
  plot.to = Math.min(plot.values.length, to + 1);
  drawPlot();
}

function zoom(event) {
  if (!plot.values.length) return;
  event.preventDefault();
  const box = $("plot").getBoundingClientRect();
  const at = plot.from + ((event.clientX - box.left) / box.width) * (plot.to - plot.from);
  const scale = event.deltaY < 0 ? 0.5 : 2;
  const span = Math.max(16, Math.min(plot.values.length, (plot.to - plot.from) * scale));
  plot.from = Math.max(0, Math.round(at - span / 2));
  plot.to = Math.min(plot.values.length, plot.from + Math.round(span));
  drawPlot();
}

async function askNimber(event) {
  event.preventDefault();
  try {
    const query = new URLSearchParams({ game: $("explore-game").value, n: $("nimber-n").value.trim() });
    const data = await api(`/api/nimber?${query}`);
    $("nimber-value").textContent = `G(${data.n}) = ${data.value}`;
  } catch (error) {
    $("nimber-value").textContent = error.message;
  }
}

// -- the survey database, when the server has one -----------------------------------------------

const survey = { rows: [], limits: [], computed: null, key: "code", down: false };

async function loadSurvey(computed) {
  let data;
  try {
    data = await api(`/api/survey?${new URLSearchParams({ computed: computed ?? "" })}`);
  } catch (error) {
    if (computed === undefined) {
      $("survey").hidden = true;  // no --db: nothing to show
      return;
    }
    $("survey-message").textContent = error.message;
    return;
  }
  Object.assign(survey, { rows: data.rows, limits: data.limits, computed: data.computed });
  $("survey").hidden = false;
  $("survey-max").replaceChildren(...data.limits.map(({ computed: m, rows }) => {
    const option = document.createElement("option");
    option.value = String(m);
    option.textContent = `${m.toLocaleString("en")} values (${rows} row${rows === 1 ? "" : "s"})`;
    return option;
  }));
  $("survey-max").value = String(data.computed);
  drawSurvey();
}

function drawSurvey() {
  const table = $("survey-table");
  const keys = survey.rows.length ? Object.keys(survey.rows[0]) : [];
  const head = document.createElement("tr");
  for (const key of keys) {
    const th = document.createElement("th");
    th.textContent = key + (key === survey.key ? (survey.down ? " ▼" : " ▲") : "");
    th.setAttribute("aria-sort", key === survey.key ? (survey.down ? "descending" : "ascending") : "none");
    th.addEventListener("click", () => {
      survey.down = survey.key === key ? !survey.down : false;
      survey.key = key;
      drawSurvey();
    });
    head.append(th);
  }
  table.tHead.replaceChildren(head);
  const filter = $("survey-filter").value.trim();
  const rows = survey.rows.filter((row) => row.code.includes(filter));
  rows.sort((a, b) => {
    const x = a[survey.key], y = b[survey.key];
    const order = x === y ? 0 : x === null ? 1 : y === null ? -1 : x < y ? -1 : 1;
    return survey.down ? -order : order;
  });
  const held = survey.limits.map(({ computed: m }) => m.toLocaleString("en")).join(", ");
  $("survey-message").textContent = !survey.rows.length
    ? `No game was surveyed to ${survey.computed.toLocaleString("en")} values in this database` +
      (held ? ` (it holds rows computed to ${held}).` : " (it holds no finished row yet).") +
      ` kayles survey --to ${survey.computed} --db FILE adds them.`
    : !rows.length ? `No code here contains "${filter}".` : `${rows.length} of ${survey.rows.length} rows.`;
  table.tBodies[0].replaceChildren(...rows.map((row) => {
    const tr = document.createElement("tr");
    for (const key of keys) {
      const td = document.createElement("td");
      if (key === "code") {
        const open = document.createElement("button");
        open.className = "link";
        open.textContent = row.code;
        open.setAttribute("aria-label", `draw ${row.code}`);
        open.addEventListener("click", () => {
          $("explore-game").value = row.code;
          show();
          $("explore-form").scrollIntoView();
        });
        td.append(open);
      } else {
        td.textContent = row[key] === null ? "-" : String(row[key]);
      }
      tr.append(td);
    }
    return tr;
  }));
}

// -- the lesson ---------------------------------------------------------------------------------
// Kayles-xox's values come from the server; the moves and the mex are worked out here from the
// rules (take one pin, or the outer two of three in a row: the middle one stays), so the
// student sees each step.  The browser tests check every step against a brute force.

const lesson = { values: [], row: "xxxxxxx" };

function lessonRuns(row) {  // the sizes of the rows of standing pins
  return row.split(".").filter(Boolean).map((run) => run.length);
}

function drawLessonRow() {
  const board = $("lesson-row");
  board.replaceChildren();
  [...lesson.row].forEach((cell, i) => {
    const pin = document.createElement("button");
    pin.className = cell === "x" ? "pin" : "pin gone";
    pin.dataset.pin = String(i + 1);
    pin.textContent = String(i + 1);
    pin.disabled = cell !== "x";
    pin.setAttribute("aria-label", cell === "x" ? `take pin ${i + 1}` : `pin ${i + 1} (taken)`);
    pin.addEventListener("click", () => {
      lesson.row = lesson.row.slice(0, i) + "." + lesson.row.slice(i + 1);
      const rows = lessonRuns(lesson.row);
      $("lesson-row-said").textContent = rows.length
        ? `Taking pin ${i + 1} leaves ${rows.length === 1 ? "a row" : "rows"} of ` +
          `${rows.join(" and ")} pin${rows.length === 1 && rows[0] === 1 ? "" : "s"}: ` +
          "each row is a game of its own, played side by side."
        : "No pin is left: whoever moved last has won.";
      drawLessonRow();
    });
    board.append(pin);
  });
  const again = document.createElement("button");
  again.textContent = "Stand them up again";
  again.addEventListener("click", () => { lesson.row = "xxxxxxx"; $("lesson-row-said").textContent = ""; drawLessonRow(); });
  board.append(again);
}

function xoxMoves(n) {  // [what, [row sizes left]] for each move on a row of n pins
  const moves = [];
  for (let i = 0; i < n; i++) moves.push([`take pin ${i + 1}`, [i, n - 1 - i]]);
  for (let i = 0; i + 3 <= n; i++) {
    moves.push([`take pins ${i + 1} and ${i + 3}`, [i, 1, n - 3 - i]]);
  }
  return moves.map(([what, parts]) => [what, parts.filter(Boolean)]);
}

function drawMex() {
  if (!lesson.values.length) return;  // (till the values come)
  const n = Math.max(0, Math.min(30, Number($("lesson-n").value) || 0));
  const G = lesson.values;
  const reached = new Set();
  const rows = xoxMoves(n).map(([what, parts]) => {
    const value = parts.reduce((x, size) => x ^ G[size], 0);
    reached.add(value);
    const tr = document.createElement("tr");
    const said = parts.length ? parts.map((size) => `${size} (G = ${G[size]})`).join(" + ") : "nothing";
    for (const text of [what, said, String(value)]) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.append(td);
    }
    return tr;
  });
  $("lesson-options").tBodies[0].replaceChildren(...rows);
  let mex = 0;
  while (reached.has(mex)) mex++;
  const values = [...reached].sort((a, b) => a - b);
  $("lesson-mex").classList.remove("note");
  $("lesson-mex").textContent = n === 0
    ? "A row of 0 pins has no move: the mex of nothing is 0, so G(0) = 0 (the player to move has lost)."
    : `The moves reach the values {${values.join(", ")}}; the least number missing is ${mex}, ` +
      `so G(${n}) = ${mex}` + (mex ? "." : ": a row of this size is lost for the player to move.");
}

function drawSum() {
  if (!lesson.values.length) return;
  const a = Math.max(0, Math.min(200, Number($("lesson-a").value) || 0));
  const b = Math.max(0, Math.min(200, Number($("lesson-b").value) || 0));
  const [x, y] = [lesson.values[a], lesson.values[b]];
  const bits = Math.max(1, (x | y).toString(2).length);
  const binary = (v) => v.toString(2).padStart(bits, "0");
  $("lesson-xor").textContent =
    `G(${a}) = ${String(x).padStart(3)} = ${binary(x)}\n` +
    `G(${b}) = ${String(y).padStart(3)} = ${binary(y)}\n` +
    `nim-sum  = ${String(x ^ y).padStart(3)} = ${binary(x ^ y)}: ` +
    (x ^ y ? "a win for the player to move" : "a loss for the player to move");
}

async function drawCode() {
  try {
    const query = new URLSearchParams({ game: $("lesson-code").value.trim(), count: "24" });
    const data = await api(`/api/sequence?${query}`);
    $("lesson-moves").replaceChildren(...data.moves.map((text) => {
      const item = document.createElement("li");
      item.textContent = text;
      return item;
    }));
    fill("lesson-code-values", `${data.game}: G(0..23) = ${data.values.join(", ")}`);
  } catch (error) {
    $("lesson-moves").replaceChildren();
    fill("lesson-code-values", error.message);
  }
}

function cycleRows(values, preperiod, period, saltus) {  // one period a row, six rows
  const rows = [];
  for (let start = preperiod; start + period <= values.length && rows.length < 6; start += period) {
    const tr = document.createElement("tr");
    const th = document.createElement("th");
    th.textContent = `n = ${start}`;
    tr.append(th);
    for (const value of values.slice(start, start + period)) {
      const td = document.createElement("td");
      td.textContent = String(value);
      tr.append(td);
    }
    if (saltus && rows.length) {  // the saltus drawn: each row is the one above plus s
      const td = document.createElement("td");
      td.className = "saltus";
      td.textContent = `+${saltus}`;
      tr.append(td);
    }
    rows.push(tr);
  }
  return rows;
}

async function drawPeriod() {
  const data = await api(`/api/sequence?${new URLSearchParams({ game: "kayles" })}`);
  const { preperiod, period } = data.period;
  fill("lesson-period", `Kayles (0.77): ${data.proof} So G(n) for n = ` +
    `${preperiod} on, ${period} at a time, one row each: every column repeats.`);
  $("lesson-cycle").tBodies[0].replaceChildren(...cycleRows(data.values, preperiod, period, 0));
}

async function drawSaltus() {
  try {
    const game = $("saltus-code").value.trim();
    const data = await api(`/api/sequence?${new URLSearchParams({ game, count: "400" })}`);
    const found = data.period;
    let said = `${data.game}: ${data.proof}`;
    let rows = [];
    if (found) {
      said += found.saltus
        ? ` So G(n) for n = ${found.preperiod} on, ${found.period} at a time: each row is the ` +
          `one above plus ${found.saltus}.`
        : ` Its values repeat with period ${found.period}: a saltus of 0.`;
      rows = cycleRows(data.values, found.preperiod, found.period, found.saltus);
    }
    fill("saltus-proof", said);
    $("saltus-cycle").tBodies[0].replaceChildren(...rows);
  } catch (error) {
    fill("saltus-proof", error.message);
    $("saltus-cycle").tBodies[0].replaceChildren();
  }
}

// -- the nim product and Turning Corners (lesson 7): worked out here from the definition --------

const corners = { size: 5, heads: new Set(["2,4", "3,3"]), table: [] };

function nimProductTable(n) {  // a (x) b = mex{a'(x)b ^ a(x)b' ^ a'(x)b' : a' < a, b' < b}
  const t = Array.from({ length: n }, () => new Array(n).fill(0));
  for (let a = 0; a < n; a++) {
    for (let b = 0; b < n; b++) {
      const seen = new Set();
      for (let x = 0; x < a; x++) for (let y = 0; y < b; y++) seen.add(t[x][b] ^ t[a][y] ^ t[x][y]);
      let m = 0;
      while (seen.has(m)) m++;
      t[a][b] = m;
    }
  }
  return t;
}

function drawProduct() {
  const a = Math.max(0, Math.min(15, Number($("corners-a").value) || 0));
  const b = Math.max(0, Math.min(15, Number($("corners-b").value) || 0));
  const t = corners.table;
  $("corners-product").textContent = `${a} \u2297 ${b} = ${t[a][b]}` +
    (a && b ? `; and ${a} \u2297 ${t[a].indexOf(1)} = 1: every nimber but 0 has an inverse.` : ".");
}

function drawCorners() {
  const board = $("corners-board");
  board.replaceChildren();
  let total = 0;
  const worth = [];
  for (let x = 1; x <= corners.size; x++) {
    const line = document.createElement("div");
    for (let y = 1; y <= corners.size; y++) {
      const key = `${x},${y}`;
      const coin = document.createElement("button");
      const heads = corners.heads.has(key);
      coin.className = heads ? "pin" : "pin gone";
      coin.dataset.coin = key;
      coin.textContent = heads ? "H" : "T";
      coin.setAttribute("aria-label", `coin at row ${x}, column ${y}: ${heads ? "heads" : "tails"}`);
      coin.addEventListener("click", () => {
        if (corners.heads.has(key)) corners.heads.delete(key); else corners.heads.add(key);
        drawCorners();
      });
      if (heads) {
        total ^= corners.table[x][y];
        worth.push(`${x}\u2297${y} = ${corners.table[x][y]}`);
      }
      line.append(coin);
    }
    board.append(line);
  }
  $("corners-said").textContent = (worth.length ? worth.join(", ") : "No heads coin") +
    `: the board is worth ${total}, ` +
    (total ? "a win for the player to move." : "a loss for the player to move.");
}

function startCorners() {
  corners.table = nimProductTable(16);
  drawProduct();
  drawCorners();
  $("corners-a").addEventListener("input", drawProduct);
  $("corners-b").addEventListener("input", drawProduct);
}

async function startLesson() {
  startCorners();  // computed here, from the mex definition: drawn at once
  $("lesson-n").addEventListener("input", drawMex);
  $("lesson-a").addEventListener("input", drawSum);
  $("lesson-b").addEventListener("input", drawSum);
  $("lesson-code").addEventListener("change", drawCode);
  $("saltus-code").addEventListener("change", drawSaltus);
  try {
    const data = await api(`/api/sequence?${new URLSearchParams({ game: "kayles-xox", count: "256" })}`);
    lesson.values = data.values;
    drawMex();
    drawSum();
  } catch (error) {
    fill("lesson-mex", error.message);
  }
  await drawCode();
  try {
    await drawPeriod();
  } catch (error) {
    fill("lesson-period", error.message);
  }
  await drawSaltus();
}

// -- boards: Cram, Node Kayles, Chomp against perfect play (/api/board) ---------------------

const BOARD_RULES = {
  "cram": "click two free cells side by side: a domino fills them",
  "node-kayles": "click a free cell: it and the free cells beside it go",
  "chomp": "click a square: it and every square below and to its right go; the top-left one is poisoned",
};
const boards = { family: "cram", rows: 3, cols: 4, free: [], lengths: [], picked: null,
                 answer: null, busy: false };

function boardText() {  // the position as kayles solve writes it
  if (boards.family === "chomp") return boards.lengths.join(",");
  const rows = [];
  for (let r = 0; r < boards.rows; r++) {
    rows.push(boards.free.slice(r * boards.cols, (r + 1) * boards.cols)
      .map((free) => (free ? "." : "#")).join(""));
  }
  return rows.join("/");
}

function readBoard(text) {  // the server's normal form, back into the board
  if (boards.family === "chomp") boards.lengths = text.split(",").map(Number);
  else boards.free = [...text.replaceAll("/", "")].map((ch) => ch === ".");
}

function cellsOf(text) {  // the set of cells ("r,c") a position keeps
  const kept = new Set();
  if (boards.family === "chomp") {
    text.split(",").map(Number).forEach((n, r) => { for (let c = 0; c < n; c++) kept.add(`${r},${c}`); });
  } else {
    [...text.replaceAll("/", "")].forEach((ch, i) => {
      if (ch === ".") kept.add(`${Math.floor(i / boards.cols)},${i % boards.cols}`);
    });
  }
  return kept;
}

function drawBoard(hinted = new Set()) {
  const grid = $("grid");
  grid.style.gridTemplateColumns = `repeat(${boards.cols}, 2.4rem)`;
  const kept = cellsOf(boardText());
  const cells = [];
  for (let r = 0; r < boards.rows; r++) {
    for (let c = 0; c < boards.cols; c++) {
      const cell = document.createElement("button");
      const here = kept.has(`${r},${c}`);
      const poisoned = boards.family === "chomp" && r === 0 && c === 0;
      cell.className = "cell" + (here ? "" : boards.family === "chomp" ? " gone" : " filled")
        + (boards.picked === `${r},${c}` ? " picked" : "") + (hinted.has(`${r},${c}`) ? " hinted" : "");
      cell.dataset.cell = `${r},${c}`;
      cell.textContent = poisoned && here ? "\u2620" : "";
      cell.setAttribute("aria-label", `row ${r + 1}, column ${c + 1}` + (here ? "" : ", taken"));
      cell.disabled = !here || poisoned || boards.busy;
      cell.addEventListener("click", () => cellClicked(r, c));
      cells.push(cell);
    }
  }
  grid.replaceChildren(...cells);
}

function showBoard(answer) {
  boards.answer = answer;
  readBoard(answer.position);
  fill("board-value", String(answer.value));
  fill("board-outcome", answer.outcome === "N" ? "N (the player to move wins)" : "P (the player to move loses)");
  fill("board-winning", String(answer.winning.length));
  $("board-hint").disabled = answer.winning.length === 0;
  drawBoard();
}

function boardSay(text, kind = "") {
  $("board-message").textContent = text;
  $("board-message").className = kind || "note";
}

function boardLog(line) {
  const item = document.createElement("li");
  item.textContent = line;
  $("board-log").append(item);
}

async function askBoard(reply) {
  boards.busy = true;
  drawBoard();
  try {
    return await api("/api/board", { family: boards.family, position: boardText(), reply });
  } finally {
    boards.busy = false;
  }
}

async function computerMoves(answer) {  // answer: the analysis with the reply in it
  if (!answer.reply) {
    showBoard(answer);
    boardSay("I have no move: you win.", "over");
    return;
  }
  showBoard(answer.reply);
  boardLog(`me: ${answer.reply.position}`);
  if (answer.reply.moves === 0) boardSay("I made the last move: I win.", "over");
  else boardSay("Your move.");
}

async function movePlayed() {
  boardLog(`you: ${boardText()}`);
  boardSay("Thinking\u2026");
  try {
    const answer = await askBoard(true);
    if (answer.moves === 0) {
      showBoard(answer);
      boardSay("You made the last move: you win.", "over");
      return;
    }
    await computerMoves(answer);
  } catch (error) {
    boardSay(error.message, "error");
    drawBoard();
  }
}

function cellClicked(r, c) {
  if (boards.busy) return;
  const at = (rr, cc) => rr * boards.cols + cc;
  if (boards.family === "chomp") {
    boards.lengths = boards.lengths.map((n, k) => (k >= r ? Math.min(n, c) : n)).filter((n) => n > 0);
  } else if (boards.family === "node-kayles") {
    for (const [rr, cc] of [[r, c], [r - 1, c], [r + 1, c], [r, c - 1], [r, c + 1]]) {
      if (rr >= 0 && rr < boards.rows && cc >= 0 && cc < boards.cols) boards.free[at(rr, cc)] = false;
    }
  } else {
    const picked = boards.picked?.split(",").map(Number);
    const beside = picked && Math.abs(picked[0] - r) + Math.abs(picked[1] - c) === 1;
    if (!beside) {
      boards.picked = `${r},${c}`;
      drawBoard();
      boardSay("Now a free cell beside it.");
      return;
    }
    boards.free[at(r, c)] = boards.free[at(...picked)] = false;
    boards.picked = null;
  }
  movePlayed();
}

function boardHint() {
  const best = boards.answer?.winning[0];
  if (!best) return;
  const now = cellsOf(boardText());
  const after = cellsOf(best);
  drawBoard(new Set([...now].filter((cell) => !after.has(cell))));
  boardSay("A winning move takes the cells outlined.");
}

function boardRules() {
  $("board-rules").textContent = BOARD_RULES[$("board-family").value];
}

async function newBoard(event) {
  event?.preventDefault();
  boards.family = $("board-family").value;
  boards.rows = Number($("board-rows").value);
  boards.cols = Number($("board-cols").value);
  boards.picked = null;
  boards.free = Array(boards.rows * boards.cols).fill(true);
  boards.lengths = Array(boards.rows).fill(boards.cols);
  $("board-log").replaceChildren();
  const first = $("board-first").value;
  boardSay("Working out the board\u2026");
  try {
    const answer = await askBoard(first === "me");
    if (first === "me") {
      await computerMoves(answer);
    } else {
      showBoard(answer);
      boardSay(answer.moves ? "Your move." : "You have no move: I win.", answer.moves ? "" : "over");
    }
  } catch (error) {
    boardSay(error.message, "error");
    drawBoard();
  }
}

// -- the page -----------------------------------------------------------------------------------

function showTab(name) {
  for (const tab of document.querySelectorAll("[role=tab]")) {
    const on = tab.dataset.tab === name;
    tab.setAttribute("aria-selected", String(on));
    $(tab.dataset.tab).hidden = !on;
  }
  if (name === "explore" && plot.values.length) drawPlot();  // now it has a width
  if (name === "boards" && !boards.answer && !boards.busy) newBoard();  // the first board
}

async function listGames() {
  const { games } = await api("/api/games");
  const chosen = $("game-name").value;
  const options = games.map((game) => {
    const option = document.createElement("option");
    option.value = game.name;
    option.textContent = game.name;  // short: a phone's list shows it whole
    option.dataset.summary = game.summary;
    if (game.code) codes.set(game.code, game.name);
    return option;
  });
  const custom = document.createElement("option");
  custom.value = CUSTOM;
  custom.textContent = "custom";
  custom.dataset.summary = "the code typed below";
  $("game-name").replaceChildren(...options, custom);  // the HTML's first choice, and all
  $("game-name").value = chosen;
  showRules();
}

// The layout and the first board are the HTML's, drawn at once; here every control is wired,
// then each part asks for its data and is filled in as it comes: the game list and the first
// position together, then Explore's picture, the lesson, the survey.
async function start() {
  $("game-name").addEventListener("change", gameChosen);
  $("game-code").addEventListener("input", codeTyped);
  $("why-toggle").addEventListener("click", () => showWhy($("explain").hidden));
  $("setup").addEventListener("submit", newGame);
  $("play-move").addEventListener("click", playMove);
  $("hint").addEventListener("click", hint);
  $("undo").addEventListener("click", undo);
  $("explore-form").addEventListener("submit", show);
  $("nimber-form").addEventListener("submit", askNimber);
  $("plot").addEventListener("wheel", zoom, { passive: false });
  $("plot").addEventListener("dblclick", () => { plot.from = 0; plot.to = plot.values.length; drawPlot(); });
  $("survey-filter").addEventListener("input", drawSurvey);
  $("survey-max").addEventListener("change", () => loadSurvey($("survey-max").value));
  $("plot-from").addEventListener("change", rangeTyped);
  $("plot-to").addEventListener("change", rangeTyped);
  window.addEventListener("resize", () => { if (plot.values.length && !$("explore").hidden) drawPlot(); });
  for (const tab of document.querySelectorAll("[role=tab]")) {
    tab.addEventListener("click", () => showTab(tab.dataset.tab));
  }
  $("board-setup").addEventListener("submit", newBoard);
  $("board-family").addEventListener("change", boardRules);
  $("board-hint").addEventListener("click", boardHint);
  boardRules();
  drawLessonRow();  // the lesson's first step needs the rules alone, no value
  await Promise.all([listGames().catch((error) => say(error.message, "error")), newGame()]);
  await show();  // Explore opens on a drawn nim-sequence, not a blank page
  await startLesson();
  await loadSurvey();
  document.body.dataset.ready = "yes";  // for scripts and tests: the page has loaded its data
}

start();
