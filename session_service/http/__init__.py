"""The HTTP edge (Flask): the app factory, the API's views, live streams' framing and limits, who is asking, the
write rate limit, the web client's files and the lean command route. It reads requests and calls the use cases."""
