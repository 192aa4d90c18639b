// A game's page: renders what the server says player A may know, sends the person's moves,
// and plays the bot's answer back card by card. No game logic lives here: the server's rules
// decide everything, and every reply carries the whole state the page shows.
"use strict";

const $ = (id) => document.getElementById(id);
const initial = JSON.parse($("initial").textContent);
const page = {state: initial, busy: false, checkTimer: null, checked: null, reveal: "you", focus: 0};
const api = `/api/games/${encodeURIComponent(initial.id)}`;
const RESULT = {green: "agent", bystander: "bystander", assassin: "ASSASSIN"};
const SIDE_NAME = {green: "agent", assassin: "assassin", bystander: "bystander"};
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
// The bot's moves are played back one by one; people who ask for less motion get them at
// once, and the turn log below the board still lists every one of them.
const REDUCED = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
const STEP_MS = REDUCED ? 0 : 900;

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v; else node.setAttribute(k, v);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

function pips(n, total, cls) {
  const box = el("span", {class: "tokens", "aria-hidden": "true"});
  for (let i = 0; i < total; i++) box.append(el("span", {class: `pip ${cls}${i < n ? "" : " spent"}`}));
  return box;
}

// --- the banner: whose turn it is, the clue in play, what just happened --------------------

function renderBanner(s, frame) {
  const banner = $("banner"), turn = $("turn"), note = $("banner-note");
  const mine = !page.busy && !s.over && s.you !== "wait";
  banner.dataset.turn = s.over ? "over" : mine ? `you-${s.you}` : "bot";
  if (s.over) {
    turn.textContent = "Game over";  // how it ended is said once, in the panel below the board
  } else if (mine) {
    turn.textContent = {clue: "Your turn: give a clue", guess: "Your turn: guess",
                        sudden: "Sudden death: your guess"}[s.you];
  } else {
    turn.textContent = "The bot's turn";
  }
  const card = $("clue-card");
  card.hidden = !s.clue || s.over;
  if (s.clue) {
    $("clue-by").textContent = s.clue.by === "bot" ? "The bot's clue" : "Your clue";
    $("clue-word-shown").textContent = s.clue.word.toUpperCase();
    $("clue-number-shown").textContent = String(s.clue.number);
    $("clue-number-shown").setAttribute("aria-label", `for ${s.clue.number}`);
    card.classList.toggle("pop", Boolean(frame && frame.event.kind === "clue" && frame.event.by === "bot"));
  }
  let text = "";
  if (frame) text = frame.said;
  else if (page.busy) text = "The bot is thinking";
  else if (s.over) text = "";
  else if (s.you === "clue") {
    text = "Give the bot a clue for your green words: one word and a number.";
  } else if (s.you === "guess") {
    const found = lastGuesses(s).filter((g) => g.result === "green").length;
    const cap = s.guesses_left !== null ? ` At most ${s.guesses_left} more.` : "";
    text = `Pick the cards you think the clue is about.${found ? ` ${found} found on this clue.` : ""}${cap}`
      + (s.can_pass ? " You may end your turn now." : "");
  } else if (s.you === "sudden") {
    text = "The timer is out: no more clues. Pick one word at a time; any word that is not an agent loses.";
  }
  note.textContent = text;
  note.classList.toggle("thinking", page.busy && !frame);
}

function lastGuesses(s) {
  const row = s.history.length ? s.history[s.history.length - 1] : null;
  return row && row.by !== "both" ? row.guesses : [];
}

function renderStatus(s) {
  const box = $("status");
  box.replaceChildren();
  const tokens = el("span", {id: "tokens", class: "stat", "data-tokens": String(s.tokens)},
                    el("span", {class: "stat-label"}, "Timer tokens "), el("strong", {}, `${s.tokens} of ${s.tokens_total}`), " ");
  if (s.bystander_tokens !== null) {
    tokens.append(pips(s.bystander_tokens, s.bystander_tokens, "bystander"),
                  pips(s.tokens - s.bystander_tokens, s.tokens_total - s.bystander_tokens, ""));
    tokens.append(el("span", {class: "visually-hidden"},
                     `, ${s.bystander_tokens} bystander side up: once they are gone a miss costs two`));
  } else {
    tokens.append(pips(s.tokens, s.tokens_total, ""));
  }
  box.append(tokens,
             el("span", {id: "found", class: "stat"}, el("span", {class: "stat-label"}, "Agents found "),
                el("strong", {}, `${s.agents_found} of 15`)),
             el("span", {class: "stat"}, el("span", {class: "stat-label"}, "Yours left for the bot "),
                el("strong", {}, String(s.your_agents_left))));
  // Who gives the clues from now on; in sudden death nobody does (the banner says so).
  const clues = !s.over && s.phase !== "sudden_death";
  if (s.bot_done && clues) box.append(el("strong", {class: "stat"}, "The bot has found all it needs: you give every clue."));
  if (s.you_done && clues) box.append(el("strong", {class: "stat"}, "All your agents are found: the bot gives every clue."));
}

