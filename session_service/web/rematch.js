// The rematch at a finished table: offer one, accept or decline the one on offer, and go to the new table once
// every person has said yes (the same seat: this browser's token or key holds it there too). The page asks
// GET /rematch every two seconds while the result is shown; the offer lapses on its own after a while.

import { call, store } from "./api.js";
import { el } from "./render.js";
import { listWords } from "./cards.js";
import { toast } from "./toast.js";

const POLL_MS = 2000;

export function rematchPanel({ path, token, seat, names }) {
  const root = el("div", { class: "rematch", id: "rematch-box", "aria-live": "polite" });
  let current = null;
  let timer = null;

  const button = (id, text, onclick, cls = "table-action") => el("button", { type: "button", id, class: cls, onclick }, text);
  async function answer(tail) {
    try {
      current = (await call("POST", `${path}/${tail}`, { token })).rematch;
      draw();
    } catch (err) { toast(err.message, "error"); }
  }

  function draw() {
    const r = current;
    const n = names();
    if (r && r.game) {
      store.saveToken(r.game, seat, token);
      root.replaceChildren(el("p", { text: "Everyone said yes: the rematch is on. " }, el("a", { href: `#/table/${r.game}/${seat}`, id: "rematch-link", text: "Go to the new table" })));
      if (timer) { clearInterval(timer); timer = null; }
      location.hash = `#/table/${r.game}/${seat}`;
      return;
    }
    if (!r || r.status !== "offered") {
      const why = r && r.status === "declined" ? `${n[r.declined_by]} declined the rematch. ` : r && r.status === "expired" ? "The rematch offer lapsed. " : "";
      root.replaceChildren(el("p", {}, why, button("rematch", "Offer a rematch", () => answer("rematch"))));
      return;
    }
    const agreed = r.accepted.map((s) => s === seat ? "you" : n[s]);
    const lapse = new Date(r.expires_at).toLocaleTimeString();
    const words = `${r.offered_by === seat ? "You offer" : `${n[r.offered_by]} offers`} a rematch (said yes: ${listWords(agreed)}; it lapses at ${lapse}).`;
    root.replaceChildren(el("p", { id: "rematch-offer", text: words + " " }),
      r.accepted.includes(seat) ? el("span", { class: "muted", text: "Waiting for the others… " }) : button("rematch-accept", "Accept the rematch", () => answer("rematch")),
      button("rematch-decline", r.accepted.includes(seat) ? "Withdraw" : "Decline", () => answer("rematch/decline")));
  }

  async function look() {
    if (!document.body.contains(root)) { clearInterval(timer); timer = null; return; }
    try {
      current = (await call("GET", `${path}/rematch`, { token })).rematch;
      draw();
    } catch (err) { /* the next look tries again */ }
  }

  draw();
  return {
    root,
    start() {  // the game is over: follow the offer
      if (timer) return;
      look();
      timer = setInterval(look, POLL_MS);
    },
  };
}
