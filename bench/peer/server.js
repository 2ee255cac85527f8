// The peer's server: boardgame.io's own Server (Koa: the Lobby API and the socket.io transport on one port)
// serving Follow Suit, with matches kept in memory (the default), in its FlatFile store (node-persist files in a
// folder) or in PostgreSQL (bgio-postgres, through Sequelize). Prints "ready <port>" once it listens.
//
//   node server.js --port 8123 --store memory
//   node server.js --port 8124 --store flatfile --dir /tmp/peer-flatfile
//   node server.js --port 8125 --store postgres --db postgresql://bench@127.0.0.1:5433/bench

const { Server, FlatFile } = require('boardgame.io/server');
const { PostgresStore } = require('bgio-postgres');
const { FollowSuit } = require('./game');

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : fallback;
}

const port = Number(option('port', '8000'));
const store = option('store', 'memory');
if (!['memory', 'flatfile', 'postgres'].includes(store)) throw new Error(`--store must be memory, flatfile or postgres, not ${store}`);
if (store === 'flatfile' && !option('dir', null)) throw new Error('--store flatfile needs --dir');
if (store === 'postgres' && !option('db', null)) throw new Error('--store postgres needs --db');
const stores = {
  memory: () => undefined,
  flatfile: () => new FlatFile({ dir: option('dir', null), logging: false }),
  postgres: () => new PostgresStore(option('db', null), { logging: false }),
};
const db = stores[store]();

const server = Server({ games: [FollowSuit], db });
server.run(port, () => console.log(`ready ${port}`));