// --- the board ---------------------------------------------------------------------------

function guessable(s, card) {
  return !page.busy && (s.you === "guess" || s.you === "sudden") && !s.over && !card.out && !card.agent
    && !card.marked.includes("you");
}

function describeCard(card, over) {
  const parts = [];
  if (card.agent) parts.push("found: an agent");
  else if (card.out) parts.push("out: a bystander for both of you");
  else parts.push({green: "your agent", assassin: "an assassin on your side", bystander: "a bystander on your side"}[card.side]);
  if (!card.agent && !card.out) {
    if (card.marked.includes("you")) parts.push("you guessed it: a bystander for the bot");
    if (card.marked.includes("bot")) parts.push("the bot guessed it: a bystander for you");
  }
  if (over && card.bot_side) parts.push(`the bot's side: ${SIDE_NAME[card.bot_side]}`);
  return parts;
}

function renderBoard(s, flash) {
  const board = $("board");
  board.dataset.reveal = s.over ? page.reveal : "you";
  board.classList.toggle("picking", !page.busy && !s.over && (s.you === "guess" || s.you === "sudden"));
  document.querySelectorAll("#board .card").forEach((node) => {
    const i = Number(node.dataset.index), card = s.cards[i];
    const side = s.over && page.reveal === "bot" ? card.bot_side : card.side;
    const cls = ["card", `side-${side}`];
    if (card.agent) cls.push("agent"); else if (card.out) cls.push("out");
    if (!card.agent && !card.out) for (const who of card.marked) cls.push(`marked-${who}`);
    if (guessable(s, card)) cls.push("guessable");
    if (flash && flash.index === i) cls.push("flash", `flash-${flash.result}`);
    node.className = cls.join(" ");
    node.setAttribute("aria-disabled", String(!guessable(s, card)));
    node.dataset.side = card.side;
    const tag = card.agent ? "\u2713 agent" : card.out ? "out" : card.side === "green" ? "your agent"
      : card.side === "assassin" ? "assassin" : "";
    node.querySelector(".tag").textContent = tag;
    for (const who of ["you", "bot"]) {
      let badge = node.querySelector(`.mark-${who}`);
      const show = !card.agent && !card.out && card.marked.includes(who);
      if (show && !badge) {
        badge = el("span", {class: `mark mark-${who}`, "aria-hidden": "true"}, `\u2717 ${who}`);
        node.append(badge);
      } else if (!show && badge) badge.remove();
    }
    let bot = node.querySelector(".bot-side");
    if (s.over && card.bot_side) {
      if (!bot) { bot = el("span", {class: "bot-side", "aria-hidden": "true"}); node.append(bot); }
      const shown = page.reveal === "bot" ? card.side : card.bot_side;
      bot.className = `bot-side reveal-${shown}`;
      bot.textContent = `${page.reveal === "bot" ? "you" : "bot"}: ${SIDE_NAME[shown]}`;
    }
    // The card's name is its word and, for screen readers only, all the tags say in words.
    node.querySelector(".sr").textContent = `, ${describeCard(card, s.over).join("; ")}`;
    node.tabIndex = i === page.focus ? 0 : -1;
  });
}

// Arrow keys move between the cards (one tab stop for the whole board), as in a grid.
$("board").addEventListener("keydown", (ev) => {
  const node = ev.target.closest(".card");
  if (!node) return;
  const i = Number(node.dataset.index);
  const step = {ArrowLeft: -1, ArrowRight: 1, ArrowUp: -5, ArrowDown: 5}[ev.key];
  let next = null;
  if (step !== undefined) next = i + step;
  else if (ev.key === "Home") next = ev.ctrlKey ? 0 : i - (i % 5);
  else if (ev.key === "End") next = ev.ctrlKey ? 24 : i - (i % 5) + 4;
  if (next === null || next < 0 || next > 24) return;
  ev.preventDefault();
  focusCard(next);
});

