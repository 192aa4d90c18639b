// The table helper (GET /table): the board of a real game on the table, your marks, and the
// bot's advice from POST /api/suggest (the public "suggest" contract). No game logic lives
// here: the page only turns marks into a request and shows the answer. Everything is kept in
// localStorage, so a phone that reloads the page mid-game keeps the table.
//
// Hooks (stable ids and data attributes; the tests drive the page through them):
//   [data-game="duet|classic"]  game switch              #tt-new        New board (tap twice)
//   #tt-entry (details): #tt-words textarea, #tt-fill    #tt-edit       edit-words toggle
//   #tt-grid .tt-card[data-index]  cards: data-key (green|assassin|team|opponent|""),
//       data-table (covered|wrong|bystander|""), data-rank, class tt-target;
//       .tt-cell-input[data-index] while editing words
//   [data-mark="green|assassin|wrong|bystander|covered|none"] (Duet),
//   [data-mark="team|opponent|assassin|covered|none"] (Classic)     mark selector
//   #tt-tokens (Duet)   [data-mode="suggest|guess"] mode tabs
//   #tt-top, #tt-suggest        how many clues, Suggest clues
//   #tt-clues > .tt-clue rows (.tt-clue-word, .tt-clue-number, .tt-clue-remove), #tt-add-clue, #tt-guess
//   #tt-results: .tt-suggestion buttons, or ol.tt-ranking > li[data-word] and li.tt-stop
//   #tt-message                 the one error line (role="alert")
//   #tt-photo-board, #tt-photo-key   camera inputs (POST /api/photo/board|key); #tt-review the
//       reading to check: .tt-review-input[data-index] (words; .tt-unread where unreadable) or
//       .tt-review-key[data-index][data-label] (key cells, a tap cycles), #tt-review-use, #tt-review-cancel
//
// Every text reaches the DOM through textContent or text nodes, never as HTML.
"use strict";

