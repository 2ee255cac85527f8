"""The rules service: a Flask app (and a TCP hop) that sets games up, decides commands and lists legal ones."""
