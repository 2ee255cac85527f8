// The table's chat: the seats talk on the players' channel; those who watch (with a player key) on the
// spectators' one, which the seats do not see while the game is on. Lines arrive on the game's stream as `chat`
// messages (table.js hands them here); once the stream has ended (the game is over) the panel asks GET /chat now
// and then. Text is always text (no HTML); a line of another player can be muted for this browser's player.

import { call, store } from "./api.js";
import { el } from "./render.js";
import { toast } from "./toast.js";

const POLL_MS = 3000;

export function chatPanel({ path, token, seat }) {
  const key = store.playerKey();
  const asker = token || key || undefined;  // reads as the seat (or the player, or a spectator)
  const writer = seat !== null ? token : key;
  const seen = new Set();
  const after = { players: 0, spectators: 0 };  // the last line read on each channel
  let polling = null;
  let over = false;

  const list = el("ol", { class: "chat-lines", id: "chat-lines", "aria-live": "polite", tabindex: "0", "aria-label": "the chat" });  // it scrolls: keys reach it too
  const input = el("input", { id: "chat-text", maxlength: "280", placeholder: seat !== null ? "Say something to the table" : "Say something to the other spectators",
    "aria-label": "chat message", autocomplete: "off" });
  const form = el("form", { class: "chat-form", id: "chat-form", onsubmit: send }, input, el("button", { type: "submit", id: "chat-send", text: "Send" }));
  const hint = writer ? null : el("p", { class: "muted", text: "Make yourself a player in the lobby to chat while you watch." });
  const root = el("details", { class: "chat", id: "chat", open: true }, el("summary", { text: seat !== null ? "Table chat" : "Chat (the players' and the spectators')" }),
    list, writer ? form : hint);

  function add(line) {
    if (seen.has(line.id)) return;
    seen.add(line.id);
    after[line.channel] = Math.max(after[line.channel] || 0, line.id);
    const who = line.from || {};
    const mute = key && who.player && !(seat !== null && who.seat === seat) ? el("button", { type: "button", class: "chat-mute", "data-player": who.player,
      title: `Hide ${who.name}'s lines`, onclick: () => muteOf(who) }, "mute") : null;
    const item = el("li", { class: `chat-line ${line.channel}`, "data-id": line.id, "data-player": who.player || "" },
      el("strong", { class: "chat-name", text: who.name }), line.channel === "spectators" ? el("span", { class: "muted", text: " (watching)" }) : null,
      ": ", el("span", { class: "chat-text", text: line.text }), " ", mute);
    const newer = [...list.children].find((li) => Number(li.dataset.id) > line.id);
    list.insertBefore(item, newer || null);
    list.scrollTop = list.scrollHeight;
  }

  async function send(event) {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    try {
      add(await call("POST", `${path}/chat`, { token: writer, body: { text } }));
      input.value = "";
    } catch (err) { toast(err.message, "error"); }
  }

  async function muteOf(who) {
    try {
      await call("POST", `/v1/players/${encodeURIComponent(who.player)}/mute`, { token: key });
      list.querySelectorAll(`li[data-player="${CSS.escape(who.player)}"]`).forEach((li) => li.remove());
      toast(`You will not read ${who.name}'s lines any more.`);
    } catch (err) { toast(err.message, "error"); }
  }

  async function poll() {  // after the stream: the lines said since, on each channel this reader reads
    const channels = seat === null || over ? ["players", "spectators"] : ["players"];
    for (const channel of channels) {
      try {
        const page = await call("GET", `${path}/chat`, { token: asker, query: { channel, after: after[channel] || 0, limit: 200 } });
        page.messages.forEach(add);
      } catch (err) { /* not this reader's channel, or the table is gone: nothing to add */ }
    }
  }

  return {
    root,
    add,
    ended() {  // the game stream is over: keep the chat going by asking now and then
      over = true;
      if (polling) return;
      poll();
      polling = setInterval(() => { if (!document.body.contains(root)) clearInterval(polling); else poll(); }, POLL_MS);
    },
  };
}
