"""What crosses the wire: the API's error body, the marshmallow schemas, and the setup both Flask apps share."""
