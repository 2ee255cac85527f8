// A seat's client in TypeScript, typed by openapi-typescript from the served /openapi.json (README, "Generated
// clients"): it reads the seat's NDJSON stream with fetch and the body's ReadableStream, as a browser page does (a
// browser's EventSource cannot send Authorization), and when the game waits on its seat posts one of its legal
// commands as it is. No cast anywhere: each line is a GameStreamMessage, told apart by its type.
//
//   npx openapi-typescript http://127.0.0.1:8000/openapi.json -o api.d.ts
//   npx tsc --strict --target es2022 --module es2022 --lib es2022,dom stream_bot.ts
//
// tests/e2e/test_generated_clients.py type-checks it so, then runs it against the stack.

import type { components, paths } from "./api";

export type StreamMessage = components["schemas"]["GameStreamMessage"];
type Standing = components["schemas"]["State"] | components["schemas"]["Turn"];
type CommandRequest = paths["/v1/games/{game_id}/commands"]["post"]["requestBody"]["content"]["application/json"];
type CommandResult = paths["/v1/games/{game_id}/commands"]["post"]["responses"][200]["content"]["application/json"];
type ApiError = components["schemas"]["ApiError"];
type CreateGame = paths["/v1/games"]["post"]["requestBody"]["content"]["application/json"];
type GameResource = paths["/v1/games"]["post"]["responses"][201]["content"]["application/json"];

/** Open a table with the player's own seat and an AI seat: a request as a person writes it (no field the server
 * fills in itself), which openapi-typescript's default flags type as it is (issue 45: they made `open`, `ai`... of
 * every seat required). */
export async function createTable(base: string, key: string, seed: string): Promise<GameResource> {
  const body: CreateGame = { game: "pocket-madness", seats: [{ me: true }, { name: "Bot", ai: "random" }], seed };
  const reply = await fetch(`${base}/v1/games`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (reply.status !== 201) {
    throw new Error(`the table was refused: ${reply.status} ${await reply.text()}`);
  }
  const table: GameResource = await reply.json();
  return table;
}

/** The stream's messages, one per NDJSON line (an empty line is a keep-alive), until the server closes it. */
export async function* messages(base: string, gameId: string, token: string): AsyncGenerator<StreamMessage> {
  const reply = await fetch(`${base}/v1/games/${gameId}/events/stream`, {
    headers: { Authorization: `Bearer ${token}`, Accept: "application/x-ndjson" },
  });
  if (!reply.ok || reply.body === null) {
    throw new Error(`the stream answered ${reply.status}`);
  }
  const reader = reply.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) {
        return;
      }
      buffer += value;
      for (let newline = buffer.indexOf("\n"); newline >= 0; newline = buffer.indexOf("\n")) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        if (line !== "") {
          const message: StreamMessage = JSON.parse(line);
          yield message;
        }
      }
    }
  } finally {
    await reader.cancel(); // the reader stopped reading (or the stream ended): close the connection
  }
}

/** Post a command for the seat: its result, or the API's error body (a 409 when another seat moved first). */
export async function post(base: string, gameId: string, token: string, body: CommandRequest): Promise<CommandResult | ApiError> {
  const reply = await fetch(`${base}/v1/games/${gameId}/commands`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer: CommandResult | ApiError = await reply.json();
  return answer;
}

/** Follow the seat's stream until the game waits on it, post its first legal command, and answer the version the
 * command brought the game to (the stream's own words say where the game stands: no GET /state). */
export async function playOneCommand(base: string, gameId: string, token: string, seat: number): Promise<number> {
  for await (const message of messages(base, gameId, token)) {
    if (message.type === "state" || message.type === "turn") {
      const standing: Standing = message.data;
      const [first] = standing.legal_commands;
      if (standing.to_act.includes(seat) && first !== undefined) {
        const answer = await post(base, gameId, token, { command: first, expected_version: standing.version });
        if ("version" in answer) {
          return answer.version;
        }
      }
    } else if (message.type === "event") {
      console.log(message.data.text.plain);
    } else if (message.type === "end") {
      throw new Error(`the game ended (${message.data.outcome?.reason}) before the seat moved`);
    }
  }
  throw new Error("the stream closed");
}
