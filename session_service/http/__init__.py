"""The HTTP edge (Flask, inside shared/wire/edge.py's middleware): the app factory, the API's views (the command
route also served past Flask's routing), live streams' framing and limits, who is asking, the write rate limit and
the web client's files. It reads requests and calls the use cases."""
