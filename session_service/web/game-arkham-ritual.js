// Arkham Ritual's table: the circle of seats with Sanity (0–7), every other seat's card face up in front of it and
// yours face down, whose hand is on the table (Followers), the Active Player with the Deck, the card being passed
// (its face only to whoever saw it), the Dummy players as seats, and the Doom Track when in play.

import { el } from "./render.js";
import { backEl, cardEl, pileEl, pips, row, stat, zone } from "./cards.js";

export function makeGame(game) {
  const data = game.card_data || {};
  const cards = {};
  for (const c of data.cards || []) cards[c.id] = c;
  const maxSanity = data.max_sanity || 7;
  const card = (id, extra = {}) => {
    const c = cards[id] || {};
    const cursed = c.colour === "cursed";
    return { name: c.name || "a card", suit: { glyph: cursed ? "☠" : c.colour === "sane" ? "✧" : "◈", name: `${c.colour || ""} ${c.kind || ""}`.trim(), cls: "colour-" + (c.colour || "none") },
      text: c.text || "", ...extra };
  };
  const cardName = (field, value) => (["card", "cards", "dummy_cards", "own_card", "deck_top"].includes(field) && Number.isInteger(value) && cards[value] ? cards[value].name : null);

  function table(ctx) {
    const v = ctx.view;
    const mine = ctx.seat;
    const onTable = new Set(v.hands_on_table || []);
    const passed = v.passed_card;
    const hand = [];
    if (mine !== null && v.phase !== "setting_up") {
      const held = (v.cards || [])[mine];  // at the end every card is face up, yours too
      const own = ctx.over && held !== null && held !== undefined ? held : (v.remembered || {}).own_card;
      hand.push(own !== null && own !== undefined ? card(own, { key: "own", note: ctx.over ? "your card, face up" : "your card (you saw it)" })
        : { key: "own", name: "Your card", faceDown: true, text: (v.remembered || {}).own_card_colour ? `face down; its colour is ${v.remembered.own_card_colour}` : "face down: everyone sees it but you", note: "face down" });
    }
    if (passed && passed.card !== undefined && passed.holder === mine) hand.push(card(passed.card, { key: "passed", note: "the card you hold out" }));

    const passedEl = passed ? (passed.card !== undefined && passed.holder !== mine
      ? cardEl(card(passed.card, { key: "passed", note: `held out by ${ctx.names[passed.holder]}` }), { clickable: true })
      : passed.holder === mine && passed.card !== undefined ? null
        : backEl(`the passed card, held out by ${ctx.names[passed.holder]}${passed.colour ? ` (${passed.colour})` : ""}`, "passed", true)) : null;
    const dummies = (v.dummies || []).map((id, i) => cardEl(card(id, { note: `Dummy ${i + 1}` }), { small: true }));
    const last = v.last_round;
    const board = el("div", { class: "ar-board" },
      el("div", { class: "board-info" }, stat("Round", v.round || 1),
        v.active !== undefined ? stat("Active Player", ctx.names[v.active]) : null,
        v.doom_track ? pips("Doom", v.doom || 0, 10, "doom") : null,
        v.deck_top_colour ? stat("Top of the Deck", v.deck_top_colour) : null),
      el("div", { class: "centre-row" },
        v.deck_size !== undefined ? el("span", { class: "pile", "data-key": "deck" }, el("span", { class: "card back" }),
          el("span", { class: "pile-label", text: `Deck · ${v.deck_size}` })) : null,
        passedEl ? el("div", { class: "passed" }, el("span", { class: "muted", text: "Being passed" }), passedEl) : null,
        v.peeking ? el("p", { text: `${ctx.names[v.peeking.seat]} looks at the top of the Deck (Magical Orb).` }) : null),
      dummies.length ? zone("Dummy players", el("div", { class: "card-row" }, dummies)) : null,
      (v.discards || []).length ? zone("Discarded", row(v.discards.map((id) => card(id)), { small: true })) : null,
      last ? zone(`Round ${last.round}: how it ended`, el("p", { text: lastWords(last, ctx) }),
        row(last.cards.map((id, n) => card(id, { note: ctx.names[n] })), { small: true })) : null);

    function seat(n) {
      const held = (v.cards || [])[n];
      return [
        n === mine && !ctx.over ? null : held !== null && held !== undefined ? cardEl(card(held, { note: n === mine ? "in front of you" : "in front of them" }), { small: true }) : backEl("a face-down card"),
        onTable.has(n) ? el("span", { class: "tag follower", text: "☛ hand on the table" }) : null,
        (v.cleared_of_great_old_one || []).includes(n) ? el("span", { class: "tag", text: "cleared of the Great Old One" }) : null,
      ];
    }
    const stats = (n) => [pips("Sanity", (v.sanity || [])[n] ?? 0, maxSanity, "sanity"), v.active === n ? el("span", { class: "tag active", text: "Active Player (holds the Deck)" }) : null];
    return { board, hand, handTitle: "In front of you", seat, stats, ...phaseWords(v, ctx) };
  }

  function move(c, ctx) {
    switch (c.type) {
      case "draw_card": return { on: "deck", words: "Draw the top card of the Deck" };
      case "pass_card": return c.to === null || c.to === undefined ? { on: "passed", words: "Pass the card to nobody (no hand is left on the table)" }
        : { on: "passed", to: `seat:${c.to}`, words: `Pass the card to ${ctx.names[c.to]}` };
      case "take_card": return { on: "passed", words: "Take the passed card (your own card is discarded face up)" };
      case "return_top_card": return { on: "deck", words: "Put the card back on top of the Deck" };
      case "remove_top_card": return { on: "deck", words: "Remove the card from the game" };
      default: return { on: null, words: null };
    }
  }
  // 8: the game ends when a seat has lost its last Sanity; the others win (the competitive variant: the most Sanity).
  const reason = (o) => (o.details || {}).competitive ? "A seat lost its last Sanity: the most Sanity wins." : "A seat lost its last Sanity: every seat with Sanity left wins.";
  return { cardName, table, move, reason, scoreLabel: "Sanity left" };
}

function lastWords(last, ctx) {
  const cause = String(last.cause || "").replace(/_/g, " ");
  const survived = last.survived ? last.cards.map((_, n) => `${ctx.names[n]} ${last.survived[n] ? "survived" : "failed"}`).join(", ") : "";
  return `It ended (${cause}). ${survived}`;
}

// What happens now, by phase: what the seat the game waits on is asked (its prompt), and what the others read.
const PHASES = {
  drawing: ["draw the top card of the Deck", "drawing from the Deck"],
  passing: ["pass the card to a Follower", "passing the card to a Follower"],
  offered: ["take the card or pass it on", "taking the card or passing it on"],
  peeking: ["keep the top card of the Deck or remove it (the Magical Orb)", "the Magical Orb: keeping the top card or removing it"],
};

function phaseWords(v, ctx) {
  const who = v.phase === "offered" ? (v.passed_card || {}).holder : v.phase === "peeking" ? (v.peeking || {}).seat : v.active;
  const [mine, theirs] = PHASES[v.phase] || ["", ""];
  return who === ctx.seat && mine ? { prompt: mine, phase: "" } : { phase: theirs };
}
