// A game's page: renders what the server says player A may know, sends the person's moves,
// and plays the bot's answer back card by card. No game logic lives here: the server's rules
// decide everything, and every reply carries the whole state the page shows.
"use strict";

const $ = (id) => document.getElementById(id);
const initial = JSON.parse($("initial").textContent);
const page = {state: initial, busy: false, checkTimer: null};
const api = `/api/games/${encodeURIComponent(initial.id)}`;
const RESULT = {green: "agent", bystander: "bystander", assassin: "ASSASSIN"};
const SIDE = {green: "agent", assassin: "assassin", bystander: "-"};
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
// The bot's moves are played back one by one; people who ask for less motion get them at once.
const STEP_MS = window.matchMedia("(prefers-reduced-motion: reduce)").matches ? 0 : 700;

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v; else node.setAttribute(k, v);
  }
  for (const child of children) node.append(child);
  return node;
}

function pips(n, total, cls) {
  const box = el("span", {class: "tokens", "aria-hidden": "true"});
  for (let i = 0; i < total; i++) box.append(el("span", {class: `pip ${cls}${i < n ? "" : " spent"}`}));
  return box;
}

function renderStatus(s) {
  const box = $("status");
  box.replaceChildren();
  const tokens = el("span", {id: "tokens", "data-tokens": String(s.tokens)}, `Timer tokens: ${s.tokens} `);
  if (s.bystander_tokens !== null) {
    tokens.append(pips(s.bystander_tokens, s.bystander_tokens, "bystander"),
                  pips(s.tokens - s.bystander_tokens, s.tokens_total - s.bystander_tokens, ""));
    tokens.title = `${s.bystander_tokens} bystander side up: once they are gone a miss costs two`;
  } else {
    tokens.append(pips(s.tokens, s.tokens_total, ""));
  }
  box.append(tokens, el("span", {id: "found"}, `Agents found: ${s.agents_found} of 15`),
             el("span", {}, `Yours left for the bot: ${s.your_agents_left}`));
  if (s.bot_done && !s.over) box.append(el("strong", {}, "The bot has found all it needs: you give every clue."));
  if (s.you_done && !s.over) box.append(el("strong", {}, "All your agents are found: the bot gives every clue."));
}

function guessable(s, card) {
  return (s.you === "guess" || s.you === "sudden") && !card.out && !card.agent && !card.marked.includes("you");
}

function renderBoard(s, flash) {
  document.querySelectorAll("#board .card").forEach((node) => {
    const i = Number(node.dataset.index), card = s.cards[i];
    const cls = ["card", `side-${card.side}`];
    if (card.agent) cls.push("agent"); else if (card.out) cls.push("out");
    for (const who of card.marked) cls.push(`marked-${who}`);
    if (guessable(s, card)) cls.push("guessable");
    if (flash === i) cls.push("flash");
    node.className = cls.join(" ");
    node.disabled = !guessable(s, card) || page.busy;
    node.dataset.side = card.side;
    let tag = card.agent ? "found" : card.out ? "both missed" : card.side === "green" ? "your agent"
      : card.side === "assassin" ? "assassin" : "";
    const missed = card.out || card.agent ? [] : card.marked.map((who) => `missed by ${who}`);
    if (missed.length) tag = [tag, ...missed].filter(Boolean).join(", ");
    node.querySelector(".tag").textContent = tag;
    let bot = node.querySelector(".bot-side");
    if (card.bot_side) {
      if (!bot) { bot = el("span", {class: "bot-side"}); node.append(bot); }
      bot.textContent = `bot: ${SIDE[card.bot_side]}`;
    }
    node.setAttribute("aria-label", `${card.word}${tag ? ", " + tag : ""}`);
  });
}

function renderControls(s) {
  const clueTurn = s.you === "clue" && !s.over, guessTurn = (s.you === "guess" || s.you === "sudden") && !s.over;
  $("clue-form").hidden = !clueTurn;
  $("guess-bar").hidden = !guessTurn;
  $("hint").hidden = s.over;
  if (guessTurn) {
    if (s.you === "sudden") {
      $("guess-text").textContent = "Sudden death: guess one word at a time; any word that is not an agent loses.";
    } else {
      const cap = s.guesses_left !== null ? ` (at most ${s.guesses_left} more)` : "";
      $("guess-text").textContent = `Guess on the bot's clue ${s.clue.word.toUpperCase()} ${s.clue.number}${cap}: click a card.`;
    }
  }
  $("pass").hidden = s.you !== "guess";
  $("pass").disabled = !s.can_pass || page.busy;
  $("pass").title = s.can_pass ? "" : "you may end the turn after a correct guess";
  $("clue-send").disabled = page.busy;
  $("hint").disabled = page.busy;
  $("wait").hidden = !page.busy;
}

