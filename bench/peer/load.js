// The peer's load client: N concurrent Follow Suit matches against a boardgame.io server, driven the way its
// own browser client drives it. Each match is created through the Lobby API (POST /games/<name>/create, then
// POST .../join for each seat's credentials). Each seat has its own socket.io connection to the game's
// namespace and speaks boardgame.io's SocketIO transport: 'sync' (match, seat, credentials) for the state,
// then each move as an 'update' emit of a MAKE_MOVE action carrying the credentials, with the state ID the
// seat saw, the match and the seat. The server answers an accepted move by emitting 'update' to every seat
// with that seat's view (playerView).
//
// A seat plays when its view says it is its turn; the card comes from its own view (game.js's `playable`).
// A move's latency runs from the emit to the mover's own 'update' that shows the move applied (the state ID
// moved on and the card lies on the pile where it was played): only such moves are counted as accepted. A move
// with no such answer within UNANSWERED_MS is counted as unanswered and its match abandoned for a new one.
// When a match is over the table creates the next one through the lobby and its seats 'sync' to it over the
// same connections, as boardgame.io's client does on updateMatchID (not a sample; its cost falls inside the
// window, as starting games does in play).
//
// Once every table is seated and synced, a warm-up runs, then the window: "window open" and "window close"
// are printed as they happen (the caller reads the server's CPU time then), and after the window one line of
// JSON: the window's length, the latency of every accepted move that was sent and answered inside it, counts.
//
//   node load.js --url http://127.0.0.1:8123 --matches 10 --warmup 1.5 --measure 4

const { performance } = require('node:perf_hooks');
const { io } = require('socket.io-client');
const { FollowSuit, playable } = require('./game');

const UNANSWERED_MS = 10_000;
const SETUP_MS = 60_000;

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : fallback;
}

const url = option('url', 'http://127.0.0.1:8000');
const matches = Number(option('matches', '1'));
const warmupMs = Number(option('warmup', '1.5')) * 1000;
const measureMs = Number(option('measure', '4')) * 1000;
const game = FollowSuit.name;

const counts = { accepted: 0, refused: 0, unanswered: 0, games_started: 0, games_finished: 0 };
const samples = []; // [sent, answered] of every accepted move, in performance.now() milliseconds
let playing = false;
let stopping = false;

// A lobby call; a connection the server closed as it was reused (keep-alive) is tried once more.
async function lobby(path, body) {
  for (let attempt = 0; ; attempt += 1) {
    let reply;
    try {
      reply = await fetch(`${url}/games/${game}${path}`, {
        method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
      });
    } catch (error) {
      if (attempt < 1) continue;
      throw new Error(`POST /games/${game}${path} failed: ${error.cause || error}`);
    }
    if (!reply.ok) throw new Error(`POST /games/${game}${path} answered ${reply.status}: ${await reply.text()}`);
    return reply.json();
  }
}

class Seat {
  constructor(table, playerID) {
    this.table = table;
    this.playerID = playerID;
    this.matchID = null;
    this.socket = io(`${url}/${game}`, { forceNew: true }); // a connection of its own, as each player's browser
    this.socket.on('connect', () => { if (this.matchID) this.sync(); });
    this.socket.on('connect_error', (error) => { if (!this.matchID) fail(error); });
    this.socket.on('sync', (matchID, { state }) => this.see(matchID, state));
    this.socket.on('update', (matchID, state) => this.see(matchID, state));
  }

  // Sit at a new match: resolves once its state has come.
  join(matchID, credentials) {
    this.matchID = matchID;
    this.credentials = credentials;
    this.state = null;
    this.pending = null; // the move sent and not yet seen applied: {stateID, card, at, sent}
    const synced = new Promise((resolve) => { this.synced = resolve; });
    if (this.socket.connected) this.sync();
    return synced;
  }

  sync() {
    this.socket.emit('sync', this.matchID, this.playerID, this.credentials, 2);
  }

  see(matchID, state) {
    if (matchID !== this.matchID || (this.state && state._stateID <= this.state._stateID)) return;
    this.state = state;
    this.synced();
    const pending = this.pending;
    if (pending && state._stateID > pending.stateID) {
      this.pending = null;
      if (state.G.pile[pending.at] === pending.card) {
        counts.accepted += 1;
        samples.push([pending.sent, performance.now()]);
      } else {
        counts.refused += 1;
      }
    }
    if (state.ctx.gameover !== undefined) this.table.over(matchID);
    else this.play();
  }

