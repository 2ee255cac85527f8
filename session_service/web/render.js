// Draw a seat's view from the view itself and the catalogue's card data: a generic renderer (objects, lists,
// numbers) that knows, per game, which fields hold cards and how to name them. No game logic lives here.

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function human(key) {
  const text = String(key).replace(/[_-]+/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function byKey(list, key) {
  const out = {};
  for (const item of list || []) out[item[key]] = item;
  return out;
}

// Which fields hold cards, per game, and how a card id becomes a name, a text and a colour class.
function resolvers(gameId, data) {
  if (gameId === "rites-of-cthulhu") {
    const entities = byKey(data.entities, "id"), artifacts = byKey(data.artifacts, "id"), rites = byKey(data.rites, "id");
    const entity = (id) => entities[id] && { kind: "entity", id, name: entities[id].name,
      text: `${entities[id].cult_name}, elder sign ${entities[id].rank}${entities[id].forbidden_book ? " (forbidden book)" : ""}`,
      badge: entities[id].rank, cls: "cult-" + entities[id].cult };
    const artifact = (id) => artifacts[id] && { kind: "artifact", id, name: artifacts[id].name, text: artifacts[id].text, badge: "✦", cls: "artifact" };
    return {
      fields: { card: entity, cards: entity, book: entity, ridge_card: entity, hand: entity, hands: entity, captured: entity,
        first_draws: entity, set_aside: entity, thrown_out: entity, peeked: entity, ridge: entity, played: entity, trick: entity,
        deck: entity, pile_order: entity, face_down: entity, set_aside_face_down_seen: entity, gate: entity, taken: entity,
        artifact: artifact, artifact_deck: artifact, coveted: artifact, give: artifact, take: artifact, artifacts: artifact },
      strings: (s) => rites[s] && { kind: "rite", id: s, name: rites[s].title, text: rites[s].summary, cls: "rite" },
      seatFields: ["seat"],
    };
  }
  if (gameId === "pocket-madness") {
    const locations = byKey(data.locations, "number"), portals = byKey(data.portals, "number");
    const location = (n) => locations[n] && { kind: "location", id: n, name: locations[n].name, badge: n,
      text: portals[n] ? `Portal: ${portals[n].name}: ${portals[n].text}` : "", cls: "loc-" + n };
    const portal = (n) => portals[n] && { kind: "portal", id: n, name: portals[n].name, badge: n, text: portals[n].text, cls: "portal" };
    return { fields: { location, hand: location, hands: location, known_cards: location, discards: location, melds: location, cards: location, portal },
      strings: () => null, seatFields: ["seat", "owner", "start_player"], perSeat: ["discards", "madness"] };
  }
  if (gameId === "arkham-ritual") {
    const cards = byKey(data.cards, "id");
    const card = (id) => cards[id] && { kind: "card", id, name: cards[id].name, text: `${cards[id].colour}. ${cards[id].text || ""}`,
      badge: cards[id].colour === "cursed" ? "☠" : cards[id].colour === "sane" ? "✧" : "?", cls: "colour-" + cards[id].colour };
    return { fields: { cards: card, card: card, deck: card, own_card: card, deck_top: card, discards: card, removed: card, cards_in_play: card },
      strings: () => null, seatFields: ["to", "active", "holder", "passers", "seat"], perSeat: ["cards", "sanity"] };
  }
  if (gameId === "rise-of-cthulhu") {
    const all = {};
    for (const group of ["locations", "cultists", "old_ones", "monsters", "artifacts"]) {
      for (const [id, card] of Object.entries(data[group] || {})) all[id] = card;
    }
    const str = (s) => {
      const c = all[s];
      if (!c) return null;
      const name = c.name || `${human(c.colour)} ${c.number}`;
      return { kind: c.kind || "card", id: s, name, text: c.text || "", badge: c.number || c.letter || "", cls: c.colour ? "colour-" + c.colour : "kind-" + (c.kind || "card") };
    };
    return { fields: {}, strings: str, seatFields: ["current", "facing"] };
  }
  if (gameId === "great-old-one") {
    const cards = byKey(data.cards, "id"), stories = byKey(data.stories, "key"), connections = byKey(data.connections, "key");
    const card = (id) => cards[id] && { kind: cards[id].kind, id, name: cards[id].name,
      text: [cards[id].year, (cards[id].connections || []).map((k) => (connections[k] || {}).name || k).join(", "), cards[id].text || (data.effects || {})[cards[id].effect] || ""].filter(Boolean).join(" · "),
      badge: cards[id].kind === "story" ? "§" : "✹", cls: "kind-" + cards[id].kind };
    return {
      fields: { card, cards: card, centre: card, hand: card, deck: card, removed: card, chosen: card, centre_card: card, take: card, horrors: card },
      strings: (s) => (stories[s] && { kind: "story", id: s, name: stories[s].name, text: String(stories[s].year), cls: "kind-story" })
        || (connections[s] && { kind: "connection", id: s, name: connections[s].name, text: "connection", cls: "kind-connection" }),
      seatFields: ["seat", "target", "turn", "first_player"],
    };
  }
  return { fields: {}, strings: () => null, seatFields: ["seat"] };
}

// What a player looks at first: their hand and the middle of the table; the long piles last.
const FIRST = ["hand", "hands", "table", "centre", "valley", "locations", "cards", "passed_card", "coveted", "portals", "seats"];
const LAST = ["deck", "artifact_deck", "cards_in_play", "first_draws"];
// Lists the views hold one entry per seat, in seat order.
const PER_SEAT = ["hands", "melds", "known_cards", "known_in_hand", "hand_counts", "hand_sizes"];
function rank(key) {
  if (FIRST.includes(key)) return FIRST.indexOf(key) - 100;
  if (LAST.includes(key)) return 100 + LAST.indexOf(key);
  return 0;
}

export class Renderer {
  constructor(game, seats) {
    this.game = game;
    this.seats = seats || [];
    this.r = resolvers(game.id, game.card_data || {});
  }

  seatName(n) {
    const seat = this.seats[n];
    return seat ? `${seat.name || "Open seat"} (seat ${n})` : `seat ${n}`;
  }

  cardOf(key, value) {
    if (typeof value === "string") return this.r.strings(value);
    const make = this.r.fields[key];
    return make && Number.isInteger(value) ? make(value) : null;
  }

  chip(card) {
    return el("span", { class: "card " + (card.cls || ""), "data-card": `${card.kind}:${card.id}`, title: card.text || card.name },
      card.badge !== undefined && card.badge !== "" ? el("b", { class: "badge", text: String(card.badge) }) : null,
      el("span", { class: "name", text: card.name }));
  }

  hidden(count) {
    const row = el("span", { class: "cards" });
    for (let i = 0; i < Math.min(count, 30); i++) row.append(el("span", { class: "card back", title: "hidden" }));
    row.append(el("span", { class: "count", text: `${count} card${count === 1 ? "" : "s"}` }));
    return row;
  }

  // One value of the view, drawn by what it is and the field it sits in.
  value(value, key) {
    const inCardField = key in this.r.fields;
    if ((value === null || value === undefined) && inCardField) return el("span", { class: "card back", title: "hidden" });
    if (value === null || value === undefined) return el("span", { class: "muted", text: "—" });
    if (typeof value === "boolean") return el("span", { class: value ? "yes" : "no", text: value ? "yes" : "no" });
    if (typeof value === "number") {
      if (inCardField && value === -1) return el("span", { class: "card back", title: "face down" });
      const card = this.cardOf(key, value);
      if (card) return this.chip(card);
      if (inCardField && /hand|cards/.test(key)) return this.hidden(value);
      if (this.r.seatFields.includes(key) && Number.isInteger(value) && value >= 0 && value < this.seats.length) {
        return el("span", { class: "seat-ref", text: this.seatName(value) });
      }
      return el("span", { class: "num", text: String(value) });
    }
    if (typeof value === "string") {
      const card = this.cardOf(key, value);
      return card ? this.chip(card) : el("span", { class: "str", text: human(value) });
    }
    if (Array.isArray(value)) {
      if (value.length === 0) return el("span", { class: "muted", text: "none" });
      if (value.length === this.seats.length && ((PER_SEAT.includes(key) && value.every((v) => v !== null && typeof v === "object"))
          || (this.r.perSeat || []).includes(key))) {  // one entry per seat
        return el("dl", { class: "obj" }, value.map((v, n) => el("div", { class: "field", "data-key": String(n) },
          el("dt", { text: this.seatName(n) }), el("dd", {}, this.value(v, key)))));
      }
      const cards = value.every((v) => typeof v !== "object" || v === null) && (inCardField || value.some((v) => typeof v === "string" && this.cardOf(key, v)));
      if (cards) return el("span", { class: "cards" }, value.map((v) => this.value(v, key)));
      if (value.every((v) => typeof v === "number") && this.r.seatFields.includes(key)) {
        return el("span", { class: "seat-list" }, value.map((v) => this.value(v, key)));
      }
      if (value.every((v) => typeof v !== "object" || v === null)) {
        return el("span", { class: "plain-list" }, value.map((v) => this.value(v, key)));
      }
      const grid = this.grid(value, key);
      if (grid) return grid;
      const drawn = value.map((v) => this.value(v, key));
      if (drawn.every((node) => node.classList.contains("card"))) return el("span", { class: "cards" }, drawn);
      return el("ol", { class: "items", start: "0" }, drawn.map((node) => el("li", {}, node)));
    }
    if (typeof value.face_up === "boolean") {  // a card in a row that may lie face down
      const rest = Object.entries(value).filter(([k]) => k !== "face_up");
      const card = rest.length === 1 ? this.cardOf(rest[0][0], rest[0][1]) : null;
      if (!card && !value.face_up) return el("span", { class: "card back", title: "face down" });
      if (card) {  // a face-down card whose face the caller may know (a finished game's replay)
        const chip = this.chip(card);
        if (!value.face_up) chip.classList.add("face-down");
        return chip;
      }
    }
    return this.object(value, key);
  }

  // A list of like records (portals, locations, the seats) as a table: one row each, one column per field.
  grid(rows, key) {
    if (!rows.every((r) => r && typeof r === "object" && !Array.isArray(r))) return null;
    const columns = Object.keys(rows[0]);
    const same = rows.every((r) => Object.keys(r).length === columns.length && columns.every((c) => c in r));
    const flat = rows.every((r) => columns.every((c) => r[c] === null || typeof r[c] !== "object" || Array.isArray(r[c])));
    if (!same || !flat || columns.length > 12) return null;
    const seatRows = key === "seats" && rows.length === this.seats.length;
    return el("table", { class: "grid", "data-key": key },
      el("tr", {}, seatRows ? el("th", { text: "" }) : null, columns.map((c) => el("th", { text: human(c) }))),
      rows.map((r, n) => el("tr", { "data-row": n }, seatRows ? el("th", { text: this.seatName(n) }) : null,
        columns.map((c) => el("td", { "data-key": c }, this.value(r[c], c))))));
  }

  object(obj, parentKey) {
    const keys = Object.keys(obj);
    const seatKeyed = keys.length > 0 && keys.every((k) => /^\d+$/.test(k)) && keys.length <= this.seats.length;
    const dl = el("dl", { class: "obj" });
    if (!seatKeyed) keys.sort((a, b) => rank(a) - rank(b));
    for (const key of keys) {
      const label = seatKeyed ? this.seatName(Number(key)) : human(key);
      const childKey = seatKeyed ? parentKey : key;
      if (seatKeyed && typeof obj[key] === "number" && parentKey in this.r.fields) {
        dl.append(el("div", { class: "field", "data-key": key }, el("dt", { text: label }), el("dd", {}, this.hidden(obj[key]))));
        continue;
      }
      dl.append(el("div", { class: "field", "data-key": key }, el("dt", { text: label }), el("dd", {}, this.value(obj[key], childKey))));
    }
    return dl;
  }

  // The scoreboard: each seat with its name, whether the game waits on it, and its per-seat numbers.
  scoreboard(view, toAct, mySeat) {
    const perSeat = ["scores", "points", "sanity", "madness", "hand_sizes", "hand_counts"].filter((k) => Array.isArray(view[k]) || (view[k] && typeof view[k] === "object"));
    const table = el("table", { class: "scores" });
    table.append(el("tr", {}, el("th", { text: "Seat" }), perSeat.map((k) => el("th", { text: human(k) })),
      Array.isArray(view.seats) ? el("th", { text: "Score" }) : null));
    this.seats.forEach((seat, n) => {
      const cells = perSeat.map((k) => {
        const v = view[k][n] !== undefined ? view[k][n] : view[k][String(n)];
        return el("td", {}, v === undefined ? "" : typeof v === "object" ? Object.entries(v).map(([a, b]) => `${b} ${a}`).join(", ") : String(v));
      });
      const seatView = Array.isArray(view.seats) ? view.seats[n] || {} : null;
      table.append(el("tr", { class: [toAct.includes(n) ? "acting" : "", n === mySeat ? "mine" : ""].join(" "), "data-seat": n },
        el("td", {}, (toAct.includes(n) ? "▶ " : "") + this.seatName(n) + (seat.ai ? ` · AI ${seat.ai}` : "") + (n === mySeat ? " · you" : "")),
        cells, seatView ? el("td", { text: String(seatView.score ?? "") }) : null));
    });
    return table;
  }

  // A legal command as a button label: its type, then each field with cards and seats named.
  commandLabel(command) {
    const parts = [];
    for (const [key, value] of Object.entries(command)) {
      if (key === "type" || value === null || value === false) continue;
      let shown;
      const card = typeof value === "number" || typeof value === "string" ? this.cardOf(key, value) : null;
      if (card) shown = card.name;
      else if (Array.isArray(value)) shown = value.map((v) => (this.cardOf(key, v) || { name: String(v) }).name).join(" + ");
      else if (["seat", "to", "target"].includes(key) && Number.isInteger(value) && value < this.seats.length) shown = this.seatName(value);
      else shown = value === true ? "yes" : human(String(value));
      parts.push(`${human(key).toLowerCase()}: ${shown}`);
    }
    return parts.join(", ");
  }
}