function focusCard(i) {
  page.focus = i;
  document.querySelectorAll("#board .card").forEach((n) => { n.tabIndex = Number(n.dataset.index) === i ? 0 : -1; });
  document.querySelector(`#board .card[data-index="${i}"]`).focus();
}

// Long words shrink to fit their card rather than break mid-word (a 390 px phone holds
// MILLIONAIRE at about 11 px).
const MIN_FONT_PX = 8;
function fitWords() {
  for (const word of document.querySelectorAll("#board .word")) {
    word.style.fontSize = "";
    let size = parseFloat(getComputedStyle(word).fontSize);
    while (word.scrollWidth > word.clientWidth && size > MIN_FONT_PX) {
      size -= 0.5;
      word.style.fontSize = `${size}px`;
    }
  }
}
let fittedWidth = 0;
const refit = () => {
  const width = $("board").clientWidth;
  if (width !== fittedWidth) { fittedWidth = width; fitWords(); }
};
if (window.ResizeObserver) new ResizeObserver(refit).observe($("board"));
else window.addEventListener("resize", refit);

// --- controls, history, the end ----------------------------------------------------------

function renderControls(s) {
  const clueTurn = s.you === "clue" && !s.over, guessTurn = (s.you === "guess" || s.you === "sudden") && !s.over;
  $("clue-form").hidden = !clueTurn;
  $("guess-bar").hidden = !guessTurn;
  $("hint").hidden = s.over;
  if (guessTurn) {
    $("guess-text").textContent = s.you === "sudden"
      ? "Sudden death: guess one word at a time."
      : `Guessing on ${s.clue.word.toUpperCase()} ${s.clue.number}${s.guesses_left !== null ? ` (at most ${s.guesses_left} more)` : ""}.`;
  }
  $("pass").hidden = s.you !== "guess";
  $("pass").disabled = !s.can_pass || page.busy;
  $("pass").title = s.can_pass ? "" : "you may end the turn after a correct guess";
  $("clue-send").disabled = page.busy || Boolean(page.checked && page.checked.refused);
  $("clue-anyway").hidden = page.busy || !(page.checked && page.checked.unknown);
  $("hint").disabled = page.busy;
  document.body.dataset.busy = String(page.busy);
}

function renderHistory(s) {
  const list = $("history");
  list.replaceChildren();
  for (const row of s.history) {
    const who = row.by === "both" ? "Sudden death" : `${row.by === "you" ? "You" : "Bot"}: ${row.clue.toUpperCase()} ${row.number}`;
    const item = el("li", {}, el("strong", {}, who));
    if (row.penalised) item.append(" (invalid: a token discarded)");
    item.append(" - ");
    row.guesses.forEach((g, k) => {
      if (k) item.append(", ");
      item.append(el("span", {class: `r-${g.result}`}, `${g.by ? g.by + ": " : ""}${g.word} (${RESULT[g.result]})`));
    });
    if (row.passed) item.append(row.guesses.length ? ", pass" : "pass");
    if (!row.guesses.length && !row.passed) item.append(el("span", {class: "muted"}, "no guesses yet"));
    list.append(item);
  }
  if (!s.history.length) list.append(el("li", {class: "muted none"}, "No clues yet."));
}

function keyMap(s, which, title) {
  const grid = el("div", {class: "keymap", role: "list", "aria-label": title});
  s.cards.forEach((card) => {
    const side = which === "you" ? card.side : card.bot_side;
    grid.append(el("span", {class: `key key-${side}`, role: "listitem", "aria-label": `${card.word}: ${SIDE_NAME[side]}`},
                   el("span", {"aria-hidden": "true"}, side === "green" ? "A" : side === "assassin" ? "\u2620" : "")));
  });
  return el("figure", {class: "keyside"}, grid, el("figcaption", {}, title));
}

