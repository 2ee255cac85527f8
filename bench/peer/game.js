// Follow Suit: the small two-player hidden-hand card game the bench serves from boardgame.io, a fair
// counterpart of Mythos Tables' games: every move is checked on the server, and each player's view of the
// state hides the other's hand and the deck (boardgame.io's playerView, applied to every update it sends).
//
// Two decks of 52 (104 cards, numbered 0..103; suit = floor(card / 13) % 4, rank = card % 13) are shuffled
// with boardgame.io's seeded random; each player holds 5. On your turn you play one card from your hand onto
// the pile, following the suit of the top card if you can, and draw the next card of the deck; a higher card
// of the same suit scores a point. The game ends when both hands are empty: 104 moves, about as long as a
// Mythos Tables game (139 commands on average over the bench's playouts).

const { INVALID_MOVE } = require('boardgame.io/core');

const DECK_SIZE = 104;
const HAND_SIZE = 5;

const suit = (card) => Math.floor(card / 13) % 4;
const rank = (card) => card % 13;

// The card a player must or may play: the first that follows the top card's suit, else the first held.
// The load client chooses with this too, so its moves are legal; the server still checks each one.
function playable(hand, top) {
  if (top === undefined) return hand[0];
  const following = hand.find((card) => suit(card) === suit(top));
  return following === undefined ? hand[0] : following;
}

const FollowSuit = {
  name: 'follow-suit',
  minPlayers: 2,
  maxPlayers: 2,

  setup: ({ ctx, random }) => {
    const deck = random.Shuffle([...Array(DECK_SIZE).keys()]);
    const hands = {};
    const points = {};
    for (const player of ctx.playOrder) {
      hands[player] = deck.splice(0, HAND_SIZE);
      points[player] = 0;
    }
    return { deck, hands, pile: [], points };
  },

  turn: { minMoves: 1, maxMoves: 1 },

  moves: {
    play: ({ G, playerID }, card) => {
      const hand = G.hands[playerID];
      const at = hand.indexOf(card);
      if (at < 0) return INVALID_MOVE;
      const top = G.pile[G.pile.length - 1];
      if (top !== undefined && suit(card) !== suit(top) && hand.some((held) => suit(held) === suit(top))) {
        return INVALID_MOVE;
      }
      hand.splice(at, 1);
      G.pile.push(card);
      if (top !== undefined && suit(card) === suit(top) && rank(card) > rank(top)) G.points[playerID] += 1;
      if (G.deck.length > 0) hand.push(G.deck.pop());
    },
  },

  endIf: ({ G, ctx }) => (ctx.playOrder.every((player) => G.hands[player].length === 0) ? { points: G.points } : undefined),

  // A player sees their own hand, how many cards the others hold and how many are left in the deck.
  playerView: ({ G, playerID }) => {
    const handSizes = {};
    for (const [player, hand] of Object.entries(G.hands)) handSizes[player] = hand.length;
    const hands = playerID !== null && playerID !== undefined && G.hands[playerID] ? { [playerID]: G.hands[playerID] } : {};
    return { ...G, deck: G.deck.length, hands, handSizes };
  },
};

module.exports = { FollowSuit, playable };
