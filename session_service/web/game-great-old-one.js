// The Great Old One's table: the centre of three Story cards, each seat's area of pairs (matched or linked, by
// connection), its Horror cards, the Cultist, its ward and score, hand sizes as backs; Signs as the holder sees
// them (in its own hand). Story cards carry their year and connections on the card.

import { el } from "./render.js";
import { backs, cardEl, pileEl, row, stat, zone } from "./cards.js";

// The rulebook's four Turn Phases, and what each asks of the seat whose turn it is; the opening before them.
const PHASES = {
  opening: ["The opening", "lay your opening pairs, then finish the opening"],
  draw: ["Draw", "draw a card"],
  call: ["Call", "call a story from another player, or call none"],
  recruit: ["Recruit", "swap a card for one in the centre, draw one, or recruit nothing"],
  horror: ["Horror", "play Horrors and Signs, or end your turn"],
};
const KIND = { story: ["§", "story"], horror: ["☣", "horror"], sign: ["✴", "sign"], cultist: ["☨", "the cultist"], great_old_one: ["♆", "the Great Old One"] };

export function makeGame(game) {
  const data = game.card_data || {};
  const cards = {}, stories = {}, connections = {};
  for (const c of data.cards || []) cards[c.id] = c;
  for (const s of data.stories || []) stories[s.key] = s;
  for (const c of data.connections || []) connections[c.key] = c;
  const conn = (k) => (connections[k] || {}).name || k;
  const nameOf = (id) => (cards[id] || {}).name || "a card";
  const card = (id, extra = {}) => {
    const c = cards[id] || {};
    const [glyph, kind] = KIND[c.kind] || ["◆", c.kind || "card"];
    const text = c.kind === "story" ? `${(c.connections || []).map(conn).join(" · ")}` : c.kind === "horror" ? `${conn(c.connection)}. ${c.text || ""}` : c.text || "";
    return { name: c.name || "a card", value: c.kind === "story" ? c.year : null, suit: { glyph, name: kind, cls: "kind-" + (c.kind || "card") }, text, ...extra };
  };
  const cardName = (field, value) => {
    if (["card", "cards", "centre_card", "chosen", "take", "centre", "hand", "returned", "horrors"].includes(field) && Number.isInteger(value) && cards[value]) return nameOf(value);
    if (field === "story" && stories[value]) return stories[value].name;
    if (field === "connections" && connections[value]) return conn(value);
    return null;
  };

  function table(ctx) {
    const v = ctx.view;
    const mine = ctx.seat;
    const seats = v.seats || [];
    const own = v.hand || (ctx.over && mine !== null ? (seats[mine] || {}).hand : null) || [];  // at the end: every hand, yours too
    const hand = own.map((id) => card(id, { key: `hand:${id}` }));
    const board = el("div", { class: "goo-board" },
      el("div", { class: "board-info" }, stat("Turn", v.turn_number || 1),
        PHASES[v.phase] ? stat("Phase", PHASES[v.phase][0]) : el("b", { text: "The game is over" }),
        PHASES[v.phase] ? stat("Pairs to end the game", v.pairs_to_end) : null, v.final_round && PHASES[v.phase] ? el("span", { class: "warning", text: "Final round" }) : null),
      el("div", { class: "centre-row" }, pileEl("Deck", v.deck_size || 0, "deck"),
        zone("The centre", el("div", { class: "card-row" }, (v.centre || []).map((id) => cardEl(card(id, { key: `centre:${id}` }), { clickable: true }))))),
      (v.removed || []).length ? el("details", { class: "zone" }, el("summary", { text: `Removed from the game (${v.removed.length})` }), row(v.removed.map((id) => card(id)), { small: true })) : null);

    function seat(n) {
      const s = seats[n] || {};
      return [
        n === mine && !ctx.over ? null : s.hand ? row(s.hand.map((id) => card(id)), { small: true, cls: "revealed-hand" }) : backs(s.hand_size || 0),
        el("div", { class: "pairs" }, (s.pairs || []).length ? s.pairs.map((p) => el("div", { class: "pair" + (p.matched ? " matched" : "") },
          el("span", { class: "muted", text: `${p.matched ? "Matched" : "Linked"}: ${p.connections.map(conn).join(", ")}` }),
          row(p.cards.map((id) => card(id)), { small: true }))) : el("span", { class: "muted", text: "no pairs" })),
        (s.horrors || []).length ? el("div", { class: "horrors" }, el("span", { class: "muted", text: "Horrors: " }),
          row(s.horrors.map((id) => card(id, { key: `horror:${id}` })), { small: true, clickable: true })) : null,
        s.cultist ? el("span", { class: "tag", text: "☨ the Cultist" }) : null,
      ];
    }
    const stats = (n) => { const s = seats[n] || {}; return [stat("Score", s.score ?? 0), stat("Pairs", (s.pairs || []).length), s.warded ? el("span", { class: "tag ward", text: "✠ warded" }) : null]; };
    const [named, asked] = PHASES[v.phase] || ["", ""];
    const phase = v.phase === "opening" ? "the opening" : named ? `${named} phase` : "";
    const asking = mine !== null && ctx.toAct.includes(mine) && ctx.legal.length > 0;
    return { board, hand, handTitle: ctx.over ? "Your final hand" : "Your hand", seat, stats, phase, prompt: asking ? asked : "" };
  }

  function move(c, ctx) {
    const target = c.target !== null && c.target !== undefined ? ` at ${ctx.names[c.target]}` : "";
    const chosen = c.chosen !== null && c.chosen !== undefined ? `, choosing ${nameOf(c.chosen)}` : "";
    const centre = c.centre !== null && c.centre !== undefined ? ` for ${nameOf(c.centre)} in the centre` : "";
    switch (c.type) {
      case "finish_opening": return { on: null, words: "Finish the opening" };
      case "play_pair": return { on: `hand:${c.cards[0]}`, to: `hand:${c.cards[1]}`, words: `Lay ${nameOf(c.cards[0])} with ${nameOf(c.cards[1])}${c.take !== null && c.take !== undefined ? `, taking ${nameOf(c.take)}` : ""}` };
      case "draw_card": return { on: "deck", words: "Draw a card" };
      case "call_story": return { on: `seat:${c.target}`, words: `Ask ${ctx.names[c.target]} for ${(stories[c.story] || {}).name || c.story}` };
      case "pass_call": return { on: null, words: "Call no story" };
      case "recruit_swap": return { on: `hand:${c.card}`, to: `centre:${c.centre_card}`, words: `Swap ${nameOf(c.card)} for ${nameOf(c.centre_card)} in the centre` };
      case "recruit_draw": return { on: "deck", words: "Recruit: draw a card" };
      case "pass_recruit": return { on: null, words: "Recruit nothing" };
      case "play_horror": return { on: `hand:${c.card}`, to: c.target !== null && c.target !== undefined ? `seat:${c.target}` : null, words: `Play ${nameOf(c.card)}${target}${chosen}${centre}` };
      case "play_sign": return { on: `hand:${c.card}`, to: c.target !== null && c.target !== undefined ? `seat:${c.target}` : null, words: `Play ${nameOf(c.card)}${target}${chosen}${centre}` };
      case "end_turn": return { on: null, words: "End your turn" };
      default: return { on: null, words: null };
    }
  }
  // How To Win: the game ends on a seventh pair or when the deck runs out; the Great Old One left in a hand loses,
  // unless its holder's Cultist is in play; otherwise the highest score wins (ties: the most pairs).
  const ENDS = { seventh_pair: "A seventh pair was played", deck_exhausted: "The deck ran out" };
  const REASONS = {
    score: "the highest score wins",
    great_old_one_in_hand: "the Great Old One was left in a hand, and its holder loses; of the others the highest score wins",
    great_old_one_with_cultist: "the Great Old One was in a hand with its holder's Cultist in play, and its holder wins",
  };
  const reason = (o) => `${ENDS[(o.details || {}).end] || "The game ended"}: ${REASONS[o.reason] || "the highest score wins"}.`;
  return { cardName, table, move, reason, scoreLabel: "Score" };
}