function renderEnd(s) {
  const box = $("end");
  box.hidden = !s.over;
  if (!s.over) return;
  if (box.dataset.version === String(s.version)) return;  // drawn already: keep the toggle's focus
  box.dataset.version = String(s.version);
  box.className = `panel end ${s.outcome.result === "win" ? "won" : "lost"}`;
  const toggle = el("div", {class: "switch", role: "group", "aria-label": "Colour the board by"});
  for (const [who, label] of [["you", "Your side"], ["bot", "The bot's side"]]) {
    const button = el("button", {type: "button", "data-reveal": who, "aria-pressed": String(page.reveal === who)}, label);
    button.addEventListener("click", () => {
      page.reveal = who;
      toggle.querySelectorAll("button").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.reveal === who)));
      renderBoard(page.state);
    });
    toggle.append(button);
  }
  box.replaceChildren(
    el("h2", {id: "outcome"}, s.outcome.text),
    el("p", {}, "Both sides of the key card: each card is coloured by one side, and the band along its foot names the other."),
    el("div", {class: "row"}, el("span", {}, "Colour the board by:"), toggle),
    el("div", {class: "keysides"}, keyMap(s, "you", "Your side"), keyMap(s, "bot", "The bot's side")),
    el("p", {class: "small muted"}, "In the maps: A is an agent, \u2620 an assassin, blank a bystander."),
    el("p", {}, el("a", {href: "/", class: "button primary"}, "Play another game")));
}

function log(text) {
  if (text) $("turn-log").append(el("li", {}, text));
}

function render(s, frame) {
  page.state = s;
  document.body.dataset.version = String(s.version);  // what the page shows (tests wait on it)
  renderBanner(s, frame);
  renderStatus(s);
  const ev = frame && frame.event;
  const flash = ev && ev.kind === "guess" ? {index: ev.index, result: frame.cards[ev.index].agent ? "green" : "miss"} : null;
  renderBoard(s, flash);
  renderControls(s);
  renderHistory(s);
  renderEnd(s);
  $("turn-log").closest("section").hidden = s.over && !$("turn-log").children.length;
}

// --- talking to the server ---------------------------------------------------------------

function showError(text, stale) {
  const box = $("message");
  box.replaceChildren(text.endsWith(".") ? text : `${text}.`);
  if (stale) box.append(" ", el("a", {href: window.location.pathname, class: "button"}, "Reload the page"));
}

async function request(method, url, body) {
  const response = await fetch(url, {
    method, headers: body ? {"Content-Type": "application/json"} : {}, body: body ? JSON.stringify(body) : undefined,
  });
  let data;
  try { data = await response.json(); } catch (err) { data = {error: `${response.status} ${response.statusText}`}; }
  if (!response.ok) {
    const error = new Error(data.error || response.statusText);
    error.status = response.status;
    error.data = data;
    throw error;
  }
  return data;
}

async function play(frames) {
  for (const frame of frames) {
    log(frame.said);
    render(frame, frame);
    await sleep(frame.event.by === "bot" ? STEP_MS : STEP_MS / 3);
  }
}

async function send(action) {
  if (page.busy) return;  // one move at a time: a double click sends once
  page.busy = true;
  $("message").textContent = "";
  $("hint-box").hidden = true;
  $("turn-log").replaceChildren();
  render(page.state);
  try {
    const data = await request("POST", `${api}/actions`, {version: page.state.version, ...action});
    await play(data.frames);  // still busy: no click lands on a frame being shown
    page.busy = false;
    if (data.state.you === "clue") { $("clue-word").value = ""; setCheck(null); }
    render(data.state);
    settleFocus(data.state);
  } catch (err) {
    page.busy = false;
    if (action.clue !== undefined && err.status === 400) {
      setCheck(err.data && err.data.unknown ? {...err.data, message: err.message} : {refused: true, message: err.message});
      render(page.state);
      $("clue-word").focus();
    } else {
      render(page.state);
      showError(err.message, err.status === 409);
    }
  }
}

// After a move the control that was used may be gone: put focus where the next move is made.
function settleFocus(s) {
  const active = document.activeElement;
  if (active && active !== document.body && active.offsetParent !== null && !active.closest("[hidden]")) return;
  if (s.you === "clue") $("clue-word").focus();
  else if (s.you === "guess" || s.you === "sudden") focusCard(page.focus);
}

$("board").addEventListener("click", (ev) => {
  const node = ev.target.closest(".card");
  if (!node) return;
  page.focus = Number(node.dataset.index);
  const card = page.state.cards[page.focus];
  if (guessable(page.state, card)) send({guess: card.word});
});

$("pass").addEventListener("click", () => send({pass: true}));

function clueAction(insist) {
  const word = $("clue-word").value.trim();
  if (!word) { setCheck({refused: true, message: "Type a clue: one word, then choose a number."}); render(page.state); return; }
  send({clue: word, number: Number($("clue-number").value), ...(insist ? {insist: true} : {})});
}