function renderHistory(s) {
  const list = $("history");
  list.replaceChildren();
  for (const row of s.history) {
    const item = el("li", {}, el("strong", {}, row.by === "both" ? "Sudden death" : `${row.by === "you" ? "You" : "Bot"}: ${row.clue.toUpperCase()} ${row.number}`));
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
}

function renderEnd(s) {
  const box = $("end");
  box.hidden = !s.over;
  if (!s.over) return;
  box.className = `panel end ${s.outcome.result === "win" ? "won" : "lost"}`;
  box.replaceChildren(el("h2", {id: "outcome"}, s.outcome.text),
                      el("p", {}, "The board now shows both sides of the key card. "),
                      el("p", {}, el("a", {href: "/"}, "Play another game")));
}

function render(s, flash) {
  page.state = s;
  document.body.dataset.version = String(s.version);  // what the page shows (tests wait on it)
  document.body.dataset.busy = String(page.busy);
  renderStatus(s);
  renderBoard(s, flash);
  renderControls(s);
  renderHistory(s);
  renderEnd(s);
  $("said").textContent = s.said || $("said").textContent;
}

function showError(text, stale) {
  const box = $("message");
  box.className = "message";
  box.replaceChildren(text);
  if (stale) {
    const link = el("a", {href: window.location.pathname}, "reload");
    box.append(" ", link);
  }
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
    throw error;
  }
  return data;
}

async function play(frames, final) {
  for (const frame of frames) {
    const flash = frame.event.kind === "guess" ? frame.event.index : undefined;
    render(frame, flash);
    await sleep(frame.event.by === "bot" ? STEP_MS : STEP_MS / 3);
  }
  render(final);
}

async function send(action) {
  if (page.busy) return;  // one move at a time: a double click sends once
  page.busy = true;
  $("message").textContent = "";
  $("hint-box").hidden = true;
  render(page.state);
  try {
    const data = await request("POST", `${api}/actions`, {version: page.state.version, ...action});
    await play(data.frames, data.state);  // still busy: no click lands on a frame being shown
    page.busy = false;
    render(data.state);
    if (data.state.you === "clue") { $("clue-word").value = ""; $("clue-check").textContent = ""; }
  } catch (err) {
    page.busy = false;
    render(page.state);
    showError(err.message, err.status === 409);
  }
}

$("board").addEventListener("click", (ev) => {
  const node = ev.target.closest(".card");
  if (!node || node.disabled) return;
  const card = page.state.cards[Number(node.dataset.index)];
  if (guessable(page.state, card)) send({guess: card.word});
});

$("pass").addEventListener("click", () => send({pass: true}));

$("clue-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const word = $("clue-word").value.trim();
  if (!word) { showError("type a clue: one word, then choose a number"); return; }
  send({clue: word, number: Number($("clue-number").value)});
});

async function checkClue() {
  const word = $("clue-word").value.trim(), out = $("clue-check");
  if (!word) { out.textContent = ""; return; }
  try {
    const params = new URLSearchParams({clue: word, number: $("clue-number").value});
    const result = await request("GET", `${api}/check?${params}`);
    if ($("clue-word").value.trim() !== word) return;  // the person typed on
    out.className = `check ${result.ok ? "ok" : "bad"}`;
    out.textContent = result.message;
  } catch (err) {
    out.className = "check bad";
    out.textContent = err.message;
  }
}

for (const id of ["clue-word", "clue-number"]) {
  $(id).addEventListener("input", () => {
    clearTimeout(page.checkTimer);
    page.checkTimer = setTimeout(checkClue, 150);
  });
}

function pct(p) { return `${Math.round(100 * p)}%`; }

$("hint").addEventListener("click", async () => {
  const box = $("hint-box");
  $("hint").disabled = true;
  try {
    const hint = await request("GET", `${api}/hint`);
    box.replaceChildren();
    const list = el("ol");
    if (hint.role === "clue") {
      box.append(el("strong", {}, "The bot would say (click one to use it):"));
      for (const c of hint.clues) {
        const watch = c.dangers.map((d) => `${d.word} (${d.label})`).join(", ");
        const item = el("li", {class: "hint-clue"},
          el("button", {type: "button", "data-clue": c.clue, "data-number": String(c.number)}, `${c.clue.toUpperCase()} ${c.number}`),
          ` for ${c.targets.join(", ") || "no word: a warning"}; expected agents ${c.expected_greens.toFixed(1)}, assassin ${pct(c.p_assassin)}`
          + (watch ? `; watch ${watch}` : ""));
        list.append(item);
      }
    } else {
      box.append(el("strong", {}, hint.sudden_death ? "The safest guesses:" : `Best guesses (the bot would stop after ${hint.stop_after}):`));
      for (const g of hint.guesses) list.append(el("li", {}, `${g.word}: agent ${pct(g.p_green)}, assassin ${pct(g.p_assassin)}`));
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

render(initial);
