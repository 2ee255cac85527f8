// A live table: a seat plays it (with its token) or a spectator watches it, drawn from the event stream alone
// (each `turn` message carries the reader's view: no GET /state per message). The game's own layout
// (games.js) draws the board, the seats' public cards and your hand; this page adds what every table has: the
// line that says what happens now, the seats' panels, moves by clicks on cards (then on a target) with every
// legal command also a plain button, the table's own controls, the log in sentences and the end of the game.
//
// THE RULES OF A MOVE BY CLICKS (docs/web-tables.md says them at length; a layout keeps them by what `move` returns:
// `on`, the key of the place a click starts the move at, and `to`, the key of its target, or nulls):
//  1. A click on a highlighted card (a place whose key starts moves) plays its one move at once, if the move has
//     no target and the card's whole text is on screen; otherwise it selects the card: its whole text in the card
//     line, its targets highlighted and every move it starts offered as a choice.
//  2. A click on a highlighted target with one move from the selected card plays it; with several (a pair with or
//     without "taking X", either wall partner, above or below a ridge card) it offers exactly those as choices.
//  3. A move that starts nowhere on the table is a plain button beside the hand ("End your turn").
//  So every legal command is reachable by clicks on cards, targets and the choices offered, never only through
//  "Every move as a button" (the browser tests' click-the-highlight player checks it at every step).
//  4. A dimmed card says why when tapped; any card's text is one tap away at any width (never only on hover).
//  5. At the end every hand is shown, your own first: a layout draws the own seat's revealed hand once over.

import { call, catalog, follow, store } from "./api.js";
import { el, human } from "./render.js";
import { cardEl, listWords } from "./cards.js";
import { aboutTable, defaultAiLevel, endWords, layoutFor, seatPanels } from "./games.js";
import { logEntry } from "./narrate.js";
import { toast } from "./toast.js";
import { chatPanel } from "./chat.js";
import { rematchPanel } from "./rematch.js";

