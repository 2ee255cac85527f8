"""The rules service: a stateless Flask app that sets games up, decides commands and lists legal ones."""