$("clue-form").addEventListener("submit", (ev) => { ev.preventDefault(); clueAction(false); });
$("clue-anyway").addEventListener("click", () => clueAction(true));

// The clue check's one line: refused (the rules say no: Give clue is off), unknown (the bots
// do not know the word: a typo? "Give it anyway" sends it regardless), or fine.
function setCheck(result) {
  page.checked = result;
  const out = $("clue-check");
  out.replaceChildren();
  out.className = "check";
  if (!result) return;
  out.classList.add(result.refused ? "bad" : result.unknown ? "warn" : "ok");
  out.append(result.message);
  if (result.suggestion) {
    const fix = el("button", {type: "button", class: "link", "data-suggestion": result.suggestion}, `Use ${result.suggestion.toUpperCase()}`);
    fix.addEventListener("click", () => { $("clue-word").value = result.suggestion; checkClue(); $("clue-word").focus(); });
    out.append(" ", fix);
  }
}

async function checkClue() {
  const word = $("clue-word").value.trim();
  if (!word) { setCheck(null); render(page.state); return; }
  try {
    const params = new URLSearchParams({clue: word, number: $("clue-number").value});
    const result = await request("GET", `${api}/check?${params}`);
    if ($("clue-word").value.trim() !== word) return;  // the person typed on
    setCheck({refused: !result.ok, unknown: Boolean(result.unknown), suggestion: result.suggestion, message: result.message});
  } catch (err) {
    setCheck({refused: false, message: err.message});
  }
  renderControls(page.state);
}

for (const id of ["clue-word", "clue-number"]) {
  $(id).addEventListener("input", () => {
    clearTimeout(page.checkTimer);
    page.checked = null;
    renderControls(page.state);
    page.checkTimer = setTimeout(checkClue, 150);
  });
}

function pct(p) { return `${Math.round(100 * p)}%`; }

// Each target with its link's strength (strong / fair / weak), so the weak one shows at a glance.
function linkedTargets(c) {
  const links = c.links || [];
  if (links.length !== c.targets.length) return c.targets.join(", ");
  return c.targets.map((t, i) => `${t} (${links[i] >= 0.9 ? "strong" : links[i] >= 0.7 ? "fair" : "weak"})`).join(", ");
}

$("hint").addEventListener("click", async () => {
  const box = $("hint-box");
  $("hint").disabled = true;
  try {
    const hint = await request("GET", `${api}/hint`);
    box.replaceChildren();
    const list = el("ol");
    if (hint.role === "clue") {
      box.append(el("strong", {}, "The bot would say (choose one to use it):"));
      for (const c of hint.clues) {
        const watch = c.dangers.map((d) => `${d.word} (${d.label})`).join(", ");
        const item = el("li", {class: "hint-clue"},
          el("button", {type: "button", "data-clue": c.clue, "data-number": String(c.number)}, `${c.clue.toUpperCase()} ${c.number}`),
          ` for ${linkedTargets(c) || "no word: a warning"}; expected agents ${c.expected_greens.toFixed(1)}, assassin ${pct(c.p_assassin)}`
          + (watch ? `; watch ${watch}` : ""));
        list.append(item);
      }
    } else {
      // stop_after counts from here: the guesses already made on this clue are not in it.
      const more = hint.stop_after === 0 ? "the bot would end the turn now"
        : `the bot would make ${hint.stop_after} more guess${hint.stop_after === 1 ? "" : "es"}, then stop`;
      box.append(el("strong", {}, hint.sudden_death ? "The safest guesses:" : `Best guesses (${more}):`));
      // The person's own assassins named, as the terminal's hint does: guessing one is judged
      // on the bot's side, so it may still be an agent, but the person should know.
      const own = new Set(hint.your_assassins || []);
      for (const g of hint.guesses) {
        list.append(el("li", {}, `${g.word}: agent ${pct(g.p_green)}, assassin ${pct(g.p_assassin)}`
                                 + (own.has(g.word) ? ", your assassin" : "")));
      }
    }
    box.append(list);
    box.hidden = false;
  } catch (err) {
    showError(err.message, err.status === 409);
  } finally {
    $("hint").disabled = page.busy;
  }
});

$("hint-box").addEventListener("click", (ev) => {
  const button = ev.target.closest("button[data-clue]");
  if (!button) return;
  $("clue-word").value = button.dataset.clue;
  $("clue-number").value = button.dataset.number;
  checkClue();
});

for (const line of initial.recent) log(line);  // what just happened, after a reload too
render(initial);
fitWords();
