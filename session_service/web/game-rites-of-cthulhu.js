// Rites of Cthulhu's table: the Grand Cultist, scores, the Coveted Artifact, the artifacts each seat won and
// those thrown out (ARTIFACTS by name: `captured` and `thrown_out` hold artifact ids), the rites played and left,
// and the rite's own board: Cthulhu Rises' gate and tricks, the Tree on the Hill's trees, the Mountains' ridge
// and slopes, Dunwich's twins and walls, Out of the Aeons' yellow card and sealed bids, the Hound's graves.

import { el } from "./render.js";
import { backEl, backs, cardEl, listWords, pileEl, row, stat, zone } from "./cards.js";

const CULT_GLYPH = { green: "⚓", blue: "☉", yellow: "♛", gray: "☾" };
// What a rite's phase asks, for the line that says what happens now (the rite itself is named on the board): what
// the seat the game waits on is asked, and what the others read; a phase that asks nothing of anyone (dealing, laying
// out, over) or a plain turn (whose moves say it) says nothing.
const RITE_PHASES = {
  replacing: ["draw back to five cards", "drawing back to five cards"],
  revealed: ["capture the revealed wall with a second pair, or knock", "a wall is revealed: capture it or knock"],
  claims: ["claim the revealed wall with a pair, or pass", "claims on the revealed wall"],
  privilege: ["discard the yellow card, or bid for it", "the opener may discard the yellow card"],
  bidding: ["seal a bid", "sealed bids"],
  peekprivilege: ["peek at a grave, or not", "the opener may peek at a grave"],
  placing: ["place a ghoul on a grave", "placing a ghoul"],
  placed: ["leave your ghoul, or move it", "leave the ghoul or move it"],
  digging: ["call a henchman, seal a dummy, or call none", "the ghouls dig: sealed choices"],
};

// What each kind of move asks, for the line that says what happens now when the phase does not say it itself:
// "Your move: play a card on the gate, invoke an artifact or make a power-play".
const ASKS = {
  choose_rite: "choose the next rite", play_card: "play a card on the gate", force_card: "slide a card to another cultist",
  decline_trade: "keep your cards", return_card: "give back a card", take_artifacts: "take the artifacts",
  trade_artifact: "trade an artifact", plant_tree: "plant a tree", grow_tree: "grow a tree", draw_card: "draw a card",
  end_turn: "end your turn", extend_ridge: "extend the ridge", play_on_slope: "play on a slope", play_cliff: "play a cliff",
  discard_and_draw: "discard and draw", reveal_wall: "reveal a wall", knock: "knock", call_knock: "knock",
  pass_knock: "let it go", capture_wall: "capture the wall", bid: "seal a bid", pass_turn: "pass your turn",
  invoke_artifact: "invoke an artifact", become_grand_cultist: "make a power-play", excavate_artifact: "make a power-play",
  steal_artifact: "make a power-play",
};

