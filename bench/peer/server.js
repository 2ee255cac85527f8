// The peer's server: boardgame.io's own Server (Koa: the Lobby API and the socket.io transport on one port)
// serving Follow Suit, with matches kept in memory (the default) or in its FlatFile store (node-persist files
// in a folder). Prints "ready <port>" once it listens.
//
//   node server.js --port 8123 --store memory
//   node server.js --port 8124 --store flatfile --dir /tmp/peer-flatfile

const { Server, FlatFile } = require('boardgame.io/server');
const { FollowSuit } = require('./game');

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : fallback;
}

const port = Number(option('port', '8000'));
const store = option('store', 'memory');
if (!['memory', 'flatfile'].includes(store)) throw new Error(`--store must be memory or flatfile, not ${store}`);
const db = store === 'flatfile' ? new FlatFile({ dir: option('dir', null), logging: false }) : undefined;
if (store === 'flatfile' && !option('dir', null)) throw new Error('--store flatfile needs --dir');

const server = Server({ games: [FollowSuit], db });
server.run(port, () => console.log(`ready ${port}`));