(() => {
  const root = document.getElementById("table-app");
  if (!root) return;

  const STORE = "duetbot.table.v1";
  const SIZE = 25;
  const MAX_WORD = 100;  // the contract's longest board word

  // Marks come in two layers, so a card can hold one of each: "key" is what my side of the key
  // card says (fixed for the game), "table" is what has happened on the table. In Duet a word
  // I guessed that my partner called a bystander ("wrong") may still be one of my greens, so
  // the two must not exclude each other. The two Duet misses are different facts: "wrong" is
  // my guess (the contract's guesser "wrong"), "bystander" is my partner's guess on a bystander
  // of my side (the spymaster's "partner_bystanders").
  const GAMES = {
    duet: {
      name: "Duet",
      marks: [
        {id: "green", layer: "key", label: "Green", tag: "GREEN", title: "One of my agents (my side of the key card)", most: 9},
        {id: "assassin", layer: "key", label: "Assassin", tag: "ASSASSIN", title: "An assassin on my side of the key card",
          most: 3},
        {id: "wrong", layer: "table", label: "My miss", tag: "MY MISS", title: "I guessed it and my partner said bystander"},
        {id: "bystander", layer: "table", label: "Their miss", tag: "THEIR MISS",
          title: "My partner guessed it and it is a bystander on my side"},
        {id: "covered", layer: "table", label: "Covered", tag: "COVERED", title: "An agent found by either of us"},
        {id: "none", layer: null, label: "Clear", tag: "", title: "Clear the card's marks"},
      ],
      cluesTitle: "Your partner's clues",
      agents: "greens",
      keyRule: "a Duet side has 9 greens and 3 assassins at most",
    },
    classic: {
      name: "Classic",
      marks: [
        {id: "team", layer: "key", label: "My team", tag: "TEAM", title: "An agent of my team", most: 9},
        {id: "opponent", layer: "key", label: "Other team", tag: "OTHER", title: "An agent of the other team", most: 9},
        {id: "assassin", layer: "key", label: "Assassin", tag: "ASSASSIN", title: "The assassin", most: 1},
        {id: "covered", layer: "table", label: "Covered", tag: "COVERED", title: "A card already covered"},
        {id: "none", layer: null, label: "Clear", tag: "", title: "Clear the card's marks"},
      ],
      cluesTitle: "Your spymaster's clues",
      agents: "agents",
      keyRule: "a classic key card has 9 agents a team and 1 assassin at most",
    },
  };
  const TOPS = [3, 5, 10];

  // --- state -------------------------------------------------------------------------------

  const blankMarks = () => ({key: Array(SIZE).fill(""), table: Array(SIZE).fill("")});
  const fresh = (game) => ({
    game, words: [], text: "", marks: {duet: blankMarks(), classic: blankMarks()},
    mark: {duet: "green", classic: "team"}, mode: "suggest", clues: [{clue: "", number: ""}],
    tokens: "9", top: 5,
  });

  function load() {
    const state = fresh("duet");
    let saved = null;
    try {
      saved = JSON.parse(localStorage.getItem(STORE) || "null");
    } catch (e) {
      return state;  // unreadable (or storage off): start clean
    }
    if (!saved || typeof saved !== "object") return state;
    // Take only what has the expected shape: an old or hand-edited entry must not break the page.
    if (saved.game === "classic") state.game = "classic";
    if (Array.isArray(saved.words) && saved.words.length === SIZE
        && saved.words.every((w) => typeof w === "string" && w.trim())) state.words = saved.words.slice();
    if (typeof saved.text === "string") state.text = saved.text;
    for (const game of Object.keys(GAMES)) {
      const ids = (layer) => GAMES[game].marks.filter((m) => m.layer === layer).map((m) => m.id);
      for (const layer of ["key", "table"]) {
        const got = saved.marks && saved.marks[game] && saved.marks[game][layer];
        if (Array.isArray(got) && got.length === SIZE) {
          state.marks[game][layer] = got.map((m) => (ids(layer).includes(m) ? m : ""));
        }
      }
      const mark = saved.mark && saved.mark[game];
      if (GAMES[game].marks.some((m) => m.id === mark)) state.mark[game] = mark;
    }
    if (saved.mode === "guess") state.mode = "guess";
    if (Array.isArray(saved.clues) && saved.clues.length) {
      state.clues = saved.clues.filter((c) => c && typeof c === "object").slice(0, 30)
        .map((c) => ({clue: String(c.clue ?? ""), number: String(c.number ?? "")}));
      if (!state.clues.length) state.clues = [{clue: "", number: ""}];
    }
    if (typeof saved.tokens === "string" || typeof saved.tokens === "number") state.tokens = String(saved.tokens);
    if (TOPS.includes(saved.top)) state.top = saved.top;
    return state;
  }

  let state = load();
  // The last answer shown: not saved (it is cheap to ask again, and it goes stale with the table).
  let view = null;  // {mode, game, body, selected, stale}
  let busy = false;
  let asked = 0;

  function save() {
    try {
      localStorage.setItem(STORE, JSON.stringify(state));
    } catch (e) {
      // Storage full or disabled: the page still works, it just forgets on reload.
    }
  }

  const marks = () => state.marks[state.game];
  const game = () => GAMES[state.game];
  const markDef = (id) => game().marks.find((m) => m.id === id) || game().marks[0];
  // Words compare as the server compares them: spaces collapsed, case ignored.
  const norm = (w) => String(w).trim().split(/\s+/).join(" ").toUpperCase();

  // --- a tiny DOM builder ------------------------------------------------------------------

  function el(tag, props, ...kids) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(props || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : String(v));
    }
    // append() turns strings into text nodes: nothing here is ever parsed as HTML.
    for (const kid of kids.flat()) if (kid !== null && kid !== undefined && kid !== false) node.append(kid);
    return node;
  }

  // --- reading the words -------------------------------------------------------------------

  // Newlines, commas, semicolons and tabs always separate words, so "ICE CREAM" on a line of
  // its own stays one word. Spaces separate only where that is what the text means: runs of
  // two or more (a pasted table), or lines of three or more words (rows of the grid typed with
  // single spaces); a line of one or two words is kept whole.
  function parseWords(text) {
    const tidy = (parts) => parts.map((p) => p.trim().split(/\s+/).join(" ")).filter(Boolean);
    const pieces = text.split(/[\r\n,;\t]+/);
    const lines = tidy(pieces);
    let words = lines;
    if (lines.length !== SIZE) {
      const byRuns = tidy(pieces.flatMap((p) => p.trim().split(/\s{2,}/)));
      const byRows = lines.flatMap((w) => (w.split(" ").length >= 3 ? w.split(" ") : [w]));
      words = [byRuns, byRows].find((c) => c.length === SIZE) || byRows;
    }
    if (!words.length) return {error: "Type or paste the 25 words of the board first."};
    if (words.length !== SIZE) {
      return {error: `Found ${words.length} word${words.length === 1 ? "" : "s"}; a board has 25. `
        + "Separate them with new lines, commas or spaces (a word like ICE CREAM on a line of its own)."};
    }
    const problem = checkWords(words);
    return problem ? {error: problem} : {words};
  }

  function checkWords(words) {
    const seen = new Set();
    for (const w of words) {
      if (!w) return "A card has no word.";
      if (w.length > MAX_WORD) return `"${w.slice(0, 30)}..." is too long for a card (at most ${MAX_WORD} letters).`;
      if (seen.has(norm(w))) return `"${w}" is on the board twice; each card has its own word.`;
      seen.add(norm(w));
    }
    return null;
  }

  // --- the page's skeleton (built once; the parts below re-render themselves) ---------------

  const message = el("p", {id: "tt-message", class: "message tt-message", role: "alert", hidden: true});
  const words = el("textarea", {
    id: "tt-words", rows: 6, maxlength: 6000, autocomplete: "off", autocapitalize: "characters", spellcheck: "false",
    placeholder: "The 25 words, one per line, or separated by commas or spaces", "aria-label": "The 25 words of the board",
    oninput: () => { state.text = words.value; save(); },
  });
  words.value = state.text;
  const fillButton = el("button", {id: "tt-fill", type: "button", onclick: fill}, "Fill the board");
  // The camera: a photo is read on this computer (duetbot serve), shown for checking, and
  // changes the table only when the person says so.
  const camera = (id, label, onfile) => {
    const input = el("input", {id, type: "file", accept: "image/*", capture: "environment", class: "tt-file",
      onchange: () => { const file = input.files && input.files[0]; input.value = ""; if (file) onfile(file); }});
    return el("label", {class: "tt-camera"}, el("span", {class: "tt-camera-text"}, label), input);
  };
  const boardCamera = camera("tt-photo-board", "Words from a photo", (file) => readPhoto("board", file));
  const keyCamera = camera("tt-photo-key", "Key card from a photo", (file) => readPhoto("key", file));
  const review = el("section", {id: "tt-review", class: "panel tt-review", hidden: true, "aria-label": "Check the photo"});
  const entry = el("details", {id: "tt-entry", class: "panel tt-entry"},
    el("summary", {}, "Board words"),
    el("div", {class: "row"}, boardCamera,
      el("span", {class: "muted"}, "Photograph the board from above; you check every word before it is used.")),
    words,
    el("div", {class: "row"}, fillButton,
      el("span", {class: "muted"}, "Words with a space (ICE CREAM): one per line.")));

  const gameButtons = Object.keys(GAMES).map((g) =>
    el("button", {type: "button", class: "tt-toggle", "data-game": g, onclick: () => setGame(g)}, GAMES[g].name));
  let newArmed = null;
  const newButton = el("button", {id: "tt-new", type: "button", class: "tt-new", onclick: newBoard}, "New board");

  const markBar = el("div", {class: "tt-marks", role: "group", "aria-label": "Mark to put on a tapped card"});
  const grid = el("div", {id: "tt-grid", class: "tt-grid", role: "group", "aria-label": "The board"});
  const editButton = el("button", {id: "tt-edit", type: "button", class: "tt-toggle", onclick: toggleEdit}, "Edit words");
  let editing = false;

  const tokens = el("input", {
    id: "tt-tokens", type: "number", inputmode: "numeric", min: 0, max: 30, step: 1, class: "tt-number",
    oninput: () => { state.tokens = tokens.value; save(); },
  });
  tokens.value = state.tokens;
  const tokensLabel = el("label", {class: "tt-tokens"}, "Timer tokens left ", tokens);

  const modeButtons = [["suggest", "Suggest clues"], ["guess", "Guess"]].map(([m, label]) =>
    el("button", {type: "button", class: "tt-tab", "data-mode": m, onclick: () => setMode(m)}, label));

  const top = el("select", {id: "tt-top", onchange: () => { state.top = Number(top.value); save(); }},
    TOPS.map((n) => el("option", {value: n}, String(n))));
  top.value = String(state.top);
  const suggestButton = el("button", {id: "tt-suggest", type: "button", class: "tt-go", onclick: suggest}, "Suggest clues");
  const suggestPanel = el("div", {class: "tt-mode-panel"},
    el("div", {class: "row"}, el("label", {}, "Show ", top, " clues"), suggestButton));

  const clueTitle = el("h2", {class: "tt-h"});
  const clueList = el("ol", {id: "tt-clues", class: "tt-clues"});
  const addClue = el("button", {id: "tt-add-clue", type: "button", onclick: () => {
    state.clues.push({clue: "", number: ""});
    save();
    renderClues();
    clueList.querySelector(".tt-clue:last-child .tt-clue-word").focus();
  }}, "Add a clue");
  const guessButton = el("button", {id: "tt-guess", type: "submit", class: "tt-go"}, "Rank the board");
  // A form, so the phone keyboard's Go/Enter ranks the board.
  const guessPanel = el("form", {class: "tt-mode-panel", onsubmit: (e) => { e.preventDefault(); guess(); }},
    clueTitle, el("p", {class: "muted tt-small"}, "Oldest first; the last one is the clue you are guessing now."),
    clueList, el("div", {class: "row"}, addClue, guessButton));

  const results = el("section", {id: "tt-results", class: "tt-results", "aria-live": "polite"});

  root.replaceChildren(
    el("section", {class: "panel tt-head"},
      el("div", {class: "row tt-spread"},
        el("div", {class: "tt-switch", role: "group", "aria-label": "Game"}, gameButtons), newButton)),
    entry,
    review,
    el("section", {class: "panel tt-board"},
      markBar, grid,
      el("div", {class: "row tt-spread"}, editButton, keyCamera, tokensLabel)),
    el("section", {class: "panel tt-ask"},
      el("div", {class: "tt-switch tt-modes", role: "group", "aria-label": "What to ask"}, modeButtons),
      suggestPanel, guessPanel),
    message,
    results);

  // --- rendering ---------------------------------------------------------------------------

  function render() {
    for (const b of gameButtons) b.setAttribute("aria-pressed", String(b.dataset.game === state.game));
    for (const b of modeButtons) b.setAttribute("aria-pressed", String(b.dataset.mode === state.mode));
    suggestPanel.hidden = state.mode !== "suggest";
    guessPanel.hidden = state.mode !== "guess";
    tokensLabel.hidden = state.game !== "duet";
    keyCamera.hidden = state.game !== "duet" || !state.words.length;
    clueTitle.textContent = game().cluesTitle;
    // The words are out of the way once the board is filled (a tap opens them again).
    if (!state.words.length) entry.open = true;
    renderMarks();
    renderGrid();
    renderClues();
    renderResults();
  }

  function renderMarks() {
    markBar.replaceChildren(...game().marks.map((m) => el("button", {
      type: "button", class: `tt-mark tt-m-${m.id}`, "data-mark": m.id, title: m.title,
      "aria-pressed": String(state.mark[state.game] === m.id),
      onclick: () => { state.mark[state.game] = m.id; save(); renderMarks(); },
    }, el("span", {class: "tt-swatch", "aria-hidden": "true"}), m.label)));
  }

  // Which board positions the answer on screen points at: targets of the chosen clue, ranks.
  function highlights() {
    const out = {targets: new Set(), ranks: new Map(), stop: 0};
    if (!view || view.game !== state.game) return out;
    const index = new Map(state.words.map((w, i) => [norm(w), i]));
    if (view.mode === "suggest" && view.selected !== null) {
      for (const w of view.body.clues[view.selected].targets || []) {
        if (index.has(norm(w))) out.targets.add(index.get(norm(w)));
      }
    }
    if (view.mode === "guess") {
      (view.body.guesses || []).forEach((g, rank) => {
        if (index.has(norm(g.word))) out.ranks.set(index.get(norm(g.word)), rank + 1);
      });
      out.stop = view.body.stop_after || 0;
    }
    return out;
  }

  function renderGrid() {
    grid.classList.toggle("tt-editing", editing);
    editButton.setAttribute("aria-pressed", String(editing));
    editButton.textContent = editing ? "Done editing" : "Edit words";
    editButton.hidden = !state.words.length;
    if (!state.words.length) {
      grid.replaceChildren(el("p", {class: "muted tt-empty"}, "Type or paste the board's 25 words above, then Fill the board."));
      return;
    }
    if (editing) {
      grid.replaceChildren(...state.words.map((w, i) => el("input", {
        class: "tt-cell-input", "data-index": i, value: w, maxlength: MAX_WORD, autocomplete: "off",
        autocapitalize: "characters", spellcheck: "false", "aria-label": `Word ${i + 1}`,
        onchange: (e) => editWord(i, e.target),
      })));
      return;
    }
    const {targets, ranks, stop} = highlights();
    const m = marks();
    grid.replaceChildren(...state.words.map((w, i) => {
      const key = m.key[i], table = m.table[i];
      const tags = [key, table].filter(Boolean).map((id) => markDef(id).tag);
      const longest = Math.max(...w.split(" ").map((part) => part.length));
      const card = el("button", {
        type: "button", class: "tt-card", "data-index": i, "data-key": key, "data-table": table,
        style: `--len: ${Math.max(longest, 5)}`, onclick: () => tapCard(i),
      });
      if (ranks.has(i)) {
        const rank = ranks.get(i);
        card.dataset.rank = String(rank);
        card.classList.add(rank <= stop ? "tt-in" : "tt-out");
        card.append(el("span", {class: "tt-rank", title: `Ranked ${rank}`}, String(rank)));
      }
      if (targets.has(i)) {
        card.classList.add("tt-target");
        card.append(el("span", {class: "tt-star", title: "A target of the chosen clue"}, "\u2605"));
      }
      card.append(el("span", {class: "tt-word"}, w), el("span", {class: "tt-tag"}, tags.join(" \u00b7 ")));
      return card;
    }));
    fitWords();
  }

  // CSS gives each word a size from its length; fonts differ, so shrink any word that still
  // overflows its card, and break it only when even the smallest readable size is too wide.
  const MIN_FONT_PX = 8;
  function fitWords() {
    for (const word of grid.querySelectorAll(".tt-word")) {
      word.style.fontSize = "";
      word.classList.remove("tt-squeeze");
      let size = parseFloat(getComputedStyle(word).fontSize);
      while (word.scrollWidth > word.clientWidth + 1 && size > MIN_FONT_PX) {
        size = Math.max(MIN_FONT_PX, size - 1);
        word.style.fontSize = `${size}px`;
      }
      if (word.scrollWidth > word.clientWidth + 1) word.classList.add("tt-squeeze");
    }
  }
  // Refit when the grid's width changes (a phone turned sideways), not when its height does.
  let fittedWidth = 0;
  const refit = () => {
    if (grid.clientWidth !== fittedWidth && !editing) { fittedWidth = grid.clientWidth; fitWords(); }
  };
  if (window.ResizeObserver) new ResizeObserver(refit).observe(grid);
  else window.addEventListener("resize", refit);

  // A tapped suggestion stars its words on the board: bring the board into view if it is
  // off screen (on a phone the suggestions sit below it).
  function showGrid() {
    const box = grid.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) {
      const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
      grid.scrollIntoView({behavior: still ? "auto" : "smooth", block: "nearest"});
    }
  }

  function renderClues() {
    clueList.replaceChildren(...state.clues.map((c, i) => el("li", {class: "tt-clue"},
      el("input", {
        class: "tt-clue-word", value: c.clue, maxlength: 60, autocomplete: "off", autocapitalize: "none",
        spellcheck: "false", placeholder: "clue", "aria-label": `Clue ${i + 1}`,
        oninput: (e) => { c.clue = e.target.value; save(); },
      }),
      el("input", {
        class: "tt-clue-number tt-number", type: "number", inputmode: "numeric", min: 0, max: 9, step: 1,
        value: c.number, placeholder: "#", "aria-label": `Number of clue ${i + 1}`,
        oninput: (e) => { c.number = e.target.value; save(); },
      }),
      i === state.clues.length - 1 ? el("span", {class: "tt-now"}, "now") : null,
      el("button", {
        type: "button", class: "tt-clue-remove", "aria-label": `Remove clue ${i + 1}`, title: "Remove",
        onclick: () => {
          state.clues.splice(i, 1);
          if (!state.clues.length) state.clues.push({clue: "", number: ""});
          save();
          renderClues();
        },
      }, "\u00d7"))));
  }

  const pct = (p) => {
    const n = Number(p) || 0;
    return n > 0 && n < 0.005 ? "<1%" : `${Math.round(n * 100)}%`;
  };

  function renderResults() {
    results.replaceChildren();
    if (!view || view.game !== state.game || view.mode !== state.mode) return;
    const body = view.body;
    const box = el("div", {class: "panel"});
    if (view.stale) box.append(el("p", {class: "muted tt-stale"}, "The board changed since: ask again for fresh advice."));
    if (view.mode === "suggest") {
      box.append(el("h2", {class: "tt-h"}, "Suggested clues"),
        el("p", {class: "muted tt-small"}, "Tap a clue to see its words on the board."));
      if (!body.clues.length) box.append(el("p", {}, "No clue to suggest."));
      const list = el("ol", {class: "tt-suggestions"});
      body.clues.forEach((c, i) => {
        const watch = (c.dangers || []).map((d) => el("span", {class: `tt-danger tt-d-${d.label}`}, `${d.word} (${d.label})`));
        list.append(el("li", {}, el("button", {
          type: "button", class: "tt-suggestion", "aria-pressed": String(view.selected === i),
          onclick: () => { view.selected = view.selected === i ? null : i; renderResults(); renderGrid(); showGrid(); },
        },
        el("span", {class: "tt-clue-line"}, el("strong", {class: "tt-said"}, c.clue), " ", el("span", {class: "tt-n"}, String(c.number))),
        el("span", {class: "tt-targets"}, "For: ", (c.targets || []).map((t, k) => {
          // each target with its link's strength, so the weak one shows at a glance
          const v = (c.links || [])[k];
          return v === undefined ? t : `${t} (${v >= 0.9 ? "strong" : v >= 0.7 ? "fair" : "weak"})`;
        }).join(", ")),
        el("span", {class: "tt-stats"},
          `Expected ${game().agents} ${Number(c.expected_greens).toFixed(1)} \u00b7 assassin ${pct(c.p_assassin)}`
          + ` \u00b7 bystander ${pct(c.p_bystander)}`),
        watch.length ? el("span", {class: "tt-watch"}, "Words to watch: ",
          watch.flatMap((w, k) => (k ? [", ", w] : [w]))) : null)));
      });
      box.append(list);
    } else {
      const last = body.clues_asked;
      box.append(el("h2", {class: "tt-h"}, `Ranking for ${last.clue} ${last.number}`));
      const list = el("ol", {class: "tt-ranking"});
      const stop = body.stop_after;
      body.guesses.forEach((g, i) => {
        const odds = state.game === "duet"
          ? `green ${pct(g.p_green)} \u00b7 assassin ${pct(g.p_assassin)}`
          : `agent ${pct(g.p_agent)} \u00b7 opponent ${pct(g.p_opponent)} \u00b7 assassin ${pct(g.p_assassin)}`;
        list.append(el("li", {class: i < stop ? "tt-in" : "tt-out", "data-word": g.word},
          el("span", {class: "tt-r"}, String(i + 1)), el("span", {class: "tt-w"}, g.word), el("span", {class: "tt-odds"}, odds)));
        if (i + 1 === stop) {
          list.append(el("li", {class: "tt-stop", role: "separator"},
            `Stop after ${stop}: end the turn here`));
        }
      });
      box.append(list);
    }
    if (body.notes && body.notes.length) {
      box.append(el("ul", {class: "tt-notes muted"}, body.notes.map((n) => el("li", {}, String(n)))));
    }
    results.append(box);
  }

  // --- actions -----------------------------------------------------------------------------

  // One error line, moved next to what caused it so a phone user sees it without scrolling.
  function showError(text, near) {
    message.textContent = text || "";
    message.hidden = !text;
    if (text && near && near.parentNode) near.after(message);
  }

  function fill() {
    const parsed = parseWords(words.value);
    if (parsed.error) {
      showError(parsed.error, entry);
      return;
    }
    // Marks follow their words: filling again after fixing a typo keeps the rest of the table.
    const old = new Map(state.words.map((w, i) => [norm(w), i]));
    for (const g of Object.keys(GAMES)) {
      const before = state.marks[g], after = blankMarks();
      parsed.words.forEach((w, i) => {
        const j = old.get(norm(w));
        if (j !== undefined) { after.key[i] = before.key[j]; after.table[i] = before.table[j]; }
      });
      state.marks[g] = after;
    }
    state.words = parsed.words;
    state.text = words.value = parsed.words.join("\n");  // shows how the text was read
    entry.open = false;
    editing = false;
    view = null;
    save();
    showError("");
    render();
  }

  function editWord(i, input) {
    const next = state.words.slice();
    next[i] = input.value.trim().split(/\s+/).join(" ");
    const problem = checkWords(next);
    if (problem) {
      showError(problem, grid.parentNode);
      input.value = state.words[i];
      return;
    }
    showError("");
    state.words = next;
    state.text = words.value = next.join("\n");
    view = null;
    save();
  }

  function toggleEdit() {
    editing = !editing;
    renderGrid();
    if (editing) grid.querySelector(".tt-cell-input").focus();
    else renderResults();
  }

  function tapCard(i) {
    const m = marks(), def = markDef(state.mark[state.game]);
    if (!def.layer) {
      m.key[i] = "";
      m.table[i] = "";
    } else {
      const layer = m[def.layer];
      layer[i] = layer[i] === def.id ? "" : def.id;
      // "Their miss" is a bystander on my side: it cannot be green or an assassin of mine.
      if (layer[i] === "bystander") m.key[i] = "";
      if (def.layer === "key" && m.key[i] && m.table[i] === "bystander") m.table[i] = "";
    }
    if (view) view.stale = true;
    save();
    renderGrid();
    renderResults();
  }

  function setGame(g) {
    if (state.game === g) return;
    state.game = g;
    save();
    showError("");
    render();
  }

  function setMode(mode) {
    state.mode = mode;
    save();
    showError("");
    render();
  }

  function newBoard() {
    // Two taps, so a stray tap at the table does not wipe the game (no dialog to dismiss).
    if (!newArmed) {
      newButton.textContent = "Tap again to clear";
      newArmed = setTimeout(() => { newArmed = null; newButton.textContent = "New board"; }, 3000);
      return;
    }
    clearTimeout(newArmed);
    newArmed = null;
    newButton.textContent = "New board";
    state = fresh(state.game);
    words.value = "";
    tokens.value = state.tokens;
    top.value = String(state.top);
    view = null;
    editing = false;
    save();
    showError("");
    render();
    words.focus();
  }

  // --- asking the server -------------------------------------------------------------------

  const marked = (layer, id) => state.words.filter((w, i) => marks()[layer][i] === id);

  // The request the contract wants, or an error line: nothing is sent for a table that
  // cannot be answered.
  function tokensValue() {
    if (state.game !== "duet" || String(state.tokens).trim() === "") return {value: undefined};
    const n = Number(state.tokens);
    if (!Number.isInteger(n) || n < 0 || n > 30) return {error: "Timer tokens: a whole number from 0 to 30."};
    return {value: n};
  }

  // A key card holds so many cards of each kind (the server refuses more too): more marks are
  // a slip of the finger, said in one line with the rule.
  function keyError() {
    for (const m of game().marks) {
      const n = m.most === undefined ? 0 : marked("key", m.id).length;
      if (n > m.most) return {error: `${n} cards are marked ${m.label}; ${game().keyRule}. Choose Clear and tap the extra ones.`};
    }
    return null;
  }

  function suggestRequest() {
    if (state.words.length !== SIZE) return {error: "Fill the board with its 25 words first."};
    const wrongKey = keyError();
    if (wrongKey) return wrongKey;
    const covered = marked("table", "covered");
    const t = tokensValue();
    if (t.error) return t;
    if (state.game === "duet") {
      if (!marked("key", "green").length) return {error: "Mark your greens first: choose Green, then tap your agents."};
      return {request: {
        role: "spymaster", board: state.words, green: marked("key", "green"), assassin: marked("key", "assassin"),
        covered, partner_bystanders: marked("table", "bystander"), tokens: t.value, top: state.top,
      }};
    }
    if (!marked("key", "team").length) return {error: "Mark your team's agents first: choose My team, then tap them."};
    return {request: {
      game: "classic", role: "spymaster", board: state.words, team_agents: marked("key", "team"),
      opponent_agents: marked("key", "opponent"), assassin: marked("key", "assassin"), covered, top: state.top,
    }};
  }

  function guessRequest() {
    if (state.words.length !== SIZE) return {error: "Fill the board with its 25 words first."};
    const clues = [];
    for (const [i, c] of state.clues.entries()) {
      const clue = c.clue.trim(), number = String(c.number).trim();
      if (!clue && !number) continue;  // an empty row is no clue
      if (!clue) return {error: `Clue ${i + 1} has a number but no word.`};
      const n = Number(number);
      if (number === "" || !Number.isInteger(n) || n < 0) return {error: `Give clue ${i + 1} (${clue}) a number from 0 to 9.`};
      clues.push({clue, number: n});
    }
    if (!clues.length) return {error: "Enter the clue you are guessing: a word and a number."};
    const covered = marked("table", "covered");
    if (state.game === "classic") return {request: {game: "classic", role: "guesser", board: state.words, clues, covered}};
    const t = tokensValue();
    if (t.error) return t;
    const wrongKey = keyError();
    if (wrongKey) return wrongKey;
    const request = {role: "guesser", board: state.words, clues, covered, wrong: marked("table", "wrong"), tokens: t.value};
    // Only a side that was marked is sent: no marks means "not known", not "no greens".
    const green = marked("key", "green"), assassin = marked("key", "assassin");
    if (green.length || assassin.length) Object.assign(request, {green, assassin});
    return {request};
  }

  function suggest() {
    const built = suggestRequest();
    if (built.error) return showError(built.error, suggestPanel);
    ask(built.request, suggestPanel, (body) => ({mode: "suggest", body, selected: null}));
  }

  function guess() {
    const built = guessRequest();
    if (built.error) return showError(built.error, guessPanel);
    const last = built.request.clues[built.request.clues.length - 1];
    ask(built.request, guessPanel, (body) => ({mode: "guess", body: {...body, clues_asked: last}}));
  }

  // POST to duetbot and read its JSON answer; an unreachable server, an answer that is not
  // JSON, or a one-line {"error"} answer is thrown as an Error saying so.
  async function post(url, type, payload) {
    let response;
    try {
      response = await fetch(url, {method: "POST", headers: {"Content-Type": type, Accept: "application/json"}, body: payload});
    } catch (e) {
      throw new Error("Could not reach duetbot: is duetbot serve still running?");
    }
    let body = null;
    try {
      body = await response.json();
    } catch (e) {
      body = null;
    }
    if (!body || typeof body !== "object") throw new Error(`The server answered HTTP ${response.status}, not JSON.`);
    if (body.error) throw new Error(String(body.error));
    return {response, body};
  }

  async function ask(request, near, toView) {
    if (busy) return;  // one request at a time: a double tap sends nothing more
    busy = true;
    const buttons = [suggestButton, guessButton];
    const labels = buttons.map((b) => b.textContent);
    for (const b of buttons) b.disabled = true;
    (state.mode === "suggest" ? suggestButton : guessButton).textContent = "Thinking...";
    const gameAsked = state.game;
    const id = ++asked;
    showError("");
    try {
      const {response, body} = await post("/api/suggest", "application/json", JSON.stringify({id, ...request}));
      // A clue word no model knows (a typo, most likely) would be ranked from its spelling:
      // say so instead of showing confident nonsense.
      const unknown = (body.unknown_clues || [])[0];
      if (unknown) {
        throw new Error(`${String(unknown.clue).toUpperCase()}: not a word I know.`
          + (unknown.did_you_mean ? ` Did you mean ${String(unknown.did_you_mean).toUpperCase()}?` : "")
          + " Check the clue.");
      }
      if (!response.ok) throw new Error(`The server answered HTTP ${response.status}.`);
      view = {game: gameAsked, stale: false, ...toView(body)};
      renderResults();
      renderGrid();
      results.scrollIntoView({behavior: "smooth", block: "nearest"});
    } catch (e) {
      showError(e.message, near);
    } finally {
      busy = false;
      buttons.forEach((b, i) => { b.disabled = false; b.textContent = labels[i]; });
    }
  }

  // --- the table from a photo --------------------------------------------------------------

  // A phone's photo is 2-12 MB: send a copy no wider than the reader uses (1280 px).
  async function shrink(file) {
    try {
      const bitmap = await createImageBitmap(file, {imageOrientation: "from-image"});
      const scale = Math.min(1, 1280 / Math.max(bitmap.width, bitmap.height));
      const canvas = el("canvas", {width: Math.round(bitmap.width * scale), height: Math.round(bitmap.height * scale)});
      canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
      const blob = await new Promise((ok) => canvas.toBlob(ok, "image/jpeg", 0.9));
      return blob || file;
    } catch (e) {
      return file;  // not decodable here: let the server say what it is
    }
  }

  async function readPhoto(kind, file) {
    if (busy) return;
    const near = kind === "key" ? grid.parentNode : entry;
    if (kind === "key" && !state.words.length) return showError("Fill the board first, then read the key card.", near);
    busy = true;
    showError("");
    const camera = kind === "key" ? keyCamera : boardCamera;
    const text = camera.querySelector(".tt-camera-text"), label = text.textContent;
    text.textContent = "Reading the photo...";
    try {
      const body = await shrink(file);
      const answer = (await post(`/api/photo/${kind}`, body.type || "image/jpeg", body)).body;
      if (kind === "key") showKeyReview(answer.key); else showWordReview(answer);
    } catch (e) {
      showError(e.message, near);  // the table stays as it was
    } finally {
      busy = false;
      text.textContent = label;
    }
  }

  function closeReview() {
    review.hidden = true;
    review.replaceChildren();
  }

  function reviewShell(title, note, cells, use) {
    review.replaceChildren(
      el("h2", {class: "tt-h"}, title), el("p", {class: "muted tt-small"}, note),
      el("div", {class: "tt-grid tt-review-grid", role: "group", "aria-label": title}, cells),
      el("div", {class: "row"},
        el("button", {id: "tt-review-use", type: "button", class: "tt-go", onclick: use}, "Use these"),
        el("button", {id: "tt-review-cancel", type: "button", onclick: () => { closeReview(); showError(""); }}, "Cancel")));
    review.hidden = false;
    review.scrollIntoView({behavior: "auto", block: "nearest"});
  }

  function showWordReview(answer) {
    const read = Array.isArray(answer.words) ? answer.words : [];
    const unreadable = new Set(Array.isArray(answer.unreadable) ? answer.unreadable : []);
    const inputs = read.slice(0, SIZE).map((w, i) => el("input", {
      class: `tt-cell-input tt-review-input${unreadable.has(i) ? " tt-unread" : ""}`, "data-index": i,
      value: String(w || ""), maxlength: MAX_WORD, autocomplete: "off", autocapitalize: "characters", spellcheck: "false",
      placeholder: unreadable.has(i) ? "?" : "", "aria-invalid": unreadable.has(i) ? "true" : null,
      "aria-label": `Word ${i + 1}${unreadable.has(i) ? " (unreadable in the photo: type it)" : ""}`,
      oninput: (e) => { e.target.classList.toggle("tt-unread", !e.target.value.trim()); },
    }));
    const missing = unreadable.size;
    reviewShell("Check the words read from the photo",
      missing ? `${missing} card${missing === 1 ? " was" : "s were"} unreadable (marked): type ${missing === 1 ? "it" : "them"}, `
        + "fix any other word, then Use these." : "Fix any word that is wrong, then Use these.",
      inputs, () => {
        const got = inputs.map((input) => input.value.trim().split(/\s+/).join(" "));
        const empty = got.findIndex((w) => !w);
        const problem = empty >= 0 ? `Type the word of card ${empty + 1} (row ${Math.floor(empty / 5) + 1}, `
          + `column ${empty % 5 + 1}): it was unreadable in the photo.` : checkWords(got);
        if (problem) {
          showError(problem, review);
          if (empty >= 0) inputs[empty].focus();
          return;
        }
        closeReview();
        words.value = got.join("\n");
        fill();
      });
    const first = inputs.find((input) => !input.value);
    if (first) first.focus();
  }

  const KEY_ORDER = ["green", "assassin", "bystander"];
  function showKeyReview(key) {
    if (!Array.isArray(key) || key.length !== SIZE) return showError("The server sent no key card.", grid.parentNode);
    const labels = key.map((k) => (KEY_ORDER.includes(k) ? k : "bystander"));
    const cells = labels.map((lab, i) => {
      const cell = el("button", {type: "button", class: "tt-card tt-review-key", "data-index": i}, "");
      const show = () => {
        cell.dataset.label = labels[i];
        cell.dataset.key = labels[i] === "bystander" ? "" : labels[i];
        cell.replaceChildren(el("span", {class: "tt-word"}, state.words[i]), el("span", {class: "tt-tag"}, labels[i].toUpperCase()));
        cell.setAttribute("aria-label", `${state.words[i]}: ${labels[i]} (tap to change)`);
      };
      cell.addEventListener("click", () => { labels[i] = KEY_ORDER[(KEY_ORDER.indexOf(labels[i]) + 1) % 3]; show(); });
      show();
      return cell;
    });
    reviewShell("Check your side of the key card",
      "Read from the photo and laid on your board. Tap a card to change it, then Use these.", cells, () => {
        const m = state.marks.duet;
        labels.forEach((lab, i) => {
          m.key[i] = lab === "bystander" ? "" : lab;
          if (m.key[i] && m.table[i] === "bystander") m.table[i] = "";  // a bystander of mine is neither
        });
        closeReview();
        if (view) view.stale = true;
        save();
        showError("");
        render();
      });
  }

  render();
})();