export function makeGame(game) {
  const data = game.card_data || {};
  const entities = {}, artifacts = {}, rites = {};
  for (const e of data.entities || []) entities[e.id] = e;
  for (const a of data.artifacts || []) artifacts[a.id] = a;
  for (const r of data.rites || []) rites[r.id] = r;
  const nameOf = (id) => (entities[id] || {}).name || "a card";
  const artName = (id) => (artifacts[id] || {}).name || "an artifact";
  const cultNames = {};
  (data.cults || []).forEach((c, i) => { cultNames[c] = (data.cult_names || [])[i] || c; });
  const cultOf = (c) => cultNames[c] || "a cult";
  const entity = (id, extra = {}) => {
    const e = entities[id] || {};
    return { name: e.name || "a card", value: e.rank, suit: { glyph: CULT_GLYPH[e.cult] || "◆", name: e.cult_name || "", cls: "cult-" + e.cult },
      text: e.forbidden_book ? "A Forbidden Book." : "", ...extra };
  };
  const artifact = (id, extra = {}) => {
    const a = artifacts[id] || {};
    return { name: a.name || "an artifact", value: a.elder_sign, suit: { glyph: "✦", name: "artifact", cls: "artifact" }, text: a.text || "", ...extra };
  };
  const ARTIFACT_FIELDS = ["artifact", "artifacts", "coveted", "give", "take", "captured_artifacts", "thrown_out"];
  const cardName = (field, value) => {
    if (typeof value === "string" && rites[value]) return rites[value].title;
    if (!Number.isInteger(value)) return null;
    if (ARTIFACT_FIELDS.includes(field)) return artName(value);
    if (["card", "cards", "order", "graves", "twins", "shown", "ridge", "gate", "taken", "discards", "sub_deck", "hand", "revealed", "bid", "bids", "first_draws"].includes(field) && entities[value]) return nameOf(value);
    return null;
  };

  function table(ctx) {
    const v = ctx.view;
    const mine = ctx.seat;
    const t = v.table || {};
    const hands = t.hands || {};
    const myHand = mine !== null && Array.isArray(hands[String(mine)]) ? hands[String(mine)] : [];
    const hand = myHand.map((id) => entity(id, { key: `hand:${id}` }));
    const mods = t.modifiers || {};
    const modWords = [mods.direction === -1 ? "turns run counter-clockwise" : null, mods.low_wins ? "the lowest elder sign wins" : null,
      mods.open_hands ? "hands are open" : null, mods.no_power_plays ? "no power-plays" : null,
      mods.opener !== null && mods.opener !== undefined ? `${ctx.names[mods.opener]} opens` : null].filter(Boolean);
    const rite = v.rite ? riteBoard(v.rite, ctx) : null;
    const board = el("div", { class: "rites-board" },
      el("div", { class: "board-info" },
        stat("Grand Cultist", v.grand_cultist !== null && v.grand_cultist !== undefined ? ctx.names[v.grand_cultist] : "none yet"),
        stat("Rites", `${(v.rites_played || []).length} of ${v.rites_total}`), pileEl("Pile", t.pile || 0, "pile")),
      el("div", { class: "centre-row" },
        zone("The Coveted Artifact", row((v.coveted || []).map((id) => artifact(id, { key: `artifact:${id}` })), { empty: "none", clickable: true })),
        zone("Artifacts left to excavate", el("p", { text: `${(v.artifact_deck || []).length}` })),
        (v.thrown_out || []).length ? zone("Thrown out", el("div", { class: "thrown-out" }, row(v.thrown_out.map((id) => artifact(id, { key: `artifact:${id}` })), { small: true }))) : null),
      modWords.length ? el("p", { class: "warning", text: "This rite: " + modWords.join("; ") + "." }) : null,
      v.stage === "choosing" || (v.rites_available || []).length && !v.rite ? zone("Rites to choose from",
        el("div", { class: "card-row" }, (v.rites_available || []).map((id) => cardEl({ key: `rite:${id}`, name: (rites[id] || {}).title || id, suit: { glyph: "✠", name: "rite", cls: "rite" }, text: (rites[id] || {}).summary || "" }, { clickable: true })))) : null,
      rite,
      (v.rites_played || []).length ? el("p", { class: "muted", text: "Played: " + v.rites_played.map((id) => (rites[id] || {}).title || id).join(", ") }) : null,
      (t.set_aside || []).length || t.set_aside_face_down ? zone("Set aside", row((t.set_aside || []).map((id) => entity(id)), { small: true, empty: "" }), t.set_aside_face_down ? backs(t.set_aside_face_down) : null) : null,
      (v.first_draws || []).length && !v.rite && v.stage !== "finished" ? zone("The first draws (they chose the Grand Cultist)", ...v.first_draws.map((d) => row(d.map((id) => entity(id)), { small: true }))) : null);

    function seat(n) {
      const h = hands[String(n)];
      const won = (v.captured || {})[String(n)] || [];
      return [
        n === mine && !ctx.over ? null : Array.isArray(h) ? row(h.map((id) => entity(id)), { small: true, cls: "revealed-hand" }) : backs(h || 0),
        el("div", { class: "captured", "data-captured-of": n }, el("span", { class: "muted", text: "Artifacts: " }),
          won.length ? row(won.map((id) => artifact(id, { key: `artifact:${id}` })), { small: true, clickable: true }) : el("span", { class: "muted", text: "none" })),
      ];
    }
    const stats = (n) => [stat("Score", (v.scores || {})[String(n)] ?? 0), v.grand_cultist === n ? el("span", { class: "tag active", text: "♛ Grand Cultist" }) : null];
    return { board, hand, handTitle: ctx.over ? "Your final hand" : "Your hand", seat, stats, ...nowWords(v, ctx) };
  }

  function nowWords(v, ctx) {
    const [asked, told] = v.rite ? RITE_PHASES[v.rite.phase] || ["", ""] : ["", v.stage === "choosing" ? "the next rite is chosen" : ""];
    const mine = ctx.seat !== null && ctx.toAct.includes(ctx.seat) && ctx.legal.length > 0;
    if (!mine) return { phase: told };
    if (asked) return { prompt: asked + (ctx.legal.some((c) => c.type === "invoke_artifact") ? "; or invoke an artifact" : ""), phase: "" };
    const asks = [...new Set(ctx.legal.map((c) => ASKS[c.type]).filter(Boolean))];
    return { prompt: listWords(asks).replace(/ and ([^,]+)$/, " or $1"), phase: "" };
  }

  function seatMap(obj, ctx, each) {
    return Object.entries(obj || {}).map(([s, value]) => el("div", { class: "seat-line" }, el("span", { class: "muted", text: `${ctx.names[Number(s)]}: ` }), each(value, Number(s))));
  }

  function riteBoard(r, ctx) {
    const parts = [];
    const turn = r.turn !== undefined && r.turn !== null ? stat("Turn", ctx.names[r.turn]) : null;
    if (r.id === "tree_on_the_hill") {
      parts.push(el("div", { class: "trees" }, (r.trees || []).map((tree, i) => el("div", { class: "tree" + (tree.complete ? " complete" : ""), "data-key": `tree:${i}`, role: "group", "aria-label": `tree ${i + 1}` },
        el("span", { class: "muted", text: `Tree ${i + 1}${tree.complete ? " (complete)" : ""}` }), row(tree.cards.map((id) => entity(id)), { small: true })))));
    } else if (r.id === "the_hound") {
      parts.push(el("div", { class: "graves" }, (r.graves || []).map((g) => el("div", { class: "grave", "data-key": `grave:${g.grave}`, role: "group", "aria-label": `grave ${g.grave + 1}` },
        el("span", { class: "muted", text: `Grave ${g.grave + 1}${g.status === "looted" ? `, looted by ${ctx.names[g.looted_by]}` : ""}` }),
        g.card !== undefined ? cardEl(entity(g.card, { note: g.peeked ? "you peeked" : g.status === "face_up" ? "dug up" : null }), { small: true }) : backEl("a face-down grave"),
        (g.ghouls || []).map((gh) => el("span", { class: "ghoul" }, el("span", { class: "muted", text: `${ctx.names[gh.seat]}'s ghoul: ` }), cardEl(entity(gh.card), { small: true })))))));
      if (r.dig) parts.push(el("p", { text: `Digging grave ${r.dig.grave + 1}: sealed by ${listWords((r.dig.sealed || []).map((s) => ctx.names[s])) || "nobody yet"}.` }));
      if (r.points) parts.push(el("div", {}, seatMap(r.points, ctx, (p) => el("b", { text: `${p} points` }))));
    } else if (r.id === "out_of_the_aeons") {
      parts.push(el("div", { class: "centre-row" },
        r.revealed !== null && r.revealed !== undefined ? zone("The yellow card", cardEl(entity(r.revealed))) : null,
        zone("Sealed bids", el("p", { text: (r.bids_sealed || []).length ? listWords(r.bids_sealed.map((s) => ctx.names[s])) + " sealed a bid" : "none yet" }),
          r.bids ? seatMap(r.bids, ctx, (c) => cardEl(entity(c), { small: true })) : null),
        stat("Yellow cards left", r.sub_deck)));
      parts.push(el("div", {}, seatMap(r.captured, ctx, (cards) => row(cards.map((id) => entity(id)), { small: true }))));
    } else if (r.id === "cthulhu_rises") {
      parts.push(el("div", { class: "board-info" }, stat("Gate", r.gate_number), r.dominant_cult ? stat("Dominant cult", cultOf(r.dominant_cult)) : null,
        stat("Cthulhu", r.cthulhu === "captured" ? `captured by ${ctx.names[r.captor]}` : r.cthulhu === "center" ? "in the centre" : "not yet summoned")),
        zone("The gate", row((r.gate || []).map((g) => entity(g.card, { note: ctx.names[g.seat] })), { empty: "open" })),
        el("div", {}, seatMap(r.taken, ctx, (cards) => cards.length ? row(cards.map((id) => entity(id)), { small: true }) : el("span", { class: "muted", text: "nothing taken" }))));
    } else if (r.id === "dunwich_horror") {
      parts.push(zone("The twins", row((r.twins || []).map((tw) => entity(tw.card)))),
        zone("The walls", el("div", { class: "card-row" }, (r.walls || []).map((w) => el("div", { class: "wall", "data-key": `wall:${w.slot}`, role: "group", "aria-label": `wall ${w.slot + 1}` },
          el("span", { class: "muted", text: `Wall ${w.slot + 1}` }),
          w.status === "captured" ? el("span", { class: "muted", text: "captured" }) : w.card !== undefined ? cardEl(entity(w.card, { faceDown: w.status !== "face_up" }), { small: true }) : backEl("a face-down wall card"))))),
        el("div", {}, seatMap(r.captured, ctx, (cards) => row(cards.map((id) => entity(id)), { small: true, empty: "nothing captured" }))));
      if (r.claims) parts.push(el("p", { text: `${ctx.names[r.claims.revealer]} revealed wall ${r.claims.wall + 1}: waiting on ${listWords((r.claims.waiting || []).map((s) => ctx.names[s]))}.` }));
    } else if (r.id === "mountains_of_madness") {
      const ridge = r.ridge || [];
      parts.push(zone("The ridge", el("div", { class: "card-row", "data-key": "ridge" }, ridge.length ? ridge.map((id) => cardEl(entity(id, { key: `ridge:${id}` }), { clickable: true, small: true })) : el("span", { class: "muted", text: "empty" }))),
        zone("The slopes", (r.slopes || []).length ? r.slopes.map((s) => el("div", { class: "slope" }, el("span", { class: "muted", text: `${s.side === "below" ? "Below" : "Above"} ${nameOf(s.ridge_card)}: ` }), row(s.cards.map((id) => entity(id)), { small: true })))
          : el("span", { class: "muted", text: "none" })));
    }
    if (r.points && r.id !== "the_hound") parts.push(el("div", {}, seatMap(r.points, ctx, (p) => el("b", { text: `${p} points` }))));
    if ((r.discards || []).length) parts.push(el("details", { class: "zone" }, el("summary", { text: `Discarded this rite (${r.discards.length})` }), row(r.discards.map((id) => entity(id)), { small: true })));
    return zone(r.title || (rites[r.id] || {}).title || "The rite", el("p", { class: "muted", text: (rites[r.id] || {}).summary || "" }), el("div", { class: "board-info" }, turn), ...parts);
  }

  const given = (x) => x !== null && x !== undefined;
  // An artifact's use in the rulebook's words, by its power: the cards, cultists and artifacts it names by name.
  function invoking(c, ctx) {
    const a = artifacts[c.artifact] || {};
    const who = given(c.seat) ? ctx.names[c.seat] : "another cultist";
    const what = given(c.target) ? `the artifact ${artName(c.target)}` : "an artifact";
    const card = given(c.card) ? nameOf(c.card) : "a card";
    const does = {
      redraw_one: `set ${card} aside face down and draw a replacement`,
      redraw_hand: "set your whole hand aside face down and draw as many cards",
      steal_captured: `take ${what} from ${who}'s captured artifacts`,
      replace_coveted: `throw ${what} out of the game and excavate a replacement`,
      forced_trade: `slide ${card} face down to ${who}, who gives you a card back`,
      peek_hand: `look at ${who}'s hand`,
    }[a.power] || (a.text || "").replace(/\.$/, "");
    return `Invoke ${artName(c.artifact)}: ${does.charAt(0).toLowerCase() + does.slice(1)}`;
  }

  function move(c, ctx) {
    const cards = (list) => listWords(list.map(nameOf));
    switch (c.type) {
      case "choose_rite": return { on: `rite:${c.rite}`, words: `Perform ${(rites[c.rite] || {}).title || c.rite}` };
      case "plant_tree": return { on: `hand:${c.card}`, words: `Plant ${nameOf(c.card)} as a new tree` };
      case "grow_tree": return { on: `hand:${c.card}`, to: `tree:${c.tree}`, words: `Grow tree ${c.tree + 1} with ${nameOf(c.card)}` };
      case "draw_card": return { on: "pile", words: "Draw a card" };
      case "end_turn": return { on: null, words: "End your turn" };
      case "peek_grave": return { on: `grave:${c.grave}`, words: `Peek at grave ${c.grave + 1}` };
      case "decline_peek": return { on: null, words: "Do not peek" };
      case "place_ghoul": return { on: `hand:${c.card}`, to: `grave:${c.grave}`, words: `Place ${nameOf(c.card)} as a ghoul on grave ${c.grave + 1}` };
      case "keep_ghoul": return { on: null, words: "Leave your ghoul where it is" };
      case "move_ghoul": return { on: `grave:${c.grave}`, words: `Move your ghoul to grave ${c.grave + 1}` };
      case "psych_out": return { on: `hand:${c.card}`, words: `Seal ${nameOf(c.card)} as a dummy` };
      case "call_henchman": return { on: `hand:${c.card}`, words: `Call ${nameOf(c.card)} as your henchman` };
      case "no_henchman": return { on: null, words: "Call no henchman" };
      case "discard_revealed": return { on: null, words: "Discard the yellow card" };
      case "keep_revealed": return { on: null, words: "Bid for the yellow card" };
      case "bid": return { on: `hand:${c.card}`, words: `Bid ${nameOf(c.card)} (sealed)` };
      case "play_card": return { on: `hand:${c.card}`, words: `Play ${nameOf(c.card)}` };
      case "invoke_artifact": return { on: `artifact:${c.artifact}`, to: given(c.seat) ? `seat:${c.seat}` : null, words: invoking(c, ctx) };
      case "decline_trade": return { on: null, words: "Decline the trade" };
      case "force_card": return { on: `hand:${c.card}`, to: `seat:${c.seat}`, words: `Force ${nameOf(c.card)} on ${ctx.names[c.seat]}` };
      case "return_card": return { on: `hand:${c.card}`, words: `Give back ${nameOf(c.card)}` };
      case "take_artifacts": return { on: null, words: "Take the artifacts" };
      case "trade_artifact": return { on: `artifact:${c.give}`, to: `artifact:${c.take}`, words: `Trade ${artName(c.give)} for ${artName(c.take)}` };
      case "discard_and_draw": return { on: `hand:${c.cards[0]}`, words: `Discard ${cards(c.cards)} and draw` };
      case "reveal_wall": return { on: `hand:${c.cards[0]}`, to: `wall:${c.wall}`, words: `Reveal wall ${c.wall + 1} with ${cards(c.cards)}` };
      case "call_knock": return { on: null, words: "Knock" };
      case "knock": return { on: `hand:${c.cards[0]}`, words: `Knock with ${cards(c.cards)}` };
      case "pass_knock": return { on: null, words: "Do not knock" };
      case "capture_wall": return { on: `hand:${c.cards[0]}`, to: `wall:${c.wall}`, words: `Capture wall ${c.wall + 1} with ${cards(c.cards)}` };
      case "become_grand_cultist": return { on: null, words: `Power-play: show a forbidden book and the 13 of the ${cultOf(c.cult)}; the rite fails and you become the Grand Cultist` };
      case "excavate_artifact": return { on: null, words: `Power-play: show a forbidden book and the 1 of the ${cultOf(c.cult)}; draw two and excavate a new Coveted Artifact` };
      case "steal_artifact": return { on: `artifact:${c.artifact}`, words: `Power-play: show a forbidden book, the 1 and the 13 of the ${cultOf(c.cult)}; draw three and steal the Coveted Artifact ${artName(c.artifact)}` };
      case "pass_turn": return { on: null, words: "Pass your turn (no ghoul to send)" };
      case "play_cliff": return { on: `hand:${c.book}`, to: `ridge:${c.ridge_card}`, words: `Play a cliff: ${nameOf(c.book)} with ${nameOf(c.card)} ${c.side} ${nameOf(c.ridge_card)}, then draw and play on` };
      case "extend_ridge": return { on: `hand:${c.card}`, to: "ridge", words: `Extend the ridge with ${nameOf(c.card)}` };
      case "play_on_slope": return { on: `hand:${c.card}`, to: `ridge:${c.ridge_card}`, words: `Play ${nameOf(c.card)} ${c.side} ${nameOf(c.ridge_card)}` };
      default: return { on: null, words: null };
    }
  }
  // The end of the game: the last rite was performed; the most elder sign points on the artifacts won wins.
  const reason = () => "The last rite was performed and the artifacts counted: the most elder sign points wins.";
  return { cardName, table, move, reason, scoreLabel: "Elder sign points" };
}