export async function tablePage(main, gameId, seatWanted) {
  const path = `/v1/games/${encodeURIComponent(gameId)}`;
  const [games, resource] = await Promise.all([catalog(), call("GET", path)]);
  const game = games[resource.game];
  const layout = layoutFor(game);
  const tokens = store.tokens(gameId);
  const mySeats = Object.keys(tokens).map(Number).sort();
  const seat = seatWanted === "watch" ? null : seatWanted !== null && tokens[seatWanted] ? seatWanted : mySeats.length ? mySeats[0] : null;
  const token = seat === null ? null : tokens[seat];
  const page = {
    version: resource.version, status: resource.status, toAct: resource.to_act || [], legal: [], view: null,
    deadline: null, outcome: resource.outcome, busy: false, selected: null, target: null, moved: false, confirming: false,
    resend: null,
    seats: resource.seats, resource, logged: new Set(), wasMine: false, stuck: Boolean(resource.stuck),
  };
  const names = () => page.seats.map((s, n) => s.name || `Open seat ${n + 1}`);
  const talk = chatPanel({ path, token, seat });
  const offers = seat === null ? null : rematchPanel({ path, token, seat, names });
  const hosting = () => seat !== null && ((page.resource.host || {}).seats || []).includes(seat);

  const about = el("p", { class: "table-meta", id: "table-about" });
  const status = el("p", { class: "now", id: "status", "aria-live": "polite" });
  const clock = el("span", { class: "clock", id: "clock", role: "timer" });
  const actions = el("div", { class: "table-actions", id: "table-actions" });
  const seatsBox = el("section", { class: "seats", id: "seats", "aria-label": "the seats" });
  const board = el("section", { class: "board", id: "board", "aria-label": "the table" });
  const handBox = el("div", { class: "hand-row", id: "hand" });
  const handTitle = el("h3", { class: "hand-title", id: "hand-title" });
  const info = el("p", { class: "card-info", id: "card-info", "aria-live": "polite" });
  const choices = el("div", { class: "choices", id: "choices" });
  const moveButtons = el("div", { class: "move-buttons", id: "actions" });
  const controls = el("div", { class: "controls", id: "controls" });
  const allMoves = el("details", { class: "all-moves", id: "all-moves" }, el("summary", { text: "Every move as a button" }), controls);
  const result = el("section", { class: "result hidden", id: "result", "aria-live": "polite" });
  const log = el("ol", { class: "log", id: "log", reversed: true, tabindex: "0", "aria-label": "the log, newest first" });  // it scrolls: keys reach it too
  const mine = el("section", { class: "my-area" + (seat === null ? " hidden" : ""), id: "my-area", "aria-label": "your hand and moves" },
    el("div", { class: "my-head" }, handTitle, info), choices, moveButtons, handBox, allMoves);  // the choices above a long hand: in sight
  const seatPicker = mySeats.length > 1 ? el("p", { id: "seat-picker" }) : null;
  const drawPicker = () => seatPicker && seatPicker.replaceChildren("Your seats: ", ...mySeats.flatMap((n, i) => [i ? " · " : "",
    el("a", { href: `#/table/${gameId}/${n}`, class: n === seat ? "current" : "", "aria-current": n === seat ? "page" : null,
      text: page.seats[n] && !page.seats[n].open && page.seats[n].name ? page.seats[n].name : `Seat ${n + 1}` })]));
  const root = el("div", { class: "table-page", "data-game": game.id, "data-seat": seat === null ? "spectator" : seat },
    el("div", { class: "table-head" },
      el("h2", {}, game.title), about,
      el("p", { class: "links" }, el("a", { href: `#/replay/${gameId}`, id: "replay-link", text: "Replay" }), " · ",
        el("a", { href: `#/table/${gameId}/watch`, text: "Watch as spectator" }), " · ",
        el("span", { id: "role", text: seat === null ? "You are watching." : `You play ${names()[seat]}.` })), seatPicker),
    el("div", { class: "nowbar" }, status, clock), actions, result,
    el("div", { class: "felt" }, seatsBox, board), mine,
    talk.root, el("details", { class: "events", open: true }, el("summary", { text: "Log" }), log));
  main.replaceChildren(root);

  const ctx = () => ({ view: page.view || {}, seat, names: names(), legal: page.legal, toAct: page.toAct, over: page.status === "finished", outcome: page.outcome });
  const moves = () => page.legal.map((command, index) => ({ command, index, ...layout.move(command, ctx()) }))
    .map((m) => ({ ...m, words: m.words || human(m.command.type) }));
  const isMine = () => seat !== null && page.status === "active" && page.legal.length > 0;

  function nowWords(drawn) {
    const n = names();
    if (page.status === "finished") {
      const o = page.outcome || {};
      const winners = (o.winners || []).map((s) => s === seat ? "you" : n[s]);
      return `Game over: ${winners.length ? listWords(winners) + (winners.length === 1 && winners[0] !== "you" ? " wins" : " win") : "nobody wins"}.`;  // why: on the result's panel
    }
    if (page.status === "aborted") return "The table was called off.";
    if (page.status === "waiting") return "Waiting for players to take the open seats.";
    if (page.stuck) {  // a defect the server found and logged: say so rather than wait for ever
      return "This game cannot go on: the seat it waits on has nothing to play (a fault in the game's rules, " +
        "reported). You may resign; the table ends by itself once idle.";
    }
    const phase = drawn.phase || drawn.prompt ? ` (${drawn.phase || drawn.prompt})` : "";
    const waiting = page.toAct.filter((s) => s !== seat).map((s) => n[s]);
    const resigned = seat !== null && (page.seats[seat] || {}).resigned;
    if (resigned) return `You resigned: the AI plays your seat. Waiting on ${listWords(waiting) || "nobody"}${phase}.`;
    if (seat !== null && page.toAct.includes(seat) && page.legal.length) {
      const kinds = [...new Set(moves().map((m) => m.words.split(" ")[0].toLowerCase()))];
      const what = drawn.prompt || listWords(kinds.slice(0, 4)).replace(/ and ([^ ]+)$/, " or $1");
      return `Your move: ${what}${drawn.phase ? ` (${drawn.phase})` : ""}${waiting.length ? `; also waiting on ${listWords(waiting)}` : ""}.`;
    }
    const also = page.legal.length ? " You may play out of turn." : "";
    return `Waiting on ${listWords(waiting) || "nobody"}${phase}.${also}`;
  }

  function drawClock() {
    if (!page.deadline || page.status !== "active") { clock.textContent = ""; return; }
    const left = Math.max(0, Math.round((Date.parse(page.deadline) - Date.now()) / 1000));
    clock.textContent = `◷ ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")} left for this turn`;
    clock.className = "clock" + (left <= 10 ? " urgent" : "");
  }
  const ticker = setInterval(() => { if (!document.body.contains(clock)) clearInterval(ticker); else drawClock(); }, 1000);

  function drawSeats(drawn, used) {
    seatsBox.replaceChildren(...seatPanels(drawn, { names: names(), seats: page.seats, toAct: page.status === "active" ? page.toAct : [],
      me: seat, winners: page.status === "finished" ? (page.outcome || {}).winners || [] : [], used, over: page.status === "finished" }));
  }

  function drawHand(drawn) {
    handTitle.textContent = drawn.handTitle || "Your hand";
    handBox.replaceChildren(...(drawn.hand.length ? drawn.hand.map((c) => cardEl(c, { clickable: true })) : [el("span", { class: "muted", text: "no cards" })]));
  }

  // Moves on the page: what a click on each element does, the cards that may be played stand out, the rest dim.
  function mark() {
    const list = moves();
    const sel = page.selected;
    const starts = new Set(list.map((m) => m.on).filter(Boolean));
    const targets = new Set(sel && !page.target ? list.filter((m) => m.on === sel && m.to).map((m) => m.to) : []);
    root.querySelectorAll("[data-key]").forEach((node) => {
      const key = node.dataset.key;
      const playable = !page.busy && (starts.has(key) || targets.has(key));
      node.classList.toggle("playable", playable && !targets.has(key));
      node.classList.toggle("target", targets.has(key));
      node.classList.toggle("selected", key === sel || (sel !== null && key === page.target));
      node.classList.toggle("dim", !playable && handBox.contains(node) && isMine());
      if (node.tagName === "BUTTON") {
        if (playable) node.removeAttribute("aria-disabled");
        else if (!handBox.contains(node)) node.setAttribute("aria-disabled", "true");
      } else if (playable) {
        node.setAttribute("role", "button");
        node.setAttribute("tabindex", "0");
      }
    });
    choices.replaceChildren();
    if (sel) {  // rules 1 and 2: the moves the selected card starts, or those onto the target clicked
      const mineNow = list.filter((m) => m.on === sel && (!page.target || m.to === page.target));
      const ask = page.target ? "Choose one:" : targets.size ? "Choose a highlighted target, or:" : "Choose:";
      choices.append(el("p", { class: "muted", text: ask }),
        ...mineNow.map((m) => el("button", { type: "button", class: "choice", "data-index": m.index, onclick: () => post(m.command) }, m.words)),
        el("button", { type: "button", class: "choice-cancel", onclick: () => { page.selected = null; page.target = null; info.textContent = ""; mark(); } }, "Cancel"));
    }
    const onTable = new Set([...root.querySelectorAll("[data-key]")].map((node) => node.dataset.key));
    moveButtons.replaceChildren(...list.filter((m) => !m.on || !onTable.has(m.on)).map((m) => el("button", { type: "button", class: "action", "data-index": m.index, disabled: page.busy, onclick: () => post(m.command) }, m.words)));
    controls.replaceChildren(...(list.length ? list.map((m) => el("button", { type: "button", class: "command", "data-index": m.index, "data-type": m.command.type, disabled: page.busy, onclick: () => post(m.command) }, m.words))
      : [el("p", { class: "muted", text: seat === null ? "Spectators watch." : "Nothing to do right now." })]));
    allMoves.classList.toggle("hidden", seat === null || page.status !== "active");
  }

  function showChoices() {  // the hand bar's top holds the card's text and the choices: in sight, the page scrolled past it or not
    mine.scrollTop = 0;
    const box = choices.getBoundingClientRect();
    if (box.top < 0 || box.bottom > innerHeight) choices.scrollIntoView({ block: "nearest" });
  }

  function showTargets() {  // a target off screen is brought into view, clear of the hand at the page's foot
    const first = root.querySelector(".target");
    if (first && first.scrollIntoView) first.scrollIntoView({ block: "center", behavior: "smooth" });
  }

  // A card's whole text: its title holds it (the card shows it cut to a few lines, a small card not at all).
  const cardText = (node) => (node && (node.getAttribute("title") || node.getAttribute("aria-label"))) || "";
  const cut = (node) => {  // its text is not all on the card: the first tap shows it before it plays (rule 1)
    if (!node || !node.getAttribute("title")) return false;
    const text = node.querySelector(".card-text");
    return !text || text.scrollHeight > text.clientHeight + 1;
  };

  function actOn(key, node) {
    const list = moves();
    if (page.selected && !page.target) {
      const chosen = list.filter((m) => m.on === page.selected && m.to === key);
      if (chosen.length === 1) return post(chosen[0].command);
      if (chosen.length > 1) { page.target = key; mark(); showChoices(); return true; }  // rule 2: those moves, as choices
    }
    const starting = list.filter((m) => m.on === key);
    if (!starting.length) return false;
    if (starting.length === 1 && !starting[0].to && (!cut(node) || key === page.selected)) return post(starting[0].command);  // a second tap plays it
    page.selected = key;
    page.target = null;
    info.textContent = cardText(node);
    mark();
    showChoices();
    showTargets();
    return true;
  }

  function whyDim(node) {  // rule 4: a card that cannot be played now says so, and why, with its text
    const name = node.dataset.card || "This card";
    const why = page.selected ? "it is not a target of the card you selected" : "none of the moves open to you now uses it";
    const text = cardText(node);
    return `${text}${text ? " — " : ""}${name} cannot be played now: ${why}.`;
  }

  function onActivate(event) {
    let node = event.target.closest("[data-key]");
    while (node && root.contains(node)) {
      if (node.classList.contains("playable") || node.classList.contains("target")) { event.preventDefault(); actOn(node.dataset.key, node); return; }
      node = node.parentElement && node.parentElement.closest("[data-key]");
    }
    const card = event.target.closest(".card");
    if (card && root.contains(card)) {  // a card you cannot play now: its text, one tap away, and why it is dimmed
      info.textContent = card.classList.contains("dim") ? whyDim(card) : cardText(card);
    }
  }
  root.addEventListener("click", onActivate);
  root.addEventListener("keydown", (event) => {
    if ((event.key === "Enter" || event.key === " ") && event.target.getAttribute("role") === "button") onActivate(event);
  });

  function drawActions() {
    const act = (id, text, pathTail, body, cls = "table-action") => el("button", { type: "button", id, class: cls, onclick: async () => {
      try { await call("POST", `${path}/${pathTail}`, { token, body }); await reload(); } catch (err) { toast(err.message, "error"); }
    } }, text);
    const out = [];
    const resigned = seat !== null && (page.seats[seat] || {}).resigned;
    if (seat !== null && page.status === "waiting") {
      const levels = game.ai_levels || ["random"];
      const level = el("select", { id: "start-ai", "aria-label": "AI level for the open seats" }, levels.map((l) => el("option", { value: l, text: `AI: ${l}`, selected: l === defaultAiLevel(levels) })));
      out.push(level, el("button", { type: "button", id: "start", class: "table-action", onclick: async () => {
        try { await call("POST", `${path}/start`, { token, body: { ai: level.value } }); await reload(); } catch (err) { toast(err.message, "error"); }
      } }, "Start now (AI takes the open seats)"));
    }
    if (hosting() && (page.status === "waiting" || (page.status === "active" && !page.moved))) out.push(act("abort", "Call the table off", "abort"));
    if (seat !== null && !hosting() && page.status === "waiting") out.push(act("leave", "Leave the table", "leave"));
    if (seat !== null && page.status === "active" && !resigned) {
      if (page.confirming) {
        out.push(el("span", { class: "confirm", text: "Resign this game? The AI takes your seat. " }),
          act("resign-yes", "Yes, resign", "resign", undefined, "table-action danger"),
          el("button", { type: "button", id: "resign-no", class: "table-action", onclick: () => { page.confirming = false; drawActions(); } }, "Keep playing"));
      } else {
        out.push(el("button", { type: "button", id: "resign", class: "table-action", onclick: () => { page.confirming = true; drawActions(); } }, "Resign"));
      }
    }
    if (seat !== null && page.status === "active" && "Notification" in window && Notification.permission === "default") {
      out.push(el("button", { type: "button", id: "notify", class: "table-action", onclick: () => Notification.requestPermission().then(drawActions) }, "Tell me when it is my turn"));
    }
    if (page.status === "waiting") {
      page.seats.forEach((s, n) => {
        if (s.open && !(n in tokens)) out.push(el("button", { type: "button", class: "join-seat", "data-seat": n, onclick: () => joinSeat(n) }, `Take seat ${n + 1}`));
      });
    }
    actions.replaceChildren(...out);
  }

  function drawResult() {
    if (page.status !== "finished" && page.status !== "aborted") { result.classList.add("hidden"); return; }
    const o = page.outcome || {};
    const n = names();
    const scores = o.scores || [];
    result.classList.remove("hidden");
    result.replaceChildren(...[el("h3", { text: page.status === "aborted" ? "Called off" : "The game is over" }),
      page.status === "finished" ? el("p", { class: "winners", text: `Winner${(o.winners || []).length === 1 ? "" : "s"}: ${listWords((o.winners || []).map((s) => n[s])) || "nobody"}.` }) : null,
      page.status === "finished" ? el("p", { id: "end-reason", text: endWords(layout, o) }) : null,
      scores.length ? el("table", { class: "scores" }, el("tr", {}, el("th", { text: "Seat" }), el("th", { text: layout.scoreLabel || "Final score" })),
        scores.map((sc, s) => el("tr", { class: (o.winners || []).includes(s) ? "winner" : "" }, el("td", { text: n[s] + (s === seat ? " (you)" : "") }), el("td", { text: String(sc) })))) : null,
      page.status === "finished" ? el("p", { class: "muted", text: "Every hand is face up on the table now." }) : null,
      el("p", {}, el("a", { href: `#/replay/${gameId}`, id: "result-replay", text: "Replay this game" })),
      offers && page.status === "finished" ? offers.root : null].filter(Boolean));  // (replaceChildren writes a null as "null")
    if (offers && page.status === "finished") offers.start();
  }

  function drawAll() {
    root.dataset.version = String(page.version);
    drawPicker();
    about.textContent = aboutTable({ ...page.resource, seats: page.seats });
    root.dataset.status = page.status;
    const drawn = page.view && !page.view.open_seats ? layout.table(ctx())
      : { board: el("p", { class: "muted", text: "The cards are dealt when every seat is taken." }), hand: [], seat: () => [], stats: () => [], phase: "" };
    const used = new Set(moves().flatMap((m) => [m.on, m.to]).filter(Boolean));
    if (page.selected && !moves().some((m) => m.on === page.selected)) page.selected = null;
    if (!page.selected || !moves().some((m) => m.on === page.selected && m.to === page.target)) page.target = null;
    board.replaceChildren(drawn.board);
    drawSeats(drawn, used);
    drawHand(drawn);
    status.textContent = nowWords(drawn);
    status.className = "now" + (isMine() && page.toAct.includes(seat) ? " mine" : "") + (page.status === "finished" || page.status === "aborted" ? " over" : "");
    drawActions(); drawResult(); drawClock(); mark();
    signalTurn();
  }

  // Your turn in the tab's title and, with permission and the page hidden, a notification.
  function signalTurn() {
    const yours = isMine() && page.toAct.includes(seat);
    document.title = yours ? `▶ Your move · ${game.title}` : page.status === "finished" ? `Game over · ${game.title}` : `${game.title} · Mythos Tables`;
    if (yours && !page.wasMine && document.hidden && "Notification" in window && Notification.permission === "granted") {
      try { new Notification(`Your move at ${game.title}`); } catch (exc) { /* a browser without page notifications */ }
    }
    page.wasMine = yours;
  }

  async function joinSeat(n) {
    const key = store.playerKey();
    try {
      const answer = await call("POST", `${path}/join`, { token: key || undefined, body: key ? { seat: n } : { seat: n, name: store.name() || "Guest" } });
      store.saveToken(gameId, answer.seat, answer.token || key);
      location.hash = `#/table/${gameId}/${answer.seat}`;
    } catch (err) { toast(err.message, "error"); }
  }

  async function reload() {  // the table's own resource (names, seats, status): after a table event, not per move
    page.resource = await call("GET", path);
    page.seats = page.resource.seats;
    if (page.status === "waiting" || page.resource.status === "finished" || page.resource.status === "aborted") page.status = page.resource.status;
    page.confirming = false;
    drawAll();
  }

  // A move the clicks chose: announced first as a cancellable "move" event on the page (the browser tests' click
  // player cancels it to learn what each click would send), then sent.
  async function post(command) {
    if (page.busy) return;
    page.selected = null;
    page.target = null;
    info.textContent = "";
    if (!root.dispatchEvent(new CustomEvent("move", { detail: command, cancelable: true }))) { mark(); return; }
    page.busy = true;
    mark();
    const at = page.version;
    try {
      await call("POST", `${path}/commands`, { token, body: { command, expected_version: at } });
    } catch (err) {
      // Another seat moved first (a sealed bid racing another's, the AI's move): not a fault. The move is sent
      // again on the table as it now stands if it is still legal there, as the terminal does; else the table says so.
      if (err.code === "game/version_conflict") page.resend = { command, after: at };
      else toast(err.message, "error");
      page.busy = false;
      mark();
      if (page.resend) resend();
    }
  }

  function resend() {  // a move that lost a race, once the page holds the newer table: sent again if still legal
    const wanted = page.resend;
    if (!wanted || page.version === wanted.after) return;
    page.resend = null;
    const same = JSON.stringify(wanted.command);
    const still = page.legal.find((c) => JSON.stringify(c) === same);
    if (still && !page.busy) post(still);
    else toast("The table changed before your move landed, and that move is no longer open: choose again.", "info");
  }

  function apply(turn) {
    page.version = turn.version;
    page.status = turn.status;
    page.toAct = turn.to_act || [];
    page.legal = turn.legal_commands || [];
    page.deadline = turn.deadline;
    if (turn.outcome !== undefined) page.outcome = turn.outcome;
    if (turn.view !== undefined) page.view = turn.view;
    page.stuck = turn.stuck === true;  // the state answer says; a turn message means the game moved on
    page.busy = false;
    drawAll();
    resend();
  }

  function logEvent(event) {
    if (page.logged.has(event.version)) return;
    page.logged.add(event.version);
    if (event.by !== "server" && !String(event.type).startsWith("table_")) page.moved = true;
    const entry = logEntry(event, names(), layout);
    const newer = [...log.children].find((li) => Number(li.dataset.version) < event.version);  // newest first
    log.insertBefore(entry, newer || null);
  }

  async function history(upTo) {  // the events before the stream's first state, once, so the log holds them all
    let after = 0;
    while (after < upTo) {
      const got = await call("GET", `${path}/events`, { token, query: { after, limit: 500 } });
      if (!got.events.length) break;
      got.events.filter((e) => e.version <= upTo).forEach(logEvent);
      after = got.events[got.events.length - 1].version;
    }
    drawActions();
  }

  drawAll();
  const tableEvents = /^table_/;
  const stream = follow(gameId, token, (type, data) => {
    if (type === "state") {
      // A table event between the page's read of the table and this state reaches it only as history: read again.
      if (data.version !== page.resource.version) reload().catch((err) => toast(err.message, "error"));
      apply(data);
      history(data.version).catch((err) => toast(err.message, "error"));
    }
    else if (type === "event") {
      logEvent(data);
      if (tableEvents.test(data.type)) reload().catch((err) => toast(err.message, "error"));
    } else if (type === "turn") apply(data);
    else if (type === "chat") talk.add(data);
    else if (type === "end") { if (page.status !== "aborted") page.status = "finished"; page.outcome = data.outcome; drawAll(); talk.ended(); }
  }, (err) => toast(err.message, "error"));
  window.addEventListener("hashchange", () => stream.stop(), { once: true });
}
