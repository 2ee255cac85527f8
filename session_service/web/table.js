// A live table: a seat plays it (with its token) or a spectator watches it, both from the event stream.

import { call, catalog, follow, store } from "./api.js";
import { el, human, Renderer } from "./render.js";
import { toast } from "./app.js";

export async function tablePage(main, gameId, seatWanted) {
  const [games, resource] = await Promise.all([catalog(), call("GET", `/v1/games/${encodeURIComponent(gameId)}`)]);
  const game = games[resource.game];
  const tokens = store.tokens(gameId);
  const mySeats = Object.keys(tokens).map(Number).sort();
  const seat = seatWanted === "watch" ? null : seatWanted !== null && tokens[seatWanted] ? seatWanted : mySeats.length ? mySeats[0] : null;
  const token = seat === null ? null : tokens[seat];
  const renderer = new Renderer(game, resource.seats);
  const page = {
    version: resource.version, status: resource.status, toAct: resource.to_act || [], legal: [], view: null,
    deadline: null, outcome: resource.outcome, log: [], busy: false, stuck: Boolean(resource.stuck),
  };

  const title = el("h2", {}, `${game.title} `, el("small", { text: gameId }));
  const status = el("p", { class: "status", id: "status" });
  const clock = el("span", { class: "clock", id: "clock" });
  const board = el("section", { class: "board", id: "board" });
  const controls = el("section", { class: "controls", id: "controls" });
  const actions = el("p", { class: "table-actions", id: "table-actions" });
  let resourceNow = resource;
  const log = el("ol", { class: "log", id: "log", reversed: true });
  const seatPicker = mySeats.length > 1 ? el("p", {}, "Your seats: ", mySeats.map((n) =>
    el("a", { href: `#/table/${gameId}/${n}`, class: n === seat ? "current" : "", text: renderer.seatName(n) + " " }))) : null;
  const links = el("p", { class: "links" },
    el("a", { href: `#/replay/${gameId}`, id: "replay-link", text: "Replay" }), " · ",
    el("a", { href: `#/table/${gameId}/watch`, text: "Watch as spectator" }), " · ",
    el("span", { text: seat === null ? "You are watching (spectator)." : `You play ${renderer.seatName(seat)}.`, id: "role" }));
  const root = el("div", { class: "table-page", "data-game": game.id, "data-seat": seat === null ? "spectator" : seat },
    title, links, seatPicker, el("div", { class: "statusline" }, status, clock), actions, controls, board,
    el("details", { class: "events", open: true }, el("summary", { text: "Events" }), log));
  main.replaceChildren(root);

  function drawStatus() {
    if (page.status === "finished") {
      const o = page.outcome || {};
      const winners = (o.winners || []).map((n) => renderer.seatName(n)).join(", ") || "nobody";
      status.textContent = `Game over (${human(o.reason || "finished")}). Winners: ${winners}.`;
      status.className = "status over";
    } else if (page.status === "aborted") {
      status.textContent = "The table was called off.";
      status.className = "status over";
    } else if (page.status === "waiting") {
      status.textContent = "Waiting for players to take the open seats.";
    } else {
      const waiting = page.toAct.map((n) => renderer.seatName(n)).join(", ") || "nobody";
      const mine = seat !== null && page.toAct.includes(seat);
      status.textContent = `Version ${page.version}. ${mine ? "Your move." : "Waiting on " + waiting + "."}`;
      status.className = "status" + (mine ? " mine" : "");
      if (page.stuck) {  // a defect the server found and logged: say so rather than wait for ever
        status.textContent = `Version ${page.version}. This game cannot go on: it waits on ${waiting}, who has nothing ` +
          "to play (a fault in the game's rules, reported). You may resign; the table ends by itself once idle.";
        status.className = "status over";
      }
    }
  }

  function drawClock() {
    if (!page.deadline || page.status !== "active") { clock.textContent = ""; return; }
    const left = Math.max(0, Math.round((Date.parse(page.deadline) - Date.now()) / 1000));
    clock.textContent = `⏱ ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")} left for this turn`;
    clock.className = "clock" + (left <= 10 ? " urgent" : "");
  }
  const ticker = setInterval(() => { if (!document.body.contains(clock)) clearInterval(ticker); else drawClock(); }, 1000);

  function drawBoard() {
    if (!page.view) return;
    board.replaceChildren(renderer.scoreboard(page.view, page.toAct, seat), renderer.object(page.view, ""));
  }

  // What a seat may do to the table itself (resign, abort, start) and, at a waiting table, joining an open seat.
  function drawTableActions() {
    actions.replaceChildren();
    const act = (id, text, path, body) => el("button", { id, class: "table-action", onclick: async () => {
      try { await call("POST", `/v1/games/${encodeURIComponent(gameId)}/${path}`, { token, body }); await reload(); } catch (err) { toast(err.message); }
    } }, text);
    if (seat !== null && page.status === "waiting") actions.append(act("start", "Start now (AI takes the open seats)", "start", { ai: "random" }));
    if (seat !== null && ["waiting", "active"].includes(page.status)) actions.append(act("abort", "Call the table off", "abort"));
    if (seat !== null && page.status === "active") actions.append(act("resign", "Resign", "resign"));
    if (page.status === "waiting") {
      resourceNow.seats.forEach((s, n) => {
        if (s.open && !(n in tokens)) actions.append(el("button", { class: "join-seat", "data-seat": n, onclick: () => joinSeat(n) }, `Take seat ${n}`));
      });
    }
  }

  async function joinSeat(n) {
    const key = store.playerKey();
    try {
      const answer = await call("POST", `/v1/games/${encodeURIComponent(gameId)}/join`,
        { token: key || undefined, body: key ? { seat: n } : { seat: n, name: store.name() || "Guest" } });
      store.saveToken(gameId, answer.seat, answer.token || key);
      location.hash = `#/table/${gameId}/${answer.seat}`;
    } catch (err) { toast(err.message); }
  }

  async function reload() {
    resourceNow = await call("GET", `/v1/games/${encodeURIComponent(gameId)}`);
    renderer.seats = resourceNow.seats;
    page.status = resourceNow.status;
    root.dataset.status = page.status;
    drawStatus(); drawTableActions(); drawBoard();
  }

  function drawControls() {
    controls.replaceChildren();
    drawTableActions();
    if (seat === null || page.status !== "active") return;
    if (!page.legal.length) {
      controls.append(el("p", { class: "muted", text: "Nothing to do right now." }));
      return;
    }
    const groups = {};
    page.legal.forEach((command, index) => (groups[command.type] = groups[command.type] || []).push([command, index]));
    for (const [type, list] of Object.entries(groups)) {
      const schema = (game.commands || {})[type] || {};
      controls.append(el("div", { class: "command-group", "data-type": type },
        el("h4", { title: schema.description || "", text: human(type) }),
        list.map(([command, index]) => el("button", {
          class: "command", "data-index": index, "data-type": type, title: schema.description || "",
          onclick: () => post(command), disabled: page.busy,
        }, renderer.commandLabel(command) || human(type)))));
    }
  }

  async function post(command) {
    if (page.busy) return;
    page.busy = true;
    drawControls();
    try {
      await call("POST", `/v1/games/${encodeURIComponent(gameId)}/commands`, { token, body: { command, expected_version: page.version } });
    } catch (err) {
      toast(err.message);
      page.busy = false;
      await refresh();
    }
  }

  async function refresh() {
    try {
      const state = await call("GET", `/v1/games/${encodeURIComponent(gameId)}/state`, { token });
      apply(state);
      page.view = state.view;
      drawBoard();
    } catch (err) {
      toast(err.message);
    }
  }

  function apply(turn) {
    page.version = turn.version;
    root.dataset.version = String(turn.version);
    root.dataset.status = turn.status;
    page.status = turn.status;
    page.toAct = turn.to_act || [];
    page.legal = turn.legal_commands || [];
    page.deadline = turn.deadline;
    if (turn.outcome !== undefined) page.outcome = turn.outcome;
    page.stuck = turn.stuck === true;  // the state answer says; a turn message means the game moved on
    page.busy = false;
    drawStatus(); drawClock(); drawControls();
  }

  function logEvent(event) {
    const who = event.seat === null || event.seat === undefined ? "" : renderer.seatName(event.seat) + ": ";
    const details = Object.entries(event.data || {}).filter(([k]) => !["game_id", "seats", "options"].includes(k))
      .map(([k, v]) => `${human(k).toLowerCase()} ${typeof v === "object" ? JSON.stringify(v) : v}`).join("; ");
    log.prepend(el("li", { "data-version": event.version }, el("b", { text: `${event.version}. ${who}${human(event.type)}` }),
      details ? el("span", { class: "muted", text: " " + details.slice(0, 240) }) : null));
    while (log.children.length > 200) log.lastChild.remove();
  }

  drawStatus();
  const stream = follow(gameId, token, (type, data) => {
    if (type === "state") { apply(data); page.view = data.view; drawBoard(); }
    else if (type === "event") { logEvent(data); }
    else if (type === "turn") {
      const was = resourceNow.status;
      apply(data); refresh();
      if (was !== data.status) reload();
    }
    else if (type === "end") { page.status = "finished"; root.dataset.status = "finished"; page.outcome = data.outcome; drawStatus(); drawControls(); refresh(); }
  }, (err) => toast(err.message));
  window.addEventListener("hashchange", () => stream.stop(), { once: true });
}
