"""The terminal client behind ``mythos play``: a plain client of the public API (stdlib + requests).

``api`` speaks HTTP and reads the game's live stream on a thread of its own; ``games`` draws each game as a
compact table from the seat's view and the catalogue's card data, and names its moves; ``screen`` lays out a
table (board, seats, your hand, the line that says what happens now, the end); ``session`` is the loop that
follows the stream and takes the player's choices."""