  play() {
    const { state } = this;
    // Not before both seats have the match's state: an update made before a seat's sync is answered does not
    // reach that seat (the server adds it to the match's listeners only after answering), which would stall.
    if (!playing || stopping || this.table.matchID !== this.matchID || this.pending || !state) return;
    if (state.ctx.currentPlayer !== this.playerID) return;
    const card = playable(state.G.hands[this.playerID], state.G.pile[state.G.pile.length - 1]);
    const action = { type: 'MAKE_MOVE', payload: { type: 'play', args: [card], playerID: this.playerID, credentials: this.credentials } };
    this.pending = { stateID: state._stateID, card, at: state.G.pile.length, sent: performance.now() };
    this.socket.emit('update', action, state._stateID, this.matchID, this.playerID);
  }
}

// One slot of concurrency: a match at a time, its two seats kept across matches.
class Table {
  constructor(slot) {
    this.slot = slot;
    this.matchID = null;
    this.seats = ['0', '1'].map((playerID) => new Seat(this, playerID));
  }

  // Both seats join through the lobby before either connects to the match: with an asynchronous store a
  // seat's connection (which rewrites the match's metadata) can otherwise overwrite the other's join, whose
  // credentials are then refused and its sync never answered.
  async newMatch() {
    this.matchID = null;
    const { matchID } = await lobby('/create', { numPlayers: 2 });
    const credentials = [];
    for (const seat of this.seats) {
      const { playerCredentials } = await lobby(`/${matchID}/join`, { playerID: seat.playerID, playerName: `Bench ${this.slot}.${seat.playerID}` });
      credentials.push(playerCredentials);
    }
    const synced = Promise.all(this.seats.map((seat, i) => seat.join(matchID, credentials[i])));
    let timer;
    const late = new Promise((resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`match ${matchID}: no sync answered in ${SETUP_MS} ms`)), SETUP_MS);
    });
    try {
      await Promise.race([synced, late]);
    } finally {
      clearTimeout(timer);
    }
    this.matchID = matchID;
    counts.games_started += 1;
  }

  go() {
    for (const seat of this.seats) seat.play();
  }

  over(matchID) {
    if (matchID !== this.matchID) return;
    counts.games_finished += 1;
    this.next();
  }

  next() {
    this.matchID = null;
    if (!stopping) this.newMatch().then(() => this.go(), fail);
  }

  watch(now) {
    if (this.matchID && this.seats.some((seat) => seat.pending && now - seat.pending.sent > UNANSWERED_MS)) {
      counts.unanswered += 1;
      this.next();
    }
  }

  close() {
    for (const seat of this.seats) seat.socket.close();
  }
}

function fail(error) {
  console.error(`peer load failed: ${error && error.stack ? error.stack : error}`);
  process.exit(1);
}

const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

async function main() {
  const tables = [...Array(matches).keys()].map((slot) => new Table(slot));
  await Promise.all(tables.map((table) => table.newMatch()));
  const watchdog = setInterval(() => {
    const now = performance.now();
    for (const table of tables) table.watch(now);
  }, 500);
  playing = true;
  for (const table of tables) table.go();
  await sleep(warmupMs);
  const begin = performance.now();
  console.log('window open');
  await sleep(measureMs);
  const end = performance.now();
  console.log('window close');
  stopping = true;
  clearInterval(watchdog);
  const inside = samples.filter(([sent, answered]) => begin <= sent && answered <= end);
  const report = JSON.stringify({
    matches, seconds: (end - begin) / 1000, moves: inside.length,
    latencies_ms: inside.map(([sent, answered]) => answered - sent), ...counts,
  });
  for (const table of tables) table.close();
  // Exit only once the line is flushed: a pipe takes 64 KiB at a time, and process.exit() right after a longer
  // console.log cut the report there (a quiet machine makes enough moves for a report that long).
  process.stdout.write(report + '\n', () => process.exit(0));
}

main().catch(fail);
